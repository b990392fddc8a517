"""Hazard's computer: it casts when the dice come to it, and bets nothing.

Its coins would be the house bank's, and every Hazard bet is against the house bank, so
a bet of its own would be the bank betting against itself. As caster it calls the best
main — the one whose exact chance of winning the round (``hazard.odds``) is highest:
7, at 244/495 ≈ 49.29% (ties would go to the lower) — and throws as soon as the betting
window lets it. As any other player it says Ready at once, so the window waits only for
the members. It never passes the dice of its own accord.
"""

from __future__ import annotations

from bot.games import hazard
from bot.games.dice import Dice

BEST_MAIN = max(hazard.MAINS, key=lambda main: (hazard.odds(main).caster_wins, -main))
"""The main with the caster's best chance (the lowest of equals)."""


def decide(state: hazard.State, seat: int, dice: Dice) -> hazard.Action | None:
    """The computer's move at ``seat``, or ``None`` when nothing is its to do."""
    if state.finished or seat not in state.seats:
        return None
    if seat == state.caster:
        if state.main is None:
            return hazard.CallMain(main=BEST_MAIN)
        if not state.window_open:
            return hazard.Throw()
        return None
    if seat in hazard.waiting_on(state):
        return hazard.Ready()
    return None
