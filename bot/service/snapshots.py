"""What the service hands the cogs: a table as it stands (:class:`TableSnapshot`) and what
an action did (:class:`Outcome`), and how a snapshot is read inside a transaction."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal

from pydantic import BaseModel, ValidationError

from bot.economy import Economy
from bot.games.contract import RulesT, StateT
from bot.games.registry import GameSpec
from bot.safe_log import log_failure
from bot.storage import Transaction
from bot.storage import table_queries as tq
from bot.storage.notify import TurnNotice

log = logging.getLogger(__name__)

RECENT_LOG_ROWS = 8
"""How many of the latest actions' public events a table message recalls."""


class Unread:
    """A value this transaction did not set and so must read (the deadline, when an action
    left the decision point where it was)."""


UNREAD = Unread()


@dataclass(frozen=True)
class TableSnapshot(Generic[RulesT, StateT]):
    """A table as it stands after an action: what the cogs render.

    Generic in the game's rules and state: a cog that declares
    ``TableSnapshot[hazard.Rules, hazard.State]`` reads checked fields, no casts. A lobby
    has no state yet (``state`` is ``None``); :attr:`game` is the state of a table past
    its lobby."""

    row: tq.TableRow
    spec: GameSpec[RulesT, StateT, Any, Any]
    rules: RulesT
    state: StateT | None
    seats: list[int]
    currency: str
    deadline: tq.DeadlineRow | None
    recent_events: list[BaseModel] = field(default_factory=list)
    """Public events of the last few actions, oldest first: what the message shows."""

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def game(self) -> StateT:
        """The game's state; only for a table that has started."""
        if self.state is None:
            raise ValueError(f"table {self.row.id} has not started: a lobby has no state")
        return self.state

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def ply(self) -> int:
        return 0 if self.state is None else self.spec.engine.ply(self.state)

    @property
    def seed_revealed(self) -> bool:
        return not self.row.live

    @property
    def hold(self) -> int:
        return self.spec.engine.hold(self.rules)


OutcomeKind = Literal["opened", "joined", "left", "started", "acted", "cancelled", "expired"]


@dataclass(frozen=True)
class Outcome:
    """What an action did: the table after it and the engine's events."""

    snapshot: TableSnapshot[Any, Any]
    events: list[BaseModel] = field(default_factory=list)
    kind: OutcomeKind = "acted"
    actor: int | None = None
    notices_gone: tuple[TurnNotice, ...] | None = None
    """The turn notices the outcome took back, its table's notices updated in the same
    transaction (their messages to delete); ``None``: not updated yet (the Discord layer
    updates them after the outcome)."""


OutcomeListener = Callable[[Outcome], Any]
"""Told of an outcome no click answers (a deadline's, a computer's): the table message
and the private panels are redrawn from it."""


async def tell_listeners(listeners: Sequence[OutcomeListener], outcome: Outcome) -> None:
    """Each listener in turn; one that fails is logged and does not stop the others."""
    for listener in list(listeners):
        try:
            result = listener(outcome)
            if asyncio.iscoroutine(result):
                await result
        except Exception as error:
            log_failure(
                log, "an outcome listener failed for table %s", outcome.snapshot.id, error=error
            )


async def read_snapshot(
    tx: Transaction,
    row: tq.TableRow,
    spec: GameSpec[Any, Any, Any, Any],
    economy: Economy,
    *,
    rules: Any = None,
) -> tuple[TableSnapshot[Any, Any], list[list[BaseModel]] | None]:
    """The table in `row` with its rules, state, seats, deadline and recent events; also
    the recent events by action (oldest first; `None` when the table shows none), which
    the caller may keep to build the next snapshot without reading them again."""
    if rules is None:
        rules = spec.engine.rules_model.model_validate_json(row.rules_json)
    state: Any = (
        spec.engine.state_model.model_validate_json(row.state_json) if row.state_json else None
    )
    seats = (
        list(state.seats)
        if state is not None
        else [seat.user_id for seat in await tq.seats(tx, row.id)]
    )
    settings = await economy.terms(tx, row.guild_id)
    deadline = await tq.deadline(tx, row.id)
    by_action = await read_recent_events(tx, row, spec) if state is not None else None
    recent = [event for events in by_action or () for event in events]
    snapshot = TableSnapshot(
        row, spec, rules, state, seats, settings.currency_name, deadline, recent
    )
    return snapshot, by_action


async def read_recent_events(
    tx: Transaction, row: tq.TableRow, spec: GameSpec[Any, Any, Any, Any]
) -> list[list[BaseModel]] | None:
    """The public events of the table's last actions, one list per action, oldest first."""
    if spec.engine.events is None:
        return None
    by_action: list[list[BaseModel]] = []
    for events_json in await tq.recent_events(tx, row.id, RECENT_LOG_ROWS):
        events: list[BaseModel] = []
        for data in json.loads(events_json):
            try:
                events.append(spec.engine.events.validate_python(data))
            except ValidationError:
                log.warning("table %s logged an event it cannot read: %s", row.id, data)
        by_action.append(events)
    return by_action
