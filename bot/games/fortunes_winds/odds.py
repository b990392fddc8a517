"""Fortunes and Winds: the dice, the combinations, what each bet pays, and the exact odds.

A white die shows its element (1/2), its Wind (1/3) or a blank (1/6), alike for all four,
so a position of the turn is the roll count and how many elements, Winds and blanks are
set aside (a turn that can make no combination any more is one "dead" position). A
dynamic programme over those positions (integer weights over 6**15, cached) gives, for
any objective over the turn's 22 outcomes (which roll it ended on, and how), the best
keeping's value and the outcome probabilities under it. No simulation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import product
from typing import Literal, TypeAlias

# --------------------------------------------------------------------------- the dice

DieName: TypeAlias = Literal["earth", "water", "fire", "air", "moon"]
WhiteDie: TypeAlias = Literal["earth", "water", "fire", "air"]
DIE_NAMES: tuple[DieName, ...] = ("earth", "water", "fire", "air", "moon")
WHITE_DICE: tuple[WhiteDie, ...] = ("earth", "water", "fire", "air")

FACES: dict[DieName, tuple[str, ...]] = {
    "earth": ("Earth", "Earth", "Earth", "North", "North", "Rice"),
    "water": ("Water", "Water", "Water", "East", "East", "Fish"),
    "fire": ("Fire", "Fire", "Fire", "West", "West", "Tree"),
    "air": ("Air", "Air", "Air", "South", "South", "Bird"),
    "moon": ("Void", "Void", "Fortunes", "Fortunes", "Sun", "Moon"),
}
"""Each die's faces in the rules file's order: a roll of k shows ``FACES[die][k - 1]``."""

KANJI: dict[str, str] = {
    "Earth": "土",
    "North": "北",
    "Rice": "米",
    "Water": "水",
    "East": "東",
    "Fish": "魚",
    "Fire": "火",
    "West": "西",
    "Tree": "木",
    "Air": "風",
    "South": "南",
    "Bird": "鳥",
    "Void": "空",
    "Fortunes": "運",
    "Sun": "陽",
    "Moon": "月",
}
"""The kanji on each face (from the seed's dice labels)."""

_ELEMENT_FACE = {die: FACES[die][0] for die in WHITE_DICE}
_WIND_FACE = {die: FACES[die][3] for die in WHITE_DICE}

# A white die's face class: 0 its element, 1 its Wind, 2 a blank picture.
_ELEMENT, _WIND, _BLANK = 0, 1, 2


def _face_class(die: str, face: str) -> int:
    if face == _ELEMENT_FACE[die]:  # type: ignore[index]
        return _ELEMENT
    if face == _WIND_FACE[die]:  # type: ignore[index]
        return _WIND
    return _BLANK


Result: TypeAlias = Literal[
    "moon",
    "fortunes_and_winds",
    "ladys_breath",
    "empty_winds",
    "shinseis_blessing",
    "ladys_tears",
    "seven_thunders",
    "nothing",
]


@dataclass(frozen=True)
class Combination:
    """One scoring combination: four Winds or four Elements, with a black face."""

    key: Result
    name: str
    whites: Literal["winds", "elements"]
    black: str
    pays: int
    """Pays ``pays`` to 1 (double on a turn's first roll)."""


COMBINATIONS: tuple[Combination, ...] = (
    Combination("fortunes_and_winds", "Fortunes and Winds", "winds", "Fortunes", 4),
    Combination("ladys_breath", "The Lady's Breath", "winds", "Sun", 4),
    Combination("empty_winds", "Empty Winds", "winds", "Void", 2),
    Combination("shinseis_blessing", "Shinsei's Blessing", "elements", "Void", 2),
    Combination("ladys_tears", "The Lady's Tears", "elements", "Sun", 2),
    Combination("seven_thunders", "Seven Thunders", "elements", "Fortunes", 1),
)
_BY_KEY: dict[str, Combination] = {c.key: c for c in COMBINATIONS}
_BY_WHITES_BLACK: dict[tuple[int, str], Combination] = {
    (_WIND if c.whites == "winds" else _ELEMENT, c.black): c for c in COMBINATIONS
}

RESULTS: tuple[Result, ...] = ("moon", *(c.key for c in COMBINATIONS), "nothing")


def combination_of(faces: Mapping[str, str]) -> Combination | None:
    """The combination five faces show (die name → face), or ``None``."""
    classes = {_face_class(die, faces[die]) for die in WHITE_DICE}
    if len(classes) != 1:
        return None
    (only,) = classes
    return _BY_WHITES_BLACK.get((only, faces["moon"]))


# ------------------------------------------------------------------------- the bets

BetKind: TypeAlias = Literal["shooter", "ride", "daikoku", "against", "tea", "hungry"]
BET_KINDS: tuple[BetKind, ...] = ("shooter", "ride", "daikoku", "against", "tea", "hungry")
SIDE_BETS: tuple[BetKind, ...] = ("daikoku", "against", "tea", "hungry")
_LORD_MOON_KINDS: frozenset[str] = frozenset({"shooter", "ride"})
_OPPOSITE: dict[str, str] = {
    "daikoku": "against",
    "against": "daikoku",
    "tea": "hungry",
    "hungry": "tea",
}

Outcome: TypeAlias = tuple[int, Result]
"""How a turn ended: on which roll (1..3), and how."""

OUTCOMES: tuple[Outcome, ...] = (
    *((roll, result) for roll in (1, 2, 3) for result in RESULTS if result != "nothing"),
    (3, "nothing"),
)
"""Every way a turn can end (22): Moon or a combination on roll 1, 2 or 3; nothing."""
_OUTCOME_INDEX: dict[Outcome, int] = {outcome: i for i, outcome in enumerate(OUTCOMES)}


def stake_of(kind: BetKind, amount: int) -> int:
    """Coins a bet puts at risk: the shooter's bet and a ride carry an equal Lord Moon
    stake."""
    return 2 * amount if kind in _LORD_MOON_KINDS else amount


def outcome_net(kind: BetKind, amount: int, outcome: Outcome) -> int:
    """A bet's net result in whole coins (Lord Moon stake included) if the turn ends so."""
    roll, result = outcome
    combination = _BY_KEY.get(result)
    if kind in _LORD_MOON_KINDS:
        if combination is not None:
            return amount * combination.pays * (2 if roll == 1 else 1)
        # Moon takes the bet and the Lord Moon stake; nothing after roll 3 only the bet.
        return -2 * amount if result == "moon" else -amount
    if kind == "daikoku":
        return amount * 3 // 2 if combination is not None else -amount
    if kind == "against":
        return -amount if combination is not None else amount * 2 // 3
    if kind == "tea":
        return amount if roll == 3 else -amount
    # hungry: one or two rolls; a push on Fortunes and Winds at roll 1 or 2.
    if roll == 3:
        return -amount
    return 0 if result == "fortunes_and_winds" else amount


@lru_cache(maxsize=4096)
def bet_payoff(kind: BetKind, amount: int) -> tuple[int, ...]:
    """A bet's net over :data:`OUTCOMES`, in whole coins."""
    return tuple(outcome_net(kind, amount, outcome) for outcome in OUTCOMES)


# The exact (unrounded) per-coin payoffs, times 6 so that they are whole numbers.
_SCALE = 6


def _exact_payoff(kind: BetKind) -> tuple[int, ...]:
    if kind == "daikoku":
        return tuple(9 if _BY_KEY.get(r) else -6 for _, r in OUTCOMES)
    if kind == "against":
        return tuple(-6 if _BY_KEY.get(r) else 4 for _, r in OUTCOMES)
    return tuple(_SCALE * net for net in bet_payoff(kind, 1))


# --------------------------------------------------------------------- exact odds
# A position before a roll: (rolls made, elements aside, Winds aside, blanks aside); a
# turn that can make no combination any more (a blank aside, or an element and a Wind)
# is the one "dead" position per roll count. Distributions and values are integers over
# 6**(5 * (3 - rolls made)): each roll's 6**5 faces, the free white dice weighted up.

Position: TypeAlias = tuple[int, int, int, int]
_DEAD = -1
_ROLL_WEIGHT = 6**5


def _canonical(rolls: int, elements: int, winds: int, blanks: int) -> Position:
    if blanks or (elements and winds):
        return (rolls, _DEAD, _DEAD, _DEAD)
    return (rolls, elements, winds, 0)


def _aside(position: Position) -> int:
    _, e, w, b = position
    return 3 if e == _DEAD else e + w + b


@cache
def _class_counts(free: int) -> tuple[tuple[int, int, int, int], ...]:
    """(elements, Winds, blanks, ways out of 6**4) for ``free`` white dice rolled."""
    counts: dict[tuple[int, int, int], int] = {}
    for faces in product((_ELEMENT, _WIND, _BLANK), repeat=free):
        key = (faces.count(_ELEMENT), faces.count(_WIND), faces.count(_BLANK))
        ways = 1
        for face in faces:
            ways *= (3, 2, 1)[face]
        counts[key] = counts.get(key, 0) + ways
    scale = 6 ** (4 - free)
    return tuple((e, w, b, ways * scale) for (e, w, b), ways in sorted(counts.items()))


# The black die: (face, ways out of 6).
_BLACK_WAYS: tuple[tuple[str, int], ...] = (("Void", 2), ("Fortunes", 2), ("Sun", 1), ("Moon", 1))


def _denominator(rolls: int) -> int:
    return int(_ROLL_WEIGHT ** (3 - rolls))


def _terminal(outcome: Outcome) -> int:
    return _OUTCOME_INDEX[outcome]


@cache
def _keep_choices(
    position: Position, elements: int, winds: int, blanks: int
) -> tuple[tuple[Position, tuple[int, int, int]], ...]:
    """The positions a keep can lead to after a roll (the next roll's), each with the
    fewest dice of each class that reach it, fewest dice first."""
    rolls, e, w, b = position
    room = 3 - _aside(position)
    seen: dict[Position, tuple[int, int, int]] = {}
    options = [
        (de, dw, db)
        for de in range(elements + 1)
        for dw in range(winds + 1)
        for db in range(blanks + 1)
        if de + dw + db <= room
    ]
    options.sort(key=lambda o: (sum(o), o[2], o[1]))
    for de, dw, db in options:
        if e == _DEAD:
            child = (rolls + 1, _DEAD, _DEAD, _DEAD)
        else:
            child = _canonical(rolls + 1, e + de, w + dw, b + db)
        seen.setdefault(child, (de, dw, db))
    return tuple(seen.items())


@cache
def _after_roll(
    position: Position, elements: int, winds: int, blanks: int
) -> tuple[tuple[int, int], ...]:
    """Terminal (outcome index, ways out of 6) for each black face once the white dice
    show their classes: Moon, a combination, or nothing on roll 3. Faces that leave the
    turn in play are left out (the keep decides them)."""
    rolls, e, w, _ = position
    roll = rolls + 1
    all_elements = e != _DEAD and e + elements == 4
    all_winds = e != _DEAD and w + winds == 4
    out: list[tuple[int, int]] = []
    for face, ways in _BLACK_WAYS:
        if face == "Moon":
            out.append((_terminal((roll, "moon")), ways))
        elif all_elements or all_winds:
            combination = _BY_WHITES_BLACK[(_ELEMENT if all_elements else _WIND, face)]
            out.append((_terminal((roll, combination.key)), ways))
        elif roll == 3:
            out.append((_terminal((3, "nothing")), ways))
    return tuple(out)


def _free(position: Position) -> int:
    return 4 - _aside(position) if position[1] != _DEAD else 4 - 3


@cache
def _structure(
    position: Position,
) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[int, tuple[Position, ...]], ...]]:
    """A position's roll, objective-free: the weight of each outcome that ends the turn
    on it (over the position's denominator), and for the faces that leave it in play,
    the weight of each distinct set of positions a keep can lead to."""
    rolls = position[0]
    remaining = _denominator(rolls + 1)
    ending: dict[int, int] = {}
    going_on: dict[tuple[Position, ...], int] = {}
    for elements, winds, blanks, white_ways in _class_counts(_free(position)):
        ended = _after_roll(position, elements, winds, blanks)
        for index, ways in ended:
            ending[index] = ending.get(index, 0) + white_ways * ways * remaining
        settled = sum(ways for _, ways in ended)
        if settled < 6:
            children = tuple(child for child, _ in _keep_choices(position, elements, winds, blanks))
            going_on[children] = going_on.get(children, 0) + white_ways * (6 - settled)
    return tuple(sorted(ending.items())), tuple(
        (weight, children) for children, weight in going_on.items()
    )


