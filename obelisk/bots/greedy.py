"""The greedy bot: one-ply lookahead with the game's own evaluation.

For each legal action it applies the action to a few determinizations of the
position (``resample_from_infostate``), resolves the chance that follows and
scores the result with ``evaluate()[seat]``. The same determinizations serve
every candidate action (common random numbers), so differences between
actions are not drowned in sampling noise. Among equally valued actions one
that ends the game wins (prolonging a game gains nothing when its end is
worth as much), the rest are tied at random.

Spec: ``greedy`` or ``greedy:samples=8,expect=6``.
"""

from __future__ import annotations

import random

from obelisk.bots.params import parse_argument
from obelisk.core import Game, State, codec
from obelisk.core.rng import make_rng, resolve_chance

DEFAULTS = {"samples": 4, "expect": 6}
"""``samples``: determinizations per decision; ``expect``: largest chance node averaged exactly."""


class GreedyBot:
    """Picks the action with the best mean evaluation one ply ahead."""

    def __init__(self, game: Game, seat: int, seed: int = 0, samples: int = 4, expect: int = 6) -> None:
        if samples < 1:
            raise ValueError(f"bot 'greedy': samples must be at least 1, got {samples}")
        self.name = "greedy"
        self.game = game
        self.seat = seat
        self.samples = samples
        self.expect = expect
        self._rng = make_rng("greedy-bot", seed, seat)

    def choose(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        determinizations = [state.resample_from_infostate(self.seat, self._rng) for _ in range(self.samples)]
        values = action_values(determinizations, legal, self.seat, self._rng, self.expect)
        best = max(values)
        ties = [a for a, v in zip(legal, values) if v >= best - 1e-12]
        if len(ties) > 1:
            ties = ending_actions(determinizations[0], ties) or ties
        return ties[0] if len(ties) == 1 else self._rng.choice(ties)


def ending_actions(state: State, actions: list[int]) -> list[int]:
    """The ``actions`` after which the game is over at once (chance still to come does not end it)."""
    ending = []
    for action in actions:
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal():
            ending.append(action)
    return ending


def action_values(states: list[State], actions: list[int], seat: int, rng: random.Random, expect: int) -> list[float]:
    """Mean one-ply value of each action for ``seat`` over ``states`` (all of the same information set).

    Each action/state pair gets its own generator derived from ``rng`` once,
    so the chance sampled after an action does not depend on the order in
    which actions are tried.
    """
    base = rng.getrandbits(64)
    values = []
    for action in actions:
        total = 0.0
        for index, start in enumerate(states):
            after = start.clone()
            after.apply_action(action)
            total += _value_after(after, seat, random.Random(base + index), expect)
        values.append(total / len(states))
    return values


def _value_after(state: State, seat: int, rng: random.Random, expect: int) -> float:
    """``evaluate()[seat]`` once the chance after a move is resolved: exactly for small nodes, else sampled."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        if len(outcomes) <= expect:
            total = 0.0
            for outcome, probability in outcomes:
                branch = state.clone()
                branch.apply_action(outcome)
                resolve_chance(branch, rng)
                total += probability * branch.evaluate()[seat]
            return total
        resolve_chance(state, rng)
    return state.evaluate()[seat]


def factory(game: Game, seat: int, seed: int, argument: str) -> GreedyBot:
    """The bot of a spec ``greedy[:ARGUMENT]`` (``obelisk.bots`` registers it under that kind)."""
    bare, values = parse_argument("greedy", argument, DEFAULTS)
    if bare is not None:
        raise ValueError(f"bot 'greedy' takes only name=value parameters ({', '.join(DEFAULTS)}), got {codec.describe(bare)}")
    return GreedyBot(game, seat, seed, **values)

