"""/notify: how a member is told that a table waits for their move (cogs/_ui/notify.py),
stored per server."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TanzakuBot
from bot.i18n import N_, _
from cogs._ui.notify import DEFAULT_MODE, Mode
from cogs._ui.primitives import send_ephemeral

SAYS = {
    # Whole sentences: what a member gets is the object of the sentence, which moves in
    # other languages.
    Mode.ON: N_(
        "When a table on this server waits for your move, you get a message in the table's "
        "channel that mentions you, deleted once you act."
    ),
    Mode.DM: N_(
        "When a table on this server waits for your move, you get a direct message (a "
        "mention in the channel if your DMs are closed), deleted once you act."
    ),
    Mode.OFF: N_(
        "When a table on this server waits for your move, you get nothing: you watch the "
        "table yourself."
    ),
}


def mode_text(mode: Mode) -> str:
    return _(SAYS[mode])


class NotifyCog(commands.Cog, name="Notify"):
    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="notify", description="How you are told that a table waits for your move."
    )
    @app_commands.describe(
        mode="on: a mention in the channel · dm: a direct message · off: nothing; "
        "leave out to see your setting"
    )
    @app_commands.guild_only()
    async def notify(
        self,
        interaction: discord.Interaction[Any],
        mode: Literal["on", "dm", "off"] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        service = self.bot.tables
        if not self.bot.settings.turn_notices:
            await send_ephemeral(
                interaction,
                _(
                    "This bot tells nobody that a table waits for them (its operator switched "
                    "turn notices off), so there is nothing to set. Nothing was changed."
                ),
            )
            return
        if mode is None:
            stored = await service.notify_mode(interaction.guild_id, interaction.user.id)
            current = Mode(stored) if stored in set(Mode) else DEFAULT_MODE
            await send_ephemeral(
                interaction,
                _("{setting} Change it with `/notify on|dm|off`.", setting=mode_text(current)),
            )
            return
        await service.set_notify_mode(interaction.guild_id, interaction.user.id, mode)
        await send_ephemeral(interaction, _("Saved. {setting}", setting=mode_text(Mode(mode))))


async def setup(bot: TanzakuBot) -> None:
    await bot.add_cog(NotifyCog(bot))
