"""Nihakyu's computer: each choice by its exact chance of winning the pot.

**Exact.** :mod:`bot.players.nihakyu_exact` works out the dynamic programme over the whole
public position (its Stamina, every other contender's, what it has left, and with Shinobi
Interference its own checks in later rounds): the choice maximises the true chance of
winning under the model below, and the chance it reports is what its play gets (tested
against a brute force over every state at small Stamina, in every variant, with one, two
and three others, and by playing its choices out). It is used wherever its work is at
most :data:`EXACT_WORK` (:func:`is_exact`, which reads the public position only):

- against one other contender (a table of two; the Dealer alone beside it), at the
  default Stamina in every variant and combination: a first decision in 10 to 60 ms,
  the rest of the game read from the same table;
- against two (a Dealer's Blood table of two, or three players), at the default Stamina,
  in every variant and combination but limited Shadow Steps beside Kage's Endurance
  (more than one use), limited Shadow Steps alone (more than three), and, where a natural
  1 on a check is caught, Kage's Endurance with limited Shadow Steps, or more than one:
  a run of the programme per decision (nothing kept but its answers), 0.12 to 0.3 s at the
  game's start on this 2-core machine, less as the Stamina falls, about 2 s of work over
  a game; those excepted become exact a few rounds in, once the programme fits;
- wherever else the programme fits: with three others, once every Stamina is at about
  60 or less (two layers of what is left).

Beyond it the computer falls back to the plan below, which decides by its own Stamina and
leaves out its own future checks. Measured against the programme (equal to the brute
force), over every state at small Stamina:

- three others, Stamina up to 40 (459,200 states): it chose worse in 5,069 by up to 0.63
  points of win chance with unlimited Shadow Steps, in 17,188 by up to 1.57 with Kage's
  Endurance too; the chance it reports is up to 1.7 points below the optimum, never
  above. With the default check (up to 30, 148,800 states): 213 and 1,037 states, up to
  0.49 and 1.27 points, reported up to 2.0 below (``test_the_plan_by_its_own_stamina_
  beside_three_others_is_measured`` holds the figures at 12). Its worst states lie at low
  Stamina, where the programme fits in a game and decides instead;
- two others at the default Stamina, in the settings excepted above, over the early
  positions where it decides (every Stamina 120 to 200): it chose as the programme in all
  531 to 723, and reported up to 3.1 points below (the checks it leaves out).

**The plan by its own Stamina** (the fallback), worked out by dynamic programming over
its own Stamina.

**Objective.** The chance that the computer is the game's winner: the last player
standing, or the one the tie rule picks when everyone left falls in the same round (the
highest Stamina before that round; equal highest go to sudden death, a fair 1 in k).
With Dealer's Blood a round the Dealer outlasts, or a tie it takes, is no win (the
Dealer's split of the pot is not counted).

**Model.** Choices are secret and simultaneous, so the others' cannot be seen: every
other contender (each standing player, and the Dealer, who must) Rolls one d20 every
round, as the deadline does for an absent player, each independently of the rest. Then
after ``t`` more rounds a contender who now has ``x`` Stamina is still standing at ``s``
with the exact chance that ``t`` d20 sum to ``x - s`` (:func:`sum_chance`), and the
contenders' joint state after ``t`` rounds, given the game is still on, no longer depends
on what the computer does. :func:`plan` is the dynamic programme over the round number,
the computer's Stamina and what it has left (Kage's Endurance; Shadow Steps), with each
choice's exact loss (Roll: one d20; Shadow Step: 5; Kage's Endurance: the lower of two
d20), the exact chance that the last contender falls in that round, and the exact tie
rule when the computer falls in the same round (its Stamina before the round against
theirs). It is the best plan that decides by the round, the computer's own Stamina and
its variants left; the computer re-plans every round from the Stamina then shown, so it
does use what the others' Stamina becomes. Chances are exact up to float rounding; the
rounds after every contender has fallen but :data:`FADE` are not played out.

**Choices.** The best chance; within :data:`TIE` of it, Roll, then Shadow Step, then
Kage's Endurance (a variant kept is a variant left for later). Kage's Endurance costs a
second ante, which would be the house bank's coins: the computer plays it only at a table
whose ante is 0 (the only Nihakyu table it sits at), where it costs nothing, and only
when the programme gives it the best chance.

**Sleight of Hand.** In the window every die of the round is known. The computer tries
the check, to move its own die by −1 (a +1 never helps it: more loss never raises its
chance, and the tie rule reads the Stamina before the round), when passing it raises its
exact chance of winning enough to outweigh the chance of being caught: passing is
``d20 + sleight_bonus >= 18`` and, under ``caught_on_natural_one``, a natural 1 is caught
whatever the bonus (:func:`sleight_odds`). The others' own Sleight decisions are secret:
their dice count as shown.

Randomness: none; ``dice`` is not used. Decisions read only public state (Stamina, who
stands, the revealed dice in the Sleight window) and the computer's own counts.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from operator import mul, sub

from bot.games import nihakyu
from bot.games.dice import Dice
from bot.players import nihakyu_exact as exact
from bot.players.nihakyu_exact import Sleight

SIDES = 20
SHADOW_LOSS = nihakyu.SHADOW_STEP_COST
FADE = 1e-12
"""The look-ahead stops once every contender has fallen but this much chance."""
TIE = 1e-10
"""Chances this close count as equal (well above the float error of the programme)."""
UNLIMITED = -1
"""``shadows_left`` when a table allows any number of Shadow Steps."""

ROLL, SHADOW_STEP, KAGE = "roll", "shadow_step", "kage"
PREFERENCE = (ROLL, SHADOW_STEP, KAGE)
"""The order of the choices on a tie (keep the variants for later)."""


# -- exact sums of d20 ------------------------------------------------------------------------


class _SumTable:
    """``rows[t][k]``: the chance that ``t`` d20 sum to ``k`` (``k`` up to ``top``), and
    ``below[t][k]``, that they sum to less than ``k``. Grown on demand and shared by every
    decision (the figures do not depend on the table). Rows are only ever appended, and a
    wider table replaces both lists at once, so a reader holding them (another thread's
    decision) keeps a consistent table."""

    def __init__(self) -> None:
        self.top = 0
        self.rows: list[list[float]] = []
        self.below: list[list[float]] = []
        self._lock = threading.Lock()

    def upto(self, rounds: int, top: int) -> tuple[list[list[float]], list[list[float]]]:
        """``rows`` and ``below`` with at least ``rounds`` rounds and totals up to ``top``."""
        with self._lock:
            if top > self.top:
                wider = max(top, 2 * self.top)
                rows: list[list[float]] = []
                below: list[list[float]] = []
                for _ in range(max(rounds, len(self.rows) - 1) + 1):
                    self._add_row(rows, below, wider)
                self.top, self.rows, self.below = wider, rows, below
            while len(self.rows) <= rounds:
                self._add_row(self.rows, self.below, self.top)
            return self.rows, self.below

    @staticmethod
    def _add_row(rows: list[list[float]], below: list[list[float]], top: int) -> None:
        if not rows:
            row = [0.0] * (top + 1)
            row[0] = 1.0
        else:
            # The next roll adds 1..20: a sliding window over the last row.
            cumulative = below[-1]
            row = [(cumulative[k] - cumulative[max(0, k - SIDES)]) / SIDES for k in range(top + 1)]
        below.append([0.0, *accumulate(row)])
        rows.append(row)


_SUMS = _SumTable()


def sum_chance(rolls: int, total: int) -> float:
    """The exact chance (to float rounding) that ``rolls`` d20 sum to ``total``."""
    if total < 0:
        return 0.0
    rows, _ = _SUMS.upto(rolls, total)
    return rows[rolls][total]


def standing_chance(stamina: int, rounds: int) -> float:
    """The chance that a contender with ``stamina`` who Rolls every round is still
    standing after ``rounds`` more rounds (``rounds`` d20 sum to less than ``stamina``)."""
    if stamina <= 0:
        return 0.0
    _, below = _SUMS.upto(rounds, stamina)
    return below[rounds][stamina]


# -- the contenders ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Contenders:
    """What the computer needs of the others, round by round from now (``t = 0``).

    ``going_on[t]``: the chance that some contender still stands after ``t`` rounds.
    ``ending[t]``: the chance that the last of them falls in round ``t + 1``, given some
    stood after ``t`` rounds. ``tie_win[t][c]`` (``c`` = 1..20): given some stood after
    ``t`` rounds, the chance that all of them fall in round ``t + 1`` and the tie rule
    picks the computer, falling in it too with ``c`` Stamina before it.
    """

    horizon: int
    """Rounds looked ahead: after this many, every contender has fallen but FADE."""
    going_on: tuple[float, ...]
    ending: tuple[float, ...]
    tie_win: tuple[tuple[float, ...], ...]


_FALL_AT_LEAST = tuple((SIDES + 1 - s) / SIDES if s <= SIDES else 0.0 for s in range(SIDES + 1))
"""``_FALL_AT_LEAST[s]``: the chance that a d20 shows ``s`` or more (``s`` = 1..20)."""
_NO_TIE = (0.0,) * (SIDES + 1)


@lru_cache(maxsize=512)
def contenders(staminas: tuple[int, ...]) -> Contenders:
    """:class:`Contenders` for others standing now at ``staminas`` (all above 0)."""
    if not staminas:
        return Contenders(0, (0.0,), (), ())
    top = max(staminas)
    horizon = 0
    going_on = [1.0]
    while going_on[-1] >= FADE:
        horizon += 1
        rows, below = _SUMS.upto(horizon, top)
        standing = below[horizon]
        # 1 - prod(1 - standing), without the cancellation of the far tail.
        all_fallen = sum(
            math.log1p(-standing[x]) if standing[x] < 1.0 else -math.inf for x in staminas
        )
        going_on.append(-math.expm1(all_fallen))
    ending = tuple(1.0 - going_on[t + 1] / going_on[t] for t in range(horizon))
    # Before every contender can be down to 20 (where one roll may fell them) no tie is
    # possible; after that, the tie rule round by round.
    tie_win = tuple(
        _NO_TIE
        if any(x - SIDES * t > SIDES for x in staminas)
        else _tie_wins(staminas, rows[t], below[t], going_on[t])
        for t in range(horizon)
    )
    return Contenders(horizon, tuple(going_on), ending, tie_win)


def _tie_wins(
    staminas: tuple[int, ...], rows: list[float], below: list[float], going_on: float
) -> tuple[float, ...]:
    """One round's ``tie_win`` of :class:`Contenders` (``rows`` and ``below`` of the dice
    sums after that many rounds), for c = 0..20 (index 0 unused)."""
    fallen = [1.0 - below[x] for x in staminas]
    # Polynomial in z, a list over c = 1..20 per power: the coefficient of z**m is the
    # chance that exactly m contenders stand at c after t rounds and fall in round t + 1
    # (a tie with the computer, settled by sudden death: 1 in m + 1) while every other
    # has fallen already or falls from below c.
    poly = [[1.0] * SIDES]
    for x, gone in zip(staminas, fallen, strict=True):
        equal = [rows[x - c] * _FALL_AT_LEAST[c] if x >= c else 0.0 for c in range(1, SIDES + 1)]
        lower = [gone + v for v in [0.0, *accumulate(equal)][:SIDES]]
        grown = [list(map(mul, poly[0], lower))]
        for m in range(1, len(poly)):
            grown.append(
                [
                    a * lo + b * eq
                    for a, b, lo, eq in zip(poly[m], poly[m - 1], lower, equal, strict=True)
                ]
            )
        grown.append(list(map(mul, poly[-1], equal)))
        poly = grown
    all_fallen_before = math.prod(fallen)
    wins = [
        max(0.0, sum(p / (m + 1) for m, p in enumerate(column)) - all_fallen_before) / going_on
        for column in zip(*poly, strict=True)
    ]
    return (0.0, *wins)


# -- the dynamic programme --------------------------------------------------------------------

Layer = tuple[bool, int]
"""What the computer has left: Kage's Endurance, Shadow Steps (UNLIMITED or a count)."""
Band = tuple[int, int]
"""The computer's Stamina ``low..high`` the programme works out in a round (may be empty)."""


