"""How an event's table ended, read from the table itself (never reported by hand): each
player's place from the final state, and who lost without ever playing (a no-show the
table's own deadlines ended)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.events import TableResult
from bot.games.registry import AnySpec
from bot.service.terms import LogKind
from bot.storage import table_queries as tq
from bot.storage.table_queries import TableStatus


def places_of(
    spec: AnySpec, state: Any, players: Sequence[int], events: Sequence[Mapping[str, Any]]
) -> tuple[int, ...]:
    """Each player's place (1 is first, equal places tie), aligned with `players`.

    The game's own ranking (``GameSpec.ranking``, what skill ratings read: Hachi-hachi's
    match points, the duel's winner) where it has one; otherwise the winners its engine
    names first, the rest tied after them, no winner a draw."""
    ranking = spec.ranking(state, events) if spec.ranking is not None else None
    if ranking is not None:
        place = {
            p: at for team, at in zip(ranking.teams, ranking.places, strict=True) for p in team
        }
        if all(player in place for player in players):
            return tuple(place[player] for player in players)
    winners = set(spec.engine.winners(state))
    if not winners:
        return tuple(1 for _ in players)
    return tuple(1 if player in winners else len(winners) + 1 for player in players)


def played(log_rows: Sequence[tq.LogRow]) -> set[int]:
    """The members who made a move of the game at the table (a bid, a play…)."""
    movers: set[int] = set()
    for row in log_rows:
        if row.actor_id is None:
            continue
        # The table's own steps (open, join, start…) are nobody's move.
        if not LogKind.is_table_step(json.loads(row.action_json).get("kind")):
            movers.add(row.actor_id)
    return movers


def table_result(
    spec: AnySpec,
    row: tq.TableRow,
    players: Sequence[int],
    log_rows: Sequence[tq.LogRow],
    round: int,
) -> TableResult:
    """The result of an ended table. A table a moderator ended (or that could not go on)
    before anyone won is a draw for everyone at it: nobody's fault is read into it."""
    state = (
        None
        if row.state_json is None
        else spec.engine.state_model.model_validate_json(row.state_json)
    )
    if row.status != TableStatus.FINISHED or state is None:
        places = tuple(1 for _ in players)
    else:
        events = [event for log_row in log_rows for event in json.loads(log_row.events_json)]
        places = places_of(spec, state, players, events)
    worst = max(places)
    movers = played(log_rows)
    forfeits = tuple(
        player
        for player, place in zip(players, places, strict=True)
        if place == worst and place > 1 and player not in movers
    )
    return TableResult(
        table_id=row.id,
        round=round,
        players=tuple(players),
        places=places,
        forfeit_losers=forfeits,
    )
