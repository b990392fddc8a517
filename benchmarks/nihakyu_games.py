"""Random full 4-player Nihakyu games per second on one core (goal: at least 2 000/s).

Each game: four players with every variant off (the plain game), each round every
standing player Rolls, until the engine declares a winner; dice are the production
fair dice (HMAC-SHA256), so the figure includes drawing the randomness.

    python benchmarks/nihakyu_games.py [--games N] [--variants]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.fairness import FairDice
from bot.games import nihakyu

PLAYERS = [101, 102, 103, 104]
GOAL = 2_000


def play(rules: nihakyu.Rules, dice: FairDice) -> int:
    """One full game; returns the number of rounds it took."""
    state = nihakyu.start(rules, PLAYERS, dice)
    choice: nihakyu.Roll | nihakyu.ShadowStep = nihakyu.Roll()
    while not state.finished:
        for player in nihakyu.standing(state):
            if player not in state.choices and not state.finished and state.phase == "choosing":
                state, _ = nihakyu.act(state, player, choice, dice)
        if state.phase == "sleight":
            state, _ = nihakyu.act(state, None, nihakyu.Deadline(), dice)
    return state.round


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--variants", action="store_true", help="Dealer's Blood and Sleight on")
    args = parser.parse_args()
    rules = nihakyu.Rules(dealers_blood=args.variants, shinobi_interference=args.variants, ante=10)
    dice = FairDice(b"benchmark-seed".ljust(32, b"\0"))
    play(rules, dice)  # warm-up
    rounds = 0
    started = time.perf_counter()
    for _ in range(args.games):
        rounds += play(rules, dice)
    elapsed = time.perf_counter() - started
    rate = args.games / elapsed
    verdict = "met" if rate >= GOAL else "NOT met"
    sys.stdout.write(
        f"nihakyu: {args.games} random 4-player games in {elapsed:.2f} s on one core\n"
        f"  {rate:,.0f} games/s ({rounds / args.games:.1f} rounds a game, "
        f"{rounds / elapsed:,.0f} rounds/s)\n"
        f"  goal ≥ {GOAL:,} games/s: {verdict}\n"
    )


if __name__ == "__main__":
    main()
