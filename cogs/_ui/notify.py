"""Turn notifications: a member the table waits for is told in a way Discord notifies.

Discord pings a member only for a *new* message that mentions them, or a DM: never for an
edit, never for a mention inside an embed, which is all a table message has. So when a
table comes to wait for a member (its engine's :meth:`~bot.games.contract.Engine.waiting_on`)
they get one short message in the table's channel that mentions them, or a DM if they
chose so with ``/notify dm``; it is deleted once they act, or once the table stops waiting
for them, so a busy channel keeps at most one such line per member waited on.

At most one per turn: a member already told, or who has just clicked themselves (they know
the table waits for them), is not told again until the table has stopped waiting for them.
A member's own click also covers the computer's moves that follow it (a member playing the
computer is not pinged after every one of its replies); any other member's move, or the
table's own (a deadline), starts a new turn for them. Computer seats are never told.

What a notification says is only what the table message already shows: whose move it is,
or at a round of secret choices who has not chosen yet (the ⏳ marks), never what anyone
chose.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import _, use_locale
from bot.players import is_computer
from bot.service import Outcome, TableSnapshot
from cogs._ui import render

if TYPE_CHECKING:
    from bot.app import TanzakuBot

log = logging.getLogger(__name__)


class Mode(enum.StrEnum):
    """How a member wants to be told (``/notify``); a member who never said gets ``ON``."""

    ON = "on"
    """A message in the table's channel that mentions them."""
    DM = "dm"
    """A direct message (a mention in the channel when their DMs are closed)."""
    OFF = "off"
    """Nothing: they watch the table themselves."""


DEFAULT_MODE = Mode.ON


@dataclass(frozen=True)
class Ping:
    """A notification sent, to be deleted once it has served."""

    channel_id: int
    message_id: int


class Known(enum.Enum):
    """A member who needs no notification this turn (there is no message to delete)."""

    WAITED = "waited"
    """Waited for, and told already or aware (their own click, or notifications off)."""
    CARRIED = "carried"
    """Acted last and not waited for now: still aware if only the computer moves before the
    table waits for them again."""


Entry = Ping | Known


def table_link(snapshot: TableSnapshot[Any, Any]) -> str:
    row = snapshot.row
    return f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.message_id}"


def channel_text(snapshot: TableSnapshot[Any, Any], player: int) -> str:
    return _(
        "🔔 {player}, **{game}** table #{table} is waiting for you: {link} · `/notify` to "
        "change how you are told",
        player=render.mention(player),
        game=_(snapshot.spec.title),
        table=str(snapshot.id),
        link=table_link(snapshot),
    )


def dm_text(snapshot: TableSnapshot[Any, Any]) -> str:
    return _(
        "🔔 **{game}** table #{table} in {channel} is waiting for you: {link}\n"
        "-# `/notify on` for a mention in the channel instead, `/notify off` for nothing.",
        game=_(snapshot.spec.title),
        table=str(snapshot.id),
        channel=f"<#{snapshot.row.channel_id}>",
        link=table_link(snapshot),
    )


