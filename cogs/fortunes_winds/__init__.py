"""Fortunes and Winds in Discord: /fortunes open, bet, odds; the shooter's dice buttons.

The table message shows the five dice, the bets and the turn's settlements. White dice
are picked with toggle buttons (cogs/_ui/picks.py: the choice lives in the buttons, so a
half-made choice survives a restart) and set aside by "Roll again"; "Best keep" answers
privately from the engine's exact keeping. Rules: bot/games/fortunes_winds.py; words:
cogs/fortunes_winds/words.py."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TanzakuBot
from bot.catalog import FORTUNES_WINDS
from bot.games import fortunes_winds as fw
from cogs._ui.cog import GameCog, install_game
from cogs._ui.options import FIXED, OPENER, SERVER, Options, table
from cogs.fortunes_winds import words
from cogs.fortunes_winds.ui import FortunesUI

# `server`: only the server's moderators set it (/config rule), never the opener. The
# guard decides whether the table can beat the bank at all (off, a shooter and friends
# farm it: /config rule says by how much, `words.unguarded_note`); "against" bets pay on a
# shooter who can refuse to keep (+56.3% for the bettor unguarded), so taking them moves
# the bank's edge. `banker` stays the opener's: with a player banker no house coin is in
# play (the computer never bets or banks there).
OPTIONS = Options(
    fw.Rules,
    table("""
min_stake     1..1_000_000      stake  Smallest bet (default 1)
max_stake     1..1_000_000_000  stake  Largest bet (default 100)
banker        house|player  default=house  Who banks: the house, or the richest player's wallet
against_bets>allow_bet_against  bool  server  Take bets against the shooter (default on)
house_guard   bool  server  Refuse bets that would let the table beat the house (default on)
bet_seconds   0..600   Betting window before each turn, in seconds (default 30;
                       0: open until the first roll)
roll_seconds  5..3600  Seconds the shooter has before the table rolls (default 60)
seats>max_players  2..25  Most players at the table (default 8)
"""),
    notes={"house_guard": words.unguarded_note, "against_bets": words.unguarded_note},
    convert=lambda rules: {
        **{k: v for k, v in rules.items() if k != "banker"},
        "player_banker": rules["banker"] == "player",
    },
    house_edge={
        "min_stake": OPENER,
        "max_stake": OPENER,
        "bet_seconds": OPENER,
        "roll_seconds": OPENER,
        "max_players": OPENER,
        # A player banker takes the house out of the table: no house coin is in play
        # (the computer never bets or banks there: bot/players/fortunes_winds.py).
        "player_banker": OPENER,
        # Off, a shooter and friends farm the bank (1,000 -> 1,594 in two computer turns).
        "house_guard": SERVER,
        # Pays on a shooter who can refuse to keep (above).
        "allow_bet_against": SERVER,
        # Set by the table service from the computer seats, never an option.
        "house_seats": FIXED,
    },
)  # fmt: skip


class FortunesCog(
    GameCog, commands.GroupCog, group_name="fortunes", group_description=FORTUNES_WINDS.title
):
    ui: FortunesUI
    options = OPTIONS
    open = OPTIONS.command(
        "open", "Open a Fortunes and Winds table in this channel.", GameCog.open_with
    )

    @app_commands.command(name="bet", description="Bet at this channel's Fortunes and Winds table.")
    @app_commands.describe(kind="What to bet on", amount="How many coins")
    async def bet(
        self, interaction: discord.Interaction[Any],
        kind: Literal["shooter", "ride", "daikoku", "against", "tea", "hungry"],
        amount: app_commands.Range[int, 1, 1_000_000_000],
    ) -> None:  # fmt: skip
        table = await self.live_table(interaction)
        await self.answer(interaction, await self.ui.bets.place(interaction, table, kind, amount))

    @app_commands.command(
        name="odds", description="Exact odds and every bet's edge, from the dice."
    )
    async def odds(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=words.odds_embed(), ephemeral=True)


async def setup(bot: TanzakuBot) -> None:
    await install_game(bot, FortunesUI, FortunesCog)
