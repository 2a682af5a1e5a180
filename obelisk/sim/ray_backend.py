"""Running a tournament on Ray: one remote task per batch of scheduled games.

The tasks carry the game class, the options and fully seeded games, so a
cluster produces exactly what local processes produce. Ray is imported only
when this backend is chosen; without ``--address`` a local Ray instance is
started for the run (and shut down after it) unless one is already running.
"""

from __future__ import annotations

from typing import Callable, Sequence

from obelisk.sim.tasks import GameResult, GameTask, Tournament, run_chunk


class RayUnavailableError(RuntimeError):
    """Ray is not installed or cannot start / connect."""


def run_on_ray(
    tournament: Tournament,
    chunks: Sequence[Sequence[GameTask]],
    workers: int,
    address: str | None,
    advance: Callable[[int], None],
) -> list[GameResult]:
    """Play the batches on Ray with at most ``workers`` batches in flight; results in any order."""
    try:
        import ray
    except ImportError as error:
        message = f"the ray backend needs ray installed (pip install 'obelisk[sim]'): {error}"
        raise RayUnavailableError(message) from None
    started_here = not ray.is_initialized()
    if started_here:
        try:
            if address:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        except Exception as error:  # ray reports connection problems with many exception types
            raise RayUnavailableError(f"cannot start or reach Ray ({address or 'local'}): {error}") from None
    try:
        remote = ray.remote(num_cpus=1)(run_chunk)
        game_class = ray.put(tournament.game_class)
        results: list[GameResult] = []
        queue = list(chunks)
        pending = []
        while queue or pending:
            while queue and len(pending) < workers:
                chunk = queue.pop(0)
                pending.append(
                    remote.remote(game_class, tournament.players, tournament.options, chunk, tournament.keep_records)
                )
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                batch = ray.get(ref)
                results.extend(batch)
                advance(len(batch))
        return results
    finally:
        if started_here:
            ray.shutdown()
