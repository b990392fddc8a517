"""The deadline loop, driven by a fake clock.

Deadlines are set far in the fake future (1000 s) so the loop's real `asyncio.sleep` never
ends by itself during a test: a deadline fires only because the test moved the clock and
made the loop look again (`schedule` of an earlier deadline, or `start`). The one-second
timeouts below only stop a broken scheduler from hanging the suite.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.scheduler import Scheduler
from tests.platform._helpers import FakeClock

FAR = 1000.0
GUARD = 1.0  # seconds a broken scheduler may hang before the test gives up


class Recorder:
    def __init__(self) -> None:
        self.fired: list[tuple[int, int]] = []
        self.changed = asyncio.Event()

    async def __call__(self, key: int, token: int) -> None:
        self.fired.append((key, token))
        self.changed.set()

    async def wait_for(self, count: int) -> None:
        async def enough() -> None:
            while len(self.fired) < count:
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(enough(), GUARD)


async def settle() -> None:
    """Let every ready task run until the loop is quiet (the scheduler is asleep or done)."""
    for _ in range(20):
        await asyncio.sleep(0)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(10_000.0)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
async def scheduler(clock: FakeClock, recorder: Recorder) -> AsyncIterator[Scheduler]:
    made = Scheduler(recorder, clock=clock)
    yield made
    await asyncio.wait_for(made.stop(), GUARD)


async def test_fires_in_due_order(
    scheduler: Scheduler, clock: FakeClock, recorder: Recorder
) -> None:
    for key, offset in ((1, 30.0), (2, 10.0), (3, 20.0), (4, 10.0)):
        scheduler.schedule(key, clock.now + FAR + offset, token=key * 10)
    scheduler.start()
    await settle()
    assert recorder.fired == []
    assert len(scheduler) == 4

    clock.advance(FAR + 25)
    scheduler.start()  # look again: 2, 4 and 3 are due, 1 is not
    await recorder.wait_for(3)
    await settle()
    assert recorder.fired == [(2, 20), (4, 40), (3, 30)]  # equal times: first scheduled first
    assert len(scheduler) == 1

    clock.advance(10)
    scheduler.start()
    await recorder.wait_for(4)
    assert recorder.fired[-1] == (1, 10)
    assert scheduler.fired == 4


async def test_an_earlier_deadline_added_later_wakes_the_loop(
    scheduler: Scheduler, clock: FakeClock, recorder: Recorder
) -> None:
    scheduler.schedule(1, clock.now + FAR, token=1)
    scheduler.start()
    await settle()  # the loop is now asleep until the far deadline
    scheduler.schedule(2, clock.now, token=2)  # due now: only an early wake-up fires it
    await recorder.wait_for(1)
    await settle()
    assert recorder.fired == [(2, 2)]
    assert scheduler.due_at(1) == clock.now + FAR


async def test_rescheduling_a_key_replaces_its_deadline(
    scheduler: Scheduler, clock: FakeClock, recorder: Recorder
) -> None:
    scheduler.schedule(7, clock.now - 5, token=1)  # overdue...
    scheduler.schedule(7, clock.now + FAR, token=2)  # ...but moved to later before start
    assert len(scheduler) == 1
    assert scheduler.due_at(7) == clock.now + FAR
    scheduler.start()
    await settle()
    assert recorder.fired == []

    scheduler.schedule(7, clock.now, token=3)  # moved earlier: fires now, with its new token
    await recorder.wait_for(1)
    clock.advance(2 * FAR)
    scheduler.start()  # the replaced deadlines are long past, and must not fire
    await settle()
    assert recorder.fired == [(7, 3)]
    assert len(scheduler) == 0


async def test_cancel_prevents_firing(
    scheduler: Scheduler, clock: FakeClock, recorder: Recorder
) -> None:
    scheduler.schedule(1, clock.now - 1, token=1)
    scheduler.schedule(2, clock.now + FAR, token=2)
    scheduler.schedule(3, clock.now + FAR, token=3)
    scheduler.cancel(1)  # before start
    scheduler.start()
    await settle()
    scheduler.cancel(2)  # while the loop sleeps
    scheduler.cancel(99)  # unknown keys are fine
    assert (scheduler.due_at(1), scheduler.due_at(2), len(scheduler)) == (None, None, 1)
    clock.advance(2 * FAR)
    scheduler.start()
    await recorder.wait_for(1)
    await settle()
    assert recorder.fired == [(3, 3)]


async def test_many_cancelled_deadlines_are_skipped(
    scheduler: Scheduler, clock: FakeClock, recorder: Recorder
) -> None:
    for key in range(200):
        scheduler.schedule(key, clock.now + FAR + (key * 7919) % 200, token=key)
    for key in range(200):
        if key % 20:
            scheduler.cancel(key)
    kept = sorted(range(0, 200, 20), key=lambda key: (key * 7919) % 200)
    assert len(scheduler) == len(kept)
    clock.advance(3 * FAR)
    scheduler.start()
    await recorder.wait_for(len(kept))
    await settle()
    assert [key for key, _ in recorder.fired] == kept


async def test_an_overdue_deadline_fires_at_once_after_start(
    scheduler: Scheduler, clock: FakeClock, recorder: Recorder
) -> None:
    scheduler.schedule(5, clock.now - 3600, token=9)
    await settle()
    assert recorder.fired == []  # nothing runs before start()
    scheduler.start()
    await recorder.wait_for(1)
    assert recorder.fired == [(5, 9)]
    assert len(scheduler) == 0


async def test_a_failing_callback_does_not_stop_the_loop(clock: FakeClock) -> None:
    seen: list[int] = []
    done = asyncio.Event()

    async def fire(key: int, token: int) -> None:
        seen.append(key)
        if key == 1:
            raise RuntimeError("boom")
        done.set()

    scheduler = Scheduler(fire, clock=clock)
    scheduler.schedule(1, clock.now - 2, token=0)
    scheduler.schedule(2, clock.now - 1, token=0)
    scheduler.start()
    try:
        await asyncio.wait_for(done.wait(), GUARD)
    finally:
        await asyncio.wait_for(scheduler.stop(), GUARD)
    assert seen == [1, 2]


async def test_a_callback_can_schedule_the_next_deadline(clock: FakeClock) -> None:
    """The table service re-arms a table's deadline from inside the deadline it is firing."""
    seen: list[int] = []
    done = asyncio.Event()
    scheduler: Scheduler

    async def fire(key: int, token: int) -> None:
        seen.append(token)
        if token < 3:
            scheduler.schedule(key, clock.now, token + 1)
        else:
            done.set()

    scheduler = Scheduler(fire, clock=clock)
    scheduler.schedule(1, clock.now, token=1)
    scheduler.start()
    try:
        await asyncio.wait_for(done.wait(), GUARD)
    finally:
        await asyncio.wait_for(scheduler.stop(), GUARD)
    assert seen == [1, 2, 3]


