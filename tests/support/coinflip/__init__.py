"""A tiny game that exists only to prove the table service, added the way any game is: this
engine package, one catalog record (:data:`COINFLIP`, in :data:`TEST_CATALOG`) and one cog
package (``tests/support/coinflip_cog``). Not shipped with the bot."""

from __future__ import annotations

from bot.catalog import CATALOG, Catalog, Game
from bot.players import Computer
from tests.support.coinflip.computer import decide
from tests.support.coinflip.engine import (
    ACTIONS,
    ENGINE,
    Action,
    Call,
    CoinflipEngine,
    Event,
    Flipped,
    Raise,
    Rules,
    State,
    Won,
    act,
    deadline_seconds,
    hold,
    seat_limits,
    start,
)

COINFLIP = Game(
    engine=ENGINE,
    title="Coin Flip",
    rules_file=None,
    colour=(149, 165, 166),
    extension="tests.support.coinflip_cog",
    # A fair coin: the house may stake for its computer at any table.
    computer=Computer(decide, house_stakes=lambda rules: None),
)

TEST_CATALOG = Catalog((*CATALOG.records, COINFLIP))
"""The shipped games and the coin flip: what the tests' bots host."""

__all__ = [
    "ACTIONS",
    "COINFLIP",
    "ENGINE",
    "TEST_CATALOG",
    "Action",
    "Call",
    "CoinflipEngine",
    "Event",
    "Flipped",
    "Raise",
    "Rules",
    "State",
    "Won",
    "act",
    "deadline_seconds",
    "decide",
    "hold",
    "seat_limits",
    "start",
]
