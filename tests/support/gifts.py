"""Gifts as they were before the server's hold on free coins (issue 33), for tests about
something else that give a new wallet's welcome coins: the server lets free coins be
given at once and caps nothing. Tests of the hold and the cap themselves use the defaults."""

from __future__ import annotations

from typing import Any

from bot.economy import Economy


async def gifts_unheld(economy: Economy, guild_id: int) -> None:
    """The server gives free coins at once and caps no one's gifts."""
    await economy.configure(guild_id, gift_hold_days=0, gift_cap=0)


async def world_gifts_unheld(world: Any) -> None:
    """:func:`gifts_unheld` for a SimCord world's server."""
    await gifts_unheld(world.env.bot.economy, world.guild.id)
