"""Deadlines: re-arming them at start, and what the table does when one falls due.

A due lobby expires (every stake back); a due game deadline acts as the table
(:class:`Deadline`). On a database shared by several processes every process may try the
same deadline: the first to claim the table's row (``FOR UPDATE SKIP LOCKED``) fires it,
the ply stored with the deadline makes any later try a no-op, and a try that finds the
table held looks again shortly (:class:`DeadlineBusy`). A game that cannot take its own
timeout is ended (what was settled stands, the rest goes back) rather than left waiting
forever with coins held. A deadline that fails for a reason outside the game (the
database, say) tries again later.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.games.common import Deadline
from bot.meter import NO_METER, Meter
from bot.safe_log import log_failure
from bot.service.acting import Play
from bot.service.lifecycle import Lifecycle
from bot.service.snapshots import Outcome, tell_listeners
from bot.service.steps import Steps
from bot.service.terms import LOBBY_DEADLINE, LogKind
from bot.storage import Database, Transaction
from bot.storage import table_queries as tq
from bot.storage.table_queries import TableStatus

log = logging.getLogger(__name__)

DEADLINE_RETRY_SECONDS = 60
"""A deadline that failed for a reason outside the game (the database, say) tries again."""

BUSY_RETRY_SECONDS = 2.0
"""How soon a deadline whose table another process held is looked at again (by then that
process has usually fired it, and its signal has moved or cleared this timer)."""


class DeadlineBusy(Exception):
    """Another process holds the table (it may be firing this very deadline)."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} is held by another process")
        self.table_id = table_id


FireDeadline = Callable[[int, int], Awaitable[Outcome | None]]
DeadlineListener = Callable[[Outcome], Any]


class Deadlines:
    def __init__(
        self,
        db: Database,
        steps: Steps,
        lifecycle: Lifecycle,
        play: Play,
        *,
        fire: FireDeadline,
        listeners: list[DeadlineListener],
        meter: Meter = NO_METER,
    ) -> None:
        self._meter = meter
        self._db = db
        self._steps = steps
        self._lifecycle = lifecycle
        self._play = play
        self._fire = fire
        """The facade's ``fire_deadline``: the lock and the transaction around
        :meth:`fire_locked`."""
        self._listeners = listeners

    async def rearm(self, pending_notices: set[tuple[int, int]]) -> int:
        """Load every stored deadline into the scheduler (at start); returns how many."""
        steps = self._steps
        async with self._db.reading() as tx:
            rows = await tq.all_deadlines(tx)
            # One query now spares every live table's first click a look-up of its own.
            steps.games.update(await tq.live_games(tx))
            pending_notices.update(await tq.notice_keys(tx))
        for deadline, guild_id in rows:
            steps.arm(deadline.table_id, guild_id, deadline.due_at, deadline.ply)
        steps.scheduler.start()
        return len(rows)

    async def on_deadline(self, table_id: int, ply: int) -> None:
        """The scheduler's callback: fire, retry on failure, tell the listeners."""
        try:
            outcome = await self._fire(table_id, ply)
        except DeadlineBusy:
            # Not an error: look again shortly, in case that process dies holding it.
            self._steps.scheduler.schedule(table_id, self._steps.clock() + BUSY_RETRY_SECONDS, ply)
            return
        except Exception as error:
            # Nothing was saved; try again later rather than leave the table waiting
            # forever with coins held.
            log_failure(
                log,
                "deadline of table %s failed; retrying in %d s",
                table_id,
                DEADLINE_RETRY_SECONDS,
                error=error,
            )
            retry_at = self._steps.clock() + DEADLINE_RETRY_SECONDS
            self._steps.scheduler.schedule(table_id, retry_at, ply)
            return
        if outcome is not None:
            await tell_listeners(self._listeners, outcome)

    async def fire_locked(self, tx: Transaction, table_id: int, ply: int) -> Outcome | None:
        """Act for the table when its deadline is due; `None` when the deadline went stale
        (a click moved the table on first, or the deadline was moved)."""
        steps = self._steps
        deadline = await tq.deadline(tx, table_id)
        if deadline is None or deadline.ply != ply or deadline.due_at > steps.clock() + 0.001:
            return None
        row = await steps.row(tx, table_id)
        acts = row.status == TableStatus.RUNNING or (
            row.status == TableStatus.LOBBY and deadline.kind == LOBBY_DEADLINE
        )
        if acts:
            # Counted as it acts (a deadline a click overtook acts not, nor is counted);
            # late by the time it waited for its timer, the loop and the table's lock.
            self._meter.deadline_fired(deadline.kind, steps.clock() - deadline.due_at)
        if row.status == TableStatus.LOBBY and deadline.kind == LOBBY_DEADLINE:
            await steps.log(tx, row.id, row.version + 1, None, {"kind": LogKind.EXPIRE}, [], [])
            return await self._lifecycle.refunded(tx, row, "expired", None)
        if row.status != TableStatus.RUNNING:
            await tq.clear_deadline(tx, table_id)
            return None
        # A savepoint, so that a refusal undoes what the attempt wrote (its log row,
        # coin movements) and the table can still be ended in this transaction.
        try:
            async with tx.savepoint("deadline"):
                return await self._play.act_locked(tx, row, None, Deadline(), ply)
        except Exception as error:
            # A game that cannot take its own timeout would wait forever with coins
            # held: end it, with what was settled standing and the rest refunded.
            log_failure(
                log, "table %s could not take its deadline; ending it", table_id, error=error
            )
        await steps.log(tx, row.id, row.version + 1, None, {"kind": LogKind.ABANDON}, [], [])
        row = await steps.bump(tx, row)
        return await self._lifecycle.end_early(tx, row, None)
