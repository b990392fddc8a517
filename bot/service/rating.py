"""Ratings move as a table ends: in the transaction that records its results, from how
the game placed its players (``GameSpec.ranking``), through openskill (``bot/ratings.py``).

Only a table played out changes ratings: one a moderator ended is saved as cancelled and
never reaches here, and one where a player never made a move of their own (a no-show
who lost by the table's deadlines) is left unrated (:func:`bot.ratings.played_out`)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot import ratings
from bot.games.registry import AnySpec
from bot.service.terms import LogKind
from bot.storage import Transaction
from bot.storage import ratings as rq
from bot.storage import table_queries as tq


def movers(log: Sequence[tq.LogRow]) -> set[int]:
    """Who sent a game action of their own at a table (the table's steps and its
    deadlines, sent by nobody, are not moves)."""
    return {
        row.actor_id
        for row in log
        if row.actor_id is not None
        and not LogKind.is_table_step(json.loads(row.action_json).get("kind"))
    }


async def rate_table(
    tx: Transaction,
    row: tq.TableRow,
    spec: AnySpec,
    state: Any,
    log: Sequence[tq.LogRow],
    events: Sequence[Mapping[str, Any]],
    now: float,
) -> dict[int, ratings.Skill]:
    """Update the ratings of a finished table's players; returns the new ones (by rated
    identity: the computer under :data:`bot.ratings.COMPUTER`), empty when it is unrated."""
    if spec.ranking is None:
        return {}
    ranking = spec.ranking(state, events)
    if ranking is None or not ratings.played_out(ranking.players, movers(log)):
        return {}
    who = {ratings.identity(player) for player in ranking.players}
    held = await rq.lock(
        tx,
        row.guild_id,
        spec.name,
        who,
        mu=ratings.NEW.mu,
        sigma=ratings.NEW.sigma,
        now=now,
    )
    before = {user: ratings.Skill(r.mu, r.sigma, r.games) for user, r in held.items()}
    after = ratings.rate(ranking, before)
    for user, skill in sorted(after.items()):
        await rq.save(
            tx,
            row.guild_id,
            spec.name,
            rq.RatingRow(user, skill.mu, skill.sigma, skill.games),
            ordinal=skill.ordinal,
            now=now,
        )
    return after
