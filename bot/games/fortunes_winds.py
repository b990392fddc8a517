"""Fortunes and Winds: Rokugan's five-dice banker game, as a pure engine.

One seated player, the **shooter**, bets B (and B more "for Lord Moon") and rolls four
white dice and the black Moon die up to three times, setting white dice aside between
rolls, to make one of six combinations. Everyone else (but a player banker) may ride the
shooter or make side bets. Every bet is against the bank: the house (``payouts[HOUSE]``)
or, with ``player_banker``, a seated player's wallet.

The authority is ``shared/rules/fortunes-and-winds.md``. Rulings of ours (also for the
player rules, ``bot/rules_text/fortunes_winds.md``):

- Phases. ``betting``: bets are open until the shooter's first roll, or until the betting
  window (``bet_seconds``) runs out, after which the shooter has ``roll_seconds`` to roll.
  ``rolling``: after roll 1 or 2 of a turn still in play, the shooter sets dice aside
  (any number of :class:`SetAside` actions, at most three white dice over the turn) and
  rolls again. ``won``: the shooter just won; :class:`NewTurn` (betting opens again with
  the same shooter) or :class:`PassDice`. After a loss the dice pass to the next seat and
  betting opens at once. ``roll_number`` is the roll of the turn in play (0 between
  turns); ``faces`` keep showing the last roll until the next one.
- The shooter must place the shooter's bet before the first roll. A further bet of a kind
  already held tops it up; each kind's total is within ``min_stake``..``max_stake`` (the
  Lord Moon stake is on top). A player may not hold both Daikoku and "against", nor both
  Tea and Hungry Moon. The shooter makes no other bet; a player banker makes none.
- Whole coins: Daikoku wins ``amount * 3 // 2``, "against" ``amount * 2 // 3`` (the bank
  keeps the fraction).
- ``house_guard`` (with the house as bank): a bet is accepted only if the players' joint
  expected value — every open bet of the turn, the shooter keeping to maximise their sum,
  whole-coin rounding included — stays <= 0 (:func:`joint_ev`); the refusal names the
  most the bank would take on that bet (:func:`guard_limit`).
- Deadlines: a betting window's end closes betting (or, if the shooter has not bet, the
  turn cannot be played: bets go back and the dice pass, ``absent``); an idle shooter's
  roll is made for them with the best keep (:func:`best_keep`); a turn in which the
  deadline rolled for the shooter is idle, and after two idle turns in a row the dice
  pass. A winner who does not choose starts a new turn (idle).
- ``player_banker``: the first seat (the host who opened the table) banks: the engine
  cannot read wallets, so "the richest seated player" is the table's choice of seat
  order. The banker never shoots or bets; the dice go round the other seats. The
  banker's most possible loss on the open bets is kept as the banker's own ``stakes``
  entry (:func:`banker_exposure`), so the table service's wallet check (escrow equals the
  sum of stakes) refuses, before the roll, a bet the banker's wallet cannot cover. The
  house guard does not apply (the banker covers what they choose to).
- :class:`Abort`: settled turns stand; before the turn's first roll every open bet goes
  back; in a turn in play each bet is settled at its exact expected value under the
  shooter's best keeping from that moment, rounded down for the player.
- Ties in the keeping (two keeps worth exactly the same) go to setting aside fewer dice,
  then to the earlier die in the order Earth, Water, Fire, Air.

Chance comes only from the ``dice`` argument: one ``dice.roll(6)`` per die not set aside,
in the order Earth, Water, Fire, Air, Moon; the value is the face's position in the rules
file's table. ``act`` never mutates its input.

Exact odds: a white die shows its element (1/2), its Wind (1/3) or a blank (1/6), alike
for all four, so a position is the roll count and how many elements, Winds and blanks
are set aside. A dynamic programme over those positions (integer weights over 6**15,
cached) gives, for any objective over the turn's 22 outcomes (which roll it ended on and
how), the best keeping's value and the outcome probabilities under it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import product
from typing import Annotated, Any, Literal, TypeAlias, TypeVar, Union, get_args

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

from bot.games.common import HOUSE, Abort, Deadline, Permission
from bot.games.contract import Engine
from bot.games.dice import Dice
from bot.games.errors import IllegalMove
from bot.games.kit import Move, Rulebook

__all__ = [
    "ACTIONS",
    "BET_KINDS",
    "COMBINATIONS",
    "DIE_NAMES",
    "ENGINE",
    "FACES",
    "KANJI",
    "OUTCOMES",
    "RESULTS",
    "SIDE_BETS",
    "WHITE_DICE",
    "Abort",
    "Aborted",
    "Action",
    "Bet",
    "BetKind",
    "BetPlaced",
    "BetReturned",
    "BetSettled",
    "BetValued",
    "BettingClosed",
    "Closed",
    "Combination",
    "Deadline",
    "DicePassed",
    "DiceSetAside",
    "DieName",
    "Event",
    "FortunesWindsEngine",
    "Join",
    "Joined",
    "KeepAdvice",
    "Leave",
    "Left",
    "NewTurn",
    "NewTurnStarted",
    "Outcome",
    "PassDice",
    "Phase",
    "Result",
    "Roll",
    "Rolled",
    "Rules",
    "SetAside",
    "State",
    "TurnEnded",
    "TurnOdds",
    "WhiteDie",
    "act",
    "bank_exposure",
    "banker_exposure",
    "best_keep",
    "bet_payoff",
    "betting_open",
    "can_pass_dice",
    "combination_of",
    "deadline_seconds",
    "eligible_shooters",
    "guard_limit",
    "hold",
    "joint_ev",
    "keep_advice",
    "outcome_net",
    "parse_action",
    "parse_event",
    "roll_odds",
    "seat_limits",
    "shooter_ev",
    "start",
    "turn_odds",
]

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


@lru_cache(maxsize=16384)
def _value(position: Position, objective: tuple[int, ...]) -> int:
    """The best keeping's value of ``objective`` from ``position``, over the position's
    denominator."""
    ending, going_on = _structure(position)
    total = 0
    for index, weight in ending:
        total += weight * objective[index]
    for weight, children in going_on:
        if len(children) == 1:
            total += weight * _value(children[0], objective)
        else:
            total += weight * max([_value(child, objective) for child in children])
    return total


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


def _shooter_objective() -> tuple[int, ...]:
    return bet_payoff("shooter", 1)


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
        weights = _distribution(_START, _shooter_objective())
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


# --------------------------------------------------------------------------- rules


class Rules(BaseModel):
    """House rules of a Fortunes and Winds table (defaults as in the rules file)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    player_banker: bool = False
    """The first seat banks from their own wallet instead of the house."""
    allow_bet_against: bool = True
    """Bets against the shooter are taken (many houses refuse them)."""
    house_guard: bool = True
    """With the house as bank: refuse bets that give the players together an edge."""
    min_stake: int = Field(default=1, ge=1)
    max_stake: int = Field(default=100, ge=1)
    bet_seconds: int = Field(default=30, ge=0, le=3600)
    """The betting window before each turn; 0: bets are open until the first roll."""
    roll_seconds: int = Field(default=60, ge=5, le=3600)
    """How long the shooter has to roll (and to choose after a win)."""
    max_players: int = Field(default=8, ge=2, le=25)

    @model_validator(mode="after")
    def _limits_are_ordered(self) -> Rules:
        if self.max_stake < self.min_stake:
            raise ValueError("max_stake must be at least min_stake")
        return self

    @property
    def guarded(self) -> bool:
        """Whether the house guard applies (it never does with a player banker)."""
        return self.house_guard and not self.player_banker


