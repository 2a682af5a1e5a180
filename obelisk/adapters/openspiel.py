"""Every registered Obelisk game as an OpenSpiel (``pyspiel``) game named ``obelisk_<id>``.

Importing this module registers each game of ``obelisk.list_games()`` once with
``pyspiel.register_game``; games registered later are added by
:func:`register_games` (called by :func:`load`). Game parameters are
``players`` plus one per game option::

    import pyspiel
    from obelisk.adapters import openspiel
    game = pyspiel.load_game("obelisk_valley", {"players": 3})

and ``utility``: ``"rank"`` (the default: returns by place, from +1 to -1,
summing to 0) or ``"score"`` (general-sum: each seat's final score, for games
whose score decides the ranking, between the bounds of ``Game.score_range``).

The adapter is thin: rules, chance, returns and determinization all come
from the engine. What a seat sees comes from ``State.observation(seat)`` and
``State.public_action_string(action, seat)`` only:

* observation string: the canonical JSON of the seat's view;
* information state string (perfect recall): canonical JSON of
  ``{"now": view, "recall": [...]}`` where ``recall`` has, in order, one item
  per action as the seat was told it: ``[actor, id]`` when told the label in
  full, ``[actor, text]`` when redacted (built only once asked for);
* observation tensor: ``Game.observation_tensor(view)``; information state
  tensor: that tensor, then how often the seat took each action id (times
  ``players / length_scale``), then ``move_number / length_scale``, where
  :func:`length_scale` is about the length of a typical game (the true bound
  ``max_game_length`` is orders of magnitude longer, so features divided by
  it would all be ~0).

A state resampled for seat ``p`` keeps ``p``'s recall and action counts; the
other seats' recall and counts restart there, since their past in the
re-dealt world was never observed. It is a new ``pyspiel.State`` whose
``history()`` starts empty, like the engine re-deal's: no history of the
real game reaches it. Games without an observation tensor are registered without
tensors (``provides_*_tensor`` false).

OpenSpiel's Python ``ISMCTSBot`` determinizes through :func:`make_resampler`
(``bot.set_resampler(make_resampler(seed))``) or the state's own
``resample_from_infostate``; wrapped in :class:`Restartable` it plays in
OpenSpiel's ``evaluate_bots``. The C++ ``pyspiel.ISMCTSBot`` of open_spiel 2.0
has neither a Python ``set_resampler`` nor a trampoline for
``ResampleFromInfostate``, so it can only decide states with one legal action
on a Python game (see docs/research.md).
"""

from __future__ import annotations

import functools
import json
import random
import zlib
from typing import Any, Callable, Mapping

import numpy as np
import pyspiel

from obelisk.adapters import ENV_PREFIX
from obelisk.core import Game, GameInfo, State, codec, registry
from obelisk.core.protocol import CHANCE, TERMINAL

__all__ = [
    "EngineEvaluator",
    "Restartable",
    "LENGTH_SCALES",
    "length_scale",
    "load",
    "make_resampler",
    "obelisk_state",
    "register_games",
    "short_name",
    "UTILITIES",
]

_REGISTERED: dict[str, type["ObeliskSpielGame"]] = {}
_PARAMETER_TYPES = (bool, int, float, str)
UTILITIES = ("rank", "score")
"""The values of the ``utility`` parameter: returns by place (zero-sum), or each seat's final score."""


LENGTH_SCALES: dict[str, tuple[int, int]] = {
    "cleopatra": (1000, 0),
    "solomon": (300, 0),
    "tomb": (0, 350),
    "valley": (700, 0),
}
"""Per game ``(base, per_player)``: the information state tensor's length scale is ``base + per_player × players``
actions (chance included), about the length of a typical game. Games of random and of greedy bots at every player
count (docs/research.md) last 150–360 actions in Solomon, 520–1,670 in Cleopatra, 530–740 in Valley, and in Tomb
from 210 to 9,700, growing with the players. A scale, not a bound: long games give features above 1."""


def length_scale(game: Game) -> int:
    """The information state tensor's divisor for move counts (``LENGTH_SCALES``; other games: ``max_game_length``)."""
    base, per_player = LENGTH_SCALES.get(game.id, (game.max_game_length(), 0))
    return base + per_player * game.num_players


def short_name(game_id: str) -> str:
    """The OpenSpiel name of an Obelisk game."""
    return ENV_PREFIX + game_id


