"""``obelisk rules`` and the play prompt's ``rules`` and component lookups."""

from __future__ import annotations

import json

import pytest

import obelisk
from obelisk.cli.rules import fitted
from tests.cli.test_terminal import keyboard, run


def test_rules_of_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "valley")
    help = obelisk.load("valley").help()
    assert code == 0 and not err
    assert out.startswith("Valley of the Kings\nFirst game:\n1. Goal: ")
    assert all(fitted(f"{n}. {step}", indent=3) in out for n, step in enumerate(help.guide, 1))
    assert out.index("First game:") < out.index(fitted(help.summary))
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "Components (type card NAME for one):" in out
    assert fitted(help.glossary(), indent=4) in out


def test_rules_with_a_name_prints_that_entry(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "valley", "statue", "of", "ANU")
    assert code == 0
    assert out == fitted(obelisk.load("valley").help().find("Statue of Anubis").describe()) + "\n"


@pytest.mark.parametrize("name, message", [
    ("statue", "'statue' could be Statue of Horus, "),
    ("shabi", "nothing is called 'shabi'; did you mean Shabti?"),
])
def test_a_name_that_is_not_one_is_one_line(capsys: pytest.CaptureFixture[str], name: str, message: str) -> None:
    code, out, err = run(capsys, "rules", "valley", name)
    assert code == 2 and not out
    assert err.startswith("obelisk: error: " + message) and err.count("\n") == 1


def test_rules_follow_the_game_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "tomb", "magic", "flask")
    assert code == 0 and "in play no" in " ".join(out.split())
    code, out, _ = run(capsys, "rules", "tomb", "-o", "pyramid=big", "magic", "flask")
    assert code == 0 and "in play yes" in " ".join(out.split())
    code, _, err = run(capsys, "rules", "tomb", "-o", "pyramid=huge")
    assert code == 2 and err.startswith("obelisk: error: ") and err.count("\n") == 1


def test_rules_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "cleopatra", "--json")
    assert code == 0 and json.loads(out) == obelisk.load("cleopatra").help().as_dict()
    code, out, _ = run(capsys, "rules", "solomon", "--json", "card", "7")
    assert code == 0 and json.loads(out)["key"] == "card:7"


def test_an_unknown_game_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "chess")
    assert code == 2 and not out and err.startswith("obelisk: error: unknown game 'chess'")


def test_the_play_prompt_explains_components(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    keyboard(monkeypatch, ["rules", "card shabti", "CARD statue", "card", "tile shabti", "help"], lambda: "q")
    code, out, _ = run(capsys, "play", "valley", "--seats", "you", "--seed", "1")
    help = obelisk.load("valley").help()
    assert code == 0
    assert fitted(help.summary) in out and fitted(help.glossary(), indent=4) in out
    assert fitted(help.find("shabti").describe()) in out
    assert "'statue' could be Statue of Horus" in out
    assert "name a component: Shabti, Urn" in out
    assert "type a number from 1 to" in out  # 'tile' is no word of this game
    assert "  card NAME    what that component does" in out


def test_each_game_has_its_own_lookup_words(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    keyboard(monkeypatch, ["item food", "tile map", "obstacle sn", "help"], lambda: "q")
    code, out, _ = run(capsys, "play", "tomb", "--seats", "you,random", "--seed", "1")
    help = obelisk.load("tomb").help()
    assert code == 0
    for name in ("food", "map", "snake"):
        assert fitted(help.find(name).describe()) in out
    for word in ("tile", "item", "obstacle"):
        assert f"  {word} NAME" in out
    assert "  card NAME" not in out


def test_a_long_summary_goes_through_the_pager_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import pydoc

    from rich.console import Console

    from obelisk.cli.rules import show_paged

    paged: list[str] = []
    monkeypatch.setattr(pydoc, "pager", paged.append)
    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, height=10, width=80)
    show_paged(terminal, "short")
    assert paged == [] and screen.getvalue().endswith("short\n")
    long = "\n".join(f"line {n}" for n in range(30))
    show_paged(terminal, long)
    assert len(paged) == 1 and "line 29" in paged[0]
    assert "line 29" not in screen.getvalue()
