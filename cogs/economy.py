"""Wallets: /wallet, /daily, /give, /leaderboard, /selfexclude, and /economy for
moderators."""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TanzakuBot
from bot.catalog import CATALOG
from bot.economy import MAX_EXCLUSION_DAYS, MIN_EXCLUSION_DAYS, Audit, Economy
from bot.errors import UserFacingError, explain
from bot.i18n import N_, _, ngettext
from bot.interactions import answer_saved, note_refusal
from bot.ratings import PROVISIONAL_GAMES
from bot.rules_text import GAMES
from bot.service.terms import count_saved_write
from bot.storage.money import LedgerRow
from cogs._ui import render
from cogs._ui.custom_ids import (
    BOARD_ALL_GAMES,
    BOARD_TEMPLATE,
    SELF_EXCLUDE_TEMPLATE,
    board_id,
    self_exclude_id,
)
from cogs._ui.errors import DAILY_WENT_THROUGH, GIFT_WENT_THROUGH
from cogs._ui.options import GAME_CHOICES, RATED_CHOICES, offer_games
from cogs._ui.primitives import in_server_language, send_ephemeral

log = logging.getLogger(__name__)


def until_text(until: float) -> str:
    moment = int(until)
    return f"<t:{moment}:f> (<t:{moment}:R>)"


def account_text(account: str) -> str:
    """A ledger account as a moderator reads it."""
    kind, _sep, owner = account.partition(":")
    if kind == "wallet":
        return render.mention(int(owner))
    if kind == "escrow":
        return _("table #{table_id}", table_id=owner)
    if account in ACCOUNT_WORDS:
        return _(ACCOUNT_WORDS[account])
    return account


ACCOUNT_WORDS = {"house": N_("the house bank"), "mint": N_("new coins")}
LEDGER_WORDS = frozenset(
    # The ledger's kinds and the memos the bot writes itself, shown as stored in English
    # and translated elsewhere; a moderator's own reason for a grant shows as they wrote it.
    (
        N_("mint"),
        N_("give"),
        N_("table"),
        N_("daily"),
        N_("grant"),
        N_("play"),
        N_("bank"),
        N_("seat at the table"),
        N_("left the lobby"),
        N_("welcome"),
        N_("house float"),
        N_("settled at value"),
    )
)


def ledger_word(word: str) -> str:
    return _(word) if word in LEDGER_WORDS else word


def movement_line(row: LedgerRow, account: str, currency: str) -> str:
    incoming = row.target == account
    other = row.source if incoming else row.target
    amount = render.coins(row.amount, currency)
    kind = ledger_word(row.kind) + (f" ({ledger_word(row.memo)})" if row.memo else "")
    when = f"<t:{int(row.at)}:R>"
    if incoming:
        return _(
            "{when} **+{amount}** from {other} · {kind}",
            when=when,
            amount=amount,
            other=account_text(other),
            kind=kind,
        )
    return _(
        "{when} **−{amount}** to {other} · {kind}",
        when=when,
        amount=amount,
        other=account_text(other),
        kind=kind,
    )


