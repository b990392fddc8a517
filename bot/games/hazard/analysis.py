"""Hazard: the dice, the outcome table, what each bet pays, and the exact odds.

Two dice make each total in ``ways(total)`` of 36 ways; a main's first throw nicks,
throws out or sets a chance (the outcome table of ``shared/rules/hazard.md``), and a
chance then races the main. From those counts alone come, for every main, the exact
chance the caster wins, the expected number of throws and the bank's edge on every bet
kind under the table's "against" options. No simulation.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Literal, TypeAlias

MAINS: tuple[int, ...] = (5, 6, 7, 8, 9)
"""The numbers a caster may call as the main."""

BetKind: TypeAlias = Literal["caster", "with", "against", "odds_for", "odds_against"]
BET_KINDS: tuple[BetKind, ...] = ("caster", "with", "against", "odds_for", "odds_against")

FirstOutcome: TypeAlias = Literal["nick", "out", "chance"]

# The outcome table of shared/rules/hazard.md; every total not listed becomes the chance.
_NICKS: dict[int, frozenset[int]] = {
    5: frozenset({5}),
    6: frozenset({6, 12}),
    7: frozenset({7, 11}),
    8: frozenset({8, 12}),
    9: frozenset({9}),
}
_OUTS: dict[int, frozenset[int]] = {
    5: frozenset({2, 3, 11, 12}),
    6: frozenset({2, 3, 11}),
    7: frozenset({2, 3, 12}),
    8: frozenset({2, 3, 11}),
    9: frozenset({2, 3, 11, 12}),
}


# ---------------------------------------------------------------------- the dice


def ways(total: int) -> int:
    """The number of ways two six-sided dice make ``total`` (0 when impossible)."""
    if not 2 <= total <= 12:
        return 0
    return 6 - abs(total - 7)


def first_throw_outcome(main: int, total: int) -> FirstOutcome:
    """What the first throw of a round means for a given main."""
    if main not in MAINS:
        raise ValueError(f"main must be one of {MAINS}, not {main}")
    if total in _NICKS[main]:
        return "nick"
    if total in _OUTS[main]:
        return "out"
    return "chance"


def odds_payout(kind: BetKind, amount: int, main: int, chance: int) -> int:
    """Whole coins a winning bet of ``amount`` wins (the stake comes back besides).

    Even-money bets win their amount. Odds bets are paid at fair odds: on the chance
    ``ways(main):ways(chance)``, against it the inverse, rounded down to whole coins
    (the rounding is the bank's only gain on the odds).
    """
    if kind == "odds_for":
        return amount * ways(main) // ways(chance)
    if kind == "odds_against":
        return amount * ways(chance) // ways(main)
    return amount


def commission(amount: int, percent: int) -> int:
    """The bank's commission on a win of ``amount``: ``percent`` of it, rounded up."""
    return -(-amount * percent // 100)


# -------------------------------------------------------------------------- odds


@dataclass(frozen=True)
class MainOdds:
    """Exact figures for one main, from the outcome table (no simulation)."""

    main: int
    nick: Fraction
    """Probability that the first throw wins."""
    out: Fraction
    """Probability that the first throw loses."""
    chance: Fraction
    """Probability that the first throw sets a chance."""
    caster_wins: Fraction
    """Probability that the caster wins the round."""
    expected_throws: Fraction
    """Expected number of throws in a round."""
    against_bar: bool = True
    """Whether a first throw of 2 pushes "against" bets."""
    against_commission: int = 0
    """Percent the bank keeps of "against" winnings."""

    @property
    def caster_loses(self) -> Fraction:
        """Probability that the caster loses the round."""
        return 1 - self.caster_wins

    @property
    def against_push(self) -> Fraction:
        """Probability that an "against" bet is pushed (a first throw of 2, barred)."""
        return Fraction(ways(2), 36) if self.against_bar else Fraction(0)

    def edge(self, kind: BetKind) -> Fraction:
        """The bank's expected gain per coin bet on ``kind``, before any rounding.

        Every main gives the caster less than an even chance, so an even-money "against"
        bet would favour the player; the bar (or a commission) turns it round. Odds bets
        are fair (0) before fractional wins are rounded down, and rounding down (like
        rounding the commission up) only adds to the bank's edge.
        """
        p = self.caster_wins
        if kind in ("caster", "with"):
            return 1 - 2 * p
        if kind == "against":
            keep = 1 - Fraction(self.against_commission, 100)
            return p - (self.caster_loses - self.against_push) * keep
        return Fraction(0)

    @property
    def edges(self) -> dict[BetKind, Fraction]:
        """The bank's edge on every bet kind."""
        return {kind: self.edge(kind) for kind in BET_KINDS}


@cache
def odds(main: int, against_bar: bool = True, against_commission: int = 0) -> MainOdds:
    """Exact odds of a round with the given main (5 to 9) and "against" options."""
    if main not in MAINS:
        raise ValueError(f"main must be one of {MAINS}, not {main}")
    nick = out = chance = Fraction(0)
    win = Fraction(0)
    throws = Fraction(1)
    for total in range(2, 13):
        p = Fraction(ways(total), 36)
        outcome = first_throw_outcome(main, total)
        if outcome == "nick":
            nick += p
            win += p
        elif outcome == "out":
            out += p
        else:
            chance += p
            decisive = ways(total) + ways(main)
            # Later throws repeat until chance or main: a race won with these odds,
            # lasting a geometric number of throws with success chance decisive/36.
            win += p * Fraction(ways(total), decisive)
            throws += p * Fraction(36, decisive)
    return MainOdds(
        main=main,
        nick=nick,
        out=out,
        chance=chance,
        caster_wins=win,
        expected_throws=throws,
        against_bar=against_bar,
        against_commission=against_commission,
    )


def odds_table(against_bar: bool = True, against_commission: int = 0) -> dict[int, MainOdds]:
    """Exact odds for every main, 5 to 9."""
    return {main: odds(main, against_bar, against_commission) for main in MAINS}


@cache
def min_against_commission(against_bar: bool) -> int:
    """The least whole-percent commission keeping "against" in the bank's favour."""
    for percent in range(101):
        if all(odds(main, against_bar, percent).edge("against") >= 0 for main in MAINS):
            return percent
    raise AssertionError("a 100% commission always favours the bank")
