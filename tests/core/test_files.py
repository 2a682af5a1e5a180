"""Reading a file a user names: refusals are OSErrors that say why, and nothing blocks or reads without end."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from obelisk.core.files import parse_json, read_text


def test_reads_a_regular_utf8_file(tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    path.write_text('{"name": "Shabti ☥"}', encoding="utf-8")
    assert read_text(path) == '{"name": "Shabti ☥"}'
    assert read_text(str(path), limit=len(path.read_bytes())) == '{"name": "Shabti ☥"}'


def test_refuses_what_would_stall_or_is_not_text(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 1001)
    binary = tmp_path / "binary.json"
    binary.write_bytes(b'{"name": "\xff"}')
    cases = [("/dev/zero", "not a regular file"), (fifo, "not a regular file"), (tmp_path, "Is a directory"),
             (tmp_path / "missing.json", "No such file"), (big, "larger than"), (binary, "not UTF-8 text (byte 10)")]
    for path, reason in cases:
        with pytest.raises(OSError) as refused:
            read_text(path, limit=1000)
        assert reason in str(refused.value.strerror)


@pytest.mark.parametrize(
    "text,message,column",
    [("[" * 100_000, "nested too deeply", 3), ('{"a": 1, "b": ' + "9" * 5000 + "}", "more than 4300 digits", 17),
     ("{'a': 1}", "Expecting property name", 4)],
)
def test_every_json_refusal_is_a_decode_error_with_a_place(text: str, message: str, column: int) -> None:
    with pytest.raises(json.JSONDecodeError, match=message) as refused:
        parse_json("  " + text)
    assert (refused.value.lineno, refused.value.colno) == (1, column)
    assert parse_json(' {"n": 9} ') == {"n": 9}