@dataclass(frozen=True)
class Plan:
    """The programme's answer for the computer standing at any Stamina in ``low..high``
    now: ``choices[c]`` maps each choice open to its chance of winning (plans are cached
    and shared: read them, never change them)."""

    low: int
    high: int
    choices: dict[int, dict[str, float]]

    def value(self, stamina: int) -> float:
        """The best chance at ``stamina`` (0 when the computer has fallen)."""
        if stamina <= 0:
            return 0.0
        return max(self.choices[stamina].values())


def _options(layer: Layer) -> tuple[str, ...]:
    kage, shadows = layer
    return tuple(
        choice
        for choice, open_ in ((ROLL, True), (SHADOW_STEP, shadows != 0), (KAGE, kage))
        if open_
    )


def _after(layer: Layer, choice: str) -> Layer:
    kage, shadows = layer
    if choice == KAGE:
        return False, shadows
    if choice == SHADOW_STEP and shadows > 0:
        return kage, shadows - 1
    return layer


def _safe_above(layer: Layer, rounds: int) -> int:
    """Stamina above which the computer outlasts ``rounds`` more rounds whatever the dice
    (Shadow Steps while it has them, then the worst roll): its chance there is 1."""
    shadows = layer[1]
    steps = rounds if shadows == UNLIMITED else min(shadows, rounds)
    return SHADOW_LOSS * steps + SIDES * (rounds - steps)


