"""Nuki Hachi-hachi in Discord: /hanafuda open and yaku; the table message and each
player's private hand.

The table message (edited in place) shows the field as a picture and a list, never a hand.
Each seated player presses "My hand" for an ephemeral answer: their hand and the field as
one picture, the list, and a button for every legal play (the engine's
``legal_actions``); a card that matches two field cards opens a second step that picks
the capture. Decisions (mizuten, play or drop, claims, sage / shoubu / cancel) appear
only in the hand of the player who must make them. The hand answer is edited after every
turn (cogs/_ui/hands.py); an answer drawn at an earlier ply is refused politely.
Rules: bot/games/hachihachi/; words: cogs/hachihachi/words.py; pictures:
cogs/hachihachi/art.py (the card tiles in cogs/hachihachi/tiles.py).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot import fonts
from bot.app import TanzakuBot
from bot.catalog import HACHIHACHI
from bot.errors import InsufficientFunds
from bot.games import hachihachi as hh
from bot.games.hachihachi import models as hm
from cogs._ui.cog import GameCog, install_game
from cogs._ui.options import OPENER, Options, table
from cogs.hachihachi import words
from cogs.hachihachi.buttons import card_arg, claim_arg, claim_from, decision, play_from
from cogs.hachihachi.ui import HachiHachiUI

__all__ = [
    "OPTIONS",
    "HachiHachiCog",
    "HachiHachiUI",
    "card_arg",
    "claim_arg",
    "claim_from",
    "decision",
    "play_from",
    "setup",
]
"""The game's surface: its cog and options, its UI, and how its buttons write a move."""

OPTIONS = Options(
    hm.Rules,
    table("""
stake_per_kan  0..1_000_000 stake  Coins per kan of score (default 1; 1 kan = 10 points;
               0: no coins)
rounds         1..48    Rounds in the match (default 12)
seats>seated_players  2..4  Players at the table (default 2; two play each round)
points_per_kan  10|12   default=10  Points in a kan (default 10)
mizuten        bool     The dealer may play blind (default on)
teyaku_claims  auto|manual  default=auto  Claim teyaku for players, or give each a private step
field_mode>field_multiplier_mode  carry_over|stack  default=carry_over  Large Fields
               carried over (x2), or stacked (x1-x8)
rain_man_phoenix>rain_man_phoenix_make_large_field  bool  The Rain Man and the Phoenix make
               Large Fields too (default off)
extend>extend_game_for_carryover  bool  Extra rounds while a Large Field is carried over
               (default off)
diving>diving_eligibility  triplet_or_haneken|triplet_only  default=triplet_or_haneken
               Which claimed teyaku earn Diving
escape_excludes_one_bright  bool  One Bright earns no Escape (default off)
boar_deer_butterflies  bool  Boar-Deer-Butterflies dekiyaku (never made here; default off)
dropout_penalties  bool  3-4 players: dropping out pays into a pot (default off)
forced_out_compensation  bool  3-4 players: forced-out players are compensated (default off)
must_two_play  bool     3-4 players: the last two not dropped must play (default off)
shuffle_draw_after_dropouts  bool  3-4 players: shuffle the dropped hands in (default on)
first_dealer   draw|first_seat  default=draw  Draw for the first dealer, or seat 1 deals
turn_seconds   15..3600  Seconds for each decision (default 90)
afk_turns>afk_rounds_to_forfeit  1..20  Decisions in a row the clock makes that forfeit
               the match (default 3)
"""),
    convert=lambda rules: {**rules, "points_per_kan": int(rules["points_per_kan"])},
    # Every payment goes player to player; the computer plays for no coins.
    house_edge=dict.fromkeys(
        (
            "seated_players", "rounds", "points_per_kan", "mizuten", "teyaku_claims",
            "field_multiplier_mode", "rain_man_phoenix_make_large_field",
            "extend_game_for_carryover", "boar_deer_butterflies", "diving_eligibility",
            "escape_excludes_one_bright", "dropout_penalties", "forced_out_compensation",
            "must_two_play", "shuffle_draw_after_dropouts", "first_dealer", "stake_per_kan",
            "turn_seconds", "afk_rounds_to_forfeit",
        ),
        OPENER,
    ),
)  # fmt: skip


class HachiHachiCog(
    GameCog, commands.GroupCog, group_name="hanafuda", group_description=HACHIHACHI.title
):
    ui: HachiHachiUI
    options = OPTIONS
    open = OPTIONS.command(
        "open", "Open a Nuki Hachi-hachi table in this channel.", GameCog.open_with
    )

    def open_refusal(self, short: InsufficientFunds, rules: BaseModel) -> str | None:
        if not isinstance(rules, hh.Rules):
            return None
        # The escrow is one round's worst case, whatever the match's length: say so, and
        # the stake it covers.
        fit = hh.affordable_stake(rules, short.balance)
        return words.escrow_refusal(short, rules, fit)

    @app_commands.command(name="yaku", description="The teyaku and dekiyaku, with their values.")
    async def yaku(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=words.yaku_embed(), ephemeral=True)


async def setup(bot: TanzakuBot) -> None:
    # The pictures' font (Noto Sans CJK JP, a pip dependency) must be there before a table
    # opens: a missing font stops the start with FontMissing, never a picture of boxes.
    fonts.check()
    await install_game(bot, HachiHachiUI, HachiHachiCog)
