"""Deadlines: one timer loop over a heap, woken early when an earlier deadline arrives.

Deadlines live in the database (the table service writes them in the same transaction
as the action that set them); this loop only mirrors them in memory. At start the bot
re-arms every stored deadline, and an overdue one fires at once. A single sleeping task
is kept however many tables are live: a task per deadline would not scale, and in tests
every pending sleep slows the simulated Discord down.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.clock import Clock, discord_clock

log = logging.getLogger(__name__)


@dataclass(order=True, slots=True)
class _Entry:
    due_at: float
    order: int
    key: int = field(compare=False)
    token: int = field(compare=False)


FireCallback = Callable[[int, int], Awaitable[None]]
"""Called with (key, token) when a deadline falls due."""


class Scheduler:
    def __init__(self, fire: FireCallback, *, clock: Clock = discord_clock) -> None:
        self._fire = fire
        self._clock = clock
        self._heap: list[_Entry] = []
        self._current: dict[int, _Entry] = {}
        self._order = itertools.count()
        self._task: asyncio.Task[None] | None = None
        self._running = False
        self._firing = False
        self.fired = 0

    def __len__(self) -> int:
        return len(self._current)

    def due_at(self, key: int) -> float | None:
        entry = self._current.get(key)
        return entry.due_at if entry else None

    def schedule(self, key: int, due_at: float, token: int) -> None:
        """Arm (or move) the deadline of `key`; `token` comes back to the callback."""
        current = self._current.get(key)
        if current is not None and current.due_at == due_at and current.token == token:
            return
        entry = _Entry(due_at, next(self._order), key, token)
        self._current[key] = entry
        heapq.heappush(self._heap, entry)
        if self._heap[0] is entry:
            self._wake()
        self._compact()

    def cancel(self, key: int) -> None:
        # The heap entry stays and is skipped when popped; removing it would cost O(n).
        self._current.pop(key, None)
        self._compact()

    def _compact(self) -> None:
        """Drop superseded heap entries once they outnumber the live ones."""
        if len(self._heap) > 64 and len(self._heap) > 2 * len(self._current):
            self._heap = [entry for entry in self._heap if self._current.get(entry.key) is entry]
            heapq.heapify(self._heap)

    def start(self) -> None:
        self._running = True
        self._wake()

    async def stop(self) -> None:
        """Stop waiting; a deadline being applied right now is finished first."""
        self._running = False
        task, self._task = self._task, None
        if task is None:
            return
        if not self._firing:
            task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    def _wake(self) -> None:
        """(Re)start the loop so it sleeps until the earliest deadline.

        The loop only ever waits in `asyncio.sleep`, and exits when nothing is armed: an
        idle bot holds no pending wait, and a virtual clock can drive every timer.
        """
        if not self._running:
            return
        if self._task is not None and not self._task.done():
            if self._firing:
                return  # it looks at the heap again as soon as this deadline is applied
            self._task.cancel()
        self._task = asyncio.create_task(self._run(), name="tanzaku-scheduler")

    async def _run(self) -> None:
        while self._running:
            entry = self._next_live()
            if entry is None:
                return
            delay = entry.due_at - self._clock()
            if delay > 0:
                await asyncio.sleep(delay)
                continue
            heapq.heappop(self._heap)
            del self._current[entry.key]
            self.fired += 1
            self._firing = True
            try:
                await self._fire(entry.key, entry.token)
            except Exception:
                log.exception("deadline of %s failed", entry.key)
            finally:
                self._firing = False

    def _next_live(self) -> _Entry | None:
        while self._heap:
            entry = self._heap[0]
            if self._current.get(entry.key) is entry:
                return entry
            heapq.heappop(self._heap)
        return None
