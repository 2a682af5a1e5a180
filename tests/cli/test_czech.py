"""``obelisk play`` and ``obelisk replay`` in Czech: prompts, screens, places and tie-breaks in the UI catalog."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import obelisk
from obelisk.bots.hints import suggest
from obelisk.cli.play import _places, print_scores
from obelisk.core import IllegalActionError, i18n
from obelisk.core.text import ordinal
from tests.games.test_outcome import tomb_end, valley_tie
from tests.cli.test_play_shortcuts import SEED, before_a_payment
from tests.cli.test_terminal import keyboard, run

GAME_NUMBER = {info.id: str(n) for n, info in enumerate(obelisk.list_games(), 1)}
MOST_ANSWERS = 3000
ENGLISH = re.compile(r"\b(seat|seats|your move|players?|place|total|final scores|game over|record saved|to play|"
                     r"chance|thinking|type a number|label|number|commands|shuffles|took back)\b", re.I)
"""The English words of the terminal's own prompts and screens, none of which a Czech screen may show (the
commands, such as ``q, quit``, are typed in English in every language)."""


@pytest.fixture
def czech() -> object:
    with i18n.language("cs"):
        yield


@pytest.mark.usefixtures("czech")
def test_a_whole_game_of_valley_in_czech(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    first = [GAME_NUMBER["valley"], "", "7", "", "wizard", "easy", "help", "log", "hint", "bogus"]
    answers = iter(range(MOST_ANSWERS))
    prompts = keyboard(monkeypatch, first, lambda: "1" if next(answers) < MOST_ANSWERS - 1 else "q")
    code, out, err = run(capsys, "play", "--seed", "5", "--save", str(path))
    assert code == 0 and not err
    assert json.loads(path.read_text())["result"]["terminal"]
    assert prompts[:5] == [
        "Kterou hru (číslo nebo id, q = konec)? ",
        "Kolik hráčů (2-4, Enter = 2)? ",
        "Za kterého hráče hrajete (0 hraje první ... 1 hraje poslední, Enter = 0)? ",
        "Za kterého hráče hrajete (0 hraje první ... 1 hraje poslední, Enter = 0)? ",
        "Síla botů (easy, normal, strong; Enter = normal)? ",
    ]
    assert set(prompts[6:]) == {"váš tah (číslo, popisek nebo help; q = konec): "}
    for line in ("napište číslo od 0 do 1, Enter pro 0 nebo q",
                 "napište easy, normal, strong, Enter pro normal nebo q",
                 "  easy    greedy        dívá se o jeden tah dopředu (hraje hned)",
                 "Údolí králů — 2 hráči", "hra s pevným semínkem (5): každé zamíchání a dobrání plyne ze semínka",
                 "  hráč 0: vy", "  hráč 1: greedy", "na tahu je hráč 0", "  help         tyto příkazy",
                 "  q, quit      uložit hru a odejít", "napište číslo od 1 do", "konec hry", "konečné výsledky",
                 f"záznam hry uložen do {path}"):
        assert line in out, line
    assert re.search(r"^rada: 1\. .+ \(\d+%(, [+-]\d\.\d\d)?\)", out, re.M)
    assert re.search(r"^ +\d+\. náhoda: ", out, re.M)
    screen = out[out.index("konečné výsledky"):]
    assert re.search(r"│ Pořadí +│ +=?[12]\. +│ +=?[12]\. +│", screen) and re.search(r"│ Celkem +│", screen)
    assert re.search(r"│ Základní karty +│", screen)
    assert re.search(r"hráč 1 +┃ hráč 2", screen) and re.search(r"vy +┃ +greedy", screen)
    end = out[out.index("konec hry"):out.index("konečné výsledky")]
    assert re.search(r"^(Vyhrává hráč \d|.+ sdílejí vítězství)$", end, re.M)
    assert re.search(r"^(Vyhráváte|Sdílíte vítězství|Skončili jste na \d\. místě)$", end, re.M)
    english = sorted({m.group(0).lower() for m in ENGLISH.finditer(out + "".join(prompts))})
    assert not english, english


def test_the_same_game_speaks_english_outside_the_czech_block(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    keyboard(monkeypatch, [], lambda: "q")
    with i18n.language("cs"):
        run(capsys, "play", "valley", "--seed", "5", "--save", str(tmp_path / "cs.json"))
    code, out, err = run(capsys, "play", "valley", "--seed", "5", "--save", str(tmp_path / "en.json"))
    assert code == 0 and "seat 0 to play" in out and "game left unfinished at move" in out and "(quit)" in out


@pytest.mark.usefixtures("czech")
def test_leaving_and_undo_speak_czech(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _, answers = before_a_payment(undoable=True)
    keyboard(monkeypatch, ["undo", "undo x", "log x", *answers, "pay", "undo"], lambda: "q")
    code, out, err = run(capsys, "play", "valley", "--seats", "you,you", "--seed", str(SEED), "--no-auto",
                         "--save", str(tmp_path / "g.json"))
    assert code == 0 and not err
    assert "  pay: celou cenu " in out and "není co vzít zpět: " in out and "undo bere počet tahů od 1" in out and "log bere počet kroků nebo 'all'" in out
    assert "vzat zpět 1 tah" in out and "hra opuštěna nedohraná v tahu" in out and "(ukončeno)" in out


@pytest.mark.usefixtures("czech")
def test_replay_speaks_czech(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.json"
    run(capsys, "play", "valley", "--seats", "random,greedy", "--seed", "3", "--save", str(path))
    prompts = keyboard(monkeypatch, ["t", "s 7", "?"], lambda: "q")
    code, out, err = run(capsys, "replay", str(path), "--seat", "0")
    assert code == 0 and not err
    assert "neověřeno: semínko 3 bylo pevné, bez závazku" in out and "tah 0 z " in out and "— pohled: hráč 0" in out
    assert "klávesy: [enter]/n další krok" in out and "hráč musí být 0..1 nebo 'spectator', zadáno '7'" in out
    assert re.search(r"^naposled: (hráč \d|náhoda): ", out, re.M)
    assert prompts[0].startswith("[tah 0/") and not ENGLISH.search(out + "".join(prompts))


@pytest.mark.usefixtures("czech")
def test_errors_speak_czech(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "valley", "--strength", "easy", "--seats", "you")
    assert code == 2 and err == "obelisk: error: zadejte buď --seats, nebo --strength, ne obojí\n"
    code, _, err = run(capsys, "play", "valley", "--seats", "you,random,random,random,random")
    assert code == 2 and "zadáno 5 hráčů, ale hra je pro 2" in err
    state = obelisk.load("valley").new_initial_state(1)
    with pytest.raises(IllegalActionError, match="hráč 1 není na tahu"):
        suggest(state, 1)


@pytest.mark.usefixtures("czech")
def test_places_and_ties_in_czech() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 11, 22)] == ["1.", "2.", "3.", "11.", "22."]
    assert _places([1, 3, 3, 2]) == ["1.", "=3.", "=3.", "2."]
    assert valley_tie("shared").outcome()["reasons"] == ["Vítězství sdílejí hráč 1 a hráč 2: každý 4 body."]
    assert tomb_end([2], (0b11, 0b11, 0b11111)).outcome()["reasons"][-1] == (
        "Hráč 1 a hráč 2 měli shodně 2 nápisy a dělí se o 2. místo.")


@pytest.mark.usefixtures("czech")
def test_valley_names_its_tie_break_in_czech(capsys: pytest.CaptureFixture[str]) -> None:
    state = valley_tie()
    print_scores(state, [{"name": "you", "kind": "human"}, {"name": "greedy", "kind": "greedy"}], viewer=0)
    out = capsys.readouterr().out
    shown = " ".join(out[:out.index("konečné výsledky")].split())
    assert shown == ("Vyhrává hráč 2 Skončili jste na 2. místě Vyhrál hráč 2: 4 body. Hráč 1 a hráč 2 měli "
                     "shodně 4 body; rozhodlo pravidlo pro shodu (víc různých začatých skupin v hrobce): hráč 2 "
                     "na 1. místě, hráč 1 na 2. místě.")
    assert re.search(r"vy +┃ +greedy", out)
