"""The games a table service hosts, by name: each its engine and the title players see.

Filled from the game catalog (``bot/catalog.py``) by whoever builds the service; the
service reads everything else through the engine (``bot/games/contract.py``)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic

from bot.games.common import Ranking
from bot.games.contract import ActionT, Engine, EventT, RulesT, StateT

HouseEnd = Callable[[StateT, Collection[int]], ActionT | None]
"""Given a running game's state and the seats whose stakes are the house's (computers):
the action a moderator's end sends in place of :class:`~bot.games.common.Abort`, or
``None`` for the plain Abort."""

RankingOf = Callable[[StateT, Sequence[Mapping[str, Any]]], Ranking | None]
"""Given a finished game's state and its public events (as logged): how it placed its
players for skill ratings, or ``None`` when it was not played out."""


@dataclass(frozen=True)
class GameSpec(Generic[RulesT, StateT, ActionT, EventT]):
    """A game as the table service hosts it: its engine and the title players see.

    Generic in the engine's types, so a cog holding ``GameSpec[Rules, State, ...]`` reads
    a checked state through ``spec.engine``."""

    engine: Engine[RulesT, StateT, ActionT, EventT]
    title: str
    house_end: HouseEnd[StateT, ActionT] | None = None
    """How a moderator ends a game in which the house stakes a computer's seat, where that
    is not the plain Abort (the Strength Duel settles the pot at the position's value)."""
    ranking: RankingOf[StateT] | None = None
    """How a finished table placed its players, for skill ratings; ``None``: the game is
    not rated (played against a bank)."""

    @property
    def name(self) -> str:
        return self.engine.name


AnySpec = GameSpec[Any, Any, Any, Any]
"""A game of any kind, as the table service holds it."""


class GameRegistry:
    def __init__(self) -> None:
        self._specs: dict[str, AnySpec] = {}

    def add(self, spec: AnySpec) -> None:
        self._specs[spec.name] = spec

    def get(self, name: str) -> AnySpec:
        return self._specs[name]

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def names(self) -> list[str]:
        return list(self._specs)