_REACH = {ROLL: (1, SIDES), SHADOW_STEP: (SHADOW_LOSS, SHADOW_LOSS), KAGE: (1, SIDES)}
"""Each choice's least and greatest loss."""


def plan(low: int, high: int, others: Sequence[int], *, kage_left: bool, shadows_left: int) -> Plan:
    """Each choice's exact chance of winning for the computer at ``low..high`` Stamina
    now, against contenders standing at ``others`` (see the module's model)."""
    if low < 1 or high < low:
        raise ValueError(f"no Stamina range {low}..{high}")
    return _plan(low, high, tuple(sorted(others)), kage_left, shadows_left)


@lru_cache(maxsize=256)
def _plan(low: int, high: int, others: tuple[int, ...], kage_left: bool, shadows_left: int) -> Plan:
    field = contenders(others)
    horizon = field.horizon
    if 0 < horizon <= shadows_left:
        shadows_left = UNLIMITED  # more Shadow Steps than rounds left: as good as unlimited
    root: Layer = (kage_left, shadows_left)
    if horizon == 0:  # nobody else stands
        return Plan(
            low, high, {c: dict.fromkeys(_options(root), 1.0) for c in range(low, high + 1)}
        )
    bands = _bands(root, low, high, horizon)
    later: dict[Layer, tuple[Band, list[float]]] = {}
    answer: dict[int, dict[str, float]] = {}
    for t in range(horizon - 1, -1, -1):
        now: dict[Layer, tuple[Band, list[float]]] = {}
        successors: dict[tuple[Layer, int], tuple[list[float], list[float]]] = {}
        for layer, (lo, hi) in bands[t].items():
            choices = _choice_values(layer, lo, hi, later, successors, field, t)
            if t == 0 and layer == root:
                for c in range(lo, hi + 1):
                    answer[c] = {choice: values[c - lo] for choice, values in choices.items()}
            now[layer] = (
                (lo, hi),
                list(map(max, *choices.values()))
                if len(choices) > 1
                else next(iter(choices.values())),
            )
        later = now
    return Plan(low, high, answer)


