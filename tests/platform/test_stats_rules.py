"""What /stats books as a win (bot.service.acting.counts_as_won): the players the game
names (its engine's ``winners``), or a coin gain.

Which players a game names is read from its own games, not from a table of fields: every
catalogued game is played out at random (the contract's playouts, tests/games/
test_contract.py) and what its engine names at the finish is held to what the coins say,
so a game added to the catalog is checked with no line written here."""

from __future__ import annotations

from typing import Any

import pytest

from bot.catalog import CATALOG, AnyGame
from bot.games.common import HOUSE
from bot.games.contract import Engine
from bot.service.acting import counts_as_won
from tests.games.test_contract import play_out, record_cases

SEEDS = range(12)


@pytest.mark.parametrize(
    ("named", "player", "net", "won"),
    [
        ([7], 7, 0, True),
        ([7], 8, 0, False),
        ([], 8, 5, True),
        ([7, 8], 8, 0, True),  # a shared win worth no coin
        ([7], 8, -3, False),
        ([], 8, 0, False),  # a game that names nobody
        ([], 8, 1, True),
    ],
)
def test_a_win_is_named_by_the_game_or_a_coin_gain(
    named: list[int], player: int, net: int, won: bool
) -> None:
    assert counts_as_won(named, player, net) is won


def names_winners(record: AnyGame) -> bool:
    """Whether the game names winners at all (a game settled in coins alone keeps the
    contract's default, naming nobody)."""
    return type(record.engine).winners is not Engine.winners


def winner_problems(engine: Any, state: Any) -> list[str]:
    """What is wrong with the winners ``engine`` names at a finished ``state``: each must
    be a player, named once, and none came out behind another player. (Who came out ahead
    need not be named: when the Nihakyu Dealer wins, players share the pot unnamed.)"""
    named = engine.winners(state)
    net = {player: coins for player, coins in state.payouts.items() if player != HOUSE}
    problems = []
    if len(set(named)) != len(named) or not set(named) <= set(net):
        problems.append(f"names {named}, not each of the players {sorted(net)} once")
    best = max(net.values(), default=0)
    if any(net.get(player, 0) < best for player in named):
        problems.append(f"names {named}, though another came out further ahead: {net}")
    return problems


def winners_problems(record: AnyGame) -> list[str]:
    """What is wrong with what the game names as its winners, over its random playouts;
    a game that names winners must finish some playout naming one, or nothing was seen."""
    problems = []
    seen_named = False
    for case in record_cases(record):
        engine, rules, maker = case.values
        for seed in SEEDS:
            state = play_out(engine, rules, maker, seed)
            if not state.finished:
                continue
            seen_named = seen_named or bool(engine.winners(state))
            problems += [f"{case.id} seed {seed}: {p}" for p in winner_problems(engine, state)]
    if names_winners(record) and not seen_named:
        problems.append(f"{record.name}: no playout finished naming a winner")
    return problems


@pytest.mark.parametrize("record", CATALOG.records, ids=CATALOG.names())
def test_each_engine_names_its_winners(record: AnyGame) -> None:
    assert winners_problems(record) == []
