"""The workers bot decisions run in: a thread of the server process, or a worker process of their own.

A lane decides one :class:`~obelisk.server.bots.Decision` at a time and can be told to stop: the search
polls a flag shared with its worker and ends within one iteration. A process lane's worker that dies, or
does not answer by the decision's limit plus its grace, is killed and replaced (:class:`LaneFailure`);
a thread cannot be killed. Which lane decides what, and what a failure leads to, is the scheduler's
(``scheduler.py``).
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from multiprocessing.context import SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any, Callable

from obelisk.server.bots import Decision, bot_action

START_SECONDS = 60.0
"""A new worker process must be ready within this long (it imports the games first)."""
WORKER_NAME = "obelisk-bot"


def _stop_check(flag: Callable[[], bool], limit: float) -> Callable[[], bool]:
    """A stop check that answers True once ``flag`` is raised or ``limit`` seconds have passed."""
    deadline = time.monotonic() + limit
    return lambda: flag() or time.monotonic() >= deadline


class LaneFailure(Exception):
    """A worker gave no decision: it died, did not answer in time, or the bot raised."""


def _exit_text(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by signal {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class ThreadLane:
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
    return bot_action(decision, stop)


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
            reply: tuple[Any, ...] = ("done", *bot_action(decision, stop))
        except Exception as error:
            reply = ("error", f"{type(error).__name__}: {error}")
        connection.send(reply)


class ProcessLane:
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


Lane = ThreadLane | ProcessLane
