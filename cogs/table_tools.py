"""Table tools for every game: /rules, /history, /verify, /cancel, /stats and /tables."""

from __future__ import annotations

import io
import json
import math
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot import rules_text
from bot.app import TanzakuBot
from bot.errors import UserFacingError, explain
from bot.i18n import N_, _
from bot.interactions import note_refusal
from bot.ratings import PROVISIONAL_GAMES, Skill
from bot.records import records_by_game, running_net
from bot.service.verify import public_log
from bot.storage.ratings import RankedRating
from bot.storage.table_queries import LiveTable
from cogs._ui import render
from cogs._ui.custom_ids import HISTORY_TEMPLATE, TABLES_TEMPLATE, history_id, tables_id
from cogs._ui.face import Acted
from cogs._ui.hub import TableHub
from cogs._ui.options import GAME_CHOICES, offer_games
from cogs._ui.primitives import actor_of, is_moderator, send_ephemeral
from cogs._ui.replay import replay_file
from cogs._ui.rules_pages import rules_page
from cogs._ui.stats_chart import draw_running_net
from cogs._ui.step_words import parsed_events, step_line

HISTORY_LINES = 25
TABLE_ID_MAX = 2**53
"""Table ids are SQLite rowids; past 2^53 a number no longer survives JSON in clients."""
TableId = app_commands.Range[int, 1, TABLE_ID_MAX]


TABLES_PER_PAGE = 10
STATS_CHART = "stats.png"
"""The chart's file name: the same for everyone (nothing in it depends on the data)."""
STATUS_WORDS = frozenset((N_("lobby"), N_("running"), N_("finished"), N_("cancelled")))
"""A table's status as stored (English), shown translated."""
STAT_WORDS = frozenset((N_("played"), N_("won"), N_("net")))
"""The counts every game keeps; a game's honours are stored by their English name and
translated where /stats shows them (most are the game's own words, in its catalog)."""
HONOUR_WORDS = (
    # Honours whose names are no other message of their game: their entries live here.
    N_("Nick on the first throw"),
    N_("Won with no strength left"),
)


def status_word(status: str) -> str:
    return _(status) if status in STATUS_WORDS else status


def title_of(game: str) -> str:
    """A game's title in the locale in effect (its name when no game has it)."""
    return _(rules_text.GAMES[game]) if game in rules_text.GAMES else game


def table_link(guild_id: int, table: LiveTable) -> str:
    if table.message_id is None:
        return f"<#{table.channel_id}>"
    return _(
        "[jump]({url})",
        url=f"https://discord.com/channels/{guild_id}/{table.channel_id}/{table.message_id}",
    )


