"""Fortunes and Winds' computer: it shoots when the dice come to it, keeping by the exact
best-keep table, and places no side bets.

Its coins are the house bank's, so its shooter's bet (the table minimum, which the rules
require before a turn's first roll, with the same again for Lord Moon) is the bank
betting against itself: it moves nothing on balance. It lets the betting window run its
course before the first roll, so the members can ride or bet on its turn; between rolls
it sets aside exactly what ``best_keep`` says (the keeping that maximises the shooter's
expected value, Lord Moon included), then rolls. After a winning turn it passes the
dice, so the members shoot; alone with nobody to pass to, it starts a new turn.
"""

from __future__ import annotations

from bot.games import fortunes_winds as fw
from bot.games.dice import Dice


def decide(state: fw.State, seat: int, dice: Dice) -> fw.Action | None:
    """The computer's move at ``seat``, or ``None`` when nothing is its to do."""
    if state.finished or seat != state.shooter:
        return None
    if state.phase == "won":
        return fw.PassDice() if fw.can_pass_dice(state) else fw.NewTurn()
    if state.phase == "betting":
        if not state.bets.get(seat, {}).get("shooter"):
            return fw.Bet(kind="shooter", amount=state.rules.min_stake)
        if state.bets_closed or state.rules.bet_seconds == 0:
            return fw.Roll()
        return None  # the window is still open for the members' bets
    keep = fw.best_keep(state)
    if keep:
        return fw.SetAside(dice=keep)
    return fw.Roll()
