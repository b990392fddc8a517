"""The core extension: what every game's messages and commands rely on, registered with
the bot here so that bot/ never imports cogs/."""

from __future__ import annotations

from bot.app import TanzakuBot
from cogs._ui import endings
from cogs._ui.errors import on_app_command_error
from cogs._ui.hub import TableHub


async def setup(bot: TanzakuBot) -> None:
    hub = TableHub.of(bot)
    endings.install(hub)
    # The hub answers every Tanzaku click and form from its custom id, including those on
    # messages sent before a restart or edited since (TableHub.on_interaction); a
    # TableComponent only draws the components and is not registered with discord.py.
    bot.add_listener(hub.on_interaction, "on_interaction")
    bot.tree.error(on_app_command_error)