def _value(position: Position, objective: tuple[int, ...]) -> int:
    """The best keeping's value of ``objective`` from ``position``, over the position's
    denominator."""
    return _values(objective)[position]


@lru_cache(maxsize=4096)
def _values(objective: tuple[int, ...]) -> dict[Position, int]:
    """:func:`_value` from every position of a turn at once (read-only), the last roll's
    first: a position's keeps lead to the next roll's. One pass with a plain dict: the
    house guard asks this for every new table of bets, and a recursion memoised on
    (position, objective) took 1.7 times as long (63 µs against 37, measured)."""
    values: dict[Position, int] = {}
    for position in _positions_last_first():
        ending, going_on = _structure(position)
        total = 0
        for index, weight in ending:
            total += weight * objective[index]
        for weight, children in going_on:
            if len(children) == 1:
                total += weight * values[children[0]]
            else:
                total += weight * max([values[child] for child in children])
        values[position] = total
    return values


@cache
def _positions_last_first() -> tuple[Position, ...]:
    """Every position a turn can reach from its start, later rolls first."""
    seen = {_START}
    waiting = [_START]
    while waiting:
        for _, children in _structure(waiting.pop())[1]:
            for child in children:
                if child not in seen:
                    seen.add(child)
                    waiting.append(child)
    return tuple(sorted(seen, key=lambda position: -position[0]))


