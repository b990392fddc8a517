"""Repeatable pseudo-random dice for playouts and benchmarks (never a real table's: those
are bot.fairness's). Engines may not import ``random``, so this lives with the tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class SeededDice:
    """A ``random.Random`` (or a seed for a new one) as an engine's dice."""

    def __init__(self, seed: int | random.Random) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def roll(self, sides: int) -> int:
        return self.rng.randint(1, sides)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.rng.shuffle(out)
        return out
