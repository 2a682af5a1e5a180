"""Reading a file a user names (a data file): a device, a pipe, a huge file or odd JSON must not stall or crash."""

from __future__ import annotations

import errno
import json
import re
import stat
from pathlib import Path
from typing import Any

MAX_BYTES = 16 * 2**20
"""Far above any game's data file; a larger file is refused rather than read."""


def read_text(path: str | Path, limit: int = MAX_BYTES) -> str:
    """The UTF-8 text of the regular file ``path``.

    Every refusal is an ``OSError`` whose ``strerror`` says why: it cannot be
    read, is not a regular file (``/dev/zero`` never ends, a pipe may block),
    is larger than ``limit`` bytes or is not UTF-8 text.
    """
    target = Path(path)
    mode = target.stat().st_mode
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "Is a directory")
    if not stat.S_ISREG(mode):
        raise OSError(errno.EINVAL, "not a regular file")
    with target.open("rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit // 2**20} MB")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise OSError(errno.EILSEQ, f"not UTF-8 text (byte {error.start})") from None


_LONG_NUMBER = re.compile(r"\d{4301}")


def parse_json(text: str) -> Any:
    """``json.loads`` whose every refusal is a ``json.JSONDecodeError`` (with a line and column).

    ``json`` itself refuses a number of more than 4300 digits with a plain
    ``ValueError`` and deep nesting with ``RecursionError``.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError:
        found = _LONG_NUMBER.search(text)
        raise json.JSONDecodeError("a number has more than 4300 digits", text, found.start() if found else 0) from None
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", text, len(text) - len(text.lstrip())) from None
