"""Tournaments between bots: schedule, play (locally or on Ray), summarise.

Everything that decides a game — its chance seed, its seat assignment and
every bot's seed — is fixed by :func:`schedule` before any game is
dispatched, and results are put back in schedule order. That is why the same
``seed`` gives the same results with any worker count and on either backend.

Seat rotation: game ``g`` seats bot ``(g + s) mod m`` at seat ``s`` (``m``
bots). Over every ``m`` consecutive games each bot sits at each seat once, and
those ``m`` games share one chance seed (a "deal"), so the rotation also
cancels most of the luck of the deal. With fewer bots than seats a bot fills
several seats of a game; each seat counts as one participation.
"""

from __future__ import annotations

import concurrent.futures
import math
import multiprocessing
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from obelisk.bots import make_bot
from obelisk.core import Game
from obelisk.core.rng import make_rng
from obelisk.core.seeds import check_seed
from obelisk.sim.stats import bradley_terry, mean_interval, pairwise_wins, wilson_interval
from obelisk.sim.tasks import GameResult, GameTask, Tournament, play_game, run_chunk

BACKENDS = ("local", "ray")


def participant_labels(specs: Sequence[str]) -> tuple[str, ...]:
    """Unique names for the bots of a tournament: the spec, with ``#2``, ``#3`` for repeats."""
    labels = []
    for i, spec in enumerate(specs):
        repeat = specs[:i].count(spec)
        labels.append(spec if repeat == 0 else f"{spec}#{repeat + 1}")
    return tuple(labels)


def schedule(specs: Sequence[str], players: int, games: int, seed: int) -> list[GameTask]:
    """The seeded, seat-rotated list of games (see the module docstring)."""
    labels = participant_labels(specs)
    m = len(specs)
    tasks = []
    for index in range(games):
        deal = index // m
        game_seed = make_rng("arena-deal", seed, deal).getrandbits(31)
        order = [(index + seat) % m for seat in range(players)]
        tasks.append(
            GameTask(
                index=index,
                seed=game_seed,
                lineup=tuple(labels[b] for b in order),
                specs=tuple(specs[b] for b in order),
                bot_seeds=tuple(make_rng("arena-bot", seed, index, seat).getrandbits(31) for seat in range(players)),
            )
        )
    return tasks


def make_tournament(
    game: Game, specs: Sequence[str], games: int, seed: int, keep_records: bool = False
) -> Tournament:
    """Validate the bot specs against ``game`` (so mistakes surface before dispatch) and schedule."""
    check_seed(seed)
    if not specs:
        raise ValueError("a tournament needs at least one bot")
    if games < 1:
        raise ValueError(f"the number of games must be positive, got {games}")
    for spec in specs:
        make_bot(spec, game, 0, 0)
    return Tournament(
        game_class=type(game),
        players=game.num_players,
        options=dict(game.options),
        labels=participant_labels(specs),
        specs=tuple(specs),
        games=games,
        seed=seed,
        keep_records=keep_records,
        tasks=tuple(schedule(specs, game.num_players, games, seed)),
    )


