"""The one place an application command's error becomes an answer to the member.

Telling the truth after a failure: "nothing was changed" only when nothing was. A
command that saved something (a table action, a gift, a daily claim: counted in
:data:`saved_writes`) and then failed says that it went through; a failure of Discord
itself to take the answer says so, since the command's work may well be done."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.errors import explain
from bot.games.errors import UserFacingError
from bot.i18n import N_, _
from bot.interactions import note_failure, note_refusal
from bot.safe_log import describe, is_routine, log_failure
from bot.service import saved_writes
from cogs._ui.primitives import ANSWER_REFUSED, APOLOGY, send_ephemeral

log = logging.getLogger(__name__)

GIFT_WENT_THROUGH = N_(
    "Your gift went through, but the answer failed. Nothing needs doing again: /wallet shows it."
)
DAILY_WENT_THROUGH = N_(
    "Your daily coins were paid, but the answer failed. Nothing needs doing again: /wallet "
    "shows them."
)
WENT_THROUGH = N_("What you asked went through, but the answer failed. Nothing needs doing again.")
SAVED_BY_COMMAND = {"give": GIFT_WENT_THROUGH, "daily": DAILY_WENT_THROUGH}
"""A command's own words for "it went through, but the answer failed"."""


def failure_text(command: str, error: BaseException, saved: bool) -> str:
    """What a member is told after `command` failed with `error` (not their mistake), in
    the language in effect (the member's)."""
    if saved:
        return _(SAVED_BY_COMMAND.get(command, WENT_THROUGH))
    if isinstance(error, discord.HTTPException):
        # Discord refused something the command sent: the command's own writes may have
        # been made before (not every store write is counted), so never "nothing".
        return _(ANSWER_REFUSED)
    return _(APOLOGY)


def refusal_text(error: app_commands.CheckFailure | app_commands.TransformerError) -> str:
    """What a member is told when a command's check or option refused them (in the
    language in effect: the member's)."""
    if isinstance(error, app_commands.NoPrivateMessage):
        return _("This command works in a server channel, not in direct messages.")
    if isinstance(error, app_commands.MissingPermissions):
        return _("You need the Manage Server permission for this command.")
    if isinstance(error, app_commands.TransformerError):
        return _("I could not read `{value}` as the option expects.", value=str(error.value))
    return _("You cannot use this command here.")


async def on_app_command_error(
    interaction: discord.Interaction[Any], error: app_commands.AppCommandError
) -> None:
    original = getattr(error, "original", error)
    if isinstance(original, UserFacingError):
        note_refusal(interaction, original.reason)
        text = explain(original)
    elif isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
        # The member's mistake (a check, an option), named by its class: bounded.
        note_refusal(interaction, type(error).__name__)
        text = refusal_text(error)
    else:
        note_failure(interaction, "error")
        command = interaction.command.qualified_name if interaction.command else "?"
        if isinstance(original, discord.HTTPException) and is_routine(original):
            # Discord's ordinary life (an expired interaction, a deleted message): one
            # line, no traceback.
            log.warning("command /%s: Discord refused: %s", command, describe(original))
        else:
            # The options a member typed may be secret: the failure is logged without them.
            log_failure(log, "command /%s failed", command, error=original)
        # Each command runs in a task of its own, so any write counted here was its own.
        text = failure_text(command, original, saved_writes.get() > 0)
    try:
        await send_ephemeral(interaction, text)
    except discord.HTTPException as failure:
        log.warning("could not deliver an error message: %s", describe(failure))
