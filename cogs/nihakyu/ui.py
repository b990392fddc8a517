"""Nihakyu's face on its table message: what the game declares to the one UI base
(cogs/_ui/game.py); the cog that registers it is cogs/nihakyu/__init__.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

import discord

from bot.catalog import NIHAKYU
from bot.games import nihakyu
from bot.i18n import N_, _
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.controls import Control
from cogs._ui.custom_ids import ComponentId
from cogs._ui.face import Answer
from cogs._ui.frame import everyone, turn_text
from cogs._ui.game import Game
from cogs._ui.verbs import VerbTable, by_arg, fixed
from cogs.nihakyu import words as nihakyu_words
from cogs.nihakyu.words import (
    CONFIRMATIONS,
    SENTENCES,
    name,
    result_lines,
    rules_summary,
)


def offers_roll_for_me(state: nihakyu.State) -> bool:
    """Whether the table shows "Roll for me": while choosing, when a standing player may
    turn it on (Roll is their only choice) or has it on (to turn it off)."""
    return state.phase == "choosing" and any(
        p in state.roll_for_me or nihakyu.only_roll(state, p) for p in nihakyu.standing(state)
    )


CONTROLS = (
    Control("roll", N_("Roll"), style="primary", emoji="🎲",
            shown=lambda s: s.phase != "sleight"),
    Control("shadow", N_("Shadow Step"), emoji="👣",
            shown=lambda s: s.phase != "sleight" and s.rules.shadow_step),
    Control("kage", N_("Kage's Endurance"), emoji="🛡️",
            shown=lambda s: s.phase != "sleight" and s.rules.kage_endurance),
    Control("rollme", N_("Roll for me"), emoji="🔁", shown=lambda s: offers_roll_for_me(s)),
    Control("sleight", N_("Sleight −1"), "minus", shown=lambda s: s.phase == "sleight"),
    Control("sleight", N_("Sleight +1"), "plus", shown=lambda s: s.phase == "sleight"),
    Control("skip", N_("Pass"), shown=lambda s: s.phase == "sleight"),
)  # fmt: skip

Snapshot: TypeAlias = TableSnapshot[nihakyu.Rules, nihakyu.State]


class NihakyuUI(Game, record=NIHAKYU):
    seats_title = N_("Stamina (✅ chosen · ⏳ waiting · 🔁 Roll for me)")
    finished_seats_title = N_("Stamina at the end (✖ out)")
    recent_events = 12
    sentences = SENTENCES
    confirmations = CONFIRMATIONS
    buttons = CONTROLS

    def verbs(self) -> VerbTable:
        return {
            "roll": fixed(nihakyu.Roll),
            "shadow": fixed(nihakyu.ShadowStep),
            "kage": fixed(nihakyu.KageEndurance),
            "sleight": by_arg(
                {
                    "minus": lambda: nihakyu.Sleight(adjust=-1),
                    "plus": lambda: nihakyu.Sleight(adjust=1),
                }
            ),
            "skip": fixed(nihakyu.SkipSleight),
            "rollme": self.roll_for_me,
        }

    async def roll_for_me(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> Answer:
        """One button for everyone: it turns "Roll for me" on for a member who has it off,
        and off for one who has it on (the engine refuses it where Roll is not the only
        choice)."""
        state = (await self.service.snapshot(cid.table)).game
        on = interaction.user.id not in state.roll_for_me
        return await self.act(interaction, cid.table, nihakyu.RollForMe(on=on), ply=cid.ply)

    def action_text(self, action: Mapping[str, Any], currency: str) -> str | None:
        return nihakyu_words.action_text(action, currency)

    def describe_rules(self, snapshot: Snapshot) -> list[str]:
        return rules_summary(snapshot.rules)

    def status_lines(self, snapshot: Snapshot) -> list[str]:
        state = snapshot.game
        if state.finished:
            return result_lines(state, snapshot.currency)
        if state.phase == "sleight":
            asked = ", ".join(name(p) for p in state.sleight_players)
            return [
                _(
                    "Round {round}: the dice are down — **Sleight of Hand** window "
                    "for those who rolled: {players}.",
                    round=str(state.round),
                    players=asked,
                )
            ]
        pot = render.coins(state.pot, snapshot.currency)
        return [
            _("Round {round}: choose in secret. Pot **{pot}**.", round=str(state.round), pot=pot)
        ]

    def turn_line(self, snapshot: Snapshot) -> str | None:
        """Everyone standing chooses at once, in secret: the line says what and until
        when, never who has chosen (the seats' ✅/⏳ marks say only that)."""
        state = snapshot.game
        if state.finished:
            return None
        if state.phase == "sleight":
            who = ", ".join(name(p) for p in state.sleight_players)
            return turn_text(who, _("Sleight of Hand: −1, +1 or pass"), snapshot)
        rules = state.rules
        if rules.shadow_step or rules.kage_endurance:
            what = _("choose in secret, revealed together")
        else:
            what = _("roll")
        return turn_text(everyone(), what, snapshot)

    def seat_lines(self, snapshot: Snapshot) -> list[str]:
        state = snapshot.game
        rules = state.rules
        rows = []
        for player in [*state.seats, *([nihakyu.DEALER] if rules.dealers_blood else [])]:
            stamina = state.stamina[player]
            status = ""
            if stamina <= 0 or player in state.eliminated:
                status = " ✖"
            elif not state.finished and player != nihakyu.DEALER:
                if state.phase == "choosing":
                    status = " ✅" if player in state.choices else " ⏳"
                elif player in state.sleight_players:
                    status = " ✅" if player in state.sleights else " ⏳"
                # else: not asked in this Sleight window (did not roll), so no mark.
            if player in state.roll_for_me and not status.startswith(" ✖"):
                status += " 🔁"
            rows.append(
                f"{name(player)} `{render.bar(stamina, rules.starting_stamina)}` "
                f"**{max(stamina, 0)}**{status}"
            )
        return rows
