"""Bot decisions at online tables: bounded budgets, a fair queue, workers that can be stopped and replaced.

Every bot seat of every table a server process holds decides through its one :class:`BotScheduler`
(docs/server.md "Bots at tables"):

* **Budgets.** :func:`table_bot` seats only ``random``, ``greedy`` and ``ismcts`` within the limits
  below; a table without a person's seat gets the smallest search budget. Whatever the budget, a search
  at a table is cut after ``DECISION_SECONDS`` and plays its best move so far.
* **Fairness.** Each table has its own queue and the lanes (one per worker) serve the tables in turn: a
  table queues for a lane again only once its decision running is done, behind every table that asked
  meanwhile, so one table's long decisions delay another table's decision by at most the one running.
* **Cancellation.** A decision its table no longer wants (the seat taken back, an undo, the game over)
  leaves the queue, or, when it is running, is told to stop: the search polls a flag shared with its
  worker and ends within one iteration. A worker that has not answered by the decision's limit plus
  ``GRACE_SECONDS`` is killed and replaced. A stopped decision's move is never applied.
* **Recovery.** A worker that dies is started again and the decision tried again after a pause that
  grows with each failure; :meth:`BotScheduler.health` says whether bots can decide (``GET /api/health``).
* **One process.** With PostgreSQL, :class:`Elector` lets only the process holding a table's advisory
  lock decide its bots; a process that dies frees its locks and another takes its tables over.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any, Callable, Hashable, Mapping

import obelisk
from obelisk.bots import make_bot
from obelisk.bots.greedy import GreedyBot
from obelisk.bots.ismcts import ISMCTSBot
from obelisk.core import Game

log = logging.getLogger("obelisk.server.bots")

TABLE_BOTS = ("random", "greedy", "ismcts")
"""The bot kinds a table seats (``cheater`` reads hidden cards; other kinds have no known cost)."""
MAX_SECONDS = 2.0
"""The longest time budget at a table: the lobby's strongest bot (``ismcts:2s``)."""
MAX_ITERATIONS = 1000
"""The largest iteration budget at a table with a person: the lobby's strong bot (``ismcts:1000``)."""
UNATTENDED_ITERATIONS = 200
"""The largest search budget at a table without a person's seat: the lobby's quick bot (``ismcts:200``)."""
MAX_DEPTH = 20
"""Rollout decisions a search at a table may play before scoring (``depth``; 0, to the end, is refused)."""
MAX_SAMPLES = 16
"""Determinizations a greedy bot at a table may score each decision on (``samples``)."""
MAX_EXPECT = 12
"""The largest chance node a greedy bot at a table averages exactly (``expect``)."""
DECISION_SECONDS = 3.0
"""A search at a table ends after this long, whatever its budget, with its best move so far."""
GRACE_SECONDS = 10.0
"""A worker that has not answered this long after its decision's limit is killed and replaced."""
START_SECONDS = 60.0
"""A new worker process must be ready within this long (it imports the games first)."""
FAILING_AFTER = 2
"""Consecutive failed decisions after which :meth:`BotScheduler.health` reports bots as failing."""
RETRY_FIRST = 0.5
RETRY_MAX = 30.0
"""A failed decision is tried again after RETRY_FIRST seconds, doubled after each failure up to RETRY_MAX."""
TAKEOVER_SECONDS = 5.0
"""How often a process holding a table whose bot another process decides checks that process still does."""
WORKER_NAME = "obelisk-bot"


# ---- budgets ----------------------------------------------------------------------------------

def table_bot(spec: str, game: Game, attended: bool) -> str:
    """``spec`` if a table of ``game`` may seat that bot, else ``ValueError`` saying what is allowed.

    ``attended``: the table has a person's seat; one without gets only the smallest search budget,
    since nobody's moves pace its bots and it would keep a worker busy for the whole game.
    """
    bot = make_bot(spec, game, 0, 0)  # every mistake in the spec itself is refused here
    kind = spec.partition(":")[0].strip()
    if kind == "cheater":
        raise ValueError("bot 'cheater' reads hidden cards and is not seated at tables")
    if kind not in TABLE_BOTS:
        raise ValueError(f"bot {kind!r} is not seated at tables; tables seat {', '.join(TABLE_BOTS)}")
    if isinstance(bot, ISMCTSBot):
        _check_search(bot, attended)
    elif isinstance(bot, GreedyBot):
        _check_greedy(bot)
    return spec


def _check_search(bot: ISMCTSBot, attended: bool) -> None:
    budget = bot.budget
    if not attended:
        if budget.iterations is None or budget.iterations > UNATTENDED_ITERATIONS:
            raise ValueError(f"a table without a person seats search bots of at most {UNATTENDED_ITERATIONS} "
                             f"iterations (e.g. 'ismcts:{UNATTENDED_ITERATIONS}'), got {budget.describe()}")
    elif budget.seconds is not None and budget.seconds > MAX_SECONDS:
        raise ValueError(f"a bot at a table searches at most {MAX_SECONDS:g}s a move, got {budget.describe()}")
    elif budget.iterations is not None and budget.iterations > MAX_ITERATIONS:
        raise ValueError(f"a bot at a table searches at most {MAX_ITERATIONS} iterations a move, "
                         f"got {budget.describe()}")
    if bot.rollout != "none" and not 1 <= bot.depth <= MAX_DEPTH:
        raise ValueError(f"a bot at a table cuts its rollouts after 1 to {MAX_DEPTH} decisions, got depth={bot.depth}")


