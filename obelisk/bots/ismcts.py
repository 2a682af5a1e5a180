"""Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012).

Every iteration deals a fresh determinization of the position with
``resample_from_infostate(seat, rng)`` and walks one tree whose nodes are the
searching seat's information sets: edges are keyed by what that seat learns
of each step — its own action ids, ``public_action_string`` for the other
seats' actions and for chance — so a hidden choice of an opponent never
splits the tree. Selection is UCT restricted to the edges available in the
current determinization, with availability counts in place of the parent's
visit count. Opponents' decisions are tree nodes too, each maximising its own
component of the return vector, so the search works for 3–6 players. Chance
is sampled. Rollouts are random or greedy, cut after ``depth`` decisions and
scored by ``evaluate()`` (or played to the end), or skipped: ``rollout=none``
scores each new leaf with ``evaluate()`` directly. Optionally (``prior``) the
root actions start with virtual visits at their greedy one-ply value.

Spec: ``ismcts:BUDGET[,name=value...]`` where BUDGET is iterations (``2000``)
or wall time per move (``1s``, ``250ms``); parameters: ``c`` (exploration,
default 1), ``rollout`` (``none`` by default, ``random`` or ``greedy``),
``depth`` (rollout decisions before scoring with ``evaluate()``, default 10;
0 plays every rollout to the end) and ``prior`` (virtual visits of the greedy
value at the root, default 0: off). A time budget ends early once the most
visited root action leads by more than the iterations the rest of the time
would run (``decided``): the choice cannot change any more.

A game may set its own defaults for these parameters (``Game.search_defaults``)
where the search needs them to play well; a spec's parameters override them.
King Solomon's Treasury searches with ``rollout=greedy,depth=1``: a tile move
shows its worth only through the dig it makes possible, so each new leaf is
scored after one greedy decision (the best dig of the turn) instead of at once.
"""

from __future__ import annotations

import math
import time
from typing import Any, Callable, Hashable

from obelisk.bots.greedy import action_values, ending_actions
from obelisk.bots.params import Budget, parse_argument, parse_budget
from obelisk.core import CHANCE, TERMINAL, Game, State
from obelisk.core.rng import make_rng

DEFAULT_BUDGET = Budget(iterations=1000)
ROLLOUTS = ("random", "greedy", "none")
"""``none`` scores the new leaf with ``evaluate()`` at once (no playout)."""
DEFAULT_ROLLOUT = "none"
"""In Valley (200 iterations against greedy, 8 games each) leaf evaluation won 8/8, depth-10 and
depth-3 random rollouts 7/8, at 1.6x the iterations per second of depth-10 rollouts. At 100 ms a move
against greedy (16 games each) it also beat one greedy rollout decision (``rollout=greedy,depth=1``):
Valley 93.8% against 84.4%, Tomb 84.4% against 71.9%; Solomon sets the latter (``search_defaults``)."""
DEFAULT_DEPTH = 10
"""Rollout decisions (random or greedy rollouts) before ``evaluate()`` scores the position: ten times the
iterations of full random playouts in Valley for the same time."""
DEFAULT_PRIOR = 0
"""Virtual visits that seed each root action with its greedy one-ply value (progressive bias at the root).
Off by default: in Valley, where buying shows in the evaluation only turns later, 16-iteration searches
with ``prior=2`` won 5.5 of 12 games against random, without it 11 of 12."""
PRIOR_SAMPLES = 2
DEFAULTS: dict[str, Any] = {
    "c": 1.0,
    "rollout": DEFAULT_ROLLOUT,
    "depth": DEFAULT_DEPTH,
    "prior": DEFAULT_PRIOR,
    "iterations": 0,
    "time": 0.0,
}


DECIDED_CHECK = 16
"""Iterations between two checks of a time-budgeted search for a decided choice (see ``decided``)."""


def decided(visits: list[int], remaining: float) -> bool:
    """Whether the most visited root edge stays the choice however ``remaining`` more iterations go.

    An iteration adds one visit to at most one root edge, so when the lead of
    the most visited edge over the next one exceeds the iterations left, no
    other edge can reach it (an edge not yet expanded counts 0). A time
    budget estimates ``remaining`` from its rate of iterations so far and
    stops there: while the rate holds, the move is the one the whole budget
    would choose, and the rest of the budget is not spent. Iteration budgets
    always run in full, so their fixed-seed games stay as they are.
    """
    first = second = 0
    for count in visits:
        if count > first:
            first, second = count, first
        elif count > second:
            second = count
    return first - second > remaining


BUDGET_PARAMETERS = ("iterations", "time")
"""Spec parameters that give the budget; the rest are search parameters a game may default."""


