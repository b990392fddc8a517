"""Turn notices and member-to-member pings, kept in the database (:mod:`bot.storage.notify`).

What the Discord layer (``cogs/_ui/notify.py``) decides is kept here, so that every
process sharing the database sees the same notices: a notice is deleted by whichever
process sees it has served, and only by one (each row is taken by one ``DELETE …
RETURNING``), and it is posted once (a due row is claimed before it is posted). Each
notice's posting time is a keyed deadline on its own :class:`~bot.scheduler.Scheduler`,
armed from the database when the bot starts, so the wait survives a restart and tests
drive it with the virtual clock.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.clock import Clock, discord_clock
from bot.games.common import is_computer
from bot.safe_log import log_failure
from bot.scheduler import Scheduler
from bot.signals import TURN_NOTICE, SignalRouter
from bot.storage import Database, Transaction
from bot.storage import notify as nq
from bot.storage.notify import POSTING, TurnNotice

if TYPE_CHECKING:
    from bot.service.snapshots import TableSnapshot

__all__ = ["POSTING", "NoticeChanges", "TurnNotice", "TurnNotices"]

log = logging.getLogger(__name__)

OFF = "off"
"""The stored /notify mode of a member who is never told."""


@dataclass
class NoticeChanges:
    """What an outcome changed in its table's notices (saved, not yet acted on)."""

    gone: list[TurnNotice] = field(default_factory=list)
    added: list[TurnNotice] = field(default_factory=list)


WaitingOf = Callable[["TableSnapshot[Any, Any]"], "Sequence[int] | None"]
"""Whom a table waits for and may be told so (``None``: turn notices are off)."""