def _check_greedy(bot: GreedyBot) -> None:
    if bot.samples > MAX_SAMPLES:
        raise ValueError(f"a greedy bot at a table scores at most {MAX_SAMPLES} samples, got samples={bot.samples}")
    if bot.expect > MAX_EXPECT:
        raise ValueError(f"a greedy bot at a table averages chance nodes of at most {MAX_EXPECT} outcomes, "
                         f"got expect={bot.expect}")


# ---- deciding ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Decision:
    """What a worker needs to decide a bot's move: the table replayed from its seed and moves, and the bot."""

    game: str
    players: int
    options: Mapping[str, Any]
    seed: int
    history: tuple[int, ...]
    spec: str
    seat: int
    bot_seed: int


def decide(decision: Decision, stop: Callable[[], bool]) -> tuple[int, bool]:
    """The bot's action and whether ``stop`` cut its search short; it sees hidden parts only by resampling."""
    game = obelisk.load(decision.game, decision.players, **decision.options)
    state = game.replay(decision.seed, decision.history)
    bot = make_bot(decision.spec, game, decision.seat, decision.bot_seed)
    if isinstance(bot, ISMCTSBot):
        bot.stop = stop
        return bot.choose(state), bot.interrupted
    return bot.choose(state), False


def _stop_check(flag: Callable[[], bool], limit: float) -> Callable[[], bool]:
    """A stop check that answers True once ``flag`` is raised or ``limit`` seconds have passed."""
    deadline = time.monotonic() + limit
    return lambda: flag() or time.monotonic() >= deadline


class Cancelled(Exception):
    """The decision is no longer wanted (or the server is stopping): its move must not be applied."""


class LaneFailure(Exception):
    """A worker gave no decision: it died, did not answer in time, or the bot raised."""


def _exit_text(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class _ThreadLane:
    """Decides in one thread of this process (``--bot-workers 0``): stopped by its flag, never killed."""

    def __init__(self) -> None:
        self._flag = threading.Event()
        self._executor = ThreadPoolExecutor(1, thread_name_prefix=WORKER_NAME)
        self.restarts = 0

    async def start(self) -> None:
        """Nothing to start: the thread is there."""

    async def run(self, decision: Decision, limit: float, grace: float) -> tuple[int, bool]:
        self._flag.clear()
        stop = _stop_check(self._flag.is_set, limit)
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, _decide_here, decision, stop)
        except Exception as error:
            raise LaneFailure(f"the bot failed: {type(error).__name__}: {error}") from error

    def interrupt(self) -> None:
        self._flag.set()

    def close(self) -> None:
        self._flag.set()
        self._executor.shutdown(wait=False, cancel_futures=True)


def _decide_here(decision: Decision, stop: Callable[[], bool]) -> tuple[int, bool]:
    return decide(decision, stop)


def _worker(connection: Connection, flag: Any) -> None:
    """A worker process: decide each decision sent, polling ``flag`` (shared memory) to stop early."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the server, which stops its workers
    connection.send(("ready", os.getpid()))
    while True:
        try:
            decision, limit = connection.recv()
        except (EOFError, OSError):
            return  # the server is gone
        stop = _stop_check(lambda: flag.value != 0, limit)
        try:
            reply: tuple[Any, ...] = ("done", *decide(decision, stop))
        except Exception as error:
            reply = ("error", f"{type(error).__name__}: {error}")
        connection.send(reply)


class _ProcessLane:
    """Decides in one worker process of its own, started again whenever it is found dead.

    The process is spawned, not forked: it shares nothing with the server's threads and database
    connections. Its stop flag is a byte of shared memory the search polls after every iteration.
    """

    def __init__(self, context: SpawnContext) -> None:
        self._context = context
        self._flag = context.RawValue("b", 0)
        self._process: BaseProcess | None = None
        self._connection: Connection | None = None
        self.restarts = 0
        self._started = False

    async def start(self) -> None:
        """Have a live worker: start one unless it runs."""
        if self._process is None or not self._process.is_alive():
            await self._start()

    async def run(self, decision: Decision, limit: float, grace: float) -> tuple[int, bool]:
        self._flag.value = 0  # before a start, so a stop asked for meanwhile is kept
        await self.start()
        assert self._connection is not None
        try:
            self._connection.send((decision, limit))
        except OSError:
            raise self._died() from None
        reply = await self._receive(limit + grace, "its decision")
        if reply[0] == "error":
            raise LaneFailure(f"the bot failed: {reply[1]}")
        return int(reply[1]), bool(reply[2])

    def interrupt(self) -> None:
        self._flag.value = 1

    async def _start(self) -> None:
        self._discard()
        if self._started:
            self.restarts += 1
        self._started = True
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_worker, args=(child, self._flag), name=WORKER_NAME, daemon=True)
        process.start()
        child.close()
        self._process, self._connection = process, parent
        await self._receive(START_SECONDS, "its start")

    async def _receive(self, timeout: float, what: str) -> tuple[Any, ...]:
        """The worker's next message; ``LaneFailure`` (the worker replaced) if it dies or takes too long."""
        assert self._process is not None and self._connection is not None
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        watched = (self._connection.fileno(), self._process.sentinel)
        for fd in watched:
            loop.add_reader(fd, wake)
        answered = True
        try:
            await asyncio.wait_for(woken, timeout)
        except asyncio.TimeoutError:
            answered = False
        finally:
            for fd in watched:
                loop.remove_reader(fd)
        if not answered:
            self._discard()
            raise LaneFailure(f"the bot worker did not answer within {timeout:g}s of {what}; it was replaced")
        try:
            if self._connection.poll():
                return self._connection.recv()
        except (EOFError, OSError):
            pass
        raise self._died()

    def _died(self) -> LaneFailure:
        assert self._process is not None
        self._process.join(1.0)
        failure = LaneFailure(f"the bot worker stopped ({_exit_text(self._process.exitcode)})")
        self._discard()
        return failure

    def _discard(self) -> None:
        """Stop the worker (if it still runs) and forget it; the next decision starts a new one."""
        process, connection = self._process, self._connection
        self._process = self._connection = None
        if connection is not None:
            connection.close()
        if process is not None:
            if process.is_alive():
                process.kill()
            process.join(1.0)

    def close(self) -> None:
        self._flag.value = 1
        self._discard()


