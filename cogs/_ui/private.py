"""Private messages: a DM when the member allows it, an ephemeral fallback when not.

Three ways to reach a member privately:

- :func:`send_private` sends one DM (a one-off word).
- :func:`show_panel` keeps one DM per member and table up to date, editing it in place;
  games with a private panel per round use it so a player gets one message per game.
- :class:`PanelKeeper` is that panel for a whole table, for any game that has one.

All keep the text as a notice when the DM cannot be sent; the member sees it on their
next click at the table, together with the reason.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

import discord

from bot.games.common import is_computer
from bot.i18n import use_locale
from bot.panels import PrivatePanels
from bot.safe_log import log_failure
from bot.signals import PANEL
from cogs._ui.primitives import edit_message

if TYPE_CHECKING:
    from bot.service import Outcome, TableSnapshot
    from cogs._ui.face import UIHost

log = logging.getLogger(__name__)

CANNOT_DM = 50007
"""Discord's error code for "Cannot send messages to this user"."""


async def send_private(
    host: UIHost,
    user_id: int,
    table_id: int,
    content: str,
    *,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
) -> bool:
    """Send a DM; True when it arrived.

    When the member's DMs are closed the text is kept and shown to them ephemerally on
    their next click at the table, together with the reason. Games with secret input
    (bids) also offer a public "… privately" button that answers ephemerally.
    """
    try:
        await _send(host, user_id, content, embed=embed, view=view)
        return True
    except discord.Forbidden:
        log.info("DMs closed for a player at table %s; keeping the message for later", table_id)
    except discord.HTTPException as error:
        log_failure(log, "could not DM a player at table %s", table_id, error=error)
    await host.service.put_notice(user_id, table_id, content)
    return False


@dataclass(frozen=True)
class PanelResult:
    """What became of a panel: where it lives now, or why it could not be shown.

    ``closed``: the member does not accept DMs. ``failed``: Discord failed otherwise (a
    5xx); the panel, if any, stays where it was.
    """

    status: Literal["sent", "edited", "closed", "failed"]
    channel_id: int | None = None
    message_id: int | None = None

    @property
    def delivered(self) -> bool:
        return self.status in ("sent", "edited")


async def show_panel(
    host: UIHost,
    user_id: int,
    table_id: int,
    content: str,
    *,
    view: discord.ui.View | None = None,
    where: tuple[int, int] | None = None,
    notice: bool = True,
) -> PanelResult:
    """Edit the member's panel at ``where`` (DM channel id, message id) in place, or send
    it as a new DM when there is none yet or it is gone.

    ``view=None`` removes the panel's buttons. When the DM cannot be shown and ``notice``
    is set, the text is kept for the member's next click at the table.
    """
    try:
        if where is not None:
            try:
                channel = host.bot.get_partial_messageable(
                    where[0], type=discord.ChannelType.private
                )
                await edit_message(
                    channel.get_partial_message(where[1]), content=content, view=view
                )
                return PanelResult("edited", *where)
            except discord.NotFound:
                log.info("a private panel at table %s is gone; sending a new one", table_id)
        message = await _send(host, user_id, content, view=view)
        return PanelResult("sent", message.channel.id, message.id)
    except discord.Forbidden as error:
        if error.code == CANNOT_DM:
            log.info("DMs closed for a player at table %s", table_id)
        else:
            log.warning("a private panel at table %s was refused (%s)", table_id, error.code)
        status: Literal["closed", "failed"] = "closed"
    except discord.HTTPException as error:
        log_failure(log, "could not show a private panel at table %s", table_id, error=error)
        status = "failed"
    if notice:
        await host.service.put_notice(user_id, table_id, content)
    if status == "failed" and where is not None:
        return PanelResult("failed", *where)
    return PanelResult(status)


async def _send(
    host: UIHost,
    user_id: int,
    content: str,
    *,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
) -> discord.Message:
    # The DM channel straight from the id: one request the first time (none after), where
    # fetching the member first cost one more whenever they were not cached, which with
    # the guilds intent alone is nearly always.
    channel = await host.bot.create_dm(discord.Object(user_id))
    extras: dict[str, Any] = {}
    if embed is not None:
        extras["embed"] = embed
    if view is not None:
        extras["view"] = view
    return await channel.send(content=content, **extras)


