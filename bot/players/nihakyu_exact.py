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
the others' Stamina ``y`` (one coordinate each, 0 for one who has fallen) and what it has
left (Kage's Endurance, Shadow Steps). Every choice's chance at ``c`` reads only states
with less Stamina for everyone, so the programme runs up ``c`` = 1, 2, ... and works out
each row (every ``y`` in a box, every layer of what is left) at once, in NumPy arrays:

- the average over the others' rolls of the best chance, :math:`A_c`, is a window of 20
  along each of their coordinates in turn (they roll independently; a coordinate at 0 or
  below reads the value at 0, the smaller game without them, down to "nobody else
  stands": 1);
- a Roll's chance is the mean of :math:`A_{c-1} .. A_{c-20}`, Kage's Endurance weighs them
  by the chance that the lower of two d20 is that loss, ``(41 - 2l) / 400``: running sums
  over ``c`` (a plain one and a ramp), so a row costs the same whatever its place;
- a Shadow Step's is :math:`A_{c-5}` of the layer with one fewer left;
- with Shinobi Interference the rows after a roll are those where the computer, seeing
  the dice, tries the check when it pays: ``max(V_c', p V_{c'+1} + (1 - p - q) V_c')``
  averaged over the others' rolls (when ``q`` is 0 trying always pays, more Stamina never
  being worth less, and that average is ``p A_{c'+1} + (1 - p) A_c'``);
- falls (``c`` up to 20) by the tie rule, with the check's chance to stay at 1.

Everything is exact up to float rounding (float64; nothing is cut off): tested against a
brute force over every state and every choice at small Stamina, in every variant, with
one, two and three others.

**Cost.** ``layers × top × side ** others`` cells (:func:`cells`), each a few dozen float
operations, in about ``top`` steps of NumPy work. A :class:`Table` keeps every choice's
chance for every state of its box (small boxes: one other at the default Stamina, and the
tests), so one programme answers the whole game; a larger programme (two others at the
default Stamina) keeps nothing but the chances asked of it (:func:`probe`), its memory a
ring of 21 rows, and runs again for the next decision in the smaller box the game has
reached. :mod:`bot.players.nihakyu` decides which, and where the programme is too large
to run in a click.
"""

from __future__ import annotations

import math
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

SIDES = 20
SHADOW_LOSS = 5
UNLIMITED = -1
ROLL, SHADOW_STEP, KAGE = "roll", "shadow_step", "kage"
_ONE_IN = 1.0 / SIDES
_ONE_BY_ONE = 4096
"""Grids of at least this many cells are averaged one layer at a time."""
_RING = SIDES + 1
"""Rows of the averages kept while the programme runs: a running sum over the last 20
drops the row 20 back, and a row is written over once it is 21 back."""

Layer = tuple[bool, int]
"""What the computer has left: Kage's Endurance, Shadow Steps (UNLIMITED or a count)."""
Sleight = tuple[float, float] | None
"""Shinobi Interference: the chances that the computer's check passes and is caught;
``None`` when the table plays without it."""
Grid = NDArray[np.float64]

# The lower of two d20 is l with chance (41 - 2l) / 400 (index 0 unused).
_KAGE_AT = tuple(0.0 if loss == 0 else (41 - 2 * loss) / 400 for loss in range(SIDES + 1))


def _effective(layer: Layer, top: int) -> Layer:
    """More Shadow Steps than the computer can take from ``top`` (each costs 5) are as
    good as unlimited."""
    kage, shadows = layer
    if shadows != UNLIMITED and shadows * SHADOW_LOSS >= top:
        return kage, UNLIMITED
    return layer


@dataclass(frozen=True)
class _Layers:
    """The layers reachable from a root, as two leading array axes: Kage's Endurance
    (index 1: left; 0: used, or not played) and Shadow Steps left (index ``s`` with a
    count, one index when they do not count down: unlimited or none)."""

    kage: bool
    shadows: int
    """UNLIMITED, 0 or the count left (already made effective)."""

    @classmethod
    def of(cls, root: Layer, top: int) -> _Layers:
        kage, shadows = _effective(root, top)
        return cls(kage, shadows)

    @property
    def dims(self) -> tuple[int, int]:
        return (2 if self.kage else 1, self.shadows + 1 if self.shadows > 0 else 1)

    @property
    def count(self) -> int:
        return self.dims[0] * self.dims[1]

    def index(self, layer: Layer, top: int) -> tuple[int, int] | None:
        """Where ``layer`` lies among these, or ``None`` when it is not reachable."""
        kage, shadows = _effective(layer, top)
        if kage and not self.kage:
            return None
        if self.shadows == UNLIMITED or self.shadows == 0:
            return (int(kage), 0) if shadows == self.shadows else None
        if shadows == UNLIMITED or shadows > self.shadows:
            return None
        return int(kage), shadows


class _Window:
    """``x[y - 1] + .. + x[y - 20]`` along the first of the others' coordinates (one at 0
    or below reads ``x[0]``; at 0 itself, 20 ``x[0]``: a contender who has fallen stays
    fallen), by doubling (sums of 2, 4, 8, 16 and 4 more) in buffers made once. It reads
    ``x`` with its last coordinate moved to the front, and writes ``out`` in that order:
    as many passes as coordinates bring every one to the front once and the order back
    (the reads are the strided ones, a copy faster than strided sums; every write is
    contiguous). The input may be the output."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.side = side = shape[2]
        lead, rest = shape[:2], shape[3:]
        self.pad = np.empty((*lead, side + 20, *rest))
        self.twos = np.empty((*lead, side + 19, *rest))
        self.fours = np.empty((*lead, side + 17, *rest))
        self.sixteens = np.empty((*lead, side + 5, *rest))

    def __call__(self, x: Grid, out: Grid) -> None:
        side, pad, twos, fours = self.side, self.pad, self.twos, self.fours
        # pad[p] is x[p - 20], and x[0] below: the window at y is pad[y .. y + 19].
        np.copyto(pad[:, :, SIDES:], np.moveaxis(x, -1, 2))
        pad[:, :, :SIDES] = pad[:, :, SIDES : SIDES + 1]
        np.add(pad[:, :, 1:], pad[:, :, :-1], out=twos)
        np.add(twos[:, :, 2:], twos[:, :, :-2], out=fours)
        eights = twos[:, :, : side + 13]
        np.add(fours[:, :, 4:], fours[:, :, :-4], out=eights)
        np.add(eights[:, :, 8:], eights[:, :, :-8], out=self.sixteens)
        np.add(self.sixteens[:, :, :side], fours[:, :, 16 : 16 + side], out=out)


Cell = tuple[int, ...]
"""The others' Stamina, one coordinate each (sorted; 0: fallen)."""


Slices = tuple[slice, slice]
"""A group of layers: a slice along each of the two leading axes."""


class _Level:
    """The programme against ``others`` other contenders, every layer at once: arrays of
    shape ``(kage, shadows, side, .., side)``, one row per step ``c``. A step is worked
    out in two phases over groups of layers (the choices, then the averages and running
    sums), so the groups of a phase may run side by side."""

    def __init__(self, others: int, side: int, layers: _Layers, sleight: Sleight) -> None:
        self.others, self.side, self.layers, self.sleight = others, side, layers, sleight
        grid = (side,) * others
        shape = (*layers.dims, *grid)
        self.shape = shape
        self.after = np.zeros((_RING, *shape))
        self.tried = np.zeros((_RING, *shape)) if sleight is not None else self.after
        self.sum_tried = np.zeros(shape)
        """Running: the tried rows 2 .. 20 back (a Roll's chance, less the row 1 back)."""
        self.ramp_tried = np.zeros(shape[1:]) if layers.kage else None
        """Running, without Kage left: the same rows weighted 41 - 2l (Kage's Endurance)."""
        self.value = np.zeros(shape)
        self.before = np.zeros(shape)
        self.work = np.empty(shape)
        self.kage = np.empty(shape[1:]) if layers.kage else None
        self.groups = _groups(layers)
        # A large grid one layer at a time (its buffers stay in the cache between the
        # passes); a small one a group at a time (fewer calls).
        self.one_by_one = side**others >= _ONE_BY_ONE
        self.windows = [
            _Window((1, 1, *grid) if self.one_by_one else (*_sliced(shape, group), *grid))
            for group in self.groups
        ]
        # Falls, ties and the check's edge: only where every other is within 21.
        near = min(side, SIDES + 2)
        self.near = (slice(None), slice(None)) + (slice(0, near),) * others
        ys = np.indices((near,) * others)
        falls = np.ones((near,) * others)
        for y in ys:
            falls *= np.where((y >= 1) & (y <= SIDES), (SIDES + 1 - y) * _ONE_IN, 0.0)
        self.falls = falls
        """The chance that every other falls this round (0 where one has fallen)."""
        self._ys = ys
        self._highest = ys.max(axis=0)
        self._faces = [
            (*(0 if a == axis else slice(None) for a in range(others)),) for axis in range(others)
        ]

    def ties(self, c: int) -> Grid:
        """The tie rule's share for the computer falling from ``c`` with every other
        falling, times the chance they all fall (within 21 of each: 0 beyond)."""
        level = (self._ys == c).sum(axis=0)
        tie: Grid = np.where(self._highest <= c, self.falls / (1 + level), 0.0)
        return tie

    def _edge(self, c: int, tie: Grid, at_one: Grid) -> Grid:
        """Falling from ``c`` exactly: with the check, a pass leaves the computer at 1.
        Unless everyone falls too, trying only gains; if they do, the tie rule's share is
        weighed against the check (``tie`` holds share × fall)."""
        if self.sleight is None or c == 1:
            return tie
        passes, caught = self.sleight
        stays = 1.0 - passes - caught
        edge: Grid = passes * (at_one - self.falls) + np.maximum(
            tie, passes * self.falls + stays * tie
        )
        return edge

    def choose(self, c: int, group: Slices, lower: Grid | None, keep: _Kept | None) -> None:
        """Phase one of step ``c`` for a group: each choice's chance, and the best into
        ``value``. ``lower``: the best of row ``c`` with one other fewer (``None`` with
        one other), for the cells where someone has fallen."""
        layers, after = self.layers, self.after
        last = after[(c - 1) % _RING]
        best = self.value[group]
        np.add(last[group], self.sum_tried[group], out=best)
        best *= _ONE_IN
        near = self.near
        tie = self.ties(c) if c <= SIDES else None
        if tie is not None:
            edge = self._edge(c, tie, after[1][group][near])
            best[near] += _ONE_IN * edge + (SIDES - c) * _ONE_IN * tie
        if keep is not None:
            keep.roll[c][group] = best
        kages, shadows = group
        if layers.shadows != 0:
            # A Shadow Step leads to the layer with one fewer (unlimited: the same).
            source = after[(c - SHADOW_LOSS) % _RING] if c > SHADOW_LOSS else None
            start = shadows.start or 0
            stop = shadows.stop if shadows.stop is not None else layers.dims[1]
            if layers.shadows > 0:
                into, start = slice(max(start, 1), stop), max(start, 1) - 1
                read = (kages, slice(start, stop - 1))
            else:
                into, read = shadows, group
            target = self.value[kages, into]
            if source is None:
                assert tie is not None
                step = np.zeros(target.shape)
                step[near] = tie
            else:
                step = source[read]
            if keep is not None:
                keep.shadow[c][kages, into] = step
            np.maximum(target, step, out=target)
        kage = self.kage
        if kage is not None and kages.start == 1:
            # Kage's Endurance leads to the layer without it: read before its sums move.
            assert self.ramp_tried is not None
            into_kage = kage[shadows]
            np.multiply(last[0][shadows], 41.0 - 2.0, out=into_kage)
            into_kage += self.ramp_tried[shadows]
            into_kage *= 1.0 / 400
            if tie is not None:
                beyond = ((SIDES - c) * _ONE_IN) ** 2
                edge = self._edge(c, tie, after[1][0][shadows][near[1:]])
                into_kage[near[1:]] += _KAGE_AT[c] * edge + beyond * tie
            if keep is not None:
                keep.kage[c][shadows] = into_kage
            target = self.value[1][shadows]
            np.maximum(target, into_kage, out=target)
        if lower is None:
            best[..., 0] = 1.0
        else:
            for face in self._faces:
                best[(slice(None), slice(None), *face)] = lower[group]

    def spread(self, c: int, group: Slices, window: _Window) -> None:
        """Phase two of step ``c`` for a group: the average of the best over the others'
        rolls, the tried row ``c - 1``, and the running sums for step ``c + 1``."""
        best = self.value[group]
        self._average(best, self.after[c % _RING][group], window)
        if self.sleight is not None and c > 1:
            self._try(c, group, window)
        self._slide(c, group)

    def finish(self) -> Grid:
        """The step is done: its best row becomes the one before."""
        self.value, self.before = self.before, self.value
        return self.before

    def step(
        self, c: int, lower: Grid | None, keep: _Kept | None, helper: Executor | None = None
    ) -> Grid:
        """Both phases of step ``c``; returns the best chances (valid until the next
        step). With a ``helper`` thread the second group of each phase runs on it beside
        the first (NumPy lets go of the interpreter while it works): the same operations
        on the same numbers, so the same results to the last bit."""
        if keep is not None:
            keep.open(c, self.shape)
        first, *rest = zip(self.groups, self.windows, strict=True)
        if helper is None or not rest:
            for group, _ in (first, *rest):
                self.choose(c, group, lower, keep)
            for group, window in (first, *rest):
                self.spread(c, group, window)
            return self.finish()
        ((group, window),) = rest
        beside = helper.submit(self.choose, c, group, lower, keep)
        self.choose(c, first[0], lower, keep)
        beside.result()
        beside = helper.submit(self.spread, c, group, window)
        self.spread(c, *first)
        beside.result()
        return self.finish()

    def _average(self, x: Grid, out: Grid, window: _Window) -> None:
        """The average of ``x`` over the others' rolls, into ``out``."""
        kages, shadows = x.shape[:2]
        parts = [(k, s) for k in range(kages) for s in range(shadows)]
        for k, s in parts if self.one_by_one else [(0, 0)]:
            if self.one_by_one:
                source, into = x[k : k + 1, s : s + 1], out[k : k + 1, s : s + 1]
            else:
                source, into = x, out
            for _ in range(self.others):
                window(source, into)
                source = into
        out *= _ONE_IN**self.others

    def _try(self, c: int, group: Slices, window: _Window) -> None:
        """The tried row ``c - 1``: the average of the better of not trying the check
        (``before``) and trying it (the best now with the chance it passes, nothing if
        caught)."""
        assert self.sleight is not None
        passes, caught = self.sleight
        stays = 1.0 - passes - caught
        out = self.tried[(c - 1) % _RING][group]
        work = self.work[group]
        if caught == 0.0:
            # Trying never loses: V_c >= V_{c-1} (more Stamina is never worth less).
            np.multiply(self.after[c % _RING][group], passes, out=out)
            np.multiply(self.after[(c - 1) % _RING][group], stays, out=work)
            out += work
            return
        before = self.before[group]
        np.multiply(self.value[group], passes, out=work)
        np.multiply(before, stays, out=out)
        work += out
        np.maximum(work, before, out=work)
        self._average(work, out, window)

    def _slide(self, c: int, group: Slices) -> None:
        """The running sums for step ``c + 1``: they gain row ``c - 1`` and lose ``c - 20``."""
        gained = self.tried[(c - 1) % _RING][group]
        lost = self.tried[(c - SIDES) % _RING][group] if c > SIDES else None
        sums = self.sum_tried[group]
        kages, shadows = group
        if self.ramp_tried is not None and (kages.start or 0) == 0:
            ramp, work = self.ramp_tried[shadows], self.work[0][shadows]
            np.multiply(sums[0], 2.0, out=work)
            ramp -= work
            np.multiply(gained[0], 41 - 2 * 2, out=work)
            ramp += work
            if lost is not None:
                ramp += lost[0]
        sums += gained
        if lost is not None:
            sums -= lost


def _sliced(shape: tuple[int, ...], group: Slices) -> tuple[int, int]:
    """How many layers of each leading axis a group holds."""
    kages, shadows = (len(range(*part.indices(n))) for part, n in zip(group, shape, strict=False))
    return kages, shadows


def _groups(layers: _Layers) -> list[Slices]:
    """The layers in two groups where there are two or more: Kage left first (its choice
    reads the layer without it before that layer's sums move on)."""
    kages, shadows = layers.dims
    every = slice(None)
    if kages == 2:
        return [(slice(1, 2), every), (slice(0, 1), every)]
    if shadows > 1:
        half = shadows // 2
        return [(every, slice(0, half)), (every, slice(half, shadows))]
    return [(every, every)]


@dataclass
class _Kept:
    """One level's rows, by step: each choice's chance in every layer (a Shadow Step's and
    Kage's Endurance's where they are open)."""

    roll: dict[int, Grid] = field(default_factory=dict)
    shadow: dict[int, Grid] = field(default_factory=dict)
    kage: dict[int, Grid] = field(default_factory=dict)

    def open(self, c: int, shape: tuple[int, ...]) -> None:
        self.roll[c] = np.empty(shape)
        self.shadow[c] = np.zeros(shape)
        self.kage[c] = np.zeros(shape[1:])

    def chances(self, c: int, at: tuple[int, int], cell: Cell, layer: Layer) -> dict[str, float]:
        """Each choice open with ``layer`` (found at ``at``) and its chance, at ``c``
        against others at ``cell`` (sorted, all standing)."""
        found = {ROLL: float(self.roll[c][at][cell])}
        if layer[1] != 0:
            found[SHADOW_STEP] = float(self.shadow[c][at][cell])
        if layer[0]:
            found[KAGE] = float(self.kage[c][at[1]][cell])
        return found


def _levels(others: int, side: int, layers: _Layers, sleight: Sleight) -> list[_Level]:
    return [_Level(k, side, layers, sleight) for k in range(1, others + 1)]


def cells(others: int, side: int, top: int, root: Layer) -> int:
    """The programme's size: cells over every level it runs (with fewer others too), for
    the computer at up to ``top`` against others at up to ``side``."""
    layers = _Layers.of(root, top).count
    grid = sum(math.prod([side + 1] * k) for k in range(1, others + 1))
    return layers * top * grid


def work(others: int, side: int, top: int, root: Layer, sleight: Sleight) -> int:
    """The programme's work, in cells averaged over the others' rolls: :func:`cells`,
    twice over where a check can be caught (the rows after a check are averaged apart)."""
    averages = 2 if sleight is not None and sleight[1] > 0 else 1
    return averages * cells(others, side, top, root)


class Table:
    """The programme for ``others`` other contenders, each at most ``side - 1`` Stamina,
    and the computer at most ``top``, for the layers reachable from ``root``: every
    choice's chance in every state of the box, kept (three arrays of 8-byte floats per
    cell: for small boxes only)."""

    def __init__(self, others: int, side: int, top: int, root: Layer, sleight: Sleight) -> None:
        self.others, self.side, self.top, self.root, self.sleight = others, side, top, root, sleight
        self.layers = _Layers.of(root, top)
        levels = _levels(others, side, self.layers, sleight)
        self.kept = [_Kept() for _ in levels]
        for c in range(1, top + 1):
            lower: Grid | None = None
            for level, kept in zip(levels, self.kept, strict=True):
                lower = level.step(c, lower, kept)

    def covers(self, others: int, side: int, top: int, root: Layer, sleight: Sleight) -> bool:
        return (
            (others, sleight) == (self.others, self.sleight)
            and top <= self.top
            and side < self.side
            and self.layers.index(root, self.top) is not None
        )

    def chances(self, c: int, ys: Sequence[int], layer: Layer) -> dict[str, float]:
        """Each choice open with ``layer`` left, and its chance of winning, at ``c``
        against others standing at ``ys`` (each within the box, at most as many as the
        table's)."""
        standing = tuple(sorted(ys))
        assert standing and standing[0] > 0 and standing[-1] < self.side and c <= self.top
        at = self.layers.index(layer, self.top)
        assert at is not None
        return self.kept[len(standing) - 1].chances(c, at, standing, layer)


def probe(
    cs: Sequence[int], ys: Sequence[int], layer: Layer, sleight: Sleight
) -> list[dict[str, float]]:
    """The choices open with ``layer`` and their chances at each Stamina in ``cs`` against
    others standing at ``ys``, from one run of the programme in the smallest box holding
    them, keeping nothing else (its memory: a ring of 21 rows per level)."""
    cell = tuple(sorted(ys))
    assert cell and cell[0] > 0 and min(cs) > 0
    top = max(cs)
    layers = _Layers.of(layer, top)
    at = layers.index(layer, top)
    assert at is not None
    levels = _levels(len(cell), cell[-1] + 1, layers, sleight)
    found: dict[int, dict[str, float]] = {}
    with _RUNNING:
        for c in range(1, top + 1):
            lower: Grid | None = None
            for level in levels:
                wanted = c in cs and level is levels[-1]
                kept = _Kept() if wanted else None
                # The helper only where a step is large enough to be worth handing over.
                lower = level.step(c, lower, kept, _HELPER if level.others > 1 else None)
                if kept is not None:
                    found[c] = kept.chances(c, at, cell, layer)
    return [found[c] for c in cs]


_RUNNING = threading.Lock()
"""One run at a time: its buffers are the programme's memory (up to about 100 MB at two
others and the default Stamina); two tables deciding at once wait in turn."""
_HELPER = ThreadPoolExecutor(1, "nihakyu-exact") if (os.cpu_count() or 1) > 1 else None
"""A second core's thread for half of each step of a run with two or more others."""

_CACHE: OrderedDict[tuple[object, ...], Table] = OrderedDict()
_CACHE_SIZE = 4
_LOCK = threading.Lock()


def table(others: int, side: int, top: int, root: Layer, sleight: Sleight) -> Table:
    """The kept programme covering the computer at up to ``top`` Stamina with what
    ``root`` leaves it, against ``others`` contenders at up to ``side`` each. A table made
    for a larger box answers too (a game only goes down), so each game makes about one."""
    with _LOCK:
        for key, found in reversed(_CACHE.items()):
            if found.covers(others, side, top, root, sleight):
                _CACHE.move_to_end(key)
                return found
        made = Table(others, side + 1, top, root, sleight)
        _CACHE[(others, sleight, side, top, root)] = made
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
        return made


_ANSWERS: OrderedDict[tuple[object, ...], dict[str, float]] = OrderedDict()
_ANSWERS_SIZE = 256


def chances(
    cs: Sequence[int], ys: Sequence[int], layer: Layer, sleight: Sleight
) -> list[dict[str, float]]:
    """:func:`probe`, remembering its last answers (the same position is asked again: by
    the next round's decision after a Sleight of Hand window, or after a stale move)."""
    cell = tuple(sorted(ys))
    keys = [(c, cell, layer, sleight) for c in cs]
    with _LOCK:
        known = [_ANSWERS.get(key) for key in keys]
    if any(answer is None for answer in known):
        made = probe(cs, cell, layer, sleight)
        with _LOCK:
            for key, answer in zip(keys, made, strict=True):
                _ANSWERS[key] = answer
                _ANSWERS.move_to_end(key)
            while len(_ANSWERS) > _ANSWERS_SIZE:
                _ANSWERS.popitem(last=False)
        known = list(made)
    return [dict(answer) for answer in known if answer is not None]
