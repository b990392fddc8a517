"""What a table's end brings, besides its last message: one DM to each of its watchers,
and its replay page attached to its message. The hub runs these once a table's last
outcome is shown (:attr:`TableHub.ended_listeners`, wired by :func:`install`)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.i18n import _, use_locale
from bot.safe_log import log_failure
from bot.service import TableSnapshot, TableStatus
from cogs._ui import render
from cogs._ui.hub import TableHub
from cogs._ui.replay import replay_file

log = logging.getLogger(__name__)


def install(hub: TableHub) -> None:
    """Once per hub (the core extension's setup may run again on a reload)."""
    for listener in (("watchers", tell_watchers), ("replay", attach_replay)):
        if listener not in hub.ended_listeners:
            hub.ended_listeners.append(listener)


async def tell_watchers(hub: TableHub, snapshot: TableSnapshot[Any, Any]) -> None:
    """One DM to everyone who watched a table that has just ended (read and removed in
    one go, so each is told once even with several processes)."""
    watchers = await hub.service.take_watchers(snapshot.id)
    if not watchers:
        return
    languages = hub.bot.languages
    server = languages.server(snapshot.row.guild_id)
    for user_id in watchers:
        # Each watcher reads it in their own language, as last seen.
        with use_locale(await languages.member(user_id, fallback=server)):
            text = ending_note(snapshot)
        try:
            channel = await hub.bot.create_dm(discord.Object(user_id))
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            # Closed DMs: nothing to deliver later; the table message shows the end.
            log.info("table %s: a watcher was not told: HTTP %s", snapshot.id, error.status)


def ending_note(snapshot: TableSnapshot[Any, Any]) -> str:
    """What a watcher is told: how the table ended, and where to see it."""
    row = snapshot.row
    where = (
        f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.message_id}"
        if row.message_id is not None
        else f"<#{row.channel_id}>"
    )
    said = {"game": _(snapshot.spec.title), "table": str(snapshot.id), "where": where}
    if snapshot.status == TableStatus.CANCELLED:
        return _(
            "🔔 {game} — table #{table} was cancelled; every coin still at stake went back. "
            "{where}",
            **said,
        )
    winners = snapshot.spec.engine.winners(snapshot.state)
    names = _(", ").join(render.mention(int(w)) for w in winners if int(w) != 0)
    if names:
        return _(
            "🔔 {game} — table #{table} has ended: won by {names}. {where}", names=names, **said
        )
    return _("🔔 {game} — table #{table} has ended. {where}", **said)


async def attach_replay(hub: TableHub, snapshot: TableSnapshot[Any, Any]) -> None:
    """The replay page (cogs/_ui/replay.py) as the ended table's one attachment (in
    place of a picture of play), with the final text, so this edit also repairs a
    final edit that failed. Later edits of the message leave its attachments alone
    (:meth:`Payload.edit_kwargs`). The page is also one /verify away, so a failure
    here is only logged."""
    row = snapshot.row
    if snapshot.state is None or row.message_id is None:
        return  # a lobby closed before play, or a table without a message: no page
    try:
        # On the table message: in the server's language, like the message.
        with use_locale(hub.bot.languages.server(row.guild_id)):
            page = await replay_file(hub.bot, row.id, row.guild_id)
        if page is None:
            log.warning("table %s: its replay page is past Discord's file limit", row.id)
        channel = hub.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        final = hub.render(snapshot).as_kwargs()
        attachments = [page] if page is not None else []
        await channel.get_partial_message(row.message_id).edit(**final, attachments=attachments)
    except discord.HTTPException as error:
        log.warning("table %s: its replay page was not attached: HTTP %s", row.id, error.status)
    except Exception as error:
        log_failure(log, "table %s: its replay page could not be built", row.id, error=error)
