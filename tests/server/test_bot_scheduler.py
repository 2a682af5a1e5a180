"""The bot scheduler: tables take turns, decisions no longer wanted stop, failed ones are tried again."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Awaitable, Callable

import pytest

import obelisk
from obelisk.server.bots import Decision, bot_action
from obelisk.server.scheduler import BotScheduler, Cancelled
from tests.server.conftest import run_async


class Decisions:
    """A stand-in for the bots' work: each decision (named by its spec) runs until its gate opens or it is stopped."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str]] = []
        self.gates: dict[str, threading.Event] = {}
        self.failures: dict[str, int] = {}
        self._lock = threading.Lock()

    def gate(self, name: str) -> threading.Event:
        with self._lock:
            return self.gates.setdefault(name, threading.Event())

    def __call__(self, decision: Decision, stop: Callable[[], bool]) -> tuple[int, bool]:
        name = decision.spec
        self.events.append(("start", name))
        if self.failures.get(name, 0) > 0:
            self.failures[name] -= 1
            self.events.append(("failed", name))
            raise RuntimeError(f"{name} failed")
        gate = self.gate(name)
        while not gate.wait(0.002):
            if stop():
                self.events.append(("stopped", name))
                return 7, True
        self.events.append(("done", name))
        return 7, False

    def started(self) -> list[str]:
        return [name for what, name in self.events if what == "start"]


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Decisions:
    decisions = Decisions()
    monkeypatch.setattr("obelisk.server.lanes.bot_action", decisions)
    return decisions


def decision(name: str) -> Decision:
    return Decision("valley", 2, {}, 0, (), name, 0, 0)


async def until(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    for _ in range(int(seconds / 0.005)):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("it did not happen in time")


def run(test: Callable[[], Awaitable[Any]]) -> Any:
    return run_async(test())


def test_a_table_asking_while_another_decides_is_served_before_that_tables_next_decisions(work: Decisions) -> None:
    async def test() -> None:
        scheduler = BotScheduler(0, limit=60)
        loop = asyncio.get_running_loop()
        first = loop.create_task(scheduler.action_for("slow", 1, decision("slow 1")))
        await until(lambda: work.started() == ["slow 1"])
        later = [loop.create_task(scheduler.action_for("slow", n, decision(f"slow {n}"))) for n in (2, 3)]
        quick = loop.create_task(scheduler.action_for("quick", 1, decision("quick")))
        await until(lambda: scheduler.health().queued == 3)
        work.gate("quick").set()
        for n in (1, 2, 3):
            work.gate(f"slow {n}").set()
        assert await asyncio.gather(first, quick, *later) == [7, 7, 7, 7]
        # first come, first served would have run "slow 2" and "slow 3" before "quick"
        assert work.started() == ["slow 1", "quick", "slow 2", "slow 3"]
        await scheduler.close()

    run(test)


def test_decisions_no_longer_wanted_leave_the_queue_and_a_running_one_stops(work: Decisions) -> None:
    async def test() -> None:
        scheduler = BotScheduler(0, limit=60)
        loop = asyncio.get_running_loop()
        running = loop.create_task(scheduler.action_for("a", (5, 0, "x"), decision("a at 5")))
        await until(lambda: work.started() == ["a at 5"])
        queued = loop.create_task(scheduler.action_for("b", (9, 1, "y"), decision("b at 9")))
        await until(lambda: scheduler.health().queued == 1)
        scheduler.keep_only("b", (9, 1, "y"))  # still wanted: nothing happens
        scheduler.keep_only("a", (5, 0, "x"))
        assert not running.done() and not queued.done()
        scheduler.keep_only("b", None)  # e.g. the seat was taken back
        with pytest.raises(Cancelled):
            await queued
        scheduler.keep_only("a", (6, 1, "x"))  # e.g. an undo: version 5 is stale
        with pytest.raises(Cancelled):
            await running
        await until(lambda: scheduler.health().busy == 0)
        assert ("stopped", "a at 5") in work.events and "b at 9" not in work.started()
        health = scheduler.health()
        assert (health.decisions, health.interrupted, health.queued) == (1, 1, 0)
        await scheduler.close()

    run(test)


def test_a_decision_is_cut_at_the_limit_and_plays_its_best_move_so_far(work: Decisions) -> None:
    async def test() -> None:
        scheduler = BotScheduler(0, limit=0.05)
        assert await scheduler.action_for("a", 1, decision("endless")) == 7
        assert work.events == [("start", "endless"), ("stopped", "endless")]
        assert scheduler.health().interrupted == 1
        await scheduler.close()

    run(test)


def test_failed_decisions_are_tried_again_and_health_says_so_meanwhile(work: Decisions,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("obelisk.server.scheduler.RETRY_FIRST", 0.01)

    async def test() -> None:
        scheduler = BotScheduler(0, limit=60)
        work.failures["flaky"] = 2
        gate = work.gate("flaky")
        task = asyncio.get_running_loop().create_task(scheduler.action_for("a", 1, decision("flaky")))
        await until(lambda: work.events.count(("failed", "flaky")) == 2)
        health = scheduler.health()
        assert not health.ok and health.failures == 2
        assert health.reason is not None and "RuntimeError: flaky failed" in health.reason
        gate.set()
        assert await task == 7
        health = scheduler.health()
        assert health.ok and health.reason is None and (health.decisions, health.failures) == (1, 2)
        assert health.as_dict() == {"status": "ok", "bots": {
            "workers": 1, "busy": 0, "queued": 0, "decisions": 1, "interrupted": 0, "failures": 2, "restarts": 0}}
        await scheduler.close()

    run(test)


def test_a_closed_scheduler_decides_nothing(work: Decisions) -> None:
    async def test() -> None:
        scheduler = BotScheduler(0, limit=60)
        task = asyncio.get_running_loop().create_task(scheduler.action_for("a", 1, decision("never")))
        await until(lambda: work.started() == ["never"])
        await scheduler.close()
        with pytest.raises(Cancelled):
            await task
        with pytest.raises(Cancelled):
            await scheduler.action_for("a", 2, decision("after"))
        assert not scheduler.health().ok and scheduler.health().reason == "the server is stopping"

    run(test)


def test_a_search_stops_when_asked_and_plays_a_legal_move() -> None:
    game = obelisk.load("solomon", 2)
    state = game.new_initial_state(3)
    while state.is_chance_node():
        state.apply_action(state.sample_chance())
    asked = Decision("solomon", 2, {}, 3, tuple(state.history()), "ismcts:1000", state.current_player(), 1)
    action, interrupted = bot_action(asked, lambda: True)
    assert interrupted and action in state.legal_actions()
    action, interrupted = bot_action(Decision("solomon", 2, {}, 3, tuple(state.history()), "greedy",
                                          state.current_player(), 1), lambda: True)
    assert not interrupted and action in state.legal_actions()
