"""The cog a game's extension adds: :class:`GameCog`, mixed into its ``GroupCog``, and
:func:`install_game`, what every game extension's ``setup`` does."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord.ext import commands

from cogs._ui.game import Game
from cogs._ui.hub import TableHub
from cogs._ui.options import Options

if TYPE_CHECKING:
    from bot.app import TanzakuBot


class GameCog:
    """Mixed into a game's ``GroupCog``: the bot, the game's UI, and its start-up."""

    options: ClassVar[Options | None] = None
    """The game's table options, as its commands and the server's defaults (/config
    rule) read them."""

    def __init__(self, bot: Any, ui: Any) -> None:
        self.bot = bot
        self.ui = ui

    async def cog_load(self) -> None:
        await self.ui.load()

    async def live_table(self, interaction: discord.Interaction[Any]) -> int:
        """The open table of this game in the command's channel."""
        assert interaction.channel_id is not None
        table: int = await self.bot.tables.live_table_in(interaction.channel_id, self.ui.game)
        return table


async def install_game(
    bot: TanzakuBot,
    ui_type: type[Game],
    cog_type: Callable[[TanzakuBot, Any], commands.Cog],
) -> None:
    """What every game extension's `setup` does: attach the UI to a game of the bot's
    catalog (bot/catalog.py) and add the game's cog. The table service already hosts the
    catalog's games; a UI for a game the catalog does not list is refused, so the bot
    does not start with buttons no engine answers."""
    if ui_type.game not in bot.catalog:
        raise UnknownGame(
            f"{ui_type.__module__} attaches a UI to the game {ui_type.game!r}, which the "
            f"bot's catalog does not list (it lists {', '.join(bot.catalog.names())}): add "
            "the game's record to bot/catalog.py."
        )
    hub = TableHub.of(bot)
    ui = ui_type(hub)
    hub.register(ui)
    await bot.add_cog(cog_type(bot, ui))


class UnknownGame(Exception):
    """A cog extension for a game the bot's catalog does not list."""