def _bands(root: Layer, low: int, high: int, horizon: int) -> list[dict[Layer, Band]]:
    """Round by round, the Stamina the computer can have with each layer, keeping only
    what it can reach through Stamina below the safe line (:func:`_safe_above`): above
    it the chance is 1 and nothing further is needed (except now, for every choice)."""
    bands: list[dict[Layer, Band]] = [{root: (low, high)}]
    for t in range(horizon - 1):
        reached: dict[Layer, Band] = {}
        for layer, (lo, hi) in bands[t].items():
            for choice in _options(layer):
                least, most = _REACH[choice]
                target = _after(layer, choice)
                new_lo = max(1, lo - most)
                new_hi = min(hi - least, _safe_above(target, horizon - t - 1))
                if new_hi < new_lo:
                    continue
                old = reached.get(target)
                reached[target] = (
                    (new_lo, new_hi) if old is None else (min(old[0], new_lo), max(old[1], new_hi))
                )
        bands.append(reached)
    bands.append({})
    return bands


def _successor(
    later: dict[Layer, tuple[Band, list[float]]], target: Layer, base: int, top: int
) -> list[float]:
    """The chance of winning from each Stamina ``base..top`` at the start of the next
    round with ``target`` left: 0 at 0 or below (a fall is counted apart, by the tie
    rule), 1 above what the programme worked out (the safe line)."""
    start = max(base, 1)
    found = later.get(target)
    if found is None:
        return [0.0] * (start - base) + [1.0] * (top - start + 1)
    (low, high), values = found
    # Below ``low`` lies Stamina this choice cannot reach from here: never read.
    first = max(start, low)
    end = min(top, high)
    inside = values[first - low : end - low + 1]
    return [0.0] * (first - base) + inside + [1.0] * (top - max(end, first - 1))


