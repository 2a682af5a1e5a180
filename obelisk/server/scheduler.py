"""Bot decisions at online tables: a fair queue per table, cancellation, retries and the bots' health.

Every bot seat of every table a server process holds decides through its one :class:`BotScheduler`
(docs/server.md "Bots at tables"):

* **Fairness.** Each table has its own queue and the lanes (one per worker, ``lanes.py``) serve the
  tables in turn: a table queues for a lane again only once its decision running is done, behind every
  table that asked meanwhile, so one table's long decisions delay another table's decision by at most
  the one running.
* **Cancellation.** A decision its table no longer wants (the seat taken back, an undo, the game over)
  leaves the queue, or, when it is running, is told to stop: the search polls a flag shared with its
  worker and ends within one iteration. A worker that has not answered by the decision's limit plus
  ``GRACE_SECONDS`` is killed and replaced. A stopped decision's move is never applied.
* **Recovery.** A worker that dies is started again and the decision tried again after a pause that
  grows with each failure; :meth:`BotScheduler.health` says whether bots can decide (``GET /api/health``).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
from collections import OrderedDict, deque
from dataclasses import asdict, dataclass
from typing import Any, Hashable

from obelisk.server.bots import Decision
from obelisk.server.lanes import Lane, LaneFailure, ProcessLane, ThreadLane

log = logging.getLogger("obelisk.server.bots")
"""The bots' log (scheduler and elector alike): every failed decision, with its table, bot and reason."""

DECISION_SECONDS = 3.0
"""A search at a table ends after this long, whatever its budget, with its best move so far."""
GRACE_SECONDS = 10.0
"""A worker that has not answered this long after its decision's limit is killed and replaced."""
FAILING_AFTER = 2
"""Consecutive failed decisions after which :meth:`BotScheduler.health` reports bots as failing."""
RETRY_FIRST = 0.5
RETRY_MAX = 30.0
"""A failed decision is tried again after RETRY_FIRST seconds, doubled after each failure up to RETRY_MAX."""


class Cancelled(Exception):
    """The decision is no longer wanted (or the server is stopping): its move must not be applied."""


@dataclass(eq=False)
class _Job:
    table: str
    key: Hashable
    decision: Decision
    future: asyncio.Future[int]
    attempts: int = 0
    retry: asyncio.TimerHandle | None = None


@dataclass(frozen=True)
class Health:
    """Whether bots can decide now, and the counts that say how they have been doing."""

    ok: bool
    reason: str | None
    workers: int
    busy: int
    queued: int
    decisions: int
    interrupted: int
    failures: int
    restarts: int

    def as_dict(self) -> dict[str, Any]:
        counts = asdict(self)
        del counts["ok"], counts["reason"]
        doc: dict[str, Any] = {"status": "ok" if self.ok else "failing", "bots": counts}
        if self.reason is not None:
            doc["reason"] = self.reason
        return doc


@dataclass
class _Counts:
    decisions: int = 0
    """Decisions a worker finished (a stopped one included): the bot CPU this process spent."""
    interrupted: int = 0
    """Decisions a stop (a cancellation or the time limit) cut short."""
    failures: int = 0
    failing: int = 0
    """Failed attempts since the last decision that succeeded."""
    last_failure: str | None = None


