"""The economy's settings have one command, /config economy (with every other server
setting); /economy keeps a member's and a moderator's money commands only."""

from __future__ import annotations

from typing import Any

from discord import app_commands


async def test_the_economy_settings_are_declared_once(simcord_env: Any) -> None:
    tree = simcord_env.bot.tree
    economy, config = tree.get_command("economy"), tree.get_command("config")
    assert isinstance(economy, app_commands.Group) and isinstance(config, app_commands.Group)
    assert economy.get_command("config") is None
    assert config.get_command("economy") is not None