def _choice_values(
    layer: Layer,
    lo: int,
    hi: int,
    later: dict[Layer, tuple[Band, list[float]]],
    successors: dict[tuple[Layer, int], tuple[list[float], list[float]]],
    field: Contenders,
    t: int,
) -> dict[str, list[float]]:
    """Each open choice's chance of winning at Stamina ``lo..hi`` in round ``t + 1``.

    Surviving the round at ``x`` is worth ``ending + going * V(x)`` (the last contender
    falls in it, or the game goes on); the lists hold ``V`` and each choice applies that
    step to its own window (Stamina 21 and up cannot fall in a round: there the part of
    ``ending`` is whole; below, the fall is counted by the tie rule).

    Long because: one numeric kernel of the solver's inner loop; the three choices'
    blocks share its windows and running sums (``next_of``, ``ending``, ``ties``)."""
    count = hi - lo + 1
    base = lo - SIDES  # index 0 of the successor lists is Stamina lo - 20

    def next_of(target: Layer) -> tuple[list[float], list[float]]:
        # The successor list and its running sums, shared by the layers of this round.
        key = (target, base)
        found = successors.get(key)
        if found is None or len(found[0]) < count + SIDES - 1:
            values = _successor(later, target, base, hi - 1)
            found = successors[key] = (values, [0.0, *accumulate(values)])
        return found

    ending = field.ending[t]
    going = 1.0 - ending
    ties = field.tie_win[t]
    falls = range(lo, min(hi, SIDES) + 1)
    _, sums = next_of(layer)
    # A Roll from Stamina c (index j = c - base) reaches indices j - 20 .. j - 1.
    step = going * _ONE_IN
    window = list(map(sub, sums[SIDES : SIDES + count], sums[:count]))
    roll = [ending + step * w for w in window]
    for c in falls:
        survive = (c - 1) * _ONE_IN
        roll[c - lo] = ending * survive + step * window[c - lo] + _FALL_AT_LEAST[c] * ties[c]
    values = {ROLL: roll}
    if layer[1] != 0:
        stepped, _ = next_of(_after(layer, SHADOW_STEP))
        at = SIDES - SHADOW_LOSS
        shadow = [ending + going * v for v in stepped[at : at + count]]
        for c in range(lo, min(hi, SHADOW_LOSS) + 1):
            shadow[c - lo] = ties[c]
        values[SHADOW_STEP] = shadow
    if layer[0]:
        kage_next, p = next_of(_after(layer, KAGE))
        q = [0.0, *accumulate(map(mul, range(len(kage_next)), kage_next))]
        # The lower of two d20 is l with chance (41 - 2l) / 400; at index i = j - l that
        # weight is (41 - 2j + 2i) / 400: running sums of V and of i * V give the window.
        spread = map(sub, p[SIDES : SIDES + count], p[:count])
        ramp = map(sub, q[SIDES : SIDES + count], q[:count])
        both = going * _ONE_IN_BOTH
        kage = [
            ending + both * (w * a + 2.0 * b)
            for w, a, b in zip(range(1, 1 - 2 * count, -2), spread, ramp, strict=True)
        ]
        for c in falls:
            fall = _FALL_AT_LEAST[c] ** 2
            kage[c - lo] += fall * (ties[c] - ending)
        values[KAGE] = kage
    return values