class TurnNotices:
    """The stored notices of every table, and the timer that posts each when it is due."""

    def __init__(
        self,
        db: Database,
        signals: SignalRouter,
        *,
        clock: Clock = discord_clock,
        owns_guild: Callable[[int], bool] = lambda _guild_id: True,
        takeover_seconds: float = 10.0,
    ) -> None:
        self._db = db
        self._clock = clock
        self._owns_guild = owns_guild
        self._takeover_seconds = takeover_seconds
        self.on_due: Callable[[int], Awaitable[None]] | None = None
        """Called with a notice's id when it falls due (the Discord layer posts it)."""
        self.on_start: Callable[[list[TurnNotice]], Awaitable[None]] | None = None
        self.waiting_of: WaitingOf | None = None
        """Set by the Discord layer: whom a table waits for (and may be told), so that a
        member's action updates its table's notices in its own transaction (:meth:`within`)."""
        self.default_wait = 0
        self._gone: dict[int, list[TurnNotice]] = {}
        """The wait of a member who did not choose one (/notify wait), set with
        :attr:`waiting_of`."""
        self.scheduler = Scheduler(self._fire, clock=clock)
        signals.on(TURN_NOTICE, self._on_signal)
        signals.on_resync(self._resync)

    async def start(self) -> int:
        """Arm every stored notice (the bot's start, once the cogs are loaded); returns
        how many are stored. :attr:`on_start` is handed them all (to take back those of
        tables that ended meanwhile)."""
        self.scheduler.start()
        notices = await self.rearm()
        if self.on_start is not None:
            await self.on_start(notices)
        return len(notices)

    async def stop(self) -> None:
        await self.scheduler.stop()

    async def _fire(self, notice_id: int, _token: int) -> None:
        if self.on_due is not None:
            await self.on_due(notice_id)

    def arm(self, notice: TurnNotice) -> None:
        if notice.message_id is not None:
            return
        due_at = notice.due_at
        if not self._owns_guild(notice.guild_id):
            due_at += self._takeover_seconds
        self.scheduler.schedule(notice.id, due_at, 0)

    def _on_signal(self, payload: str) -> None:
        notice_id, due_at, guild_id = payload.split()
        self.arm(TurnNotice(int(notice_id), 0, 0, int(guild_id), float(due_at), None, None))

    async def _resync(self) -> None:
        await self.rearm()

    async def rearm(self) -> list[TurnNotice]:
        """Arm every stored notice not posted yet (an overdue one fires at once); returns
        every stored notice, for the caller to take back those of ended tables."""
        async with self._db.reading() as tx:
            notices = await nq.all_turn_notices(tx)
        for notice in notices:
            self.arm(notice)
        return notices

    # -- what the Discord layer asks -------------------------------------------------------

    async def preferences(self, guild_id: int, user_id: int) -> tuple[str | None, int | None]:
        async with self._db.reading() as tx:
            return await nq.notify_pref(tx, guild_id, user_id)

    async def set_wait(self, guild_id: int, user_id: int, seconds: int, default_mode: str) -> None:
        async with self._db.transaction() as tx:
            await nq.set_notify_wait(tx, guild_id, user_id, seconds, default_mode)

    async def update(
        self,
        table_id: int,
        guild_id: int,
        waiting: Sequence[int],
        present: Iterable[int],
        default_wait: int,
    ) -> list[TurnNotice]:
        """After an outcome: the notices of members no longer waited on, or ``present``
        (they acted), go; a member waited on without a notice gets one, due once their
        wait (/notify wait, else ``default_wait``) has passed from now, unless they
        switched notices off. Returns the notices taken back (their messages to delete).

        Most outcomes change nothing here (nobody waited on, or the same members as
        before): those cost one read, no write. A member's action does this inside its
        own transaction instead (:meth:`within`)."""
        present = set(present)
        async with self._db.reading() as tx:
            stored = await nq.turn_notices_of(tx, table_id)
        if not _changes(stored, waiting, present):
            return []
        async with self._db.transaction() as tx:
            changed = await self._apply(tx, table_id, guild_id, waiting, present, default_wait)
        return self.settled(changed)

    async def within(
        self, tx: Transaction, snapshot: TableSnapshot[Any, Any], actor: int | None
    ) -> NoticeChanges | None:
        """:meth:`update` for an outcome, inside the transaction that saves it (one commit
        for the action and its notices); ``None`` when the Discord layer has not said whom
        a table waits for (:attr:`waiting_of`: then the outcome's notices are updated
        after it, by :meth:`update`). Call :meth:`settled` once ``tx`` has committed."""
        waiting_of = self.waiting_of
        if waiting_of is None:
            return None
        try:
            waiting = waiting_of(snapshot)
        except Exception as error:
            # Whom a table waits for is the UI's to say; its failure must not cost the
            # action. The notices are then updated after it, as before.
            log_failure(log, "table %s: whom it waits for is unknown", snapshot.id, error=error)
            return None
        if waiting is None:
            return NoticeChanges()  # notices are off
        present = {actor} if actor is not None and not is_computer(actor) else set()
        stored = await nq.turn_notices_of(tx, snapshot.id)
        if not _changes(stored, waiting, present):
            return NoticeChanges()
        return await self._apply(
            tx, snapshot.id, snapshot.row.guild_id, waiting, present, self.default_wait, stored
        )

    def settled(self, changed: NoticeChanges, table_id: int | None = None) -> list[TurnNotice]:
        """The notices' deadlines follow a committed change; returns the notices taken back
        (their messages to delete). With ``table_id`` (an action's own transaction), they
        are also kept for :meth:`take_gone`: a click that makes two actions (set aside,
        then roll) answers with the second's outcome only, and the first's must not be
        lost."""
        for notice in changed.gone:
            self.scheduler.cancel(notice.id)
        for notice in changed.added:
            self.arm(notice)
        if table_id is not None and changed.gone:
            self._gone.setdefault(table_id, []).extend(changed.gone)
        return list(changed.gone)

    def take_gone(self, table_id: int) -> list[TurnNotice]:
        """The notices the table's actions took back in their own transactions since the
        last call (their messages to delete, once)."""
        return self._gone.pop(table_id, [])

    async def _apply(
        self,
        tx: Transaction,
        table_id: int,
        guild_id: int,
        waiting: Sequence[int],
        present: set[int],
        default_wait: int,
        stored: list[TurnNotice] | None = None,
    ) -> NoticeChanges:
        if stored is None:
            stored = await nq.turn_notices_of(tx, table_id)
        has = {notice.user_id for notice in stored}
        changed = NoticeChanges()
        for notice in stored:
            if notice.user_id in waiting and notice.user_id not in present:
                continue
            dropped = await nq.drop_turn_notice(tx, notice.id)
            if dropped is not None:
                changed.gone.append(dropped)
        now = self._clock()
        for member in waiting:
            if member in has and member not in present:
                continue
            mode, wait = await nq.notify_pref(tx, guild_id, member)
            if mode == OFF:
                continue
            due_at = now + (default_wait if wait is None else wait)
            new = await nq.add_turn_notice(tx, table_id, member, guild_id, due_at)
            if new is not None:
                changed.added.append(new)
        return changed

    async def drop_table(self, table_id: int) -> list[TurnNotice]:
        """A table that ended: every notice of it goes (returned to the one caller that
        took it)."""
        async with self._db.transaction() as tx:
            gone = await nq.drop_table_notices(tx, table_id)
        for notice in gone:
            self.scheduler.cancel(notice.id)
        return gone

    async def seen(self, table_id: int, user_id: int, default_wait: int) -> TurnNotice | None:
        """A member clicked at the table: their notice, not posted yet, waits their wait
        from now; one posted is taken back (returned)."""
        async with self._db.reading() as tx:
            current = await _notice_of(tx, table_id, user_id)
        if current is None:
            return None  # the common case: nobody waits on them here, nothing to write
        async with self._db.transaction() as tx:
            _mode, wait = await nq.notify_pref(tx, current.guild_id, user_id)
            due_at = self._clock() + (default_wait if wait is None else wait)
            gone = await nq.postpone_turn_notice(tx, table_id, user_id, due_at)
            moved = None if gone is not None else await _notice_of(tx, table_id, user_id)
        if gone is not None:
            self.scheduler.cancel(gone.id)
        elif moved is not None:
            self.arm(moved)
        return gone

    async def claim(self, notice_id: int) -> TurnNotice | None:
        """The due notice to post now, taken so that no other process posts it."""
        async with self._db.transaction() as tx:
            notice = await nq.claim_turn_notice(tx, notice_id, self._clock())
            if notice is None:
                still = await nq.turn_notice(tx, notice_id)
        if notice is None and still is not None and still.message_id is None:
            self.arm(still)  # moved later meanwhile (the member was seen)
        return notice

    async def posted(self, notice_id: int, channel_id: int, message_id: int) -> bool:
        async with self._db.transaction() as tx:
            return await nq.posted_turn_notice(tx, notice_id, channel_id, message_id)

    async def drop(self, notice_id: int) -> TurnNotice | None:
        async with self._db.transaction() as tx:
            return await nq.drop_turn_notice(tx, notice_id)

    async def take_member_ping(self, guild_id: int, from_id: int, to_id: int, every: float) -> bool:
        """Whether ``from_id`` may ping ``to_id`` now (recorded if so): one ping a pair
        every ``every`` seconds."""
        async with self._db.transaction() as tx:
            return await nq.take_member_ping(tx, guild_id, from_id, to_id, self._clock(), every)


def _changes(stored: Sequence[TurnNotice], waiting: Sequence[int], present: set[int]) -> bool:
    """Whether an outcome changes the stored notices of its table."""
    has = {notice.user_id for notice in stored}
    return any(n.user_id not in waiting or n.user_id in present for n in stored) or any(
        m not in has or m in present for m in waiting
    )


async def _notice_of(tx: Transaction, table_id: int, user_id: int) -> TurnNotice | None:
    for notice in await nq.turn_notices_of(tx, table_id):
        if notice.user_id == user_id:
            return notice
    return None
