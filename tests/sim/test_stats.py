"""Statistics of the arena on cases with known answers."""

from __future__ import annotations

import math

import pytest

from obelisk.sim.stats import bradley_terry, mean_interval, pairwise_wins, wilson_interval


@pytest.mark.parametrize(
    "wins,trials,low,high",
    [(5, 10, 0.2366, 0.7634), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (81, 263, 0.2553, 0.3662)],
)
def test_wilson_interval_matches_published_values(wins: float, trials: int, low: float, high: float) -> None:
    got = wilson_interval(wins, trials)
    assert got == pytest.approx((low, high), abs=5e-4)


def test_wilson_without_trials_is_uninformative() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_interval() -> None:
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    half = 1.959963984540054 * math.sqrt(1.6666666666666667 / 4)
    assert (mean, low, high) == pytest.approx((2.5, 2.5 - half, 2.5 + half))
    assert mean_interval([7.0]) == (7.0, 7.0, 7.0)


def test_bradley_terry_recovers_a_three_to_one_edge() -> None:
    ratings = bradley_terry(["a", "b"], {("a", "b"): 75, ("b", "a"): 25}, prior=0.0)
    assert ratings["a"] - ratings["b"] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert ratings["a"] + ratings["b"] == pytest.approx(0.0, abs=1e-9)


def test_bradley_terry_is_transitive_and_finite_with_the_prior() -> None:
    wins = {("a", "b"): 30, ("b", "a"): 0, ("b", "c"): 20, ("c", "b"): 10, ("a", "c"): 40, ("c", "a"): 0}
    ratings = bradley_terry(["a", "b", "c"], wins)
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert all(math.isfinite(r) for r in ratings.values())


def test_pairwise_wins_split_ties_and_skip_self_pairs() -> None:
    result = pairwise_wins(["x", "y", "x"], [1.0, 0.0, 0.0])
    assert result == {("x", "y"): 1.5, ("y", "x"): 0.5}
