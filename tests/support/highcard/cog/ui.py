"""High Card's face on its table message (the cog that registers it is ``__init__.py``)."""

from __future__ import annotations

from typing import Any, TypeAlias

from bot.i18n import N_, _
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.controls import Control
from cogs._ui.frame import everyone, turn_text
from cogs._ui.game import Game
from cogs._ui.verbs import VerbTable, fixed
from tests.support.highcard import HIGHCARD
from tests.support.highcard.cog.words import CONFIRMATIONS, SENTENCES
from tests.support.highcard.engine import Draw, Rules, State

Snapshot: TypeAlias = TableSnapshot[Rules, State]


class HighCardUI(Game, record=HIGHCARD):
    sentences = SENTENCES
    confirmations = CONFIRMATIONS
    buttons = (Control("draw", N_("Draw"), style="primary", emoji="🃏"),)

    def verbs(self) -> VerbTable:
        return {"draw": fixed(Draw)}

    def describe_rules(self, snapshot: Snapshot) -> list[str]:
        rake = render.coins(snapshot.rules.rake, snapshot.currency)
        return [_("The house keeps {rake} of the pot.", rake=rake)]

    def turn_line(self, snapshot: Snapshot) -> str | None:
        state = snapshot.game
        if state.finished:
            return None
        left = [p for p in state.drawing if p not in state.draws]
        who = everyone() if left == state.seats else ", ".join(map(render.mention, left))
        return turn_text(who, _("draw a card"), snapshot)

    def seat_lines(self, snapshot: Snapshot) -> list[str]:
        state = snapshot.game
        return [
            _("{player} {mark}", player=render.mention(p), mark=self.mark(state, p))
            for p in state.seats
        ]

    @staticmethod
    def mark(state: State, player: int) -> str:
        if state.winner == player:
            return "🏆"
        if player not in state.drawing:
            return "✖"
        return "✅" if player in state.draws else "⏳"

    def waiting(self, state: Any) -> list[int]:
        return [p for p in state.drawing if p not in state.draws]
