"""Turn notifications: a member the table has waited on for a while is told in a way
Discord notifies, with the way to act.

Discord pings a member only for a *new* message that mentions them, or a DM: never for an
edit, never for a mention inside an embed, which is all a table message has. So a member
the table waits for (its engine's :meth:`~bot.games.contract.Engine.waiting_on`) gets one
short message in the table's channel that mentions them, or a DM if they chose so with
``/notify dm`` — but only once they have been waited on for their wait (``/notify wait``,
:data:`DEFAULT_WAIT_SECONDS` by default) without clicking at the table. Two members who
both watch the table are never pinged; one who stepped away is, once a turn. The notice
carries the game's controls (a **My hand** button, the bid panel, the table's buttons) and
is deleted once they act, once they click at the table, or once the table stops waiting
for them. Computer seats are never told.

The notices live in the database (:class:`bot.service.notices.TurnNotices`): a notice
is posted once and deleted once, by whichever process sees it has served, also after a
restart. The wait is a keyed deadline on the bot's scheduler, re-armed at start.

What a notification says is only what the table message already shows: whose move it is,
or at a round of secret choices who has not chosen yet (the ⏳ marks), never what anyone
chose. Its timing too: a member's wait starts when the table starts waiting for them or at
their own last click, never at another member's secret choice; and a step the table hides
(Hachi-hachi's teyaku claims) tells nobody (:meth:`NoticeFace.notices_now`).

A member's pings to another member (a challenge) go through :meth:`Notifier.may_ping`:
never to a member with ``/notify off``, and one a pair every :data:`PAIR_PING_SECONDS`.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.errors import UserFacingError
from bot.games.common import is_computer
from bot.i18n import _, use_locale
from bot.service import Outcome, TableSnapshot
from bot.service.notices import POSTING, TurnNotice
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
    """Nothing: they watch the table themselves (and no member's challenge pings them)."""


DEFAULT_MODE = Mode.ON

DEFAULT_WAIT_SECONDS = 25
"""How long a member is waited on before they are told, unless they chose (/notify wait):
long enough for a member watching the table to move, short enough for one who is not."""
WAIT_RANGE = (5, 600)
"""The waits a member may choose, in seconds."""

PAIR_PING_SECONDS = 600
"""One member pings another (a challenge) at most once in this many seconds."""


class Ping(enum.Enum):
    """Whether a member's message to another may ping them."""

    YES = "yes"
    OFF = "off"
    """The other turned notices off."""
    LIMITED = "limited"
    """This member pinged them a moment ago."""
    UNKNOWN = "unknown"
    """Not known (the database did not answer): not pinged, nothing said."""


class NoticeFace(Protocol):
    """What the notifier asks of a game's UI (:class:`cogs._ui.game.Game`)."""

    def notice_view(
        self, snapshot: TableSnapshot[Any, Any], member: int
    ) -> discord.ui.View | None: ...

    def notices_now(self, snapshot: TableSnapshot[Any, Any]) -> bool: ...


def mode_of(stored: str | None) -> Mode:
    return Mode(stored) if stored in set(Mode) else DEFAULT_MODE


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


def challenge_note(ping: Ping, invitee: int) -> str | None:
    """Why a challenge's mention of ``invitee`` did not ping them (``None``: it did)."""
    if ping is Ping.OFF:
        return _(
            "-# {member} is not pinged: they turned turn notices off (`/notify`). The "
            "challenge waits for them here.",
            member=render.mention(invitee),
        )
    if ping is Ping.LIMITED:
        return _(
            "-# {member} is not pinged again: you challenged them less than "
            "{seconds:duration} ago. The challenge waits for them here.",
            member=render.mention(invitee),
            seconds=PAIR_PING_SECONDS,
        )
    return None


class Notifier:
    """Turn notices: written to the database after each outcome, posted when due."""

    def __init__(self, bot: TanzakuBot, face: Callable[[str], NoticeFace | None]) -> None:
        self.bot = bot
        self._face = face
        self.notices = bot.tables.turn_notices
        self.notices.on_due = self._post
        self.notices.on_start = self._take_back_ended
        # A member's action updates its table's notices in its own transaction: the table
        # service asks here whom the table then waits for.
        self.notices.waiting_of = self._waiting_if_on
        self.notices.default_wait = DEFAULT_WAIT_SECONDS
        self.sent = 0
        """Notifications posted (in a channel or as a DM), for the traffic benchmark."""
        self.deleted = 0

    async def _take_back_ended(self, notices: list[TurnNotice]) -> None:
        """At start: the notices of tables that ended while no process could take them
        back (the bot was down) go now."""
        live: dict[int, bool] = {}
        for notice in notices:
            if notice.table_id in live:
                continue
            try:
                live[notice.table_id] = (await self.bot.tables.snapshot(notice.table_id)).row.live
            except UserFacingError:
                live[notice.table_id] = False
            if not live[notice.table_id]:
                await self.forget(notice.table_id)

    async def after(self, outcome: Outcome, actor: int | None) -> None:
        """Write down whom the table now waits for (each to be told once their wait is
        over), and take back what has served. ``actor``: who made the outcome (``None``:
        the table itself, a deadline); a member who acted is present, their wait starts
        again."""
        if not self.bot.settings.turn_notices:
            return
        snapshot = outcome.snapshot
        if outcome.notices_gone is not None:
            # Written with the action itself (and with any earlier action of the same
            # click, whose outcome is not the one answered).
            gone = self.notices.take_gone(snapshot.id)
        else:
            present = [actor] if actor is not None and not is_computer(actor) else []
            gone = await self.notices.update(
                snapshot.id,
                snapshot.row.guild_id,
                self.waiting(snapshot),
                present,
                DEFAULT_WAIT_SECONDS,
            )
        for notice in gone:
            await self._take_back(notice)

    async def seen(self, table: int, member: int) -> None:
        """A member clicked at the table without acting (their hand, a panel): they are
        here, so their wait starts again, and a notice already posted goes."""
        if not self.bot.settings.turn_notices:
            return
        gone = await self.notices.seen(table, member, DEFAULT_WAIT_SECONDS)
        if gone is not None:
            await self._take_back(gone)

    async def preferences(self, guild_id: int, member: int) -> tuple[Mode, int]:
        try:
            stored, wait = await self.notices.preferences(guild_id, member)
        except Exception as error:
            log.warning("could not read a notify setting: %s", error)
            stored, wait = None, None
        return mode_of(stored), DEFAULT_WAIT_SECONDS if wait is None else wait

    def _waiting_if_on(self, snapshot: TableSnapshot[Any, Any]) -> list[int] | None:
        return self.waiting(snapshot) if self.bot.settings.turn_notices else None

    def waiting(self, snapshot: TableSnapshot[Any, Any]) -> list[int]:
        """The members (no computer seat) a live table waits for now, where its game
        lets that be told."""
        if snapshot.state is None or not snapshot.row.live or snapshot.row.message_id is None:
            return []
        face = self._face(snapshot.spec.name)
        if face is not None and not face.notices_now(snapshot):
            return []
        return [
            member
            for member in snapshot.spec.engine.waiting_on(snapshot.state)
            if not is_computer(member)
        ]

    async def _post(self, notice_id: int) -> None:
        """A notice fell due: post it, if the table still waits for its member."""
        notice = await self.notices.claim(notice_id)
        if notice is None:
            return  # gone, moved later, or posted by another process
        try:
            snapshot = await self.bot.tables.snapshot(notice.table_id)
        except UserFacingError:
            await self.notices.drop(notice.id)
            return
        mode, _wait = await self.preferences(notice.guild_id, notice.user_id)
        if notice.user_id not in self.waiting(snapshot) or mode is Mode.OFF:
            gone = await self.notices.drop(notice.id)
            if gone is not None:
                await self._take_back(gone)
            return
        sent = await self._tell(snapshot, notice.user_id, mode)
        if sent is None:
            return  # Discord refused: the notice stays, marked as told, and is not retried
        channel_id, message_id = sent
        if not await self.notices.posted(notice.id, channel_id, message_id):
            # The member acted while it was being posted: it has served already.
            await self._delete(channel_id, message_id)

    def _view(self, snapshot: TableSnapshot[Any, Any], member: int) -> discord.ui.View | None:
        face = self._face(snapshot.spec.name)
        return face.notice_view(snapshot, member) if face is not None else None

    async def _tell(
        self, snapshot: TableSnapshot[Any, Any], member: int, mode: Mode
    ) -> tuple[int, int] | None:
        if mode is Mode.DM:
            try:
                channel = await self.bot.create_dm(discord.Object(member))
                # The member alone reads it: in their language as last seen.
                language = await self.bot.languages.member(
                    member, fallback=self.bot.languages.server(snapshot.row.guild_id)
                )
                with use_locale(language):
                    text = dm_text(snapshot)
                    view = self._view(snapshot, member)
                message = await channel.send(text, view=view or discord.utils.MISSING)
                self.sent += 1
                return message.channel.id, message.id
            except discord.HTTPException as error:
                # Closed DMs: the channel mention still reaches them.
                log.info("table %s: a turn DM failed (HTTP %s)", snapshot.id, error.status)
        row = snapshot.row
        channel_at = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        with use_locale(self.bot.languages.server(row.guild_id)):
            text = channel_text(snapshot, member)
            view = self._view(snapshot, member)
        try:
            sent = await channel_at.send(
                text,
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(member)]
                ),
                suppress_embeds=True,
                view=view or discord.utils.MISSING,
            )
        except discord.HTTPException as error:
            log.warning("table %s: could not post a turn notice: HTTP %s", row.id, error.status)
            return None
        self.sent += 1
        return row.channel_id, sent.id

    async def _take_back(self, notice: TurnNotice) -> None:
        if notice.channel_id is None or notice.message_id in (None, POSTING):
            return
        assert notice.message_id is not None
        await self._delete(notice.channel_id, notice.message_id)

    async def _delete(self, channel_id: int, message_id: int) -> None:
        message = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.delete()
            self.deleted += 1
        except discord.NotFound:
            pass  # deleted already (by a moderator, or the member's DM client)
        except discord.HTTPException as error:
            log.warning("could not delete a turn notice: HTTP %s", error.status)

    async def forget(self, table: int) -> None:
        """A table ended (here or in another process): its notices go."""
        for notice in [*self.notices.take_gone(table), *await self.notices.drop_table(table)]:
            await self._take_back(notice)

    # -- a member's pings to another ----------------------------------------------------

    async def may_ping(self, guild_id: int, member: int, target: int) -> Ping:
        """Whether ``member``'s message may ping ``target`` now (a challenge): never with
        the target's notices off, once a pair every :data:`PAIR_PING_SECONDS`."""
        mode, _wait = await self.preferences(guild_id, target)
        if mode is Mode.OFF:
            return Ping.OFF
        if await self.notices.take_member_ping(guild_id, member, target, PAIR_PING_SECONDS):
            return Ping.YES
        return Ping.LIMITED
