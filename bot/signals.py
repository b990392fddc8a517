"""Signals between the processes that share one database.

A process keeps a few things in memory to spare the database a trip: its deadlines'
timers, which members have a notice waiting, when each turn notice falls due, each
server's settings, what each table message shows. When another process changes one of
those in the shared database, this process must hear of it. On PostgreSQL the database
itself tells every process (``LISTEN``/``NOTIFY``, sent by triggers in the same
transaction as the change, so a signal arrives only for a change that was committed); on
SQLite there is only ever one process, and nothing is sent.

A signal is a topic and a short text payload. Nothing secret travels in one: table and
member ids, a deadline's time, a settings change, the fingerprint of a public message.

When the connection that listens is lost, signals sent meanwhile are lost with it: the
router then asks every part to :meth:`SignalRouter.resync`, that is to read again from
the database what it keeps in memory.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

SignalHandler = Callable[[str], None]
"""Called with a signal's payload; must not block (it runs in the listener's callback)."""

Resync = Callable[[], Awaitable[None]]

DEADLINE = "deadline"
"""``table_id ply due_at guild_id`` when a deadline is set or moved, ``table_id`` when
it is cleared (sent by a trigger on the deadlines table)."""
NOTICE = "notice"
"""``user_id table_id``: a private notice waits for a member (a trigger)."""
TURN_NOTICE = "turnnotice"
"""``notice_id due_at guild_id``: a turn notice is to be posted at ``due_at`` (a trigger, as
it is written or its wait moves); each process arms it, the one running the server's shard
on time, the others a takeover later (bot/service/notices.py)."""
TERMS = "terms"
"""``guild_id``: a server's settings changed (a trigger)."""
PANEL = "panel"
"""``table_id user_id closed``: a player's DMs were found closed (1) or open (0) at a
table, or their panel was dropped (0) (a trigger)."""
LANGUAGE = "language"
"""``guild_id``: a server's language was chosen or dropped (/config language; a trigger)."""
EVENT = "event"
"""``event_id due_at``: an event has something due (a trigger): every process arms it, the
first to claim the event advances it (bot/service/events.py)."""
SHOWN = "shown"
"""``table_id live fingerprint picture``: what a table message now shows (sent by the
process that edited it)."""


class SignalRouter:
    """Hands each signal to the parts that keep the matching memory."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[SignalHandler]] = {}
        self._resyncs: list[Resync] = []
        self.received = 0

    def on(self, topic: str, handler: SignalHandler) -> None:
        self._handlers.setdefault(topic, []).append(handler)

    def on_resync(self, resync: Resync) -> None:
        self._resyncs.append(resync)

    def dispatch(self, message: str) -> None:
        """One raw signal, ``topic payload``. A malformed one is logged and dropped: the
        worst it can cost is a memory read again later, never an outcome."""
        topic, _, payload = message.partition(" ")
        handlers = self._handlers.get(topic)
        if not handlers:
            return
        self.received += 1
        for handler in handlers:
            try:
                handler(payload)
            except Exception:
                log.exception("signal %s could not be applied", topic)

    async def resync(self) -> None:
        """Every part reads again what it keeps in memory (the listener was reconnected)."""
        results = await asyncio.gather(
            *(resync() for resync in self._resyncs), return_exceptions=True
        )
        for result in results:
            if isinstance(result, BaseException):
                log.error("a resync after reconnecting failed", exc_info=result)
