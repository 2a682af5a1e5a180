"""High Card: a tiny test-only game that exercises the whole core protocol.

Every seat is dealt one hidden card from a face-down pool (values 1-6, two
copies each). In seat order each seat may hold or swap: a swapped card is
discarded face up and a new one drawn. Highest card wins; equal cards tie.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from obelisk.core import CHANCE, TERMINAL, ActionSpace, Game, GameInfo, Option, State
from obelisk.core.pools import deal_random, pool_outcomes

VALUES = (1, 2, 3, 4, 5, 6)
COPIES = 2
ACTIONS = ActionSpace([("hold", 1), ("swap", 1)])


class HighCardState(State):
    def _init(self) -> None:
        self.pool = [COPIES] * len(VALUES)
        self.hands = [-1] * self.num_players
        self.discards: list[int] = []
        self.turn = 0
        self.drawing_for = 0

    def _current_player(self) -> int:
        if self.drawing_for >= 0:
            return CHANCE
        if self.turn >= self.num_players:
            return TERMINAL
        return self.turn

    def _legal_actions(self) -> list[int]:
        if self.game.options["allow_swap"] and sum(self.pool):
            return [ACTIONS.encode("hold"), ACTIONS.encode("swap")]
        return [ACTIONS.encode("hold")]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return pool_outcomes(self.pool)

    def _apply_action(self, action: int) -> None:
        if self.drawing_for >= 0:
            self.pool[action] -= 1
            self.hands[self.drawing_for] = action
            self.drawing_for = self.hands.index(-1) if -1 in self.hands else -1
            return
        name, _ = ACTIONS.decode(action)
        if name == "swap":
            self.discards.append(self.hands[self.turn])
            self.hands[self.turn] = -1
            self.drawing_for = self.turn
        self.turn += 1

    def _action_to_string(self, action: int) -> str:
        if self._current_player() == CHANCE:
            return f"draw {VALUES[action]}"
        return ACTIONS.decode(action)[0]

    def _action_visible_to(self, action: int, seat: int | None) -> bool:
        return self._current_player() != CHANCE or seat == self.drawing_for

    def _hidden_action_string(self, action: int) -> str:
        return f"player {self.drawing_for + 1} drew a card"

    def _reveals(self, action: int) -> bool:
        """A swap puts the old card face up; holding shows nothing."""
        return ACTIONS.decode(action)[0] == "swap"

    def _rank_keys(self) -> list[Any]:
        return [VALUES[h] for h in self.hands]

    def _scores(self) -> list[dict[str, Any]]:
        return [{"total": VALUES[h] if h >= 0 else 0, "breakdown": {"card": VALUES[h] if h >= 0 else 0}} for h in self.hands]

    def _observation(self, seat: int | None) -> dict[str, Any]:
        terminal = self._current_player() == TERMINAL
        return {
            "hands": [
                VALUES[h] if h >= 0 and (terminal or i == seat) else ("hidden" if h >= 0 else None)
                for i, h in enumerate(self.hands)
            ],
            "discards": [VALUES[d] for d in self.discards],
            "pool_size": sum(self.pool),
        }

    def _resample(self, seat: int, rng: random.Random) -> "HighCardState":
        new = self.clone()
        if self._current_player() == TERMINAL:
            return new
        unseen = list(new.pool)
        others = [i for i, h in enumerate(new.hands) if h >= 0 and i != seat]
        for i in others:
            unseen[new.hands[i]] += 1
        for i, card in zip(others, deal_random(unseen, len(others), rng)):
            new.hands[i] = card
        new.pool = unseen
        return new

    def _render(self) -> str:
        hands = " ".join(str(VALUES[h]) if h >= 0 else "-" for h in self.hands)
        return f"hands: {hands}\ndiscards: {[VALUES[d] for d in self.discards]}\npool: {self.pool}\nturn: {self.turn}"

    def _evaluate(self) -> list[float]:
        return [(VALUES[h] - 3.5) / 2.5 if h >= 0 else 0.0 for h in self.hands]



class HighCardGame(Game):
    info = GameInfo(
        id="highcard",
        name="High Card",
        min_players=2,
        max_players=4,
        description="test-only game: hold or swap one hidden card",
        options=(Option("allow_swap", True, "whether seats may swap their card", (True, False)),),
    )
    state_class = HighCardState

    def render_observation(self, view: Mapping[str, Any]) -> str:
        hands = "  ".join(f"player {i + 1}: {h if h is not None else '-'}" for i, h in enumerate(view["hands"]))
        return f"{hands}\ndiscards: {view['discards']}  pool: {view['pool_size']} cards"

    def observation_tensor_size(self) -> int:
        return 2 * len(VALUES) + 2

    def observation_tensor(self, view: Mapping[str, Any]) -> list[float]:
        """Own card one-hot, discarded values counts, pool size, is-my-turn."""
        own = [0.0] * len(VALUES)
        seat = view["seat"]
        if seat is not None and isinstance(view["hands"][seat], int):
            own[view["hands"][seat] - 1] = 1.0
        discards = [float(view["discards"].count(v)) for v in VALUES]
        return own + discards + [view["pool_size"] / 12, float(view["current_player"] == seat)]

    def num_distinct_actions(self) -> int:
        return ACTIONS.size

    def max_chance_outcomes(self) -> int:
        return len(VALUES)

    def max_game_length(self) -> int:
        return 3 * self.num_players


class LeakyHighCardState(HighCardState):
    """High Card with a re-deal that reads hidden truth, for testing the conformance suite.

    It is the kind of bug once found in King Solomon's Treasury: "nobody" (-1)
    doubles as a seat index. The re-deal leaves alone the seat being dealt a
    card (it holds none yet); when nobody is, ``range(n)[-1]`` is the last
    seat, whose true card then survives every re-deal for the other seats.
    A re-deal of the true state keeps that card too, so pairing a state only
    with its own re-deals cannot see the leak.
    """

    def _resample(self, seat: int, rng: random.Random) -> "HighCardState":
        new = self.clone()
        if self._current_player() == TERMINAL:
            return new
        dealt_to = list(range(self.num_players))[self.drawing_for]
        unseen = list(new.pool)
        others = [i for i, h in enumerate(new.hands) if h >= 0 and i not in (seat, dealt_to)]
        for i in others:
            unseen[new.hands[i]] += 1
        for i, card in zip(others, deal_random(unseen, len(others), rng)):
            new.hands[i] = card
        new.pool = unseen
        return new


class LeakyHighCardGame(HighCardGame):
    info = GameInfo(
        id="highcard_leaky",
        name="High Card (leaky re-deal)",
        min_players=2,
        max_players=4,
        description="test-only: High Card whose re-deal reads the last seat's true card",
        options=HighCardGame.info.options,
    )
    state_class = LeakyHighCardState


class TwoStepHighCardState(HighCardState):
    """High Card whose turn is two decisions (hold or swap, twice), so a turn can be taken back step by step."""

    def _init(self) -> None:
        super()._init()
        self.step = 0

    def _apply_action(self, action: int) -> None:
        if self.drawing_for >= 0:
            super()._apply_action(action)
            return
        turn = self.turn
        super()._apply_action(action)
        self.step = 1 - self.step
        if self.step:
            self.turn = turn


class TwoStepHighCardGame(HighCardGame):
    info = GameInfo(
        id="highcard_two_step",
        name="High Card (two decisions a turn)",
        min_players=2,
        max_players=4,
        description="test-only: High Card with two hold-or-swap decisions per turn",
        options=HighCardGame.info.options,
    )
    state_class = TwoStepHighCardState

    def max_game_length(self) -> int:
        return 5 * self.num_players
