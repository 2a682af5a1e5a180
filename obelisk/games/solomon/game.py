"""The ``solomon`` game object: options, action space, size bounds and the data tables."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from obelisk.core import ActionSpace, Game, GameInfo, Option
from obelisk.games.solomon import data as d
from obelisk.games.solomon.render import render_view
from obelisk.games.solomon.state import ROUNDS, SolomonState
from obelisk.games.solomon.tensor import encode, tensor_size

_DIRECTION_WORDS = ("north-west", "north", "north-east", "west", "east", "south-west", "south", "south-east")


def _move_labels() -> tuple[str, ...]:
    labels = []
    for sq in range(d.SQUARES):
        for direction in range(8):
            to = d.MOVE_TARGET[sq * 8 + direction]
            if to >= 0:
                labels.append(f"move {d.square_name(sq)}→{d.square_name(to)}")
            else:
                labels.append(f"move {d.square_name(sq)} {_DIRECTION_WORDS[direction]} (off the cave)")
    return tuple(labels)


MOVE_LABELS = _move_labels()


class SolomonGame(Game):
    """King Solomon's Treasury for 2-5 players."""

    info = GameInfo(
        id="solomon",
        name="King Solomon's Treasury",
        min_players=2,
        max_players=5,
        description=(
            "Dig tiles out of a 6x6 cave with secretly chosen excavation cards; move tiles to level the "
            "dig, pay for moves and curses, collect treasures, scroll sets and majorities."
        ),
        default_players=3,
        options=(
            Option("data", "", "JSON file with the tile mix and the excavation cards (default: packaged stand-in data)"),
            Option("uphill", False, "beginner variant: tiles may also be moved up (a stack still holds at most 4)"),
            Option("move_limit", 8, "most tile moves one player may make in one turn (engine bound, 1-36)"),
            Option(
                "change",
                "supply",
                "change for an overpaying treasure: 'supply' = what the supply can make, 'unlimited' = always in coins",
                ("supply", "unlimited"),
            ),
            Option(
                "unaffordable",
                "penalty",
                "moves a player cannot pay for: 'penalty' = allowed, the penalty applies; 'forbid' = not offered",
                ("penalty", "forbid"),
            ),
            Option("mirror_reflect", False, "the Mirror may also flip the card over, not only turn it"),
            Option("tiebreak", "shared", "equal points: 'shared' win, or more 'coins' wins", ("shared", "coins")),
        ),
    )
    state_class = SolomonState
    move_labels = MOVE_LABELS
    search_defaults = MappingProxyType({"rollout": "greedy", "depth": 1})
    """A tile move only costs a coin until the dig it makes possible, which the evaluation cannot see, so
    the search scores each new leaf after one greedy decision (typically the best dig). At 1 s a move it
    beat greedy in 97.5% of 40 games; scoring the leaf at once, in 52.5% (docs/bots.md)."""

    def _setup(self) -> None:
        limit = self.options["move_limit"]
        if not 1 <= limit <= 36:
            raise ValueError(f"solomon: option 'move_limit' must be from 1 to 36, got {limit}")
        self.tables = d.load(self.options["data"])
        self.actions = ActionSpace(
            [
                ("move", d.SQUARES * 8),
                ("use", len(d.MAGIC_KINDS)),
                ("dig", d.ORIENTATIONS * d.SQUARES),
                ("seal", d.SQUARES),
                ("end", 1),
                ("pay_coins", 1),
                ("pay_treasure", len(d.TREASURE_KINDS)),
                ("give", d.NUM_KINDS),
                ("choose", len(self.tables.cards)),
            ]
        )

        self.num_actions = self.actions.size
        # Hot-path copies of the options and range starts (the rules read them at every step).
        self.uphill: bool = self.options["uphill"]
        self.move_limit: int = limit
        self.forbid_unaffordable = self.options["unaffordable"] == "forbid"
        self.orientation_limit = d.ORIENTATIONS if self.options["mirror_reflect"] else 4
        self.num_chance = max(d.NUM_KINDS, len(self.tables.cards))
        self.cards_to_deal = self.num_players * ROUNDS[self.num_players]
        self.card_numbers = tuple(card.number for card in self.tables.cards)

    def num_distinct_actions(self) -> int:
        return self.num_actions

    def max_chance_outcomes(self) -> int:
        return self.num_chance

    def max_game_length(self) -> int:
        n = self.num_players
        rounds = ROUNDS[n]
        limit = self.options["move_limit"]
        max_dig = max(card.size for card in self.tables.cards)
        # One turn: moves, item uses, a dig (square by square with the Seal) or "end",
        # payments (each pays at least 1 of moves + curses), penalty deals and gifts.
        turn = limit + len(d.MAGIC_KINDS) + max_dig + 1 + (limit + max_dig * max(d.CURSE_VALUES)) + max_dig + n
        chance = d.SQUARES + n * rounds + d.SQUARES * d.DARK_PER_SQUARE
        return chance + rounds * n * (1 + turn)

    def render_observation(self, view: Mapping[str, Any]) -> str:
        return render_view(view)

    def observation_tensor_size(self) -> int:
        return tensor_size(self.card_numbers)

    def observation_tensor(self, view: Mapping[str, Any]) -> list[float]:
        """See ``obelisk.games.solomon.tensor`` for the layout."""
        return encode(view, self.card_numbers)