class BotScheduler:
    """The bot decisions of one server process: a queue per table, served in turn by ``workers`` lanes.

    ``workers`` processes decide (0: one thread of this process, which can be stopped by its flag but
    never killed). :meth:`action_for` waits for a decision; :meth:`keep_only` drops those a table no longer
    wants; a failed attempt is retried with a growing pause until it succeeds or is dropped.

    Turns: a table with queued decisions and none running is *ready*; the lanes take the ready tables
    first come, first served, one decision each. A table whose decision is running is not ready, so
    it rejoins the line only when that decision is done, behind every table that became ready
    meanwhile: a long decision delays another table's at most once, and no table holds two lanes.
    """

    def __init__(self, workers: int = 0, *, limit: float | None = None, grace: float | None = None) -> None:
        self.limit = DECISION_SECONDS if limit is None else limit
        self.grace = GRACE_SECONDS if grace is None else grace
        lanes: list[Lane]
        if workers > 0:
            context = multiprocessing.get_context("spawn")
            lanes = [ProcessLane(context) for _ in range(workers)]
        else:
            lanes = [ThreadLane()]
        self._lanes = lanes
        self._idle = list(reversed(lanes))
        self._queues: dict[str, deque[_Job]] = {}
        self._ready: OrderedDict[str, None] = OrderedDict()
        """Tables with queued decisions and none running, in the order they became ready."""
        self._running: dict[Lane, tuple[_Job, float]] = {}
        self._waiting: set[_Job] = set()
        """Jobs pausing before another attempt."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._counts = _Counts()
        self._closed = False

    def start(self) -> None:
        """Start the workers now, in the background, rather than each at its first decision: a worker
        process takes a second or more to import the games, which a first reply would otherwise wait for."""
        task = asyncio.get_running_loop().create_task(self._start_lanes())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def action_for(self, table: str, key: Hashable, decision: Decision) -> int:
        """The action of ``decision`` for ``table``; ``Cancelled`` once :meth:`keep_only` drops ``key``."""
        if self._closed:
            raise Cancelled
        job = _Job(table, key, decision, asyncio.get_running_loop().create_future())
        self._enqueue(job)
        try:
            return await job.future
        except asyncio.CancelledError:
            self._drop(job)
            raise

    def keep_only(self, table: str, key: Hashable | None) -> None:
        """Drop ``table``'s decisions other than ``key`` (None: all): queued ones at once, a running one stopped."""
        for job in self._jobs(table):
            if job.key != key:
                self._drop(job)

    def health(self) -> Health:
        """Whether bots can decide: not while the last attempts keep failing or a decision overruns."""
        counts = self._counts
        reason = None
        longest = max((time.monotonic() - started for _, started in self._running.values()), default=0.0)
        if self._closed:
            reason = "the server is stopping"
        elif counts.failing >= FAILING_AFTER:
            reason = f"the last {counts.failing} bot decisions failed; the last one: {counts.last_failure}"
        elif longest > self.limit + self.grace:
            reason = f"a bot decision has run for {longest:.0f}s, past its limit of {self.limit:g}s"
        return Health(reason is None, reason, len(self._lanes), len(self._running),
                      sum(len(queue) for queue in self._queues.values()) + len(self._waiting), counts.decisions,
                      counts.interrupted, counts.failures, sum(lane.restarts for lane in self._lanes))

    async def close(self) -> None:
        """Drop every decision and stop the workers."""
        self._closed = True
        for table in list(self._queues) + [job.table for job, _ in self._running.values()] + \
                [job.table for job in self._waiting]:
            self.keep_only(table, None)
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        for lane in self._lanes:
            lane.close()

    # ---- inside --------------------------------------------------------------------------

    async def _start_lanes(self) -> None:
        for lane in list(self._idle):
            if self._closed or lane not in self._idle:
                continue
            self._idle.remove(lane)  # no decision is given to a lane while it starts
            try:
                await lane.start()
            except LaneFailure as failure:
                self._count_failure(str(failure))
                log.error("a bot worker could not be started: %s", failure)
            finally:
                if not self._closed:
                    self._idle.append(lane)
                    self._dispatch()

    def _jobs(self, table: str) -> list[_Job]:
        if not (self._queues or self._running or self._waiting):
            return []  # the usual case, on every change of every table
        jobs = list(self._queues.get(table, ()))
        jobs += [job for job, _ in self._running.values() if job.table == table]
        jobs += [job for job in self._waiting if job.table == table]
        return jobs

    def _enqueue(self, job: _Job) -> None:
        self._queues.setdefault(job.table, deque()).append(job)
        if not any(running.table == job.table for running, _ in self._running.values()):
            self._ready[job.table] = None
        self._dispatch()

    def _drop(self, job: _Job) -> None:
        """Forget ``job``: its waiter gets ``Cancelled``; if a lane is deciding it, the lane is told to stop."""
        if not job.future.done():
            job.future.set_exception(Cancelled())
        queue = self._queues.get(job.table)
        if queue is not None and job in queue:
            queue.remove(job)
            if not queue:
                del self._queues[job.table]
                self._ready.pop(job.table, None)
        if job in self._waiting:
            self._waiting.discard(job)
            if job.retry is not None:
                job.retry.cancel()
        for lane, (running, _) in self._running.items():
            if running is job:
                lane.interrupt()

    def _dispatch(self) -> None:
        """Give idle lanes the next decision of the tables ready first."""
        while self._idle and self._ready and not self._closed:
            table = next(iter(self._ready))
            del self._ready[table]
            queue = self._queues[table]
            job = queue.popleft()
            if not queue:
                del self._queues[table]
            lane = self._idle.pop()
            self._running[lane] = (job, time.monotonic())
            task = asyncio.get_running_loop().create_task(self._run(lane, job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, lane: Lane, job: _Job) -> None:
        try:
            action, interrupted = await lane.run(job.decision, self.limit, self.grace)
        except LaneFailure as failure:
            self._failed(job, str(failure))
        else:
            counts = self._counts
            counts.decisions += 1
            counts.interrupted += interrupted
            counts.failing = 0
            if not job.future.done():
                job.future.set_result(action)
        finally:
            del self._running[lane]
            if job.table in self._queues:
                self._ready[job.table] = None  # behind the tables that became ready meanwhile
            if not self._closed:
                self._idle.append(lane)
                self._dispatch()

    def _failed(self, job: _Job, reason: str) -> None:
        """Count a failed attempt and try ``job`` again after a pause, unless it is no longer wanted."""
        self._count_failure(reason)
        job.attempts += 1
        pause = min(RETRY_MAX, RETRY_FIRST * 2 ** (job.attempts - 1))
        log.error("table %s: bot %r of seat %d: %s; trying again in %gs", job.table, job.decision.spec,
                  job.decision.seat, reason, pause)
        if job.future.done() or self._closed:
            return
        self._waiting.add(job)
        job.retry = asyncio.get_running_loop().call_later(pause, self._again, job)

    def _count_failure(self, reason: str) -> None:
        counts = self._counts
        counts.failures += 1
        counts.failing += 1
        counts.last_failure = reason

    def _again(self, job: _Job) -> None:
        self._waiting.discard(job)
        if job.future.done() or self._closed:
            return
        self._enqueue(job)
