"""The one source of chance for every engine (see ENGINE_CONTRACT.md)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class Dice(Protocol):
    def roll(self, sides: int) -> int:
        """A uniform whole number in 1..sides."""
        ...

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new, uniformly shuffled list."""
        ...


class ScriptedDice:
    """Replays given outcomes in order, for tests and replays."""

    def __init__(self, rolls: Iterable[int] = (), orders: Iterable[Sequence[int]] = ()) -> None:
        self._rolls = list(rolls)
        self._orders = [list(order) for order in orders]
        self._next_roll = 0
        self._next_order = 0

    @property
    def remaining(self) -> int:
        """How many scripted rolls have not been used yet."""
        return len(self._rolls) - self._next_roll

    def extend(self, rolls: Iterable[int]) -> None:
        """Script more rolls after the ones already given."""
        self._rolls.extend(rolls)

    def roll(self, sides: int) -> int:
        if self._next_roll >= len(self._rolls):
            raise IndexError("ScriptedDice has no scripted roll left")
        value = self._rolls[self._next_roll]
        if not 1 <= value <= sides:
            raise ValueError(f"scripted roll {value} is outside 1..{sides}")
        self._next_roll += 1
        return value

    def shuffle(self, items: Sequence[T]) -> list[T]:
        if self._next_order >= len(self._orders):
            return list(items)
        order = self._orders[self._next_order]
        if sorted(order) != list(range(len(items))):
            raise ValueError(f"scripted order {order} is not a permutation of {len(items)} items")
        self._next_order += 1
        return [items[index] for index in order]
