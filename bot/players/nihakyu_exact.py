"""Nihakyu's computer, exactly: the dynamic programme over the whole public position.

**Model** (the one :mod:`bot.players.nihakyu` states): every other contender (each
standing player, and the Dealer) Rolls one d20 every round, each independently; the
computer chooses Roll, Shadow Step or Kage's Endurance each round and, with Shinobi
Interference, after seeing the round's dice, whether to try a Sleight of Hand check on its
own die (−1: passes with chance ``p``, is caught with chance ``q``, which removes it from
the game, and else changes nothing; a die showing 1 cannot go lower). It wins when it is
the last one standing, or when everyone left falls in the same round and the tie rule
(the highest Stamina before that round; equal highest, sudden death: 1 in k) picks it.

**The programme.** The state at the start of a round is the computer's Stamina ``c``,
the others' Stamina ``y`` (one coordinate each) and what it has left (Kage's Endurance,
Shadow Steps): :func:`table` works out, for every ``c`` up to a top and every ``y`` in a
box, the best chance of winning, so the computer decides by what the others' Stamina will
be in later rounds too, as it will see it (a plan by its own Stamina alone chose worse in
some states with Shadow Step and reported less than its play got). The others' rolls are
independent, so their average is a window of 20 along each coordinate in turn; a
coordinate at 0 stands for an other who has fallen (its value is the smaller programme
without them, down to "nobody else stands": 1). Everything is exact up to float rounding;
nothing is cut off.

**Cost.** ``top × (side + 1) ** others`` cells for each of the computer's layers (Kage
left or not, Shadow Steps left), each a few dozen float operations: one other at the
default Stamina is a few tens of milliseconds, and a table, once made, answers every later
round of the game (a later position lies inside its box). :func:`cells` gives the size, so
the caller can tell what it would cost before asking.
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, product

SIDES = 20
SHADOW_LOSS = 5
UNLIMITED = -1
ROLL, SHADOW_STEP, KAGE = "roll", "shadow_step", "kage"
_ONE_IN = 1.0 / SIDES

Layer = tuple[bool, int]
"""What the computer has left: Kage's Endurance, Shadow Steps (UNLIMITED or a count)."""
Sleight = tuple[float, float] | None
"""Shinobi Interference: the chances that the computer's check passes and is caught;
``None`` when the table plays without it."""

# The lower of two d20 is l with chance (41 - 2l) / 400.
_KAGE_AT = tuple(0.0 if loss == 0 else (41 - 2 * loss) / 400 for loss in range(SIDES + 1))


def _kage_above(loss: int) -> float:
    """The chance that the lower of two d20 is above ``loss``."""
    return ((SIDES - loss) / SIDES) ** 2 if loss < SIDES else 0.0


def _window(line: list[float]) -> list[float]:
    """The average over one d20 along a line: ``line[z]`` is the value at ``z`` (0: fallen,
    whatever the roll took below 1); the result at ``y`` = 1.. is the average of the
    values at ``y - 1 .. y - 20`` (those at 0 or below all read ``line[0]``)."""
    fallen = line[0]
    sums = [0.0, *accumulate(line[1:])]
    top = len(line) - 1
    head = [
        (sums[y - 1] + (SIDES + 1 - y) * fallen) * _ONE_IN for y in range(1, min(top, SIDES) + 1)
    ]
    tail = [
        (a - b) * _ONE_IN for a, b in zip(sums[SIDES:top], sums[: max(0, top - SIDES)], strict=True)
    ]
    return [fallen, *head, *tail]


def _average(grid: list[float], side: int, others: int) -> list[float]:
    """The average over every other's roll of ``grid`` (one coordinate per other, each
    ``0..side - 1``, the last fastest): one window along each coordinate in turn. Cells with
    a coordinate at 0 come out meaningless and are never read."""
    for axis in range(others):
        stride: int = side ** (others - 1 - axis)
        block = stride * side
        out = grid[:]
        for start in range(0, len(grid), block):
            for offset in range(start, start + stride):
                out[offset : offset + block : stride] = _window(
                    grid[offset : offset + block : stride]
                )
        grid = out
    return grid


Row = Sequence[float]
"""One grid of chances: a list while it is worked out, an array of doubles once kept."""


@dataclass(frozen=True)
class _Rows:
    """One layer's rows, by the computer's Stamina ``c`` (index 0 unused): ``value[c]`` the
    best chance at the start of a round with every coordinate (0: that other has fallen),
    ``after[c]`` its average over the others' rolls, ``tried[c]`` the same where the
    computer's own die would leave it at ``c`` and it may try the check for ``c + 1``."""

    value: list[Row]
    after: list[Row]
    tried: list[Row]


