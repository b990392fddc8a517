"""The games the table service can host: each is its engine module's ``ENGINE``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Generic

from pydantic import BaseModel, TypeAdapter

from bot.games.common import Abort, Deadline, Permission
from bot.games.contract import ActionT, Engine, EventT, RulesT, StateT
from bot.games.dice import Dice


@dataclass(frozen=True)
class GameSpec(Generic[RulesT, StateT, ActionT, EventT]):
    """A game as the table service hosts it: its engine and the title players see.

    Generic in the engine's types, so a cog holding ``GameSpec[Rules, State, ...]`` reads
    a checked state. The service reads everything through the engine."""

    engine: Engine[RulesT, StateT, ActionT, EventT]
    title: str

    @classmethod
    def from_module(cls, module: ModuleType, *, title: str) -> AnySpec:
        """A game from its engine module, which exports ``ENGINE`` (see contract.py)."""
        engine: Engine[Any, Any, Any, Any] = module.ENGINE
        return GameSpec(engine, title)

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def rules_model(self) -> type[RulesT]:
        return self.engine.rules_model

    @property
    def state_model(self) -> type[StateT]:
        return self.engine.state_model

    @property
    def start(self) -> Callable[[RulesT, list[int], Dice], StateT]:
        return self.engine.start

    @property
    def act(self) -> Callable[[StateT, int | None, ActionT, Dice], tuple[StateT, list[EventT]]]:
        return self.engine.act

    @property
    def seat_limits(self) -> Callable[[RulesT], tuple[int, int]]:
        return self.engine.seat_limits

    @property
    def hold(self) -> Callable[[RulesT], int]:
        return self.engine.hold

    @property
    def stake_range(self) -> Callable[[RulesT], tuple[int, int]]:
        return self.engine.stake_range

    @property
    def deadline_seconds(self) -> Callable[[StateT], int | None]:
        return self.engine.deadline_seconds

    @property
    def parse_action(self) -> Callable[[Mapping[str, Any]], ActionT]:
        return self.engine.parse_action

    @property
    def event_adapter(self) -> TypeAdapter[EventT]:
        """Parses a logged public event back into the engine's event model."""
        return self.engine.events

    @property
    def join_action(self) -> type[BaseModel] | None:
        return self.engine.join_action

    @property
    def leave_action(self) -> type[BaseModel] | None:
        return self.engine.leave_action

    @property
    def bank_exposure(self) -> Callable[[StateT], int]:
        return self.engine.bank_exposure

    @property
    def pending_charge(self) -> Callable[[StateT, int], int]:
        return self.engine.pending_charge

    @property
    def honours_at_end(
        self,
    ) -> Callable[[StateT, Sequence[Mapping[str, Any]]], list[tuple[int, str]]]:
        return self.engine.honours_at_end

    @property
    def shortfall(self) -> Callable[[StateT, int], ActionT | None] | None:
        """``None`` for a game whose reveals never charge (spares every action the
        savepoint the retry needs)."""
        return self.engine.shortfall if self.engine.charges_at_reveal else None

    def permission(self, action: BaseModel) -> Permission:
        if isinstance(action, Abort):
            # Ending a started game is a moderator's word in every game, whatever the
            # engine declares (the service's cancel sends it; a player never may).
            return Permission.MODERATOR_NOT_SEATED
        if isinstance(action, Deadline):
            return Permission.TABLE
        return self.engine.permissions.get(type(action), Permission.SEATED)


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