def audit_embed(audit: Audit, currency: str, member: discord.abc.User | None) -> discord.Embed:
    """The economy audit: the books' invariant, the ledger's check, a member's movements."""

    def coins(amount: int) -> str:
        return render.coins(amount, currency)

    invariant, ledger = _invariant_text(audit, coins), _ledger_text(audit, coins)
    embed = discord.Embed(
        title=_("Economy audit"),
        description=f"{invariant}\n{ledger}",
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    if member is not None:
        account = f"wallet:{member.id}"
        if audit.member_balance is None:
            value = _("No wallet on this server.")
        else:
            lines = [movement_line(row, account, currency) for row in audit.movements]
            value = _("Balance **{amount}**.", amount=coins(audit.member_balance)) + "\n"
            value += "\n".join(lines) if lines else _("No movements yet.")
        embed.add_field(
            name=_(
                "{member}: the last {count} movements",
                member=member.display_name,
                count=str(len(audit.movements)),
            ),
            value=render.clip(value, 1024),
            inline=False,
        )
    return embed


def _invariant_text(audit: Audit, coins: Callable[[int], str]) -> str:
    """Whether every coin minted is in a wallet, in escrow or in the house bank."""
    t = audit.totals
    sums = _(
        "wallets {wallets} + escrow {escrow} + house bank {house} = **{total}**; "
        "minted **{minted}**",
        wallets=coins(t.wallets),
        escrow=coins(t.escrow),
        house=coins(t.house),
        total=coins(t.wallets + t.escrow + t.house),
        minted=coins(t.minted),
    )
    if audit.invariant_holds:
        invariant = _("✅ Every coin is accounted for: {sums}.", sums=sums)
    else:
        off = t.wallets + t.escrow + t.house - t.minted
        invariant = _("❌ The books are off by {off}: {sums}.", off=coins(off), sums=sums)
    return invariant


def _ledger_text(audit: Audit, coins: Callable[[int], str]) -> str:
    """Whether every stored balance is what the ledger says (the first five that differ)."""
    if not audit.mismatches:
        ledger = _(
            "✅ All {count} accounts hold exactly what the ledger says.", count=audit.accounts
        )
    else:
        shown = [
            _(
                "{account}: ledger {flow}, stored {held}",
                account=account_text(a),
                flow=coins(flow),
                held=coins(held),
            )
            for a, flow, held in audit.mismatches[:5]
        ]
        more = len(audit.mismatches) - len(shown)
        ledger = _("❌ Stored balances that differ from the ledger:") + "\n" + "\n".join(shown)
        if more:
            ledger += "\n" + _("…and {count} more.", count=str(more))
    return ledger


BOARD_PAGE = 10
Ranking = Literal["coins", "wins", "net", "rating"]
RANKINGS: dict[str, Ranking] = {"coins": "coins", "wins": "wins", "net": "net", "rating": "rating"}


async def board_page(
    bot: TanzakuBot,
    owner_id: int,
    ranking: Ranking,
    game: str | None,
    page: int,
    interaction: discord.Interaction[Any],
) -> tuple[discord.Embed, discord.ui.View | None]:
    """One page of a leaderboard, and its paging buttons (for `owner_id`, who asked), in
    the server's language: the board is a public message."""
    assert interaction.guild_id is not None
    with in_server_language(interaction):
        return await _board_page(bot, owner_id, ranking, game, page, interaction.guild_id)


async def _board_entries(
    bot: TanzakuBot, ranking: Ranking, game: str | None, guild_id: int, offset: int
) -> tuple[list[tuple[int, int, str]], int]:
    """One page of a board: (rank, player, value shown) rows, and how many it holds."""
    if ranking == "rating":
        assert game is not None
        rated, total = await bot.tables.rating_board(guild_id, game, BOARD_PAGE, offset)
        return [
            (rank, row.user_id, render.rating(row.mu, row.sigma, row.games)) for rank, row in rated
        ], total
    currency = await bot.economy.currency(guild_id)
    if ranking == "coins":
        wallets, total = await bot.economy.leaderboard(guild_id, BOARD_PAGE, offset)
        values = [(w.user_id, render.coins(w.balance, currency)) for w in wallets]
    else:
        stat = "won" if ranking == "wins" else "net"
        rows, total = await bot.tables.stat_board(guild_id, stat, game, BOARD_PAGE, offset)
        values = [
            (user, ngettext("{count} win", "{count} wins", value))
            if ranking == "wins"
            else (user, ("+" if value > 0 else "") + render.coins(value, currency))
            for user, value in rows
        ]
    return [(offset + n, user, value) for n, (user, value) in enumerate(values, 1)], total


def _board_title(ranking: Ranking, game: str | None) -> str:
    where = (_(GAMES[game]) if game in GAMES else game) if game else _("all games")
    if ranking == "coins":
        return _("Leaderboard — the richest")
    if ranking == "wins":
        return _("Leaderboard — most wins · {game}", game=where)
    if ranking == "rating":
        return _("Leaderboard — skill rating · {game}", game=where)
    return _("Leaderboard — net coins won · {game}", game=where)


async def _board_page(
    bot: TanzakuBot, owner_id: int, ranking: Ranking, game: str | None, page: int, guild_id: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    page = max(page, 0)
    entries: list[tuple[int, int, str]] = []
    for _attempt in range(2):  # a second time when the page asked for is past the last one
        entries, total = await _board_entries(bot, ranking, game, guild_id, page * BOARD_PAGE)
        pages = max(1, math.ceil(total / BOARD_PAGE))
        if page < pages:
            break
        page = pages - 1
    lines = [
        _(
            "**{rank}.** {member} — {value}",
            rank=str(rank),
            member=render.mention(user),
            value=value,
        )
        for rank, user, value in entries
    ]
    if ranking == "rating" and lines:
        lines += [
            "",
            _(
                "Ratings by openskill (Weng-Lin), 1500 to start; ? marks a provisional "
                "rating: fewer than {count} rated games.",
                count=str(PROVISIONAL_GAMES),
            ),
        ]
    empty = (
        _("Nobody has a wallet yet: try /daily.")
        if ranking == "coins"
        else _("No finished games to rank yet.")
    )
    embed = discord.Embed(
        title=_board_title(ranking, game),
        description="\n".join(lines) or empty,
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    if pages == 1:
        return embed, None
    embed.set_footer(text=_("Page {page} of {pages}", page=str(page + 1), pages=str(pages)))
    view = discord.ui.View(timeout=None)
    for label, target, disabled in (
        (_("Previous"), max(page - 1, 0), page == 0),
        (_("Next"), page + 1, page == pages - 1),
    ):
        view.add_item(BoardButton(owner_id, ranking, game, target, label, disabled=disabled))
    return embed, view


class BoardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=BOARD_TEMPLATE,
):
    """Paging of /leaderboard. The board is public; only the member who asked turns its
    pages (anyone else would move it under their eyes)."""

    def __init__(
        self,
        owner_id: int,
        ranking: str,
        game: str | None,
        page: int,
        label: str,
        *,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=board_id(owner_id, ranking, game, page),
                disabled=disabled,
            )
        )
        self.owner_id = owner_id
        self.ranking: Ranking = RANKINGS.get(ranking, "coins")
        self.game = game
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> BoardButton:
        game = None if match["game"] == BOARD_ALL_GAMES else match["game"]
        label = render.label_of(item)
        return cls(int(match["owner"]), match["ranking"], game, int(match["page"]), label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.user.id != self.owner_id:
            await send_ephemeral(
                interaction, _("Run /leaderboard yourself to turn its pages: this one is theirs.")
            )
            return
        gone = self.ranking == "rating" and self.game not in CATALOG.rated()
        if (self.game is not None and self.game not in GAMES) or gone:
            await send_ephemeral(interaction, _("That game's board is no longer available."))
            return
        embed, view = await board_page(
            interaction.client, self.owner_id, self.ranking, self.game, self.page, interaction
        )
        await interaction.response.edit_message(embed=embed, view=view)


class SelfExcludeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=SELF_EXCLUDE_TEMPLATE,
):
    """The confirmation of /selfexclude. Its custom id carries who asked and for how long,
    so it works after a restart; only that member's click counts."""

    def __init__(self, user_id: int, days: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=ngettext("Exclude me for {count} day", "Exclude me for {count} days", days),
                style=discord.ButtonStyle.danger,
                custom_id=self_exclude_id(user_id, days),
            )
        )
        self.user_id = user_id
        self.days = days

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> SelfExcludeButton:
        return cls(int(match["user"]), int(match["days"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot: TanzakuBot = interaction.client
        if interaction.guild_id is None or interaction.user.id != self.user_id:
            await send_ephemeral(interaction, _("Only the member who asked can confirm this."))
            return
        try:
            until = await bot.economy.self_exclude(
                interaction.guild_id, interaction.user.id, self.days
            )
        except UserFacingError as error:
            note_refusal(interaction, error.reason)
            await send_ephemeral(interaction, explain(error))
            return
        try:
            await interaction.response.edit_message(
                content=_(
                    "Done. You cannot stake on this server until {until}: "
                    "no table, bet, challenge or gift. A member with Manage Server can lift it "
                    "earlier.",
                    until=until_text(until),
                ),
                view=None,
            )
        except discord.HTTPException as error:
            # Saved already: the member learns it at their next stake, if not here.
            log.warning("a self-exclusion was saved but its confirmation failed: %s", error)


class EconomyCog(commands.Cog, name="Economy"):
    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot
        offer_games(self, bot.catalog)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(SelfExcludeButton, BoardButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(SelfExcludeButton, BoardButton)

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
            await send_ephemeral(
                interaction, await self.own_wallet(interaction.guild_id, target.id)
            )
            return
        peeked = await self.economy.peek(interaction.guild_id, target.id)
        if peeked is None:
            await send_ephemeral(
                interaction,
                _(
                    "{member} has no wallet here yet: it opens at their own first "
                    "/wallet, /daily or table.",
                    member=target.mention,
                ),
            )
            return
        await send_ephemeral(
            interaction,
            _(
                "{member}'s wallet holds **{amount}**.",
                member=target.mention,
                amount=render.coins(peeked.balance, peeked.currency),
            ),
        )

    async def own_wallet(self, guild_id: int, user_id: int) -> str:
        """A member's own wallet: the balance, their loss limit, and what of it they can
        give away now (free coins held) and still receive in gifts today."""
        balance = await self.economy.balance(guild_id, user_id)
        currency = balance.currency

        def coins(amount: int) -> str:
            return render.coins(amount, currency)

        status = await self.economy.loss_limit_status(guild_id, user_id)
        if status is not None:
            limit, lost = status
            lines = [
                _(
                    "Your wallet holds **{amount}**. Daily loss limit: {limit}; lost at "
                    "the tables or given away today: {lost}.",
                    amount=coins(balance.balance),
                    limit=coins(limit),
                    lost=coins(max(lost, 0)),
                )
            ]
        else:
            lines = [_("Your wallet holds **{amount}**.", amount=coins(balance.balance))]
        free, allowance = await self.economy.gift_status(guild_id, user_id)
        if free.held and free.until is not None:
            lines.append(
                _(
                    "Of it, **{held}** came free (welcome coins and /daily) and can be given "
                    "away only after a while: you can give **{giftable}** now, all of it "
                    "from <t:{until}:f> (<t:{until}:R>).",
                    held=coins(free.held),
                    giftable=coins(free.giftable),
                    until=str(int(free.until)),
                )
            )
        if allowance.left is not None and allowance.received:
            lines.append(
                _(
                    "You received {received} in gifts today and can receive {left} more "
                    "(this server's cap: {cap} a day).",
                    received=coins(allowance.received),
                    left=coins(allowance.left),
                    cap=coins(allowance.cap),
                )
            )
        return "\n".join(lines)

    @app_commands.command(name="daily", description="Claim your daily coins (every 20 hours).")
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        claim = await self.economy.daily(interaction.guild_id, interaction.user.id)
        # Saved: whatever fails from here, the error handler must not say otherwise.
        count_saved_write()
        await answer_saved(
            interaction,
            DAILY_WENT_THROUGH,
            content=_(
                "You claimed **{amount}**; your wallet now holds {balance}.",
                amount=render.coins(claim.amount, claim.currency),
                balance=render.coins(claim.balance, claim.currency),
            ),
            ephemeral=True,
        )

    @app_commands.command(name="give", description="Give coins from your wallet to a member.")
    @app_commands.describe(member="Who receives the coins", amount="How many coins to give")
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
        # Saved: whatever fails from here, the error handler must not say otherwise.
        count_saved_write()
        with in_server_language(interaction):
            # The gift is announced in the channel: in the server's language.
            announcement = _(
                "{giver} gave {receiver} **{amount}**.",
                giver=interaction.user.mention,
                receiver=member.mention,
                amount=render.coins(amount, after.currency),
            )
        await answer_saved(
            interaction,
            GIFT_WENT_THROUGH,
            content=announcement,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name="leaderboard",
        description="The server's best: the richest, most wins, best net or best rated.",
    )
    @app_commands.describe(
        game="One game's board (by wins or net)",
        by="Rank by coins in the wallet (the default), wins, or net coins won at the tables",
        rating="One game's board of skill ratings",
    )
    @app_commands.choices(game=GAME_CHOICES, rating=RATED_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str] | None = None,
        by: Literal["coins", "wins", "net"] | None = None,
        rating: app_commands.Choice[str] | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        chosen = None if game is None else game.value
        if rating is not None and (game is not None or by is not None):
            raise UserFacingError(
                "A rating board ranks one game by its players' skill: choose the game under "
                "rating alone, without game or by."
            )
        if by == "coins" and chosen is not None:
            raise UserFacingError(
                "Coins sit in the server's wallets, not in one game: rank a game by wins or "
                "net, or leave out the game."
            )
        ranking: Ranking = by or ("net" if chosen is not None else "coins")
        if rating is not None:
            ranking, chosen = "rating", rating.value
        owner = interaction.user.id
        embed, view = await board_page(self.bot, owner, ranking, chosen, 0, interaction)
        await interaction.response.send_message(
            embed=embed,
            view=view or discord.utils.MISSING,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name="selfexclude", description="Bar yourself from staking on this server for a while."
    )
    @app_commands.describe(days="For how many days (you cannot lift it yourself)")
    async def selfexclude(
        self,
        interaction: discord.Interaction[Any],
        days: app_commands.Range[int, MIN_EXCLUSION_DAYS, MAX_EXCLUSION_DAYS],
    ) -> None:
        assert interaction.guild_id is not None
        current = await self.economy.exclusion(interaction.guild_id, interaction.user.id)
        lines = [
            ngettext(
                "For **{count} day** you will not be able to sit at a table, bet, challenge "
                "or give coins on this server. You cannot lift it yourself; only a member with "
                "Manage Server can, if you ask them. Tables you already sit at play on.",
                "For **{count} days** you will not be able to sit at a table, bet, challenge "
                "or give coins on this server. You cannot lift it yourself; only a member with "
                "Manage Server can, if you ask them. Tables you already sit at play on.",
                days,
            )
        ]
        if current is not None:
            lines.append(
                _(
                    "You are already excluded until {until}: this can only make it longer.",
                    until=until_text(current),
                )
            )
        view = discord.ui.View(timeout=None)
        view.add_item(SelfExcludeButton(interaction.user.id, days))
        await send_ephemeral(interaction, "\n".join(lines), view=view)

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
            _(
                "Granted {amount} to {member}; their wallet now holds {balance}.",
                amount=render.coins(amount, after.currency),
                member=member.mention,
                balance=render.coins(after.balance, after.currency),
            ),
        )

    loss_limit_group = app_commands.Group(
        name="loss-limit",
        description="Daily loss limits at the tables (Manage Server).",
        parent=economy_group,
    )

    @loss_limit_group.command(name="set", description="Set a daily loss limit.")
    @app_commands.describe(
        amount="The most a member may lose at the tables in a day (UTC)",
        member="One member's limit (it replaces the server's for them); the server's if left out",
    )
    @app_commands.checks.has_permissions(manage_guild=True)
    async def loss_limit_set(
        self,
        interaction: discord.Interaction[Any],
        amount: app_commands.Range[int, 0, 1_000_000_000_000],
        member: discord.Member | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        await self.economy.set_loss_limit(
            interaction.guild_id, None if member is None else member.id, amount
        )
        currency = await self.economy.currency(interaction.guild_id)
        shown = render.coins(amount, currency)
        if member is None:
            text = _(
                "Everyone here may now lose at most **{amount}** at the tables in a day (from "
                "midnight UTC), coins they give away counting as lost; a stake or gift past "
                "it is refused.",
                amount=shown,
            )
        else:
            text = _(
                "{member} may now lose at most **{amount}** at the tables in a day (from "
                "midnight UTC), coins they give away counting as lost; a stake or gift past "
                "it is refused. This replaces the server's limit for them.",
                member=member.mention,
                amount=shown,
            )
        await send_ephemeral(interaction, text)

    @loss_limit_group.command(name="clear", description="Remove a daily loss limit.")
    @app_commands.describe(member="One member's limit; the server's if left out")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def loss_limit_clear(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        assert interaction.guild_id is not None
        removed = await self.economy.clear_loss_limit(
            interaction.guild_id, None if member is None else member.id
        )
        if member is None:
            text = (
                _("The server's daily loss limit is removed.")
                if removed
                else _("The server's daily loss limit was not set: nothing changed.")
            )
        elif removed:
            text = _("{member}'s own daily loss limit is removed.", member=member.mention)
        else:
            text = _(
                "{member}'s own daily loss limit was not set: nothing changed.",
                member=member.mention,
            )
        await send_ephemeral(interaction, text)

    @economy_group.command(
        name="lift-exclusion", description="End a member's self-exclusion early."
    )
    @app_commands.describe(member="Whose self-exclusion to lift")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def lift_exclusion(
        self, interaction: discord.Interaction[Any], member: discord.Member
    ) -> None:
        assert interaction.guild_id is not None
        if await self.economy.lift_exclusion(interaction.guild_id, member.id):
            log.info("a moderator lifted a self-exclusion on server %s", interaction.guild_id)
            await send_ephemeral(
                interaction, _("Lifted: {member} may stake again.", member=member.mention)
            )
        else:
            await send_ephemeral(
                interaction,
                _(
                    "{member} has no self-exclusion running: nothing changed.",
                    member=member.mention,
                ),
            )

    @economy_group.command(
        name="audit", description="Check the server's books, and a member's last movements."
    )
    @app_commands.describe(member="Whose latest ledger movements to show")
    @app_commands.checks.has_permissions(manage_guild=True)
    async def audit(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        assert interaction.guild_id is not None
        audit = await self.economy.audit(
            interaction.guild_id, None if member is None else member.id
        )
        currency = await self.economy.currency(interaction.guild_id)
        if not audit.invariant_holds or audit.mismatches:
            log.error(
                "the audit of server %s found the books off: %s, %d accounts differ",
                interaction.guild_id,
                audit.totals,
                len(audit.mismatches),
            )
        await send_ephemeral(interaction, embed=audit_embed(audit, currency, member))


@dataclass(frozen=True)
class GiftSettings:
    """/config economy's gift settings, each ``None`` when not given (left as it is)."""

    hold_days: int | None = None
    account_days: int | None = None
    cap: int | None = None


async def configure_economy(
    economy: Economy,
    guild_id: int,
    currency: str | None,
    emoji: str | None,
    starting_balance: int | None,
    daily_amount: int | None,
    gifts: GiftSettings | None = None,
) -> str:
    """Store the settings given (/config economy), and say what
    the economy is now."""
    gifts = gifts or GiftSettings()
    settings = await economy.configure(
        guild_id,
        currency_name=currency,
        starting_balance=starting_balance,
        daily_amount=daily_amount,
        currency_emoji=None if emoji is None else ("" if emoji.strip() == "none" else emoji),
        gift_hold_days=gifts.hold_days,
        gift_account_days=gifts.account_days,
        gift_cap=gifts.cap,
    )
    shown = (
        f"{settings.currency_emoji} {settings.currency_name}"
        if settings.currency_emoji
        else settings.currency_name
    )
    return _(
        "Currency **{currency}** · new wallets start with {starting} · /daily gives "
        "{daily} · house bank {house}.",
        currency=shown,
        starting=settings.starting_balance,
        daily=settings.daily_amount,
        house=settings.house_balance,
    )


async def setup(bot: TanzakuBot) -> None:
    await bot.add_cog(EconomyCog(bot))
