"""Keeping a table message showing its table: coalesced edits, pictures uploaded only
when they change, a deleted message posted again, and — with several processes on one
PostgreSQL database — each telling the others what the message now shows.

:class:`MessageSync` knows nothing of games or clicks: the hub that owns it passes in
what a table looks like (``render``) and how to drop what a game keeps for an ended
table (``forget_game``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

import discord

from bot.interactions import update_message
from bot.safe_log import log_failure
from bot.service import TableService, TableSnapshot
from bot.signals import SHOWN
from cogs._ui.primitives import NO_PICTURE, Payload, edit_message

if TYPE_CHECKING:
    from bot.app import TanzakuBot

log = logging.getLogger(__name__)

EDIT_RETRY_DELAYS = (0.5, 1.5, 4.0)
"""Backoff between attempts to edit a table message when Discord fails (5xx)."""


class MessageSync:
    """What every table message shows, kept in step with its table."""

    def __init__(
        self,
        bot: TanzakuBot,
        *,
        render: Callable[[TableSnapshot[Any, Any]], Payload],
        forget_game: Callable[[int, str], None] = lambda table_id, game: None,
    ) -> None:
        self.bot = bot
        self.render = render
        """The table message as the table is now."""
        self.forget_game = forget_game
        """Drop what the table's game keeps for an ended table."""
        # Per live table only: every entry goes when the table ends (:meth:`forget`), so a
        # bot that has run a million tables keeps no more than the live ones.
        self._editing: set[int] = set()
        """Tables whose message a :meth:`refresh` is editing now."""
        self._dirty: set[int] = set()
        """Tables changed again while their refresh was in flight: one more edit follows."""
        self._last_sent: dict[int, str] = {}
        """What each table message shows (its payload's fingerprint): an unchanged edit is
        skipped."""
        self._pictures: dict[int, str] = {}
        """The picture key each table message shows (unknown after a restart)."""
        self._ending: dict[int, str] = {}
        """Ended tables (→ game) to forget once the refresh in flight for them is done."""
        self.edits_sent = 0
        # Several processes on one PostgreSQL database may edit the same table message (a
        # bid by DM arrives on shard 0's process, the server's clicks on its own): each
        # tells the others what the message now shows (`_tell_shown`).
        self._origin = secrets.token_hex(4)
        bot.tables.signals.on(SHOWN, self._on_shown_signal)
        bot.tables.signals.on_resync(self._forget_what_was_shown)

    @property
    def service(self) -> TableService:
        return self.bot.tables

    async def edit_through(
        self,
        interaction: discord.Interaction[Any],
        snapshot: TableSnapshot[Any, Any],
        payload: Payload,
    ) -> None:
        """Edit the table message through a click's own response, its picture only if
        it changed."""
        kwargs = payload.edit_kwargs(self._pictures.get(snapshot.id), ended=not snapshot.row.live)
        await update_message(interaction, **kwargs)
        self._shown(snapshot, payload)

    def edited_meanwhile(self, table_id: int) -> None:
        """The message was just edited outside :meth:`refresh` (a click's own answer): a
        refresh in flight, drawn from an earlier read, may land after it, so it edits once
        more with the table as it then is."""
        if table_id in self._editing:
            self._dirty.add(table_id)

    def forget_shown(self, table_id: int) -> None:
        """What the message shows is in doubt: its next edit is not skipped as unchanged."""
        self._last_sent.pop(table_id, None)

    def _shown(
        self,
        snapshot: TableSnapshot[Any, Any],
        payload: Payload,
        fingerprint: str | None = None,
    ) -> None:
        """Note what the table message now shows, for a live table only: an ended table's
        message is edited again only by a stale click, which then uploads its picture once
        more rather than every ended table being remembered for ever."""
        fingerprint = fingerprint or payload.fingerprint()
        if snapshot.row.live:
            self._last_sent[snapshot.id] = fingerprint
            self._pictures[snapshot.id] = payload.picture_key
        else:
            self._last_sent.pop(snapshot.id, None)
            self._pictures.pop(snapshot.id, None)
        if self.bot.db.shared:
            self.spawn(
                self._tell_shown(snapshot, fingerprint, payload.picture_key),
                f"tanzaku-shown-{snapshot.id}",
            )

    async def _tell_shown(
        self, snapshot: TableSnapshot[Any, Any], fingerprint: str, picture: str
    ) -> None:
        """After an edit landed, on a shared database: tell the other processes what the
        message shows, then make sure it shows the latest state.

        Two processes' edits of one message can land in either order, so the one landing
        last may show an older state. Every process reads the table's version once its
        edit has landed and edits again if it is newer: the edit landing last is then
        always followed by a look, and the message ends on the latest state. The second
        edit is skipped when the newer state looks the same (a changed bid does not show),
        so its timing tells nothing secret.
        """
        live = int(snapshot.row.live)
        try:
            await self.bot.db.publish(
                SHOWN,
                f"{self._origin} {snapshot.id} {live} {snapshot.spec.name} {fingerprint}"
                f" {quote(picture, safe='') or '-'}",
            )
            latest = await self.service.version_of(snapshot.id)
        except Exception as error:
            log_failure(
                log, "table %s: could not tell others what it shows", snapshot.id, error=error
            )
            return
        if latest is not None and latest > snapshot.row.version:
            if snapshot.row.live:
                self._last_sent[snapshot.id] = fingerprint
            await self.refresh(snapshot.id)

    def _on_shown_signal(self, payload: str) -> None:
        """Another process's edit of a table message landed: what it shows is known here
        too (so an edit that would change nothing is skipped by this process as well)."""
        origin, table, live, game, fingerprint, picture = payload.split()
        if origin == self._origin:
            return
        table_id = int(table)
        if live == "0":
            self.forget(table_id, game)
            self.service.forget_ended(table_id)
            return
        self._last_sent[table_id] = fingerprint
        self._pictures[table_id] = NO_PICTURE if picture == "-" else unquote(picture)

    async def _forget_what_was_shown(self) -> None:
        # Signals were lost while reconnecting: the next edit of each table is made whatever
        # this process believed the message showed.
        self._last_sent.clear()
        self._pictures.clear()

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self.bot.background_tasks.add(task)
        task.add_done_callback(self.bot.background_tasks.discard)

    def forget(self, table_id: int, game: str) -> None:
        """Drop everything kept in memory for a table that has ended: the notes of its
        message and what its game keeps (:meth:`forget_game`).

        While a refresh of the table is in flight it may still note an earlier read when
        it lands: it is marked to read the table once more, and forgets it when done."""
        if table_id in self._editing:
            self._dirty.add(table_id)
            self._ending[table_id] = game
            return
        self._last_sent.pop(table_id, None)
        self._pictures.pop(table_id, None)
        self._dirty.discard(table_id)
        self._ending.pop(table_id, None)
        self.forget_game(table_id, game)

    def tables_held(self) -> set[int]:
        """Every table kept something in memory for (live ones, as a rule)."""
        return (
            self._editing
            | self._dirty
            | set(self._last_sent)
            | set(self._pictures)
            | set(self._ending)
        )

    def schedule_refresh(self, table_id: int, *, force: bool = False) -> None:
        """Edit the table message soon; `force` when what Discord shows is in doubt (a
        failed edit), so the edit is not skipped as unchanged."""
        if force:
            self.forget_shown(table_id)
        self.spawn(self.refresh(table_id), f"tanzaku-refresh-{table_id}")

    async def refresh(self, table_id: int) -> None:
        """Edit the table message to show the table as it is now.

        Edits are coalesced: while one edit of a table is in flight, further requests only
        mark it dirty, and one more edit with the then-current state follows. A burst of
        deadlines and private bids thus costs a channel two edits, not one per change.
        """
        if table_id in self._editing:
            self._dirty.add(table_id)
            return
        self._editing.add(table_id)
        ended: str | None = None  # the table's game, once a read found the table ended
        try:
            while True:
                self._dirty.discard(table_id)
                snapshot = await self.service.snapshot(table_id)
                await self._edit(snapshot)
                ended = None if snapshot.row.live else snapshot.spec.name
                if table_id not in self._dirty:
                    break
        except Exception as error:
            log_failure(log, "could not refresh table %s", table_id, error=error)
        finally:
            self._editing.discard(table_id)
            self._dirty.discard(table_id)
        ended = self._ending.pop(table_id, ended)
        if ended is not None:
            self.forget(table_id, ended)

    async def _edit(self, snapshot: TableSnapshot[Any, Any]) -> None:
        if snapshot.row.message_id is None:
            return
        channel = self.bot.get_partial_messageable(
            snapshot.row.channel_id, guild_id=snapshot.row.guild_id
        )
        message = channel.get_partial_message(snapshot.row.message_id)
        payload = self.render(snapshot)
        # An edit that changes nothing visible is skipped: it would cost a request, and
        # its mere timing could tell watchers that a secret (a bid) was changed.
        fingerprint = payload.fingerprint()
        if self._last_sent.get(snapshot.id) == fingerprint:
            return
        for delay in (*EDIT_RETRY_DELAYS, None):
            try:
                # Built afresh for each attempt: an upload's file is read once.
                shown = self._pictures.get(snapshot.id)
                await edit_message(
                    message, **payload.edit_kwargs(shown, ended=not snapshot.row.live)
                )
                break
            except discord.NotFound:
                await self._repost(snapshot, payload)
                return
            except discord.Forbidden as error:
                log.warning(
                    "table %s: not allowed to edit its message: %s", snapshot.id, error.code
                )
                return
            except discord.HTTPException as error:
                if delay is None or error.status < 500:
                    log.warning(
                        "table %s: giving up on editing its message: HTTP %s",
                        snapshot.id,
                        error.status,
                    )
                    return
                await asyncio.sleep(delay)
        self._shown(snapshot, payload, fingerprint)
        self.edits_sent += 1

    async def _repost(self, snapshot: TableSnapshot[Any, Any], payload: Payload) -> None:
        """A live table whose message was deleted gets a new one, so play can go on."""
        if not snapshot.row.live:
            self._shown(snapshot, payload)
            return
        log.warning(
            "table %s lost its message %s; posting it again", snapshot.id, snapshot.row.message_id
        )
        channel = self.bot.get_partial_messageable(
            snapshot.row.channel_id, guild_id=snapshot.row.guild_id
        )
        try:
            message = await channel.send(**payload.send_kwargs())
        except discord.HTTPException as error:
            log.warning(
                "table %s: could not post its message again: HTTP %s", snapshot.id, error.status
            )
            return
        self._shown(snapshot, payload)
        await self.service.set_message(snapshot.id, message.id)
        self.edits_sent += 1
