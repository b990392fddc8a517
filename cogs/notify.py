"""/notify: how a member is told that a table waits for their move (cogs/_ui/notify.py),
stored per server."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TanzakuBot
from bot.i18n import N_, _
from cogs._ui.notify import DEFAULT_MODE, DEFAULT_WAIT_SECONDS, WAIT_RANGE, Mode, mode_of
from cogs._ui.primitives import send_ephemeral

SAYS = {
    # Whole sentences: what a member gets is the object of the sentence, which moves in
    # other languages.
    Mode.ON: N_(
        "When a table on this server has waited {seconds:duration} for your move and you "
        "have not clicked there meanwhile, you get a message in the table's channel that "
        "mentions you, with the way to act; it is deleted once you act."
    ),
    Mode.DM: N_(
        "When a table on this server has waited {seconds:duration} for your move and you "
        "have not clicked there meanwhile, you get a direct message (a mention in the "
        "channel if your DMs are closed), with the way to act; it is deleted once you act."
    ),
    Mode.OFF: N_(
        "When a table on this server waits for your move, you get nothing: you watch the "
        "table yourself. A member's challenge does not ping you either."
    ),
}


def mode_text(mode: Mode, wait: int) -> str:
    return _(SAYS[mode], seconds=wait)


class NotifyCog(commands.Cog, name="Notify"):
    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="notify", description="How and when you are told that a table waits for your move."
    )
    @app_commands.describe(
        mode="on: a mention in the channel · dm: a direct message · off: nothing; "
        "leave out to see your setting",
        wait="Seconds a table waits for your move before you are told (5-600)",
    )
    @app_commands.guild_only()
    async def notify(
        self,
        interaction: discord.Interaction[Any],
        mode: Literal["on", "dm", "off"] | None = None,
        wait: app_commands.Range[int, WAIT_RANGE[0], WAIT_RANGE[1]] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        guild_id, member = interaction.guild_id, interaction.user.id
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
        if mode is not None:
            await service.set_notify_mode(guild_id, member, mode)
        if wait is not None:
            await service.turn_notices.set_wait(guild_id, member, wait, DEFAULT_MODE.value)
        stored, stored_wait = await service.turn_notices.preferences(guild_id, member)
        setting = mode_text(
            mode_of(stored), DEFAULT_WAIT_SECONDS if stored_wait is None else stored_wait
        )
        if mode is None and wait is None:
            await send_ephemeral(
                interaction,
                _(
                    "{setting} Change it with `/notify mode:`, and how long a table waits "
                    "before you are told with `/notify wait:`.",
                    setting=setting,
                ),
            )
            return
        await send_ephemeral(interaction, _("Saved. {setting}", setting=setting))


async def setup(bot: TanzakuBot) -> None:
    await bot.add_cog(NotifyCog(bot))