class PanelGame(Protocol):
    """What a game with a private panel per player says (a :class:`cogs._ui.game.Game`)."""

    @property
    def panel_moves(self) -> tuple[type[Any], ...]: ...

    @property
    def own_moves(self) -> tuple[type[Any], ...]: ...

    def panel(
        self, snapshot: TableSnapshot[Any, Any], player: int
    ) -> tuple[str, discord.ui.View | None]: ...

    def waiting(self, state: Any) -> Iterable[int]: ...


class PanelKeeper:
    """One private panel per player and table, edited in place, for any game.

    Where each panel lives and whose DMs are closed are persisted (:mod:`bot.panels`), so
    after a restart the bot edits the same DM and keeps offering a private button to a
    player it cannot DM. A panel is redrawn only at a new decision point (``panel_moves``)
    or for the player whose own choice changed it (``own_moves``, events with a
    ``player``): a secret changed inside a round leaves no trace anywhere.
    """

    def __init__(self, host: UIHost, game: PanelGame) -> None:
        self.host = host
        self.game = game
        self.store = PrivatePanels(host.bot.db)
        # Other processes sharing the database mark closed DMs too (PostgreSQL).
        host.bot.tables.signals.on(PANEL, self.store.on_signal)
        host.bot.tables.signals.on_resync(self.store.load)
        # One redraw at a time per table, so two redraws never both send a first DM.
        self._locks: dict[int, asyncio.Lock] = {}

    async def load(self) -> None:
        await self.store.load()

    def closed(self, table_id: int) -> frozenset[int]:
        return self.store.closed(table_id)

    async def after(self, outcome: Outcome) -> None:
        snapshot = outcome.snapshot
        if snapshot.state is None:
            return  # a lobby: nobody has a panel yet
        only: set[int] | None = None
        if (
            outcome.kind == "started"
            or not snapshot.row.live
            or any(isinstance(event, self.game.panel_moves) for event in outcome.events)
        ):
            only = None
        elif own := {e.player for e in outcome.events if isinstance(e, self.game.own_moves)}:
            only = own
        else:
            return
        try:
            await self.update(snapshot.id, only=only)
        except Exception as error:
            # The action is saved; a panel that could not be redrawn must not turn the
            # click's answer into "nothing was changed".
            log_failure(
                log, "could not redraw the private panels of table %s", snapshot.id, error=error
            )

    async def update(self, table_id: int, *, only: set[int] | None = None) -> None:
        """Redraw every player's panel in place (sending it the first time).

        A player whose DMs are closed is marked (the table then offers them a private
        button), and the panel is kept as a notice for their next click when they must
        act. When the table has ended, the panels show the result and are forgotten.
        """
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            # Read afresh inside the lock: a redraw that waited must not draw an older round.
            snapshot = await self.host.service.snapshot(table_id)
            if snapshot.state is None:
                return
            live = snapshot.row.live
            stored = await self.store.of_table(table_id)
            closed = self.store.closed(table_id)
            waiting = set(self.game.waiting(snapshot.state)) if live else set()
            refresh_table = False
            for player in snapshot.seats:
                if (only is not None and player not in only) or is_computer(player):
                    continue  # a computer reads the table itself: no panel, no DM
                row = stored.get(player)
                where = None
                if row is not None and row.channel_id is not None and row.message_id is not None:
                    where = (row.channel_id, row.message_id)
                must_act = player in waiting
                # No panel to edit and nothing to ask: a closed DM is not tried again, and
                # an ended game sends nobody a first message.
                if where is None and (not live or (player in closed and not must_act)):
                    continue
                # The player alone reads it: in their language as last seen.
                language = await self.host.bot.languages.member(
                    player, fallback=self.host.bot.languages.server(snapshot.row.guild_id)
                )
                with use_locale(language):
                    text, view = self.game.panel(snapshot, player)
                result = await show_panel(
                    self.host, player, table_id, text, view=view, where=where, notice=must_act
                )
                if result.status == "closed":
                    refresh_table |= await self.store.mark_closed(table_id, player)
                elif result.delivered and (where is None or player in closed):
                    assert result.channel_id is not None and result.message_id is not None
                    await self.store.remember(
                        table_id, player, result.channel_id, result.message_id
                    )
                    refresh_table |= player in closed  # the 📪 note goes away
            if not live:
                await self.store.forget(table_id)
                self._locks.pop(table_id, None)
            elif refresh_table:
                self.host.schedule_refresh(table_id)