# ------------------------------------------------------------------------- actions
# Every action (and event) is told apart by ``kind``; a Bet's ``kind`` is its bet kind
# (ENGINE_CONTRACT.md fixes ``Bet(kind, amount)``), read as "bet" by the discriminator.


class Bet(BaseModel):
    """A bet against the bank; ``kind`` is the bet kind (and tells a Bet from the rest)."""

    model_config = ConfigDict(frozen=True)
    kind: BetKind
    amount: int


class Roll(BaseModel):
    """The shooter rolls every die not set aside."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["roll"] = "roll"


class SetAside(BaseModel):
    """The shooter sets white dice aside (never rolled again this turn)."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["set_aside"] = "set_aside"
    dice: list[WhiteDie]


class NewTurn(BaseModel):
    """A winning shooter starts a new turn."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["new_turn"] = "new_turn"


class PassDice(BaseModel):
    """The shooter hands the dice to the next seat (between turns)."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["pass_dice"] = "pass_dice"


class Join(BaseModel):
    """A member takes the next free seat (at the end of seat order)."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["join"] = "join"


class Leave(BaseModel):
    """A seated player cashes out and leaves the table."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["leave"] = "leave"


Action: TypeAlias = Bet | Roll | SetAside | NewTurn | PassDice | Join | Leave | Deadline | Abort
"""Everything ``act`` accepts (the shared :class:`Deadline` and :class:`Abort` included)."""

ACTIONS: tuple[type[BaseModel], ...] = get_args(Action)
"""The action models, in the order of :data:`Action`."""

_BET_TAG = "bet"


def _action_tag(data: Any) -> str | None:
    """Which action a logged dict (or an action model) is: ``kind``, a bet kind naming
    :class:`Bet`."""
    tag = data.get("kind") if isinstance(data, Mapping) else getattr(data, "kind", None)
    if not isinstance(tag, str):
        return None
    return _BET_TAG if tag in BET_KINDS else tag


def _tag_of(model: type[BaseModel]) -> str:
    if model is Bet:
        return _BET_TAG
    tag = model.model_fields["kind"].default
    assert isinstance(tag, str), model
    return tag


_TAGGED_ACTIONS: Any = Annotated[
    Union[tuple(Annotated[model, Tag(_tag_of(model))] for model in ACTIONS)],  # noqa: UP007
    Discriminator(_action_tag),
]
"""The union that parses a logged action."""

PERMISSIONS: dict[type[BaseModel], Permission] = {}
"""Every action is a seated player's (Abort is a moderator's, in the registry)."""


# -------------------------------------------------------------------------- events

PassReason: TypeAlias = Literal["lost", "voluntary", "absent", "left"]
Phase: TypeAlias = Literal["betting", "rolling", "won"]


class BetPlaced(BaseModel):
    """A bet went down; ``total`` is the player's whole bet of that kind this turn and
    ``lord_moon`` the Lord Moon stake now beside it (shooter's bet and rides)."""

    kind: Literal["bet_placed"] = "bet_placed"
    player: int
    bet: BetKind
    amount: int
    total: int
    lord_moon: int = 0


class BettingClosed(BaseModel):
    """No more bets this turn: the first roll, or the betting window's end."""

    kind: Literal["betting_closed"] = "betting_closed"
    by_deadline: bool = False


class DiceSetAside(BaseModel):
    """White dice were set aside; ``set_aside`` is every die aside this turn."""

    kind: Literal["dice_set_aside"] = "dice_set_aside"
    shooter: int
    dice: list[WhiteDie]
    set_aside: list[WhiteDie]
    by_deadline: bool = False


class Rolled(BaseModel):
    """The shooter rolled. ``faces`` shows all five dice, ``rolled`` the dice that were
    thrown; ``result`` is ``None`` while the turn goes on."""

    kind: Literal["rolled"] = "rolled"
    shooter: int
    roll: int
    faces: dict[DieName, str]
    rolled: list[DieName]
    set_aside: list[WhiteDie]
    result: Result | None
    by_deadline: bool = False


