"""Strength Duel in Discord: challenges, secret bids by DM, and the public reveal.

Secrecy is the whole game. A bid travels only through the bidder's own DM panel or an
ephemeral reply (cogs/_ui/private.py); the public table message says who has bid, never
how much, never whether a bid changed, never a tag request, until the round's reveal.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands

from bot.app import TanzakuBot
from bot.catalog import STRENGTH_DUEL
from bot.errors import NotAllowed
from bot.games import strength_duel as duel
from bot.i18n import N_
from cogs._ui.cog import GameCog, install_game
from cogs._ui.options import OPENER, SERVER, Options, Values, table
from cogs.strength_duel.ui import DuelUI

# Whole sentences per mode, the mode's name inside them (word order differs by language).
NO_MEMBER_IN = {
    "three": N_(
        "The three ninjas mode opens a lobby anyone can join; leave out `member` "
        "(or pick the duel or forbidden mode to challenge someone)."
    ),
    "tag": N_(
        "The tag team mode opens a lobby anyone can join; leave out `member` "
        "(or pick the duel or forbidden mode to challenge someone)."
    ),
}
MEMBER_NEEDED = {
    "duel": N_(
        "Whom do you challenge? The duel mode needs a `member` (or `/duel open` opens "
        "a table anyone can join)."
    ),
    "forbidden": N_(
        "Whom do you challenge? The forbidden number mode needs a `member` (or `/duel open` opens "
        "a table anyone can join)."
    ),
}

RULE_OPTIONS = """
stake          0..1_000_000_000 stake  Coins each ninja puts in the pot (default 10)
mode           duel|forbidden|three|tag  default=duel  duel (default), forbidden number,
               three players or tag teams
round_seconds  15..3600  default=120  Seconds to bid each round (default 120)
"""
OPTIONS = Options(
    duel.Rules,
    table("""
member         member  default=none  Who you challenge (duel and forbidden modes; three and
               tag open a lobby)
""" + RULE_OPTIONS),
    house_edge={
        # The stake goes player to player; against the computer the house stakes it at
        # an edge of exactly 0 (the equilibrium), within /config stakes.
        "stake": OPENER,
        "mode": OPENER,  # the house stakes only in the two-player duel (bot/players)
        "round_seconds": OPENER,  # a missed bid is 0, a move the equilibrium answers
        # The game the house's equilibrium is solved for: never an opener's.
        "max_rounds": SERVER,
        "afk_rounds_to_forfeit": SERVER,
    },
)  # fmt: skip
OPEN_OPTIONS = Options(duel.Rules, table(RULE_OPTIONS))
"""`/duel open`: the same table, a lobby anyone can join (no one challenged)."""


async def challenge(cog: DuelCog, interaction: discord.Interaction[Any], values: Values) -> None:
    assert interaction.guild_id is not None
    member: discord.Member | None = values["member"]
    mode, stake = values["mode"], values["stake"]
    group = mode in ("three", "tag")
    if group and member is not None:
        # Refused rather than ignored: a challenger should not think it was sent.
        raise NotAllowed(NO_MEMBER_IN[mode])
    if not group and member is None:
        raise NotAllowed(MEMBER_NEEDED[mode])
    rules = cog.rules_from(values)
    await cog.open_or_challenge(interaction, rules, member, stake)


async def open_lobby(cog: DuelCog, interaction: discord.Interaction[Any], values: Values) -> None:
    await cog.open_with(interaction, values, OPEN_OPTIONS)  # read by /duel open's own options


class DuelCog(GameCog, commands.GroupCog, group_name="duel", group_description=STRENGTH_DUEL.title):
    ui: DuelUI
    options = OPTIONS
    challenge = OPTIONS.command("challenge", "Challenge a member to a Strength Duel.", challenge)
    open = OPEN_OPTIONS.command(
        "open", "Open a Strength Duel table in this channel that anyone can join.", open_lobby
    )


async def setup(bot: TanzakuBot) -> None:
    await install_game(bot, DuelUI, DuelCog)
