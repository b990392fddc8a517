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
from bot.errors import UserFacingError
from bot.interactions import note_refusal
from bot.records import records_by_game, running_net
from bot.service.verify import public_log
from bot.storage.table_queries import LiveTable
from cogs._ui import render
from cogs._ui.custom_ids import HISTORY_TEMPLATE, TABLES_TEMPLATE, history_id, tables_id
from cogs._ui.hub import TableHub
from cogs._ui.options import GAME_CHOICES
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


def table_link(guild_id: int, table: LiveTable) -> str:
    if table.message_id is None:
        return f"<#{table.channel_id}>"
    return f"[jump](https://discord.com/channels/{guild_id}/{table.channel_id}/{table.message_id})"


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
        f"**#{t.id}** {rules_text.GAMES.get(t.game, t.game)} · {t.status.value} · "
        f"{t.seated} seated · host {render.mention(t.host_id)} · opened <t:{int(t.created_at)}:R>"
        f" · {table_link(interaction.guild_id, t)}"
        for t in shown
    ]
    embed = discord.Embed(
        title=f"Live tables ({len(tables)})",
        description="\n".join(lines) or "No table is open on this server.",
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    if pages > 1:
        embed.set_footer(text=f"Page {page + 1} of {pages}")
    view = discord.ui.View(timeout=None)
    if is_moderator(interaction):
        for table in shown:
            view.add_item(TablesButton("close", table.id, f"Close and refund #{table.id}"))
    if pages > 1:
        view.add_item(TablesButton("page", max(page - 1, 0), "Previous", disabled=page == 0, row=4))
        view.add_item(TablesButton("page", page + 1, "Next", disabled=page == pages - 1, row=4))
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
            await send_ephemeral(interaction, str(error))

    async def _ask(self, bot: TanzakuBot, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        snapshot = await bot.tables.snapshot(self.arg, interaction.guild_id)
        if not snapshot.row.live:
            raise UserFacingError(f"Table #{self.arg} has already ended.")
        view = discord.ui.View(timeout=None)
        view.add_item(TablesButton("confirm", self.arg, f"Yes, close and refund #{self.arg}"))
        game = rules_text.GAMES.get(snapshot.row.game, snapshot.row.game)
        await send_ephemeral(
            interaction,
            f"Close table #{self.arg} ({game}, {snapshot.row.status.value})? Results already "
            "settled stand; every coin still "
            "at stake goes back (a round in play is settled at its exact value).",
            view=view,
        )


async def close_and_refund(
    bot: TanzakuBot, interaction: discord.Interaction[Any], table_id: int
) -> None:
    """End a table as `/cancel` does for a moderator, through the hub like any outcome."""
    assert interaction.guild_id is not None
    await bot.tables.snapshot(table_id, interaction.guild_id)  # refuses other servers' tables
    outcome = await bot.tables.cancel(table_id, actor_of(interaction))
    await TableHub.of(bot).answer(
        interaction, outcome, confirm=f"Table #{table_id} is closed; its stakes went back."
    )


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
            who = render.mention(row.actor_id) if row.actor_id else "the table"
            text = step_line(speaker, snapshot, who, step.action, events, earlier)
            lines.append(f"`{number:>3}` {render.timestamp(row.at, 'T')} {text}")
        earlier.extend(events)
    if not live and snapshot.row.seed_hex:
        # The seed is public once the table has ended (/verify re-derives every roll).
        lines.append(f"Fairness seed: `{snapshot.row.seed_hex}`")
    embed = discord.Embed(
        title=f"{snapshot.spec.title} — table #{table} ({snapshot.status})",
        description=render.clip("\n".join(lines) or "Nothing yet.", 4096),
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    if pages == 1:
        return embed, None
    first, last = page * HISTORY_LINES + 1, min((page + 1) * HISTORY_LINES, len(steps))
    embed.set_footer(text=f"Steps {first}–{last} of {len(steps)} · page {page + 1} of {pages}")
    view = discord.ui.View(timeout=None)
    view.add_item(HistoryButton(table, max(page - 1, 0), "◀ Older", disabled=page == 0))
    view.add_item(HistoryButton(table, page + 1, "Newer ▶", disabled=page == pages - 1))
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
            await send_ephemeral(interaction, str(error))
            return
        await interaction.response.edit_message(embed=embed, view=view)


class TablesCog(commands.Cog, name="Tables"):
    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot
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
            listed = ", ".join(games.values()) or "none yet"
            raise UserFacingError(f"There is no game called “{game[:40]}” here. Games: {listed}.")
        await interaction.response.send_message(**rules_page(game, 0).as_kwargs(), ephemeral=True)

    @rules.autocomplete("game")
    async def _games_like(
        self, interaction: discord.Interaction[Any], typed: str
    ) -> list[app_commands.Choice[str]]:
        typed = typed.casefold()
        return [
            app_commands.Choice(name=title, value=name)
            for name, title in self.playable().items()
            if typed in title.casefold() or typed in name
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
        verdict = "✅ Every roll matches the seed." if report.matched else "❌ Mismatch found."
        embed = discord.Embed(
            title=f"Fairness check — table #{table}",
            description=(
                f"{verdict}\n{report.reason}.\n\n"
                f"Outcomes re-derived: **{report.draws_checked}** · "
                f"actions replayed: **{report.actions_replayed}**\n"
                f"Seed: `{report.seed_hex}`\nSHA-256 commitment: `{report.commitment}`\n"
                "Each outcome is HMAC-SHA256(seed, block) split into 32-bit words, "
                "with rejection sampling for an exact uniform die.\n\n"
                "Don't take my word for it: open the attached page in any browser. It checks "
                "the seed against the commitment and re-derives every roll on your own "
                "machine, then replays the table step by step."
            ),
            colour=discord.Colour(
                render.COLOUR_FINISHED if report.matched else render.COLOUR_CANCELLED
            ),
        )
        page = await replay_file(self.bot, table, interaction.guild_id)
        if page is None:
            embed.set_footer(text="The replay page is too large for Discord to attach.")
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
        settled = (
            "results already settled stand; every coin still at stake came back or, on a round "
            "in play, was settled at its exact value"
            if outcome.snapshot.state is not None
            else "every stake went back to its owner"
        )
        # Through the hub like any outcome: the table message and the players' private
        # panels learn the table ended.
        await TableHub.of(self.bot).answer(
            interaction, outcome, confirm=f"Table #{table} is cancelled: {settled}."
        )

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
        by_game: dict[str, list[str]] = {}
        for (name, stat), value in sorted(stats.items()):
            if only is None or name == only:
                by_game.setdefault(name, []).append(f"{stat}: **{value:,}**")
        embed = discord.Embed(
            title=f"Stats — {target.display_name}", colour=discord.Colour(render.COLOUR_LOBBY)
        )
        for name, lines in by_game.items():
            record = per_game.get(name)
            if record is not None:
                lines.append(f"best win: **{record.best_win:,}**")
                lines.append(f"longest streak: **{record.longest_streak:,}**")
            embed.add_field(name=rules_text.GAMES.get(name, name), value="\n".join(lines))
        if not by_game:
            embed.description = "No finished games yet."
        points = running_net(results)
        if not points:
            await send_ephemeral(interaction, embed=embed)
            return
        png = draw_running_net(points, rules_text.GAMES)
        embed.set_image(url=f"attachment://{STATS_CHART}")
        # Alt text for the chart, which an embed image cannot carry itself.
        lowest, highest = min(v for _, v in points), max(v for _, v in points)
        embed.set_footer(
            text=f"Chart: running net coins over the last {len(points)} tables, "
            f"from {lowest:+,} at the lowest to {highest:+,} at the highest; "
            f"now {points[-1][1]:+,}."
        )
        await interaction.response.send_message(
            embed=embed, file=discord.File(io.BytesIO(png), filename=STATS_CHART), ephemeral=True
        )


async def setup(bot: TanzakuBot) -> None:
    await bot.add_cog(TablesCog(bot))
