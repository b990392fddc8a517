"""Nuki Hachi-hachi's buttons: how a card or a claim is written in a custom id's argument
(cards by their deck index, never by name) and read back, and the button of each decision
that is not a hand card."""

from __future__ import annotations

from collections.abc import Sequence

import discord
from pydantic import BaseModel

from bot.errors import NotAllowed
from bot.games.hachihachi import models as hm
from bot.games.hachihachi.cards import CARDS, DECK
from bot.i18n import _
from cogs._ui.verbs import NOTHING, small_number
from cogs.hachihachi import words

PRIMARY = discord.ButtonStyle.primary
SUCCESS = discord.ButtonStyle.success
DANGER = discord.ButtonStyle.danger
SECONDARY = discord.ButtonStyle.secondary


# -- custom-id arguments: cards by their deck index, never by name ---------------------------


def card_arg(card: str, capture: str | None = None) -> str:
    arg = str(CARDS[card].index)
    return arg if capture is None else f"{arg}-{CARDS[capture].index}"


def card_from(text: str | None) -> str:
    number = small_number(text, digits=2)
    if number is None or number >= len(DECK):
        raise NotAllowed(NOTHING)
    return DECK[number]


def play_from(arg: str | None, values: Sequence[str]) -> hm.Play:
    card, _, capture = (arg or "").partition("-")
    return hm.Play(card=card_from(card), capture=card_from(capture) if capture else None)


def claim_arg(action: hm.ClaimTeyaku) -> str:
    return f"{'y' if action.claim else 'n'}{action.group or 'X'}{action.month or 0}"


def claim_from(arg: str | None, values: Sequence[str]) -> hm.ClaimTeyaku:
    text = arg or ""
    month = small_number(text[2:], digits=2)
    if len(text) < 3 or text[0] not in "yn" or text[1] not in "ABX" or month is None:
        raise NotAllowed(NOTHING)
    group = None if text[1] == "X" else text[1]
    return hm.ClaimTeyaku.model_validate(
        {"claim": text[0] == "y", "group": group, "month": month or None}
    )


Spec = tuple[str, str, str | None, discord.ButtonStyle]
"""A hand button: verb, label, argument, style."""


def decision(action: BaseModel, hand: Sequence[str], pending: Sequence[str] = ()) -> Spec | None:
    """The button of a legal decision that is not a hand card (``pending``: the teyaku
    groups the player has still to claim or decline)."""
    if isinstance(action, hm.CaptureDrawn):
        label = _("Take {card}", card=words.card_button(action.capture))
        return ("drawn", label, card_arg(action.capture), PRIMARY)
    if isinstance(action, hm.Mizuten):
        if action.declare:
            return ("mizuten", _("Play blind (mizuten)"), "yes", DANGER)
        return ("mizuten", _("Look at my hand"), "no", PRIMARY)
    if isinstance(action, hm.Participate):
        if action.play:
            return ("part", _("Play this round"), "yes", SUCCESS)
        return ("part", _("Drop out"), "no", SECONDARY)
    if isinstance(action, hm.ClaimTeyaku):
        style = SUCCESS if action.claim else SECONDARY
        return ("claim", words.claim_label(action, hand, pending), claim_arg(action), style)
    if isinstance(action, hm.Sage):
        return ("sage", _("Sage — play on"), None, PRIMARY)
    if isinstance(action, hm.Shoubu):
        return ("shoubu", _("Shoubu — end the round"), None, SUCCESS)
    if isinstance(action, hm.Cancel):
        return ("stop", _("Cancel the round (half your dekiyaku)"), None, DANGER)
    return None