class BetSettled(BaseModel):
    """A bet was settled; ``net`` is the player's gain (negative: loss), Lord Moon
    included. ``push``: a Hungry Moon bet on Fortunes and Winds at roll 1 or 2."""

    kind: Literal["bet_settled"] = "bet_settled"
    player: int
    bet: BetKind
    amount: int
    won: bool
    net: int
    push: bool = False


class BetReturned(BaseModel):
    """A bet was handed back unplayed (its turn never started)."""

    kind: Literal["bet_returned"] = "bet_returned"
    player: int
    bet: BetKind
    amount: int


class BetValued(BaseModel):
    """An open bet settled at its exact value when the table was aborted mid-turn;
    ``returned`` is that value rounded down (the bank keeps the fraction)."""

    kind: Literal["bet_valued"] = "bet_valued"
    player: int
    bet: BetKind
    amount: int
    returned: int
    net: int


class TurnEnded(BaseModel):
    """A turn was decided: ``result`` on roll ``rolls``; ``won`` for a combination."""

    kind: Literal["turn_ended"] = "turn_ended"
    turn: int
    shooter: int
    rolls: int
    result: Result
    won: bool
    combination: str | None = None


class NewTurnStarted(BaseModel):
    """A winning shooter goes again: betting is open for the new turn."""

    kind: Literal["new_turn_started"] = "new_turn_started"
    shooter: int
    by_deadline: bool = False


class DicePassed(BaseModel):
    """The dice moved to the next shooter."""

    kind: Literal["dice_passed"] = "dice_passed"
    from_player: int
    to_player: int
    reason: PassReason


class Joined(BaseModel):
    """A member took a seat; ``seat`` is their 0-based position in seat order."""

    kind: Literal["joined"] = "joined"
    player: int
    seat: int


class Left(BaseModel):
    """A player cashed out; ``net`` is what they won (or lost) at the table overall."""

    kind: Literal["left"] = "left"
    player: int
    net: int


class Closed(BaseModel):
    """The table finished by itself (everyone gone, or the banker left)."""

    kind: Literal["closed"] = "closed"
    reason: Literal["empty", "banker_left"]


class Aborted(BaseModel):
    """A moderator ended the table; ``by`` is who the log names."""

    kind: Literal["aborted"] = "aborted"
    by: int | None


Event = Annotated[
    BetPlaced
    | BettingClosed
    | DiceSetAside
    | Rolled
    | BetSettled
    | BetReturned
    | BetValued
    | TurnEnded
    | NewTurnStarted
    | DicePassed
    | Joined
    | Left
    | Closed
    | Aborted,
    Field(discriminator="kind"),
]
"""Every event ``act`` emits. All are public: the game has no secrets."""

_EventT = TypeVar("_EventT", bound=BaseModel)

_FREQUENT_EVENTS: dict[type[BaseModel], tuple[dict[str, Any], set[str]]] = {
    cls: (
        {
            name: field.default
            for name, field in cls.model_fields.items()
            if not field.is_required()
        },
        set(cls.model_fields),
    )
    for cls in (BetPlaced, BetSettled, DiceSetAside, Rolled, TurnEnded)
}
"""The events :func:`_event` builds: their defaults and the names of all their fields."""


def _event(cls: type[_EventT], **values: Any) -> _EventT:
    """One of the frequent events, unvalidated (as Nihakyu's: validating them was a large
    share of a turn's time, measured). Every value is given with its declared type; the
    engine tests re-validate every event they see. Events may share containers with the
    state: both are read-only by convention."""
    defaults, every_field = _FREQUENT_EVENTS[cls]
    event = object.__new__(cls)
    object.__setattr__(event, "__dict__", {**defaults, **values})
    object.__setattr__(event, "__pydantic_fields_set__", every_field)
    object.__setattr__(event, "__pydantic_extra__", None)
    object.__setattr__(event, "__pydantic_private__", None)
    return event


# --------------------------------------------------------------------------- state


class State(BaseModel):
    """The whole table. Round-trips through JSON exactly.

    ``bets[p][kind]`` is what ``p`` has on each bet kind this turn (the Lord Moon stake
    beside a shooter's bet or ride is the same amount again, not listed). ``stakes[p]`` is
    the coins ``p`` has at risk: their bets with Lord Moon stakes, and for a player banker
    the most the open bets could cost them. ``payouts`` holds each player's net result so
    far and the house's under ``HOUSE``; it always sums to 0.
    """

    rules: Rules
    seats: list[int]
    banker: int | None = None
    """The seated player who banks (``player_banker``), else ``None`` (the house)."""
    shooter: int
    phase: Phase = "betting"
    roll_number: int = 0
    """The roll of the turn in play (1..3); 0 between turns."""
    faces: dict[str, str] = Field(default_factory=dict)
    """The dice as they lie: die name → face name (empty before any roll)."""
    set_aside: list[str] = Field(default_factory=list)
    """White dice set aside this turn, in the order they were set aside."""
    bets: dict[int, dict[BetKind, int]] = Field(default_factory=dict)
    bets_closed: bool = False
    """The betting window has closed before the first roll."""
    turn: int = 1
    stakes: dict[int, int]
    payouts: dict[int, int]
    ply: int = 0
    finished: bool = False
    idle_turns: int = 0
    """Turns in a row in which the deadline acted for the current shooter."""
    deadline_acted: bool = False
    """Whether the deadline has acted for the shooter in the turn in play."""
    last_result: Result | None = None
    """How the last decided turn ended."""


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