def _best_child(
    position: Position, elements: int, winds: int, blanks: int, objective: tuple[int, ...]
) -> tuple[Position, tuple[int, int, int]]:
    """The keep the objective's best keeping makes (ties: fewest dice set aside)."""
    choices = _keep_choices(position, elements, winds, blanks)
    best = choices[0]
    best_value = _value(best[0], objective)
    for choice in choices[1:]:
        value = _value(choice[0], objective)
        if value > best_value:
            best, best_value = choice, value
    return best


@lru_cache(maxsize=1024)
def _distribution(position: Position, objective: tuple[int, ...]) -> tuple[int, ...]:
    """Outcome weights (over the position's denominator) under the objective's best
    keeping."""
    rolls = position[0]
    remaining = _denominator(rolls + 1)
    acc = [0] * len(OUTCOMES)
    for elements, winds, blanks, white_ways in _class_counts(_free(position)):
        ended = _after_roll(position, elements, winds, blanks)
        settled = sum(ways for _, ways in ended)
        for index, ways in ended:
            acc[index] += white_ways * ways * remaining
        if settled < 6:
            child, _ = _best_child(position, elements, winds, blanks, objective)
            weight = white_ways * (6 - settled)
            for index, weight_child in enumerate(_distribution(child, objective)):
                if weight_child:
                    acc[index] += weight * weight_child
    return tuple(acc)


