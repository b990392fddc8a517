"""Hazard in Discord: /hazard open, bet, odds, close; the caster's select and buttons.

A bet button opens a private picker (cogs/_ui/forms.py): quick amounts within the table
limits and the member's wallet, "Max" and "Other amount…". The rules live in the engine
(bot/games/hazard.py), the words in cogs/hazard_text.py; this module declares the rest."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TanzakuBot
from bot.errors import UserFacingError
from bot.games import hazard
from bot.games.common import HOUSE
from bot.service import TableSnapshot, parse_rules
from cogs._ui import render
from cogs._ui.controls import Control, Menu
from cogs._ui.forms import AmountPicker
from cogs._ui.game import Game, GameCog, install_game
from cogs._ui.options import Options, Values, table
from cogs._ui.verbs import Act, VerbTable, fixed, with_choice
from cogs.hazard_text import BET_LABELS, SENTENCES, clock_line, odds_embed, percent, rules_summary

BETS = (("with", "Bet with"), ("against", "Bet against"), ("caster", "Caster's stake"))
ODDS = (("odds_for", "Odds: chance"), ("odds_against", "Odds: main"))
CONTROLS: tuple[Control | Menu, ...] = (
    Menu("main", "Caster: call a main (5–9)", row=0,
         shown=lambda s: s.main is None and s.throws == 0,
         choices=lambda s: [(f"Main {main}", str(main),
                             f"caster wins {percent(hazard.odds(main).caster_wins)}")
                            for main in hazard.MAINS]),
    Control("throw", "Throw", row=1, style="primary", emoji="🎲",
            live=lambda s: s.main is not None and not s.window_open),
    Control("pass", "Pass the dice", row=1, live=hazard.can_pass_dice),
    Control("ready", "Ready", row=1, style="success", emoji="✋", live=lambda s: s.window_open),
    *(Control("bet", label, kind, row=2, live=hazard.betting_open) for kind, label in BETS),
    *(Control("bet", label, kind, row=3, live=lambda s: s.chance is not None and s.rules.odds_bets)
      for kind, label in ODDS),
    Control("join", "Join", row=4, style="success", lobby=True),
    Control("leave", "Cash out", row=4, lobby=True),
    Control("close", "Close table", row=4, style="danger"),
)  # fmt: skip

Snapshot = TableSnapshot[hazard.Rules, hazard.State]


class HazardUI(Game):
    game = "hazard"
    title = "Hazard"
    sentences = SENTENCES
    buttons = CONTROLS

    def verbs(self) -> VerbTable:
        self.bets = AmountPicker(
            self,
            kinds=BET_LABELS,
            room=self.bet_room,
            action=lambda kind, amount: hazard.Bet.model_validate({"kind": kind, "amount": amount}),
        )
        return {
            "main": with_choice(lambda main: hazard.CallMain(main=main)),
            "throw": fixed(hazard.Throw),
            "pass": fixed(hazard.PassDice),
            "ready": fixed(hazard.Ready),
            # Host or moderator: the game's permission for Close, checked by the service.
            "close": Act(lambda arg, values: hazard.Close(), checked=False),
            **self.bets.verbs(),
        }

    def describe_rules(self, snapshot: Snapshot) -> list[str]:
        return rules_summary(snapshot.rules, snapshot.currency)

    def status_lines(self, snapshot: Snapshot) -> list[str]:
        state = snapshot.game
        lines = [
            f"Round {state.round:,} · caster {render.mention(state.caster)} "
            f"(losses in a row: {state.losses_in_a_row}/{hazard.LOSSES_TO_PASS})",
            f"Main: **{state.main or '—'}** · chance: **{state.chance or '—'}**",
        ]
        if state.last_throw is not None:
            lines.append(f"Last throw: {render.dice_pair(*state.last_throw)}")
        return ["**The table is closed.**", *lines] if state.finished else lines

    def deadline_line(self, snapshot: Snapshot) -> str:
        deadline = snapshot.deadline
        due = render.timestamp(deadline.due_at) if deadline is not None else "soon"
        return clock_line(snapshot.game, due)

    def seat_lines(self, snapshot: Snapshot) -> list[str]:
        state = snapshot.game
        lines = []
        for player in state.seats:
            bets = state.bets.get(player, {})
            riding = ", ".join(f"{BET_LABELS[k]} {v:,}" for k, v in bets.items() if v) or "no bets"
            net = render.signed_coins(state.payouts.get(player, 0), snapshot.currency)
            dice = "🎲 " if player == state.caster else ""
            lines.append(f"{dice}{render.mention(player)} — {riding} · net {net}")
        return lines

    def extra_fields(self, snapshot: Snapshot) -> list[tuple[str, str]]:
        bank = snapshot.game.payouts.get(HOUSE, 0)
        return [("Bank", render.signed_coins(bank, snapshot.currency))]

    async def bet_room(
        self, interaction: discord.Interaction[Any], snapshot: Snapshot, kind: str
    ) -> tuple[int, int]:
        """(the least, the most) the member may add to a ``kind`` bet now: the table's
        limits, the odds cap and what their wallet holds. The engine still decides."""
        state = snapshot.game
        user = interaction.user.id
        held = state.bets.get(user, {})
        least = max(1, state.rules.min_stake - held.get(kind, 0))  # type: ignore[call-overload]
        if kind in ("odds_for", "odds_against"):
            riding = held.get("odds_for", 0) + held.get("odds_against", 0)
            room = hazard.odds_cap(state, user) - riding
        else:
            room = state.rules.max_stake - held.get(kind, 0)  # type: ignore[call-overload]
        guild = interaction.guild_id or snapshot.row.guild_id
        wallet = (await self.hub.bot.economy.balance(guild, user)).balance
        return least, min(room, wallet)


# `server`: only the server's moderators set it (/config rule), never the opener. The
# "against" terms set the bank's edge on that bet; odds bets are paid at fair odds (edge 0),
# so whether they are taken and how large they may be move the bank's edge per coin and
# its exposure. The limits, clocks and seats are the opener's: every bet keeps the same
# edge whatever they are, and the bank refuses a bet it could not pay out.
OPTIONS = Options(
    hazard.Rules,
    table("""
