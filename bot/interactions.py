"""Answering Discord in time: an interaction not acknowledged within 3 s fails for the
member, whatever happens after. Work that may wait (a table lock another click holds,
the database's 5 s busy timeout) is guarded so it is deferred before that happens."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)

ACKNOWLEDGE_AFTER = 2.0
"""Seconds of work before the interaction is deferred: a second of margin for the trip."""

_deferrals: set[asyncio.Task[None]] = set()


@contextmanager
def acknowledge_if_slow(
    interaction: discord.Interaction[Any], *, after: float = ACKNOWLEDGE_AFTER
) -> Iterator[None]:
    """Defer `interaction` if the block is still running after `after` seconds.

    A timer, not a task, so the common fast path costs one heap entry. A component is
    deferred as an update (the answer then edits the message); a command or a form as
    a private "thinking…", since most of their answers are private.
    """
    handle = asyncio.get_running_loop().call_later(after, _defer_later, interaction)
    try:
        yield
    finally:
        handle.cancel()


def _defer_later(interaction: discord.Interaction[Any]) -> None:
    if interaction.response.is_done():
        return
    task = asyncio.create_task(_defer(interaction), name="tanzaku-defer")
    _deferrals.add(task)
    task.add_done_callback(_deferrals.discard)


async def _defer(interaction: discord.Interaction[Any]) -> None:
    try:
        if interaction.type == discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(thinking=True, ephemeral=True)
    except (discord.InteractionResponded, discord.HTTPException):
        # Answered in the meantime, or Discord refused: the answer path copes with both.
        log.debug("a slow interaction could not be deferred")


class GuardedTree(app_commands.CommandTree[Any]):
    """The command tree: every slash command runs under :func:`acknowledge_if_slow`."""

    async def _call(self, interaction: discord.Interaction[Any]) -> None:
        with acknowledge_if_slow(interaction):
            await super()._call(interaction)
