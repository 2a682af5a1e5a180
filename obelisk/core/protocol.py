"""The state/action protocol every Obelisk game speaks.

Modelled on OpenSpiel so adapters stay thin. A :class:`Game` is the static
description (player count, options, action-space size); a :class:`State` is
one position. The public methods of :class:`State` are a template: they check
the actor and legality, then call the game's underscore hooks
(``_legal_actions``, ``_apply_action`` ...), so every game gets the same error
handling, history and serialization for free.

Everything a seat may learn is derived from ``observation(seat)`` and
``public_action_string(action, seat)``; there is no second path to the state.

Texts a person reads count players from 1 ("player 2"); ids, seats in views and records count from 0.
"""

from __future__ import annotations

import json
import operator
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, ClassVar, Final, Iterable, Mapping, Sequence

from mypy_extensions import mypyc_attr

from obelisk.core import codec, i18n
from obelisk.core import outcome as outcomes
from obelisk.core.help import GameHelp
from obelisk.core.previews import Preview
from obelisk.core.seeds import MAX_SEED, check_seed
from obelisk.core.shortcuts import Shortcut

_SEED_BITS: Final = MAX_SEED.bit_length() - 1
"""A re-deal's seed is ``getrandbits(_SEED_BITS)``: any seed in ``[0, MAX_SEED)``, the cheapest draw."""

CHANCE: Final = -1
"""``current_player()`` at a chance node (a die roll, a draw from a face-down pool)."""
TERMINAL: Final = -4
"""``current_player()`` once the game is over."""

STATE_FORMAT = "obelisk-state"
STATE_FORMAT_VERSION = 1
_STATE_KEYS: Final = ("format", "format_version", "game", "players", "options", "seed", "history", "state")

tr = i18n.ui


class IllegalActionError(ValueError):
    """An action id that may not be applied now; the message says why."""


@dataclass(frozen=True)
class Option:
    """A game option: a name, its default and the values it accepts.

    ``allowed`` lists the accepted values; ``bounds`` is the inclusive
    ``(lowest, highest)`` of a numeric option; with neither, any value of the
    default's type is accepted (e.g. a file path). A numeric option must have
    one of them, so no number reaches a game unchecked.

    ``description`` is the technical text (``obelisk list``, the docs); the
    player-facing texts below are what the lobby and the terminal show, so a
    player never has to read an option's id or raw values. All of them are
    English message ids, translated as terms ``option`` of the game's catalog.
    """

    name: str
    default: Any
    description: str
    allowed: tuple[Any, ...] | None = None
    bounds: tuple[Any, Any] | None = None
    label: str = ""
    """A short name for players, e.g. "When offerings tie"."""
    help: str = ""
    """One line on what the option changes (no ruling numbers: a player cannot look them up)."""
    value_labels: tuple[str, ...] = ()
    """A readable name for each of ``allowed``, in the same order."""
    value_help: tuple[str, ...] = ()
    """A one-line explanation for each of ``allowed``, in the same order ("" where the name says it all)."""
    unit: str = ""
    """What a number without ``allowed`` counts ("rounds"), shown after the field."""
    rare: bool = False
    """Rarely changed: the lobby folds it under "More options"."""

    def __post_init__(self) -> None:
        for texts, what in ((self.value_labels, "value_labels"), (self.value_help, "value_help")):
            if texts and (self.allowed is None or len(texts) != len(self.allowed)):
                raise ValueError(f"option {self.name!r}: {what} needs one text for each allowed value")
        self._check_values()

    def _check_values(self) -> None:
        numeric = type(self.default) in (int, float)
        if self.bounds is not None:
            if not numeric or self.allowed is not None or not self.bounds[0] <= self.default <= self.bounds[1]:
                raise ValueError(f"option {self.name!r}: bounds are for numeric options without allowed values, "
                                 "and must hold the default")
        elif numeric and self.allowed is None:
            raise ValueError(f"numeric option {self.name!r} needs allowed values or bounds")

    def parse(self, value: Any) -> Any:
        """Return ``value`` converted to this option's type, or raise ``ValueError``.

        Strings are accepted for every type so command-line options work.
        """
        kind = type(self.default)
        converted = value
        if isinstance(value, str) and kind is not str:
            converted = _parse_text(value, kind)
        if converted is _INVALID or type(converted) is not kind:
            if not (kind is float and type(converted) is int):
                raise self._refusal(value)
            converted = float(converted)
        if self.allowed is not None and converted not in self.allowed:
            raise self._refusal(value)
        if self.bounds is not None and not self.bounds[0] <= converted <= self.bounds[1]:
            raise self._refusal(value)
        return converted

    def _refusal(self, value: Any) -> ValueError:
        return ValueError(f"option {self.name!r} must be {self.accepts()}, got {codec.describe(value)}")

    def accepts(self) -> str:
        """What values the option accepts, in words (for errors and ``obelisk list``)."""
        if self.allowed is not None:
            return "one of " + ", ".join(repr(v) for v in self.allowed)
        kind = type(self.default).__name__
        article = "an" if kind == "int" else "a"
        if self.bounds is not None:
            return f"{article} {kind} from {self.bounds[0]} to {self.bounds[1]}"
        return f"{article} {kind}"

    def to_dict(self, word: Callable[[str], str] | None = None) -> dict[str, Any]:
        """A JSON-able description (for ``obelisk list`` and the server), its texts passed through ``word``
        (a catalog's lookup, so the lobby gets them in its reader's language; English without one).
        An empty text stays empty."""
        say = word or _same
        texts = {"description": self.description, "label": self.label, "help": self.help, "unit": self.unit}
        return {
            "name": self.name,
            "default": self.default,
            "allowed": list(self.allowed) if self.allowed is not None else None,
            "min": self.bounds[0] if self.bounds is not None else None,
            "max": self.bounds[1] if self.bounds is not None else None,
            "type": type(self.default).__name__,
            **{key: say(text) if text else text for key, text in texts.items()},
            "value_labels": [say(text) for text in self.value_labels],
            "value_help": [say(text) if text else text for text in self.value_help],
            "rare": self.rare,
        }

    def texts(self) -> tuple[str, ...]:
        """Every player-facing text of the option (for the catalogs)."""
        return tuple(t for t in (self.label, self.help, *self.value_labels, *self.value_help, self.unit) if t)


