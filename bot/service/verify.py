"""``/verify``: re-derive a finished table's every roll from its revealed seed, then
replay its action log through the engine and compare with the stored result. Pure: the
facade reads the table and its log, this module only computes."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from bot.errors import NotAllowed
from bot.fairness import Draw, FairDice, commitment, verify_draws
from bot.games.registry import AnySpec, GameRegistry
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


def replay(
    spec: AnySpec, row: tq.TableRow, log_rows: list[tq.LogRow], dice: FairDice
) -> tuple[Any, int]:
    """The state the log leads to (``None`` if the game never started), and how many
    logged steps were replayed."""
    rules = spec.rules_model.model_validate_json(row.rules_json)
    state: Any = None
    replayed = 0
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
        if data.get("kind") == LogKind.START:
            state = spec.start(rules, list(data["players"]), dice)
        elif LogKind.is_table_step(data.get("kind")):
            continue
        elif state is not None:
            state, _ = spec.act(state, log_row.actor_id, spec.parse_action(data), dice)
        replayed += 1
    return state, replayed
