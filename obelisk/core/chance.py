"""The legal list of a chance node.

Kept apart from :mod:`obelisk.core.protocol` because a subclass of ``list``
cannot be compiled to a native class; this module always runs as plain Python.
"""

from __future__ import annotations

import operator


class ChanceLegal(list):  # type: ignore[type-arg]
    """The legal ids of a chance node, carrying the outcomes they were built from.

    Caching both in ``State._legal`` saves recomputing the distribution when a
    caller asks for the legal list and then samples.
    """

    __slots__ = ("outcomes",)

    def __init__(self, outcomes: list[tuple[int, float]]) -> None:
        list.__init__(self, map(_outcome_id, outcomes))
        self.outcomes = tuple(outcomes)


_outcome_id = operator.itemgetter(0)
