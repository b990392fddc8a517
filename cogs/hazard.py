"""Hazard in Discord: /hazard open, bet, odds, close; the caster's select and buttons.

A bet button opens a private picker: quick amounts (within the table limits and the
member's wallet), "Max" and "Other amount…" (a form). The rules themselves live in the
engine (bot/games/hazard.py); this module only draws and forwards."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.app import TanzakuBot
from bot.errors import NotAllowed, UserFacingError
from bot.games import hazard
from bot.games.common import HOUSE
from bot.service import TableSnapshot, parse_rules
from cogs._ui import render
from cogs._ui.amounts import parse_amount
from cogs._ui.custom_ids import ComponentId
from cogs._ui.hub import (
    GameUI,
    Payload,
    TableModal,
    actor_of,
    button,
    install_game,
    select,
    send_ephemeral,
    view_of,
)

BET_LABELS: dict[str, str] = {
    "caster": "caster's stake",
    "with": "with the caster",
    "against": "against the caster",
    "odds_for": "odds on the chance",
    "odds_against": "odds on the main",
}
BET_KINDS: dict[str, hazard.BetKind] = {kind: kind for kind in hazard.BET_KINDS}
"""A bet kind from a component's argument (anything else is not a kind)."""
QUICK_AMOUNTS: tuple[int, ...] = (10, 50, 100)
"""The preset amounts of the bet picker (with the table minimum when it is higher)."""
OUTCOME_TEXT: dict[str, str] = {
    "nick": "**nicks** — the caster wins",
    "out": "**throws out** — the caster loses",
    "chance": "sets the **chance**",
    "win": "the chance came — the caster **wins**",
    "lose": "the main came — the caster **loses**",
    "again": "neither — throw again",
}


def percent(value: Fraction) -> str:
    return f"{float(value) * 100:,.2f}%"


def against_terms(rules: hazard.Rules) -> str:
    """How "against" bets are paid at a table, in a few words."""
    parts = []
    if rules.against_bar:
        parts.append("a first throw of 2 is a push")
    if rules.against_commission:
        parts.append(f"{rules.against_commission}% commission on wins")
    return "; ".join(parts) or "even money"


