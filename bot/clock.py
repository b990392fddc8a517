"""Wall time for the bot, injectable so tests move time without sleeping."""

from __future__ import annotations

from collections.abc import Callable

import discord

Clock = Callable[[], float]
"""Seconds since the Unix epoch."""


def discord_clock() -> float:
    # discord.utils.utcnow is looked up at every call on purpose: a simulated Discord
    # swaps it for its virtual clock, which time.time() would bypass.
    return discord.utils.utcnow().timestamp()