class Table:
    """The programme for ``others`` other contenders, each at most ``side - 1`` Stamina,
    and the computer at most ``top``, for the layers reachable from ``root``."""

    def __init__(
        self, others: int, side: int, top: int, root: Layer, sleight: Sleight, below: Table | None
    ) -> None:
        self.others, self.side, self.top, self.root, self.sleight = others, side, top, root, sleight
        self.below = below
        self.coords = list(product(range(side), repeat=others))
        self.rows: dict[Layer, _Rows] = {}
        self._faces = self._face_cells()
        self._all_fall = [self._all_fall_at(ys) for ys in self.coords]
        self._ties = {c: self._tie_grid(c) for c in range(1, min(top, SIDES) + 1)}
        for layer in _layers(root, top):
            self.rows[layer] = self._solve(layer)

    # -- the others' side ---------------------------------------------------------------------

    def _face_cells(self) -> list[tuple[int, tuple[int, ...]]]:
        """Cells where some other has fallen, with the standing others' coordinates."""
        return [
            (index, tuple(y for y in ys if y)) for index, ys in enumerate(self.coords) if 0 in ys
        ]

    @staticmethod
    def _all_fall_at(ys: tuple[int, ...]) -> float:
        """The chance that every other falls this round (all standing at ``ys``)."""
        chance = 1.0
        for y in ys:
            chance *= max(0, SIDES + 1 - y) / SIDES if y else 0.0
        return chance

    def _tie_grid(self, c: int) -> list[float]:
        """The tie rule's share for the computer falling from ``c`` with every other
        falling from ``ys``, times the chance they all fall."""
        grid = []
        for ys, fall in zip(self.coords, self._all_fall, strict=True):
            if not fall or max(ys) > c:
                grid.append(0.0)
            else:
                grid.append(fall / (1 + ys.count(c)))
        return grid

    def value_at(self, layer: Layer, c: int, ys: Sequence[int]) -> float:
        """The best chance at ``c`` against others at ``ys`` (any order; 0: fallen)."""
        standing = sorted(y for y in ys if y > 0)
        if c <= 0:
            return 0.0
        if not standing:
            return 1.0
        table: Table | None = self
        while table is not None and table.others > len(standing):
            table = table.below
        assert table is not None and table.others == len(standing)
        assert c <= table.top and standing[-1] < table.side
        return table.rows[_effective(layer, table.top)].value[c][table._index(standing)]

    def chances(self, c: int, ys: Sequence[int], layer: Layer) -> dict[str, float]:
        """Each choice open with ``layer`` left, and its chance of winning, at ``c`` against
        others standing at ``ys`` (as many as this table's, each within its box)."""
        standing = sorted(ys)
        assert len(standing) == self.others and standing[0] > 0 and standing[-1] < self.side
        grids = self.choices(_effective(layer, self.top), c)
        index = self._index(standing)
        return {choice: grid[index] for choice, grid in grids.items()}

    def _index(self, ys: Sequence[int]) -> int:
        index = 0
        for y in ys:
            index = index * self.side + y
        return index

    # -- the programme ----------------------------------------------------------------------

    def _solve(self, layer: Layer) -> _Rows:
        size = len(self.coords)
        empty: list[float] = []
        rows = _Rows([empty], [empty], [empty])
        for c in range(1, self.top + 1):
            choices = self.choices(layer, c, rows)
            best: list[float] = (
                list(map(max, *choices.values())) if len(choices) > 1 else list(choices[ROLL])
            )
            for index, standing in self._faces:
                best[index] = self.below.value_at(layer, c, standing) if self.below else 1.0
            assert len(best) == size
            # Kept as arrays of doubles: a quarter of the memory of lists of floats.
            rows.value.append(array("d", best))
            rows.after.append(array("d", _average(best, self.side, self.others)))
            if self.sleight is not None and c > 1:
                # ``tried[c - 1]`` needs the row above it: made now (read from c + 1 on).
                rows.tried.append(array("d", self._tried(rows.value[c - 1], best)))
        return rows

    def _tried(self, plain: Row, better: Row) -> list[float]:
        """The average over the others' rolls of the better of not trying (``plain``) and
        trying (``better`` with the chance the check passes, nothing if caught)."""
        assert self.sleight is not None
        passes, caught = self.sleight
        stays = 1.0 - passes - caught
        mixed = [max(a, passes * b + stays * a) for a, b in zip(plain, better, strict=True)]
        return _average(mixed, self.side, self.others)

    def choices(self, layer: Layer, c: int, rows: _Rows | None = None) -> dict[str, Row]:
        """Each choice open in ``layer`` at Stamina ``c``: its chance of winning over the
        whole grid. ``rows``: this layer's rows while they are being made."""
        own = rows if rows is not None else self.rows[layer]
        kage, shadows = layer
        values: dict[str, Row] = {ROLL: self._rolled(own, c, _KAGE_ONE)}
        if shadows != 0:
            target = _effective(_after(layer, SHADOW_STEP), self.top)
            stepped = own if target == layer else self.rows[target]
            if c > SHADOW_LOSS:
                values[SHADOW_STEP] = stepped.after[c - SHADOW_LOSS]
            else:
                values[SHADOW_STEP] = self._ties[c]
        if kage:
            values[KAGE] = self._rolled(
                self.rows[_effective(_after(layer, KAGE), self.top)], c, _KAGE_AT
            )
        return values

    def _rolled(self, rows: _Rows, c: int, chance: Sequence[float]) -> list[float]:
        """A roll's chance of winning from ``c`` (``chance[l]``: the loss is ``l``), the
        rounds after read from ``rows``."""
        total = [0.0] * len(self.coords)
        for loss in range(1, min(SIDES, c - 1) + 1):
            # A die at 1 cannot go lower: its check would change nothing.
            after = (
                rows.after[c - loss] if loss == 1 or self.sleight is None else rows.tried[c - loss]
            )
            weight = chance[loss]
            total = [t + weight * a for t, a in zip(total, after, strict=True)]
        if c <= SIDES:
            ties = self._ties[c]
            falls = chance[c]
            beyond = _above(chance, c)
            if self.sleight is not None and c > 1:
                # Falling from c exactly: a passed check leaves it at 1 instead.
                passes, caught = self.sleight
                stays = 1.0 - passes - caught
                at_one = rows.after[1]
                # Unless everyone falls too, trying only gains; if they do, the tie
                # rule's share is weighed against the check (``ties`` holds share × fall).
                edge = [
                    passes * (a - fall) + max(tie, passes * fall + stays * tie)
                    for a, fall, tie in zip(at_one, self._all_fall, ties, strict=True)
                ]
            else:
                edge = ties
            total = [
                t + falls * e + beyond * tie for t, e, tie in zip(total, edge, ties, strict=True)
            ]
        return total