def _same(text: str) -> str:
    return text


_INVALID = object()


def _parse_text(text: str, kind: type) -> Any:
    lowered = text.strip().lower()
    if kind is bool:
        return {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}.get(lowered, _INVALID)
    try:
        return kind(lowered)
    except ValueError:
        return _INVALID


@dataclass(frozen=True)
class GameInfo:
    """The registry entry of a game."""

    id: str
    name: str
    min_players: int
    max_players: int
    description: str
    options: tuple[Option, ...] = ()
    default_players: int | None = None
    minutes: tuple[int, int] | None = None
    """How long a game takes by the rulebook (lowest, highest minutes), where it says."""
    turns: tuple[int, int] | None = None
    """Turns each player takes in a typical game (median of greedy self-play, lowest and highest over the
    player counts: ``benchmarks/game_length.py``), so a player can judge the length where the rulebook is
    silent."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able description (for ``obelisk list`` and the server)."""
        return {
            "id": self.id,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "default_players": self.default_players or self.min_players,
            "description": self.description,
            "minutes": list(self.minutes) if self.minutes else None,
            "turns": list(self.turns) if self.turns else None,
            "options": [o.to_dict() for o in self.options],
        }


@mypyc_attr(native_class=False)
class Game(ABC):
    """Static description of one game with a fixed player count and options.

    Subclasses set ``info`` and ``state_class`` and implement the three size
    methods; ``_setup`` may build option-dependent tables. A plain Python class
    even where the core is compiled, so games may add attributes freely.
    """

    info: ClassVar[GameInfo]
    state_class: ClassVar[type["State"]]
    search_defaults: ClassVar[Mapping[str, Any]] = MappingProxyType({})
    """Parameters of the search bots (``ismcts``, ``cheater``: ``c``, ``rollout``, ``depth``, ``prior``) that
    suit this game better than the bots' own defaults, e.g. ``{"rollout": "greedy", "depth": 1}``; a bot
    spec's parameters override them. Empty: the bots' defaults."""

    def __init__(self, players: Any = None, **options: Any) -> None:
        info = self.info
        if players is None:
            players = info.default_players or info.min_players
        if isinstance(players, bool) or not isinstance(players, int):
            try:
                players = int(str(players))
            except ValueError:
                raise ValueError(
                    f"{info.id}: players must be a whole number from {info.min_players} to {info.max_players}, "
                    f"got {codec.describe(players)}"
                ) from None
        if not info.min_players <= players <= info.max_players:
            raise ValueError(
                f"{info.id}: players must be from {info.min_players} to {info.max_players}, got {codec.describe(players)}"
            )
        known = {o.name: o for o in info.options}
        unknown = sorted(set(options) - set(known))
        if unknown:
            allowed = ", ".join(sorted(known)) or "none"
            named = ", ".join(n if n.isidentifier() and len(n) <= 40 else codec.describe(n) for n in unknown)
            raise ValueError(f"{info.id}: unknown option(s) {named}; allowed options: {allowed}")
        values = {name: (opt.parse(options[name]) if name in options else opt.default) for name, opt in known.items()}
        self.num_players: int = players
        self.options: Mapping[str, Any] = MappingProxyType(values)
        self._setup()

    def _setup(self) -> None:
        """Build option-dependent tables; raise ``ValueError`` for bad option values."""

    @property
    def id(self) -> str:
        """The game's registry id."""
        return self.info.id

    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the action-id space; every legal action is in ``[0, n)``."""

    @abstractmethod
    def max_chance_outcomes(self) -> int:
        """An upper bound on the ids of chance outcomes (exclusive)."""

    @abstractmethod
    def max_game_length(self) -> int:
        """A true upper bound on the number of actions, chance outcomes included, in one game."""

    @abstractmethod
    def render_observation(self, view: Mapping[str, Any]) -> str:
        """Text for a terminal from ``State.observation(seat)`` alone, so it cannot leak."""

    def render_legend(self, view: Mapping[str, Any]) -> str:
        """What the symbols of ``render_observation`` mean, shown once rather than on every screen."""
        return ""

    def render_brief(self, view: Mapping[str, Any]) -> str:
        """One line instead of the whole screen for a decision that follows the same seat's previous one with
        nothing else in between (a step of a walk); empty where the game wants the whole screen."""
        return ""

    def render_decision(self, view: Mapping[str, Any]) -> str:
        """What the seat to act must do now, one short line in the active language ("buy, play, entomb or end
        the turn", "pay 3 more gold for Ankh"), from ``view`` alone; "" when no seat is to act.

        It names no seat: a client puts "Your turn — " or the player before it. Built from any seat's view
        of the position it reads the same for every seat, so it tells nobody anything hidden.
        """
        return ""

    def shortcuts(self, state: "State", seat: int) -> list[Shortcut]:
        """The game's shortcuts for ``seat``'s decision in ``state``: several decisions in one answer, chosen by a
        plain rule from what the seat sees (Valley's cheapest payment).

        Unchecked: ``obelisk.core.shortcuts.offered`` keeps those that are legal and marks them final. The
        default offers none.
        """
        return []

    def previews(self, view: Mapping[str, Any], actions: Sequence[int]) -> list[Preview]:
        """What some of ``actions`` (the seat's legal actions) would do, said before the move: the price and the
        cards that would pay it, the squares a piece would cover, from ``view`` (the seat's own observation)
        alone, so it can name nothing the seat may not see. Worded in the active language.

        ``obelisk.core.previews.offered`` keeps those of legal actions. The default previews none.
        """
        return []

    def render_progress(self, view: Mapping[str, Any]) -> str:
        """How far the game has come, one short line in the game's own terms ("round 4 · chamber closed"),
        from ``view`` alone: what a client shows instead of an event counter."""
        return ""

    def observation_tensor_size(self) -> int:
        """Length of the flat observation tensor (layout documented in the game's docs)."""
        raise TypeError(f"game {self.id!r} defines no observation tensor")

    def observation_tensor(self, view: Mapping[str, Any]) -> list[float]:
        """Fixed-size numeric encoding of ``State.observation(seat)``, for RL adapters."""
        raise TypeError(f"game {self.id!r} defines no observation tensor")

    def score_range(self) -> tuple[int, int] | None:
        """The least and the most ``scores()`` total a seat can end a game with, when that total decides the
        ranking (ties aside); ``None`` when a game ranks by something else.

        True bounds from the rules and the components (each game's doc proves its own), so they can serve as
        the utility range of a score-based utility (the OpenSpiel adapter's ``utility="score"``)."""
        return None

    def score_heading(self, category: str) -> str:
        """The heading of a scoring category (a key of a seat's ``scores()`` breakdown) in the active language.

        The default puts the key in words (``scroll_sets`` → ``Scroll sets``); a game names its categories
        in its catalog by overriding this."""
        words = category.replace("_", " ").strip()
        return words[:1].upper() + words[1:]

    def action_range(self, action: int) -> tuple[str, int]:
        """The named range of an action id and its index in it (``("buy", 2)``): what a board needs to point
        at the piece an action moves. A game without an ``actions`` space has the one range ``action``."""
        space = getattr(self, "actions", None)
        return space.decode(action) if isinstance(space, ActionSpace) else ("action", action)

    def help(self) -> GameHelp:
        """The rules summary and the component glossary, from the game's data file.

        A game without components to explain keeps this default: its one-line description, no entries.
        """
        return GameHelp(self.info.description, ())

    def new_initial_state(self, seed: Any = 0) -> "State":
        """The first position of a game. ``seed`` (in ``[0, 2**63)``) drives ``State.sample_chance`` only."""
        return self.state_class(self, seed)

    def replay(self, seed: Any, actions: Iterable[Any]) -> "State":
        """Apply ``actions`` (the full history, chance outcomes included) to a new game."""
        state = self.new_initial_state(seed)
        for index, action in enumerate(actions):
            try:
                state.apply_action(action)
            except IllegalActionError as error:
                raise IllegalActionError(f"action #{index} ({codec.describe(action)}) cannot be replayed: {error}") from None
        return state

    def state_from_json(self, doc: Any) -> "State":
        """Rebuild a state saved with ``State.to_json``; anything else raises one ``ValueError`` naming the field.

        The history is replayed from the seed through the rules and every saved
        field must equal the replayed one exactly, so a loaded state is one the
        rules reach: ids in range, counts conserved, every card and tile once.
        """
        if isinstance(doc, (str, bytes)):
            doc = codec.parse_json(doc, "saved state")
        if not isinstance(doc, dict):
            raise ValueError("saved state must be a JSON object")
        version = doc.get("format_version")
        if doc.get("format") != STATE_FORMAT or not _is_int(version) or version != STATE_FORMAT_VERSION:
            raise ValueError(f"not an {STATE_FORMAT} document of version {STATE_FORMAT_VERSION}")
        if set(doc) != set(_STATE_KEYS):
            missing = sorted(set(_STATE_KEYS) - set(doc))
            extra = sorted(codec.describe(key) for key in set(doc) - set(_STATE_KEYS))
            raise ValueError(f"saved state: missing keys {missing}, unexpected keys {extra}")
        for key, expected in (("game", self.id), ("players", self.num_players), ("options", dict(self.options))):
            if not codec.same_data(doc.get(key), expected):
                raise ValueError(f"saved state has {key}={codec.describe(doc.get(key))}, this game has {expected!r}")
        seed, history = doc.get("seed"), doc.get("history")
        try:
            check_seed(seed)
        except ValueError as error:
            raise ValueError(f"saved state: 'seed': {error}") from None
        if not isinstance(history, list):
            raise ValueError("saved state: 'history' must be a list of action ids")
        if len(history) > self.max_game_length():
            raise ValueError(f"saved state: 'history' has {len(history)} actions, more than a game can have")
        space = max(self.num_distinct_actions(), self.max_chance_outcomes())
        for index, action in enumerate(history):
            if not _is_int(action) or not 0 <= action < space:
                raise ValueError(f"saved state: 'history' #{index} is {codec.describe(action)}, not an action id below {space}")
        try:
            state = self.replay(seed, history)
        except IllegalActionError as error:
            raise ValueError(f"saved state: 'history' does not replay: {error}") from None
        saved = doc.get("state")
        if type(saved) is not dict or list(saved) != ["#d"] or type(saved["#d"]) is not list:
            raise ValueError("saved state: 'state' must be the encoded fields of a state")
        pairs = saved["#d"]
        if not all(type(pair) is list and len(pair) == 2 and type(pair[0]) is str for pair in pairs):
            raise ValueError("saved state: 'state' must list [name, value] pairs")
        values = {pair[0]: pair[1] for pair in pairs}
        if len(values) != len(pairs):
            raise ValueError("saved state: 'state' lists a field twice")
        expected_fields = codec.encode(_game_fields(state))["#d"]
        names = {pair[0] for pair in expected_fields}
        if set(values) != names:
            raise ValueError(f"saved state: missing fields {sorted(names - set(values))}, "
                             f"unexpected fields {sorted(set(values) - names)}")
        if [pair[0] for pair in pairs] != [pair[0] for pair in expected_fields]:
            raise ValueError("saved state: 'state' lists the fields in another order than to_json writes them")
        for name, replayed in expected_fields:
            problem = codec.difference(values[name], replayed, repr(name))
            if problem is not None:
                raise ValueError(f"saved state: field {problem} (from replaying the history)")
        return state

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its class, player count and options: unpickling builds the game (and its tables) anew."""
        return (_rebuild_game, (type(self), self.num_players, dict(self.options)))

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"<{type(self).__name__} {self.id} players={self.num_players}{options}>"


class RulesCache:
    """The ``rules`` of the game asked about last: a compiled state's fast path to its game's typed tables.

    A state's ``game`` is a plain Python object, so ``game.rules`` is a
    dictionary lookup; searches and simulations ask about one game millions
    of times in a row, so a single identity test usually answers instead.
    """

    def __init__(self) -> None:
        self._game: object = None
        self._rules: Any = None

    def of(self, game: Any) -> Any:
        """``game.rules``."""
        if game is not self._game:
            self._rules = game.rules
            self._game = game
        return self._rules


def _rebuild_game(cls: type[Game], players: int, options: dict[str, Any]) -> Game:
    return cls(players, **options)


_CORE_FIELDS = frozenset({"game", "_seed", "_history", "_legal", "_dealt_at"})


def state_fields(state: "State") -> dict[str, Any]:
    """Every field of ``state`` by name, core fields included.

    Read through the pickle protocol, so it works for a plain Python state
    (fields in ``__dict__``) and for a compiled one (fields in slots) alike.
    """
    pickled: Any = state.__getstate__()
    fields = dict(pickled)
    fields.update(fields.pop("__dict__", None) or {})
    return fields


def _game_fields(state: "State") -> dict[str, Any]:
    return {k: v for k, v in state_fields(state).items() if k not in _CORE_FIELDS}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """One position of a game.

    A game's state subclass keeps its fields as plain data (ints, strings,
    tuples, lists, dicts; no sets, no references to static tables) set in
    ``_init`` and implements the underscore hooks. Nothing mutates a state but
    ``apply_action``. Fields are read through :func:`state_fields`, never
    ``__dict__``, so a game's state class may be compiled to a native class.
    """

    game: Game
    _dealt_at: int = -1
    """The move number this state was re-dealt at by ``resample_from_infostate`` (its history starts
    there), or -1 for a position of a real game."""

    def __init__(self, game: Game | None = None, seed: Any = 0) -> None:
        if game is None:
            return  # an empty shell: ``cls.__new__(cls)`` of a compiled class lands here; clone() fills it
        self.game = game
        self._seed = check_seed(seed)
        self._history: list[int] = []
        self._legal: list[int] | None = None
        self._dealt_at = -1
        self._init()

    # Hooks a game implements -------------------------------------------------

    @abstractmethod
    def _init(self) -> None:
        """Set up the fields of the first position (no randomness: use chance nodes)."""

    @abstractmethod
    def _current_player(self) -> int:
        """The seat to act, ``CHANCE`` or ``TERMINAL``."""

    @abstractmethod
    def _legal_actions(self) -> list[int]:
        """Legal actions of the current seat, ascending."""

    @abstractmethod
    def _chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` of the current chance node, ascending ids, summing to 1."""

    @abstractmethod
    def _apply_action(self, action: int) -> None:
        """Apply a legal action (already checked) and advance to the next decision."""

    @abstractmethod
    def _action_to_string(self, action: int) -> str:
        """The readable label of any id in the action space, in this position."""

    def _illegal_reason(self, action: int) -> str:
        """Why ``action`` is illegal now; games override for specific messages."""
        return f"action {action} ({self._safe_label(action)}) is not legal now"

    @abstractmethod
    def _rank_keys(self) -> list[Any]:
        """Per-seat comparable keys at the end; higher ranks better, equal keys tie."""

    def _tie_break(self, ahead: int, behind: int) -> str | None:
        """The rule, in words, that ranks ``ahead`` above ``behind`` although their totals are equal.

        Games with a tie-break name it (e.g. "more coins left"); None leaves it unnamed.
        """
        return None

    @abstractmethod
    def _scores(self) -> list[dict[str, Any]]:
        """Per-seat ``{"total": points, "breakdown": {category: points}}``."""

    @abstractmethod
    def _observation(self, seat: int | None) -> dict[str, Any]:
        """The game's JSON-able view for ``seat`` (``None``: spectator): nothing it may not see."""

    @abstractmethod
    def _resample(self, seat: int, rng: random.Random) -> "State":
        """A clone with everything ``seat`` cannot know re-dealt."""

    def _is_outcome(self, action: int) -> bool:
        """Whether ``action`` is an outcome of the current chance node.

        A game whose draws come from a pool answers with a lookup in it, so a
        draw never builds the list of outcome ids just to check one.
        """
        return _in_ascending(self._compute_legal(), action)

    def _action_visible_to(self, action: int, seat: int | None) -> bool:
        """Whether ``seat`` sees which action this is (called before it is applied)."""
        return True

    def _reveals(self, action: int) -> bool:
        """Whether the decision ``action`` (called before it is applied) shows anyone something hidden.

        A decision that reveals cannot be taken back (``undo``). The default is
        True: no decision is undoable until the game says which reveal nothing.
        """
        return True

    def _hidden_action_string(self, action: int) -> str:
        """What seats that may not see ``action`` are told instead, in the active language.

        A log shows the actor before the line, so a decision's line does not name its own seat; a chance
        line names the seat it concerns ("player 2 drew a card")."""
        return tr("a hidden outcome") if self.current_player() == CHANCE else tr("made a hidden choice")

    @abstractmethod
    def _render(self) -> str:
        """The complete position as text (deterministic)."""

    @abstractmethod
    def _evaluate(self) -> list[float]:
        """Heuristic per-seat estimate of ``returns()`` in [-1, 1] (full information)."""

    # Public protocol ---------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def seed(self) -> int:
        return self._seed

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` or ``TERMINAL``."""
        return self._current_player()

    def is_terminal(self) -> bool:
        return self._current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self._current_player() == CHANCE

    def legal_actions(self, player: Any = None) -> list[int]:
        """Ascending legal action ids (chance outcomes at a chance node).

        With ``player`` given, the list is empty unless that seat is to act.
        """
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        if player is not None and player != self._current_player():
            return []
        return list(legal)

    def _compute_legal(self) -> list[int]:
        current = self._current_player()
        if current == TERMINAL:
            legal: list[int] = []
        elif current == CHANCE:
            legal = _outcome_ids(self._chance_outcomes())
        else:
            legal = self._legal_actions()
        self._legal = legal
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(outcome, probability)]`` at a chance node, else ``[]``."""
        if self._current_player() != CHANCE:
            return []
        return self._chance_outcomes()

    def apply_action(self, action: Any, player: Any = None) -> None:
        """Apply ``action``; raise ``IllegalActionError`` (state unchanged) if it is not legal.

        ``player``, when given, must be the seat to act (``CHANCE`` for chance outcomes).
        """
        if type(action) is not int:
            action = _as_action_id(action)
        if player is not None and (type(player) is not int or not CHANCE <= player < self.num_players):
            raise IllegalActionError(f"player must be a seat number (0..{self.num_players - 1}), CHANCE ({CHANCE}) "
                                     f"or None, got {codec.describe(player)}")
        legal = self._legal
        if legal is not None:
            allowed = _in_ascending(legal, action)
        elif self._current_player() == CHANCE:
            allowed = self._is_outcome(action)
        else:
            allowed = _in_ascending(self._compute_legal(), action)
        if not allowed or (player is not None and player != self._current_player()):
            self._raise_illegal(action, player)
        self._legal = None
        self._apply_action(action)
        self._history.append(action)

    def _raise_illegal(self, action: int, player: Any) -> None:
        current = self._current_player()
        if current == TERMINAL:
            raise IllegalActionError("the game is over; no action can be applied")
        if player is not None and player != current:
            actor = "chance" if current == CHANCE else f"seat {current}"
            raise IllegalActionError(f"it is not seat {codec.describe(player)}'s turn: {actor} is to act")
        if current == CHANCE:
            raise IllegalActionError(f"{codec.describe(action)} is not a possible chance outcome here")
        if not 0 <= action < self.game.num_distinct_actions():
            raise IllegalActionError(f"action id {codec.describe(action)} is outside the action space "
                                     f"(0..{self.game.num_distinct_actions() - 1})")
        raise IllegalActionError(self._illegal_reason(action))

    def sample_chance(self, rng: Any = None) -> int:
        """Draw an outcome of the current chance node.

        Without ``rng`` the draw depends only on the state's seed and move
        number, so "just play" callers are reproducible from the seed.
        """
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalActionError("not a chance node")
        if rng is None:
            rng = random.Random(f"{self._seed}:{self.move_number()}")
        elif not isinstance(rng, random.Random):
            raise ValueError(f"rng must be a random.Random or None, got {type(rng).__name__}")
        return sample_outcome(outcomes, rng)

    def action_to_string(self, action: Any) -> str:
        """The readable label of ``action`` in this position (full information)."""
        return self._action_to_string(self._action_in_space(action))

    def public_action_string(self, action: Any, seat: Any) -> str:
        """What ``seat`` (``None`` = spectator) learns when ``action`` is applied here: a line of the game's log,
        in the active language (an action's label in its log form, see ``i18n.telling``).

        At the end nothing can be applied, so nothing is told: ``IllegalActionError``.
        """
        action = self._action_in_space(action)
        if seat is not None and (not _is_int(seat) or not 0 <= seat < self.num_players):
            raise ValueError(f"seat must be None or 0..{self.num_players - 1}, got {codec.describe(seat)}")
        if self._current_player() == TERMINAL:
            raise IllegalActionError("the game is over; no action can be applied")
        if i18n.current_language() == i18n.DEFAULT_LANGUAGE:
            return self._told(action, seat)
        with i18n.telling():  # a label as the log tells it: Czech log lines are in the past tense
            return self._told(action, seat)

    def _told(self, action: int, seat: int | None) -> str:
        if self._action_visible_to(action, seat):
            return self._action_to_string(action)
        return self._hidden_action_string(action)

    def _action_in_space(self, action: Any) -> int:
        """``action`` as an int id of this game's action space, else ``ValueError``."""
        if isinstance(action, bool):
            raise ValueError(f"an action must be an integer id, got {codec.describe(action)}")
        try:
            action = operator.index(action)
        except TypeError:
            raise ValueError(f"an action must be an integer id, got {codec.describe(action)}") from None
        if not 0 <= action < max(self.game.num_distinct_actions(), self.game.max_chance_outcomes()):
            raise ValueError(f"action id {codec.describe(action)} is outside the action space")
        return int(action)

    def string_to_action(self, text: Any) -> int:
        """The legal action whose label is ``text`` (case and spacing ignored), or whose id it spells in ASCII digits.

        Every refusal (not a string, no such legal label or id, the game over) is an ``IllegalActionError``.
        """
        if not isinstance(text, str):
            raise IllegalActionError(f"an action label must be a string, got {type(text).__name__}")
        legal = self.legal_actions()
        if not legal:
            raise IllegalActionError("the game is over; no action can be applied")
        wanted = " ".join(text.split()).casefold()
        for action in legal:
            if " ".join(self._action_to_string(action).split()).casefold() == wanted:
                return action
        if wanted.isascii() and wanted.isdigit():
            digits = wanted.lstrip("0") or "0"
            for action in legal:
                if str(action) == digits:
                    return action
        sample = ", ".join(repr(self._action_to_string(a)) for a in legal[:8])
        more = f" (and {len(legal) - 8} more)" if len(legal) > 8 else ""
        shown = text if len(text) <= 40 else text[:40] + "…"
        raise IllegalActionError(f"no legal action is labelled {shown!r}; legal now: {sample}{more}")

    def returns(self) -> list[float]:
        """Rank-based result per seat: 0 until the end.

        At the end seat ranks are spread linearly from +1 (first) to -1 (last);
        tied seats share the mean of the places they cover, so the returns of
        a game always sum to 0.
        """
        if not self.is_terminal():
            return [0.0] * self.num_players
        return rank_returns(self._rank_keys())

    def scores(self) -> list[dict[str, Any]]:
        """Per-seat points in game units, ``{"total": int, "breakdown": {...}}``."""
        return self._scores()

    def tie_break(self, ahead: Any, behind: Any) -> str | None:
        """Which tie-break rule put ``ahead`` above ``behind``, seats with equal totals: words such as
        "fewer amulets", or None when the game names none (the end screen then just gives the places)."""
        for seat in (ahead, behind):
            if not _is_int(seat) or not 0 <= seat < self.num_players:
                raise ValueError(f"seat must be 0..{self.num_players - 1}, got {codec.describe(seat)}")
        return self._tie_break(ahead, behind)

    def outcome(self) -> dict[str, Any]:
        """How the game ended, in words of the active language: ``{"winners": [seats], "places": [1-based
        place per seat, ties share the better one], "reasons": [lines]}``.

        The places follow the ranking the returns are made from; the reasons say why, in the game's own
        terms (the game's hook ``_outcome``): the scores and tie-breaks that decided, and whatever else did
        (who reached the chamber first, who was eaten by the crocodile). Only at the end, when nothing is
        hidden any more; before it, ``ValueError``.
        """
        if self._current_player() != TERMINAL:
            raise ValueError("the game is not over: it has no outcome yet")
        places = outcomes.places(self._rank_keys())
        winners, reasons = self._outcome(places)
        return {"winners": winners, "places": places, "reasons": reasons}

    def _outcome(self, places: list[int]) -> tuple[list[int], list[str]]:
        """The winners and the reasons of a finished game whose seats took ``places``.

        The default: the seats in first place win, and the reasons are the winner's score and every tie of
        scores with the tie-break that broke it (``obelisk.core.outcome.ranking``).
        """
        return outcomes.first_places(places), outcomes.ranking(self, places)

    def evaluate(self) -> list[float]:
        """Per-seat heuristic value in [-1, 1]: ``returns()`` at the end, the game's estimate before.

        It reads the whole state, so bots call it on determinized states only.
        """
        if self.is_terminal():
            return self.returns()
        return self._evaluate()

    def observation(self, seat: Any) -> dict[str, Any]:
        """Exactly what ``seat`` may see, as a JSON-able dict; ``None`` is a spectator."""
        if seat is not None and (not _is_int(seat) or not 0 <= seat < self.num_players):
            raise ValueError(f"seat must be None or 0..{self.num_players - 1}, got {codec.describe(seat)}")
        view = self._observation(seat)
        current = self._current_player()
        view["game"] = self.game.id
        view["seat"] = seat
        view["move_number"] = self.move_number()
        view["current_player"] = current
        view["terminal"] = current == TERMINAL
        if seat is not None and current == seat:
            view["legal_actions"] = [[a, self._action_to_string(a)] for a in self.legal_actions()]
        if current == TERMINAL:
            view["returns"] = self.returns()
            view["scores"] = self.scores()
        return view

    def resample_from_infostate(self, seat: Any, rng: Any = None) -> "State":
        """A state consistent with all ``seat`` knows, with the hidden parts re-dealt.

        ``rng`` is a ``random.Random``, or an integer seed (with the seat and the
        move number it seeds a generator), or ``None`` for a generator seeded from
        the state's seed as well. The re-deal depends only on what ``seat`` knows
        and the generator; it carries nothing of the true position that ``seat``
        cannot see: it gets a seed drawn from the generator, keeps the move number,
        and its ``history()`` starts empty, so it is not ``replayable`` and
        ``to_json`` refuses it.
        """
        if not _is_int(seat) or not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be 0..{self.num_players - 1}, got {codec.describe(seat)}")
        if rng is None:
            rng = random.Random(f"resample:{self._seed}:{self.move_number()}:{seat}:None")
        elif _is_int(rng):
            rng = random.Random(f"resample:{self.move_number()}:{seat}:{codec.seed_text(rng)}")
        elif not isinstance(rng, random.Random):
            raise ValueError(f"rng must be a random.Random, an integer seed or None, got {type(rng).__name__}")
        resampled = self._resample(seat, rng)
        if resampled is self:
            raise TypeError(f"{type(self).__name__}._resample returned the state itself, not a re-dealt copy")
        resampled._legal = None
        resampled._dealt_at = self.move_number()
        resampled._seed = rng.getrandbits(_SEED_BITS)
        resampled._history = []
        return resampled

    def undo_points(self, seat: Any) -> int:
        """How many of ``seat``'s latest decisions ``undo`` may take back now (0: none).

        The rule players accept online: a seat may take back its own decisions
        of the current turn while no chance event happened and nothing hidden
        was revealed since (``_reveals``), never across another seat's decision,
        and not once the game is over.
        """
        return self._undo_scan(seat)[0]

    def is_final(self, action: Any) -> bool:
        """Whether the seat to act, once it takes the legal ``action``, can no longer take it back.

        The rule of ``undo_points`` said before the decision, so a client can warn first: a decision is
        final when it reveals something hidden (``_reveals``), when a chance event follows it (a server
        draws chance at once), when it ends the game, or when it hands the decision to another seat (who
        may decide at once, and a seat never takes back across another's decision). Each game decides it
        from what every seat sees, so the mark tells nobody anything hidden. An action that is not legal
        now, or a position where no seat is to act, raises ``IllegalActionError``.
        """
        return self._is_final(self._checked_decision(action))

    def reveals(self, action: Any) -> bool:
        """Whether the seat to act, by taking the legal ``action``, shows anyone something hidden.

        Such a decision can never be taken back (``undo``), and a server's log marks it so that it counts
        the points of undo without replaying the game. The answer is the game's knowledge (the hook
        ``_reveals``, asked before the action is applied); an action that is not legal now, or a position
        where no seat is to act, raises ``IllegalActionError``.
        """
        action = self._checked_decision(action)
        return self._reveals(action)

    def _checked_decision(self, action: Any) -> int:
        """``action`` as a legal decision of the seat to act now, else ``IllegalActionError`` saying why not."""
        action = _as_action_id(action)
        current = self._current_player()
        if current == TERMINAL:
            raise IllegalActionError("the game is over; no action can be applied")
        if current == CHANCE:
            raise IllegalActionError("chance is to act: only a seat's decision can be final")
        legal = self._legal
        if not _in_ascending(legal if legal is not None else self._compute_legal(), action):
            self._raise_illegal(action, None)
        return action

    def _is_final(self, action: int) -> bool:
        """The hook of ``is_final`` (``action`` is legal): revealing, or another actor after it on a copy.

        A game whose ``_reveals`` already applies the action to a copy overrides this to do so once.
        """
        if self._reveals(action):
            return True
        after = self.clone()
        after._apply_action(action)
        return after._current_player() != self._current_player()

    def undo(self, seat: Any, steps: Any = 1) -> "State":
        """A new state: this game without ``seat``'s last ``steps`` decisions; this state is left as it is.

        It is rebuilt by replaying the history without them, so the steps taken
        back leave no trace in it or in its record. Taking back more than
        ``undo_points(seat)`` raises ``IllegalActionError`` saying why not.
        """
        points, reason = self._undo_scan(seat)
        if not _is_int(steps) or steps < 1:
            raise IllegalActionError(f"steps must be a whole number from 1, got {codec.describe(steps)}")
        if steps > points:
            if points == 0:
                refusal = tr("player {player} cannot take back a decision now: {reason}", player=seat + 1,
                             reason=reason)
            else:
                refusal = tr.n("player {player} cannot take back more than {n} decision now: {reason}",
                               "player {player} cannot take back more than {n} decisions now: {reason}", points,
                               player=seat + 1, reason=reason)
            raise IllegalActionError(refusal)
        return self.game.replay(self._seed, self._history[:len(self._history) - steps])

    def _undo_scan(self, seat: Any) -> tuple[int, str]:
        """``seat``'s decisions at the end of the history that may be taken back, and what stops the next one
        (in the active language: a player reads it)."""
        if not _is_int(seat) or not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be 0..{self.num_players - 1}, got {codec.describe(seat)}")
        if self._dealt_at >= 0:
            return 0, tr("a re-dealt state is not a position of the game")
        if self._current_player() == TERMINAL:
            return 0, tr("the game is over")
        replayed = self.game.new_initial_state(self._seed)
        steps: list[tuple[int, bool]] = []
        for action in self._history:
            actor = replayed._current_player()
            steps.append((actor, actor == seat and replayed._reveals(action)))
            replayed.apply_action(action)
        count = 0
        for actor, reveals in reversed(steps):
            if actor == CHANCE:
                return count, tr("a chance event happened since")
            if actor != seat:
                return count, tr("player {player} has decided since", player=actor + 1)
            if reveals:
                return count, tr("its decision revealed something hidden")
            count += 1
        return count, tr("it made no decision before")

    @property
    def replayable(self) -> bool:
        """Whether ``Game.replay(seed, history())`` rebuilds this state: false for a re-deal."""
        return self._dealt_at < 0

    def clone(self) -> "State":
        """An independent copy (containers copied, immutable values shared)."""
        cls = type(self)
        new = cls.__new__(cls)
        for name, value in state_fields(self).items():
            setattr(new, name, _copy_plain(value) if type(value) in _CONTAINERS else value)
        new.game = self.game
        return new

    def history(self) -> list[int]:
        """Every action applied so far, chance outcomes included; for a re-deal, those applied since."""
        return list(self._history)

    def move_number(self) -> int:
        """Actions applied since the start of the game (a re-deal counts those before it too)."""
        dealt_at = self._dealt_at
        return len(self._history) + dealt_at if dealt_at > 0 else len(self._history)

    def to_json(self) -> dict[str, Any]:
        """The whole state as a JSON-able dict; ``Game.state_from_json`` restores it.

        A re-deal (``resample_from_infostate``) is refused: it is a guess, not a position of the game.
        """
        if self._dealt_at >= 0:
            raise ValueError(
                "a re-dealt state (from resample_from_infostate) cannot be saved: it is not a position of the game"
            )
        return {
            "format": STATE_FORMAT,
            "format_version": STATE_FORMAT_VERSION,
            "game": self.game.id,
            "players": self.num_players,
            "options": dict(self.game.options),
            "seed": self._seed,
            "history": list(self._history),
            "state": codec.encode(_game_fields(self)),
        }

    def __str__(self) -> str:
        return self._render()

    def __repr__(self) -> str:
        dealt = "" if self._dealt_at < 0 else " re-dealt"
        return f"<{self.game.id}{dealt} state move={self.move_number()} player={self._current_player()}>"

    def _safe_label(self, action: int) -> str:
        try:
            return self._action_to_string(action)
        except Exception:  # a label for an out-of-range id may not exist
            return "unknown action"


def _outcome_ids(outcomes: list[tuple[Any, Any]]) -> list[int]:
    """The outcome ids of ``[(outcome, probability)]``, copied as objects (typed, each would be unboxed and boxed again)."""
    ids: list[Any] = [None] * len(outcomes)
    for i, (outcome, _) in enumerate(outcomes):
        ids[i] = outcome
    return ids


def _in_ascending(values: list[int], wanted: int) -> bool:
    """Whether ``wanted`` is in the ascending list ``values`` (a binary search on machine ints when compiled)."""
    low = 0
    high = len(values)
    while low < high:
        middle = (low + high) >> 1
        value = values[middle]
        if value < wanted:
            low = middle + 1
        elif value > wanted:
            high = middle
        else:
            return True
    return False


def _as_action_id(action: Any) -> int:
    if isinstance(action, bool):
        raise IllegalActionError(f"an action must be an integer id, got {codec.describe(action)}")
    try:
        return operator.index(action)
    except TypeError:
        raise IllegalActionError(f"an action must be an integer id, got {codec.describe(action)}") from None


def _copy_plain(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return [_copy_plain(v) if type(v) in _CONTAINERS else v for v in value]
    if kind is dict:
        return {k: _copy_plain(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    return value


_CONTAINERS = (list, dict)


def sample_outcome(outcomes: Sequence[tuple[int, float]], rng: random.Random) -> int:
    """Draw an action from ``[(action, probability)]`` with one ``rng.random()`` call."""
    threshold = rng.random()
    cumulative = 0.0
    for action, probability in outcomes:
        cumulative += probability
        if threshold < cumulative:
            return action
    return outcomes[-1][0]


def rank_returns(keys: Sequence[Any]) -> list[float]:
    """Spread ranks linearly from +1 to -1, ties sharing the mean of their places."""
    n = len(keys)
    if n == 1:
        return [0.0]
    order = sorted(range(n), key=lambda seat: keys[seat], reverse=True)
    result = [0.0] * n
    place = 0
    while place < n:
        end = place
        while end + 1 < n and keys[order[end + 1]] == keys[order[place]]:
            end += 1
        mean_place = (place + end) / 2
        value = 1.0 - 2.0 * mean_place / (n - 1)
        for i in range(place, end + 1):
            result[order[i]] = value
        place = end + 1
    return result


@dataclass
class ActionSpace:
    """Named contiguous ranges of action ids, e.g. ``buy[3]``, ``play[10]``, ``end_turn[1]``."""

    ranges: list[tuple[str, int]]
    _starts: dict[str, int] = field(init=False, repr=False)
    _table: list[tuple[str, int]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._starts = {}
        self._table = []
        for name, size in self.ranges:
            if name in self._starts or size < 1:
                raise ValueError(f"action range {name!r} is repeated or empty")
            self._starts[name] = len(self._table)
            self._table.extend((name, i) for i in range(size))

    @property
    def size(self) -> int:
        return len(self._table)

    def start(self, name: str) -> int:
        return self._starts[name]

    def encode(self, name: str, index: int = 0) -> int:
        start = self._starts[name]
        if not 0 <= index < dict(self.ranges)[name]:
            raise ValueError(f"index {index} out of range for action range {name!r}")
        return start + index

    def decode(self, action: int) -> tuple[str, int]:
        """``(range name, index within the range)`` of an action id."""
        if not 0 <= action < len(self._table):
            raise ValueError(f"action id {codec.describe(action)} is outside the action space")
        return self._table[action]
