"""Swapping a running bot's computer player for a variant (its thinking time, its decide)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.app import TanzakuBot
from bot.players import AnyComputer


def vary_computer(
    monkeypatch: pytest.MonkeyPatch, bot: TanzakuBot, game: str, **changes: Any
) -> AnyComputer:
    """Give ``game``'s computer at this bot's table service the ``changes`` (fields of
    ``Computer``) for the test; returns the computer it had."""
    players = bot.tables.computers.players
    real = players[game]
    monkeypatch.setitem(players, game, replace(real, **changes))
    return real
