"""High Card's words: its events as sentences, and the private word a drawer sees."""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, _
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.frame import Sentences
from tests.support.highcard.engine import Aborted, Drawn, DrewFaceDown, Revealed, Tied, Won


def revealed(event: Revealed, snapshot: TableSnapshot[Any, Any]) -> str:
    cards = ", ".join(
        _("{player} **{value}**", player=render.mention(player), value=value)
        for player, value in event.draws.items()
    )
    return _("Cards up: {cards}", cards=cards)


def tied(event: Tied, snapshot: TableSnapshot[Any, Any]) -> str:
    players = ", ".join(render.mention(player) for player in event.players)
    return _("{players} tie on **{value}** and draw again.", players=players, value=event.value)


SENTENCES = Sentences(
    {
        DrewFaceDown: N_("{player:@} draws a card face down."),
        Revealed: revealed,
        Tied: tied,
        Won: N_("{player:@} takes the pot of {pot:c}."),
        Aborted: N_("A moderator ended the game; every stake went back."),
    }
)
CONFIRMATIONS = Sentences(
    {Drawn: N_("You drew **{value}**. It stays face down until all have drawn.")}
)
