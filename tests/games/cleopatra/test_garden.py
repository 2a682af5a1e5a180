"""Mosaics: top of the stack, rotations, palms, unfit tops removed, sanctuaries and their claims, Scribes."""

from __future__ import annotations

import json
import random

import pytest

from obelisk.core import IllegalActionError
from obelisk.games.cleopatra.data import DEFAULT_PATH, load_tables
from tests.games.cleopatra.helpers import action, chance, do, labels, set_hand, start

MOSAIC = dict(artisan=2, stone=1, marble=1, lapis=1)
TILES = load_tables().tile_ids
F, I, P, X = (TILES.index(x) for x in "FIPX")


def fill_except(s, free: list[tuple[int, int]]) -> None:
    """Cover every playable cell except ``free`` with a tile that is out of the stack."""
    cols = s.tables.cols
    keep = {r * cols + c for r, c in free}
    for cell, value in enumerate(s.garden):
        if value == -1 and cell not in keep:
            s.garden[cell] = F
            s.occupied |= 1 << cell


def test_only_top_tile_may_be_built() -> None:
    s = start()
    s.stack_top, s.stack_rest = I, [t for t in range(12) if t != I]
    set_hand(s, 0, **MOSAIC)
    assert [lab for lab in labels(s) if "mosaic" in lab] == ["build mosaic I (top of the stack)"]
    with pytest.raises(IllegalActionError, match=r"only the top mosaic \(I\) may be built"):
        s.apply_action(action(s, "mosaic", X))


def test_rotations_are_placements_and_palms_pay() -> None:
    s = start()
    s.stack_top, s.stack_rest = I, [t for t in range(12) if t != I]
    set_hand(s, 0, **MOSAIC)
    do(s, "build mosaic I")
    assert s.phase == "place"
    # 1x5 bars: 5 positions in each of the 6 rows (and columns) that avoid the 3x3 dais
    assert len(s.legal_actions()) == 60
    do(s, "lay I on a1 a2 a3 a4 a5 (+5)")
    assert s.talents[0] == 10 and s.is_chance_node()
    chance(s, X)
    assert s.stack_top == X and s.phase == "build"


def test_mirroring_is_an_option() -> None:
    plain = load_tables()
    mirrored = load_tables(mirror=True)
    counts = {"F": 4, "I": 2, "L": 4, "N": 4, "P": 4, "T": 4, "U": 4, "V": 4, "W": 4, "X": 1, "Y": 4, "Z": 2}
    mirror_counts = {"F": 8, "I": 2, "L": 8, "N": 8, "P": 8, "T": 4, "U": 4, "V": 4, "W": 4, "X": 1, "Y": 8, "Z": 4}
    for tile, cells in zip(plain.tile_ids, (p for p in plain.placements)):
        shapes = {_shape(p.cells) for p in cells}
        assert len(shapes) == counts[tile], tile
    for tile, cells in zip(mirrored.tile_ids, mirrored.placements):
        assert len({_shape(p.cells) for p in cells}) == mirror_counts[tile], tile


def _shape(cells):
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def pocket_scenario(**options):
    s = start(**options)
    free = [(r, 0) for r in range(5)] + [(0, 1)] + [(r, c) for r in (7, 8) for c in (6, 7, 8)]
    fill_except(s, free)
    s.stack_top, s.stack_rest = I, sorted([X, P])  # the rest of the stack is kept in ascending order
    set_hand(s, 0, **MOSAIC)
    return s


def test_unfit_top_is_removed_and_closed_pocket_becomes_sanctuary() -> None:
    s = pocket_scenario()
    do(s, "build mosaic I", "lay I on a1 a2 a3 a4 a5")
    chance(s, X)  # the plus fits nowhere: removed, the next tile is drawn
    assert s.removed_tiles == [X] and s.is_chance_node()
    chance(s, P)
    assert s.stack_top == P and s.phase == "claim"
    assert labels(s) == ["claim sanctuary b1 (1 cells, +1)", "claim no sanctuary"]
    do(s, "claim sanctuary b1")
    assert s.sanctuaries == [(0, (1,))] and s.statues[0] == 1 and s.phase == "build"
    assert s.talents[0] == 10 + 1


@pytest.mark.parametrize("talents", [1, 0])
def test_anubis_statue_placed_in_a_sanctuary_earns_a_talent(talents: int) -> None:
    """The mosaic's reward: "4 talenty + 1 talent za každé překryté políčko s obrázkem palmy + za správně
    umístěnou sochu/figurku Anubise, v případě, že je postavena svatyně" (4 talents + 1 per palm covered
    + for a correctly placed Anubis statue, when a sanctuary is built): read literally, +1 talent per
    statue (option anubis_talents=1, the default); anubis_talents=0 reads it as the right to place it."""
    s = pocket_scenario(anubis_talents=talents)
    s.stack_rest = []
    do(s, "build mosaic I", "lay I on a1 a2 a3 a4 a5")
    before = s.talents[0]
    do(s, "claim sanctuary g8", "claim sanctuary b1")
    assert s.talents[0] == before + 2 * talents
    assert s.log[-1] == "seat 0 claims a sanctuary of 1 cells" + (" for 1 talent" if talents else "")


