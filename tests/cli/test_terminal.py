"""``obelisk play`` and ``obelisk replay`` at the keyboard: leaving a game, junk answers, hostile data files."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Callable, Iterator

import pytest

import obelisk
from obelisk.cli import main
from obelisk.core import CHANCE
from obelisk.core.records import read_record, replay_record

GAMES = ["solomon", "tomb", "cleopatra", "valley"]
SEED = 11
LEFT = re.compile(r"^game left unfinished at move (\d+) \((quit|end of input)\); record saved to (.+)$", re.M)
INTERRUPTED = re.compile(r"^obelisk: interrupted: game left unfinished at move (\d+); record saved to (.+)$", re.M)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def keyboard(monkeypatch: pytest.MonkeyPatch, answers: list[str], then: Callable[[], str]) -> list[str]:
    """Type ``answers`` at the prompts, then ``then()`` (which may raise); returns the prompts shown."""
    prompts: list[str] = []
    queue: Iterator[str] = iter(answers)

    def typed(prompt: str = "") -> str:
        prompts.append(prompt)
        answer = next(queue, None)
        return then() if answer is None else answer

    monkeypatch.setattr("builtins.input", typed)
    return prompts


def end_of_input() -> str:
    raise EOFError


def ctrl_c() -> str:
    raise KeyboardInterrupt


QUITS = {"q": (lambda: "q", 0, "quit"), "eof": (end_of_input, 0, "end of input"), "ctrl-c": (ctrl_c, 130, "")}


def first_answers_to_mid_turn(game_id: str) -> int:
    """How many answers "1" lead to a decision of the seat that made the previous one (a turn in progress)."""
    state = obelisk.load(game_id).new_initial_state(SEED)
    answers, last = 0, None
    while True:
        actor = state.current_player()
        if actor == CHANCE:
            state.apply_action(state.sample_chance())
            continue
        if actor == last and answers >= 2:
            return answers
        last = actor
        state.apply_action(state.legal_actions()[0])
        answers += 1


@pytest.mark.parametrize("how", sorted(QUITS))
@pytest.mark.parametrize("point", ["start", "few moves", "mid-turn"])
@pytest.mark.parametrize("game_id", GAMES)
def test_leaving_a_game_saves_its_record_and_exits_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    game_id: str, point: str, how: str,
) -> None:
    answers = {"start": 0, "few moves": 3, "mid-turn": first_answers_to_mid_turn(game_id)}[point]
    then, status, reason = QUITS[how]
    keyboard(monkeypatch, ["1"] * answers, then)
    path = tmp_path / "g.json"
    code, out, err = run(capsys, "play", game_id, "--seats", "you", "--seed", str(SEED), "--no-auto",
                           "--save", str(path))
    assert code == status
    if reason:
        left = LEFT.findall(out)
        assert not err and len(left) == 1 and left[0][1:] == (reason, str(path)), out[-500:]
    else:
        left = INTERRUPTED.findall(err)
        assert err.count("\n") == 1 and len(left) == 1 and left[0][1] == str(path) and not LEFT.search(out), err
    game, states = replay_record(read_record(path))
    last = states[-1]
    assert not last.is_terminal() and last.move_number() == int(left[0][0])
    deciders = [a["player"] for a in json.loads(path.read_text())["actions"] if a["player"] != CHANCE]
    assert len(deciders) == answers
    if point == "mid-turn":
        assert deciders[-1] == last.current_player()
    record = json.loads(path.read_text())
    assert record["result"]["terminal"] is False
    assert record["result"]["scores"] == json.loads(json.dumps(last.scores()))
    assert run(capsys, "replay", str(path), "--print")[0] == 0


@pytest.mark.parametrize("how", sorted(QUITS))
def test_leaving_a_secret_seed_game_keeps_the_seed_secret(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    then, status, _ = QUITS[how]
    keyboard(monkeypatch, ["1", "1"], then)
    path = tmp_path / "g.json"
    code, out, err = run(capsys, "play", "cleopatra", "--seats", "you", "--save", str(path))
    record = json.loads(path.read_text())
    assert code == status and not record["result"]["terminal"] and record["seed_commitment"] in out
    assert str(record["seed"]) not in out + err and record["seed_salt"] not in out + err
    assert run(capsys, "replay", str(path), "--print")[0] == 0


def test_an_interrupted_bot_move_leaves_a_record_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from obelisk.bots import RandomBot

    calls = iter(range(10))

    def thinking(self: RandomBot, state: obelisk.State) -> int:
        if next(calls) == 5:
            raise KeyboardInterrupt
        return state.legal_actions()[0]

    monkeypatch.setattr(RandomBot, "choose", thinking)
    path = tmp_path / "g.json"
    code, _, err = run(capsys, "play", "cleopatra", "--seats", "random", "--seed", "2", "--save", str(path))
    assert code == 130 and INTERRUPTED.search(err) and path.exists()
    assert len(replay_record(read_record(path))[1]) > 5


def test_an_engine_error_is_not_hidden_by_saving_the_record(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from obelisk.bots import RandomBot

    def broken(self: RandomBot, state: obelisk.State) -> int:
        raise RuntimeError("engine bug")

    def no_record(*args: object) -> None:
        raise AssertionError("record bug")

    monkeypatch.setattr(RandomBot, "choose", broken)
    monkeypatch.setattr("obelisk.cli.play.make_record", no_record)
    with pytest.raises(RuntimeError, match="engine bug"):
        main(["play", "cleopatra", "--seats", "random", "--seed", "2", "--save", str(tmp_path / "g.json")])


JUNK = ["0", "5000", "²", "١", "--5", "-1", "+1", "1.0", "9" * 5000, "", "   ", "\x00", "\x1b[2J", "x" * 100_000,
        "[bold red]", "hold swap"]


def test_the_prompt_takes_only_listed_numbers_and_legal_labels(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = obelisk.load("valley").new_initial_state(SEED)
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance())
    legal = state.legal_actions()
    raw_ids = [str(a) for a in legal if not 1 <= a <= len(legal)]
    label = state.action_to_string(legal[-1])
    junk = JUNK + raw_ids + [str(len(legal) + 1)]
    prompts = keyboard(monkeypatch, [*junk, "  " + label.upper().replace(" ", "   ") + " "], lambda: "q")
    path = tmp_path / "g.json"
    code, out, err = run(capsys, "play", "valley", "--seats", "you", "--seed", str(SEED), "--save", str(path))
    assert code == 0 and not err
    refusals = re.findall(rf"^type a number from 1 to {len(legal)}, a label from the list, or q$", out, re.M)
    assert len(refusals) == len(junk) and len(prompts) == len(junk) + 2
    first = json.loads(path.read_text())["actions"][state.move_number()]
    assert first["id"] == legal[-1] and first["label"] == label


def test_the_game_menu_takes_only_listed_numbers_and_ids(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    keyboard(monkeypatch, ["0", "²", "9" * 5000, "-1", "chess", "q"], lambda: "q")
    code, out, err = run(capsys, "play")
    assert code == 0 and not err and "no game chosen" in out
    assert out.count("type a number from 1 to") == 5


@pytest.fixture(scope="module")
def finished_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "solomon.json"
    assert main(["play", "solomon", "--seats", "random", "--seed", "3", "--save", str(path)]) == 0
    return path


@pytest.mark.parametrize("player", ["²", "١", "--5", "-1", "0", "4", "9" * 5000, "1" + "0" * 30, "", " 1", "\x1b[31m"])
def test_replay_refuses_a_bad_player_in_one_line(
    capsys: pytest.CaptureFixture[str], finished_record: Path, player: str
) -> None:
    code, out, err = run(capsys, "replay", str(finished_record), "--print", "--player", player)
    assert code == 2 and not out
    assert err.startswith("obelisk: error: player must be 1..3 or 'spectator'") and err.count("\n") == 1
    assert len(err) < 200


def test_replay_commands_ignore_junk(
    capsys: pytest.CaptureFixture[str], finished_record: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = ["²", "9" * 5000, "-1", "١", "\x00", "x" * 10_000]
    commands = [f"{key} {word}" for key in "gs" for word in words] + ["g 2", "s 2"]
    prompts = keyboard(monkeypatch, commands, end_of_input)
    code, out, err = run(capsys, "replay", str(finished_record))
    assert code == 0 and not err
    assert [p.split("/")[0] for p in prompts[-3:]] == ["[move 0", "[move 2", "[move 2"]
    assert "view of player 2" in out and out.count("player must be 1..3") == len(words)


HOSTILE = {
    "valley": ("--cards", "obelisk/games/valley/valley.json", {"Shabti": "Sha[/]bti", "Urn": "[bold red]Urn"}),
    "cleopatra": ("--data", "obelisk/games/cleopatra/cleopatra.json", {"Stone": "Sto[/]ne", "Wood": "[bold red]Wood"}),
}


def hostile_data(game_id: str, folder: Path) -> Path:
    """The game's built-in data with card names that are Rich markup or hold an escape sequence."""
    _, builtin, renamed = HOSTILE[game_id]
    doc = json.loads((Path(obelisk.__file__).parent.parent / builtin).read_text())
    escaped = {name: f"{name[:2]}\x1b[2J{name[2:]}" for name in ("Box of Food", "Marble")}
    for card in doc["cards"]:
        card["name"] = {**renamed, **escaped}.get(card["name"], card["name"])
    if game_id == "valley":
        doc["sets"] = {("[blink]" + k if k == "book" else k): v for k, v in doc["sets"].items()}
        for card in doc["cards"]:
            card["set"] = "[blink]book" if card["set"] == "book" else card["set"]
    path = folder / f"{game_id}.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize("game_id", sorted(HOSTILE))
