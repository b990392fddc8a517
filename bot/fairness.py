"""Provably fair dice: a secret seed per table, committed before play, revealed after.

Every outcome is drawn from the stream ``HMAC-SHA256(seed, counter)`` for counter = 0, 1, 2…
Each 32-byte block yields eight 32-bit words; a die with `sides` faces takes the next
word and rejects it when it falls in the incomplete top range (so every face is exactly
equally likely: no modulo bias). A shuffle is Fisher–Yates over the same stream.

Anyone holding the revealed seed can recompute the commitment (``SHA-256(seed)``) and
every roll; `verify_draws` does exactly that for the `/verify` command.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from bot.games.dice import Dice

T = TypeVar("T")

SEED_BYTES = 32
_WORD_SPACE = 1 << 32


def new_seed() -> bytes:
    return secrets.token_bytes(SEED_BYTES)


def commitment(seed: bytes) -> str:
    """What the table shows when it opens: SHA-256 of the seed, hex."""
    return hashlib.sha256(seed).hexdigest()


@dataclass(frozen=True, slots=True)
class Draw:
    """One random outcome as the table used it: a die roll or a shuffle order."""

    sides: int
    value: int | None = None
    order: tuple[int, ...] | None = None

    def to_json(self) -> list[object]:
        return [self.sides, self.value] if self.order is None else [self.sides, list(self.order)]

    @classmethod
    def from_json(cls, data: list[object]) -> Draw:
        sides, payload = data
        assert isinstance(sides, int)
        if isinstance(payload, list):
            return cls(sides, order=tuple(int(index) for index in payload))
        assert isinstance(payload, int)
        return cls(sides, value=payload)


class FairDice:
    """The production `Dice`: deterministic given (seed, position in the stream)."""

    def __init__(self, seed: bytes, word_index: int = 0) -> None:
        self._seed = seed
        self.word_index = word_index
        """How many 32-bit words of the stream have been consumed (persisted per table)."""
        self._block_number = -1
        self._block: tuple[int, ...] = ()

    def _word(self) -> int:
        block_number, offset = divmod(self.word_index, 8)
        if block_number != self._block_number:
            digest = hmac.new(self._seed, block_number.to_bytes(8, "big"), hashlib.sha256).digest()
            self._block = struct.unpack(">8I", digest)
            self._block_number = block_number
        self.word_index += 1
        return self._block[offset]

    def _below(self, bound: int) -> int:
        """A uniform integer in 0..bound-1 by rejection sampling."""
        if not 1 <= bound <= _WORD_SPACE:
            raise ValueError(f"cannot draw below {bound}")
        limit = _WORD_SPACE - (_WORD_SPACE % bound)
        while True:
            word = self._word()
            if word < limit:
                return word % bound

    def roll(self, sides: int) -> int:
        if sides < 1:
            raise ValueError("a die needs at least one side")
        return self._below(sides) + 1

    def shuffle(self, items: Sequence[T]) -> list[T]:
        result = list(items)
        for index in range(len(result) - 1, 0, -1):
            other = self._below(index + 1)
            result[index], result[other] = result[other], result[index]
        return result

    def shuffle_order(self, size: int) -> tuple[int, ...]:
        return tuple(self.shuffle(range(size)))


class RecordingDice:
    """Wraps any dice and records each outcome, so the action log can be re-derived."""

    def __init__(self, inner: Dice) -> None:
        self.inner = inner
        self.draws: list[Draw] = []

    def roll(self, sides: int) -> int:
        value = self.inner.roll(sides)
        self.draws.append(Draw(sides, value=value))
        return value

    def shuffle(self, items: Sequence[T]) -> list[T]:
        indices = self.inner.shuffle(list(range(len(items))))
        self.draws.append(Draw(len(items), order=tuple(indices)))
        return [items[index] for index in indices]


def verify_draws(seed: bytes, logged: Sequence[Sequence[Draw]]) -> tuple[bool, int]:
    """Re-derive every logged outcome, in order, from the seed.

    Returns (all matched, how many outcomes were checked); stops at the first mismatch.
    """
    dice = FairDice(seed)
    checked = 0
    for draws in logged:
        for draw in draws:
            if draw.order is not None:
                if dice.shuffle_order(draw.sides) != draw.order:
                    return False, checked
            elif dice.roll(draw.sides) != draw.value:
                return False, checked
            checked += 1
    return True, checked
