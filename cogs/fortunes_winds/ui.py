"""Fortunes and Winds's face on its table message: what the game declares to the one UI base
(cogs/_ui/game.py); the cog that registers it is cogs/fortunes_winds/__init__.py."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

import discord
from pydantic import BaseModel

from bot.catalog import FORTUNES_WINDS
from bot.errors import InsufficientFunds, NotAllowed, StaleAction
from bot.games import fortunes_winds as fw
from bot.games.dice import ScriptedDice
from bot.i18n import N_, _
from bot.service import Outcome, TableSnapshot
from cogs._ui import render
from cogs._ui.controls import Control, draw
from cogs._ui.custom_ids import ComponentId
from cogs._ui.face import Acted, Answer
from cogs._ui.forms import AmountPicker
from cogs._ui.frame import turn_text
from cogs._ui.game import Game
from cogs._ui.picks import Picks
from cogs._ui.primitives import actor_of, send_ephemeral, view_of
from cogs._ui.verbs import VerbTable, fixed
from cogs.fortunes_winds import words

Snapshot: TypeAlias = TableSnapshot[fw.Rules, fw.State]
PICKS = Picks(fw.WHITE_DICE, verb="die", confirm_verb="again")


def keeping(s: fw.State) -> bool:
    return s.phase == "rolling" and 1 <= s.roll_number <= 2


def bet_shown(kind: str) -> Any:
    return lambda s: fw.betting_open(s) and (kind != "against" or s.rules.allow_bet_against)


CONTROLS: tuple[Control, ...] = (
    Control("roll", N_("Roll"), row=0, style="primary", emoji="🎲",
            shown=lambda s: s.phase == "betting" and s.roll_number == 0),
    Control("newturn", N_("New turn"), row=0, style="success", shown=lambda s: s.phase == "won"),
    Control("pass", N_("Pass the dice"), row=0, shown=lambda s: s.roll_number == 0,
            live=fw.can_pass_dice),
    Control("bestroll", N_("Roll with best keep"), row=0, style="primary", emoji="🎲",
            shown=keeping),
    Control("keep", N_("Best keep"), row=0, emoji="💡", shown=keeping),
    Control("ready", N_("Ready"), row=0, style="success", emoji="✋",
            shown=lambda s: s.window_open),
    *(Control("bet", words.BET_BUTTONS[k], k, row=2 + (i == 5), shown=bet_shown(k))
      for i, k in enumerate(fw.BET_KINDS)),
    Control("join", N_("Join"), row=4, style="success", lobby=True),
    Control("leave", N_("Cash out"), row=4, lobby=True),
)  # fmt: skip
"""The table's buttons; a Control's label is translated where it is drawn."""


class FortunesUI(Game, record=FORTUNES_WINDS):
    recent_events = 12
    sentences = words.SENTENCES
    buttons = CONTROLS

    def verbs(self) -> VerbTable:
        self.bets = AmountPicker(
            self, kinds=words.BET_LABELS, room=self.bet_room, notes=words.BET_NOTES,
            action=lambda kind, amount: fw.Bet.model_validate({"kind": kind, "amount": amount}),
            step=lambda kind: fw.whole_pays_step(kind),  # type: ignore[arg-type]
        )  # fmt: skip
        return {
            "roll": fixed(fw.Roll),
            "newturn": fixed(fw.NewTurn),
            "pass": fixed(fw.PassDice),
            "ready": fixed(fw.Ready),
            "die": self.toggle,
            "again": self.roll_again,
            "keep": self.best_keep,
            "bestroll": self.roll_best_keep,
            **self.bets.verbs(),
        }

    def describe_rules(self, snapshot: Snapshot) -> list[str]:
        return words.rules_summary(snapshot.rules, snapshot.currency)

    def status_lines(self, snapshot: Snapshot) -> list[str]:
        return words.status_lines(snapshot)

    def turn_line(self, snapshot: Snapshot) -> str | None:
        parts = words.turn_parts(snapshot.game)
        return None if parts is None else turn_text(*parts, snapshot)

    def seat_lines(self, snapshot: Snapshot) -> list[str]:
        return words.seat_lines(snapshot)

    def extra_fields(self, snapshot: Snapshot) -> list[tuple[str, str]]:
        return [words.bank_field(snapshot)]

    def controls(self, snapshot: Snapshot, picked: Sequence[str] = ()) -> discord.ui.View:
        s = snapshot.game
        items = draw(snapshot.id, s, self.buttons)
        if keeping(s):
            labels = {die: words.die_label(die, s) for die in fw.WHITE_DICE}
            items += PICKS.draw(
                snapshot.id, s.ply, labels, picked, s.set_aside, _("Roll again"), row=1
            )
        return view_of(*items)

    async def apply(
        self, interaction: Any, table: int, action: BaseModel, *, ply: int | None = None
    ) -> Outcome:
        try:
            return await super().apply(interaction, table, action, ply=ply)
        except fw.GuardRefused as refused:
            raise await self.guard_refusal(table, refused) from refused

    async def guard_refusal(self, table: int, refused: fw.GuardRefused) -> NotAllowed:
        # The engine counts coins; the table speaks the server's currency.
        currency = (await self.service.snapshot(table)).currency
        template, params = refused.parts(lambda n: render.coins(n, currency))
        return NotAllowed(template, **params)

    def wallet_refusal(self, short: InsufficientFunds, currency: str) -> str | None:
        return words.cannot_cover(short.user_id or 0, short.needed, short.balance, currency)

    async def toggle(self, interaction: Any, cid: ComponentId, values: Sequence[str]) -> Answer:
        """Pick or unpick a white die: only the message changes, until "Roll again". The
        engine judges the pick now (a dry run: act never mutates, and SetAside rolls nothing)."""
        snapshot: Snapshot = await self.service.snapshot(cid.table)
        s, user = snapshot.game, interaction.user.id
        if cid.ply != s.ply:
            raise StaleAction()
        locked = PICKS.locked_item(cid.arg)
        picked = [locked] if locked else PICKS.decode(cid.arg)
        if picked or user != s.shooter:
            fw.act(s, user, fw.SetAside.model_validate({"dice": picked}), ScriptedDice())
        return self.redraw(snapshot, self.controls(snapshot, picked))

    async def roll_again(self, interaction: Any, cid: ComponentId, values: Sequence[str]) -> Answer:
        picked = PICKS.decode(cid.arg)
        # The engine checks the pick (whose turn, a die aside, the cap of three).
        return await self.set_aside_and_roll(interaction, cid, picked)

    async def set_aside_and_roll(
        self,
        interaction: Any,
        cid: ComponentId,
        dice: Sequence[str] | Callable[[fw.State], Sequence[str]],
    ) -> Answer:
        """Set ``dice`` aside (if any), then roll: the engine's own two actions, saved
        together in one transaction (both or neither), at the click's ply. ``dice`` may be
        worked out from the table's state in that transaction (the best keep)."""
        actions: list[BaseModel] | Callable[[fw.State], list[BaseModel]]
        if callable(dice):
            decide = dice

            def actions(state: fw.State) -> list[BaseModel]:
                return keep_then_roll(decide(state))

        else:
            actions = keep_then_roll(dice)
        try:
            outcome = await self.service.act_in_turn(
                cid.table, actor_of(interaction), actions, expected_ply=cid.ply
            )
        except fw.GuardRefused as refused:
            raise await self.guard_refusal(cid.table, refused) from refused
        except InsufficientFunds as short:
            if short.user_id in (None, interaction.user.id):
                raise
            currency = (await self.service.snapshot(cid.table)).currency
            refusal = self.wallet_refusal(short, currency)
            if refusal is None:
                raise
            raise NotAllowed(refusal) from short
        return Acted(outcome)

    async def roll_best_keep(
        self, interaction: Any, cid: ComponentId, values: Sequence[str]
    ) -> Answer:
        """One click for the hint: set aside the engine's best keep from the table as the
        button showed it (the click's ply), then roll — the engine's own two actions. The
        keep is worked out in the action's transaction, from the state it is played on:
        no read of the table before it."""
        return await self.set_aside_and_roll(interaction, cid, fw.best_keep)

    async def best_keep(self, interaction: Any, cid: ComponentId, values: Sequence[str]) -> None:
        state = (await self.service.snapshot(cid.table)).game
        advice = fw.keep_advice(state)
        if advice is None:
            raise NotAllowed("There is no keep to choose right now: it is between the rolls.")
        await send_ephemeral(interaction, words.keep_text(advice, state))

    def public_line(self, outcome: Outcome) -> str | None:
        return words.result_line(list(outcome.events), outcome.snapshot)

    def action_text(self, action: Mapping[str, Any], currency: str) -> str | None:
        return words.action_text(action, currency)

    def history_text(
        self, event: BaseModel, snapshot: Snapshot, earlier: Sequence[BaseModel]
    ) -> str | None:
        if isinstance(event, fw.DiceSetAside):
            # The live sentence reads the dice as they are now; the log's, as they were.
            return words.set_aside_then(event, earlier, event.by_deadline)
        return self.event_text(event, snapshot)

    def left_word(self, outcome: Outcome, player: int) -> str | None:
        return words.cashed_out(list(outcome.events), player, outcome.snapshot)

    async def bet_room(self, interaction: Any, snapshot: Snapshot, kind: str) -> tuple[int, int]:
        """(the least, the most) the member may add on ``kind`` now, in the kind's whole-pays
        multiples: the limits, the wallet (half of it with a Lord Moon stake) and the guard
        (exact: it takes every multiple up to its limit). The engine decides."""
        s, user = snapshot.game, interaction.user.id
        held = s.bets.get(user, {}).get(kind, 0)  # type: ignore[call-overload]
        wallet = (await self.bot.economy.balance(snapshot.row.guild_id, user)).balance
        most = min(s.rules.max_stake - held, wallet // 2 if kind in ("shooter", "ride") else wallet)
        if s.rules.guarded and kind != "shooter" and user in s.seats:
            most = min(most, fw.guard_limit(s, user, kind))  # type: ignore[arg-type]
        step = fw.whole_pays_step(kind)  # type: ignore[arg-type]
        least = max(1, s.rules.min_stake - held)
        return -(-least // step) * step, most - most % step


def keep_then_roll(dice: Sequence[str]) -> list[BaseModel]:
    """Set ``dice`` aside (if any), then roll: the engine's own actions for one click."""
    if not dice:
        return [fw.Roll()]
    return [fw.SetAside.model_validate({"dice": list(dice)}), fw.Roll()]
