"""The one place an application command's error becomes an answer to the member."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.games.errors import UserFacingError
from bot.safe_log import log_failure
from bot.service import saved_writes
from cogs._ui.hub import APOLOGY, SAVED_BUT_NOT_SHOWN, send_ephemeral

log = logging.getLogger(__name__)


async def on_app_command_error(
    interaction: discord.Interaction[Any], error: app_commands.AppCommandError
) -> None:
    original = getattr(error, "original", error)
    if isinstance(original, UserFacingError):
        text = str(original)
    elif isinstance(error, app_commands.NoPrivateMessage):
        text = "This command works in a server channel, not in direct messages."
    elif isinstance(error, app_commands.MissingPermissions):
        text = "You need the Manage Server permission for this command."
    elif isinstance(error, app_commands.CheckFailure):
        text = "You cannot use this command here."
    elif isinstance(error, app_commands.TransformerError):
        text = f"I could not read `{error.value}` as the option expects."
    else:
        command = interaction.command.qualified_name if interaction.command else "?"
        # The options a member typed may be secret: the failure is logged without them.
        log_failure(log, "command /%s failed", command, error=original)
        # Each command runs in a task of its own, so any write counted here was its own.
        text = SAVED_BUT_NOT_SHOWN if saved_writes.get() else APOLOGY
    try:
        await send_ephemeral(interaction, text)
    except discord.HTTPException:
        log.warning("could not deliver an error message", exc_info=True)
