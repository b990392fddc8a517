"""Fortunes and Winds at a table position: the bank's exposure, the house guard, the best
keep (the exact odds applied to a :class:`State`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter

from bot.games.fortunes_winds.models import (
    Bet,
    State,
)
from bot.games.fortunes_winds.odds import (
    _BLANK,
    _DEAD,
    _ELEMENT,
    _SHOOTER_OBJECTIVE,
    _START,
    _WIND,
    OUTCOMES,
    WHITE_DICE,
    BetKind,
    Outcome,
    Position,
    _best_child,
    _canonical,
    _denominator,
    _distribution,
    _dot,
    _face_class,
    _fractions,
    _value,
    bet_payoff,
)

# ------------------------------------------------------------- table conventions


def eligible_shooters(state: State) -> list[int]:
    """Seated players who may hold the dice (everyone but a player banker)."""
    return [p for p in state.seats if p != state.banker]


def betting_open(state: State) -> bool:
    """Whether bets are taken right now."""
    return (
        not state.finished
        and state.phase == "betting"
        and state.roll_number == 0
        and not state.bets_closed
    )


def can_pass_dice(state: State) -> bool:
    """Whether the shooter may pass the dice now (between turns, someone to take them)."""
    return not state.finished and state.roll_number == 0 and len(eligible_shooters(state)) > 1


def _bets_payoff(bets: Mapping[int, Mapping[BetKind, int]]) -> tuple[int, ...]:
    """The players' total net over :data:`OUTCOMES` on these bets."""
    return _sum_payoffs(kind_amount for held in bets.values() for kind_amount in held.items())


_NO_PAYOFF: tuple[int, ...] = (0,) * len(OUTCOMES)


def _max_payout(bets: Mapping[int, Mapping[BetKind, int]]) -> int:
    if not bets:
        return 0
    return max(0, *_bets_payoff(bets))


def banker_exposure(state: State) -> int:
    """The most the bank could pay out, net, on the bets now open (every outcome of the
    turn). With a player banker this is also the banker's own ``stakes`` entry: the
    service's wallet check then refuses a bet the banker's wallet cannot cover."""
    return _max_payout(state.bets)


def _house_shoots(state: State) -> bool:
    """Whether a house seat (a computer) holds the dice: nobody at the table chooses the
    keeping, the computer keeps by :func:`best_keep` (the best for the shooter's bet)."""
    return state.shooter in state.rules.house_seats


def _bet_list(
    state: State, extra: Bet | None, player: int | None
) -> tuple[tuple[BetKind, int], ...]:
    """Every open bet (kind, amount) of the members (a house seat's stakes are the house's
    own coins: they add no slack), plus ``extra`` topping up ``player``'s, in a canonical
    order: the joint value depends on nothing else."""
    house = state.rules.house_seats
    listed = [
        kind_amount
        for bettor, held in state.bets.items()
        if bettor not in house
        for kind_amount in held.items()
    ]
    if extra is not None:
        assert player is not None
        # The topped-up bet replaces the player's bet of that kind in the list (cheaper
        # than copying the player's bets to top them up: this runs for every side bet).
        held = state.bets.get(player)
        before = 0
        if held is not None and extra.kind in held:
            before = held[extra.kind]
            listed.remove((extra.kind, before))
        listed.append((extra.kind, before + extra.amount))
    listed.sort()
    return tuple(listed)


@lru_cache(maxsize=4096)
def _joint_value(bet_list: tuple[tuple[BetKind, int], ...]) -> int:
    """The joint value over 6**15 (see :func:`joint_ev`)."""
    return _value(_START, _sum_payoffs(bet_list))


def _value_under_shooters_keep(bet_list: tuple[tuple[BetKind, int], ...]) -> int:
    """The bets' value over 6**15 with the shooter keeping for the shooter's bet alone."""
    return _dot(_distribution(_START, _SHOOTER_OBJECTIVE), _sum_payoffs(bet_list))


def _sum_payoffs(bet_list: Iterable[tuple[BetKind, int]]) -> tuple[int, ...]:
    payoffs = [bet_payoff(kind, amount) for kind, amount in bet_list if amount]
    if not payoffs:
        return _NO_PAYOFF
    return tuple(map(sum, zip(*payoffs, strict=True)))


