"""The lobby's game pictures: a crop of each game's board from the table page's screenshots, made small.

``tools/screenshots.py`` pictures a real position of every game in each language
(``docs/images/<game>-<lang>.png``, 1280 px wide); this script cuts the board out of each (the boxes below are
in the English picture's pixels; in another language the page above the board is worded differently, so its
board is found by the vertical shift whose crop matches the English one best), scales it to ``SIZE`` and
saves it as a small lossy WebP in the server's static files (``static/games/<game>-<lang>.webp``), so the
lobby's cards show the real board, worded in the reader's language, at a few kilobytes each. Run it again
after the screenshots change.

    .venv/bin/python tools/game_cards.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from obelisk.core.i18n import LANGUAGES  # noqa: E402

IMAGES = ROOT / "docs" / "images"
OUT = ROOT / "obelisk" / "server" / "static" / "games"
SIZE = (360, 240)
QUALITY = 60

BOXES: dict[str, tuple[int, int, int, int]] = {
    "solomon": (90, 740, 630, 1100),
    "tomb": (64, 490, 768, 959),
    "cleopatra": (70, 440, 740, 887),
    "valley": (40, 440, 805, 950),
}
"""Where each board is in ``docs/images/<game>-en.png``: (left, top, right, bottom), about 3:2 like ``SIZE``."""


SEARCH = 400
"""How far (pixels, up or down) another language's board may sit from the English one."""


def _shift(english: Image.Image, other: Image.Image, box: tuple[int, int, int, int]) -> int:
    """The vertical shift of ``box`` in ``other`` whose crop differs least from ``english``'s, in steps of 2."""
    small = (box[2] - box[0]) // 4, (box[3] - box[1]) // 4
    wanted = english.crop(box).resize(small)
    best, best_shift = float("inf"), 0
    for shift in range(-SEARCH, SEARCH + 1, 2):
        top, bottom = box[1] + shift, box[3] + shift
        if top < 0 or bottom > other.height:
            continue
        crop = other.crop((box[0], top, box[2], bottom)).resize(small)
        difference = sum(ImageStat.Stat(ImageChops.difference(wanted, crop)).mean)
        if difference < best:
            best, best_shift = difference, shift
    return best_shift


def card(game: str, lang: str) -> Path:
    """Crops, scales and saves one game's picture in one language; returns where it went."""
    box = BOXES[game]
    with Image.open(IMAGES / f"{game}-en.png") as english, Image.open(IMAGES / f"{game}-{lang}.png") as shot:
        english_rgb, shot_rgb = english.convert("L"), shot.convert("RGB")
        shift = 0 if lang == "en" else _shift(english_rgb, shot_rgb.convert("L"), box)
        board = shot_rgb.crop((box[0], box[1] + shift, box[2], box[3] + shift)).resize(SIZE, Image.Resampling.LANCZOS)
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{game}-{lang}.webp"
    board.save(path, "WEBP", quality=QUALITY, method=6)
    return path


def main(argv: list[str]) -> int:
    for game in argv or sorted(BOXES):
        for lang in LANGUAGES:
            path = card(game, lang)
            print(f"{path.relative_to(ROOT)}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