# -- stopping -----------------------------------------------------------------------------


async def test_stop_while_idle_returns(scheduler: Scheduler, clock: FakeClock) -> None:
    await asyncio.wait_for(scheduler.stop(), GUARD)  # never started
    scheduler.start()
    await settle()  # nothing armed: the loop has exited
    await asyncio.wait_for(scheduler.stop(), GUARD)


async def test_stop_while_sleeping_returns_and_nothing_fires(
    scheduler: Scheduler, clock: FakeClock, recorder: Recorder
) -> None:
    scheduler.schedule(1, clock.now + FAR, token=1)
    scheduler.start()
    await settle()
    await asyncio.wait_for(scheduler.stop(), GUARD)
    # Stopped: a deadline that falls due, or a new one, does not start the loop again.
    clock.advance(2 * FAR)
    scheduler.schedule(2, clock.now - 1, token=2)
    await settle()
    assert recorder.fired == []
    # Starting again picks everything up.
    scheduler.start()
    await recorder.wait_for(2)
    assert sorted(recorder.fired) == [(1, 1), (2, 2)]


async def test_stop_lets_the_deadline_being_fired_complete(clock: FakeClock) -> None:
    entered = asyncio.Event()
    release = asyncio.Event()
    finished: list[int] = []
    cancelled: list[int] = []

    async def fire(key: int, token: int) -> None:
        entered.set()
        try:
            await release.wait()
        except asyncio.CancelledError:
            cancelled.append(key)
            raise
        finished.append(key)

    scheduler = Scheduler(fire, clock=clock)
    scheduler.schedule(1, clock.now, token=0)
    scheduler.schedule(2, clock.now, token=0)
    scheduler.start()
    await asyncio.wait_for(entered.wait(), GUARD)

    stopping = asyncio.create_task(scheduler.stop())
    await settle()
    assert not stopping.done(), "stop() returned while a deadline was half applied"
    release.set()
    await asyncio.wait_for(stopping, GUARD)
    assert finished == [1]  # the one in flight completed; the next one waits for a restart
    assert cancelled == []
    assert scheduler.due_at(2) == clock.now