def test_markup_and_escapes_in_card_names_are_printed_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game_id: str
) -> None:
    option, _, renamed = HOSTILE[game_id]
    data = str(hostile_data(game_id, tmp_path))
    rng = random.Random(0)
    monkeypatch.setattr("builtins.input", lambda prompt="": str(rng.randint(1, 2)))
    path = tmp_path / "g.json"
    short = ["--max_rounds", "2"] if game_id == "cleopatra" else []  # the names show from the first screen on
    code, out, err = run(capsys, "play", game_id, option, data, *short, "--seats", "you", "--seed", "4", "--save", str(path))
    assert code == 0 and not err and "final scores" in out
    for shown in [*renamed.values(), "\\x1b[2J"] + (["[blink]book"] if game_id == "valley" else []):
        assert shown in out
    assert "\x1b" not in out
    code, out, err = run(capsys, "replay", str(path), "--print", "--player", "1")
    assert code == 0 and not err and "\x1b" not in out
    for argv in (["simulate", game_id, "-n", "1"], ["arena", game_id, "-n", "1"]):
        code, out, err = run(capsys, *argv, option, data)
        assert code == 0 and "Traceback" not in err, err


def test_list_and_replay_help_print_brackets_as_written(
    capsys: pytest.CaptureFixture[str], finished_record: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keyboard(monkeypatch, [], end_of_input)
    code, out, _ = run(capsys, "replay", str(finished_record))
    assert code == 0 and "keys: [enter]/n next" in out
    code, out, _ = run(capsys, "list")
    assert code == 0 and "Valley" in out


@pytest.mark.parametrize("columns,width", [("0", 80), ("5", 80), ("99999999", 80), ("-3", 80), ("120", 120)])
def test_a_terminal_width_that_prints_nothing_or_too_much_is_taken_as_80(
    monkeypatch: pytest.MonkeyPatch, columns: str, width: int
) -> None:
    from obelisk.cli.common import make_console

    monkeypatch.setenv("COLUMNS", columns)
    assert make_console().width == width


def test_replay_refuses_files_that_are_no_record_in_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    number = tmp_path / "number.json"
    number.write_text('{"seed": ' + "9" * 5000 + "}")
    for path, reason in ((deep, "is nested too deeply"), (number, "an integer of 5000 digits"),
                         ("/dev/zero", "not a regular file"), (tmp_path, "not a regular file")):
        code, out, err = run(capsys, "replay", str(path), "--print")
        assert code == 2 and not out and reason in err and err.count("\n") == 1, err