async def live_tables_page(
    bot: TanzakuBot, interaction: discord.Interaction[Any], page: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """One page of /tables; a moderator's page has a Close and refund button per table."""
    assert interaction.guild_id is not None
    tables = await bot.tables.live_tables(interaction.guild_id)
    pages = max(1, math.ceil(len(tables) / TABLES_PER_PAGE))
    page = min(max(page, 0), pages - 1)
    shown = tables[page * TABLES_PER_PAGE : (page + 1) * TABLES_PER_PAGE]
    lines = [
        _(
            "**#{table_id}** {game} · {status} · {seated} seated · host {host} · opened "
            "<t:{opened}:R> · {link}",
            table_id=str(t.id),
            game=title_of(t.game),
            status=status_word(t.status.value),
            seated=t.seated,
            host=render.mention(t.host_id),
            opened=str(int(t.created_at)),
            link=table_link(interaction.guild_id, t),
        )
        for t in shown
    ]
    embed = discord.Embed(
        title=_("Live tables ({count})", count=len(tables)),
        description="\n".join(lines) or _("No table is open on this server."),
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    if pages > 1:
        embed.set_footer(text=_("Page {page} of {pages}", page=str(page + 1), pages=str(pages)))
    view = discord.ui.View(timeout=None)
    if is_moderator(interaction):
        for table in shown:
            close = _("Close and refund #{table_id}", table_id=str(table.id))
            view.add_item(TablesButton("close", table.id, close))
    if pages > 1:
        older, newer = _("Previous"), _("Next")
        view.add_item(TablesButton("page", max(page - 1, 0), older, disabled=page == 0, row=4))
        view.add_item(TablesButton("page", page + 1, newer, disabled=page == pages - 1, row=4))
    return embed, view if view.children else None


class TablesButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=TABLES_TEMPLATE,
):
    """The buttons of /tables: paging, and a moderator's Close and refund (asked, then
    confirmed). Stateless: the custom id holds everything, so they work after a restart."""

    def __init__(
        self, verb: str, arg: int, label: str, *, disabled: bool = False, row: int | None = None
    ) -> None:
        style = discord.ButtonStyle.danger if verb != "page" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=tables_id(verb, arg),
                disabled=disabled,
                row=row,
            )
        )
        self.verb = verb
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> TablesButton:
        return cls(match["verb"], int(match["arg"]), render.label_of(item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: TanzakuBot = interaction.client
        try:
            if self.verb == "page":
                embed, view = await live_tables_page(bot, interaction, self.arg)
                await interaction.response.edit_message(embed=embed, view=view)
            elif not is_moderator(interaction):
                raise UserFacingError("Only a member with Manage Server can close a table.")
            elif self.verb == "close":
                await self._ask(bot, interaction)
            else:
                await close_and_refund(bot, interaction, self.arg)
        except UserFacingError as error:
            note_refusal(interaction, error.reason)
            await send_ephemeral(interaction, explain(error))

    async def _ask(self, bot: TanzakuBot, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        snapshot = await bot.tables.snapshot(self.arg, interaction.guild_id)
        if not snapshot.row.live:
            raise UserFacingError("Table #{table_id} has already ended.", table_id=str(self.arg))
        view = discord.ui.View(timeout=None)
        yes = _("Yes, close and refund #{table_id}", table_id=str(self.arg))
        view.add_item(TablesButton("confirm", self.arg, yes))
        await send_ephemeral(
            interaction,
            _(
                "Close table #{table_id} ({game}, {status})? Results already settled stand; "
                "every coin still at stake goes back (a round in play is settled at its exact "
                "value).",
                table_id=str(self.arg),
                game=title_of(snapshot.row.game),
                status=status_word(snapshot.row.status.value),
            ),
            view=view,
        )


async def close_and_refund(
    bot: TanzakuBot, interaction: discord.Interaction[Any], table_id: int
) -> None:
    """End a table as `/cancel` does for a moderator, through the hub like any outcome."""
    assert interaction.guild_id is not None
    await bot.tables.snapshot(table_id, interaction.guild_id)  # refuses other servers' tables
    outcome = await bot.tables.cancel(table_id, actor_of(interaction))
    closed = _("Table #{table_id} is closed; its stakes went back.", table_id=str(table_id))
    await TableHub.of(bot).answer(interaction, Acted(outcome, closed))


async def history_page(
    bot: TanzakuBot, guild_id: int, table: int, page: int | None
) -> tuple[discord.Embed, discord.ui.View | None]:
    """One page of a table's log, `HISTORY_LINES` steps a page (the last page when `page`
    is None). Read afresh at every page: only the steps anyone may see (a secret choice
    once revealed, never one replaced or never revealed: :func:`public_log`), numbered in
    that list (the log's own numbers would show where a hidden step was); an ended
    table's with its fairness seed."""
    snapshot, rows = await bot.tables.history(table, guild_id)
    live = snapshot.row.live
    steps = public_log(snapshot.spec, rows)
    pages = max(1, math.ceil(len(steps) / HISTORY_LINES))
    page = pages - 1 if page is None else min(max(page, 0), pages - 1)
    lines = []
    first_shown = page * HISTORY_LINES
    speaker = TableHub.of(bot).games.get(snapshot.spec.name)
    # Every step's events in turn, so a sentence reads the table as it was at its step.
    earlier: list[BaseModel] = []
    for number, step in enumerate(steps, start=1):
        row = step.row
        events = parsed_events(snapshot, json.loads(row.events_json))
        if first_shown < number <= first_shown + HISTORY_LINES:
            who = render.mention(row.actor_id) if row.actor_id else _("the table")
            text = step_line(speaker, snapshot, who, step.action, events, earlier)
            lines.append(f"`{number:>3}` {render.timestamp(row.at, 'T')} {text}")
        earlier.extend(events)
    if not live and snapshot.row.seed_hex:
        # The seed is public once the table has ended (/verify re-derives every roll).
        lines.append(_("Fairness seed: `{seed}`", seed=snapshot.row.seed_hex))
    embed = discord.Embed(
        title=_(
            "{game} — table #{table_id} ({status})",
            game=_(snapshot.spec.title),
            table_id=str(table),
            status=status_word(snapshot.status),
        ),
        description=render.clip("\n".join(lines) or _("Nothing yet."), 4096),
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    if pages == 1:
        return embed, None
    first, last = page * HISTORY_LINES + 1, min((page + 1) * HISTORY_LINES, len(steps))
    embed.set_footer(
        text=_(
            "Steps {first}–{last} of {count} · page {page} of {pages}",
            first=str(first),
            last=str(last),
            count=str(len(steps)),
            page=str(page + 1),
            pages=str(pages),
        )
    )
    view = discord.ui.View(timeout=None)
    older, newer = _("◀ Older"), _("Newer ▶")
    view.add_item(HistoryButton(table, max(page - 1, 0), older, disabled=page == 0))
    view.add_item(HistoryButton(table, page + 1, newer, disabled=page == pages - 1))
    return embed, view


class HistoryButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=HISTORY_TEMPLATE,
):
    """Paging of /history (an ephemeral answer: only its member sees and turns it)."""

    def __init__(self, table: int, page: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=history_id(table, page),
                disabled=disabled,
            )
        )
        self.table = table
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> HistoryButton:
        label = render.label_of(item)
        return cls(int(match["table"]), int(match["page"]), label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        try:
            embed, view = await history_page(
                interaction.client, interaction.guild_id, self.table, self.page
            )
        except UserFacingError as error:
            note_refusal(interaction, error.reason)
            await send_ephemeral(interaction, explain(error))
            return
        await interaction.response.edit_message(embed=embed, view=view)


class TablesCog(commands.Cog, name="Tables"):
    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot
        offer_games(self, bot.catalog)
        TableHub.of(bot)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TablesButton, HistoryButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(TablesButton, HistoryButton)

    @app_commands.command(name="tables", description="The live tables of this server.")
    async def tables(self, interaction: discord.Interaction[Any]) -> None:
        embed, view = await live_tables_page(self.bot, interaction, 0)
        if view is None:
            await send_ephemeral(interaction, embed=embed)
        else:
            await send_ephemeral(interaction, embed=embed, view=view)

    def playable(self) -> dict[str, str]:
        """Games this bot runs and has rules for: name → title."""
        return {
            name: rules_text.GAMES[name]
            for name in self.bot.registry.names()
            if name in rules_text.GAMES
        }

    @app_commands.command(name="rules", description="Read how a game is played.")
    @app_commands.describe(game="Which game")
    async def rules(self, interaction: discord.Interaction[Any], game: str) -> None:
        games = self.playable()
        if game not in games:
            # Answered here, not raised: the list of games is in the member's language.
            listed = _(", ").join(_(title) for title in games.values()) or _("none yet")
            await send_ephemeral(
                interaction,
                _(
                    "There is no game called “{name}” here. Games: {listed}.",
                    name=game[:40],
                    listed=listed,
                ),
            )
            return
        await interaction.response.send_message(**rules_page(game, 0).send_kwargs(), ephemeral=True)

    @rules.autocomplete("game")
    async def _games_like(
        self, interaction: discord.Interaction[Any], typed: str
    ) -> list[app_commands.Choice[str]]:
        typed = typed.casefold()
        # Matched on the title in the member's language and in English, and on the name.
        return [
            app_commands.Choice(name=_(title), value=name)
            for name, title in self.playable().items()
            if typed in _(title).casefold() or typed in title.casefold() or typed in name
        ][:25]

    @app_commands.command(name="history", description="What happened at a table, step by step.")
    @app_commands.describe(table="The table's number (shown in its title)")
    async def history(self, interaction: discord.Interaction[Any], table: TableId) -> None:
        assert interaction.guild_id is not None
        embed, view = await history_page(self.bot, interaction.guild_id, table, None)
        await interaction.response.send_message(
            embed=embed,
            view=view or discord.utils.MISSING,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="verify", description="Check a finished table's dice are fair.")
    @app_commands.describe(table="The table's number")
    async def verify(self, interaction: discord.Interaction[Any], table: TableId) -> None:
        assert interaction.guild_id is not None
        report = await self.bot.tables.verify(table, interaction.guild_id)
        verdict = (
            _("✅ Every roll matches the seed.") if report.matched else _("❌ Mismatch found.")
        )
        reason = _(report.reason_template or report.reason, **report.reason_params)
        embed = discord.Embed(
            title=_("Fairness check — table #{table_id}", table_id=str(table)),
            description="\n".join(
                (
                    verdict,
                    _("{reason}.", reason=reason),
                    "",
                    _(
                        "Outcomes re-derived: **{draws}** · actions replayed: **{actions}**",
                        draws=str(report.draws_checked),
                        actions=str(report.actions_replayed),
                    ),
                    _("Seed: `{seed}`", seed=report.seed_hex),
                    _("SHA-256 commitment: `{commitment}`", commitment=report.commitment),
                    _(
                        "Each outcome is HMAC-SHA256(seed, block) split into 32-bit words, "
                        "with rejection sampling for an exact uniform die."
                    ),
                    "",
                    _(
                        "Don't take my word for it: open the attached page in any browser. It "
                        "checks the seed against the commitment and re-derives every roll on "
                        "your own machine, then replays the table step by step."
                    ),
                )
            ),
            colour=discord.Colour(
                render.COLOUR_FINISHED if report.matched else render.COLOUR_CANCELLED
            ),
        )
        page = await replay_file(self.bot, table, interaction.guild_id)
        if page is None:
            embed.set_footer(text=_("The replay page is too large for Discord to attach."))
            await interaction.response.send_message(embed=embed, ephemeral=True)
            return
        await interaction.response.send_message(embed=embed, file=page, ephemeral=True)

    @app_commands.command(name="cancel", description="Cancel a lobby, or end a started table.")
    @app_commands.describe(
        table="The table's number: its host may cancel a lobby; a moderator may end any table"
    )
    async def cancel(self, interaction: discord.Interaction[Any], table: TableId) -> None:
        assert interaction.guild_id is not None
        await self.bot.tables.snapshot(table, interaction.guild_id)  # refuses other guilds
        outcome = await self.bot.tables.cancel(table, actor_of(interaction))
        if outcome.snapshot.state is not None:
            confirm = _(
                "Table #{table_id} is cancelled: results already settled stand; every coin "
                "still at stake came back or, on a round in play, was settled at its exact "
                "value.",
                table_id=str(table),
            )
        else:
            confirm = _(
                "Table #{table_id} is cancelled: every stake went back to its owner.",
                table_id=str(table),
            )
        # Through the hub like any outcome: the table message and the players' private
        # panels learn the table ended.
        await TableHub.of(self.bot).answer(interaction, Acted(outcome, confirm))

    @app_commands.command(name="stats", description="Games played, won and honours earned.")
    @app_commands.describe(member="Whose stats; yours by default", game="One game's only")
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        target = member or interaction.user
        if target.bot:
            raise UserFacingError("Bots do not play here, so they have no stats.")
        only = None if game is None else game.value
        stats = await self.bot.tables.stats(interaction.guild_id, target.id)
        results = await self.bot.tables.results(interaction.guild_id, target.id, only)
        per_game = records_by_game(results)
        # Coins are always shown with the server's currency, the reader's way (1,000両).
        currency = await self.bot.economy.currency(interaction.guild_id)
        by_game = stat_lines(stats, only, currency)
        rated = {r.game: r for r in await self.bot.tables.ratings(interaction.guild_id, target.id)}
        embed = discord.Embed(
            title=_("Stats — {member}", member=target.display_name),
            colour=discord.Colour(render.COLOUR_LOBBY),
        )
        for name, lines in by_game.items():
            record = per_game.get(name)
            if record is not None:
                best = render.coins(record.best_win, currency)
                lines.append(_("best win: **{value}**", value=best))
                lines.append(_("longest streak: **{value}**", value=record.longest_streak))
            if name in rated:
                lines.append(rating_line(rated[name]))
            embed.add_field(name=title_of(name), value="\n".join(lines))
        if not by_game:
            embed.description = _("No finished games yet.")
        points = running_net(results)
        if not points:
            await send_ephemeral(interaction, embed=embed)
            return
        # The legend in the reader's language: the chart draws with the pictures' font.
        png = draw_running_net(points, {name: title_of(name) for name in rules_text.GAMES})
        embed.set_image(url=f"attachment://{STATS_CHART}")
        # Alt text for the chart, which an embed image cannot carry itself.
        lowest, highest = min(v for _g, v in points), max(v for _g, v in points)
        embed.set_footer(
            text=_(
                "Chart: running net coins over the last {count} tables, from {lowest} at the "
                "lowest to {highest} at the highest; now {now}.",
                count=str(len(points)),
                lowest=render.signed_coins(lowest, currency),
                highest=render.signed_coins(highest, currency),
                now=render.signed_coins(points[-1][1], currency),
            )
        )
        await interaction.response.send_message(
            embed=embed, file=discord.File(io.BytesIO(png), filename=STATS_CHART), ephemeral=True
        )


def stat_lines(
    stats: dict[tuple[str, str], int], only: str | None, currency: str
) -> dict[str, list[str]]:
    """A member's counted stats, one ``stat: **value**`` line each, by game (``only``'s)."""
    by_game: dict[str, list[str]] = {}
    for (name, stat), value in sorted(stats.items()):
        if only is None or name == only:
            # A game's honour is named by its game (and translated in its catalog).
            shown = render.signed_coins(value, currency) if stat == "net" else value
            by_game.setdefault(name, []).append(_("{stat}: **{value}**", stat=_(stat), value=shown))
    return by_game


def rating_line(rated: RankedRating) -> str:
    """A game's skill rating and rank in /stats; a provisional one says so."""
    row = rated.rating
    shown = render.rating(row.mu, row.sigma, row.games)
    if Skill(row.mu, row.sigma, row.games).provisional:
        return _(
            "rating: **{rating}** (provisional: {games} of {needed} rated games) · rank "
            "**{rank}** of {count}",
            rating=shown,
            games=str(row.games),
            needed=str(PROVISIONAL_GAMES),
            rank=str(rated.rank),
            count=str(rated.of),
        )
    return _(
        "rating: **{rating}** · rank **{rank}** of {count}",
        rating=shown,
        rank=str(rated.rank),
        count=str(rated.of),
    )


async def setup(bot: TanzakuBot) -> None:
    await bot.add_cog(TablesCog(bot))
