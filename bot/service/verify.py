"""``/verify``: re-derive a finished table's every roll from its revealed seed, then
replay its action log through the engine and compare with the stored result; and
:func:`public_log`, the log as /history, /verify and the replay page may show it. Pure:
the facade reads the table and its log, this module only computes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from bot.errors import NotAllowed
from bot.fairness import Draw, FairDice, commitment, verify_draws
from bot.games.common import is_public
from bot.games.registry import AnySpec, GameRegistry
from bot.i18n import N_, SOURCE_LOCALE, fill
from bot.service.computers import with_house_seats
from bot.service.terms import DECIDED_WITH, LogKind
from bot.storage import table_queries as tq


@dataclass(frozen=True)
class PublicStep:
    """A logged step as anyone may see it: listed at ``row`` (its place and time), saying
    ``action`` (for a secret choice, the one its member was finally revealed to make)."""

    row: tq.LogRow
    action: dict[str, Any]
    index: int
    """The listed row's place in the whole log."""


def public_log(spec: AnySpec, log_rows: list[tq.LogRow]) -> list[PublicStep]:
    """The steps anyone may see, in order: every step but a member's secret choices
    (the engine's ``secret_choices``) not revealed, or replaced before their reveal.

    Nothing listed depends on a secret: a replaced choice (a changed bid) is not listed,
    nor is a choice never revealed (a bid pending when a moderator ended the game, a
    declined teyaku), so neither that nor when a member chose again shows. A revealed
    choice is listed where its member was first seen to choose (the table said "has
    chosen" then) with what the reveal showed, or at its own step when that step revealed
    it (a round's last bid). Nothing of the hidden steps is listed, their public events
    included: what those showed, the table's later steps show again."""
    engine = spec.engine
    secret = engine.secret_choices
    listed: dict[int, int] = {}  # listed row → the row whose action it shows
    pending: dict[tuple[int, str], list[int]] = {}  # (member, choice) → their rows so far
    for index, log_row in enumerate(log_rows):
        kind = str(json.loads(log_row.action_json).get("kind"))
        choice = secret.get(kind) if log_row.actor_id is not None else None
        if choice is None or log_row.actor_id is None:
            listed[index] = index
        else:
            pending.setdefault((log_row.actor_id, choice), []).append(index)
        for event in json.loads(log_row.events_json):
            for revealed, players in engine.reveals(event).items():
                for key in [
                    key
                    for key in pending
                    if key[1] == revealed and (players is None or key[0] in players)
                ]:
                    chain = pending.pop(key)
                    final = chain[-1]
                    listed[final if final == index else chain[0]] = final
    steps = []
    for index, source in sorted(listed.items()):
        action = json.loads(log_rows[source].action_json)
        action.pop(DECIDED_WITH, None)
        steps.append(PublicStep(log_rows[index], action, index))
    return steps


@dataclass(frozen=True)
class VerifyReport:
    table_id: int
    matched: bool
    draws_checked: int
    actions_replayed: int
    reason: str
    """In English (logs, tests); shown translated from ``reason_template``."""
    seed_hex: str
    commitment: str
    reason_template: str = ""
    reason_params: dict[str, Any] = field(default_factory=dict)


def verify_table(
    row: tq.TableRow, log_rows: list[tq.LogRow], registry: GameRegistry
) -> VerifyReport:
    """Check an ended table: its seed against the commitment, every logged roll against
    the seed, and the replayed log against the stored state."""
    if row.live:
        raise NotAllowed(
            "This table is still being played; its seed is revealed when it ends. "
            "Its commitment is `{commitment}`.",
            commitment=row.commitment,
        )
    seed = bytes.fromhex(row.seed_hex)

    def report(
        matched: bool, checked: int, replayed: int, reason: str, **params: Any
    ) -> VerifyReport:
        return VerifyReport(
            row.id,
            matched,
            checked,
            replayed,
            fill(reason, SOURCE_LOCALE, params),
            row.seed_hex,
            row.commitment,
            reason,
            params,
        )

    if commitment(seed) != row.commitment:
        return report(False, 0, 0, N_("the revealed seed does not hash to the commitment"))
    logged = [[Draw.from_json(draw) for draw in json.loads(r.draws_json)] for r in log_rows]
    matched, checked = verify_draws(seed, logged)
    if not matched:
        return report(
            False,
            checked,
            0,
            N_("outcome #{number} differs from the seed"),
            number=str(checked + 1),
        )
    spec = registry.get(row.game)
    state, _ = replay(spec, row, log_rows, FairDice(seed))
    # The whole log replays here; the count says only what anyone may see (a replaced or
    # never revealed secret choice is not counted: the number would tell of it).
    replayed = sum(
        1
        for step in public_log(spec, log_rows)
        if not LogKind.is_table_step(step.action.get("kind"))
        or step.action.get("kind") == LogKind.START
    )
    if row.state_json is not None and state is not None:
        try:
            stored = spec.engine.state_model.model_validate_json(row.state_json)
        except ValidationError:
            return report(False, checked, replayed, N_("the stored result cannot be read"))
        if stored != state:
            return report(False, checked, replayed, N_("replaying the log gives another result"))
    return report(True, checked, replayed, N_("every roll re-derives from the seed"))


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
    rules = spec.engine.rules_model.model_validate_json(row.rules_json)
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
            state = spec.engine.start(with_house_seats(rules, players), players, dice)
        elif not LogKind.is_table_step(data.get("kind")) and state is not None:
            state, events = spec.engine.act(
                state, log_row.actor_id, spec.engine.parse_action(data), dice
            )
            events = [e for e in events if is_public(e)]
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
