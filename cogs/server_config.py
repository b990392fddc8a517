"""/config: a server's settings (Manage Server): which games may open tables, in which
channels, the stakes each game's tables may ask, the server's defaults for each game's
options (and the options only the server sets: those that move the house's edge), and the
economy's settings (/config economy, the same as /economy config); /config show lists
them all, defaults marked; /config language, the language of what everyone sees."""

from __future__ import annotations

from typing import Any

import discord
from babel import Locale
from discord import app_commands
from discord.ext import commands

from bot.app import TanzakuBot
from bot.economy import (
    DEFAULT_CURRENCY,
    DEFAULT_GIFT_CAP,
    DEFAULT_GIFT_HOLD_DAYS,
    MAX_GIFT_ACCOUNT_DAYS,
    MAX_GIFT_HOLD_DAYS,
    GuildTerms,
)
from bot.errors import NotAllowed
from bot.i18n import N_, _, available_locales, ngettext
from bot.rules_text import GAMES
from bot.service.config import ServerConfig
from cogs._ui import render
from cogs._ui.cog import GameCog
from cogs._ui.hub import TableHub
from cogs._ui.options import GAME_CHOICES, Option, Options, offer_games
from cogs._ui.primitives import send_ephemeral
from cogs.economy import GiftSettings, configure_economy


def render_value(value: Any) -> str:
    if isinstance(value, bool):
        return _("on") if value else _("off")
    return str(value)


DEFAULT = N_(" *(default)*")
FOLLOW_DISCORD = "discord"
"""The /config language choice that follows the server's Discord language (the default)."""


def language_names() -> dict[str, str]:
    """Each language with a catalog, in its own words (CLDR's, through Babel), as a member
    looking for theirs reads it: a new catalog folder is a new choice, with no code change."""
    return {code: Locale.parse(code).get_display_name(code) or code for code in available_locales()}


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
            "A server default for `{option}` must be from {low} seconds to an hour "
            "({high} s); {value} is not. Nothing changed.",
            option=option,
            low=low,
            high=high,
            value=value,
        )


def language_line(chosen: str | None, discord_language: str) -> str:
    """The server's language as /config show says it."""
    if chosen is None:
        return _(
            "{language} — the server's Discord language",
            language=language_names().get(discord_language, discord_language),
        ) + _(DEFAULT)
    return language_names().get(chosen, chosen)


def gift_lines(terms: GuildTerms, default: str) -> list[str]:
    """The gift settings as /config show lists them (defaults marked)."""
    hold = (
        ngettext(
            "free coins (welcome, /daily) can be given away after **{count}** day",
            "free coins (welcome, /daily) can be given away after **{count}** days",
            terms.gift_hold_days,
        )
        if terms.gift_hold_days
        else _("free coins (welcome, /daily) can be given away at once")
    )
    aged = (
        ngettext(
            "Discord accounts at least **{count}** day old give them at once",
            "Discord accounts at least **{count}** days old give them at once",
            terms.gift_account_days,
        )
        if terms.gift_account_days
        else _("no account is let off the hold")
    )
    cap = (
        _("a member receives at most **{value}** in gifts a day", value=terms.gift_cap)
        if terms.gift_cap
        else _("no cap on the gifts a member receives")
    )
    return [
        hold + (default if terms.gift_hold_days == DEFAULT_GIFT_HOLD_DAYS else ""),
        aged + (default if not terms.gift_account_days else ""),
        cap + (default if terms.gift_cap == DEFAULT_GIFT_CAP else ""),
    ]


def config_embed(
    config: ServerConfig,
    playable: dict[str, str],
    terms: GuildTerms,
    language: str = "",
    default_currency: str = DEFAULT_CURRENCY,
) -> discord.Embed:
    """Every server setting, in the language in effect (the moderator's: it is theirs
    alone to see); ``playable``: game name → English title."""
    default = _(DEFAULT)
    games = [
        f"{'❌' if name in config.disabled_games else '✅'} {_(title)}"
        + ("" if name in config.disabled_games else default)
        for name, title in playable.items()
    ]
    channels = (
        _(", ").join(f"<#{c}>" for c in sorted(config.table_channels))
        if config.table_channels
        else _("any channel") + default
    )
    stakes = _stake_lines(config, playable, default)
    economy = _economy_lines(terms, default, default_currency)
    embed = discord.Embed(title=_("Server settings"), colour=discord.Colour(render.COLOUR_LOBBY))
    if language:
        embed.add_field(name=_("Language (/config language)"), value=language, inline=False)
    # A field holds 1,024 characters: a long channel list or many rules are clipped.
    embed.add_field(name=_("Games"), value=render.clip("\n".join(games) or "—", 1024), inline=False)
    embed.add_field(name=_("Tables open in"), value=render.clip(channels, 1024), inline=False)
    embed.add_field(
        name=_("Stakes"), value=render.clip("\n".join(stakes) or "—", 1024), inline=False
    )
    rules = [
        f"{_(playable[game]) if game in playable else game}: "
        + " · ".join(f"{name} = {render_value(value)}" for name, value in sorted(values.items()))
        for game, values in sorted(config.rule_defaults.items())
        if values
    ]
    embed.add_field(
        name=_("House rules (/config rule)"),
        value=render.clip("\n".join(rules) or _("each game's own defaults") + default, 1024),
        inline=False,
    )
    embed.add_field(name=_("Economy (/config economy)"), value="\n".join(economy), inline=False)
    return embed