_ONE_IN = 1.0 / SIDES
_ONE_IN_BOTH = 1.0 / SIDES**2


KEEP_CELLS = 400_000
"""The largest whole-position programme (:func:`bot.players.nihakyu_exact.cells`) kept
whole, every state's chances, to answer the rest of the game at once (about 10 MB: one
other at the default Stamina with up to three limited Shadow Steps and Kage's Endurance)."""
EXACT_WORK = 33_000_000
"""The largest programme (:func:`bot.players.nihakyu_exact.work`) the computer runs for a
decision: at most about 0.3 s on this 2-core machine when idle (0.45 s with other work on
it). At the default Stamina it holds two others with up to four layers of what the
computer has left (Kage's Endurance or not, times unlimited, no, or each count of limited
Shadow Steps), two where a check can be caught; a larger one falls back to the plan by
its own Stamina."""


def is_exact(
    stamina: int, others: Sequence[int], *, kage_left: bool, shadows_left: int, sleight: Sleight
) -> bool:
    """Whether the computer decides this position by the exact programme (else by the plan
    by its own Stamina): it depends on the public position only."""
    if not others:
        return True
    root = (kage_left, shadows_left)
    return exact.work(len(others), max(others), stamina, root, sleight) <= EXACT_WORK


def _exact(
    cs: Sequence[int], standing: Sequence[int], root: Layer, sleight: Sleight
) -> list[dict[str, float]] | None:
    """Each choice's exact chance at each Stamina in ``cs`` against others standing at
    ``standing``, with ``root`` left: from a kept table, or a run of the programme kept
    nowhere; ``None`` when the programme is larger than :data:`EXACT_WORK`."""
    top, others, side = max(cs), len(standing), max(standing)
    if exact.cells(others, side, top, root) <= KEEP_CELLS:
        found = exact.table(others, side, top, root, sleight)
        return [found.chances(c, standing, root) for c in cs]
    if exact.work(others, side, top, root, sleight) <= EXACT_WORK:
        return exact.chances(cs, standing, root, sleight)
    return None


def win_chances(
    stamina: int,
    others: Sequence[int],
    *,
    kage_left: bool,
    shadows_left: int,
    sleight: Sleight = None,
) -> dict[str, float]:
    """Each choice open now and its exact chance of winning (see the module's model).
    ``shadows_left``: :data:`UNLIMITED`, or how many Shadow Steps are left (0: none);
    ``sleight``: with Shinobi Interference, :func:`sleight_odds` (the computer's own checks
    in later rounds count)."""
    root = (kage_left, shadows_left)
    standing = sorted(others)
    if not standing:
        return dict.fromkeys(_options(root), 1.0)
    found = _exact([stamina], standing, root, sleight)
    if found is not None:
        return found[0]
    by_own = plan(stamina, stamina, others, kage_left=kage_left, shadows_left=shadows_left)
    return dict(by_own.choices[stamina])  # a copy: the plan is cached


def best_choice(chances: dict[str, float]) -> str:
    """The best chance; within :data:`TIE` of it, the earliest of :data:`PREFERENCE`."""
    best = max(chances.values())
    return next(c for c in PREFERENCE if c in chances and chances[c] >= best - TIE)


def sleight_odds(rules: nihakyu.Rules) -> tuple[float, float]:
    """The exact chances that a Sleight of Hand check passes, and that it is caught."""
    caught = 1 if rules.caught_on_natural_one else 0
    passes = sum(
        1
        for face in range(1, SIDES + 1)
        if face + rules.sleight_bonus >= nihakyu.SLEIGHT_DC and not (caught and face == 1)
    )
    return passes / SIDES, caught / SIDES


# -- what the seat may see --------------------------------------------------------------------


def _others_standing(state: nihakyu.State, seat: int) -> list[int]:
    """The other standing contenders' Stamina (the Dealer's too): public."""
    return [
        stamina
        for player, stamina in state.stamina.items()
        if player != seat and stamina > 0 and player not in state.eliminated
    ]


def _shadows_left(state: nihakyu.State, seat: int) -> int:
    rules = state.rules
    if not rules.shadow_step:
        return 0
    if rules.shadow_step_uses is None:
        return UNLIMITED
    return max(0, rules.shadow_step_uses - state.shadow_steps.get(seat, 0))


