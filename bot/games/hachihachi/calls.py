"""Nuki Hachi-hachi: what sage and shoubu are worth at a call (issue 27), for the caller's
choice. Pure: read from the public state (score piles are public, §11.3) and the caller's
own hand size.

Shoubu now pays the caller ``D × multiplier`` kan from the opponent (§13.1 Case D), in
coins ``D × multiplier × stake_per_kan``. Sage plays on: the opponent's dekiyaku then
count too (a shoubu of theirs pays them in full and the caller nothing; hands run out:
each is paid half their own), and the caller may cancel at the start of their next turn
for half. With the caller's hand empty (their last turn) their pile can no longer grow
and they have no turn left to cancel in, so sage can only pay less than shoubu (at most
half, and the opponent's dekiyaku may still cancel it): the table offers shoubu alone
then (our ruling; the engine still accepts sage, rules file §12.2's last-turn ruling).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from bot.games.hachihachi.match import coins
from bot.games.hachihachi.models import State
from bot.games.hachihachi.yaku import dekiyaku

SETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Five Brights",
        ("pine-bright", "cherry-bright", "susuki-bright", "willow-bright", "paulownia-bright"),
    ),
    ("Four Brights", ("pine-bright", "cherry-bright", "susuki-bright", "paulownia-bright")),
    (
        "Seven Ribbons",
        (
            "pine-ribbon",
            "plum-ribbon",
            "cherry-ribbon",
            "peony-ribbon",
            "chrysanthemum-ribbon",
            "maple-ribbon",
            "willow-ribbon",
        ),
    ),
    ("Poetry Ribbons", ("pine-ribbon", "plum-ribbon", "cherry-ribbon")),
    ("Blue Ribbons", ("peony-ribbon", "chrysanthemum-ribbon", "maple-ribbon")),
)
"""The dekiyaku a pile grows toward (§12.1), with their cards."""


@dataclass(frozen=True, slots=True)
class CallStakes:
    """Both outcomes of a sage-or-shoubu call, in kan and in coins."""

    caller: int
    opponent: int
    dekiyaku: list[tuple[str, int]]
    """The caller's dekiyaku now (name, kan)."""
    kan: int
    """Their total D."""
    multiplier: int
    shoubu_coins: Fraction
    """What shoubu pays the caller now: D × multiplier × stake_per_kan."""
    half_coins: Fraction
    """Half of it: a later cancel, or each side's half when hands run out."""
    opponent_dekiyaku: list[tuple[str, int]]
    opponent_kan: int
    opponent_coins: Fraction
    """The opponent's dekiyaku at the same rate: what a shoubu of theirs would pay now."""
    opponent_near: list[str]
    """Dekiyaku the opponent's pile is one card from, still reachable (``"Poetry Ribbons
    2/3"``)."""
    last_turn: bool
    """The caller's hand is empty: sage could only pay less than shoubu."""
    opponent_turns: int
    """Turns the opponent has left this round (0: a sage ends it by exhaustion at once)."""
    shoubu_paid: int = 0
    """``shoubu_coins`` as the table pays it: whole coins (:func:`paid`)."""
    half_paid: int = 0
    opponent_paid: int = 0
    opponent_half_paid: int = 0


def paid(s: State, payee: int, payer: int, points: int) -> int:
    """Whole coins ``payee`` gets for ``points`` paid by ``payer``, as the table settles
    them: the running score made whole after the payment, less before (largest remainder,
    :func:`bot.games.hachihachi.match.coins`). A half coin is never paid: it rounds one way
    or the other with the rest of the match."""
    after = {**s.scores, payee: s.scores[payee] + points, payer: s.scores[payer] - points}
    return coins(after, s.seats, s.rules)[payee] - coins(s.scores, s.seats, s.rules)[payee]


def progress(pile: list[str], blocked: list[str]) -> list[str]:
    """Dekiyaku a pile lacks only one card of, that card not in ``blocked`` (the other
    pile): ``"Poetry Ribbons 2/3"``."""
    held = set(pile)
    gone = set(blocked)
    near = []
    for name, cards in SETS:
        have = sum(1 for card in cards if card in held)
        missing = [card for card in cards if card not in held]
        if len(missing) == 1 and missing[0] not in gone:
            near.append(f"{name} {have}/{len(cards)}")
    return near


def call_stakes(s: State, player: int) -> CallStakes | None:
    """What sage and shoubu are worth to ``player`` now (``None`` unless the call is
    theirs)."""
    if s.finished or s.phase != "call" or s.turn != player or len(s.active) != 2:
        return None
    opponent = next(p for p in s.active if p != player)
    bdb = s.rules.boar_deer_butterflies
    mine = dekiyaku(s.piles[player], boar_deer_butterflies=bdb)
    theirs = dekiyaku(s.piles[opponent], boar_deer_butterflies=bdb)
    kan = sum(k for _, k in mine)
    their_kan = sum(k for _, k in theirs)
    rate = s.multiplier * s.rules.stake_per_kan
    points = s.multiplier * s.rules.points_per_kan
    return CallStakes(
        caller=player,
        opponent=opponent,
        dekiyaku=mine,
        kan=kan,
        multiplier=s.multiplier,
        shoubu_coins=Fraction(kan * rate),
        half_coins=Fraction(kan * rate, 2),
        opponent_dekiyaku=theirs,
        opponent_kan=their_kan,
        opponent_coins=Fraction(their_kan * rate),
        opponent_near=progress(s.piles[opponent], s.piles[player]),
        last_turn=not s.hands[player],
        opponent_turns=len(s.hands[opponent]),
        shoubu_paid=paid(s, player, opponent, kan * points),
        half_paid=paid(s, player, opponent, kan * points // 2),
        opponent_paid=paid(s, opponent, player, their_kan * points),
        opponent_half_paid=paid(s, opponent, player, their_kan * points // 2),
    )