_KAGE_ONE = tuple(0.0 if loss == 0 else _ONE_IN for loss in range(SIDES + 1))
"""A plain roll: each loss 1..20 with chance 1/20 (named for the shape it shares)."""


def _above(chance: Sequence[float], loss: int) -> float:
    return sum(chance[loss + 1 :])


def _after(layer: Layer, choice: str) -> Layer:
    kage, shadows = layer
    if choice == KAGE:
        return False, shadows
    if choice == SHADOW_STEP and shadows > 0:
        return kage, shadows - 1
    return layer


def _effective(layer: Layer, top: int) -> Layer:
    """More Shadow Steps than the computer can take from ``top`` (each costs 5) are as
    good as unlimited."""
    kage, shadows = layer
    if shadows != UNLIMITED and shadows * SHADOW_LOSS >= top:
        return kage, UNLIMITED
    return layer


def _layers(root: Layer, top: int) -> list[Layer]:
    """The layers reachable from ``root``, each after the layers it leads to."""
    kage, shadows = _effective(root, top)
    counts = [UNLIMITED] if shadows == UNLIMITED else list(range(shadows + 1))
    kages = [False, True] if kage else [False]
    return [(k, s) for k in kages for s in counts]


def cells(others: int, side: int, top: int, root: Layer) -> int:
    """The programme's size: cells over every table it needs (with fewer others too)."""
    layers = len(_layers(root, top))
    grid: int = sum((side + 1) ** k for k in range(1, others + 1))
    return layers * top * grid


_CACHE: OrderedDict[tuple[object, ...], Table] = OrderedDict()
_CACHE_SIZE = 4
_LOCK = threading.Lock()


def table(others: int, side: int, top: int, root: Layer, sleight: Sleight) -> Table:
    """The programme covering the computer at up to ``top`` Stamina with what ``root``
    leaves it, against ``others`` contenders at up to ``side`` each. A table made for a
    larger box answers too (a game only goes down), so each game makes about one."""
    kage, shadows = root
    with _LOCK:
        for key, found in reversed(_CACHE.items()):
            if (
                key[:2] == (others, sleight)
                and found.top >= top
                and found.side > side
                and _covers(found.root, root, found.top)
            ):
                _CACHE.move_to_end(key)
                return found
        below: Table | None = None
        for k in range(1, others + 1):
            below = Table(k, side + 1, top, root, sleight, below)
        assert below is not None
        _CACHE[(others, sleight, side, top, kage, shadows)] = below
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
        return below


def _covers(made: Layer, wanted: Layer, top: int) -> bool:
    """Whether a table made from ``made`` holds the rows of ``wanted``."""
    return _effective(wanted, top) in _layers(made, top)