def _kage_left(state: nihakyu.State, seat: int) -> bool:
    """Kage's Endurance is open to the computer: played here, unused, and free (ante 0:
    its second ante would be the house bank's coins)."""
    rules = state.rules
    return rules.kage_endurance and rules.ante == 0 and seat not in state.kage_used


_ACTIONS: dict[str, nihakyu.Roll | nihakyu.ShadowStep | nihakyu.KageEndurance] = {
    ROLL: nihakyu.Roll(),
    SHADOW_STEP: nihakyu.ShadowStep(),
    KAGE: nihakyu.KageEndurance(),
}


def decide(state: nihakyu.State, seat: int, dice: Dice) -> nihakyu.Action | None:
    """The computer's choice for the round, or its Sleight of Hand decision; ``None``
    when nothing is its to decide (not seated or out, already decided, game over)."""
    if state.finished or seat not in state.seats or state.stamina.get(seat, 0) <= 0:
        return None
    if state.phase == "choosing":
        if seat in state.choices:
            return None
        shadows, kage = _shadows_left(state, seat), _kage_left(state, seat)
        if shadows == 0 and not kage:
            return _ACTIONS[ROLL]  # nothing to choose between
        chances = win_chances(
            state.stamina[seat],
            _others_standing(state, seat),
            kage_left=kage,
            shadows_left=shadows,
            sleight=_sleight(state.rules),
        )
        return _ACTIONS[best_choice(chances)]
    if state.phase == "sleight" and seat in state.sleight_players and seat not in state.sleights:
        return nihakyu.Sleight(adjust=-1) if sleight_pays(state, seat) else nihakyu.SkipSleight()
    return None


def sleight_chances(state: nihakyu.State, seat: int) -> tuple[float, float]:
    """The computer's exact chance of winning if it skips the Sleight of Hand check, and
    if it tries it (−1 on its own die), from the dice shown in the open window."""
    before = state.stamina
    own = before[seat]
    loss = min(state.rolls[seat])
    # The others as shown (their own checks are secret), without anyone forfeiting.
    after: dict[int, int] = {}
    for player, shown in state.rolls.items():
        if player == seat or before.get(player, 0) <= 0 or player in state.forfeiting:
            continue
        after[player] = before[player] - (min(shown) if shown else SHADOW_LOSS)
    standing = sorted(x for x in after.values() if x > 0)
    fell_with = [before[p] for p, x in after.items() if x <= 0]
    kage = _kage_left(state, seat) and state.choices.get(seat) != KAGE
    shadows = _shadows_left(state, seat)

    lefts = [x for x in (own - loss, own - loss + 1) if x > 0]
    root, odds = (kage, shadows), _sleight(state.rules)
    exactly = _exact(lefts, standing, root, odds) if lefts and standing else None

    def chance(left: int) -> float:
        if left > 0:
            if not standing:
                return 1.0
            if exactly is not None:
                return max(exactly[lefts.index(left)].values())
            return plan(left, left, standing, kage_left=kage, shadows_left=shadows).value(left)
        if standing:
            return 0.0
        # Everyone left fell this round: the highest Stamina before it wins, equals by
        # sudden death (1 in k).
        best = max(fell_with, default=0)
        if own > best:
            return 1.0
        if own < best:
            return 0.0
        return 1.0 / (1 + fell_with.count(own))

    passes, caught = sleight_odds(state.rules)
    plain = chance(own - loss)
    if loss <= 1:
        return plain, plain  # the die cannot go below 1: the check would change nothing
    tried = passes * chance(own - loss + 1) + (1.0 - passes - caught) * plain
    return plain, tried


def _sleight(rules: nihakyu.Rules) -> Sleight:
    """The computer's own check in later rounds, when the table plays Shinobi Interference."""
    return sleight_odds(rules) if rules.shinobi_interference else None


def sleight_pays(state: nihakyu.State, seat: int) -> bool:
    """Whether trying the check raises the computer's chance of winning (by more than
    :data:`TIE`)."""
    plain, tried = sleight_chances(state, seat)
    return tried > plain + TIE