def chunked(tasks: Sequence[GameTask], workers: int) -> list[list[GameTask]]:
    """Batches small enough to balance the load and show progress, big enough to amortise dispatch."""
    size = max(1, min(25, math.ceil(len(tasks) / (max(workers, 1) * 8))))
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def run_tournament(
    tournament: Tournament,
    backend: str = "local",
    workers: int = 1,
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[GameResult]:
    """Play every scheduled game; results come back in schedule order whatever the backend."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    advance = progress or (lambda n: None)
    chunks = chunked(tournament.tasks, workers)
    results: list[GameResult] = []
    if backend == "ray":
        from obelisk.sim.ray_backend import run_on_ray

        results = run_on_ray(tournament, chunks, workers, address, advance)
    elif workers == 1:
        game = tournament.make_game()
        for task in tournament.tasks:
            results.append(play_game(game, task, tournament.keep_records))
            advance(1)
    else:
        # "spawn": workers start clean even though the progress display runs a thread here.
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            futures = [
                pool.submit(run_chunk, tournament.game_class, tournament.players, tournament.options, chunk,
                            tournament.keep_records)
                for chunk in chunks
            ]
            for future in concurrent.futures.as_completed(futures):
                batch = future.result()
                results.extend(batch)
                advance(len(batch))
    results.sort(key=lambda r: r.index)
    return results


@dataclass
class BotSummary:
    label: str
    spec: str
    games: int = 0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)
    returns: list[float] = field(default_factory=list)
    seat_games: list[int] = field(default_factory=list)
    seat_wins: list[float] = field(default_factory=list)


def summarise(tournament: Tournament, results: Sequence[GameResult], elapsed: float | None = None) -> dict[str, Any]:
    """The whole result as a JSON-able dict: per bot games, wins, win rate, Wilson CI, scores, rating.

    ``timing`` is the only part that depends on the machine; everything else
    is a function of the tournament definition.
    """
    players = tournament.players
    bots = {
        label: BotSummary(label, spec, seat_games=[0] * players, seat_wins=[0.0] * players)
        for label, spec in zip(tournament.labels, tournament.specs)
    }
    pairs: dict[tuple[str, str], float] = {}
    seat_wins = [0.0] * players
    lengths = []
    for result in results:
        winners = result.winners()
        for seat, label in enumerate(result.lineup):
            bot = bots[label]
            win = 1.0 / len(winners) if seat in winners else 0.0
            bot.games += 1
            bot.wins += win
            bot.scores.append(result.scores[seat])
            bot.returns.append(result.returns[seat])
            bot.seat_games[seat] += 1
            bot.seat_wins[seat] += win
            seat_wins[seat] += win
        for key, value in pairwise_wins(result.lineup, result.returns).items():
            pairs[key] = pairs.get(key, 0.0) + value
        lengths.append(result.length)
    labels = list(tournament.labels)
    ratings = bradley_terry(labels, pairs) if len(labels) > 1 else {labels[0]: 0.0}
    rows = []
    for label in tournament.labels:
        bot = bots[label]
        mean_score, score_low, score_high = mean_interval(bot.scores)
        low, high = wilson_interval(bot.wins, bot.games)
        rows.append(
            {
                "bot": label,
                "spec": bot.spec,
                "games": bot.games,
                "wins": bot.wins,
                "win_rate": bot.wins / bot.games if bot.games else 0.0,
                "win_ci": [low, high],
                "mean_score": mean_score,
                "score_ci": [score_low, score_high],
                "mean_return": math.fsum(bot.returns) / bot.games if bot.games else 0.0,
                "rating": ratings[label],
                "seats": [
                    {"seat": s, "games": bot.seat_games[s], "wins": bot.seat_wins[s]} for s in range(players)
                ],
            }
        )
    games = len(results)
    summary: dict[str, Any] = {
        "game": tournament.game_class.info.id,
        "players": players,
        "options": dict(tournament.options),
        "seed": tournament.seed,
        "games": games,
        "bots": rows,
        "seats": [
            {
                "seat": s,
                "wins": seat_wins[s],
                "win_rate": seat_wins[s] / games if games else 0.0,
                "win_ci": list(wilson_interval(seat_wins[s], games)),
            }
            for s in range(players)
        ],
        "rating_method": "Bradley-Terry on pairwise results, Elo scale, mean 0",
        "mean_length": math.fsum(lengths) / games if games else 0.0,
        "max_length": max(lengths, default=0),
    }
    if elapsed is not None:
        summary["timing"] = {"seconds": elapsed, "games_per_second": games / max(elapsed, 1e-9)}
    return summary


def timed_run(tournament: Tournament, **kwargs: Any) -> tuple[list[GameResult], float]:
    """``run_tournament`` and its wall time (for the throughput line and benchmarks)."""
    started = time.perf_counter()
    results = run_tournament(tournament, **kwargs)
    return results, time.perf_counter() - started