_START: Position = (0, 0, 0, 0)
_SHOOTER_OBJECTIVE: tuple[int, ...] = bet_payoff("shooter", 1)


def _fractions(weights: Sequence[int], denominator: int) -> dict[Outcome, Fraction]:
    return {
        outcome: Fraction(weight, denominator)
        for outcome, weight in zip(OUTCOMES, weights, strict=True)
    }


def _dot(weights: Sequence[int], payoff: Sequence[int]) -> int:
    return sum(w * p for w, p in zip(weights, payoff, strict=True) if w)


@dataclass(frozen=True)
class TurnOdds:
    """Exact figures for a whole turn under a keeping (no simulation)."""

    outcomes: dict[Outcome, Fraction]
    """The probability of each way the turn can end."""
    shooter_ev: Fraction
    """The shooter's (and a rider's) expected net per coin bet, Lord Moon stake included."""
    edges: dict[BetKind, Fraction]
    """The bank's expected gain per coin on each bet (exact pays, before rounding down)."""

    @property
    def win(self) -> Fraction:
        """The probability that the shooter wins the turn."""
        return sum(
            (p for (_, result), p in self.outcomes.items() if result in _BY_KEY), Fraction(0)
        )

    @property
    def three_rolls(self) -> Fraction:
        """The probability that roll 3 happens (Lady Sun's Tea wins)."""
        return sum((p for (roll, _), p in self.outcomes.items() if roll == 3), Fraction(0))

    def result(self, result: Result) -> Fraction:
        """The probability that the turn ends with ``result`` (on any roll)."""
        return sum((p for (_, r), p in self.outcomes.items() if r == result), Fraction(0))