def _bet_list(
    state: State, extra: Bet | None, player: int | None
) -> tuple[tuple[BetKind, int], ...]:
    """Every open bet (kind, amount), plus ``extra`` topping up ``player``'s, in a
    canonical order: the joint value depends on nothing else."""
    bets = state.bets
    if extra is not None:
        assert player is not None
        held = dict(bets.get(player, ()))
        held[extra.kind] = held.get(extra.kind, 0) + extra.amount
        bets = {**bets, player: held}
    return tuple(sorted((kind, amount) for held in bets.values() for kind, amount in held.items()))


@lru_cache(maxsize=4096)
def _joint_value(bet_list: tuple[tuple[BetKind, int], ...]) -> int:
    """The joint value over 6**15 (see :func:`joint_ev`)."""
    return _value(_START, _sum_payoffs(bet_list))


def _sum_payoffs(bet_list: Iterable[tuple[BetKind, int]]) -> tuple[int, ...]:
    payoffs = [bet_payoff(kind, amount) for kind, amount in bet_list if amount]
    if not payoffs:
        return _NO_PAYOFF
    return tuple(map(sum, zip(*payoffs, strict=True)))


def joint_ev(state: State, extra: Bet | None = None, player: int | None = None) -> Fraction:
    """The players' joint expected net on the open bets of the turn (plus ``extra`` by
    ``player``), the shooter keeping to maximise the sum; whole-coin rounding included.
    Before the first roll only (the guard's question)."""
    return Fraction(_joint_value(_bet_list(state, extra, player)), _denominator(0))


def _guard_refuses(state: State, extra: Bet, player: int) -> bool:
    return _joint_value(_bet_list(state, extra, player)) > 0


def guard_limit(state: State, player: int, kind: BetKind) -> int:
    """The most ``player`` may add on ``kind`` now with the house guard satisfied: every
    amount from 1 up to it is accepted (0: none). Ignores the table's limits."""
    held = state.bets.get(player, {})

    def fits(amount: int) -> bool:
        return not _guard_refuses(state, Bet(kind=kind, amount=amount), player)

    # The joint value is convex in the amount (a maximum of linear functions, before
    # rounding, which only favours the bank), so the accepted amounts run from 1 up.
    low, high = 0, 1
    cap = 10**9 - held.get(kind, 0)
    while high < cap and fits(high):
        low, high = high, high * 2
    high = min(high, cap)
    if fits(high):
        return high
    while high - low > 1:
        middle = (low + high) // 2
        if fits(middle):
            low = middle
        else:
            high = middle
    return low


# -------------------------------------------------------------------- the keeping


def _position(state: State) -> tuple[Position, tuple[int, int, int], dict[int, list[str]]]:
    """The turn's position after the last roll: the position before it, the classes the
    free dice show, and the free dice by class (die order)."""
    e = w = b = 0
    for die in state.set_aside:
        cls = _face_class(die, state.faces[die])
        e, w, b = e + (cls == _ELEMENT), w + (cls == _WIND), b + (cls == _BLANK)
    before = _canonical(state.roll_number - 1, e, w, b)
    by_class: dict[int, list[str]] = {_ELEMENT: [], _WIND: [], _BLANK: []}
    for die in WHITE_DICE:
        if die not in state.set_aside:
            by_class[_face_class(die, state.faces[die])].append(die)
    shown = (len(by_class[_ELEMENT]), len(by_class[_WIND]), len(by_class[_BLANK]))
    return before, shown, by_class


def _keeping_now(state: State) -> bool:
    return not state.finished and state.phase == "rolling" and 1 <= state.roll_number <= 2


def _best_keep_for(state: State, objective: tuple[int, ...]) -> tuple[list[str], Position]:
    before, shown, by_class = _position(state)
    if before[1] == _DEAD:
        return [], (state.roll_number, _DEAD, _DEAD, _DEAD)
    child, (de, dw, db) = _best_child(before, *shown, objective)
    chosen = set(by_class[_ELEMENT][:de] + by_class[_WIND][:dw] + by_class[_BLANK][:db])
    return [die for die in WHITE_DICE if die in chosen], child


def best_keep(state: State) -> list[str]:
    """The white dice to set aside now (besides those already aside), under the shooter's
    best keeping for their own value; ``[]`` when no keep is to be chosen."""
    if not _keeping_now(state):
        return []
    return _best_keep_for(state, _shooter_objective())[0]


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
    objective = _shooter_objective()
    keep, child = _best_keep_for(state, objective)
    weights = _distribution(child, objective)
    outcomes = _fractions(weights, _denominator(child[0]))
    ev = Fraction(_dot(weights, objective), _denominator(child[0]))
    return KeepAdvice(keep=keep, outcomes=outcomes, shooter_ev=ev)


def _current_distribution(state: State) -> dict[Outcome, Fraction]:
    """Where the turn in play ends, under the shooter's best keeping from now."""
    objective = _shooter_objective()
    if state.phase == "rolling" and state.roll_number:
        _, child = _best_keep_for(state, objective)
        return _fractions(_distribution(child, objective), _denominator(child[0]))
    return _fractions(_distribution(_START, objective), _denominator(0))


# ----------------------------------------------------------------------- helpers


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _next_shooter(state: State, after: int) -> int:
    """The next seat after ``after`` who may shoot (``after`` itself if alone)."""
    seats = state.seats
    index = seats.index(after) if after in seats else 0
    for step in range(1, len(seats) + 1):
        candidate = seats[(index + step) % len(seats)]
        if candidate != state.banker:
            return candidate
    return after


_BET_NAMES: dict[str, str] = {
    "shooter": "the shooter's bet",
    "ride": "a ride",
    "daikoku": "Daikoku's Belly",
    "against": "against the shooter",
    "tea": "Lady Sun's Tea",
    "hungry": "Hungry Moon",
}


