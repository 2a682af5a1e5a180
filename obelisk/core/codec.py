"""Exact JSON encoding of plain state data.

JSON has no tuples and only string keys, so tuples and dicts are tagged:
``{"#t": [...]}`` and ``{"#d": [[key, value], ...]}``. Anything else that is
not plain data (sets, objects) is refused, which keeps states deterministic.
A saved state is never decoded: ``Game.state_from_json`` replays its history
and compares the encoding of the result with :func:`same_data`.
"""

from __future__ import annotations

import json
import math
from typing import Any

_SCALARS = (int, float, str, bool, type(None))


def encode(value: Any) -> Any:
    """Plain data → JSON-able data that survives a JSON round trip exactly."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list:
        return [encode(v) for v in value]
    if kind is tuple:
        return {"#t": [encode(v) for v in value]}
    if kind is dict:
        return {"#d": [[encode(k), encode(v)] for k, v in value.items()]}
    raise TypeError(f"state data may hold only ints, floats, strings, lists, tuples and dicts, not {kind.__name__}")


MAX_DEPTH = 64
"""Deepest nesting of arrays and objects accepted in a JSON document."""
MAX_DIGITS = 40
"""Most digits of an integer accepted in a JSON document (far beyond any count or seed)."""


def parse_json(text: str | bytes, what: str) -> Any:
    """Parse a JSON document, refusing with one ``ValueError`` naming ``what`` whatever would cause trouble later.

    Refused: invalid JSON, ``NaN``/``Infinity`` and floats that overflow, integers
    longer than ``MAX_DIGITS`` digits, and nesting deeper than ``MAX_DEPTH``.
    """
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_refuse_constant)
    except RecursionError:
        raise ValueError(f"{what} is nested too deeply (more than {MAX_DEPTH} levels)") from None
    except _NumberError as error:
        raise ValueError(f"{what} holds {error}") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{what} is not valid JSON: {error}") from None
    except ValueError as error:  # bytes that are not UTF-8
        raise ValueError(f"{what} is not valid JSON: {error}") from None
    if depth(value) > MAX_DEPTH:
        raise ValueError(f"{what} is nested too deeply (more than {MAX_DEPTH} levels)")
    return value


class _NumberError(ValueError):
    pass


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _NumberError(f"an integer of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NumberError(f"the number {text[:20]} that overflows a float")
    return value


def _refuse_constant(text: str) -> Any:
    raise _NumberError(f"{text}, which is not a number JSON allows")


def depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (a scalar is 0), without recursion."""
    deepest = 0
    pending = [(value, 1)]
    while pending:
        item, level = pending.pop()
        if type(item) in (list, tuple):
            children: Any = item
        elif type(item) is dict:
            children = item.values()
        else:
            continue
        deepest = max(deepest, level)
        if level <= MAX_DEPTH:
            pending.extend((child, level + 1) for child in children)
    return deepest


def same_data(value: Any, expected: Any) -> bool:
    """Whether ``value`` equals ``expected`` with the same types throughout (``1``, ``1.0`` and ``True`` differ)."""
    return difference(value, expected) is None


def difference(value: Any, expected: Any, where: str = "") -> str | None:
    """Where and how ``value`` first differs from ``expected`` (types included), or None if it does not.

    Recursion follows ``expected``, so a deeply nested ``value`` costs nothing.
    """
    kind = type(expected)
    if type(value) is kind:
        if kind is list or kind is tuple:
            if len(value) == len(expected):
                for index, (item, wanted) in enumerate(zip(value, expected)):
                    found = difference(item, wanted, f"{where}[{index}]")
                    if found is not None:
                        return found
                return None
        elif kind is dict:
            if value.keys() == expected.keys():
                for key, wanted in expected.items():
                    found = difference(value[key], wanted, f"{where}[{key!r}]")
                    if found is not None:
                        return found
                return None
        elif value == expected:
            return None
    return f"{where or 'value'} is {describe(value)}, expected {describe(expected)}"


def seed_text(value: Any) -> str:
    """``str(value)`` for seeding a generator from text, with an integer too long to print in decimal (more
    than Python's 4,300 digits) written in hexadecimal, so any integer seeds."""
    if type(value) is int and value.bit_length() > 14_000:
        return hex(value)
    return str(value)


def describe(value: Any) -> str:
    """A short, always printable, one-line description of any value, for error messages."""
    text = _compact(value, _SHORT)
    if text is not None:
        return text
    kind = type(value)
    if kind is int:
        return f"an integer of {value.bit_length()} bits"
    if kind is str:
        return repr(value[:_SHORT])[:_SHORT - 3] + "..."
    article = "an" if kind.__name__[0] in "aeiou" else "a"
    if kind in (list, tuple, dict):
        return f"{article} {kind.__name__} of {len(value)} {'entry' if len(value) == 1 else 'entries'}"
    return f"{article} {kind.__name__}"


_SHORT = 60


def _compact(value: Any, budget: int) -> str | None:
    """``repr(value)`` if it fits in ``budget`` characters (decided without building a long text), else None."""
    kind = type(value)
    if budget < 1 or (kind is int and value.bit_length() > 4 * budget):
        return None
    if kind is str and len(value) > budget:
        return None
    if kind in _SCALARS:
        text = repr(value)
    elif kind is list or kind is tuple or kind is dict:
        items = [item for pair in value.items() for item in pair] if kind is dict else value
        parts = []
        used = 2
        for item in items:
            part = _compact(item, budget - used)
            if part is None:
                return None
            used += len(part) + 2
            parts.append(part)
        if kind is dict:
            text = "{" + ", ".join(f"{k}: {v}" for k, v in zip(parts[::2], parts[1::2])) + "}"
        elif kind is tuple:
            text = "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
        else:
            text = "[" + ", ".join(parts) + "]"
    else:
        return None
    return text if len(text) <= budget else None