Lane = _ThreadLane | _ProcessLane


# ---- scheduling -------------------------------------------------------------------------------

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
    never killed). :meth:`decide` waits for a decision; :meth:`keep_only` drops those a table no longer
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
            lanes = [_ProcessLane(context) for _ in range(workers)]
        else:
            lanes = [_ThreadLane()]
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

    async def decide(self, table: str, key: Hashable, decision: Decision) -> int:
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


# ---- one process per table --------------------------------------------------------------------

def _lock_key(table: str) -> int:
    """The table's advisory lock: a signed 64-bit number drawn from its id."""
    return int.from_bytes(hashlib.blake2b(f"obelisk-bots:{table}".encode(), digest_size=8).digest(), "big",
                          signed=True)


class Elector:
    """Which server process decides a table's bots: the one holding the table's PostgreSQL advisory lock.

    The locks are session locks on one connection of this process, held while its bot loop for the
    table runs. A process that dies loses its connection and with it its locks, so a process that was
    refused one tries again every ``TAKEOVER_SECONDS`` while the bot is still to act. Without PostgreSQL
    (``dsn`` None: SQLite, one process) every table is this process's. If the lock cannot be asked for
    (the database connection failed) the process decides anyway: writes never trust a decision, so the
    worst case is the same move decided twice, and only one is ever applied.
    """

    def __init__(self, dsn: str | None) -> None:
        self._dsn = dsn
        self._connection: Any = None
        self._connecting = asyncio.Lock()
        self._held: set[str] = set()

    @classmethod
    def for_url(cls, url: str) -> Elector:
        """The elector of a database URL as SQLAlchemy writes it: shared for PostgreSQL only."""
        if url.startswith("postgresql+psycopg://"):
            return cls(url.replace("postgresql+psycopg://", "postgresql://", 1))
        return cls(None)

    @property
    def shared(self) -> bool:
        """Whether other processes may hold the same tables."""
        return self._dsn is not None

    async def acquire(self, table: str) -> bool:
        """Whether this process is to decide ``table``'s bots now (it then holds them until :meth:`release`)."""
        if self._dsn is None or table in self._held:
            return True
        try:
            connection = await self._connect()
            cursor = await connection.execute("SELECT pg_try_advisory_lock(%s)", (_lock_key(table),))
            row = await cursor.fetchone()
        except Exception:
            log.exception("table %s: the bots' lock could not be asked for; deciding here", table)
            await self._drop()
            return True
        if row is not None and row[0]:
            self._held.add(table)
            return True
        return False

    async def release(self, table: str) -> None:
        if table not in self._held:
            return
        self._held.discard(table)
        try:
            await self._connection.execute("SELECT pg_advisory_unlock(%s)", (_lock_key(table),))
        except Exception:
            log.exception("table %s: the bots' lock could not be released; dropping the connection", table)
            await self._drop()

    async def close(self) -> None:
        await self._drop()

    async def _connect(self) -> Any:
        async with self._connecting:
            if self._connection is None or self._connection.closed:
                import psycopg

                assert self._dsn is not None
                self._held.clear()
                self._connection = await psycopg.AsyncConnection.connect(self._dsn, autocommit=True)
            return self._connection

    async def _drop(self) -> None:
        """Close the connection: PostgreSQL releases every lock it held."""
        connection, self._connection = self._connection, None
        self._held.clear()
        if connection is not None:
            try:
                await connection.close()
            except Exception:
                pass
