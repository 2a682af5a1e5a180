"""Exact JSON encoding of plain state data.

JSON has no tuples and only string keys, so tuples and dicts are tagged:
``{"#t": [...]}`` and ``{"#d": [[key, value], ...]}``. Anything else that is
not plain data (sets, objects) is refused, which keeps states deterministic.
"""

from __future__ import annotations

from typing import Any

_SCALARS = (int, float, str, bool, type(None))


def encode(value: Any) -> Any:
    """Plain data → JSON-able data, exactly invertible by :func:`decode`."""
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


def decode(value: Any) -> Any:
    """Inverse of :func:`encode`; raises ``ValueError`` on anything it did not produce."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list:
        return [decode(v) for v in value]
    if kind is dict and len(value) == 1:
        if "#t" in value and type(value["#t"]) is list:
            return tuple(decode(v) for v in value["#t"])
        if "#d" in value and type(value["#d"]) is list:
            result = {}
            for pair in value["#d"]:
                if type(pair) is not list or len(pair) != 2:
                    raise ValueError(f"malformed dict entry {pair!r} in saved state")
                key = decode(pair[0])
                try:
                    result[key] = decode(pair[1])
                except TypeError:
                    raise ValueError(f"unhashable dict key {pair[0]!r} in saved state") from None
            return result
    raise ValueError(f"malformed value in saved state: {str(value)[:80]}")
