"""The table message before and around play, the same for every game: the lobby, a table
closed before it began, the "cancelled" overlay, the fair-dice footer and the Watch button.
A game in play is drawn by its UI (:mod:`cogs._ui.frame`); the hub puts the two together.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.games.common import is_computer
from bot.i18n import _
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.face import GameFace
from cogs._ui.primitives import WATCH_ROW, Payload, TableComponent, button, view_of

log = logging.getLogger(__name__)


def render_lobby(snapshot: TableSnapshot[Any, Any], ui: GameFace, *, computers: bool) -> Payload:
    """A table waiting for players (or a challenge waiting for its answer); ``computers``:
    whether the game has a computer seat to offer."""
    embed = discord.Embed(
        title=_(
            "{game} — table #{table} (lobby)",
            game=_(snapshot.spec.title),
            table=str(snapshot.id),
        ),
        description="\n".join(_lobby_lines(snapshot, ui)),
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    most = snapshot.spec.engine.seat_limits(snapshot.rules)[1]
    seats = "\n".join(
        f"{number}. {render.mention(user)}" for number, user in enumerate(snapshot.seats, 1)
    )
    embed.add_field(
        name=_("Seats ({seated}/{most})", seated=len(snapshot.seats), most=most),
        value=seats or "—",
    )
    add_fairness(embed, snapshot, has_dice=ui.has_dice)
    invitee = snapshot.row.invitee_id
    if invitee is not None:
        return Payload(embed, _challenge_view(snapshot), content=render.mention(invitee))
    return Payload(embed, _lobby_view(snapshot, computers=computers))


def _lobby_lines(snapshot: TableSnapshot[Any, Any], ui: GameFace) -> list[str]:
    """Who hosts (or challenges whom), what a seat holds, the options, the expiry."""
    fewest, most = snapshot.spec.engine.seat_limits(snapshot.rules)
    host = render.mention(snapshot.row.host_id)
    invitee = snapshot.row.invitee_id
    if invitee is not None:
        lines = [_("{host} challenges {invitee}!", host=host, invitee=render.mention(invitee))]
    else:
        need = f"{fewest}" if fewest == most else f"{fewest}–{most}"
        lines = [_("Host: {host} · players: {need}", host=host, need=need)]
    held = ui.hold_line(snapshot) if snapshot.hold else None
    if held:
        lines.append(held)
    lines.extend(ui.describe_rules(snapshot))
    if snapshot.deadline is not None:
        lines.append(
            _("Expires {when} unless started.", when=render.timestamp(snapshot.deadline.due_at))
        )
    return lines


def _challenge_view(snapshot: TableSnapshot[Any, Any]) -> discord.ui.View:
    table = snapshot.id
    return view_of(
        button(table, 0, "accept", _("Accept"), style=discord.ButtonStyle.success),
        button(table, 0, "decline", _("Decline"), style=discord.ButtonStyle.danger),
        rules_button(table, snapshot.spec.name),
    )


def _lobby_view(snapshot: TableSnapshot[Any, Any], *, computers: bool) -> discord.ui.View:
    table = snapshot.id
    seats: list[TableComponent] = []
    if computers:
        # The host's alone (checked by the table service): fill a seat with the computer.
        seats.append(button(table, 0, "computer", _("Add computer"), emoji="🤖"))
        if any(is_computer(seat) for seat in snapshot.seats):
            seats.append(button(table, 0, "uncomputer", _("Remove computer")))
    return view_of(
        button(table, 0, "join", _("Join"), style=discord.ButtonStyle.success),
        button(table, 0, "leave", _("Leave")),
        button(table, 0, "start", _("Start"), style=discord.ButtonStyle.primary),
        button(table, 0, "cancel", _("Cancel"), style=discord.ButtonStyle.danger),
        rules_button(table, snapshot.spec.name),
        *seats,
    )


def rules_button(table: int, game: str) -> TableComponent:
    """Opens the game's rules privately, without touching the table message."""
    return button(table, 0, "rules", _("Rules"), arg=game, emoji="📜")


def render_cancelled(snapshot: TableSnapshot[Any, Any], *, has_dice: bool) -> Payload:
    """A table closed before play began."""
    embed = discord.Embed(
        title=_(
            "{game} — table #{table} (closed)",
            game=_(snapshot.spec.title),
            table=str(snapshot.id),
        ),
        description=_("This table closed before play began; every stake was refunded."),
        colour=discord.Colour(render.COLOUR_CANCELLED),
    )
    add_fairness(embed, snapshot, has_dice=has_dice)
    return Payload(embed, None)


def mark_cancelled(payload: Payload) -> None:
    """A game cancelled in play: its last frame, said to be cancelled, without controls."""
    payload.embed.colour = discord.Colour(render.COLOUR_CANCELLED)
    payload.embed.description = (
        _(
            "**Cancelled** — results already settled stand; every coin still at stake "
            "came back or, on a round in play, was settled at its exact value."
        )
        + "\n"
        + (payload.embed.description or "")
    )[:4096]
    payload.view = None


def add_fairness(
    embed: discord.Embed, snapshot: TableSnapshot[Any, Any], *, has_dice: bool = True
) -> None:
    """The fair dice's footer: the commitment while the table runs, the seed after; none
    for a game without chance."""
    if not has_dice:
        return
    row = snapshot.row
    if snapshot.seed_revealed:
        text = _(
            "Fair dice — seed `{seed}` (SHA-256 `{commitment}…`). "
            "Check every roll with /verify table:{table}",
            seed=row.seed_hex,
            commitment=row.commitment[:16],
            table=str(row.id),
        )
    else:
        text = _(
            "Fair dice — commitment SHA-256 `{commitment}`; seed revealed at the end.",
            commitment=row.commitment,
        )
    embed.set_footer(text=text)


def with_watch(view: discord.ui.View | None, table: int) -> discord.ui.View | None:
    """A live table's message gets a Watch button on its last row (one DM when the
    table ends), unless the game's own buttons fill that row."""
    watch = button(table, 0, "watch", _("Watch"), emoji="🔔", row=WATCH_ROW)
    if view is None:
        return view_of(watch)
    try:
        view.add_item(watch)
    except ValueError:
        log.debug("table %s: no room for the Watch button", table)
    return view
