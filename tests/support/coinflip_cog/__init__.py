"""The coin-flip test game in Discord: proves lobby, buttons and deadlines end to end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.app import TanzakuBot
from bot.games.common import is_computer
from bot.service import Outcome, TableSnapshot, parse_rules
from cogs._ui import render
from cogs._ui.cog import GameCog, install_game
from cogs._ui.game import Game as GameUI
from cogs._ui.options import Options, table
from cogs._ui.primitives import Payload, button, send_ephemeral, view_of
from cogs._ui.private import send_private
from tests.support import coinflip
from tests.support.coinflip import COINFLIP


class CoinflipUI(GameUI, record=COINFLIP):
    def describe_rules(self, snapshot: TableSnapshot) -> list[str]:
        return [f"Rake: {snapshot.rules.rake}"]

    async def after(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        if outcome.kind == "started":
            for player in outcome.snapshot.seats:
                if is_computer(player):
                    continue
                await send_private(
                    self.host, player, outcome.snapshot.id, f"Table #{outcome.snapshot.id} began."
                )

    def controls(self, snapshot: TableSnapshot) -> discord.ui.View:
        ply = snapshot.state.ply
        return view_of(
            button(snapshot.id, ply, "call", "Heads", arg="heads"),
            button(snapshot.id, ply, "call", "Tails", arg="tails"),
            button(snapshot.id, ply, "raise", "Raise 5", arg="5"),
        )

    def render_game(self, snapshot: TableSnapshot, events: Sequence[BaseModel]) -> Payload:
        state = snapshot.state
        lines = [f"Seats: {', '.join(render.mention(p) for p in state.seats)}"]
        if state.finished:
            lines.append(f"Winner: {render.mention(state.winner)}")
        else:
            lines.append(f"To call: {render.mention(state.seats[state.turn])}")
        for event in events:
            if getattr(event, "kind", "") == "flipped":
                lines.append(f"Flip landed {event.landed}")  # type: ignore[attr-defined]
        embed = discord.Embed(title=f"Coin Flip #{snapshot.id}", description="\n".join(lines))
        return Payload(embed, None if state.finished else self.controls(snapshot))

    def action_for(
        self, snapshot_id: int, verb: str, arg: str | None, values: Sequence[str]
    ) -> BaseModel:
        if verb == "call" and arg in ("heads", "tails"):
            return coinflip.Call(side=arg)
        if verb == "raise" and arg:
            return coinflip.Raise(amount=int(arg))
        return super().action_for(snapshot_id, verb, arg, values)


CUSTOM = Options(
    coinflip.Rules,
    table("""
stake          0..1000  Coins each player puts in
rake           0..10    Coins the house keeps
turn_seconds   1..600   Seconds a turn waits
"""),
    presets={"quick": {"turn_seconds": 10}},
)
# Past a slash command's 25 options a game keeps some for the follow-up form; two are
# enough to drive that path end to end.
CUSTOM = replace(
    CUSTOM,
    options=[CUSTOM.options[0], *(replace(o, inline=False) for o in CUSTOM.options[1:])],
)


@app_commands.guild_only()
class CoinflipCog(
    GameCog, commands.GroupCog, group_name="coinflip", group_description="Test coin flip"
):
    ui: CoinflipUI
    options = CUSTOM

    @app_commands.command(name="open", description="Open a coin flip table")
    async def open(
        self, interaction: discord.Interaction[Any], stake: int = 10, rake: int = 0
    ) -> None:
        # Declared by hand, not by its options: the plain path a command may still take.
        rules = parse_rules(self.bot.registry.get(self.ui.game), {"stake": stake, "rake": rake})
        await self.open_table(interaction, rules)

    custom = CUSTOM.command(
        "custom", "Open a coin flip table with presets and a form", GameCog.open_with
    )

    @app_commands.command(name="panel", description="Your own copy of a table's buttons")
    async def panel(self, interaction: discord.Interaction[Any], table: int) -> None:
        snapshot = await self.bot.tables.snapshot(table)
        await send_ephemeral(interaction, "Your controls:", view=self.ui.controls(snapshot))


async def setup(bot: TanzakuBot) -> None:
    await install_game(bot, CoinflipUI, CoinflipCog)
