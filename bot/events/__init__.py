"""Tournaments, pure: Swiss pairing and standings, arena scoring and pairing, the prize split.

No Discord, asyncio, clock, global random or storage here (tests/platform/test_layers.py):
the event service (bot/service/) stores events, opens the tables and calls these functions.
"""

from bot.events.arena import arena_pair, arena_points, arena_standings, last_opponents
from bot.events.model import (
    MAX_SEATS,
    MIN_SEATS,
    ArenaPairing,
    ArenaRow,
    Entrant,
    Format,
    Pairing,
    Ranked,
    StandingRow,
    TableResult,
    bye_result,
)
from bot.events.prizes import split_prizes
from bot.events.scoring import scores, standings, table_points
from bot.events.swiss import pair_round

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "ArenaPairing",
    "ArenaRow",
    "Entrant",
    "Format",
    "Pairing",
    "Ranked",
    "StandingRow",
    "TableResult",
    "arena_pair",
    "arena_points",
    "arena_standings",
    "bye_result",
    "last_opponents",
    "pair_round",
    "scores",
    "split_prizes",
    "standings",
    "table_points",
]
