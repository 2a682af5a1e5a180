"""``--lang`` (and ``OBELISK_LANG``) for the commands that print the games' texts: play, replay, rules."""

from __future__ import annotations

from typing import Any

import pytest

from obelisk.cli import main, rules
from obelisk.core import i18n


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def spoken(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The language active while ``obelisk rules`` loads its game, one entry a run."""
    heard: list[str] = []
    real = rules.load_game

    def load_game(*args: Any) -> Any:
        heard.append(i18n.current_language())
        return real(*args)

    monkeypatch.setattr(rules, "load_game", load_game)
    monkeypatch.delenv("OBELISK_LANG", raising=False)
    return heard


@pytest.mark.parametrize("argv", [["rules", "valley", "--lang", "cs"], ["rules", "--lang=cs", "valley"],
                                  ["rules", "valley", "statue", "of", "anu", "--lang", "cs"]])
def test_rules_run_in_czech(capsys: pytest.CaptureFixture[str], spoken: list[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 0 and out.strip() and not err
    assert spoken == ["cs"]
    assert i18n.current_language() == "en"


def test_the_language_variable_is_the_default(capsys: pytest.CaptureFixture[str], spoken: list[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OBELISK_LANG", "cs")
    assert run(capsys, "rules", "valley")[0] == 0
    assert run(capsys, "rules", "valley", "--lang", "en")[0] == 0
    assert spoken == ["cs", "en"]


def test_without_a_language_english(capsys: pytest.CaptureFixture[str], spoken: list[str]) -> None:
    assert run(capsys, "rules", "valley")[0] == 0
    assert spoken == ["en"]


@pytest.mark.parametrize("argv, env, message", [
    (["rules", "valley", "--lang", "xx"], None, "obelisk: error: --lang: unknown language 'xx'; choose one of: en, cs"),
    (["replay", "game.json", "--lang=DE"], None, "obelisk: error: --lang: unknown language 'DE'; choose one of: en, cs"),
    (["play", "valley", "--lang"], None, "obelisk: error: --lang needs a language: one of en, cs"),
    (["rules", "valley"], "klingon", "obelisk: error: $OBELISK_LANG: unknown language 'klingon'; choose one of: en, cs"),
])
def test_an_unknown_language_is_one_line(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                         argv: list[str], env: str | None, message: str) -> None:
    if env is None:
        monkeypatch.delenv("OBELISK_LANG", raising=False)
    else:
        monkeypatch.setenv("OBELISK_LANG", env)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err == message + "\n"


def test_other_commands_leave_lang_alone(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "list", "--lang", "cs")
    assert code == 2 and "--lang" in err


def test_help_names_the_option(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("play", "replay", "rules"):
        code, out, _ = run(capsys, command, "--help")
        assert code == 0 and "--lang en|cs" in out
