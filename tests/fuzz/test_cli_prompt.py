"""Random lines typed at the ``obelisk play`` prompt: the game goes on or ends, and no traceback is printed."""

from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from obelisk.cli import main
from tests.fuzz.common import FUZZ, GAME_IDS

lines = st.text(max_size=30) | st.sampled_from(["1", "2", "0", "-1", "99999", "q", "", " 1 ", "１", "²", "end turn"])


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(answers=st.lists(lines, max_size=12), seed=st.integers(0, 50))
def test_prompt_survives_any_input(game_id: str, answers: list[str], seed: int) -> None:
    feed = iter([*answers, "q"])

    def typed(prompt: str = "") -> str:
        return next(feed, "q")

    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        patch.setattr("builtins.input", typed)
        code = main(["play", game_id, "--seats", "you,random", "--seed", str(seed)])
    assert code in (0, 2), (code, err.getvalue()[-2000:])
    assert "Traceback" not in out.getvalue() + err.getvalue()
    assert "game left unfinished" in out.getvalue() or "final scores" in out.getvalue()
