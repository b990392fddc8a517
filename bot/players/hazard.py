"""Hazard's computer: it casts when the dice come to it, keeps the table moving, and bets
nothing.

Its coins would be the house bank's, and every Hazard bet is against the house bank, so
a bet of its own would be the bank betting against itself: it never bets (the caster's
stake is optional in Hazard). As caster it calls the best main, the one whose exact
chance of winning the round is highest (:func:`caster_chances`, from the outcome table:
7, at 244/495 ≈ 49.29%; equal chances would go to the lower main), then throws as soon
as the betting window lets it, and on until the round is decided. As any other player it
says Ready at once when an open window waits for it, so the window waits only for the
members. It never passes the dice of its own accord (the engine passes them after three
losses in a row). Hazard has no secrets: the whole state is public.

Randomness: none; ``dice`` is not used.
"""

from __future__ import annotations

from fractions import Fraction

from bot.games import hazard
from bot.games.dice import Dice


def caster_chances() -> dict[int, Fraction]:
    """Each main and the caster's exact chance of winning a round called with it."""
    return {main: hazard.odds(main).caster_wins for main in hazard.MAINS}


def best_main() -> int:
    """The main with the caster's best exact chance; the lowest of equals."""
    chances = caster_chances()
    return max(hazard.MAINS, key=lambda main: (chances[main], -main))


BEST_MAIN = best_main()
"""The main the computer calls: 7."""


def decide(state: hazard.State, seat: int, dice: Dice) -> hazard.Action | None:
    """The computer's move at ``seat``, or ``None`` when nothing is its to do."""
    if state.finished or seat not in state.seats:
        return None
    if seat == state.caster:
        if state.main is None:
            return hazard.CallMain(main=BEST_MAIN)
        if state.window_open:
            return None  # the members may still bet: the engine refuses a throw now
        return hazard.Throw()
    if seat in hazard.waiting_on(state):
        return hazard.Ready()
    return None
