"""Strength Duel's face on its table message: what the game declares to the one UI base
(cogs/_ui/game.py); the cog that registers it is cogs/strength_duel/__init__.py."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, TypeAlias

import discord

from bot.catalog import STRENGTH_DUEL
from bot.games import strength_duel as duel
from bot.i18n import N_, _
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.custom_ids import ComponentId
from cogs._ui.face import Answer
from cogs._ui.forms import quick_amounts, typed_amount
from cogs._ui.frame import everyone, turn_text
from cogs._ui.game import Game
from cogs._ui.primitives import button, view_of
from cogs._ui.verbs import VerbTable, with_number
from cogs.strength_duel import words as duel_words
from cogs.strength_duel.words import (
    CONFIRMATIONS,
    MODE_TITLES,
    SENTENCES,
    bid_review,
    computer_line,
    panel_text,
    rules_summary,
)

Snapshot: TypeAlias = TableSnapshot[duel.Rules, duel.State]


QUICK_BIDS = range(15)
"""Bids 0..14 get a button each (three rows); larger ones go through the amount form."""
PANEL_MOVES = (
    duel.RoundOpened,
    duel.RoundRevealed,
    duel.ForbidClosed,
    duel.GameOver,
    duel.Aborted,
    duel.SettledAtValue,
)


class DuelUI(Game, record=STRENGTH_DUEL):
    has_dice: ClassVar[bool] = False
    """No dice in this game: the table shows no fair-dice footer."""
    seats_title = N_("Ninjas")
    recent_events = 6
    sentences = SENTENCES
    confirmations = CONFIRMATIONS
    private_panels = True
    panel_label = N_("Bid privately")
    not_seated = N_("You are not in this duel.")
    # A secret choice inside a round does not redraw the panels: only a new decision point
    # (and the end) does, so a changed bid leaves no trace anywhere. A chosen forbidden
    # number redraws only the chooser's panel (its 0–5 buttons give way to the number).
    panel_moves = PANEL_MOVES
    own_moves = (duel.ForbidChosen,)

    def verbs(self) -> VerbTable:
        return {
            "bid": with_number(lambda n: duel.Bid(amount=n, tag_out=False)),
            "forbid": with_number(lambda n: duel.Forbid(number=n)),
            "bidm": self.bid_form,
            "bidt": self.bid_form,
        }

    def action_text(self, action: Mapping[str, Any], currency: str) -> str | None:
        return duel_words.action_text(action, currency)

    def describe_rules(self, snapshot: Snapshot) -> list[str]:
        return rules_summary(snapshot.rules, snapshot.seats)

    def waiting(self, state: duel.State) -> list[int]:
        return list(duel.waiting_for(state))

    def status_lines(self, snapshot: Snapshot) -> list[str]:
        state = snapshot.game
        stake = render.coins(state.rules.stake, snapshot.currency)
        lines = [
            _(
                "Mode: **{mode}** · stake {stake} each",
                mode=_(MODE_TITLES[state.rules.mode]),
                stake=stake,
            )
        ]
        if state.finished:
            return lines
        if state.phase == "forbid":
            return [*lines, _("Everyone picks a secret forbidden number (0–5).")]
        against = computer_line(state)
        return [
            *lines,
            *([against] if against else []),
            _("**Round {round}** — bids are secret until all are in.", round=str(state.round)),
        ]

    def turn_line(self, snapshot: Snapshot) -> str | None:
        """Who is asked and what, never who has chosen (the seats' marks say that)."""
        state = snapshot.game
        if state.finished or not state.must_bid:
            return None
        standing = [p for p in state.seats if p not in state.eliminated]
        if sorted(state.must_bid) == sorted(standing):
            who = everyone()
        else:
            who = ", ".join(render.mention(p) for p in state.must_bid)
        if state.phase == "forbid":
            what = _("pick a secret forbidden number (0–5)")
        else:
            what = _("bid in secret, round {round}", round=str(state.round))
        return turn_text(who, what, snapshot)

    def extra_fields(self, snapshot: Snapshot) -> list[tuple[str, str]]:
        review = bid_review(snapshot.game)
        return [] if review is None else [(_("Your bids against the equilibrium"), review)]

    def seat_lines(self, snapshot: Snapshot) -> list[str]:
        state = snapshot.game
        waiting = set(duel.waiting_for(state))
        rows = []
        for player in state.seats:
            marks = []
            if state.rules.mode == "tag":
                marks.append(_("⚔️ in") if player in state.in_play else _("💤 resting"))
            if player in state.eliminated:
                marks.append(_("✖ out"))
            elif player in state.must_bid and not state.finished:
                # Forbid phase: that a ninja has chosen, never the number.
                forbidding = state.phase == "forbid"
                if player in waiting:
                    marks.append(_("⏳ choosing") if forbidding else _("⏳ waiting"))
                else:
                    marks.append(_("✅ has chosen") if forbidding else _("✅ has bid"))
            rows.append(
                _(
                    "{player} — strength **{strength}**",
                    player=render.mention(player),
                    strength=str(state.strength[player]),
                )
                + (f" · {' · '.join(marks)}" if marks else "")
            )
        return rows

    def controls(self, snapshot: Snapshot) -> discord.ui.View:
        label = _("Choose privately") if snapshot.game.phase == "forbid" else _(self.panel_label)
        return view_of(self.panel_button(snapshot, label))

    def panel(self, snapshot: Snapshot, player: int) -> tuple[str, discord.ui.View | None]:
        """What only `player` sees (cogs/strength_duel/words.py), with the buttons of what
        they must do now: their DM panel, their ephemeral panel, and their notice."""
        text, asked = panel_text(snapshot, player)
        state = snapshot.game
        table, ply = snapshot.id, state.ply
        if asked == "forbid":
            numbers = (button(table, ply, "forbid", str(n), arg=n) for n in duel.FORBID_RANGE)
            return text, view_of(*numbers)
        if asked is None:
            return text, None
        forbidden, strength = state.forbidden.get(player), state.strength[player]
        items = [
            button(table, ply, "bid", str(n), arg=n, disabled=n == forbidden, row=n // 5)
            for n, fits in quick_amounts(0, strength, QUICK_BIDS, count=len(QUICK_BIDS))
            if fits
        ]
        items.append(button(table, ply, "bidm", _("Other amount…"), row=3))
        if state.rules.mode == "tag":
            items.append(button(table, ply, "bidt", _("Bid and tag out…"), emoji="🔁", row=3))
        return text, view_of(*items)

    async def bid_form(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> Answer:
        tag_out = cid.verb == "bidt"
        amount = await typed_amount(
            interaction,
            cid,
            title=_("Bid and tag out") if tag_out else _("Your secret bid"),
            label=_("Strength to spend"),
            placeholder=_("A whole number"),
            max_length=4,
            what=_("a whole number from 0 up to your strength"),
        )
        if amount is None:
            return None  # the form is open
        bid = duel.Bid(amount=amount, tag_out=tag_out)
        return await self.act(interaction, cid.table, bid, ply=cid.ply)