KeepingName: TypeAlias = Literal["best", "never_keep"]


@lru_cache(maxsize=8)
def turn_odds(keeping: KeepingName = "best") -> TurnOdds:
    """The turn's exact odds: ``best`` is the shooter keeping for their own best value,
    ``never_keep`` a shooter who never sets a die aside."""
    if keeping == "best":
        weights = _distribution(_START, _SHOOTER_OBJECTIVE)
    else:
        weights = _never_keep_distribution()
    denominator = _denominator(0)
    edges = {
        kind: -Fraction(_dot(weights, _exact_payoff(kind)), denominator * _SCALE)
        for kind in BET_KINDS
    }
    return TurnOdds(
        outcomes=_fractions(weights, denominator),
        shooter_ev=-edges["shooter"],
        edges=edges,
    )


def _never_keep_distribution() -> tuple[int, ...]:
    # Never setting aside: every roll is a fresh roll of all five dice.
    acc = [0] * len(OUTCOMES)
    carry = 1
    for roll in (1, 2, 3):
        remaining = _denominator(roll)
        for elements, winds, blanks, white_ways in _class_counts(4):
            ended = _after_roll((roll - 1, 0, 0, 0), elements, winds, blanks)
            for index, ways in ended:
                acc[index] += carry * white_ways * ways * remaining
        in_play = sum(
            white_ways * (6 - sum(w for _, w in _after_roll((roll - 1, 0, 0, 0), e, w_, b)))
            for e, w_, b, white_ways in _class_counts(4)
        )
        carry *= in_play
    return tuple(acc)


@cache
def served_edge(kind: BetKind) -> Fraction:
    """A bet's expected net per coin for its bettor when the shooter keeps the dice to
    serve that bet alone (a friend): what the house guard stops, and what members gain
    on it with the guard off. Exact pays, before rounding down; the Lord Moon stake of the
    shooter's bet and a ride included."""
    return Fraction(_value(_START, _exact_payoff(kind)), _denominator(0) * _SCALE)


def shooter_ev() -> Fraction:
    """The shooter's expected net per coin bet (the Lord Moon stake's fate included),
    under the shooter's best keeping."""
    return turn_odds("best").shooter_ev


def roll_odds() -> dict[Result, Fraction]:
    """The probability of each result on a roll of all five dice (a turn's first roll);
    ``nothing`` is the chance the turn goes on."""
    weights = [0] * len(RESULTS)
    total = 0
    for elements, winds, _blanks, white_ways in _class_counts(4):
        for face, ways in _BLACK_WAYS:
            faces_class = None
            if elements == 4:
                faces_class = _ELEMENT
            elif winds == 4:
                faces_class = _WIND
            if face == "Moon":
                result: Result = "moon"
            elif faces_class is not None:
                result = _BY_WHITES_BLACK[(faces_class, face)].key
            else:
                result = "nothing"
            weights[RESULTS.index(result)] += white_ways * ways
            total += white_ways * ways
    return {result: Fraction(w, total) for result, w in zip(RESULTS, weights, strict=True)}
