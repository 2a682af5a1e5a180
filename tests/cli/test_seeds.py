"""Secret seeds in ``obelisk play``: committed at the start, revealed at the end, never shown before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import obelisk
from obelisk.cli import main
from obelisk.core.seeds import MAX_SEED, verify


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def only_record(data_dir: Path) -> Path:
    records = list((data_dir / "records").glob("*.json"))
    assert len(records) == 1, records
    return records[0]


def split_at_reveal(out: str) -> tuple[str, str]:
    """The output up to the line that reveals the seed, and that line on."""
    assert out.count("seed revealed: ") == 1
    at = out.index("seed revealed: ")
    return out[:at], out[at:]


@pytest.mark.parametrize("game_id", [info.id for info in obelisk.list_games()])
def test_bot_game_without_seed_reveals_the_seed_only_at_the_end(
    capsys: pytest.CaptureFixture[str], data_dir: Path, game_id: str
) -> None:
    code, out, err = run(capsys, "play", game_id, "--seats", "random")
    assert code == 0 and "final scores" in out
    path = only_record(data_dir)
    record = json.loads(path.read_text())
    seed, salt, published = record["seed"], record["seed_salt"], record["seed_commitment"]
    assert verify(seed, salt, published)
    before, end = split_at_reveal(out)
    assert f"shuffles committed: {published}" in before
    assert str(seed) not in before and salt not in before and str(seed) not in err and salt not in err
    assert str(seed) not in path.name and str(seed) not in str(path)
    assert f"record: {path}" in before and "final scores" in before
    assert str(seed) in end and salt in end


def test_human_game_without_seed_never_shows_the_seed_while_playing(
    capsys: pytest.CaptureFixture[str], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts: list[str] = []

    def answer(prompt: str = "") -> str:
        prompts.append(prompt)
        return "nonsense" if len(prompts) == 1 else "swap"

    monkeypatch.setattr("builtins.input", answer)
    code, out, err = run(capsys, "play", "highcard", "--players", "3", "--seats", "you,random,you")
    assert code == 0 and "type a number from 1 to 2, a label from the list, or q" in out and len(prompts) == 3
    record = json.loads(only_record(data_dir).read_text())
    seed, salt = str(record["seed"]), record["seed_salt"]
    before, end = split_at_reveal(out)
    shown = before + err + "".join(prompts)
    assert seed not in shown and salt not in shown
    assert seed in end and salt in end


def test_an_unfinished_game_never_reveals_its_seed(
    capsys: pytest.CaptureFixture[str], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    code, out, err = run(capsys, "play", "highcard", "--seats", "you,random")
    assert code == 0 and "game left unfinished" in out
    record = json.loads(only_record(data_dir).read_text())
    assert not record["result"]["terminal"]
    assert "seed revealed" not in out
    assert str(record["seed"]) not in out + err and record["seed_salt"] not in out + err


def test_each_game_draws_a_new_secret_seed(capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    for _ in range(2):
        assert run(capsys, "play", "highcard", "--seats", "random")[0] == 0
    records = [json.loads(p.read_text()) for p in (data_dir / "records").glob("*.json")]
    assert len(records) == 2
    assert records[0]["seed"] != records[1]["seed"]
    assert records[0]["seed_commitment"] != records[1]["seed_commitment"]


def test_fixed_seed_game_is_labelled_and_has_no_commitment(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    code, out, _ = run(capsys, "play", "highcard", "--seats", "random", "--seed", "41")
    assert code == 0 and "fixed-seed game (seed 41)" in out
    assert "shuffles committed" not in out and "seed revealed" not in out
    record = json.loads(only_record(data_dir).read_text())
    assert record["seed"] == 41 and record["seed_commitment"] is None and record["seed_salt"] is None
    code, out, _ = run(capsys, "replay", str(only_record(data_dir)), "--print")
    assert code == 0 and "not verified: seed 41 was fixed, with no commitment" in out
    assert "\nverified:" not in "\n" + out


def test_records_go_to_the_data_folder_and_the_path_is_printed(
    capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "play", "highcard", "--seats", "random")
    path = only_record(data_dir)
    assert code == 0 and f"record saved to {path}" in out
    assert path.name.startswith("highcard-") and not (tmp_path / "obelisk-records").exists()


def test_default_data_folder_is_the_platform_user_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    import platformdirs

    from obelisk.cli.common import data_dir

    monkeypatch.delenv("OBELISK_DATA_DIR")
    assert data_dir() == Path(platformdirs.user_data_dir("obelisk"))
    monkeypatch.setenv("OBELISK_DATA_DIR", "")
    assert data_dir() == Path(platformdirs.user_data_dir("obelisk"))


def test_replay_verifies_the_commitment(capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    assert run(capsys, "play", "highcard", "--seats", "random")[0] == 0
    path = only_record(data_dir)
    record = json.loads(path.read_text())
    code, out, _ = run(capsys, "replay", str(path), "--print")
    assert code == 0 and f"verified: the seed opens commitment {record['seed_commitment']} and every chance" in out
    record["seed_salt"] = "0" * 32
    path.write_text(json.dumps(record))
    code, out, err = run(capsys, "replay", str(path), "--print")
    assert code == 2 and err.startswith("obelisk: error:") and "'seed_commitment' does not match" in err
    assert "verified" not in out


@pytest.mark.parametrize("command", [["play", "highcard", "--seats", "random"], ["simulate", "highcard", "-n", "2"],
                                     ["arena", "highcard", "-n", "2"], ["analyze", "highcard", "-n", "2"]])
@pytest.mark.parametrize("seed", ["-1", str(MAX_SEED), str(10**30)])
def test_seeds_out_of_range_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], data_dir: Path, command: list[str], seed: str
) -> None:
    code, out, err = run(capsys, *command, "--seed", seed)
    assert code == 2 and err == f"obelisk: error: --seed must be an integer from 0 to 2**63 - 1, got {seed}\n"
    assert "final scores" not in out and not (data_dir / "records").exists()


def test_simulate_near_the_largest_seed_stays_in_range(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "highcard", "-n", "4", "--seed", str(MAX_SEED - 2), "--json")
    assert code == 0 and json.loads(out)["games"] == 4 and "Traceback" not in err