def search_parameters(game: Game) -> dict[str, Any]:
    """The search parameters' defaults in ``game``: the bot's, replaced by the game's ``search_defaults``.

    A game's entry that is not a search parameter or has the wrong type is an
    error in the game, reported with the game's id.
    """
    values = dict(DEFAULTS)
    for name, value in game.search_defaults.items():
        if name not in DEFAULTS or name in BUDGET_PARAMETERS:
            known = ", ".join(sorted(set(DEFAULTS) - set(BUDGET_PARAMETERS)))
            raise ValueError(f"game {game.id!r}: search_defaults: unknown search parameter {name!r}; known: {known}")
        if type(value) is not type(DEFAULTS[name]):
            raise ValueError(
                f"game {game.id!r}: search_defaults: {name!r} must be of type {type(DEFAULTS[name]).__name__}, got {value!r}"
            )
        values[name] = value
    return values


class _Node:
    """One information set of the observer, reached through one edge.

    ``reward`` sums the return of the seat that chose the edge into this
    node; ``avail`` counts how often the edge was available at selection.
    """

    __slots__ = ("children", "visits", "reward", "avail")

    def __init__(self) -> None:
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


class ISMCTSBot:
    """Information-set MCTS for one seat; see the module docstring."""

    kind = "ismcts"

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int = 0,
        budget: Budget = DEFAULT_BUDGET,
        c: float | None = None,
        rollout: str | None = None,
        depth: int | None = None,
        prior: int | None = None,
    ) -> None:
        """A parameter left at ``None`` takes the game's default (``search_parameters``)."""
        defaults = search_parameters(game)
        c = defaults["c"] if c is None else c
        rollout = defaults["rollout"] if rollout is None else rollout
        depth = defaults["depth"] if depth is None else depth
        prior = defaults["prior"] if prior is None else prior
        if rollout not in ROLLOUTS:
            raise ValueError(f"bot {self.kind!r}: rollout must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        if depth < 0 or prior < 0 or not (c >= 0 and math.isfinite(c)):
            raise ValueError(
                f"bot {self.kind!r}: depth and prior must not be negative, c must be finite and not negative"
            )
        self.name = f"{self.kind}:{budget.describe()}"
        self.game = game
        self.seat = seat
        self.budget = budget
        self.c = c
        self.rollout = rollout
        self.depth = depth
        self.prior = prior
        self._rng = make_rng(f"{self.kind}-bot", seed, seat)
        self.last_iterations = 0
        """Iterations run by the last ``choose`` (for speed measurements)."""
        self.stopped_decided = False
        """Whether the last ``choose`` ended its time budget early because its choice was decided."""
        self.stop: Callable[[], bool] | None = None
        """Asked after every iteration whether to end the search now, with the most visited action so far.

        The online tables set it: a decision there has a hard time limit whatever its budget, and a
        decision no longer wanted (its seat taken back, an undo) must free its worker at once. Without it
        the budget alone ends the search, as in every seeded game."""
        self.interrupted = False
        """Whether ``stop`` ended the last ``choose`` before its budget did."""

    # Hooks the perfect-information variant overrides ------------------------

    def _determinize(self, state: State) -> State:
        return state.resample_from_infostate(self.seat, self._rng)

    def _edge_key(self, state: State, action: int, actor: int) -> Hashable:
        """What the observer can tell apart: own action ids, others' public labels."""
        if actor == self.seat:
            return action
        return (actor, state.public_action_string(action, self.seat))

    # Search ------------------------------------------------------------------

    def choose(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_iterations = 0
            self.stopped_decided = True
            self.interrupted = False
            return legal[0]
        root = self.search(state, legal)
        sure = self._sure_end(state, root, legal)
        if sure is not None:
            return sure
        # Most visited root edge; ties broken by mean reward, then by the lower id.
        return max(
            (a for a in legal if a in root.children),
            key=lambda a: (root.children[a].visits, root.children[a].reward / root.children[a].visits, -a),
        )

    def search(self, state: State, legal: list[int]) -> _Node:
        """Run the budget's iterations from ``state`` (the seat's decision with actions ``legal``); the root."""
        started = time.perf_counter()
        deadline = None if self.budget.seconds is None else started + self.budget.seconds
        root = self._new_root(state, legal)
        limit = self.budget.iterations
        count = 0
        self.stopped_decided = self.interrupted = False
        stop = self.stop
        while True:
            self._iterate(root, self._determinize(state))
            count += 1
            if limit is not None and count >= limit:
                break
            if stop is not None and stop():
                self.interrupted = True
                break
            if deadline is not None:
                now = time.perf_counter()
                if now >= deadline:
                    break
                if count % DECIDED_CHECK == 0 and now > started:
                    remaining = count * (deadline - now) / (now - started)
                    if decided([root.children[a].visits for a in legal if a in root.children], remaining):
                        self.stopped_decided = True
                        break
        self.last_iterations = count
        return root

    def _sure_end(self, state: State, root: _Node, legal: list[int]) -> int | None:
        """An action that ends the game at once with a return no searched action is expected to beat.

        Waiting cannot gain when the end is worth as much as anything else; without this the search could
        wander among equally valued moves, e.g. a player whose place is already fixed."""
        sample = self._determinize(state)
        ending = ending_actions(sample, legal)
        if not ending:
            return None
        best_mean = max(child.reward / child.visits for child in root.children.values() if child.visits)
        for action in ending:
            after = sample.clone()
            after.apply_action(action)
            if after.returns()[self.seat] >= best_mean - 1e-9:
                return action
        return None

    def _new_root(self, state: State, legal: list[int]) -> _Node:
        """The root, its actions seeded with ``prior`` virtual visits at their greedy value (if ``prior``)."""
        root = _Node()
        if self.prior:
            samples = [self._determinize(state) for _ in range(PRIOR_SAMPLES)]
            values = action_values(samples, legal, self.seat, self._rng, expect=0)
            for action, value in zip(legal, values):
                child = root.children[action] = _Node()
                child.visits = child.avail = self.prior
                child.reward = value * self.prior
        return root

    def _iterate(self, root: _Node, state: State) -> None:
        rng = self._rng
        node = root
        path: list[tuple[_Node, int]] = []
        expanded = False
        while not expanded:
            actor = state.current_player()
            if actor == TERMINAL:
                break
            if actor == CHANCE:
                outcome = state.sample_chance(rng)
                key = ("chance", self._chance_key(state, outcome))
                state.apply_action(outcome)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node()
                node = child
                continue
            edges: dict[Hashable, list[int]] = {}
            for action in state.legal_actions():
                edges.setdefault(self._edge_key(state, action, actor), []).append(action)
            children = node.children
            untried = [key for key in edges if key not in children]
            for key in edges:
                if key in children:
                    children[key].avail += 1
            if untried:
                key = untried[0] if len(untried) == 1 else rng.choice(untried)
                child = children[key] = _Node()
                child.avail = 1
                expanded = True
            else:
                key = self._select(children, edges)
                child = children[key]
            choices = edges[key]
            state.apply_action(choices[0] if len(choices) == 1 else rng.choice(choices))
            path.append((child, actor))
            node = child
        values = self._playout(state)
        for child, actor in path:
            child.visits += 1
            child.reward += values[actor]

    def _chance_key(self, state: State, outcome: int) -> Hashable:
        return state.public_action_string(outcome, self.seat)

    def _select(self, children: dict[Hashable, _Node], edges: dict[Hashable, list[int]]) -> Hashable:
        c = self.c
        best_key: Hashable = None
        best = -math.inf
        for key in edges:
            child = children[key]
            score = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if score > best:
                best, best_key = score, key
        return best_key

    def _playout(self, state: State) -> list[float]:
        """Play on with the rollout policy; score the end with ``returns()``, a cut with ``evaluate()``."""
        rng = self._rng
        depth = self.depth
        greedy = self.rollout == "greedy"
        if self.rollout == "none":
            return state.evaluate()
        decisions = 0
        while True:
            actor = state.current_player()
            if actor == TERMINAL:
                return state.returns()
            if actor == CHANCE:
                state.apply_action(state.sample_chance(rng))
                continue
            if depth and decisions >= depth:
                return state.evaluate()
            legal = state.legal_actions()
            if len(legal) == 1:
                action = legal[0]
            elif greedy:
                values = action_values([state], legal, actor, rng, expect=0)
                action = legal[values.index(max(values))]
            else:
                action = rng.choice(legal)
            state.apply_action(action)
            decisions += 1


def parse_search_argument(kind: str, argument: str, game: Game) -> dict[str, Any]:
    """Keyword arguments of a search bot in ``game`` from its spec argument (shared with the cheater)."""
    bare, values = parse_argument(kind, argument, search_parameters(game))
    iterations, seconds = values.pop("iterations"), values.pop("time")
    given = [b for b in (bare, iterations or None, seconds or None) if b is not None]
    if len(given) > 1:
        raise ValueError(f"bot {kind!r}: give one budget (iterations or time), got {len(given)}")
    if bare is not None:
        budget = parse_budget(bare)
    elif iterations:
        budget = parse_budget(str(iterations))
    elif seconds:
        budget = parse_budget(f"{seconds}s")
    else:
        budget = DEFAULT_BUDGET
    values["budget"] = budget
    return values


def factory(game: Game, seat: int, seed: int, argument: str) -> ISMCTSBot:
    """The bot of a spec ``ismcts[:ARGUMENT]`` (``obelisk.bots`` registers it under that kind)."""
    return ISMCTSBot(game, seat, seed, **parse_search_argument("ismcts", argument, game))


def iterations_per_second(bot: ISMCTSBot, state: State, seconds: float = 1.0) -> float:
    """Search speed of ``bot`` on ``state`` per second of this process's CPU time (benchmarks only).

    CPU time rather than wall time, so other load on the machine does not
    distort the figure.
    """
    started = time.process_time()
    root = _Node()
    count = 0
    while time.process_time() - started < seconds:
        bot._iterate(root, bot._determinize(state))
        count += 1
    return count / (time.process_time() - started)
