"""The games the table service can host, each described by its engine module."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from pydantic import BaseModel, TypeAdapter

from bot.games.common import Abort, Permission
from bot.games.dice import Dice

Events = list[BaseModel]


@dataclass(frozen=True)
class GameSpec:
    """What the table service needs to know of a game; built from its engine module."""

    name: str
    title: str
    rules_model: type[BaseModel]
    state_model: type[BaseModel]
    start: Callable[[Any, list[int], Dice], Any]
    act: Callable[[Any, int | None, Any, Dice], tuple[Any, Events]]
    seat_limits: Callable[[Any], tuple[int, int]]
    hold: Callable[[Any], int]
    deadline_seconds: Callable[[Any], int | None]
    parse_action: Callable[[Mapping[str, Any]], BaseModel]
    event_adapter: TypeAdapter[Any] | None = None
    """Parses a logged public event back into the engine's event model."""
    join_action: type[BaseModel] | None = None
    """An action that seats a newcomer once the game runs, where the game allows it."""
    leave_action: type[BaseModel] | None = None
    """An action that lets a player leave a running game, where the game allows it."""
    bank_exposure: Callable[[Any], int] | None = None
    """The most the bank could pay out on the open bets (see bot/games/common.py)."""
    pending_charge: Callable[[Any, int], int] | None = None
    """Coins a player's secret choice will take at the reveal."""
    shortfall: Callable[[Any, int], BaseModel | None] | None = None
    """The table's way round a wallet that cannot pay at a reveal."""
    permissions: Mapping[type[BaseModel], Permission] = field(default_factory=dict)
    """Who may send which action, where it is not a seated player."""

    def permission(self, action: BaseModel) -> Permission:
        if isinstance(action, Abort):
            # Ending a started game is a moderator's word in every game, whatever the
            # engine declares (the service's cancel sends it; a player never may).
            return Permission.MODERATOR_NOT_SEATED
        return self.permissions.get(type(action), Permission.SEATED)

    @classmethod
    def from_module(cls, module: ModuleType, *, title: str) -> GameSpec:
        parse = getattr(module, "parse_action", None)
        if parse is None:
            adapter: TypeAdapter[Any] = TypeAdapter(module.Action)

            def parse(data: Mapping[str, Any]) -> BaseModel:
                parsed: BaseModel = adapter.validate_python(dict(data))
                return parsed

        return cls(
            name=module.__name__.rsplit(".", 1)[-1],
            title=title,
            rules_model=module.Rules,
            state_model=module.State,
            start=module.start,
            act=module.act,
            seat_limits=module.seat_limits,
            hold=module.hold,
            deadline_seconds=module.deadline_seconds,
            parse_action=parse,
            event_adapter=TypeAdapter(module.Event) if hasattr(module, "Event") else None,
            join_action=getattr(module, "Join", None),
            leave_action=getattr(module, "Leave", None),
            bank_exposure=getattr(module, "bank_exposure", None),
            pending_charge=getattr(module, "pending_charge", None),
            shortfall=getattr(module, "shortfall", None),
            permissions=getattr(module, "PERMISSIONS", {}),
        )


class GameRegistry:
    def __init__(self) -> None:
        self._specs: dict[str, GameSpec] = {}

    def add(self, spec: GameSpec) -> None:
        self._specs[spec.name] = spec

    def get(self, name: str) -> GameSpec:
        return self._specs[name]

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def names(self) -> list[str]:
        return list(self._specs)