# ---------------------------------------------------------------------- checks


def _seated(state: State, player: int | None) -> int:
    if player is None:
        raise IllegalMove("The table itself can only call time.")
    if player not in state.seats:
        raise IllegalMove("You aren't seated at this Fortunes and Winds table — join it first.")
    return player


def _check_bet(state: State, player: int, bet: Bet) -> None:
    rules = state.rules
    if bet.amount <= 0:
        raise IllegalMove("A bet must be at least 1 coin.")
    if not betting_open(state):
        raise IllegalMove("Bets are closed: they open again before the next turn.")
    if player == state.banker:
        raise IllegalMove("The banker covers the bets and makes none.")
    if bet.kind == "shooter" and player != state.shooter:
        raise IllegalMove("Only the shooter makes the shooter's bet — ride the shooter instead.")
    if bet.kind != "shooter" and player == state.shooter:
        raise IllegalMove("The shooter may not make side bets or ride — bet as the shooter.")
    if bet.kind == "against" and not rules.allow_bet_against:
        raise IllegalMove("This house takes no bets against the shooter.")
    held = state.bets.get(player, {})
    other = _OPPOSITE.get(bet.kind)
    if other is not None and held.get(other, 0):  # type: ignore[call-overload]
        raise IllegalMove(
            f"You already hold {_BET_NAMES[other]} this turn; you can't back both sides."
        )
    total = held.get(bet.kind, 0) + bet.amount
    if total < rules.min_stake:
        raise IllegalMove(f"The table minimum is {_coins(rules.min_stake)} per bet.")
    if total > rules.max_stake:
        raise IllegalMove(
            f"The table maximum is {_coins(rules.max_stake)} per bet; this would make {total}."
        )
    # A shooter's bet or a ride loses on average under every keeping (shooter_ev() < 0),
    # so it can only lower the players' joint value, which every bet accepted this turn
    # kept <= 0: only the side bets need the dynamic programme.
    if rules.guarded and bet.kind not in _LORD_MOON_KINDS and _guard_refuses(state, bet, player):
        limit = guard_limit(state, player, bet.kind)
        more = (
            f"The bank would take at most {_coins(limit)} more on it now."
            if limit
            else "The bank takes no more on it this turn."
        )
        raise IllegalMove(
            f"The house guard refuses {_BET_NAMES[bet.kind]} of {_coins(bet.amount)}: with "
            f"it the table's bets together would beat the bank on average. {more}"
        )


def _check_roll(state: State, player: int, action: Roll) -> None:
    if player != state.shooter:
        raise IllegalMove("Only the shooter rolls the dice.")
    if state.phase == "won":
        raise IllegalMove("Your turn is won — start a new turn or pass the dice.")
    if state.roll_number == 0 and not state.bets.get(player, {}).get("shooter"):
        raise IllegalMove("Place your bet (and the same again for Lord Moon) before rolling.")


def _check_set_aside(state: State, player: int, action: SetAside) -> None:
    if player != state.shooter:
        raise IllegalMove("Only the shooter sets dice aside.")
    if state.phase != "rolling" or state.roll_number == 0:
        raise IllegalMove("Dice are set aside between the rolls of a turn.")
    if not action.dice:
        raise IllegalMove("Name at least one white die to set aside.")
    if len(set(action.dice)) != len(action.dice):
        raise IllegalMove("Name each die once.")
    for die in action.dice:
        if die not in WHITE_DICE:
            raise IllegalMove("Only white dice are set aside; the black die is always rolled.")
        if die in state.set_aside:
            raise IllegalMove(f"The {die.capitalize()} die is already set aside.")
    if len(state.set_aside) + len(action.dice) > 3:
        raise IllegalMove(
            f"At most three white dice may be set aside in a turn; "
            f"{len(state.set_aside)} already are."
        )


def _check_new_turn(state: State, player: int, action: NewTurn) -> None:
    if player != state.shooter:
        raise IllegalMove("Only the shooter starts a new turn.")
    if state.phase != "won":
        raise IllegalMove("A new turn is the winner's choice after a winning turn.")


def _check_pass(state: State, player: int, action: PassDice) -> None:
    if player != state.shooter:
        raise IllegalMove("Only the shooter can pass the dice.")
    if state.roll_number > 0:
        raise IllegalMove("You can't pass the dice in the middle of a turn.")
    if not can_pass_dice(state):
        raise IllegalMove("There's nobody else at the table to pass the dice to.")


def _check_join(state: State, player: int | None, action: Join) -> None:
    if player is None:
        raise IllegalMove("The table itself can only call time.")
    if player == HOUSE:
        raise IllegalMove("That player id is reserved for the bank.")
    if player in state.seats:
        raise IllegalMove("You're already seated at this table.")
    if len(state.seats) >= state.rules.max_players:
        raise IllegalMove(f"This table is full ({state.rules.max_players} seats).")


def _check_leave(state: State, player: int, action: Leave) -> None:
    if player == state.banker:
        if any(state.bets.values()):
            raise IllegalMove("You bank bets that are riding — wait until they're settled.")
        return
    if state.bets.get(player):
        raise IllegalMove("You have bets riding — wait until they're settled before leaving.")
    if player == state.shooter and state.roll_number > 0:
        raise IllegalMove("You're in the middle of a turn — roll until it's decided first.")


def _check_deadline(state: State, player: int | None, action: Deadline) -> None:
    if player is not None:
        raise IllegalMove("Only the table itself can call time.")


def _check_abort(state: State, player: int | None, action: Abort) -> None:
    """Who may abort is the service's business (a moderator); the log names them."""


# ------------------------------------------------------------------------ moves

_A = TypeVar("_A", bound=BaseModel)


