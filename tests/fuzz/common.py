"""Shared pieces of the fuzz suite: the hypothesis profiles, base states per game, JSON mutations.

Every property runs under the profile named by ``OBELISK_FUZZ_PROFILE``:
``fuzz`` (default: a few seconds per test, failures reported unshrunk) or ``fuzz-long``, whose example
count is ``OBELISK_FUZZ_EXAMPLES`` (``benchmarks/fuzz.py --examples N`` sets both).
"""

from __future__ import annotations

import copy
import functools
import json
import os
import random
from typing import Any

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

import obelisk
from obelisk import games
from obelisk.core import State, testing

GAME_IDS = tuple(games.shipped())
"""Every game of the package."""

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture,
           HealthCheck.filter_too_much]
settings.register_profile("fuzz", max_examples=20, deadline=None, suppress_health_check=_HEALTH,
                          phases=[Phase.explicit, Phase.reuse, Phase.generate])
settings.register_profile("fuzz-long", max_examples=int(os.environ.get("OBELISK_FUZZ_EXAMPLES", "1000")),
                          deadline=None, suppress_health_check=_HEALTH)
FUZZ = settings.get_profile(os.environ.get("OBELISK_FUZZ_PROFILE", "fuzz"))
"""The decorator every property carries."""


@functools.lru_cache(maxsize=None)
def game(game_id: str) -> obelisk.Game:
    return obelisk.load(game_id)


@functools.lru_cache(maxsize=None)
def _base_histories(game_id: str) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(seed, history) of a few positions of two random games: the start, the middle, the end."""
    found = []
    for seed in (1, 2):
        final = testing.random_playout(game(game_id), seed)
        history = final.history()
        for cut in (0, len(history) // 3, len(history) // 2, len(history)):
            found.append((seed, tuple(history[:cut])))
    return tuple(found)


def base_state(game_id: str, index: int) -> State:
    """A fresh copy of one of the base positions of ``game_id``."""
    histories = _base_histories(game_id)
    seed, history = histories[index % len(histories)]
    return game(game_id).replay(seed, history)


json_scalars = (
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from([0, 1, -1, 2**63, 10**400, 1.5, -0.0, 1e308])
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)
"""Arbitrary JSON-able values (and a few Python ints JSON cannot carry, for documents passed as dicts)."""


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``value`` (list indices and dict keys), the root included."""
    found = [prefix]
    if isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(_paths(item, prefix + (index,)))
    elif isinstance(value, dict):
        for key, item in value.items():
            found.extend(_paths(item, prefix + (key,)))
    return found


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


@st.composite
def mutated(draw: st.DrawFn, doc: Any) -> Any:
    """``doc`` (plain JSON data) with one to three random edits: a value replaced, a key or item removed or added,
    a list truncated, extended, repeated or shuffled, a number nudged, a type changed."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(doc)
        path = draw(st.sampled_from(paths))
        target = _get(doc, path)
        edits = ["replace", "nudge", "retype"]
        if isinstance(target, list):
            edits += ["truncate", "extend", "shuffle", "repeat", "drop"] if target else ["extend"]
        if isinstance(target, dict):
            edits += ["drop_key", "add_key"] if target else ["add_key"]
        edit = draw(st.sampled_from(edits))
        if edit == "replace":
            new: Any = draw(json_values)
        elif edit == "nudge":
            new = target + draw(st.sampled_from([1, -1, 10**9])) if type(target) is int else draw(json_scalars)
        elif edit == "retype":
            new = _retyped(target)
        elif edit == "truncate":
            new = target[:draw(st.integers(0, len(target) - 1))]
        elif edit == "extend":
            new = target + draw(st.lists(json_scalars | st.integers(0, 300), min_size=1, max_size=5))
        elif edit == "shuffle":
            new = list(target)
            random.Random(draw(st.integers(0, 2**32))).shuffle(new)
        elif edit == "repeat":
            new = target + [draw(st.sampled_from(target))]
        elif edit == "drop":
            new = list(target)
            del new[draw(st.integers(0, len(target) - 1))]
        elif edit == "drop_key":
            new = dict(target)
            del new[draw(st.sampled_from(sorted(target, key=str)))]
        else:
            new = {**target, draw(st.text(max_size=6)): draw(json_values)}
        if path:
            _get(doc, path[:-1])[path[-1]] = new
        else:
            doc = new
    return doc


def _retyped(value: Any) -> Any:
    """``value`` as the nearest value of another JSON type (``3`` → ``3.0``, a list → a tagged tuple ...)."""
    kind = type(value)
    if kind is bool:
        return int(value)
    if kind is int:
        return float(value) if abs(value) < 2**53 else str(value)
    if kind is float:
        return str(value)
    if kind is str:
        return [value]
    if kind is list:
        return {"#t": value}
    if kind is dict:
        return list(value.values())
    return 0


def one_line(error: BaseException) -> str:
    """The error's message, checked to be one short line (what a user or a server log shows)."""
    text = str(error)
    assert text and "\n" not in text and len(text) < 1000, f"not a one-line message: {text[:2000]!r}"
    assert "Traceback" not in text
    return text


def canonical(doc: Any) -> str:
    return json.dumps(doc, sort_keys=True)
