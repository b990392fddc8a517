"""An engine missing a contract method fails `mypy --strict`, not a player's click."""

from __future__ import annotations

import textwrap
from pathlib import Path

import mypy.api as mypy_api

COMPLETE = """
from pydantic import BaseModel
from bot.games.contract import Engine
from bot.games.dice import Dice

class Rules(BaseModel):
    stake: int = 1

class State(BaseModel):
    seats: list[int]

class Go(BaseModel):
    pass

class Went(BaseModel):
    pass

class Toy(Engine[Rules, State, Go, Went]):
    name = "toy"

    def start(self, rules: Rules, players: list[int], dice: Dice) -> State:
        return State(seats=players)

    def act(
        self, state: State, player: int | None, action: Go, dice: Dice
    ) -> tuple[State, list[Went]]:
        return state, [Went()]

    def seat_limits(self, rules: Rules) -> tuple[int, int]:
        return (1, 2)

    def hold(self, rules: Rules) -> int:
        return rules.stake
{deadline}

ENGINE = Toy(rules_model=Rules, state_model=State, action_type=Go, event_type=Went)
"""
DEADLINE = """
    def deadline_seconds(self, state: State) -> int | None:
        return None
"""


def check(tmp_path: Path, source: str) -> tuple[str, int]:
    path = tmp_path / "toy_engine.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    cache = tmp_path / ".mypy_cache"
    out, err, status = mypy_api.run(
        ["--strict", "--no-error-summary", "--cache-dir", str(cache), str(path)]
    )
    return out + err, status


def test_a_complete_engine_type_checks_and_an_incomplete_one_does_not(tmp_path: Path) -> None:
    output, status = check(tmp_path, COMPLETE.format(deadline=DEADLINE))
    assert status == 0, output
    output, status = check(tmp_path, COMPLETE.format(deadline=""))
    assert status != 0
    assert 'Cannot instantiate abstract class "Toy"' in output
    assert "deadline_seconds" in output
