"""What /stats books as a win (bot.service.acting.counts_as_won): the players the game
names (its engine's ``winners``), or a coin gain."""

from __future__ import annotations

import pytest

from bot.service.acting import counts_as_won


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


@pytest.mark.parametrize(
    ("game", "state", "named"),
    [
        ("nihakyu", {"winner": 7}, [7]),
        ("nihakyu", {"winner": None}, []),
        ("strength_duel", {"winner": 7}, [7]),
        ("hachihachi", {"winners": [7, 8]}, [7, 8]),
        ("hazard", {}, []),
        ("fortunes_winds", {}, []),
    ],
)
def test_each_engine_names_its_winners(game: str, state: dict[str, object], named: list[int]):
    from bot.catalog import CATALOG

    engine = CATALOG.get(game).engine
    finished = engine.state_model.model_construct(**state)
    assert engine.winners(finished) == named