def _stake_lines(config: ServerConfig, playable: dict[str, str], default: str) -> list[str]:
    """Each game's stake limits here (``default``: the mark of a game's own)."""
    stakes = []
    for name, title in playable.items():
        limits = config.stake_limits.get(name)
        if limits is None:
            stakes.append(_("{game}: any stake", game=_(title)) + default)
        else:
            low, high = limits
            if high is not None:
                stakes.append(_("{game}: {low} to {high}", game=_(title), low=low, high=high))
            else:
                stakes.append(_("{game}: at least {low}", game=_(title), low=low))
    return stakes


def _economy_lines(terms: GuildTerms, default: str, default_currency: str) -> list[str]:
    """The server's economy terms, each marked when it is the default."""
    return [
        _("currency: **{value}**", value=terms.currency_name)
        + (default if terms.currency_name == default_currency else ""),
        _("starting balance: **{value}**", value=terms.starting_balance)
        + (default if terms.starting_balance == 1_000 else ""),
        _("daily amount: **{value}**", value=terms.daily_amount)
        + (default if terms.daily_amount == 100 else ""),
        *gift_lines(terms, default),
    ]


@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
class ConfigCog(commands.GroupCog, group_name="config", group_description="Server settings"):
    """Every command needs Manage Server (Discord hides the group from others, and each
    command checks again)."""

    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot
        super().__init__()
        offer_games(self, bot.catalog)

    def playable(self) -> dict[str, str]:
        return {name: GAMES[name] for name in self.bot.registry.names() if name in GAMES}

    async def show_to(
        self, interaction: discord.Interaction[Any], config: ServerConfig, note: str
    ) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        terms = await self.bot.economy.terms_of(guild_id)
        languages = self.bot.languages
        language = language_line(languages.chosen(guild_id), languages.discord_language(guild_id))
        default_currency = self.bot.economy.default_currency(guild_id) or DEFAULT_CURRENCY
        embed = config_embed(config, self.playable(), terms, language, default_currency)
        await send_ephemeral(interaction, note, embed=embed)

    @app_commands.command(name="show", description="Every server setting, defaults marked.")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        config = await self.bot.tables.server_config(interaction.guild_id)
        await self.show_to(interaction, config, _("Server settings:"))

    @app_commands.command(name="game", description="Switch a game on or off on this server.")
    @app_commands.describe(game="Which game", enabled="Whether tables of it may open")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.checks.has_permissions(manage_guild=True)
    async def game(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str], enabled: bool
    ) -> None:
        assert interaction.guild_id is not None
        config = await self.bot.tables.configure_game(interaction.guild_id, game.value, enabled)
        note = (
            _("{game} is on.", game=_(game.name))
            if enabled
            else _(
                "{game} is off: no new table of it opens (tables open now play on).",
                game=_(game.name),
            )
        )
        await self.show_to(interaction, config, note)

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
            _("Tables may open in {channel}.", channel=channel.mention)
            if allowed
            else _("{channel} is off the list.", channel=channel.mention)
        )
        await self.show_to(interaction, config, note)

    def options_of(self, game: str) -> Options | None:
        """The options a game's cog declares (``GameCog.options``), if it is loaded."""
        for cog in self.bot.cogs.values():
            if isinstance(cog, GameCog) and cog.ui.game == game:
                return cog.options
        return None

    def _option_named(self, game: app_commands.Choice[str], option: str) -> tuple[Options, Option]:
        """The game's options and the one named `option`; else refused, naming them."""
        options = self.options_of(game.value)
        declared = None if options is None else options.option(option.strip())
        if options is None or declared is None:
            known = ", ".join(o.name for o in (options.options if options else ()) if o.rule)
            if known:
                raise NotAllowed(
                    "{game} has no option `{option}`; its options: {known}. Nothing changed.",
                    game=_(game.name),
                    option=option.strip(),
                    known=known,
                )
            raise NotAllowed(
                "{game} has no option `{option}`. Nothing changed.",
                game=_(game.name),
                option=option.strip(),
            )
        return options, declared

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
        options, declared = self._option_named(game, option)
        parsed = None if value.strip().lower() == "default" else declared.parse(value)
        check_deadline_default(declared.name, parsed)
        current = await self.bot.tables.server_config(interaction.guild_id)
        after = {**current.rule_defaults.get(game.value, {}), declared.name: parsed}
        # A set the game's rules refuse together would refuse every table the server's
        # members open (none of them can change a server option): refuse it here instead.
        refused = options.server_check({k: v for k, v in after.items() if v is not None})
        if refused is not None:
            raise NotAllowed(
                "{game} refuses that: {refused}. Nothing changed.",
                game=_(game.name),
                refused=refused,
            )
        config = await self.bot.tables.configure_rule(
            interaction.guild_id, game.value, declared.name, parsed
        )
        said = {"game": _(game.name), "option": declared.name}
        new = (
            _("New {game} tables here get `{option}` the game's own default.", **said)
            if parsed is None
            else _("New {game} tables here get `{option}` `{value}`.", value=value.strip(), **said)
        )
        switches = [s for s, names in options.server_while.items() if declared.name in names]
        who = (
            _("Only moderators set it (it moves the house's edge): openers cannot choose it.")
            if declared.server
            else _(
                "An opener may choose their own, except while `{switch}` is on here "
                "(then every table takes this one).",
                switch=switches[0],
            )
            if switches
            else _("An opener may still choose their own.")
        )
        note = options.notes.get(declared.name)
        warning = note({k: v for k, v in after.items() if v is not None}) if note else None
        text = f"{new} {who}" if warning is None else f"{new} {who}\n{warning}"
        await self.show_to(interaction, config, text)

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
        await self.show_to(interaction, config, _("{game} stakes are set.", game=_(game.name)))

    @app_commands.command(name="economy", description="The currency and the amounts.")
    @app_commands.describe(
        currency="The currency's name (default ryō)",
        emoji="An emoji shown before the currency's name (`none` for none)",
        starting_balance="Coins a new wallet starts with (default 1000)",
        daily_amount="Coins /daily gives (default 100)",
        gift_hold_days="Days until free coins (welcome, /daily) can be given away (default 7)",
        gift_account_days="Accounts this many days old give free coins at once (default 0: none)",
        gift_cap="The most a member may receive in gifts a day (default 1000; 0: no cap)",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def economy(
        self,
        interaction: discord.Interaction[Any],
        currency: app_commands.Range[str, 1, 20] | None = None,
        emoji: app_commands.Range[str, 1, 64] | None = None,
        starting_balance: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        daily_amount: app_commands.Range[int, 0, 1_000_000_000] | None = None,
        gift_hold_days: app_commands.Range[int, 0, MAX_GIFT_HOLD_DAYS] | None = None,
        gift_account_days: app_commands.Range[int, 0, MAX_GIFT_ACCOUNT_DAYS] | None = None,
        gift_cap: app_commands.Range[int, 0, 1_000_000_000] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        note = await configure_economy(
            self.bot.economy,
            interaction.guild_id,
            currency,
            emoji,
            starting_balance,
            daily_amount,
            GiftSettings(gift_hold_days, gift_account_days, gift_cap),
        )
        config = await self.bot.tables.server_config(interaction.guild_id)
        await self.show_to(interaction, config, note)

    @app_commands.command(
        name="language", description="The language of what everyone sees on this server."
    )
    @app_commands.describe(language="The server's Discord language (the default), or one")
    @app_commands.choices(
        language=[
            app_commands.Choice(name="The server's Discord language", value=FOLLOW_DISCORD),
            *(
                app_commands.Choice(name=name, value=code)
                for code, name in language_names().items()
            ),
        ]
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def language(
        self, interaction: discord.Interaction[Any], language: app_commands.Choice[str]
    ) -> None:
        """Table messages, channel lines and lobbies follow it; what one member alone sees
        (answers, hands, DMs) stays in that member's own Discord language."""
        guild_id = interaction.guild_id
        assert guild_id is not None
        chosen = None if language.value == FOLLOW_DISCORD else language.value
        # The currency's default name follows it (両 in Japanese): the languages tell the
        # economy (bot/app.py).
        await self.bot.languages.choose(guild_id, chosen)
        # The live tables' messages are redrawn in it.
        hub = TableHub.of(self.bot)
        for table in await self.bot.tables.live_tables(guild_id):
            hub.sync.schedule_refresh(table.id, force=True)
        shown = self.bot.languages.server(guild_id)
        note = _(
            "Table messages here are now in {language}. What a member alone sees stays in "
            "their own Discord language.",
            language=language_names().get(shown, shown),
        )
        config = await self.bot.tables.server_config(guild_id)
        await self.show_to(interaction, config, note)


async def setup(bot: TanzakuBot) -> None:
    await bot.add_cog(ConfigCog(bot))
