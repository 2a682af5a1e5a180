"""Scoring of King Solomon's Treasury, with the rulebook's examples."""

from __future__ import annotations

import pytest

from obelisk.games.solomon.scoring import CURSE_PRIZES, MAGIC_PRIZES, majority_bonus, score_table
from tests.games.solomon.helpers import KIND, started


def tiles(**counts: int) -> list[int]:
    row = [0] * len(KIND)
    for short, n in counts.items():
        row[KIND[short]] = n
    return row


@pytest.mark.parametrize(
    "measures,prizes,expected",
    [
        ([16, 16, 10, 3], CURSE_PRIZES, [18, 18, 0, 0]),  # two tied first: (24 + 12) / 2
        ([5, 5, 1], MAGIC_PRIZES, [12, 12, 0]),  # (16 + 8) / 2
        ([7, 7, 7, 2], CURSE_PRIZES, [12, 12, 12, 0]),  # three tied first
        ([3, 3, 3], MAGIC_PRIZES, [8, 8, 8]),
        ([20, 10, 10], CURSE_PRIZES, [24, 6, 6]),  # tie for second splits the second prize
        ([4, 2, 2], MAGIC_PRIZES, [16, 4, 4]),
        ([29, 13], CURSE_PRIZES, [24, 0]),  # half rule: 13 < 14.5
        ([29, 15], CURSE_PRIZES, [24, 12]),
        ([29, 14, 14], CURSE_PRIZES, [24, 0, 0]),
        ([5, 2, 1], MAGIC_PRIZES, [16, 0, 0]),  # rulebook: Anna's 2 items against Bruno's 5
        ([6, 3], MAGIC_PRIZES, [16, 8]),  # exactly half qualifies
        ([0, 0, 0], CURSE_PRIZES, [0, 0, 0]),  # zero never earns a bonus
        ([4, 0], CURSE_PRIZES, [24, 0]),
        ([9, 8, 1], CURSE_PRIZES, [24, 12, 0]),  # a failed or paid second prize never passes to third
        ([2, 2, 2, 2, 2], CURSE_PRIZES, [7, 7, 7, 7, 7]),  # 36 / 5 rounded down
        ([3, 1, 1, 1], MAGIC_PRIZES, [16, 0, 0, 0]),
        ([3, 2, 2, 2], MAGIC_PRIZES, [16, 2, 2, 2]),  # 8 / 3 rounded down
    ],
)
def test_majority_bonus(measures: list[int], prizes: tuple[int, int], expected: list[int]) -> None:
    assert majority_bonus(measures, *prizes) == expected


def test_rulebook_four_player_example_bonus_columns() -> None:
    # Anna, Bruno, Carlo, David. Coins and treasures are unknown in the text; bonus columns are checked.
    anna = tiles(SA=2, SB=2, SC=2, SD=2, Mi=1, Se=1, C1=3)
    bruno = tiles(SA=2, SB=2, SC=3, SD=2, Mi=2, Pi=1, Se=1, Am=1, C3=2, C2=1)
    carlo = tiles(SA=3, SB=1, C3=4, C2=2, Am=1)
    david = tiles(SA=1, SB=1, SC=1, SD=1, C3=5, C1=1, Pi=2)
    rows = score_table([0, 0, 0, 0], [anna, bruno, carlo, david])
    assert [r["scrolls"] for r in rows] == [20, 20, 0, 10]
    assert [r["curses"] for r in rows] == [0, 0, 18, 18]  # Carlo and David both total 16
    assert [r["magic"] for r in rows] == [0, 16, 0, 0]  # Anna's 2 are fewer than half of Bruno's 5


def test_score_table_sums_coins_treasures_and_bonuses() -> None:
    rows = score_table([7, 3], [tiles(T5=2, T1=1, SA=1, SB=1, SC=1, SD=1, C2=1), tiles(Mi=1, C1=1)])
    assert rows[0] == {"coins": 7, "treasures": 11, "scrolls": 10, "curses": 24, "magic": 0, "total": 52}
    assert rows[1] == {"coins": 3, "treasures": 0, "scrolls": 0, "curses": 12, "magic": 16, "total": 31}


def test_scores_ranking_and_tiebreak_option() -> None:
    for tiebreak, expected in (("shared", [0.0, 0.0]), ("coins", [1.0, -1.0])):
        state = started(2, tiebreak=tiebreak)
        state.phase = "end"
        state.coins = [9, 4]
        state.tiles[1][KIND["T5"]] = 1
        assert state.is_terminal()
        assert [s["total"] for s in state.scores()] == [9, 9]
        assert state.returns() == expected
        assert state.scores()[1]["breakdown"]["treasures"] == 5
