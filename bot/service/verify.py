"""``/verify``: re-derive a finished table's every roll from its revealed seed, then
replay its action log through the engine and compare with the stored result. Pure: the
facade reads the table and its log, this module only computes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from bot.errors import NotAllowed
from bot.fairness import Draw, FairDice, commitment, verify_draws
from bot.games.registry import AnySpec, GameRegistry
from bot.service.computers import with_house_seats
from bot.service.terms import DECIDED_WITH, LogKind
from bot.storage import table_queries as tq


@dataclass(frozen=True)
class VerifyReport:
    table_id: int
    matched: bool
    draws_checked: int
    actions_replayed: int
    reason: str
    seed_hex: str
    commitment: str


def verify_table(
    row: tq.TableRow, log_rows: list[tq.LogRow], registry: GameRegistry
) -> VerifyReport:
    """Check an ended table: its seed against the commitment, every logged roll against
    the seed, and the replayed log against the stored state."""
    if row.live:
        raise NotAllowed(
            "This table is still being played; its seed is revealed when it ends. "
            f"Its commitment is `{row.commitment}`."
        )
    seed = bytes.fromhex(row.seed_hex)

    def report(matched: bool, checked: int, replayed: int, reason: str) -> VerifyReport:
        return VerifyReport(
            row.id, matched, checked, replayed, reason, row.seed_hex, row.commitment
        )

    if commitment(seed) != row.commitment:
        return report(False, 0, 0, "the revealed seed does not hash to the commitment")
    logged = [[Draw.from_json(draw) for draw in json.loads(r.draws_json)] for r in log_rows]
    matched, checked = verify_draws(seed, logged)
    if not matched:
        return report(False, checked, 0, f"outcome #{checked + 1} differs from the seed")
    spec = registry.get(row.game)
    state, replayed = replay(spec, row, log_rows, FairDice(seed))
    if row.state_json is not None and state is not None:
        try:
            stored = spec.state_model.model_validate_json(row.state_json)
        except ValidationError:
            return report(False, checked, replayed, "the stored result cannot be read")
        if stored != state:
            return report(False, checked, replayed, "replaying the log gives another result")
    return report(True, checked, replayed, "every roll re-derives from the seed")


@dataclass(frozen=True)
class ReplayedStep:
    """One logged step replayed: the state after it (``None`` before the game started)
    and the public events the engine gave (none for a lobby step)."""

    log_row: tq.LogRow
    state: Any
    events: list[Any]


def replay_steps(
    spec: AnySpec, row: tq.TableRow, log_rows: list[tq.LogRow], dice: FairDice
) -> Iterator[ReplayedStep]:
    """Every logged step through the engine again, with the state after each (a step the
    engine refuses raises, as it would in the game: the log does not replay)."""
    rules = spec.rules_model.model_validate_json(row.rules_json)
    state: Any = None
    for log_row in log_rows:
        data = json.loads(log_row.action_json)
        # A computer's decision drew first (its choice, not the game's chance): take
        # those draws again so the action meets the dice where it met them.
        for draw in json.loads(log_row.draws_json)[: int(data.pop(DECIDED_WITH, 0))]:
            taken = Draw.from_json(draw)
            if taken.order is not None:
                dice.shuffle_order(taken.sides)
            else:
                dice.roll(taken.sides)
        events: list[Any] = []
        if data.get("kind") == LogKind.START:
            players = list(data["players"])
            state = spec.start(with_house_seats(rules, players), players, dice)
        elif not LogKind.is_table_step(data.get("kind")) and state is not None:
            state, events = spec.act(state, log_row.actor_id, spec.parse_action(data), dice)
            events = [e for e in events if getattr(e, "private_to", None) is None]
        yield ReplayedStep(log_row, state, events)


def replay(
    spec: AnySpec, row: tq.TableRow, log_rows: list[tq.LogRow], dice: FairDice
) -> tuple[Any, int]:
    """The state the log leads to (``None`` if the game never started), and how many
    logged steps were replayed."""
    steps = list(replay_steps(spec, row, log_rows, dice))
    replayed = sum(
        1
        for step in steps
        if not LogKind.is_table_step(json.loads(step.log_row.action_json).get("kind"))
        or json.loads(step.log_row.action_json).get("kind") == LogKind.START
    )
    return (steps[-1].state if steps else None), replayed