def odds_embed(main: int | None = None, rules: hazard.Rules | None = None) -> discord.Embed:
    """The exact odds table from the engine (fractions, not simulation).

    ``rules``: the "against" options of the table in the channel (defaults otherwise)."""
    rules = rules or hazard.Rules()
    mains = [main] if main is not None else list(hazard.MAINS)
    embed = discord.Embed(
        title="Hazard — exact odds",
        description=(
            "Computed exactly from the outcome table. *Edge* is the bank's expected gain "
            "per coin staked; every bet's edge is ≥ 0, so no pair of players can farm "
            f"the bank. Against: {against_terms(rules)}. Odds bets are paid at fair odds "
            "(edge 0, before fractions are rounded down in the bank's favour)."
        ),
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    for value in mains:
        figures = hazard.odds(value, rules.against_bar, rules.against_commission)
        edges = figures.edges
        embed.add_field(
            name=f"Main {value}",
            value=(
                f"Caster wins **{figures.caster_wins}** ≈ {percent(figures.caster_wins)}\n"
                f"First throw: nick {percent(figures.nick)} · out {percent(figures.out)} · "
                f"chance {percent(figures.chance)}\n"
                f"Bank edge — caster/with {percent(edges['with'])} · "
                f"against {percent(edges['against'])} · odds {percent(edges['odds_for'])}\n"
                f"Expected throws {figures.expected_throws} ≈ "
                f"{float(figures.expected_throws):,.2f}"
            ),
            inline=False,
        )
    return embed


class BetModal(TableModal):
    """Asks how much to bet; the bet itself goes through the table service."""

    amount: discord.ui.TextInput[BetModal] = discord.ui.TextInput(
        label="Amount", placeholder="Whole coins", min_length=1, max_length=16, custom_id="amount"
    )

    def __init__(self, ui: HazardUI, table: int, kind: str) -> None:
        super().__init__(title=f"Bet: {BET_LABELS[kind]}", timeout=300)
        self.ui = ui
        self.table_id = table
        self.kind = kind

    async def submit(self, interaction: discord.Interaction[Any]) -> None:
        await self.ui.place_bet(interaction, self.table_id, self.kind, self.amount.value)


class HazardUI(GameUI):
    game = "hazard"
    title = "Hazard"

    def describe_rules(self, snapshot: TableSnapshot) -> list[str]:
        rules: hazard.Rules = snapshot.rules
        odds = (
            f"odds bets up to {rules.odds_max_multiple}× the stake"
            if rules.odds_bets and rules.odds_max_multiple
            else "no odds bets"
        )
        window = (
            f"after the main is called, bets stay open up to {rules.bet_seconds:,} s "
            "until everyone has bet or pressed Ready"
            if rules.bet_seconds
            else "bets close at the first throw"
        )
        return [
            f"Bets {rules.min_stake:,}–{rules.max_stake:,} {snapshot.currency} · {odds}",
            f"Against: {against_terms(rules)} · {window}.",
            f"The caster has {rules.throw_seconds:,} s to act before the table throws.",
        ]

    def render_game(self, snapshot: TableSnapshot, events: Sequence[BaseModel]) -> Payload:
        state: hazard.State = snapshot.state
        currency = snapshot.currency
        lines = [
            f"Round {state.round:,} · caster {render.mention(state.caster)} "
            f"(losses in a row: {state.losses_in_a_row}/{hazard.LOSSES_TO_PASS})",
            f"Main: **{state.main or '—'}** · chance: **{state.chance or '—'}**",
        ]
        if state.last_throw is not None:
            lines.append(f"Last throw: {render.dice_pair(*state.last_throw)}")
        if not state.finished:
            lines.append(self.clock_line(snapshot))
        happenings = [text for event in events if (text := self.describe(event, currency))]
        if happenings:
            lines.append("")
            lines.extend(happenings[-8:])
        if state.finished:
            lines.insert(0, "**The table is closed.**")
        embed = discord.Embed(
            title=f"Hazard — table #{snapshot.id}",
            description=render.clip("\n".join(lines), 4096),
            colour=discord.Colour(
                render.COLOUR_FINISHED if state.finished else render.COLOUR_PLAYING
            ),
        )
        seats = []
        for player in state.seats:
            bets = state.bets.get(player, {})
            riding = ", ".join(f"{BET_LABELS[k]} {v:,}" for k, v in bets.items() if v) or "no bets"
            net = state.payouts.get(player, 0)
            seats.append(
                f"{'🎲 ' if player == state.caster else ''}{render.mention(player)} — {riding}"
                f" · net {render.signed_coins(net, currency)}"
            )
        embed.add_field(
            name="Seats", value=render.clip("\n".join(seats) or "—", 1024), inline=False
        )
        bank = state.payouts.get(HOUSE, 0)
        embed.add_field(name="Bank", value=render.signed_coins(bank, currency))
        if state.finished:
            return Payload(embed, None)
        return Payload(embed, self.controls(snapshot))

    @staticmethod
    def clock_line(snapshot: TableSnapshot) -> str:
        """What the table is waiting for, with a live countdown (a Discord timestamp)."""
        state: hazard.State = snapshot.state
        due = (
            render.timestamp(snapshot.deadline.due_at) if snapshot.deadline is not None else "soon"
        )
        if state.window_open:
            waiting = hazard.waiting_on(state)
            names = ", ".join(render.mention(p) for p in waiting)
            verb = "has" if len(waiting) == 1 else "have"
            return (
                f"⏳ **Bets are open** — they close {due}, or as soon as {names} {verb} "
                "bet with/against or pressed **Ready**."
            )
        if state.main is None:
            return f"The caster calls a main; otherwise the table calls 7 {due}."
        return f"The table throws for the caster {due}."

    def controls(self, snapshot: TableSnapshot) -> discord.ui.View:
        state: hazard.State = snapshot.state
        table, ply = snapshot.id, state.ply
        items: list[discord.ui.Item[Any]] = []
        if state.main is None and state.throws == 0:
            options = [
                discord.SelectOption(
                    label=f"Main {main}",
                    value=str(main),
                    description=f"caster wins {percent(hazard.odds(main).caster_wins)}",
                )
                for main in hazard.MAINS
            ]
            items.append(select(table, ply, "main", "Caster: call a main (5–9)", options, row=0))
        items.append(
            button(
                table,
                ply,
                "throw",
                "Throw",
                style=discord.ButtonStyle.primary,
                emoji="🎲",
                disabled=state.main is None or state.window_open,
                row=1,
            )
        )
        items.append(
            button(
                table, ply, "pass", "Pass the dice", disabled=not hazard.can_pass_dice(state), row=1
            )
        )
        items.append(
            button(
                table,
                ply,
                "ready",
                "Ready",
                style=discord.ButtonStyle.success,
                emoji="✋",
                disabled=not state.window_open,
                row=1,
            )
        )
        betting_open = hazard.betting_open(state)
        for kind, label in (
            ("with", "Bet with"),
            ("against", "Bet against"),
            ("caster", "Caster's stake"),
        ):
            items.append(
                button(table, ply, "bet", label, arg=kind, disabled=not betting_open, row=2)
            )
        odds_open = state.chance is not None and state.rules.odds_bets
        items.append(
            button(table, ply, "bet", "Odds: chance", arg="odds_for", disabled=not odds_open, row=3)
        )
        items.append(
            button(
                table, ply, "bet", "Odds: main", arg="odds_against", disabled=not odds_open, row=3
            )
        )
        items.append(button(table, 0, "join", "Join", style=discord.ButtonStyle.success, row=4))
        items.append(button(table, 0, "leave", "Cash out", row=4))
        items.append(
            button(table, ply, "close", "Close table", style=discord.ButtonStyle.danger, row=4)
        )
        return view_of(*items)

    @staticmethod
    def describe(event: BaseModel, currency: str) -> str | None:
        if isinstance(event, hazard.MainCalled):
            how = " (called by the table)" if event.by_deadline else ""
            return f"{render.mention(event.caster)} calls main **{event.main}**{how}."
        if isinstance(event, hazard.Thrown):
            how = " (thrown by the table)" if event.by_deadline else ""
            return f"{render.dice_pair(*event.dice)} — {OUTCOME_TEXT[event.outcome]}{how}."
        if isinstance(event, hazard.BetPlaced):
            return (
                f"{render.mention(event.player)} bets {render.coins(event.amount, currency)} "
                f"{BET_LABELS[event.bet]}."
            )
        if isinstance(event, hazard.BetSettled):
            if event.push:
                return (
                    f"{render.mention(event.player)}'s bet {BET_LABELS[event.bet]} is a push "
                    "(a first throw of 2 is barred): returned."
                )
            verb = "wins" if event.won else "loses"
            kept = (
                f" after {render.coins(event.commission, currency)} commission"
                if event.commission
                else ""
            )
            return (
                f"{render.mention(event.player)} {verb} on {BET_LABELS[event.bet]}: "
                f"{render.signed_coins(event.net, currency)}{kept}."
            )
        if isinstance(event, hazard.BetReturned):
            return f"{render.mention(event.player)}'s {BET_LABELS[event.bet]} is returned."
        if isinstance(event, hazard.BetValued):
            return (
                f"{render.mention(event.player)}'s {BET_LABELS[event.bet]} is settled at its "
                f"exact value: {render.coins(event.returned, currency)} back "
                f"({render.signed_coins(event.net, currency)})."
            )
        if isinstance(event, hazard.PlayerReady):
            return f"{render.mention(event.player)} is ready."
        if isinstance(event, hazard.BettingClosed):
            if event.by_deadline:
                return "Time is up: **bets are closed**. The caster may throw."
            return "Everyone is ready: **bets are closed**. The caster may throw."
        if isinstance(event, hazard.Aborted):
            who = f" by {render.mention(event.by)}" if event.by is not None else ""
            return f"The table was ended{who}; open bets were returned or settled at value."
        if isinstance(event, hazard.DicePassed):
            reasons = {
                "three_losses": "after three losses in a row",
                "absent": "the caster was absent",
                "voluntary": "by choice",
                "left": "the caster left",
            }
            return f"The dice pass to {render.mention(event.to_player)} ({reasons[event.reason]})."
        if isinstance(event, hazard.Joined):
            return f"{render.mention(event.player)} sits down."
        if isinstance(event, hazard.Left):
            return (
                f"{render.mention(event.player)} cashes out at "
                f"{render.signed_coins(event.net, currency)}."
            )
        if isinstance(event, hazard.Closed):
            return "The table closes."
        return None

    async def click(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> None:
        if cid.verb == "bet" and cid.arg in BET_KINDS:
            await self.show_picker(interaction, cid.table, BET_KINDS[cid.arg])
            return
        if cid.verb == "betform" and cid.arg in BET_LABELS:
            await interaction.response.send_modal(BetModal(self, cid.table, cid.arg))
            return
        if cid.verb == "qbet" and cid.arg is not None:
            await self.quick_bet(interaction, cid)
            return
        if cid.verb == "close":
            await self.close(interaction, cid.table)
            return
        await super().click(interaction, cid, values)

    def action_for(
        self, snapshot_id: int, verb: str, arg: str | None, values: Sequence[str]
    ) -> BaseModel:
        if verb == "main" and values:
            return hazard.CallMain(main=int(values[0]))
        if verb == "throw":
            return hazard.Throw()
        if verb == "pass":
            return hazard.PassDice()
        if verb == "ready":
            return hazard.Ready()
        return super().action_for(snapshot_id, verb, arg, values)

    # ------------------------------------------------------------------ the picker

    async def bet_room(
        self, interaction: discord.Interaction[Any], snapshot: TableSnapshot, kind: hazard.BetKind
    ) -> tuple[int, int]:
        """(the least, the most) the member may add to a ``kind`` bet now: the table's
        limits, the odds cap and what their wallet holds. The engine still decides."""
        state: hazard.State = snapshot.state
        rules = state.rules
        user = interaction.user.id
        held = state.bets.get(user, {})
        least = max(1, rules.min_stake - held.get(kind, 0))
        if kind in ("odds_for", "odds_against"):
            riding = held.get("odds_for", 0) + held.get("odds_against", 0)
            room = hazard.odds_cap(state, user) - riding
        else:
            room = rules.max_stake - held.get(kind, 0)
        guild = interaction.guild_id or snapshot.row.guild_id
        wallet = (await self.hub.bot.economy.balance(guild, user)).balance
        return least, min(room, wallet)

    async def picker(
        self, interaction: discord.Interaction[Any], table: int, kind: hazard.BetKind
    ) -> tuple[str, discord.ui.View]:
        snapshot = await self.service.snapshot(table)
        least, most = await self.bet_room(interaction, snapshot, kind)
        ply = snapshot.ply
        # The presets, led by the table minimum when it is above the smallest preset.
        amounts = {a for a in QUICK_AMOUNTS if a >= least}
        if least > QUICK_AMOUNTS[0]:
            amounts.add(least)
        items: list[discord.ui.Item[Any]] = [
            button(
                table,
                ply,
                "qbet",
                f"{amount:,}",
                arg=f"{kind}-{amount}",
                style=discord.ButtonStyle.primary,
                disabled=amount > most,
                row=0,
            )
            for amount in sorted(amounts)[:3]
        ]
        items.append(
            button(
                table,
                ply,
                "qbet",
                f"Max ({max(most, 0):,})",
                arg=f"{kind}-max",
                style=discord.ButtonStyle.primary,
                disabled=most < least,
                row=0,
            )
        )
        items.append(button(table, ply, "betform", "Other amount…", arg=kind, row=0))
        text = (
            f"**Bet {BET_LABELS[kind]}** at table #{table}: how much? "
            f"(you can add {max(most, 0):,} {snapshot.currency} at most now)"
        )
        return text, view_of(*items)

    async def show_picker(
        self, interaction: discord.Interaction[Any], table: int, kind: hazard.BetKind
    ) -> None:
        text, view = await self.picker(interaction, table, kind)
        await send_ephemeral(interaction, text, view=view)

    async def quick_bet(self, interaction: discord.Interaction[Any], cid: ComponentId) -> None:
        kind_text, _, amount_text = (cid.arg or "").rpartition("-")
        kind = BET_KINDS.get(kind_text)
        if kind is None:
            raise NotAllowed("That button does nothing at this table.")
        if amount_text == "max":
            snapshot = await self.service.snapshot(cid.table)
            least, amount = await self.bet_room(interaction, snapshot, kind)
            if amount < least:
                raise NotAllowed("There is no room for more on that bet right now.")
        else:
            amount = parse_amount(amount_text)
        bet = hazard.Bet.model_validate({"kind": kind, "amount": amount})
        # The picker's ply: a picker left over from an earlier moment bets nothing.
        outcome = await self.service.act(
            cid.table, actor_of(interaction), bet, expected_ply=cid.ply
        )
        currency = outcome.snapshot.currency
        text, view = await self.picker(interaction, cid.table, kind)
        await interaction.response.edit_message(
            content=f"Your bet is on: {render.coins(amount, currency)} {BET_LABELS[kind]}.\n"
            + text,
            view=view,
        )
        await self.hub.answer(interaction, outcome)

    async def place_bet(
        self, interaction: discord.Interaction[Any], table: int, kind: str, amount_text: str
    ) -> None:
        amount = parse_amount(amount_text)
        bet = hazard.Bet.model_validate({"kind": kind, "amount": amount})
        outcome = await self.service.act(table, actor_of(interaction), bet)
        await self.hub.answer(
            interaction,
            outcome,
            confirm=f"Your bet is on: {render.coins(amount, outcome.snapshot.currency)} "
            f"{BET_LABELS[kind]}.",
        )

    async def close(self, interaction: discord.Interaction[Any], table: int) -> None:
        # Host or moderator: the game's permission for Close, checked by the service.
        outcome = await self.service.act(table, actor_of(interaction), hazard.Close())
        await self.hub.answer(interaction, outcome)


class HazardCog(
    commands.GroupCog, group_name="hazard", group_description="Hazard, the old dice game"
):
    def __init__(self, bot: TanzakuBot, ui: HazardUI) -> None:
        self.bot = bot
        self.ui = ui

    @app_commands.command(name="open", description="Open a Hazard table in this channel.")
    @app_commands.describe(
        min_stake="Smallest bet (default 1)",
        max_stake="Largest bet (default 1000)",
        odds_bets="Allow odds bets once a chance is set (default on)",
        odds_max_multiple="Odds bets up to this many times the stake (default 1)",
        throw_seconds="Seconds the caster has before the table throws (default 60)",
        bet_seconds="Betting window after the main is called, in seconds (default 20; 0: none)",
        against_bar="A first throw of 2 pushes 'against' bets (default on)",
        against_commission="Percent kept from 'against' winnings (default 0; at least 5 "
        "without the bar)",
        absent_rounds="Absent rounds in a row before the dice pass (default 2; 0: never)",
        seats="Most players at the table (default 10)",
    )
    async def open(
        self,
        interaction: discord.Interaction[Any],
        min_stake: app_commands.Range[int, 1, 1_000_000] = 1,
        max_stake: app_commands.Range[int, 1, 1_000_000_000] = 1000,
        odds_bets: bool = True,
        odds_max_multiple: app_commands.Range[int, 0, 10] = 1,
        throw_seconds: app_commands.Range[int, 15, 3600] = 60,
        bet_seconds: app_commands.Range[int, 0, 600] = 20,
        against_bar: bool = True,
        against_commission: app_commands.Range[int, 0, 50] = 0,
        absent_rounds: app_commands.Range[int, 0, 10] = 2,
        seats: app_commands.Range[int, 1, 10] = 10,
    ) -> None:
        if min_stake > max_stake:
            raise NotAllowed("The smallest bet cannot be above the largest.")
        needed = hazard.min_against_commission(against_bar)
        if against_commission < needed:
            raise NotAllowed(
                "Without the bar on a first throw of 2, an 'against' bet would favour the "
                f"player: take a commission of at least {needed}% (against_commission)."
            )
        rules = parse_rules(
            self.bot.registry.get("hazard"),
            {
                "min_stake": min_stake,
                "max_stake": max_stake,
                "odds_bets": odds_bets,
                "odds_max_multiple": odds_max_multiple,
                "throw_seconds": throw_seconds,
                "bet_seconds": bet_seconds,
                "against_bar": against_bar,
                "against_commission": against_commission,
                "absent_rounds_to_lose_dice": absent_rounds,
                "max_players": seats,
                # A table everyone walked away from closes after the dice have gone twice
                # round it by absence, rather than throwing for nobody forever.
                "idle_laps_to_close": 2,
            },
        )
        await self.ui.hub.open_table(interaction, "hazard", rules)

    @app_commands.command(name="bet", description="Bet at this channel's Hazard table.")
    @app_commands.describe(kind="What to bet on", amount="How many coins")
    async def bet(
        self,
        interaction: discord.Interaction[Any],
        kind: Literal["caster", "with", "against", "odds_for", "odds_against"],
        amount: app_commands.Range[int, 1, 1_000_000_000],
    ) -> None:
        assert interaction.channel_id is not None
        table = await self.bot.tables.live_table_in(interaction.channel_id, "hazard")
        await self.ui.place_bet(interaction, table, kind, str(amount))

    @app_commands.command(name="odds", description="The exact odds of Hazard, main by main.")
    @app_commands.describe(main="One main (5–9); all by default")
    async def odds(
        self,
        interaction: discord.Interaction[Any],
        main: app_commands.Range[int, 5, 9] | None = None,
    ) -> None:
        rules: hazard.Rules | None = None
        if interaction.channel_id is not None:
            # The channel's table's "against" terms, when it has one; defaults otherwise.
            try:
                table = await self.bot.tables.live_table_in(interaction.channel_id, "hazard")
                rules = (await self.bot.tables.snapshot(table)).rules
            except UserFacingError:
                rules = None
        await interaction.response.send_message(embed=odds_embed(main, rules), ephemeral=True)

    @app_commands.command(
        name="close", description="Close this channel's Hazard table (host or moderator)."
    )
    async def close(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.channel_id is not None
        table = await self.bot.tables.live_table_in(interaction.channel_id, "hazard")
        await self.ui.close(interaction, table)


async def setup(bot: TanzakuBot) -> None:
    await install_game(bot, hazard, HazardUI, HazardCog)