min_stake           1..1_000_000      Smallest bet (default 1)
max_stake           1..1_000_000_000  Largest bet (default 1000)
odds_bets           bool  server  Allow odds bets once a chance is set (default on)
odds_max_multiple   0..10  server  Odds bets up to this many times the stake (default 1)
throw_seconds       15..3600  Seconds the caster has before the table throws (default 60)
bet_seconds         0..600  Betting window after the main is called, in seconds
                            (default 20; 0: none)
against_bar         bool  server  A first throw of 2 pushes 'against' bets (default on)
against_commission  0..50  server  Percent kept from 'against' winnings (default 0; at
                            least 5 without the bar)
absent_rounds>absent_rounds_to_lose_dice  0..10  Absent rounds in a row before the dice
                            pass (default 2; 0: never)
seats>max_players   1..10   Most players at the table (default 10)
"""),
    # A table everyone walked away from closes after the dice have gone twice round it
    # by absence, rather than throwing for nobody forever.
    fixed={"idle_laps_to_close": 2},
)


async def open_table(cog: HazardCog, interaction: discord.Interaction[Any], values: Values) -> None:
    # The engine's Rules refuse limits out of order and any option set that would let a
    # bet favour the player; parse_rules turns that into the member's answer.
    rules = parse_rules(cog.bot.registry.get("hazard"), OPTIONS.rules(values))
    await cog.ui.hub.open_table(interaction, "hazard", rules)


class HazardCog(
    GameCog, commands.GroupCog, group_name="hazard", group_description="Hazard, the old dice game"
):
    ui: HazardUI
    options = OPTIONS
    open = OPTIONS.command("open", "Open a Hazard table in this channel.", open_table)

    @app_commands.command(name="bet", description="Bet at this channel's Hazard table.")
    @app_commands.describe(kind="What to bet on", amount="How many coins")
    async def bet(
        self,
        interaction: discord.Interaction[Any],
        kind: Literal["caster", "with", "against", "odds_for", "odds_against"],
        amount: app_commands.Range[int, 1, 1_000_000_000],
    ) -> None:
        await self.ui.bets.place(interaction, await self.live_table(interaction), kind, amount)

    @app_commands.command(name="odds", description="The exact odds of Hazard, main by main.")
    @app_commands.describe(main="One main (5–9); all by default")
    async def odds(
        self,
        interaction: discord.Interaction[Any],
        main: app_commands.Range[int, 5, 9] | None = None,
    ) -> None:
        try:  # the channel's table's "against" terms, when it has one; defaults otherwise
            rules = (await self.bot.tables.snapshot(await self.live_table(interaction))).rules
        except UserFacingError:
            rules = None
        await interaction.response.send_message(embed=odds_embed(main, rules), ephemeral=True)

    @app_commands.command(
        name="close", description="Close this channel's Hazard table (host or moderator)."
    )
    async def close(self, interaction: discord.Interaction[Any]) -> None:
        await self.ui.act(interaction, await self.live_table(interaction), hazard.Close())


async def setup(bot: TanzakuBot) -> None:
    await install_game(bot, hazard, HazardUI, HazardCog)
