"""/event: tournaments the bot runs itself (bot/service/events.py).

The event message leads with what a member can do now (join, or which round is on), then
shows the entrants, the round's pairings and the live standings; it is redrawn whenever the
event changes (a member joins, a table of it ends, a round is paired). The tables of each
round are opened by the bot in the event's channel, each with one message that mentions its
players (pinged unless they turned notices off, `/notify`), and they are normal tables:
`/history`, `/verify` and the replay page work on them as on any other.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.app import TanzakuBot
from bot.errors import NotAllowed, UserFacingError
from bot.events import ArenaRow, Format, StandingRow
from bot.i18n import N_, _, ngettext, use_locale
from bot.safe_log import log_failure
from bot.service import Outcome
from bot.service.events import EventChange, EventService, EventView, parse_split
from bot.storage.events import EventStatus
from cogs._ui import render
from cogs._ui.cog import GameCog
from cogs._ui.custom_ids import EVENT_TEMPLATE, event_id
from cogs._ui.hub import TableHub
from cogs._ui.notify import Mode
from cogs._ui.options import RATED_CHOICES, offer_games
from cogs._ui.primitives import actor_of, send_ephemeral, tell

log = logging.getLogger(__name__)

STANDINGS_SHOWN = 16
"""Lines of standings the event message shows (the full list: `/event standings`)."""
PAIRINGS_SHOWN = 16
EVENT_COLOUR = discord.Colour.gold()
STATUS_WORDS = {
    EventStatus.OPEN: N_("open for entries"),
    EventStatus.RUNNING: N_("running"),
    EventStatus.FINISHED: N_("finished"),
    EventStatus.CANCELLED: N_("cancelled"),
}
FRACTIONS = {
    Fraction(1, 2): "½",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
}


def points(value: Fraction) -> str:
    """A score as a person writes it: 2½, not 5/2."""
    whole, part = divmod(value, 1)
    if part == 0:
        return str(int(whole))
    mark = FRACTIONS.get(Fraction(part))
    if mark is None:
        return f"{float(value):.2f}"
    return f"{int(whole) or ''}{mark}"


def title_of(view: EventView) -> str:
    game = _(view_title(view))
    if view.row.format == Format.ARENA:
        return _(
            "🏆 Event #{event} · {game} · arena of {seconds:duration}",
            event=str(view.id),
            game=game,
            seconds=view.row.duration_seconds,
        )
    return ngettext(
        "🏆 Event #{event} · {game} · Swiss, {count} round",
        "🏆 Event #{event} · {game} · Swiss, {count} rounds",
        view.row.rounds,
        event=str(view.id),
        game=game,
    )


_TITLES: dict[str, str] = {}


def view_title(view: EventView) -> str:
    return _TITLES.get(view.row.game, view.row.game)


def lead(view: EventView, currency: str) -> str:
    """What a member must know now."""
    row = view.row
    if row.status == EventStatus.OPEN:
        return _(
            "**Join** to enter: entry fee {fee}, prize pool {pool} so far, paid "
            "{split}. A moderator starts it (`/event start`).",
            fee=render_amount(row.entry_fee, currency),
            pool=render_amount(view.pool, currency),
            split="/".join(str(part) for part in row.split),
        )
    if row.status == EventStatus.RUNNING and row.format == Format.ARENA:
        assert row.ends_at is not None
        return _(
            "Arena on: a player whose table ends is paired again at once. Ends "
            "<t:{ends}:R>. **Join** is open. Prize pool {pool}.",
            ends=str(int(row.ends_at)),
            pool=render_amount(view.pool, currency),
        )
    if row.status == EventStatus.RUNNING:
        return _(
            "Round {round} of {rounds} is on: the tables below open by themselves. Prize "
            "pool {pool}.",
            round=row.round,
            rounds=row.rounds,
            pool=render_amount(view.pool, currency),
        )
    if row.status == EventStatus.CANCELLED:
        return _("Cancelled by a moderator: every entry fee went back.")
    winners = ", ".join(
        f"{render.mention(member)} {render_amount(amount, currency)}"
        for member, amount in sorted(view.prizes.items(), key=lambda item: -item[1])
    )
    return _("Finished. Prizes: {winners}.", winners=winners or "—")


def render_amount(amount: int, currency: str) -> str:
    return _("{amount} {currency}", amount=amount, currency=currency)


def standing_lines(rows: Sequence[StandingRow | ArenaRow], limit: int) -> list[str]:
    lines = []
    for row in list(rows)[:limit]:
        gone = " " + _("(dropped)") if row.dropped else ""
        if isinstance(row, StandingRow):
            lines.append(
                _(
                    "{rank}. {member} **{points}** · Buchholz {buchholz} · SB {sb}{gone}",
                    rank=row.rank,
                    member=render.mention(row.member),
                    points=points(row.points),
                    buchholz=points(row.buchholz),
                    sb=points(row.sonneborn_berger),
                    gone=gone,
                )
            )
        else:
            streak = " 🔥" if row.on_streak else ""
            lines.append(
                _(
                    "{rank}. {member} **{points}** · played {games}{streak}{gone}",
                    rank=row.rank,
                    member=render.mention(row.member),
                    points=row.points,
                    games=row.games,
                    streak=streak,
                    gone=gone,
                )
            )
    if len(rows) > limit:
        lines.append(_("…and {more} more (`/event standings`)", more=len(rows) - limit))
    return lines


def pairing_lines(view: EventView) -> list[str]:
    row = view.row
    shown = (
        [g for g in view.games if g.round == row.round]
        if row.format == Format.SWISS
        else [g for g in view.games if g.result_json is None]
    )
    lines = []
    for game in shown[:PAIRINGS_SHOWN]:
        players = " · ".join(render.mention(p) for p in game.players)
        if game.is_bye:
            lines.append(_("{member}: bye (a win)", member=players))
            continue
        mark = "✅" if game.result_json is not None else "⏳"
        lines.append(f"{mark} #{game.table_id} {players}")
    return lines


def event_embed(view: EventView, currency: str) -> discord.Embed:
    embed = discord.Embed(
        title=title_of(view), description=lead(view, currency), colour=EVENT_COLOUR
    )
    row = view.row
    if row.status == EventStatus.OPEN or (
        row.format == Format.ARENA and row.status == EventStatus.RUNNING and not view.ranked()
    ):
        names = " ".join(render.mention(m) for m in view.members) or "—"
        embed.add_field(
            name=_("Entrants ({count})", count=len(view.members)),
            value=render.clip(names, 1024),
            inline=False,
        )
    pairings = pairing_lines(view) if row.status == EventStatus.RUNNING else []
    if pairings:
        name = (
            _("Round {round}", round=row.round)
            if row.format == Format.SWISS
            else _("Tables in play")
        )
        embed.add_field(name=name, value=render.clip("\n".join(pairings), 1024), inline=False)
    standings = standing_lines(view.ranked(), STANDINGS_SHOWN)
    if standings and row.status != EventStatus.OPEN:
        embed.add_field(
            name=_("Standings"), value=render.clip("\n".join(standings), 1024), inline=False
        )
    embed.set_footer(
        text=_(
            "Event #{event} · {status} · tables play for points, not coins",
            event=str(view.id),
            status=_(STATUS_WORDS[row.status]),
        )
    )
    return embed


def event_view(view: EventView) -> discord.ui.View | None:
    row = view.row
    buttons: list[discord.ui.Item[Any]] = []
    if row.status == EventStatus.OPEN:
        buttons = [
            EventButton(row.id, "join", _("Join"), discord.ButtonStyle.success),
            EventButton(row.id, "leave", _("Leave"), discord.ButtonStyle.secondary),
            EventButton(row.id, "start", _("Start"), discord.ButtonStyle.primary),
        ]
    elif row.status == EventStatus.RUNNING and row.format == Format.ARENA:
        buttons = [EventButton(row.id, "join", _("Join"), discord.ButtonStyle.success)]
    if not buttons:
        return None
    holder = discord.ui.View(timeout=None)
    for button in buttons:
        holder.add_item(button)
    return holder


class EventButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=EVENT_TEMPLATE):
    """Join, Leave and Start on an event message; answered from the id alone, so they
    work after a restart."""

    def __init__(
        self,
        event: int,
        verb: str,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=event_id(event, verb))
        )
        self.event = event
        self.verb = verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> EventButton:
        return cls(int(match["event"]), match["verb"], render.label_of(item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = interaction.client.get_cog("Events")
        assert isinstance(cog, EventsCog)
        await cog.click(interaction, self.event, self.verb)


class EventsCog(
    commands.GroupCog, name="Events", group_name="event", group_description="Tournaments"
):
    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot
        offer_games(self, bot.catalog, rated=True)
        self.events: EventService = bot.events
        self.events.listeners.append(self.on_change)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(EventButton)
        # Not one of the bot's tracked tasks: a bot that never connects would wait on it
        # as it stops. It is cancelled with the cog.
        self._unposted = asyncio.create_task(self.post_unposted(), name="tanzaku-unposted")

    async def post_unposted(self) -> None:
        """At start: an event's tables opened before a stop but never posted are posted
        now (their players wait on them, and their clocks run)."""
        await self.bot.wait_until_ready()
        try:
            for table in await self.events.unposted():
                snapshot = await self.bot.tables.snapshot(table)
                await self.post_table(Outcome(snapshot, [], kind="started"))
        except Exception as error:
            log_failure(log, "could not post the unposted event tables", error=error)
        _TITLES.update(self.bot.catalog.titles())

    async def cog_unload(self) -> None:
        self._unposted.cancel()
        self.bot.remove_dynamic_items(EventButton)
        self.events.listeners.remove(self.on_change)

    # -- showing an event ----------------------------------------------------------------

    async def currency(self, guild_id: int) -> str:
        return (await self.bot.economy.terms_of(guild_id)).currency_name

    async def draw(self, view: EventView) -> tuple[discord.Embed, discord.ui.View | None]:
        currency = await self.currency(view.row.guild_id)
        with use_locale(self.bot.languages.server(view.row.guild_id)):
            return event_embed(view, currency), event_view(view)

    async def redraw(self, view: EventView) -> None:
        """Edit the event message to show the event as it is now."""
        if view.row.message_id is None:
            return
        embed, buttons = await self.draw(view)
        message = self.bot.get_partial_messageable(
            view.row.channel_id, guild_id=view.row.guild_id
        ).get_partial_message(view.row.message_id)
        try:
            await message.edit(embed=embed, view=buttons)
        except discord.HTTPException as error:
            log.warning("event %s: could not redraw its message: HTTP %s", view.id, error.status)

    async def on_change(self, change: EventChange) -> None:
        """A change the scheduler made, or a command: post the new tables, redraw, and
        name the winners once it ended."""
        for outcome in change.opened:
            await self.post_table(outcome)
        await self.redraw(change.view)
        if change.ended and change.view.row.status == EventStatus.FINISHED:
            await self.announce(change.view)

    async def post_table(self, outcome: Outcome) -> None:
        """An event's table, opened by the bot: its message, mentioning its players (a
        ping only to those who did not turn notices off), then its private panels."""
        hub = TableHub.of(self.bot)
        snapshot = outcome.snapshot
        row = snapshot.row
        pinged = []
        for player in snapshot.state.seats if snapshot.state is not None else []:
            mode, _wait = await hub.notifier.preferences(row.guild_id, player)
            if mode is not Mode.OFF:
                pinged.append(player)
        with use_locale(self.bot.languages.server(row.guild_id)):
            payload = hub.render(snapshot)
            call = _(
                "🏆 {players}: your event table is open. The table's own clock runs: a "
                "player who does not play loses by it.",
                players=" ".join(render.mention(p) for p in snapshot.state.seats)
                if snapshot.state is not None
                else "",
            )
        payload.content = call
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            message = await channel.send(
                **payload.send_kwargs(),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(p) for p in pinged]
                ),
            )
        except discord.HTTPException as error:
            log.warning("event table %s: could not post: HTTP %s", row.id, error.status)
            return
        await self.bot.tables.set_message(row.id, message.id)
        fresh = Outcome(await self.bot.tables.snapshot(row.id), outcome.events, kind="started")
        await hub.ui(row.game).after(fresh, None)
        await hub.notify(fresh, None)

    async def announce(self, view: EventView) -> None:
        currency = await self.currency(view.row.guild_id)
        with use_locale(self.bot.languages.server(view.row.guild_id)):
            lines = [
                _(
                    "{rank}. {member} wins {amount}",
                    rank=rank,
                    member=render.mention(member),
                    amount=render_amount(amount, currency),
                )
                for rank, (member, amount) in enumerate(
                    sorted(view.prizes.items(), key=lambda item: (-item[1], item[0])), start=1
                )
            ]
            text = _(
                "🏆 Event #{event} is over. {winners}",
                event=str(view.id),
                winners="\n".join(lines) if lines else _("No prizes to pay."),
            )
        channel = self.bot.get_partial_messageable(view.row.channel_id, guild_id=view.row.guild_id)
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.warning("event %s: could not announce: HTTP %s", view.id, error.status)

    # -- clicks ----------------------------------------------------------------------------

    async def click(self, interaction: discord.Interaction[Any], event: int, verb: str) -> None:
        actor = actor_of(interaction)
        try:
            if verb == "join":
                change = await self.events.join(event, actor.user_id)
                said = _("You are in. Your entry fee is in the event's prize pool.")
            elif verb == "leave":
                change = await self.events.leave(event, actor.user_id)
                said = _("You left the event; your entry fee is back in your wallet.")
            else:
                change = await self.events.start(event, actor)
                said = _("The event has started.")
        except UserFacingError as error:
            await TableHub.of(self.bot).refuse(interaction, error)
            return
        embed, buttons = await self.draw(change.view)
        await interaction.response.edit_message(embed=embed, view=buttons)
        await tell(interaction, said)
        for outcome in change.opened:
            await self.post_table(outcome)

    # -- commands --------------------------------------------------------------------------

    def options_of(self, game: str) -> GameCog | None:
        for cog in self.bot.cogs.values():
            if isinstance(cog, GameCog) and cog.ui.game == game:
                return cog
        return None

    async def rules_for(self, guild_id: int, game: str, typed: str) -> BaseModel:
        """The game's table options as its own open command reads them (the server's
        defaults, then what the moderator typed: ``mode=duel; round_seconds=60``), with
        every stake at 0: event tables play for points."""
        cog = self.options_of(game)
        if cog is None or cog.options is None:
            raise NotAllowed("That game is not available on this bot right now.")
        options = cog.options
        config = await self.bot.tables.server_config(guild_id)
        values = options.values({}, config.rule_defaults.get(game, {}))
        values = options.parse_form(typed.replace(";", "\n").replace(",", "\n"), values)
        for option in options.options:
            if option.stake:
                values[option.name] = 0
        return cog.rules_from(values)

    @app_commands.command(name="open", description="Open a tournament in this channel.")
    @app_commands.describe(
        game="Which game",
        format="swiss: a set number of rounds · arena: for a set time",
        rounds="Swiss rounds (default 3)",
        minutes="Arena length in minutes (default 60)",
        fee="Entry fee each member stakes (default 0)",
        prize="Coins the house adds to the prize pool (default 0)",
        split="Prize split by place in percent (default 50/30/20)",
        options="The game's table options, like mode=three; round_seconds=60",
    )
    @app_commands.choices(game=RATED_CHOICES)
    @app_commands.guild_only()
    async def open(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        format: Literal["swiss", "arena"] = "swiss",
        rounds: app_commands.Range[int, 1, 15] = 3,
        minutes: app_commands.Range[int, 1, 10_080] = 60,
        fee: app_commands.Range[int, 0, 1_000_000_000] = 0,
        prize: app_commands.Range[int, 0, 1_000_000_000] = 0,
        split: str = "50/30/20",
        options: str = "",
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        actor = actor_of(interaction)
        if not actor.is_moderator:
            raise NotAllowed("Only a member with Manage Server can open an event.")
        rules = await self.rules_for(interaction.guild_id, game.value, options)
        view = await self.events.open(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            actor=actor,
            game=game.value,
            rules=rules,
            format=Format(format),
            rounds=rounds,
            duration_seconds=minutes * 60,
            entry_fee=fee,
            house_prize=prize,
            split=parse_split(split),
        )
        embed, buttons = await self.draw(view)
        if buttons is None:
            await interaction.response.send_message(embed=embed)
        else:
            await interaction.response.send_message(embed=embed, view=buttons)
        message = await interaction.original_response()
        await self.events.set_message(view.id, message.id)

    async def here(self, interaction: discord.Interaction[Any]) -> EventView:
        assert interaction.channel_id is not None
        view = await self.events.live_in(interaction.channel_id)
        if view is None or view.row.guild_id != interaction.guild_id:
            raise NotAllowed("There is no event running in this channel.")
        return view

    @app_commands.command(name="start", description="Start this channel's event (moderators).")
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        view = await self.here(interaction)
        change = await self.events.start(view.id, actor_of(interaction))
        await send_ephemeral(interaction, _("The event has started."))
        await self.on_change(change)

    @app_commands.command(
        name="cancel", description="Cancel this channel's event; every entry fee goes back."
    )
    @app_commands.guild_only()
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        view = await self.here(interaction)
        change = await self.events.cancel(view.id, actor_of(interaction))
        await send_ephemeral(
            interaction,
            _("Event #{event} is cancelled; every entry fee went back.", event=str(view.id)),
        )
        await self.redraw(change.view)
        hub = TableHub.of(self.bot)
        for table in change.closed_tables:
            # Ended with nobody's click: shown as a deadline's end is (the message, the
            # private panels, the notices, the replay page).
            snapshot = await self.bot.tables.snapshot(table)
            await hub.on_deadline_outcome(Outcome(snapshot, [], kind="cancelled"))

    @app_commands.command(name="drop", description="Drop out of this channel's event.")
    @app_commands.guild_only()
    async def drop(self, interaction: discord.Interaction[Any]) -> None:
        view = await self.here(interaction)
        change = await self.events.drop(view.id, interaction.user.id)
        await send_ephemeral(
            interaction,
            _(
                "You are out of event #{event}: no further pairings. Your results so far "
                "stay in the standings.",
                event=str(view.id),
            ),
        )
        await self.redraw(change.view)

    @app_commands.command(name="standings", description="An event's full standings.")
    @app_commands.describe(event="Which event (this channel's by default)")
    @app_commands.guild_only()
    async def standings(
        self, interaction: discord.Interaction[Any], event: int | None = None
    ) -> None:
        assert interaction.guild_id is not None
        view = (
            await self.here(interaction)
            if event is None
            else await self.events.view(event, interaction.guild_id)
        )
        lines = standing_lines(view.ranked(), 40)
        embed = discord.Embed(
            title=title_of(view),
            description=render.clip("\n".join(lines) or _("Nothing played yet."), 4000),
            colour=EVENT_COLOUR,
        )
        await send_ephemeral(interaction, embed=embed)

    @app_commands.command(name="history", description="This server's latest events.")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        currency = await self.currency(interaction.guild_id)
        lines = []
        for view in await self.events.history(interaction.guild_id):
            winner = next(iter(view.ranked()), None)
            lines.append(
                _(
                    "#{event} {game} · {status} · {count} entrants · first: {winner} · pool {pool}",
                    event=str(view.id),
                    game=_(view_title(view)),
                    status=_(STATUS_WORDS[view.row.status]),
                    count=len(view.entrants),
                    winner=render.mention(winner.member)
                    if winner is not None and view.row.status == EventStatus.FINISHED
                    else "—",
                    pool=render_amount(view.pool, currency),
                )
            )
        await send_ephemeral(
            interaction, "\n".join(lines) if lines else _("No event on this server yet.")
        )


async def setup(bot: TanzakuBot) -> None:
    await bot.add_cog(EventsCog(bot))
