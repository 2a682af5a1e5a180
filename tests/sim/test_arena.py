"""The arena: schedule, statistics on a synthetic case, determinism across workers and backends, the CLI."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import obelisk
from obelisk.cli import main
from obelisk.core.records import read_record, replay_record
from obelisk.sim.arena import make_tournament, run_tournament, schedule, summarise
from obelisk.sim.tasks import GameResult, Tournament
from obelisk.sim.stats import wilson_interval


def test_schedule_rotates_every_bot_through_every_seat() -> None:
    tasks = schedule(["a", "b", "c"], 3, 12, seed=4)
    for bot in "abc":
        seats = [t.lineup.index(bot) for t in tasks]
        assert sorted(seats) == [0] * 4 + [1] * 4 + [2] * 4
    assert len({t.seed for t in tasks[:3]}) == 1, "one deal per rotation"
    assert len({t.seed for t in tasks}) == 4
    assert schedule(["a", "b", "c"], 3, 12, seed=4) == tasks
    assert schedule(["a", "b", "c"], 3, 12, seed=5) != tasks


def test_schedule_with_more_bots_than_seats_and_repeated_specs() -> None:
    tasks = schedule(["g", "r", "r", "i"], 2, 8, seed=0)
    assert [t.lineup for t in tasks[:4]] == [("g", "r"), ("r", "r#2"), ("r#2", "i"), ("i", "g")]
    assert tasks[1].specs == ("r", "r")


def _tournament(specs: tuple[str, ...], players: int, games: int) -> Tournament:
    game = obelisk.load("highcard", players)
    return make_tournament(game, list(specs), games, seed=0)


def test_summary_of_a_synthetic_tournament() -> None:
    tournament = _tournament(("greedy", "random"), 2, 4)
    results = [
        GameResult(0, 1, ("greedy", "random"), [1.0, -1.0], [5.0, 2.0], [{}, {}], 10, 4),
        GameResult(1, 1, ("random", "greedy"), [-1.0, 1.0], [3.0, 6.0], [{}, {}], 12, 4),
        GameResult(2, 2, ("greedy", "random"), [0.0, 0.0], [4.0, 4.0], [{}, {}], 8, 4),
        GameResult(3, 2, ("random", "greedy"), [1.0, -1.0], [6.0, 1.0], [{}, {}], 10, 4),
    ]
    summary = summarise(tournament, results)
    a, b = summary["bots"]
    assert (a["bot"], a["games"], a["wins"], a["win_rate"]) == ("greedy", 4, 2.5, 0.625)
    assert (b["wins"], b["win_rate"]) == (1.5, 0.375)
    assert a["win_ci"] == list(wilson_interval(2.5, 4))
    assert a["mean_score"] == 4.0 and b["mean_score"] == 3.75
    assert a["rating"] > 0 > b["rating"] and a["rating"] == pytest.approx(-b["rating"])
    assert [s["wins"] for s in a["seats"]] == [1.5, 1.0]
    assert [s["wins"] for s in summary["seats"]] == [2.5, 1.5]
    assert summary["mean_length"] == 10.0 and summary["max_length"] == 12


def test_same_seed_same_results_with_any_worker_count() -> None:
    tournament = _tournament(("greedy", "random", "ismcts:10"), 3, 18)
    one = summarise(tournament, run_tournament(tournament, workers=1))
    two = summarise(tournament, run_tournament(tournament, workers=2))
    assert one == two
    assert sum(bot["games"] for bot in one["bots"]) == 54


def test_ray_backend_matches_local() -> None:
    ray = pytest.importorskip("ray")
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    except Exception as error:  # only an unavailable Ray runtime skips; failures below fail
        pytest.skip(f"ray cannot start here: {error}")
    try:
        tournament = _tournament(("greedy", "random"), 2, 12)
        local = summarise(tournament, run_tournament(tournament))
        remote = summarise(tournament, run_tournament(tournament, backend="ray", workers=2))
        assert remote == local
    finally:
        ray.shutdown()


def test_bad_backend_and_workers_are_refused() -> None:
    tournament = _tournament(("random",), 2, 2)
    with pytest.raises(ValueError, match="unknown backend"):
        run_tournament(tournament, backend="slurm")
    with pytest.raises(ValueError, match="workers"):
        run_tournament(tournament, workers=0)
    with pytest.raises(ValueError, match="unknown bot"):
        make_tournament(obelisk.load("highcard", 2), ["alphazero"], 2, 0)
    for seed in (-1, 2**63):
        with pytest.raises(ValueError, match=r"seed must be an integer from 0 to 2\*\*63 - 1"):
            make_tournament(obelisk.load("highcard", 2), ["random"], 2, seed)


def test_arena_command_json_csv_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    csv_path, records = tmp_path / "games.csv", tmp_path / "records"
    status = main(["arena", "highcard", "--players", "2", "--bots", "ismcts:20,depth=2,random", "--games", "6",
                   "--seed", "3", "--json", "--csv", str(csv_path), "--records", str(records)])
    assert status == 0
    summary = json.loads(capsys.readouterr().out)
    assert [bot["bot"] for bot in summary["bots"]] == ["ismcts:20,depth=2", "random"]
    assert all(set(bot) >= {"games", "wins", "win_rate", "win_ci", "mean_score", "rating"} for bot in summary["bots"])
    assert sum(bot["wins"] for bot in summary["bots"]) == 6
    rows = list(csv.DictReader(csv_path.open()))
    assert len(rows) == 12 and {r["bot"] for r in rows} == {"ismcts:20,depth=2", "random"}
    files = sorted(records.glob("*.json"))
    assert len(files) == 6
    game, states = replay_record(read_record(files[0]))
    assert states[-1].is_terminal() and game.id == "highcard"


def test_arena_command_table_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "highcard", "--bots", "greedy,random", "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert "greedy" in out and "win rate by seat" in out
    assert main(["arena", "highcard", "--bots", "greedy,you", "--games", "4"]) == 2
    assert main(["arena", "highcard", "--bots", "greedy", "--backend", "mpi"]) == 2
    assert main(["arena", "highcard", "--bots", "ismcts:soon"]) == 2
    assert "budget must be" in capsys.readouterr().err
