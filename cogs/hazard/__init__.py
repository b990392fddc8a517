"""Hazard in Discord: /hazard open, bet, odds, close; the caster's select and buttons.

A bet button opens a private picker (cogs/_ui/forms.py): quick amounts within the table
limits and the member's wallet, "Max" and "Other amount…". The rules live in the engine
(bot/games/hazard.py), the table message in cogs/hazard/ui.py, the words in
cogs/hazard/words.py; this module declares the commands and options."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TanzakuBot
from bot.errors import UserFacingError
from bot.games import hazard
from cogs._ui.cog import GameCog, install_game
from cogs._ui.options import FIXED, OPENER, SERVER, Options, table
from cogs.hazard.ui import HazardUI
from cogs.hazard.words import odds_embed

# `server`: only the server's moderators set it (/config rule), never the opener. The
# "against" terms set the bank's edge on that bet; odds bets are paid at fair odds (edge 0),
# so whether they are taken and how large they may be move the bank's edge per coin and
# its exposure. The limits, clocks and seats are the opener's: every bet keeps the same
# edge whatever they are, and the bank refuses a bet it could not pay out.
OPTIONS = Options(
    hazard.Rules,
    table("""
min_stake           1..1_000_000      stake  Smallest bet (default 1)
max_stake           1..1_000_000_000  stake  Largest bet (default 1000)
odds_bets           bool  server  Allow odds bets once a chance is set (default on)
odds_max_multiple   0..10  server  Odds bets up to this many times the stake (default 1)
throw_seconds       15..3600  Seconds the caster has before the table throws (default 60)
bet_seconds         0..600  Betting window after the main is called, in seconds
                            (default 20; 0: none)
against_bar         bool  server  A first throw of 2 pushes 'against' bets (default on)
against_commission  0..50  server  Percent kept from 'against' winnings (default 0; at
                            least 5 without the bar)
absent_rounds>absent_rounds_to_lose_dice  0..10  Absent rounds in a row before the dice
                            pass (default 2; 0: never)
seats>max_players   1..10   Most players at the table (default 10)
"""),
    # A table everyone walked away from closes after the dice have gone twice round it
    # by absence, rather than throwing for nobody forever.
    fixed={"idle_laps_to_close": 2},
    house_edge={
        # Every bet keeps its edge whatever the limits; the bank refuses a bet it could not
        # pay out (bot/service/acting.py), and the clocks and seats pay nobody.
        "min_stake": OPENER,
        "max_stake": OPENER,
        "throw_seconds": OPENER,
        "bet_seconds": OPENER,
        "absent_rounds_to_lose_dice": OPENER,
        "max_players": OPENER,
        # The "against" edge itself; fair odds bets (edge 0) dilute the bank's edge per
        # coin and multiply its exposure.
        "against_bar": SERVER,
        "against_commission": SERVER,
        "odds_bets": SERVER,
        "odds_max_multiple": SERVER,
        "idle_laps_to_close": FIXED,
    },
)


class HazardCog(
    GameCog, commands.GroupCog, group_name="hazard", group_description="Hazard, the old dice game"
):
    ui: HazardUI
    options = OPTIONS
    # The engine's Rules refuse limits out of order and any option set that would let a
    # bet favour the player; open_with turns that into the member's answer.
    open = OPTIONS.command("open", "Open a Hazard table in this channel.", GameCog.open_with)

    @app_commands.command(name="bet", description="Bet at this channel's Hazard table.")
    @app_commands.describe(kind="What to bet on", amount="How many coins")
    async def bet(
        self,
        interaction: discord.Interaction[Any],
        kind: Literal["caster", "with", "against", "odds_for", "odds_against"],
        amount: app_commands.Range[int, 1, 1_000_000_000],
    ) -> None:
        table = await self.live_table(interaction)
        await self.answer(interaction, await self.ui.bets.place(interaction, table, kind, amount))

    @app_commands.command(name="odds", description="The exact odds of Hazard, main by main.")
    @app_commands.describe(main="One main (5–9); all by default")
    async def odds(
        self,
        interaction: discord.Interaction[Any],
        main: app_commands.Range[int, 5, 9] | None = None,
    ) -> None:
        try:  # the channel's table's "against" terms, when it has one; defaults otherwise
            rules = (await self.bot.tables.snapshot(await self.live_table(interaction))).rules
        except UserFacingError:
            rules = None
        await interaction.response.send_message(embed=odds_embed(main, rules), ephemeral=True)

    @app_commands.command(
        name="close", description="Close this channel's Hazard table (host or moderator)."
    )
    async def close(self, interaction: discord.Interaction[Any]) -> None:
        table = await self.live_table(interaction)
        await self.answer(interaction, await self.ui.act(interaction, table, hazard.Close()))


async def setup(bot: TanzakuBot) -> None:
    await install_game(bot, HazardUI, HazardCog)
