"""One two-player round of the Strength Duel as the solver and the computer score it
(shared by ``strength_duel_solve`` and ``strength_duel``; the engine is the authority, and
a test checks this against it)."""

from __future__ import annotations

from bot.games.strength_duel import ROLL_AWAY


def round_end(
    own: int, other: int, bid: int, their_bid: int
) -> tuple[float | None, tuple[int, int] | None]:
    """After the two bids: the game's end for the player holding ``own`` (1 win, ½ draw,
    0 loss) or the strengths it leads to. Bid first, roll-away second: a lower bidder who
    cannot pay 3 loses even if the other reached 0 with their bid."""
    own, other = own - bid, other - their_bid
    if bid < their_bid:
        if own < ROLL_AWAY:
            return 0.0, None
        own -= ROLL_AWAY
    elif their_bid < bid:
        if other < ROLL_AWAY:
            return 1.0, None
        other -= ROLL_AWAY
    if own == 0 and other == 0:
        return 0.5, None
    if own == 0:
        return 0.0, None
    if other == 0:
        return 1.0, None
    return None, (own, other)
