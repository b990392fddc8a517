"""Nihakyu in Discord: /nihakyu open and eject; simultaneous rounds on the table message."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TanzakuBot
from bot.games import nihakyu
from bot.i18n import _
from cogs._ui.cog import GameCog, install_game
from cogs._ui.options import FIXED, OPENER, SERVER, Options, server_while, table
from cogs.nihakyu.ui import NihakyuUI

# `server`: only the server's moderators set it (/config rule), never the opener. With
# Dealer's Blood the house takes half a pot the Dealer outlasts: whether it plays is the
# house's edge, and while it does, every option that changes how long the players last
# against the Dealer moves that edge too (a Shadow Step loses 5, the Dealer's roll 10.5 on
# average), so those are the server's then (server_while). Catching a natural 1 is a
# sanction (ejection and forfeit), a moderator's word, and can leave the pot to the house.
# The ante stays the opener's within /config stakes: it scales the pot, not any share.
DEALER_SHAPED = (
    "kage_endurance", "shadow_step", "shadow_step_uses", "shinobi_interference",
    "sleight_bonus", "starting_stamina",
)  # fmt: skip
OPTIONS = Options(
    nihakyu.Rules,
    table("""
ante                   0..1_000_000_000 stake  Coins each player puts in the pot (default 10)
kage_endurance         bool  Variant: roll 2d20 and lose the lower, once, for a second ante
shadow_step            bool  Variant: lose 5 instead of rolling
shadow_step_uses       0..100  Shadow Steps allowed per player (default unlimited)
dealers_blood          bool  server  Variant: a neutral Dealer the players must outlast
shinobi_interference   bool  Variant: Sleight of Hand checks after the dice
sleight_bonus          -10..10  Bonus to Sleight of Hand checks (default 0)
caught_on_natural_one  bool  server  House rule: a natural 1 on a Sleight check is caught
                             cheating
starting_stamina       20..1000  House rule: Stamina at the start (default 200)
round_seconds          10..3600  Seconds a round waits for choices (default 60)
"""),
    server_while={"dealers_blood": DEALER_SHAPED},
    house_edge={
        "ante": OPENER,  # scales the pot, within /config stakes; no share changes
        "round_seconds": OPENER,  # the deadline plays a plain Roll, the game's own move
        # The house takes half a pot the Dealer outlasts.
        "dealers_blood": SERVER,
        # A sanction (ejection, forfeit), and it can leave the pot to the house.
        "caught_on_natural_one": SERVER,
        # How long the players outlast the Dealer: the house's share while it plays.
        "kage_endurance": server_while("dealers_blood"),
        "shadow_step": server_while("dealers_blood"),
        "shadow_step_uses": server_while("dealers_blood"),
        "shinobi_interference": server_while("dealers_blood"),
        "sleight_bonus": server_while("dealers_blood"),
        "starting_stamina": server_while("dealers_blood"),
        "sleight_seconds": FIXED,
        "afk_rounds_to_forfeit": FIXED,
        "max_players": FIXED,
    },
)


class NihakyuCog(
    GameCog,
    commands.GroupCog,
    group_name="nihakyu",
    group_description="Nihakyu, the Two-Hundred Game",
):
    ui: NihakyuUI
    options = OPTIONS
    open = OPTIONS.command("open", "Open a Nihakyu table in this channel.", GameCog.open_with)

    @app_commands.command(name="eject", description="Eject a player for a forbidden technique.")
    @app_commands.describe(member="The player to eject (moderators not seated at the table)")
    async def eject(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        # Ejecting is a moderator's word, never the host's: a host could otherwise eject
        # everyone and take the pot. The game declares it (a moderator not seated); the
        # table service checks it, inside the table's lock.
        table = await self.live_table(interaction)
        ejected = _("{player} is ejected; their ante stays in the pot.", player=member.mention)
        acted = await self.ui.act(
            interaction, table, nihakyu.Eject(target=member.id), confirm=ejected
        )
        await self.answer(interaction, acted)


async def setup(bot: TanzakuBot) -> None:
    await install_game(bot, NihakyuUI, NihakyuCog)