def _player_move(
    check: Callable[[State, int, _A], None], apply: Callable[[State, int, _A, Dice], list[Event]]
) -> Move[State, _A, Event]:
    def checked(state: State, player: int | None, action: _A) -> None:
        check(state, _seated(state, player), action)

    def applied(s: State, player: int | None, action: _A, dice: Dice) -> list[Event]:
        assert player is not None  # the check refused the table
        return apply(s, player, action, dice)

    return Move(checked, applied)


def _apply_bet(s: State, player: int, bet: Bet, dice: Dice) -> list[Event]:
    held = dict(s.bets.get(player, ()))
    total = held[bet.kind] = held.get(bet.kind, 0) + bet.amount
    bets = {**s.bets, player: held}
    stakes = {**s.stakes, player: s.stakes.get(player, 0) + stake_of(bet.kind, bet.amount)}
    if s.banker is not None:
        stakes[s.banker] = _max_payout(bets)
    _write(s, bets=bets, stakes=stakes)
    return [
        _event(
            BetPlaced,
            player=player,
            bet=bet.kind,
            amount=bet.amount,
            total=total,
            lord_moon=total if bet.kind in _LORD_MOON_KINDS else 0,
        )
    ]


def _apply_roll(s: State, player: int, action: Roll, dice: Dice) -> list[Event]:
    s.deadline_acted = False if s.roll_number == 0 else s.deadline_acted
    return _roll(s, dice, by_deadline=False)


def _apply_set_aside(s: State, player: int, action: SetAside, dice: Dice) -> list[Event]:
    s.set_aside = [*s.set_aside, *action.dice]
    return [
        _event(
            DiceSetAside,
            shooter=player,
            dice=list(action.dice),
            set_aside=list(s.set_aside),
        )
    ]


def _apply_new_turn(s: State, player: int, action: NewTurn, dice: Dice) -> list[Event]:
    _open_turn(s)
    s.ply += 1
    return [NewTurnStarted(shooter=player)]


def _apply_pass(s: State, player: int, action: PassDice, dice: Dice) -> list[Event]:
    events: list[Event] = [*_return_bets(s)]
    events.append(_pass_dice(s, "voluntary"))
    return events


def _apply_join(s: State, player: int | None, action: Join, dice: Dice) -> list[Event]:
    assert player is not None
    s.seats = [*s.seats, player]
    if player not in s.stakes:
        s.stakes = {**s.stakes, player: 0}
    if player not in s.payouts:
        s.payouts = {**s.payouts, player: 0}
    s.ply += 1
    return [Joined(player=player, seat=len(s.seats) - 1)]


def _apply_leave(s: State, player: int, action: Leave, dice: Dice) -> list[Event]:
    events: list[Event] = []
    if player == s.banker:
        s.seats = [p for p in s.seats if p != player]
        s.ply += 1
        events.append(Left(player=player, net=s.payouts.get(player, 0)))
        events.extend(_return_bets(s))
        events.extend(_close(s, "banker_left"))
        return events
    was_shooter = player == s.shooter
    if was_shooter:
        events.extend(_return_bets(s))
        successor = _next_shooter(s, player)
    s.seats = [p for p in s.seats if p != player]
    s.ply += 1
    events.append(Left(player=player, net=s.payouts.get(player, 0)))
    if not eligible_shooters(s):
        events.extend(_return_bets(s))
        events.extend(_close(s, "empty"))
    elif was_shooter:
        _new_shooter(s, successor if successor != player else eligible_shooters(s)[0])
        events.append(DicePassed(from_player=player, to_player=s.shooter, reason="left"))
    return events


def _apply_deadline(s: State, player: int | None, action: Deadline, dice: Dice) -> list[Event]:
    if s.phase == "won":
        s.deadline_acted = True
        _open_turn(s, keep_idle=True)
        s.ply += 1
        return [NewTurnStarted(shooter=s.shooter, by_deadline=True)]
    if s.phase == "betting":
        if not s.bets.get(s.shooter, {}).get("shooter"):
            # The turn cannot be played without the shooter's bet: bets go back.
            events: list[Event] = [*_return_bets(s)]
            if len(eligible_shooters(s)) > 1:
                events.append(_pass_dice(s, "absent"))
            else:
                _open_turn(s)
                s.ply += 1
            return events
        if not s.bets_closed and s.rules.bet_seconds > 0:
            s.bets_closed = True
            s.ply += 1
            return [BettingClosed(by_deadline=True)]
        s.deadline_acted = True
        return _roll(s, dice, by_deadline=True)
    # rolling: keep as the best keeping would, then roll.
    s.deadline_acted = True
    events = []
    keep = best_keep(s)
    if keep:
        s.set_aside = [*s.set_aside, *keep]
        events.append(
            _event(
                DiceSetAside,
                shooter=s.shooter,
                dice=list(keep),
                set_aside=list(s.set_aside),
                by_deadline=True,
            )
        )
    events.extend(_roll(s, dice, by_deadline=True))
    return events


def _apply_abort(s: State, player: int | None, action: Abort, dice: Dice) -> list[Event]:
    events: list[Event] = []
    if s.roll_number == 0:
        events.extend(_return_bets(s))
    else:
        events.extend(_value_bets(s))
    s.finished = True
    s.phase = "betting"
    s.roll_number = 0
    s.ply += 1
    events.append(Aborted(by=player))
    return events


