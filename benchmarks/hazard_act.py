"""Hazard's engine ``act`` at a full table (goal: under 1 ms an action on one core).

Ten seated, nine bets "with" the caster: the caster calls 7 and throws a nick, which
settles all nine bets and ends the round, the heaviest single throw of a full table.
Each pair of actions starts again from the same state (``act`` never mutates its
input), with scripted dice. The figure is CPU time an action, the mean over the run.

Printed beside it, measured in the same run on the same core, a baseline: one Roll of a
4-player Nihakyu round (the engine whose own benchmark is benchmarks/nihakyu_games.py),
so a figure taken on a busy or slower machine can be read against it.

    python benchmarks/hazard_act.py [--pairs N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import hazard as hz
from bot.games import nihakyu
from bot.games.dice import ScriptedDice
from tests.support.dice import SeededDice

GOAL_SECONDS = 0.001
PLAYERS = list(range(1, 11))


def full_table() -> hz.State:
    state = hz.start(hz.Rules(bet_seconds=0), PLAYERS, ScriptedDice())
    for player in PLAYERS[1:]:
        state, _ = hz.act(state, player, hz.Bet(kind="with", amount=5), ScriptedDice())
    return state


def hazard_pairs(state: hz.State, count: int) -> int:
    """Call 7 and throw a nick, `count` times from `state`; returns the actions taken."""
    call, throw = hz.CallMain(main=7), hz.Throw()
    for _ in range(count):
        called, _ = hz.act(state, 1, call, ScriptedDice())
        _, events = hz.act(called, 1, throw, ScriptedDice([1, 6]))
        assert events[-1].kind == "round_ended", "the nick must settle the round"
    return 2 * count


def nihakyu_rolls(count: int) -> int:
    """`count` Rolls, each by the first standing player of a fresh 4-player round."""
    dice = SeededDice(7)
    state = nihakyu.start(nihakyu.Rules(ante=10), PLAYERS[:4], dice)
    roll = nihakyu.Roll()
    first = nihakyu.standing(state)[0]
    for _ in range(count):
        nihakyu.act(state, first, roll, dice)
    return count


def timed(work: Any, *args: Any) -> tuple[int, float]:
    started = time.process_time()
    done = work(*args)
    return done, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pairs", type=int, default=2000)
    args = parser.parse_args()

    state = full_table()
    hazard_pairs(state, 100)  # warm-up
    nihakyu_rolls(100)
    actions, elapsed = timed(hazard_pairs, state, args.pairs)
    rolls, base_elapsed = timed(nihakyu_rolls, args.pairs * 2)
    per_action = elapsed / actions
    verdict = "MET" if per_action < GOAL_SECONDS else "NOT MET"
    sys.stdout.write(
        f"hazard: {actions} actions at a 10-seat table (call 7, then a nick settling 9 bets)"
        f" in {elapsed:.2f} s of CPU time on one core\n"
        f"  {per_action * 1e6:,.0f} µs an action\n"
        f"  goal < {GOAL_SECONDS * 1e3:.0f} ms an action: {verdict}\n"
        f"baseline, same run: {base_elapsed / rolls * 1e6:,.0f} µs a 4-player Nihakyu Roll\n"
    )


if __name__ == "__main__":
    main()
