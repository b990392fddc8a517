"""Private messages: a DM when the member allows it, an ephemeral fallback when not."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from cogs._ui.hub import TableHub

log = logging.getLogger(__name__)


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
        user = hub.bot.get_user(user_id) or await hub.bot.fetch_user(user_id)
        extras: dict[str, Any] = {}
        if embed is not None:
            extras["embed"] = embed
        if view is not None:
            extras["view"] = view
        await user.send(content=content, **extras)
        return True
    except discord.Forbidden:
        log.info("DMs closed for a player at table %s; keeping the message for later", table_id)
    except discord.HTTPException:
        log.warning("could not DM a player at table %s", table_id, exc_info=True)
    await hub.service.put_notice(user_id, table_id, content)
    return False
