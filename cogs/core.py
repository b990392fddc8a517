"""The core extension: what every game's messages and commands rely on, registered with
the bot here so that bot/ never imports cogs/."""

from __future__ import annotations

from bot.app import TanzakuBot
from cogs._ui.errors import on_app_command_error
from cogs._ui.hub import TableComponent, TableHub


async def setup(bot: TanzakuBot) -> None:
    TableHub.of(bot)
    # One DynamicItem routes every Tanzaku button, including those on messages sent
    # before a restart.
    bot.add_dynamic_items(TableComponent)
    bot.tree.error(on_app_command_error)
