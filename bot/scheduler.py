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
        self._loop_task: asyncio.Task[None] | None = None
        self._sleeper: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._firing: asyncio.Task[None] | None = None
        self.fired = 0

    def __len__(self) -> int:
        return len(self._current)

    def due_at(self, key: int) -> float | None:
        entry = self._current.get(key)
        return entry.due_at if entry else None

    def schedule(self, key: int, due_at: float, token: int) -> None:
        """Arm (or move) the deadline of `key`; `token` comes back to the callback."""
        entry = _Entry(due_at, next(self._order), key, token)
        self._current[key] = entry
        heapq.heappush(self._heap, entry)
        if self._heap[0] is entry:
            self._interrupt()

    def cancel(self, key: int) -> None:
        # The heap entry stays and is skipped when popped; removing it would cost O(n).
        self._current.pop(key, None)
        if len(self._heap) > 64 and len(self._heap) > 4 * len(self._current):
            self._heap = [entry for entry in self._heap if self._current.get(entry.key) is entry]
            heapq.heapify(self._heap)

    def start(self) -> None:
        if self._loop_task is None or self._loop_task.done():
            self._loop_task = asyncio.create_task(self._run(), name="tanzaku-scheduler")

    async def stop(self) -> None:
        """Stop waiting; a deadline being applied right now is finished first."""
        task, self._loop_task = self._loop_task, None
        if self._sleeper is not None:
            self._sleeper.cancel()
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        if self._firing is not None:
            await asyncio.gather(self._firing, return_exceptions=True)

    def _interrupt(self) -> None:
        self._wake.set()
        if self._sleeper is not None and not self._sleeper.done():
            self._sleeper.cancel()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            entry = self._next_live()
            if entry is None:
                await self._wake.wait()
                continue
            delay = entry.due_at - self._clock()
            if delay > 0:
                self._sleeper = asyncio.create_task(asyncio.sleep(delay))
                # A cancelled sleeper means an earlier deadline arrived: look again.
                await asyncio.wait({self._sleeper})
                self._sleeper = None
                continue
            heapq.heappop(self._heap)
            del self._current[entry.key]
            self.fired += 1
            # Shielded so that stopping the loop (SIGTERM) lets the action finish.
            self._firing = asyncio.create_task(self._fire_logged(entry))
            await asyncio.shield(self._firing)
            self._firing = None

    async def _fire_logged(self, entry: _Entry) -> None:
        try:
            await self._fire(entry.key, entry.token)
        except Exception:
            log.exception("deadline of %s failed", entry.key)

    def _next_live(self) -> _Entry | None:
        while self._heap:
            entry = self._heap[0]
            if self._current.get(entry.key) is entry:
                return entry
            heapq.heappop(self._heap)
        return None
