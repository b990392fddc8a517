"""The cog a game's extension adds: :class:`GameCog`, mixed into its ``GroupCog``, and
:func:`install_game`, what every game extension's ``setup`` does.

A game's cog spells neither its key nor its title: both come from its UI's catalog record
(``self.ui.game``), and its ``open`` command is :meth:`GameCog.open_with` over its options.

The cog sits above the hub: a command that acts at a table hands what its UI returned to
:meth:`GameCog.answer`, as a click's is handed to the hub; the UI never answers itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord.ext import commands
from pydantic import BaseModel

from bot.errors import InsufficientFunds, NotAllowed
from bot.i18n import _
from bot.service import Outcome, parse_rules
from cogs._ui import render
from cogs._ui.face import Answer
from cogs._ui.game import Game
from cogs._ui.hub import TableHub
from cogs._ui.options import Options, Values

if TYPE_CHECKING:
    from bot.app import TanzakuBot


class GameCog:
    """Mixed into a game's ``GroupCog``: the bot, the game's UI, the hub that answers for
    it, and its start-up."""

    options: ClassVar[Options | None] = None
    """The game's table options, as its commands and the server's defaults (/config
    rule) read them."""

    def __init__(self, bot: Any, ui: Any) -> None:
        self.bot = bot
        self.ui = ui
        self.hub = TableHub.of(bot)

    async def cog_load(self) -> None:
        await self.ui.load()

    def rules_from(self, values: Values, options: Options | None = None) -> BaseModel:
        """The game's Rules from a command's option values, read by ``options`` (the
        cog's own :attr:`options` by default): the engine's Rules refuse an option set
        they do not allow, and :func:`parse_rules` turns that into the member's answer."""
        declared = options if options is not None else self.options
        assert declared is not None, "a game cog without options opens no table from values"
        return parse_rules(self.bot.registry.get(self.ui.game), declared.rules(values))

    async def open_with(
        self, interaction: discord.Interaction[Any], values: Values, options: Options | None = None
    ) -> None:
        """Open a table of this game in the command's channel from its option values (the
        handler of every game's ``open`` command, :meth:`Options.command`)."""
        rules = self.rules_from(values, options)
        try:
            await self.open_table(interaction, rules)
        except InsufficientFunds as short:
            if short.user_id not in (None, interaction.user.id):
                raise
            refusal = self.open_refusal(short, rules)
            if refusal is None:
                raise
            raise NotAllowed(refusal) from short

    async def open_table(
        self,
        interaction: discord.Interaction[Any],
        rules: BaseModel,
        *,
        invitee_id: int | None = None,
        lobby_seconds: int | None = None,
        against_computer: bool = False,
    ) -> Outcome:
        """Open a table of this game in the command's channel (:meth:`TableHub.open_table`)."""
        outcome: Outcome = await self.hub.open_table(
            interaction,
            self.ui.game,
            rules,
            invitee_id=invitee_id,
            lobby_seconds=lobby_seconds,
            against_computer=against_computer,
        )
        return outcome

    async def open_or_challenge(
        self,
        interaction: discord.Interaction[Any],
        rules: BaseModel,
        member: discord.Member | None,
        stake: int,
    ) -> None:
        """Open a lobby, or challenge ``member`` (who must be able to cover ``stake``), or
        the computer when ``member`` is this bot."""
        if member is None:
            await self.open_table(interaction, rules)
            return
        me = self.bot.user
        if me is not None and member.id == me.id:
            # The computer takes the challenge at once (its stake from the house bank).
            await self.open_table(interaction, rules, against_computer=True)
            return
        if member.bot:
            raise NotAllowed(
                "Bots do not play {game}; challenge a member (or me).", game=_(self.ui.title)
            )
        if member.id == interaction.user.id:
            raise NotAllowed("You cannot challenge yourself.")
        assert interaction.guild_id is not None
        theirs = await self.bot.economy.balance(interaction.guild_id, member.id)
        if theirs.balance < stake:
            raise NotAllowed(
                "{member} cannot cover a stake of {stake}.",
                member=member.mention,
                stake=render.coins(stake, theirs.currency),
            )
        timeout = self.bot.settings.challenge_timeout_seconds
        await self.open_table(interaction, rules, invitee_id=member.id, lobby_seconds=timeout)

    async def answer(self, interaction: discord.Interaction[Any], answer: Answer) -> None:
        """Answer a command that acted at a table with what its UI returned (an
        :class:`~cogs._ui.face.Acted` from :meth:`Game.act`), as the hub answers a click."""
        await self.hub.answer(interaction, answer)

    def open_refusal(self, short: InsufficientFunds, rules: BaseModel) -> str | None:
        """Why the opener's wallet cannot cover what this table holds, in the game's own
        words; ``None``: the command's answer (:meth:`Options.short_refusal`)."""
        return None

    async def live_table(self, interaction: discord.Interaction[Any]) -> int:
        """The open table of this game in the command's channel."""
        assert interaction.channel_id is not None
        table: int = await self.bot.tables.live_table_in(interaction.channel_id, self.ui.game)
        return table


async def install_game(
    bot: TanzakuBot,
    ui_type: type[Game],
    cog_type: Callable[[TanzakuBot, Any], commands.Cog],
) -> None:
    """What every game extension's `setup` does: attach the UI to a game of the bot's
    catalog (bot/catalog.py) and add the game's cog. The table service already hosts the
    catalog's games; a UI for a game the catalog does not list is refused, so the bot
    does not start with buttons no engine answers."""
    if ui_type.game not in bot.catalog:
        raise UnknownGame(
            f"{ui_type.__module__} attaches a UI to the game {ui_type.game!r}, which the "
            f"bot's catalog does not list (it lists {', '.join(bot.catalog.names())}): add "
            "the game's record to bot/catalog.py."
        )
    hub = TableHub.of(bot)
    ui = ui_type(hub.sync)
    hub.register(ui)
    await bot.add_cog(cog_type(bot, ui))


class UnknownGame(Exception):
    """A cog extension for a game the bot's catalog does not list."""