def joint_ev(state: State, extra: Bet | None = None, player: int | None = None) -> Fraction:
    """The members' joint expected net on the open bets of the turn (plus ``extra`` by
    ``player``): a member shooting keeps to maximise the sum, a house seat by
    :func:`best_keep`. Before the first roll only (the guard's question)."""
    bet_list = _bet_list(state, extra, player)
    if _house_shoots(state):
        return Fraction(_value_under_shooters_keep(bet_list), _denominator(0))
    return Fraction(_joint_value(bet_list), _denominator(0))


def _guard_refuses(state: State, extra: Bet, player: int) -> bool:
    return _refuses(_bet_list(state, extra, player), _house_shoots(state))


def _refuses(bet_list: tuple[tuple[BetKind, int], ...], house_shoots: bool) -> bool:
    if house_shoots:
        return _value_under_shooters_keep(bet_list) > 0
    return _beats_the_bank(bet_list)


@lru_cache(maxsize=4096)
def _beats_the_bank(bet_list: tuple[tuple[BetKind, int], ...]) -> bool:
    """Whether the members' joint value on these bets, under their best joint keeping, is
    above 0 (the guard refuses).

    Two bounds settle about half of the new tables of bets without the dynamic
    programme (each is exact, over the same denominator): one fixed keeping, the
    shooter's own best, is worth at most as much as the best keeping for the sum, and
    the best keeping for a sum is worth at most the sum of each bet's own best keeping.
    """
    if _value_under_shooters_keep(bet_list) > 0:
        return True
    if sum(_value_alone(kind, amount) for kind, amount in bet_list) <= 0:
        return False
    return _joint_value(bet_list) > 0


@lru_cache(maxsize=1024)
def _value_alone(kind: BetKind, amount: int) -> int:
    """One bet's value (over 6**15) with the shooter keeping for that bet alone."""
    return _value(_START, bet_payoff(kind, amount))


def guard_limit(state: State, player: int, kind: BetKind) -> int:
    """The most ``player`` may add on ``kind`` now with the guard satisfied: every amount
    from 0 up to it in the kind's multiples (:func:`whole_pays_step`) is accepted, and
    none above it (0: none). Ignores the table's limits."""
    held = state.bets.get(player)
    before = held.get(kind, 0) if held is not None else 0
    return _guard_limit(_bet_list(state, None, None), kind, before, _house_shoots(state))


@lru_cache(maxsize=4096)
def _guard_limit(
    base: tuple[tuple[BetKind, int], ...], kind: BetKind, before: int, house_shoots: bool
) -> int:
    """:func:`guard_limit` for the members' open bets ``base``, of which the player's bet
    on ``kind`` is ``before`` (0: none). Cached: every refusal and every amount picker
    names the limit, and the same few tables of bets come round again and again."""
    others = list(base)
    if (kind, before) in others:
        others.remove((kind, before))
    step = whole_pays_step(kind)

    def fits(steps: int) -> bool:
        bet_list = tuple(sorted([*others, (kind, before + steps * step)]))
        return not _refuses(bet_list, house_shoots)

    # With whole pays every bet's payoff is linear in the steps added, so the members'
    # value is convex in them (a fixed keeping's value is linear; the best keeping's is a
    # maximum of linear functions), and it is <= 0 at 0 steps (every bet was taken so):
    # the steps it accepts run from 0 up to a bound, found by doubling then bisection.
    most = _MOST // step
    low, high = 0, 1
    while high <= most and fits(high):
        low, high = high, high * 2
    high = min(high, most + 1)
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return low * step


_MOST = 10**9
"""No bet is larger (far past any table's maximum)."""


def whole_pays_step(kind: BetKind) -> int:
    """The multiple a bet of ``kind`` is staked in, so that every win is whole coins:
    Daikoku's Belly (bet 2 to win 3) in 2s, Against (bet 3 to win 2) in 3s, else 1."""
    return _WHOLE_PAYS_STEP.get(kind, 1)


_WHOLE_PAYS_STEP: dict[str, int] = {"daikoku": 2, "against": 3}


def waiting_on(state: State) -> list[int]:
    """The members the open betting window still waits for (seat order): everyone seated
    but the shooter, a player banker and the house seats, who has neither bet this turn
    nor said Ready."""
    if not state.window_open:
        return []
    return [p for p in _window_members(state) if p not in state.ready and not state.bets.get(p)]