_RULEBOOK: Rulebook[State, Action, Event] = Rulebook(
    {
        Bet: _player_move(_check_bet, _apply_bet),
        Roll: _player_move(_check_roll, _apply_roll),
        SetAside: _player_move(_check_set_aside, _apply_set_aside),
        NewTurn: _player_move(_check_new_turn, _apply_new_turn),
        PassDice: _player_move(_check_pass, _apply_pass),
        Join: Move(_check_join, _apply_join),
        Leave: _player_move(_check_leave, _apply_leave),
        Deadline: Move(_check_deadline, _apply_deadline),
        Abort: Move(_check_abort, _apply_abort),
    },
    game="Fortunes and Winds",
    finished="This Fortunes and Winds table has closed.",
)


# -------------------------------------------------------------------- mutations
# Replace containers, never mutate them (kit.evolve shares them with the old state).


def _cover(s: State) -> None:
    """Keep a player banker's stake at the most the open bets could cost them."""
    if s.banker is not None:
        s.stakes = {**s.stakes, s.banker: _max_payout(s.bets)}


def _return_bets(s: State) -> list[Event]:
    events: list[Event] = []
    stakes = dict(s.stakes)
    for player, held in s.bets.items():
        for kind in BET_KINDS:
            amount = held.get(kind, 0)
            if amount:
                stakes[player] -= stake_of(kind, amount)
                events.append(BetReturned(player=player, bet=kind, amount=amount))
    s.stakes = stakes
    s.bets = {}
    _cover(s)
    return events


def _bank_key(s: State) -> int:
    return HOUSE if s.banker is None else s.banker


def _write(s: State, **changes: Any) -> None:
    """Write fields of the fresh copy at once, past pydantic's ``__setattr__`` (which cost
    a sixth of a turn, measured). Only on the copy :func:`~bot.games.kit.evolve` made,
    whose fields all count as set, and only with values of the field's type."""
    s.__dict__.update(changes)


# A white die's roll value (1..6) → its class: 1-3 the element, 4-5 the Wind, 6 a blank.
_CLASS_OF_ROLL = (-1, _ELEMENT, _ELEMENT, _ELEMENT, _WIND, _WIND, _BLANK)
_RESULT_OF: dict[tuple[int, str], Result] = {
    (_WIND if c.whites == "winds" else _ELEMENT, c.black): c.key for c in COMBINATIONS
}


def _roll(s: State, dice: Dice, *, by_deadline: bool) -> list[Event]:
    events: list[Event] = []
    roll_number = s.roll_number + 1
    if roll_number == 1:
        set_aside: list[str] = []
        if not s.bets_closed:
            events.append(BettingClosed(by_deadline=by_deadline))
        old_faces: dict[str, str] = {}
    else:
        set_aside = s.set_aside
        old_faces = s.faces
    faces: dict[str, str] = {}
    rolled: list[DieName] = []
    classes: set[int] = set()
    for die in WHITE_DICE:
        if die in set_aside:
            face = old_faces[die]
            faces[die] = face
            classes.add(_face_class(die, face))
        else:
            value = dice.roll(6)
            faces[die] = FACES[die][value - 1]
            classes.add(_CLASS_OF_ROLL[value])
            rolled.append(die)
    black = FACES["moon"][dice.roll(6) - 1]
    faces["moon"] = black
    rolled.append("moon")
    result: Result | None = None
    if black == "Moon":
        result = "moon"
    elif len(classes) == 1:
        result = _RESULT_OF.get((classes.pop(), black))
    if result is None and roll_number == 3:
        result = "nothing"
    _write(
        s,
        phase="rolling",
        set_aside=set_aside,
        bets_closed=True,
        roll_number=roll_number,
        ply=s.ply + 1,
        faces=faces,
    )
    events.append(
        _event(
            Rolled,
            shooter=s.shooter,
            roll=roll_number,
            faces=faces,
            rolled=rolled,
            set_aside=set_aside,
            result=result,
            by_deadline=by_deadline,
        )
    )
    if result is not None:
        events.extend(_end_turn(s, result))
    return events


def _end_turn(s: State, result: Result) -> list[Event]:
    roll_number = s.roll_number
    outcome: Outcome = (roll_number, result)
    combination = _BY_KEY.get(result)
    events: list[Event] = []
    payouts = dict(s.payouts)
    stakes = dict(s.stakes)
    bank = _bank_key(s)
    bets = s.bets
    # Seat order (a bettor who left mid-turn cannot exist: Leave waits for their bets).
    for player in s.seats:
        held = bets.get(player)
        if not held:
            continue
        for kind in held if len(held) == 1 else sorted(held, key=_KIND_ORDER.__getitem__):
            amount = held[kind]
            net = outcome_net(kind, amount, outcome)
            payouts[player] += net
            payouts[bank] -= net
            stakes[player] -= stake_of(kind, amount)
            events.append(
                _event(
                    BetSettled,
                    player=player,
                    bet=kind,
                    amount=amount,
                    won=net > 0,
                    net=net,
                    push=kind == "hungry" and net == 0,
                )
            )
    if s.banker is not None:
        stakes[s.banker] = 0
    shooter = s.shooter
    events.append(
        _event(
            TurnEnded,
            turn=s.turn,
            shooter=shooter,
            rolls=roll_number,
            result=result,
            won=combination is not None,
            combination=combination.name if combination else None,
        )
    )
    idle_turns = s.idle_turns + 1 if s.deadline_acted else 0
    _write(
        s,
        payouts=payouts,
        stakes=stakes,
        bets={},
        last_result=result,
        turn=s.turn + 1,
        idle_turns=idle_turns,
        roll_number=0,
        set_aside=[],
    )
    if combination is None:
        events.append(_pass_dice(s, "lost"))
    elif idle_turns >= 2 and len(eligible_shooters(s)) > 1:
        events.append(_pass_dice(s, "absent"))
    else:
        _write(s, phase="won", deadline_acted=False)
    return events


_KIND_ORDER: dict[str, int] = {kind: index for index, kind in enumerate(BET_KINDS)}


