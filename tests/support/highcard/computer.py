"""High Card's computer player: it draws when the draw is its to make."""

from __future__ import annotations

from bot.games.dice import Dice
from tests.support.highcard.engine import Draw, State


def decide(state: State, seat: int, dice: Dice) -> Draw | None:
    """A draw has nothing to choose: it draws whenever it is in the draw and has not."""
    if state.finished or seat not in state.drawing or seat in state.draws:
        return None
    return Draw()