class Notifier:
    """Who has been told at each live table, and the messages that told them."""

    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot
        self._told: dict[int, dict[int, Entry]] = {}
        """Per live table: member → their notification, or why they need none."""
        self._version: dict[int, int] = {}
        """The latest table version handled: an older read landing late changes nothing."""
        self._locks: dict[int, asyncio.Lock] = {}
        self.sent = 0
        """Notifications posted (in a channel or as a DM), for the traffic benchmark."""
        self.deleted = 0

    async def after(self, outcome: Outcome, actor: int | None) -> None:
        """Tell the members the table now waits for, and take back what has served.
        ``actor``: who made the outcome (``None``: the table itself, a deadline)."""
        snapshot = outcome.snapshot
        table = snapshot.id
        if not self.bot.settings.turn_notices:
            return
        lock = self._locks.setdefault(table, asyncio.Lock())
        async with lock:
            if snapshot.row.version < self._version.get(table, -1):
                return
            self._version[table] = snapshot.row.version
            told = self._told.setdefault(table, {})
            waiting = self.waiting(snapshot)
            by_computer = actor is not None and is_computer(actor)
            for member, entry in list(told.items()):
                keep = self._keeps(entry, member in waiting, by_computer)
                if member == actor and not by_computer:
                    keep = None
                if keep is None:
                    del told[member]
                    await self._take_back(entry)
                else:
                    told[member] = keep
            if actor is not None and not by_computer and snapshot.row.live:
                told[actor] = Known.WAITED if actor in waiting else Known.CARRIED
            for member in waiting:
                if member not in told:
                    told[member] = await self._tell(snapshot, member)
        if not snapshot.row.live:
            self._forget_now(table)

    @staticmethod
    def _keeps(entry: Entry, waited: bool, by_computer: bool) -> Entry | None:
        """What a member's entry becomes after an outcome not their own (``None``: it goes,
        with its message)."""
        if entry is Known.CARRIED:
            if by_computer:
                return Known.WAITED if waited else Known.CARRIED
            return None
        return entry if waited else None

    def waiting(self, snapshot: TableSnapshot[Any, Any]) -> list[int]:
        """The members (no computer seat) a live table waits for now."""
        if snapshot.state is None or not snapshot.row.live or snapshot.row.message_id is None:
            return []
        return [
            member
            for member in snapshot.spec.engine.waiting_on(snapshot.state)
            if not is_computer(member)
        ]

    async def _tell(self, snapshot: TableSnapshot[Any, Any], member: int) -> Entry:
        try:
            stored = await self.bot.tables.notify_mode(snapshot.row.guild_id, member)
        except Exception as error:
            log.warning("table %s: could not read a notify setting: %s", snapshot.id, error)
            stored = None
        mode = Mode(stored) if stored in set(Mode) else DEFAULT_MODE
        if mode is Mode.OFF:
            return Known.WAITED
        if mode is Mode.DM:
            try:
                channel = await self.bot.create_dm(discord.Object(member))
                # The member alone reads it: in their language as last seen.
                language = await self.bot.languages.member(
                    member, fallback=self.bot.languages.server(snapshot.row.guild_id)
                )
                with use_locale(language):
                    text = dm_text(snapshot)
                message = await channel.send(text)
                self.sent += 1
                return Ping(message.channel.id, message.id)
            except discord.HTTPException as error:
                # Closed DMs: the channel mention still reaches them.
                log.info("table %s: a turn DM failed (HTTP %s)", snapshot.id, error.status)
        row = snapshot.row
        channel_at = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        with use_locale(self.bot.languages.server(row.guild_id)):
            text = channel_text(snapshot, member)
        try:
            sent = await channel_at.send(
                text,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(member)]
                ),
                suppress_embeds=True,
            )
        except discord.HTTPException as error:
            log.warning("table %s: could not post a turn notice: HTTP %s", row.id, error.status)
            return Known.WAITED
        self.sent += 1
        return Ping(row.channel_id, sent.id)

    async def _take_back(self, entry: Entry) -> None:
        if not isinstance(entry, Ping):
            return
        message = self.bot.get_partial_messageable(entry.channel_id).get_partial_message(
            entry.message_id
        )
        try:
            await message.delete()
            self.deleted += 1
        except discord.NotFound:
            pass  # deleted already (by a moderator, or the member's DM client)
        except discord.HTTPException as error:
            log.warning("could not delete a turn notice: HTTP %s", error.status)

    def _forget_now(self, table: int) -> None:
        self._told.pop(table, None)
        self._version.pop(table, None)
        self._locks.pop(table, None)

    async def forget(self, table: int) -> None:
        """A table ended elsewhere (another process): its notifications go."""
        lock = self._locks.get(table)
        if lock is None:
            return
        async with lock:
            told = self._told.get(table, {})
            for entry in told.values():
                await self._take_back(entry)
            self._forget_now(table)

    def tables_held(self) -> set[int]:
        return set(self._told) | set(self._version) | set(self._locks)
