"""Seeded random games fingerprinted step by step, against digests kept beside each game's tests.

A change that should not alter behaviour (moving code between modules, speeding it up) must leave
every digest as it is. A deliberate rule change regenerates its game's digests, in the same commit:

    python -m tests.games.test_playout_digests --write GAME
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

import obelisk
from obelisk import games
from obelisk.core.testing import playout_digests

HERE = Path(__file__).resolve().parent
SEEDS = (1, 2)
CASES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "solomon": [
        (2, {}), (3, {}), (4, {}), (5, {}),
        (3, {"uphill": True, "mirror_reflect": True}),
        (4, {"move_limit": 8, "unaffordable": "penalty", "change": "unlimited", "tiebreak": "coins"}),
        (3, {"unaffordable": "forbid"}),
    ],
    "tomb": [
        (2, {}), (3, {"max_rounds": 60}), (4, {"max_rounds": 60}), (5, {"max_rounds": 40}), (6, {"max_rounds": 30}),
        (3, {"pyramid": "big", "max_rounds": 40}),
        (4, {"all_inscriptions": True, "chamber_entry": "adjacent", "end": "first", "max_rounds": 60}),
        (2, {"end": "decided"}),
    ],
    "cleopatra": [
        (3, {}), (4, {}), (5, {}),
        (3, {"offering_ties": "better", "crocodile_ties": "none", "mosaic_mirror": True, "priest_faces": 3}),
        (4, {"merchant_artisan": False, "anubis_talents": 0, "bonus_four_plus": 2, "crocodile_ties": "richest"}),
        (5, {"max_rounds": 12}),
    ],
    "valley": [
        (2, {}), (3, {}), (4, {}),
        (3, {"forced_removal": "any", "tiebreak": "sets", "spent_cards": "discard"}),
    ],
}


def _key(players: int, options: dict[str, Any], seed: int) -> str:
    extra = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{players}p seed {seed}" + (f" {extra}" if extra else "")


def digests_of(game_id: str) -> dict[str, list[str]]:
    return {
        _key(players, options, seed): playout_digests(obelisk.load(game_id, players, **options), seed)
        for players, options in CASES[game_id]
        for seed in SEEDS
    }


def _path(game_id: str) -> Path:
    return HERE / game_id / "playout_digests.json"


def test_every_game_has_its_playouts() -> None:
    assert sorted(CASES) == games.shipped()


@pytest.mark.parametrize("game_id", sorted(CASES))
def test_playouts_unchanged(game_id: str) -> None:
    kept = json.loads(_path(game_id).read_text(encoding="utf-8"))
    now = digests_of(game_id)
    assert sorted(now) == sorted(kept), "the cases changed: regenerate the digests"
    for case, digests in now.items():
        first = next((i for i, (a, b) in enumerate(zip(digests, kept[case])) if a != b), None)
        assert digests == kept[case], f"{game_id} {case}: differs from step block {first} on"


def main() -> None:
    parser = argparse.ArgumentParser(description="Rewrite the kept playout digests of some games.")
    parser.add_argument("--write", nargs="+", choices=sorted(CASES), required=True)
    for game_id in parser.parse_args().write:
        _path(game_id).write_text(json.dumps(digests_of(game_id), indent=1) + "\n", encoding="utf-8")
        print(f"wrote {_path(game_id)}")


if __name__ == "__main__":
    main()
