"""/config: a server's settings (Manage Server): which games may open tables, in which
channels, the stakes each game's tables may ask, the server's defaults for each game's
options (and the options only the server sets: those that move the house's edge), and the
economy's settings (/config economy, the same as /economy config); /config show lists
them all, defaults marked."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TanzakuBot
from bot.economy import GuildTerms
from bot.errors import NotAllowed
from bot.rules_text import GAMES
from bot.service.config import ServerConfig
from cogs._ui import render
from cogs._ui.cog import GameCog
from cogs._ui.options import GAME_CHOICES, Options
from cogs._ui.primitives import send_ephemeral
from cogs.economy import configure_economy


def render_value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


DEFAULT = " *(default)*"
DEADLINE_SECONDS = (10, 3600)
"""What a server default for any deadline (an option named ``*_seconds``) may be: an
opener may type a shorter one where the game allows it, a server may not impose it."""


def check_deadline_default(option: str, value: Any) -> None:
    """Refuse a server-wide deadline under 10 s or over an hour; 0 stays allowed where the
    option itself allows it (a betting window of 0 means no window, not a 0 s deadline)."""
    if not option.endswith("_seconds") or not isinstance(value, int) or value == 0:
        return
    low, high = DEADLINE_SECONDS
    if not low <= value <= high:
        raise NotAllowed(
            f"A server default for `{option}` must be from {low} seconds to an hour "
            f"({high:,} s); {value:,} is not. Nothing changed."
        )


def config_embed(
    config: ServerConfig, playable: dict[str, str], terms: GuildTerms
) -> discord.Embed:
    games = [
        f"{'❌' if name in config.disabled_games else '✅'} {title}"
        + ("" if name in config.disabled_games else DEFAULT)
        for name, title in playable.items()
    ]
    channels = (
        ", ".join(f"<#{c}>" for c in sorted(config.table_channels))
        if config.table_channels
        else "any channel" + DEFAULT
    )
    stakes = []
    for name, title in playable.items():
        limits = config.stake_limits.get(name)
        if limits is None:
            stakes.append(f"{title}: any stake{DEFAULT}")
        else:
            low, high = limits
            span = f"{low:,} to {high:,}" if high is not None else f"at least {low:,}"
            stakes.append(f"{title}: {span}")
    economy = [
        f"{label}: **{value}**" + (DEFAULT if value == default else "")
        for label, value, default in (
            ("currency", terms.currency_name, "ryō"),
            ("starting balance", f"{terms.starting_balance:,}", "1,000"),
            ("daily amount", f"{terms.daily_amount:,}", "100"),
        )
    ]
    embed = discord.Embed(title="Server settings", colour=discord.Colour(render.COLOUR_LOBBY))
    # A field holds 1,024 characters: a long channel list or many rules are clipped.
    embed.add_field(name="Games", value=render.clip("\n".join(games) or "—", 1024), inline=False)
    embed.add_field(name="Tables open in", value=render.clip(channels, 1024), inline=False)
    embed.add_field(name="Stakes", value=render.clip("\n".join(stakes) or "—", 1024), inline=False)
    rules = [
        f"{playable.get(game, game)}: "
        + " · ".join(f"{name} = {render_value(value)}" for name, value in sorted(values.items()))
        for game, values in sorted(config.rule_defaults.items())
        if values
    ]
    embed.add_field(
        name="House rules (/config rule)",
        value=render.clip("\n".join(rules) or "each game's own defaults" + DEFAULT, 1024),
        inline=False,
    )
    embed.add_field(name="Economy (/config economy)", value="\n".join(economy), inline=False)
    return embed


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class ConfigCog(commands.GroupCog, group_name="config", group_description="Server settings"):
    """Every command needs Manage Server (Discord hides the group from others, and each
    command checks again)."""

    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot
        super().__init__()

    def playable(self) -> dict[str, str]:
        return {name: GAMES[name] for name in self.bot.registry.names() if name in GAMES}

    async def show_to(
        self, interaction: discord.Interaction[Any], config: ServerConfig, note: str
    ) -> None:
        assert interaction.guild_id is not None
        terms = await self.bot.economy.terms_of(interaction.guild_id)
        await send_ephemeral(interaction, note, embed=config_embed(config, self.playable(), terms))

    @app_commands.command(name="show", description="Every server setting, defaults marked.")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        config = await self.bot.tables.server_config(interaction.guild_id)
        await self.show_to(interaction, config, "Server settings:")

    @app_commands.command(name="game", description="Switch a game on or off on this server.")
    @app_commands.describe(game="Which game", enabled="Whether tables of it may open")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def game(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str], enabled: bool
    ) -> None:
        assert interaction.guild_id is not None
        config = await self.bot.tables.configure_game(interaction.guild_id, game.value, enabled)
        state = "on" if enabled else "off: no new table of it opens (tables open now play on)"
        await self.show_to(interaction, config, f"{game.name} is {state}.")

    @app_commands.command(name="channel", description="Allow tables in a channel, or stop it.")
    @app_commands.describe(
        channel="A channel where tables may open (once any is listed, only listed ones)",
        allowed="Add it to the list, or take it off",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def channel(
        self,
        interaction: discord.Interaction[Any],
        channel: discord.TextChannel,
        allowed: bool,
    ) -> None:
        assert interaction.guild_id is not None
        config = await self.bot.tables.configure_channel(interaction.guild_id, channel.id, allowed)
        note = (
            f"Tables may open in {channel.mention}."
            if allowed
            else f"{channel.mention} is off the list."
        )
        await self.show_to(interaction, config, note)

    def options_of(self, game: str) -> Options | None:
        """The options a game's cog declares (``GameCog.options``), if it is loaded."""
        for cog in self.bot.cogs.values():
            if isinstance(cog, GameCog) and cog.ui.game == game:
                return cog.options
        return None

    @app_commands.command(name="rule", description="A server default for a game's option.")
    @app_commands.describe(
        game="Which game",
        option="The option's name (round_seconds, house_guard, …; /rules lists who sets which)",
        value="Its value: on/off, a number or one of its choices; `default` for the game's own",
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def rule(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        option: app_commands.Range[str, 1, 40],
        value: app_commands.Range[str, 1, 40],
    ) -> None:
        assert interaction.guild_id is not None
        options = self.options_of(game.value)
        declared = None if options is None else options.option(option.strip())
        if options is None or declared is None:
            known = ", ".join(o.name for o in (options.options if options else ()) if o.rule)
            raise NotAllowed(
                f"{game.name} has no option `{option.strip()}`"
                + (f"; its options: {known}." if known else ".")
                + " Nothing changed."
            )
        parsed = None if value.strip().lower() == "default" else declared.parse(value)
        check_deadline_default(declared.name, parsed)
        current = await self.bot.tables.server_config(interaction.guild_id)
        after = {**current.rule_defaults.get(game.value, {}), declared.name: parsed}
        # A set the game's rules refuse together would refuse every table the server's
        # members open (none of them can change a server option): refuse it here instead.
        refused = options.server_check({k: v for k, v in after.items() if v is not None})
        if refused is not None:
            raise NotAllowed(f"{game.name} refuses that: {refused}. Nothing changed.")
        config = await self.bot.tables.configure_rule(
            interaction.guild_id, game.value, declared.name, parsed
        )
        shown = "the game's own default" if parsed is None else f"`{value.strip()}`"
        switches = [s for s, names in options.server_while.items() if declared.name in names]
        who = (
            " Only moderators set it (it moves the house's edge): openers cannot choose it."
            if declared.server
            else f" An opener may choose their own, except while `{switches[0]}` is on here "
            "(then every table takes this one)."
            if switches
            else " An opener may still choose their own."
        )
        await self.show_to(
            interaction,
            config,
            f"New {game.name} tables here get `{declared.name}` {shown}.{who}",
        )

    @app_commands.command(name="stakes", description="The stakes a game's tables may ask.")
    @app_commands.describe(
        game="Which game",
        lowest="The lowest stake (0: no lowest)",
        highest="The highest stake (leave out: no highest)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def stakes(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        lowest: app_commands.Range[int, 0, 1_000_000_000],
        highest: app_commands.Range[int, 0, 1_000_000_000] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        config = await self.bot.tables.configure_stakes(
            interaction.guild_id, game.value, lowest, highest
        )
        await self.show_to(interaction, config, f"{game.name} stakes are set.")

    @app_commands.command(name="economy", description="The currency and the amounts.")
    @app_commands.describe(
        currency="The currency's name (default ryō)",
        emoji="An emoji shown before the currency's name (`none` for none)",
        starting_balance="Coins a new wallet starts with (default 1000)",
        daily_amount="Coins /daily gives (default 100)",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def economy(
        self,
        interaction: discord.Interaction[Any],
        currency: app_commands.Range[str, 1, 20] | None = None,
        emoji: app_commands.Range[str, 1, 64] | None = None,
        starting_balance: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        daily_amount: app_commands.Range[int, 0, 1_000_000_000] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        note = await configure_economy(
            self.bot.economy, interaction.guild_id, currency, emoji, starting_balance, daily_amount
        )
        config = await self.bot.tables.server_config(interaction.guild_id)
        await self.show_to(interaction, config, note)


async def setup(bot: TanzakuBot) -> None:
    await bot.add_cog(ConfigCog(bot))
