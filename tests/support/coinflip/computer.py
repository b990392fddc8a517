"""The coin-flip test game's computer player."""

from __future__ import annotations

from bot.games.dice import Dice
from tests.support.coinflip.engine import Call, State


def decide(state: State, seat: int, dice: Dice) -> Call | None:
    """On its turn it calls a side at random (one die roll, so a decision's draw is logged
    and verified like any other)."""
    if state.finished or state.seats[state.turn] != seat:
        return None
    return Call(side="heads" if dice.roll(2) == 1 else "tails")
