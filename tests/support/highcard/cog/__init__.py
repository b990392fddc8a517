"""High Card in Discord: /highcard open, and the table's one button, Draw."""

from __future__ import annotations

from discord.ext import commands

from bot.app import TanzakuBot
from cogs._ui.cog import GameCog, install_game
from cogs._ui.options import FIXED, OPENER, SERVER, Options, table
from tests.support.highcard import HIGHCARD
from tests.support.highcard.cog.ui import HighCardUI
from tests.support.highcard.engine import Rules

OPTIONS = Options(
    Rules,
    table("""
stake          0..1_000_000  stake  Coins each player puts in the pot (default 10)
rake           0..10  server  Coins the house keeps from the pot (default 0)
draw_seconds   10..600  Seconds a round waits for the draws (default 60)
"""),
    house_edge={
        # Scales the pot within /config stakes; every seat wins it with chance 1/n.
        "stake": OPENER,
        # The deadline draws for the late: the same draw, at another moment.
        "draw_seconds": OPENER,
        # The house's cut.
        "rake": SERVER,
        "max_players": FIXED,
    },
)


class HighCardCog(
    GameCog,
    commands.GroupCog,
    group_name=HIGHCARD.name,
    group_description=HIGHCARD.title,
):
    ui: HighCardUI
    options = OPTIONS
    open = OPTIONS.command("open", "Open a table of this game in this channel.", GameCog.open_with)


async def setup(bot: TanzakuBot) -> None:
    await install_game(bot, HighCardUI, HighCardCog)
