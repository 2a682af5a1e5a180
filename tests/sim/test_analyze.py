"""Balance reports: generic aggregation from records, and the files the command writes."""

from __future__ import annotations

from pathlib import Path

import pytest

import obelisk
from obelisk.cli import main
from obelisk.sim.analyze import action_kind, analyse, label_key, write_report
from obelisk.sim.arena import make_tournament, run_tournament
from obelisk.sim.tasks import GameResult


def test_action_kind_is_the_first_word() -> None:
    assert action_kind("Buy Sphinx (3 gold)") == "buy"
    assert action_kind("  entomb card 12") == "entomb"
    assert action_kind("42") == "other"


def test_label_key_drops_parenthesised_details() -> None:
    assert label_key("buy Statue of Horus (B3) for 3") == "buy Statue of Horus for 3"
    assert label_key("pay with treasure 3 (change 2)") == "pay with treasure 3"
    assert label_key("(odd)") == "(odd)"


def _record(actions: list[tuple[int, str]]) -> dict:
    return {"actions": [{"id": i, "player": p, "label": label} for i, (p, label) in enumerate(actions)]}


def test_analysis_of_synthetic_games() -> None:
    results = [
        GameResult(0, 1, ("g", "g"), [1.0, -1.0], [9.0, 3.0], [{"gold": 9}, {"gold": 3}], 5, 3,
                   _record([(-1, "deal"), (0, "buy Sphinx (B1)"), (1, "buy Scarab"), (0, "pass")])),
        GameResult(1, 1, ("g", "g"), [-1.0, 1.0], [2.0, 8.0], [{"gold": 2}, {"gold": 8}], 4, 2,
                   _record([(0, "buy Scarab"), (1, "buy Sphinx")])),
    ]
    a = analyse("demo", 2, results)
    assert a.seat_wins == [1.0, 1.0]
    assert a.winner_scores == [9.0, 8.0]
    assert a.breakdown_winners == {"gold": [9.0, 8.0]} and a.breakdown_others == {"gold": [3.0, 2.0]}
    sphinx, scarab = a.labels["buy Sphinx"], a.labels["buy Scarab"]
    assert (sphinx.seat_games, sphinx.wins, sphinx.kind) == (2, 2.0, "buy")
    assert (scarab.seat_games, scarab.wins) == (2, 0.0)
    assert a.kind_winners == {"buy": 2, "pass": 1} and a.kind_others == {"buy": 2}
    assert "deal" not in a.labels, "chance events are not anyone's choice"
    assert a.baseline == 0.5


def test_analyze_command_writes_report_and_plots(tmp_path: Path) -> None:
    out = tmp_path / "report"
    status = main(["analyze", "highcard", "--players", "3", "--games", "30", "--bots", "greedy,random",
                   "--out", str(out), "--records", "--kinds", "swap,nosuch"])
    assert status == 0
    report = (out / "report.md").read_text()
    for heading in ("Seat advantage", "Scores", "Game length", "Score categories", "Influence of choices"):
        assert f"## {heading}" in report
    assert "### Win rate by `swap` choice" in report and "No `nosuch` choice" in report
    for name in ("seats", "scores", "length", "categories", "kinds", "labels", "influence-swap"):
        assert (out / f"{name}.png").read_bytes().startswith(b"\x89PNG")
    assert len(list((out / "records").glob("*.json"))) == 30


@pytest.mark.parametrize("game_id", [info.id for info in obelisk.list_games() if info.id != "highcard"])
def test_analysis_runs_on_every_game(game_id: str, tmp_path: Path) -> None:
    """The report needs nothing game-specific: it runs on each registered game's records."""
    game = obelisk.load(game_id)
    tournament = make_tournament(game, ["random"], 4, seed=1, keep_records=True)
    analysis = analyse(game.id, game.num_players, run_tournament(tournament))
    assert analysis.games == 4 and analysis.labels
    assert write_report(analysis, tmp_path, "test", ["random"]).exists()
