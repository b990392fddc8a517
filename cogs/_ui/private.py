"""Private messages: a DM when the member allows it, an ephemeral fallback when not.

Two ways to reach a member privately:

- :func:`send_private` sends one DM (a one-off word).
- :func:`show_panel` keeps one DM per member and table up to date, editing it in place;
  games with a private panel per round use it so a player gets one message per game.

Both keep the text as a notice when the DM cannot be sent; the member sees it on their
next click at the table, together with the reason.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import discord

if TYPE_CHECKING:
    from cogs._ui.hub import TableHub

log = logging.getLogger(__name__)

CANNOT_DM = 50007
"""Discord's error code for "Cannot send messages to this user"."""


async def send_private(
    hub: TableHub,
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
        await _send(hub, user_id, content, embed=embed, view=view)
        return True
    except discord.Forbidden:
        log.info("DMs closed for a player at table %s; keeping the message for later", table_id)
    except discord.HTTPException:
        log.warning("could not DM a player at table %s", table_id, exc_info=True)
    await hub.service.put_notice(user_id, table_id, content)
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
    hub: TableHub,
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
                channel = hub.bot.get_partial_messageable(
                    where[0], type=discord.ChannelType.private
                )
                await channel.get_partial_message(where[1]).edit(content=content, view=view)
                return PanelResult("edited", *where)
            except discord.NotFound:
                log.info("a private panel at table %s is gone; sending a new one", table_id)
        message = await _send(hub, user_id, content, view=view)
        return PanelResult("sent", message.channel.id, message.id)
    except discord.Forbidden as error:
        if error.code == CANNOT_DM:
            log.info("DMs closed for a player at table %s", table_id)
        else:
            log.warning("a private panel at table %s was refused (%s)", table_id, error.code)
        status: Literal["closed", "failed"] = "closed"
    except discord.HTTPException:
        log.warning("could not show a private panel at table %s", table_id, exc_info=True)
        status = "failed"
    if notice:
        await hub.service.put_notice(user_id, table_id, content)
    if status == "failed" and where is not None:
        return PanelResult("failed", *where)
    return PanelResult(status)


async def _send(
    hub: TableHub,
    user_id: int,
    content: str,
    *,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
) -> discord.Message:
    user = hub.bot.get_user(user_id) or await hub.bot.fetch_user(user_id)
    extras: dict[str, Any] = {}
    if embed is not None:
        extras["embed"] = embed
    if view is not None:
        extras["view"] = view
    return await user.send(content=content, **extras)
