"""Fortunes and Winds' computer: it shoots when the dice come to it, keeping by the exact
best-keep table, and places no side bets.

The rules make the shooter bet before a turn's first roll (the table minimum here, and
the same again for Lord Moon); the engine refuses the roll otherwise. With the house as
bank that bet is the house bank's coins against the house bank: whatever the dice say it
moves nothing on balance, so the computer places it and shoots. With a player banker it
would be the house's coins against a member's wallet at the banker's edge (the shooter
loses about 10.9% of what it stakes, :func:`~bot.games.fortunes_winds.shooter_ev`), so
there it never bets. It passes the dice on at once while a member can take them (through
any computers seated between: each passes on in turn); when no member but the banker is
left to shoot, it leaves its seat, as a member who will not stake would, and the table
closes as any table does when nobody can shoot (every stake goes back). Waiting instead
left the table to its deadlines, each only reopening the turn, and two computers passed
the dice back and forth without end. It never rides or makes a side bet, and it never
banks (a player banker is a member: the table service gives a computer seat no wallet to
be the richest with).

Before its first roll it lets the betting window run its course (until every member has
bet or said Ready, or its time is up), so the members can ride or bet on its turn; with
no window it rolls at once. Between rolls it sets aside exactly
:func:`~bot.games.fortunes_winds.best_keep` (the keeping that maximises the shooter's
expected value, Lord Moon included; from the position that keep leads to, the best
further keep is none), then rolls. After a winning turn it passes the dice, so the
members shoot; alone, it starts a new turn.

Randomness: none; ``dice`` is not used. Everything it reads is public.
"""

from __future__ import annotations

from bot.games import fortunes_winds as fw
from bot.games.common import Leave, is_computer
from bot.games.dice import Dice


def house_banks(state: fw.State) -> bool:
    """Whether the house bank covers the bets (no player banker)."""
    return state.banker is None


def member_can_shoot(state: fw.State) -> bool:
    """Whether a member (not the banker, not a computer seat) may take the dice."""
    house = state.rules.house_seats
    return any(p not in house and not is_computer(p) for p in fw.eligible_shooters(state))


def decide(state: fw.State, seat: int, dice: Dice) -> fw.Action | None:
    """The computer's move at ``seat``, or ``None`` when nothing is its to do."""
    if state.finished or seat not in state.seats or seat != state.shooter:
        return None
    if state.phase == "won":
        return fw.PassDice() if fw.can_pass_dice(state) else fw.NewTurn()
    if state.phase == "betting":
        if not state.bets.get(seat, {}).get("shooter"):
            if house_banks(state):
                return fw.Bet(kind="shooter", amount=state.rules.min_stake)
            return fw.PassDice() if member_can_shoot(state) else Leave()
        if state.window_open:
            return None  # the window is open for the members' bets on this turn
        return fw.Roll()
    keep = fw.best_keep(state)
    if keep:
        return fw.SetAside(dice=keep)
    return fw.Roll()
