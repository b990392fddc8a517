"""Table tools for every game: /rules, /history, /verify and /stats."""

from __future__ import annotations

import json
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import rules_text
from bot.app import TanzakuBot
from bot.errors import UserFacingError
from bot.service import LogKind
from cogs._ui import render
from cogs._ui.hub import TableHub, actor_of, send_ephemeral
from cogs._ui.rules_pages import rules_page

HISTORY_LINES = 25
TABLE_ID_MAX = 2**53
"""Table ids are SQLite rowids; past 2^53 a number no longer survives JSON in clients."""
TableId = app_commands.Range[int, 1, TABLE_ID_MAX]
SECRET_WHILE_LIVE = "(a private choice — shown when the table ends)"


def describe_logged(data: dict[str, Any]) -> str:
    kind = str(data.get("kind", "?"))
    labels = {
        LogKind.OPEN: "opened the table",
        LogKind.JOIN: "joined",
        LogKind.LEAVE: "left",
        LogKind.START: "started the game",
        LogKind.CANCEL: "cancelled the table",
        LogKind.EXPIRE: "the lobby expired",
        LogKind.WITHDRAW: "the table message could not be posted; cancelled",
        LogKind.ABANDON: "the game could not go on; ended with refunds",
        "abort": "ended the table (moderator)",
        "deadline": "time ran out",
    }
    if kind in labels:
        return labels[kind]
    fields = ", ".join(f"{k}={v}" for k, v in data.items() if k not in ("kind", "action"))
    name = str(data.get("action", kind))
    return f"{name}({fields})" if fields else name


class TablesCog(commands.Cog, name="Tables"):
    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot
        TableHub.of(bot)

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
        snapshot, rows = await self.bot.tables.history(table, interaction.guild_id)
        lines = []
        for row in rows[-HISTORY_LINES:]:
            who = render.mention(row.actor_id) if row.actor_id else "the table"
            data = json.loads(row.action_json)
            # While a table runs, a player's action may be a secret (a bid, a choice); only
            # its public consequences are listed until the end.
            secret = snapshot.row.live and not LogKind.is_table_step(data.get("kind"))
            what = SECRET_WHILE_LIVE if secret and row.actor_id else describe_logged(data)
            events = [str(event.get("kind")) for event in json.loads(row.events_json)]
            tail = f" → {', '.join(events)}" if events else ""
            lines.append(f"`{row.seq:>3}` {render.timestamp(row.at, 'T')} {who}: {what}{tail}")
        embed = discord.Embed(
            title=f"{snapshot.spec.title} — table #{table} ({snapshot.status})",
            description=render.clip("\n".join(lines) or "Nothing yet.", 4096),
            colour=discord.Colour(render.COLOUR_LOBBY),
        )
        if len(rows) > HISTORY_LINES:
            embed.set_footer(text=f"Last {HISTORY_LINES} of {len(rows)} steps.")
        await interaction.response.send_message(
            embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
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
                "with rejection sampling for an exact uniform die."
            ),
            colour=discord.Colour(
                render.COLOUR_FINISHED if report.matched else render.COLOUR_CANCELLED
            ),
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

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
    @app_commands.describe(member="Whose stats; yours by default")
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        assert interaction.guild_id is not None
        target = member or interaction.user
        if target.bot:
            raise UserFacingError("Bots do not play here, so they have no stats.")
        stats = await self.bot.tables.stats(interaction.guild_id, target.id)
        by_game: dict[str, list[str]] = {}
        for (game, stat), value in sorted(stats.items()):
            by_game.setdefault(game, []).append(f"{stat}: **{value:,}**")
        embed = discord.Embed(
            title=f"Stats — {target.display_name}", colour=discord.Colour(render.COLOUR_LOBBY)
        )
        for game, lines in by_game.items():
            embed.add_field(name=rules_text.GAMES.get(game, game), value="\n".join(lines))
        if not by_game:
            embed.description = "No finished games yet."
        await send_ephemeral(interaction, embed=embed)


async def setup(bot: TanzakuBot) -> None:
    await bot.add_cog(TablesCog(bot))