def _open_turn(s: State, *, keep_idle: bool = False) -> None:
    """Betting opens for a new turn of the current shooter."""
    _write(s, phase="betting", roll_number=0, set_aside=[], bets_closed=False)
    if not keep_idle:
        _write(s, deadline_acted=False)


def _new_shooter(s: State, shooter: int) -> None:
    _write(s, shooter=shooter, idle_turns=0)
    _open_turn(s)


def _pass_dice(s: State, reason: PassReason) -> DicePassed:
    giver = s.shooter
    _new_shooter(s, _next_shooter(s, giver))
    _write(s, ply=s.ply + 1)
    return DicePassed(from_player=giver, to_player=s.shooter, reason=reason)


def _close(s: State, reason: Literal["empty", "banker_left"]) -> list[Event]:
    s.finished = True
    s.phase = "betting"
    s.roll_number = 0
    s.ply += 1
    return [Closed(reason=reason)]


def _value_bets(s: State) -> list[Event]:
    """Settle every open bet at its exact value under the shooter's best keeping from
    now, rounded down for the player."""
    distribution = _current_distribution(s)
    payouts = dict(s.payouts)
    stakes = dict(s.stakes)
    bank = _bank_key(s)
    events: list[Event] = []
    for player, held in s.bets.items():
        for kind in BET_KINDS:
            amount = held.get(kind, 0)
            if not amount:
                continue
            value = sum(
                (p * outcome_net(kind, amount, outcome) for outcome, p in distribution.items()),
                Fraction(0),
            )
            net = math.floor(value)
            staked = stake_of(kind, amount)
            payouts[player] = payouts.get(player, 0) + net
            payouts[bank] = payouts.get(bank, 0) - net
            stakes[player] -= staked
            events.append(
                BetValued(player=player, bet=kind, amount=amount, returned=staked + net, net=net)
            )
    s.payouts = payouts
    s.stakes = stakes
    s.bets = {}
    _cover(s)
    return events


# ---------------------------------------------------------------------- the engine


class FortunesWindsEngine(Engine[Rules, State, Action, Event]):
    """Fortunes and Winds as the table service drives it (bot/games/contract.py)."""

    name = "fortunes_winds"
    join_action = Join
    leave_action = Leave
    permissions = PERMISSIONS

    def start(self, rules: Rules, players: list[int], dice: Dice) -> State:
        """Seat the players in order; the first seat shoots first (with a player banker,
        the first seat banks and the second shoots). No dice are used."""
        low, high = self.seat_limits(rules)
        if not low <= len(players) <= high:
            raise IllegalMove(f"A Fortunes and Winds table seats {low} to {high} players.")
        if len(set(players)) != len(players):
            raise IllegalMove("Each player can take only one seat.")
        if HOUSE in players:
            raise IllegalMove("That player id is reserved for the bank.")
        banker = players[0] if rules.player_banker else None
        shooter = players[1] if rules.player_banker else players[0]
        return State(
            rules=rules,
            seats=list(players),
            banker=banker,
            shooter=shooter,
            stakes={p: 0 for p in players},
            payouts={HOUSE: 0} | {p: 0 for p in players},
        )

    def act(
        self, state: State, player: int | None, action: Action, dice: Dice
    ) -> tuple[State, list[Event]]:
        """Apply one action by ``player`` (``None``: the table) to a copy of ``state``."""
        return _RULEBOOK.act(state, player, action, dice)

    def seat_limits(self, rules: Rules) -> tuple[int, int]:
        """One player at least (two with a player banker: one banks, one shoots)."""
        return (2 if rules.player_banker else 1, rules.max_players)

    def hold(self, rules: Rules) -> int:
        """Coins held on taking a seat: none, money goes down as bets."""
        return 0

    def deadline_seconds(self, state: State) -> int | None:
        """The betting window while it is open, else the shooter's time to act."""
        if state.finished:
            return None
        if betting_open(state) and state.rules.bet_seconds > 0:
            return state.rules.bet_seconds
        return state.rules.roll_seconds

    def legal_actions(self, state: State, player: int) -> list[Action]:
        """Every move ``player`` may make now (bets at the table minimum)."""
        candidates: list[Action] = [
            Roll(),
            NewTurn(),
            PassDice(),
            *(Bet(kind=kind, amount=state.rules.min_stake) for kind in BET_KINDS),
        ]
        if _keeping_now(state):
            free = [die for die in WHITE_DICE if die not in state.set_aside]
            room = 3 - len(state.set_aside)
            for size in range(1, room + 1):
                for combo in _subsets(free, size):
                    candidates.append(SetAside(dice=combo))
        return _RULEBOOK.legal_actions(state, player, candidates)

    def bank_exposure(self, state: State) -> int:
        """The most the house could pay out on the open bets (0 with a player banker,
        whose own wallet covers them through their stake)."""
        if state.banker is not None:
            return 0
        return banker_exposure(state)


def _subsets(items: Sequence[WhiteDie], size: int) -> Iterable[list[WhiteDie]]:
    if size == 0:
        yield []
        return
    for index, item in enumerate(items):
        for rest in _subsets(items[index + 1 :], size - 1):
            yield [item, *rest]


ENGINE = FortunesWindsEngine(
    rules_model=Rules, state_model=State, action_type=_TAGGED_ACTIONS, event_type=Event
)
"""Fortunes and Winds' engine; the module-level functions below are its bound methods."""

start = ENGINE.start
act = ENGINE.act
seat_limits = ENGINE.seat_limits
hold = ENGINE.hold
deadline_seconds = ENGINE.deadline_seconds
bank_exposure = ENGINE.bank_exposure
legal_actions = ENGINE.legal_actions
parse_action = ENGINE.parse_action
parse_event = ENGINE.parse_event
