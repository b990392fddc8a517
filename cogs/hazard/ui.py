"""Hazard's face on its table message: what the game declares to the one UI base
(cogs/_ui/game.py); the cog that registers it is cogs/hazard/__init__.py."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

import discord

from bot.catalog import HAZARD
from bot.games import hazard
from bot.games.common import HOUSE
from bot.i18n import N_, _
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.controls import Control, Menu
from cogs._ui.forms import AmountPicker
from cogs._ui.frame import turn_text
from cogs._ui.game import Game
from cogs._ui.verbs import Act, VerbTable, fixed, with_choice
from cogs.hazard import words as hazard_words
from cogs.hazard.words import BET_LABELS, SENTENCES, percent, rules_summary, turn_parts

BETS = (("with", N_("Bet with")), ("against", N_("Bet against")), ("caster", N_("Caster's stake")))
ODDS = (("odds_for", N_("Odds: chance")), ("odds_against", N_("Odds: main")))
# Only what can be used now is shown (``shown``, never a greyed-out ``live``): a member
# reads the controls as what the table asks of them.
CONTROLS: tuple[Control | Menu, ...] = (
    Menu("main", N_("Caster: call a main (5–9)"), row=0,
         shown=lambda s: s.main is None and s.throws == 0,
         choices=lambda s: [(_("Main {main}", main=str(main)), str(main),
                             _("caster wins {percent}",
                               percent=percent(hazard.odds(main).caster_wins)))
                            for main in hazard.MAINS]),
    Control("throw", N_("Throw"), row=1, style="primary", emoji="🎲",
            shown=lambda s: s.main is not None and not s.window_open),
    Control("pass", N_("Pass the dice"), row=1, shown=hazard.can_pass_dice),
    Control("ready", N_("Ready"), row=1, style="success", emoji="✋",
            shown=lambda s: s.window_open),
    *(Control("bet", label, kind, row=2, shown=hazard.betting_open) for kind, label in BETS),
    *(Control("bet", label, kind, row=3, shown=lambda s: s.chance is not None and s.rules.odds_bets)
      for kind, label in ODDS),
    Control("join", N_("Join"), row=4, style="success", lobby=True),
    Control("leave", N_("Cash out"), row=4, lobby=True),
    Control("close", N_("Close table"), row=4, style="danger"),
)  # fmt: skip

Snapshot: TypeAlias = TableSnapshot[hazard.Rules, hazard.State]


class HazardUI(Game, record=HAZARD):
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

    def action_text(self, action: Mapping[str, Any], currency: str) -> str | None:
        return hazard_words.action_text(action, currency)

    def describe_rules(self, snapshot: Snapshot) -> list[str]:
        return rules_summary(snapshot.rules, snapshot.currency)

    def status_lines(self, snapshot: Snapshot) -> list[str]:
        state = snapshot.game
        lines = [
            _(
                "Round {round} · caster {caster} (losses in a row: {losses}/{limit})",
                round=state.round,
                caster=render.mention(state.caster),
                losses=str(state.losses_in_a_row),
                limit=str(hazard.LOSSES_TO_PASS),
            ),
            _(
                "Main: **{main}** · chance: **{chance}**",
                main=str(state.main or "—"),
                chance=str(state.chance or "—"),
            ),
        ]
        if state.last_throw is not None:
            lines.append(_("Last throw: {dice}", dice=render.dice_pair(*state.last_throw)))
        return [_("**The table is closed.**"), *lines] if state.finished else lines

    def turn_line(self, snapshot: Snapshot) -> str | None:
        parts = turn_parts(snapshot.game)
        return None if parts is None else turn_text(*parts, snapshot)

    def seat_lines(self, snapshot: Snapshot) -> list[str]:
        state = snapshot.game
        lines = []
        for player in state.seats:
            bets = state.bets.get(player, {})
            riding = ", ".join(
                _("{bet} {amount}", bet=_(BET_LABELS[k]), amount=render.coins(v, snapshot.currency))
                for k, v in bets.items()
                if v
            ) or _("no bets")
            net = render.signed_coins(state.payouts.get(player, 0), snapshot.currency)
            dice = "🎲 " if player == state.caster else ""
            lines.append(
                _(
                    "{dice}{player} — {bets} · net {net}",
                    dice=dice,
                    player=render.mention(player),
                    bets=riding,
                    net=net,
                )
            )
        return lines

    def extra_fields(self, snapshot: Snapshot) -> list[tuple[str, str]]:
        bank = snapshot.game.payouts.get(HOUSE, 0)
        return [(_("Bank"), render.signed_coins(bank, snapshot.currency))]

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
        wallet = (await self.bot.economy.balance(guild, user)).balance
        return least, min(room, wallet)