def _window_members(state: State) -> list[int]:
    """The seated members a betting window is for."""
    skip = {state.shooter, state.banker, *state.rules.house_seats}
    return [p for p in state.seats if p not in skip]


# -------------------------------------------------------------------- the keeping


def _keeping_now(state: State) -> bool:
    return not state.finished and state.phase == "rolling" and 1 <= state.roll_number <= 2


def _best_keep_for(state: State) -> tuple[list[str], Position]:
    """The shooter's best keep now (for their own value) and the position it leads to."""
    # Asked after every roll: a plain dict, keyed without the 22-long objective whose
    # hash an lru_cache would recompute on every call.
    key = (state.roll_number, _white_faces(state.faces), tuple(state.set_aside))
    found = _SHOOTER_KEEPS.get(key)
    if found is None:
        found = _best_keep_at(*key, _SHOOTER_OBJECTIVE)
        if len(_SHOOTER_KEEPS) < _MOST_KEEPS:  # a bound, should a state be malformed
            _SHOOTER_KEEPS[key] = found
    keep, child = found
    return list(keep), child


_white_faces = itemgetter(*WHITE_DICE)
_SHOOTER_KEEPS: dict[
    tuple[int, tuple[str, ...], tuple[str, ...]], tuple[tuple[str, ...], Position]
] = {}
"""The shooter's keeps worked out so far: under 7,000 can occur (roll 1 or 2, three face
names per white die, the dice already aside in order)."""
_MOST_KEEPS = 16384


def _best_keep_at(
    roll_number: int,
    white: tuple[str, ...],
    set_aside: tuple[str, ...],
    objective: tuple[int, ...],
) -> tuple[tuple[str, ...], Position]:
    """The keep for these white faces."""
    faces: dict[str, str] = dict(zip(WHITE_DICE, white, strict=True))
    e = w = b = 0
    for die in set_aside:
        cls = _face_class(die, faces[die])
        e, w, b = e + (cls == _ELEMENT), w + (cls == _WIND), b + (cls == _BLANK)
    before = _canonical(roll_number - 1, e, w, b)
    if before[1] == _DEAD:
        return (), (roll_number, _DEAD, _DEAD, _DEAD)
    by_class: dict[int, list[str]] = {_ELEMENT: [], _WIND: [], _BLANK: []}
    for die in WHITE_DICE:
        if die not in set_aside:
            by_class[_face_class(die, faces[die])].append(die)
    shown = (len(by_class[_ELEMENT]), len(by_class[_WIND]), len(by_class[_BLANK]))
    child, (de, dw, db) = _best_child(before, *shown, objective)
    chosen = set(by_class[_ELEMENT][:de] + by_class[_WIND][:dw] + by_class[_BLANK][:db])
    return tuple(die for die in WHITE_DICE if die in chosen), child


def best_keep(state: State) -> list[str]:
    """The white dice to set aside now (besides those already aside), under the shooter's
    best keeping for their own value; ``[]`` when no keep is to be chosen."""
    if not _keeping_now(state):
        return []
    return _best_keep_for(state)[0]


@dataclass(frozen=True)
class KeepAdvice:
    """The best keep from a position and the odds of each way the turn can end then."""

    keep: list[str]
    outcomes: dict[Outcome, Fraction]
    shooter_ev: Fraction
    """The shooter's expected net per coin from here (Lord Moon included)."""


def keep_advice(state: State) -> KeepAdvice | None:
    """:func:`best_keep` with the odds from here (for the "Best keep" answer); ``None``
    when no keep is to be chosen."""
    if not _keeping_now(state):
        return None
    objective = _SHOOTER_OBJECTIVE
    keep, child = _best_keep_for(state)
    weights = _distribution(child, objective)
    outcomes = _fractions(weights, _denominator(child[0]))
    ev = Fraction(_dot(weights, objective), _denominator(child[0]))
    return KeepAdvice(keep=keep, outcomes=outcomes, shooter_ev=ev)


def _current_distribution(state: State) -> dict[Outcome, Fraction]:
    """Where the turn in play ends, under the shooter's best keeping from now."""
    objective = _SHOOTER_OBJECTIVE
    if state.phase == "rolling" and state.roll_number:
        _, child = _best_keep_for(state)
        return _fractions(_distribution(child, objective), _denominator(child[0]))
    return _fractions(_distribution(_START, objective), _denominator(0))
