"""Wallets: /wallet, /daily, /give, /leaderboard, and /economy for moderators."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TanzakuBot
from bot.economy import Economy
from bot.errors import UserFacingError
from cogs._ui import render
from cogs._ui.hub import send_ephemeral


class EconomyCog(commands.Cog, name="Economy"):
    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot

    @property
    def economy(self) -> Economy:
        return self.bot.economy

    @app_commands.command(name="wallet", description="Show your balance (or another member's).")
    @app_commands.describe(member="Whose wallet to show; yours by default")
    async def wallet(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        assert interaction.guild_id is not None
        target = member or interaction.user
        if target.bot:
            raise UserFacingError("Bots do not keep wallets here.")
        if target.id == interaction.user.id:
            balance = await self.economy.balance(interaction.guild_id, target.id)
            whose = "Your wallet"
        else:
            peeked = await self.economy.peek(interaction.guild_id, target.id)
            if peeked is None:
                await send_ephemeral(
                    interaction,
                    f"{target.mention} has no wallet here yet: it opens at their own first "
                    "/wallet, /daily or table.",
                )
                return
            balance, whose = peeked, f"{target.mention}'s wallet"
        await send_ephemeral(
            interaction, f"{whose} holds **{render.coins(balance.balance, balance.currency)}**."
        )

    @app_commands.command(name="daily", description="Claim your daily coins (every 20 hours).")
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        claim = await self.economy.daily(interaction.guild_id, interaction.user.id)
        await send_ephemeral(
            interaction,
            f"You claimed **{render.coins(claim.amount, claim.currency)}**; your wallet now "
            f"holds {render.coins(claim.balance, claim.currency)}.",
        )

    @app_commands.command(name="give", description="Give coins from your wallet to a member.")
    @app_commands.describe(member="Who receives the coins", amount="How many coins")
    async def give(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member,
        amount: app_commands.Range[int, 1, 1_000_000_000_000],
    ) -> None:
        assert interaction.guild_id is not None
        if member.bot:
            raise UserFacingError("Bots cannot hold coins, so you cannot give them any.")
        after = await self.economy.give(
            interaction.guild_id, interaction.user.id, member.id, amount
        )
        await interaction.response.send_message(
            f"{interaction.user.mention} gave {member.mention} "
            f"**{render.coins(amount, after.currency)}**.",
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="leaderboard", description="The richest members of this server.")
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        rows = await self.economy.leaderboard(interaction.guild_id, 10)
        currency = await self.economy.currency(interaction.guild_id)
        lines = [
            f"**{rank}.** {render.mention(row.user_id)} — {render.coins(row.balance, currency)}"
            for rank, row in enumerate(rows, 1)
        ]
        embed = discord.Embed(
            title="Leaderboard",
            description="\n".join(lines) or "Nobody has a wallet yet: try /daily.",
            colour=discord.Colour(render.COLOUR_LOBBY),
        )
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none()
        )

    economy_group = app_commands.Group(
        name="economy",
        description="Server economy settings (Manage Server).",
        default_permissions=discord.Permissions(manage_guild=True),
        guild_only=True,
    )

    @economy_group.command(name="grant", description="Create coins in a member's wallet.")
    @app_commands.describe(member="Who receives them", amount="How many", reason="Why (logged)")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def grant(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member,
        amount: app_commands.Range[int, 1, 1_000_000_000_000],
        reason: app_commands.Range[str, 0, 100] = "",
    ) -> None:
        assert interaction.guild_id is not None
        if member.bot:
            raise UserFacingError("Bots cannot hold coins.")
        after = await self.economy.grant(interaction.guild_id, member.id, amount, reason)
        await send_ephemeral(
            interaction,
            f"Granted {render.coins(amount, after.currency)} to {member.mention}; "
            f"their wallet now holds {render.coins(after.balance, after.currency)}.",
        )

    @economy_group.command(name="config", description="Set the currency and amounts.")
    @app_commands.describe(
        currency="The currency's name (default ryō)",
        starting_balance="Coins a new wallet starts with (default 1000)",
        daily_amount="Coins /daily gives (default 100)",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def config(
        self,
        interaction: discord.Interaction[Any],
        currency: app_commands.Range[str, 1, 20] | None = None,
        starting_balance: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        daily_amount: app_commands.Range[int, 0, 1_000_000_000] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        settings = await self.economy.configure(
            interaction.guild_id,
            currency_name=currency,
            starting_balance=starting_balance,
            daily_amount=daily_amount,
        )
        await send_ephemeral(
            interaction,
            f"Currency **{settings.currency_name}** · new wallets start with "
            f"{settings.starting_balance:,} · /daily gives {settings.daily_amount:,} · "
            f"house bank {settings.house_balance:,}.",
        )


async def setup(bot: TanzakuBot) -> None:
    await bot.add_cog(EconomyCog(bot))