def register_games() -> list[str]:
    """Register every Obelisk game not yet known to ``pyspiel``; return all registered names."""
    for info in registry.games():
        name = short_name(info.id)
        if name not in _REGISTERED:
            # A class per game, kept referenced here: pyspiel holds the creator until after
            # interpreter shutdown, and a creator freed then aborts the process.
            creator = type(f"ObeliskSpielGame_{info.id}", (ObeliskSpielGame,), {"game_id": info.id})
            pyspiel.register_game(_game_type_of(info.id), creator)
            _REGISTERED[name] = creator
    return sorted(_REGISTERED)


def load(game_id: str, players: int | None = None, utility: str = "rank", **options: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` for an Obelisk game, registering it first if needed.

    Players, options and ``utility`` are checked here first, so a bad value
    gets the engine's ``ValueError`` rather than OpenSpiel's parameter error.
    """
    _check_utility(registry.load(game_id, players, **options), utility)
    register_games()
    params: dict[str, Any] = dict(options)
    if players is not None:
        params["players"] = players
    params["utility"] = utility
    return pyspiel.load_game(short_name(game_id), params)


def _check_utility(game: Game, utility: Any) -> tuple[int, int] | None:
    """The score bounds of ``game`` when ``utility`` is ``"score"``, None for ``"rank"``; ValueError otherwise."""
    if utility == "rank":
        return None
    if utility != "score":
        raise ValueError(f"{game.id}: utility must be 'rank' or 'score', got {codec.describe(utility)}")
    bounds = game.score_range()
    if bounds is None:
        raise ValueError(f"{game.id}: utility 'score' is only for games whose score decides the ranking, and "
                         f"{game.info.name} ranks by other means (see its doc); use utility 'rank'")
    return bounds


@functools.lru_cache(maxsize=None)
def _game_type_of(game_id: str, scored: bool = False) -> pyspiel.GameType:
    return _game_type(registry.game_class(game_id).info, scored)


def _game_type(info: GameInfo, scored: bool) -> pyspiel.GameType:
    default = registry.load(info.id)
    has_tensor = _tensor_size(default) is not None
    parameters: dict[str, Any] = {"players": info.default_players or info.min_players}
    for option in info.options:
        if not isinstance(option.default, _PARAMETER_TYPES):
            raise TypeError(f"{info.id}: option {option.name!r} has a type OpenSpiel parameters cannot carry")
        parameters[option.name] = option.default
    parameters["utility"] = UTILITIES[0]
    return pyspiel.GameType(
        short_name=short_name(info.id),
        long_name=f"Obelisk {info.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # Rank-based returns always sum to 0; scores do not.
        utility=pyspiel.GameType.Utility.GENERAL_SUM if scored else pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=has_tensor,
        provides_observation_string=True,
        provides_observation_tensor=has_tensor,
        parameter_specification=parameters,
    )


def _tensor_size(game: Game) -> int | None:
    try:
        return game.observation_tensor_size()
    except TypeError:
        return None


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


class ObeliskSpielGame(pyspiel.Game):
    """A ``pyspiel.Game`` wrapping one Obelisk game (fixed player count and options)."""

    game_id: str

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_id = self.game_id
        info = registry.game_class(game_id).info
        options = {}
        for option in info.options:
            if option.name in params:
                value = params[option.name]
                # A game string such as "name=12" parses to an int; string options take it as text.
                options[option.name] = str(value) if isinstance(option.default, str) else value
        self.obelisk: Game = registry.load(game_id, params.get("players"), **options)
        self.utility: str = params.get("utility", UTILITIES[0])
        bounds = _check_utility(self.obelisk, self.utility)
        game_type = _game_type_of(game_id, bounds is not None)
        low, high = (-1.0, 1.0) if bounds is None else bounds
        spiel_info = pyspiel.GameInfo(
            num_distinct_actions=self.obelisk.num_distinct_actions(),
            max_chance_outcomes=self.obelisk.max_chance_outcomes(),
            num_players=self.obelisk.num_players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=0.0 if bounds is None else None,
            max_game_length=self.obelisk.max_game_length(),
        )
        full = dict(game_type.parameter_specification)
        full.update({"players": self.obelisk.num_players, **dict(self.obelisk.options), "utility": self.utility})
        super().__init__(game_type, spiel_info, full)
        self.tensor_size = _tensor_size(self.obelisk)
        self.length_scale = length_scale(self.obelisk)
        self.initial = self.obelisk.new_initial_state(0)

    def new_initial_state(self) -> "ObeliskSpielState":
        """The first position (chance nodes deal; the engine seed is unused under OpenSpiel)."""
        return ObeliskSpielState(self, _Box.start_at(self.initial))

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: Mapping[str, Any] | None = None) -> "ObeliskObserver":
        """An observer built from the engine's views (see the module docstring)."""
        return ObeliskObserver(self, iig_obs_type, params)


class _Box:
    """The Python-side data of a state, kept in one attribute.

    OpenSpiel clones a Python state by ``deepcopy``-ing each attribute and
    serializes it by pickling them; this box makes the first an engine
    ``clone()`` and the second a replay of the engine history (a re-deal, which
    no history rebuilds, is pickled whole with the resampled seat's recall).
    OpenSpiel also builds throw-away initial states (every clone starts as one,
    every tensor shape query makes one), so a fresh box shares its engine state
    and copies it only before the first action (``shared``).

    What each seat was told is not kept while nobody asks: a random playout
    pays only for the engine. The first information state (string or tensor)
    asked of a box rebuilds its ``told`` by replaying from ``start``; from then
    on ``apply`` keeps it up to date, and clones inherit it.
    """

    __slots__ = ("inner", "shared", "start", "base", "base_own", "told", "own")

    def __init__(self, inner: State, shared: bool, start: State, base: list[list[Any]], base_own: list[list[int]],
                 told: list[list[Any]] | None, own: list[list[int]] | None) -> None:
        self.inner = inner
        self.shared = shared
        self.start = start  # the engine state where ``base`` ends; never mutated
        self.base = base  # per seat (then spectators): recall items from before ``start``
        self.base_own = base_own  # per seat: action ids taken before ``start``
        self.told = told  # per seat (then spectators): recall items since ``start``; None until asked
        self.own = own  # per seat: action ids taken since ``start``; None until asked

    @classmethod
    def start_at(cls, state: State, base: list[list[Any]] | None = None,
                 base_own: list[list[int]] | None = None) -> "_Box":
        """A box around ``state`` (shared, so never mutated) with ``base`` as the recall before it."""
        n = state.num_players
        return cls(state, True, state, base or [[] for _ in range(n + 1)], base_own or [[] for _ in range(n)],
                   None, None)

    def apply(self, action: int) -> None:
        if self.shared:
            self.inner = self.inner.clone()
            self.shared = False
        if self.told is not None and self.own is not None:
            _record(self.inner, action, self.told, self.own)
        self.inner.apply_action(action)

    def recall(self, seat: int | None) -> list[Any]:
        """What ``seat`` (None: a spectator) was told, in order (see ``_record``)."""
        told, _ = self._tracked()
        index = len(told) - 1 if seat is None else seat
        return self.base[index] + told[index]

    def own_actions(self, seat: int) -> list[int]:
        """The action ids ``seat`` took, in order."""
        return self.base_own[seat] + self._tracked()[1][seat]

    def _tracked(self) -> tuple[list[list[Any]], list[list[int]]]:
        if self.told is None or self.own is None:
            n = self.inner.num_players
            told: list[list[Any]] = [[] for _ in range(n + 1)]
            own: list[list[int]] = [[] for _ in range(n)]
            replay = self.start.clone()
            for action in self.inner.history()[len(self.start.history()):]:
                _record(replay, action, told, own)
                replay.apply_action(action)
            self.told, self.own = told, own
        return self.told, self.own

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Box":
        inner = self.inner if self.shared else self.inner.clone()
        told = None if self.told is None else [list(t) for t in self.told]
        own = None if self.own is None else [list(o) for o in self.own]
        return _Box(inner, self.shared, self.start, self.base, self.base_own, told, own)

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.inner.game
        key = (game.id, game.num_players, dict(game.options))
        if self.inner.replayable:
            return _restore_box, (*key, _pack([self.inner.seed, self.inner.history()]))
        # A re-deal is not replayable (nor saved by ``to_json``): pickle the engine state and its recall.
        told, own = self._tracked()
        recall = [[b + t for b, t in zip(self.base, told)], [b + o for b, o in zip(self.base_own, own)]]
        return _restore_box, (*key, _pack(recall), self.inner)


def _pack(value: Any) -> bytes:
    return zlib.compress(_canonical(value).encode(), 9)


def _record(state: State, action: int, told: list[list[Any]], own: list[list[int]]) -> None:
    """Append what each seat (then spectators) is told of ``action`` in ``state``.

    An item is ``[actor, id]`` when the seat is told the action's label in full
    (the label is the id's name in a position whose relevant parts the seat
    sees), else ``[actor, text]`` with the redacted text.
    """
    actor = state.current_player()
    n = len(own)
    if actor != CHANCE:
        own[actor].append(action)
    label = state.action_to_string(action)
    for seat in range(n + 1):
        text = state.public_action_string(action, seat if seat < n else None)
        told[seat].append([actor, action if text == label else text])


@functools.lru_cache(maxsize=64)
def _cached_game(game_id: str, players: int, options: tuple[tuple[str, Any], ...]) -> Game:
    return registry.load(game_id, players, **dict(options))


def _restore_box(game_id: str, players: int, options: dict[str, Any], packed: bytes,
                 redeal: State | None = None) -> _Box:
    game = _cached_game(game_id, players, tuple(sorted(options.items())))
    data = json.loads(zlib.decompress(packed))
    if redeal is not None:
        return _Box.start_at(redeal, *data)
    seed, history = data
    return _Box(game.replay(seed, history), False, game.new_initial_state(seed), [[] for _ in range(players + 1)],
                [[] for _ in range(players)], None, None)


class ObeliskSpielState(pyspiel.State):
    """A ``pyspiel.State`` delegating every rule to the wrapped engine state."""

    def __init__(self, game: ObeliskSpielGame, box: _Box) -> None:
        super().__init__(game)
        self._box = box
        self._player = box.inner.current_player()  # OpenSpiel asks several times per step
        self._scored = game.utility == "score"

    def current_player(self) -> int:
        """Seat to act, ``PlayerId.CHANCE`` (-1) or ``PlayerId.TERMINAL`` (-4): the engine uses the same ids."""
        return self._player

    def is_chance_node(self) -> bool:
        """Whether chance acts next (answered here: a call through C++ costs more than the engine's answer)."""
        return self._player == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        """OpenSpiel's ``legal_actions`` for Python callers without the trip through C++ (same answers)."""
        return self._box.inner.legal_actions(player)

    def _legal_actions(self, player: int) -> list[int]:
        """Legal actions of the seat to act, ascending (OpenSpiel asks only for that seat)."""
        return self._box.inner.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The engine's ``[(outcome, probability)]`` at a chance node."""
        return self._box.inner.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        """Apply ``action`` (recording what every seat learns of it once anyone has asked)."""
        box = self._box
        if box.shared or box.told is not None:
            box.apply(action)
        else:
            box.inner.apply_action(action)
        self._player = box.inner.current_player()

    def _action_to_string(self, player: int, action: int) -> str:
        """The engine's label of ``action`` in this position."""
        del player  # The engine labels actions by position.
        return self._box.inner.action_to_string(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._player == TERMINAL

    def returns(self) -> list[float]:
        """0 until the end; then by place in [-1, 1], or with ``utility="score"`` each seat's final score."""
        inner = self._box.inner
        if self._scored and self._player == TERMINAL:
            return [float(row["total"]) for row in inner.scores()]
        return inner.returns()

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> "ObeliskSpielState":
        """A state with what ``player`` cannot know re-dealt, seeded from ``sampler()``."""
        return _resampled(self, player, random.Random(sampler()))

    def __str__(self) -> str:
        """The engine's complete, deterministic rendering of the position."""
        return str(self._box.inner)


def obelisk_state(state: pyspiel.State) -> State:
    """The engine state behind an adapter state (for engine bots and tools)."""
    return state._box.inner


def _resampled(state: ObeliskSpielState, player: int, rng: random.Random) -> ObeliskSpielState:
    """A new state (its OpenSpiel history starts empty, like the engine's) around a re-deal for ``player``."""
    old = state._box
    n = len(old.base_own)
    base = [old.recall(player) if seat == player else [] for seat in range(n + 1)]
    base_own = [old.own_actions(player) if seat == player else [] for seat in range(n)]
    inner = old.inner.resample_from_infostate(player, rng)
    return ObeliskSpielState(state.get_game(), _Box.start_at(inner, base, base_own))


class EngineEvaluator:
    """An OpenSpiel MCTS/ISMCTS evaluator that asks the engine's heuristic instead of rolling out.

    Search trees only hold determinized states, so calling ``evaluate()``
    (which reads the whole state) is legitimate there; it makes OpenSpiel's
    searches usable on long games in tests.
    """

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        """Per-seat values in [-1, 1]: the returns at the end, the engine's estimate before.

        The estimate is of places, so a game with ``utility="score"`` is refused: its returns are scores.
        """
        if state._scored:
            raise ValueError("EngineEvaluator estimates places, not scores: use it with utility 'rank', or a "
                             "rollout evaluator with utility 'score'")
        return np.asarray(state._box.inner.evaluate(), dtype=np.float64)

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        """Uniform over legal actions; the chance distribution at chance nodes."""
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class Restartable(pyspiel.Bot):
    """An OpenSpiel bot that ``evaluate_bots`` can restart: wraps one that only searches from scratch.

    OpenSpiel's ``evaluate_bots`` calls ``restart_at`` on every bot before the
    first move, which its Python ``ISMCTSBot`` (and ``MCTSBot``) do not
    implement; they rebuild their search at each ``step``, so restarting means
    dropping the old tree (``reset()``, where the bot has one). Everything
    else is passed through.
    """

    def __init__(self, bot: pyspiel.Bot) -> None:
        super().__init__()
        self.bot = bot

    def restart_at(self, state: pyspiel.State) -> None:
        """Forget any search tree; the next ``step`` starts from ``state``'s information state."""
        del state  # The wrapped bots search from the state they are given.
        reset = getattr(self.bot, "reset", None)
        if reset is not None:
            reset()

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        """Nothing to track: the wrapped bots read the state at each ``step``."""

    def step(self, state: pyspiel.State) -> int:
        """The wrapped bot's move."""
        return self.bot.step(state)

    def step_with_policy(self, state: pyspiel.State) -> tuple[list[tuple[int, float]], int]:
        """The wrapped bot's policy and move."""
        return self.bot.step_with_policy(state)

    def provides_policy(self) -> bool:
        """Whether the wrapped bot gives a policy."""
        return bool(self.bot.provides_policy())


def make_resampler(seed: int) -> Callable[[pyspiel.State, int], pyspiel.State]:
    """A determinizer for ``ISMCTSBot.set_resampler``: ``cb(state, player)`` with its own seeded RNG."""
    rng = random.Random(f"openspiel-resampler:{seed}")

    def resample(state: pyspiel.State, player: int) -> pyspiel.State:
        return _resampled(state, player, rng)

    return resample


class ObeliskObserver:
    """OpenSpiel observer over the engine's views.

    Supports a seat's view (``private_info=SINGLE_PLAYER``) and the spectator
    view (``private_info=NONE``), each with or without perfect recall.
    """

    def __init__(self, game: ObeliskSpielGame, iig_obs_type: pyspiel.IIGObservationType | None,
                 params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observer parameters are not supported, got {dict(params)!r}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        private = iig_obs_type.private_info
        if not iig_obs_type.public_info or private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("Obelisk observers give a seat's view or the spectator view, both with public info")
        self._game = game
        self._spectator = private == pyspiel.PrivateInfoType.NONE
        self._recall = iig_obs_type.perfect_recall
        size = game.tensor_size
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        # OpenSpiel asks for tensor sizes by filling a tensor from a new initial state, often.
        self._initial_tensors: dict[int, np.ndarray] = {}
        if size is not None:
            actions = game.obelisk.num_distinct_actions()
            total = size + (actions + 1 if self._recall else 0)
            self.tensor = np.zeros(total, np.float32)
            self.dict["observation"] = self.tensor[:size]
            if self._recall:
                self.dict["own_actions"] = self.tensor[size:size + actions]
                self.dict["progress"] = self.tensor[size + actions:]

    def _seat(self, player: int) -> int | None:
        return None if self._spectator else player

    def set_from(self, state: ObeliskSpielState, player: int) -> None:
        """Fill ``self.tensor`` for ``player``."""
        if self.tensor is None:
            raise TypeError(f"game {self._game.obelisk.id!r} defines no observation tensor")
        box = state._box
        initial = box.inner is self._game.initial
        if initial and player in self._initial_tensors:
            self.tensor[:] = self._initial_tensors[player]
            return
        inner = box.inner
        obelisk = self._game.obelisk
        self.dict["observation"][:] = obelisk.observation_tensor(inner.observation(self._seat(player)))
        if self._recall:
            scale = self._game.length_scale
            counts = self.dict["own_actions"]
            counts[:] = 0.0
            if not self._spectator:
                for action in box.own_actions(player):
                    counts[action] += 1.0
                counts *= obelisk.num_players / scale  # a seat's share of a typical game's actions
            self.dict["progress"][0] = inner.move_number() / scale
        if initial:
            self._initial_tensors[player] = self.tensor.copy()

    def string_from(self, state: ObeliskSpielState, player: int) -> str:
        """Canonical JSON of the view (and of the recall, with perfect recall)."""
        box = state._box
        seat = self._seat(player)
        now = _canonical(box.inner.observation(seat))
        if not self._recall:
            return now
        return '{"now":' + now + ',"recall":' + _canonical(box.recall(seat)) + "}"

register_games()