def test_pocket_already_seen_cannot_be_claimed_later() -> None:
    s = pocket_scenario()
    do(s, "build mosaic I", "lay I on a1 a2 a3 a4 a5")
    chance(s, X)
    chance(s, P)
    do(s, "claim no sanctuary")
    assert s.claimable == [] and len(s.sanctuary_seen) == 1
    assert s._sanctuary_masks() == s.sanctuary_seen


def test_emptied_stack_completes_mosaics_and_every_pocket_is_a_sanctuary() -> None:
    s = pocket_scenario()
    s.stack_rest = []
    do(s, "build mosaic I", "lay I on a1 a2 a3 a4 a5")
    assert "mosaics" in s.completed and s.cleopatra == 1
    assert labels(s) == ["claim sanctuary b1 (1 cells, +1)", "claim sanctuary g8 h8 i8 g9 h9 i9 (6 cells, +1)",
                         "claim no sanctuary"]
    do(s, "claim sanctuary g8", "claim sanctuary b1")
    assert s.statues[0] == 0 and s.phase == "build"


def test_no_claim_without_statues() -> None:
    s = pocket_scenario()
    s.statues[0] = 0
    do(s, "build mosaic I", "lay I on a1 a2 a3 a4 a5")
    chance(s, X)
    chance(s, P)
    assert s.phase == "build" and s.claimable == []


def test_scribes_let_any_fitting_tile_be_built_for_two_amulets() -> None:
    s = start()
    s.stack_top, s.stack_rest = I, sorted([X, P])  # the rest of the stack is kept in ascending order
    set_hand(s, 0, scribes=1, **MOSAIC)
    do(s, "play Scribes: build any mosaic")
    assert s.amulets[0] == 2 and s.scribe_picks == 1
    assert [lab for lab in labels(s) if "mosaic" in lab] == [
        "build mosaic I (top of the stack)", "build mosaic P (Scribe pick)", "build mosaic X (Scribe pick)"]
    do(s, "build mosaic X", "lay X on b1 a2 b2 c2 b3")
    assert s.stack_top == I and s.stack_rest == [P] and s.scribe_picks == 0 and not s.queue


def test_wall_counts_each_tile_once() -> None:
    s = start()
    s.stack_top, s.stack_rest = I, [X]
    set_hand(s, 0, artisan=4, stone=3, marble=1, lapis=1, wood=2)
    do(s, "build mosaic I", "lay I on a5 a6 a7 a8 a9")
    chance(s, X)
    do(s, "build wall L1 (+4)", "build wall L2 (+4)")


@pytest.mark.parametrize("cols", [9, 30])
def test_regions_and_placements_on_mask_halves_match_a_search_cell_by_cell(cols: int, tmp_path) -> None:
    """The flood fill and the placement tests, which work on two halves of the garden masks, find what a plain
    search over the cells finds, however the garden is filled (cells on both sides of the cut included); a wide
    garden's tiles reach past the cut, and its high half is a big int."""
    doc = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    doc["garden"]["cols"] = cols
    path = tmp_path / "garden.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    rng = random.Random(7)
    s = start(data=str(path))
    t = s.tables
    rows, cols = t.rows, t.cols
    playable = [c for c in range(rows * cols) if t.playable_mask >> c & 1]
    for _ in range(200):
        occupied = 0
        for cell in rng.sample(playable, rng.randint(0, len(playable))):
            occupied |= 1 << cell
        s.occupied = occupied
        free = {c for c in playable if not occupied >> c & 1}
        expected = []
        while free:
            seed = min(free)
            region, todo = {seed}, [seed]
            while todo:
                r, c = divmod(todo.pop(), cols)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    cell = rr * cols + cc
                    if 0 <= rr < rows and 0 <= cc < cols and cell in free and cell not in region:
                        region.add(cell)
                        todo.append(cell)
            free -= region
            expected.append(sum(1 << cell for cell in region))
        assert s._empty_regions() == expected
        tile = rng.randrange(len(TILES))
        s.piece = ("mosaic", tile)
        start_id = s.game.actions.start("place")
        assert s._legal_place() == [start_id + i for i, p in enumerate(t.placements[tile]) if not p.mask & occupied]
        for space in [t.playable_mask & ~occupied, *expected]:
            assert s._fits_in(tile, space) == any(not p.mask & ~space for p in t.placements[tile])
