"""What the service hands the cogs: a table as it stands (:class:`TableSnapshot`) and what
an action did (:class:`Outcome`), and how a snapshot is read inside a transaction."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.economy import Economy
from bot.games.registry import GameSpec
from bot.storage import Transaction
from bot.storage import table_queries as tq

log = logging.getLogger(__name__)

RECENT_LOG_ROWS = 8
"""How many of the latest actions' public events a table message recalls."""


@dataclass(frozen=True)
class TableSnapshot:
    """A table as it stands after an action: what the cogs render."""

    row: tq.TableRow
    spec: GameSpec
    rules: Any
    state: Any
    seats: list[int]
    currency: str
    deadline: tq.DeadlineRow | None
    recent_events: list[BaseModel] = field(default_factory=list)
    """Public events of the last few actions, oldest first: what the message shows."""

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def ply(self) -> int:
        return int(self.state.ply) if self.state is not None else 0

    @property
    def seed_revealed(self) -> bool:
        return not self.row.live

    @property
    def hold(self) -> int:
        return self.spec.hold(self.rules)


@dataclass(frozen=True)
class Outcome:
    """What an action did: the table after it and the engine's events."""

    snapshot: TableSnapshot
    events: list[BaseModel] = field(default_factory=list)
    kind: str = "acted"
    actor: int | None = None


async def read_snapshot(
    tx: Transaction, row: tq.TableRow, spec: GameSpec, economy: Economy
) -> TableSnapshot:
    """The table in `row` with its rules, state, seats, deadline and recent events."""
    rules = spec.rules_model.model_validate_json(row.rules_json)
    state: Any = spec.state_model.model_validate_json(row.state_json) if row.state_json else None
    seats = (
        list(state.seats)
        if state is not None
        else [seat.user_id for seat in await tq.seats(tx, row.id)]
    )
    settings = await economy.ensure_guild(tx, row.guild_id)
    deadline = await tq.deadline(tx, row.id)
    recent: list[BaseModel] = []
    if spec.event_adapter is not None and state is not None:
        for events_json in await tq.recent_events(tx, row.id, RECENT_LOG_ROWS):
            for data in json.loads(events_json):
                try:
                    recent.append(spec.event_adapter.validate_python(data))
                except ValidationError:
                    log.warning("table %s logged an event it cannot read: %s", row.id, data)
    return TableSnapshot(row, spec, rules, state, seats, settings.currency_name, deadline, recent)
