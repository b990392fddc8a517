"""What /stats books as a win (bot.service.acting.counts_as_won)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.service.acting import counts_as_won


@pytest.mark.parametrize(
    ("state", "player", "net", "won"),
    [
        (SimpleNamespace(winner=7), 7, 0, True),
        (SimpleNamespace(winner=7), 8, 0, False),
        (SimpleNamespace(winner=None), 8, 5, True),
        (SimpleNamespace(winners=[7, 8]), 8, 0, True),  # a shared win worth no coin
        (SimpleNamespace(winners=[7]), 8, -3, False),
        (SimpleNamespace(winners=[]), 8, 0, False),
        (SimpleNamespace(), 8, 0, False),  # a game that names nobody
        (SimpleNamespace(), 8, 1, True),
    ],
)
def test_a_win_is_named_by_the_game_or_a_coin_gain(
    state: SimpleNamespace, player: int, net: int, won: bool
) -> None:
    assert counts_as_won(state, player, net) is won
