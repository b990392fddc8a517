"""The Strength Duel's equilibrium computer: its score against simple bidders, and its time
per decision beside the engine's own ``act`` (the baseline, measured in the same run).

Two-player duel, 25 strength each, the computer always at seat A (the bids are
simultaneous, so the seat does not matter). Each game has its own seeded fair dice
(``FairDice``, HMAC-SHA256), which both the computer and the random bidders draw from.
The opponents:

- best play: the equilibrium itself (a second copy of the computer); the score must come
  out at the game's value, 50.0%, inside its interval;
- random: a uniform bid from 0 to its strength;
- greedy: "bid just over what you think they bid": one more than the computer's last
  revealed bid (3 in the first round), capped at its strength;
- stalling: always 0 (a table whose "both bid 0" never ends would run to the round limit).

The computer's score is a game's result (win 1, draw ½, loss 0), with a 95% interval; the
verdict is MET when no opponent scores significantly more than the value against it.
Decision times are the computer's ``decide`` in every two-player position it met, and in
the other modes (forbidden number, three players, tag team: the scaled heuristic) with the
computer at every seat; p50 and p99 in microseconds of CPU time.

    python benchmarks/computer_duel.py [--games 10000] [--mode-games 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._stats import mean_interval, percentile
from bot.fairness import FairDice
from bot.games import strength_duel as duel
from bot.players import strength_duel as duel_player

A, B = 101, 202
SEATS = [A, B, 303, 404]
Bidder = Callable[[duel.State, int, FairDice], int]


def best_play(state: duel.State, seat: int, dice: FairDice) -> int:
    action = duel_player.decide(state, seat, dice)
    assert isinstance(action, duel.Bid)
    return action.amount


def random_bid(state: duel.State, seat: int, dice: FairDice) -> int:
    return dice.roll(state.strength[seat] + 1) - 1


def greedy_bid(state: duel.State, seat: int, dice: FairDice) -> int:
    guess = state.history[-1].bids[A] if state.history else 2
    return min(state.strength[seat], guess + 1)


def stalling_bid(state: duel.State, seat: int, dice: FairDice) -> int:
    return 0


OPPONENTS: dict[str, Bidder] = {
    "best play": best_play,
    "random": random_bid,
    "greedy": greedy_bid,
    "stalling": stalling_bid,
}


def duel_games(
    opponent: Bidder, games: int, decide_us: list[float], act_us: list[float]
) -> tuple[list[float], list[int]]:
    """The computer's result and the rounds played, a game."""
    results, rounds = [], []
    for game in range(games):
        dice = FairDice(b"computer-duel" + game.to_bytes(4, "big") * 4 + b"xxx")
        state = duel.start(duel.Rules(), [A, B], dice)
        while not state.finished:
            started = time.process_time_ns()
            action = duel_player.decide(state, A, dice)
            decided = time.process_time_ns()
            assert isinstance(action, duel.Bid)
            state, _ = duel.act(state, A, action, dice)
            acted = time.process_time_ns()
            decide_us.append((decided - started) / 1000)
            act_us.append((acted - decided) / 1000)
            state, _ = duel.act(state, B, duel.Bid(amount=opponent(state, B, dice)), dice)
        results.append(0.5 if state.draw else 1.0 if state.winner == A else 0.0)
        rounds.append(state.round)
    return results, rounds


def mode_games(mode: str, games: int, decide_us: list[float], act_us: list[float]) -> int:
    """Computers at every seat of another mode; the rounds played in all."""
    played = 0
    for game in range(games):
        dice = FairDice(mode.encode().ljust(28, b"-") + game.to_bytes(4, "big"))
        state = duel.start(duel.Rules(mode=mode), SEATS[: duel.SEATS[mode]], dice)  # type: ignore[arg-type]
        while not state.finished:
            for seat in duel.waiting_for(state):
                started = time.process_time_ns()
                action = duel_player.decide(state, seat, dice)
                decided = time.process_time_ns()
                assert action is not None
                state, _ = duel.act(state, seat, action, dice)
                decide_us.append((decided - started) / 1000)
                act_us.append((time.process_time_ns() - decided) / 1000)
        played += state.round
    return played


def times(label: str, decide_us: list[float], act_us: list[float]) -> str:
    return (
        f"  {label:<41} decide p50 {percentile(decide_us, 0.5):6.1f} µs, "
        f"p99 {percentile(decide_us, 0.99):6.1f} µs | baseline engine act p50 "
        f"{percentile(act_us, 0.5):6.1f} µs, p99 {percentile(act_us, 0.99):6.1f} µs "
        f"({len(decide_us):,} decisions)\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10000, help="two-player games per opponent")
    parser.add_argument("--mode-games", type=int, default=200, help="games per other mode")
    args = parser.parse_args()
    out = sys.stdout.write
    value = duel_player.value(25, 25)
    out(
        f"Strength Duel: the equilibrium computer, {args.games} seeded games per opponent "
        f"(game value from 25/25: {value:.1%})\n"
    )
    decide_us: list[float] = []
    act_us: list[float] = []
    met = True
    for name, opponent in OPPONENTS.items():
        results, rounds = duel_games(opponent, args.games, decide_us, act_us)
        score, half_width = mean_interval(results)
        met = met and score + half_width >= value
        wins, draws = results.count(1.0), results.count(0.5)
        out(
            f"  vs {name:<10} scores {score:6.1%} ± {half_width:.1%} "
            f"(won {wins}, drew {draws}, lost {len(results) - wins - draws}); "
            f"rounds a game: mean {statistics.fmean(rounds):.1f}, max {max(rounds)}\n"
        )
    out(f"  never significantly below the value {value:.1%}: {'MET' if met else 'NOT MET'}\n")
    out("Time per decision (process CPU time):\n")
    out(times("two-player duel (the table)", decide_us, act_us))
    for mode in ("forbidden", "three", "tag"):
        mode_decide: list[float] = []
        mode_act: list[float] = []
        played = mode_games(mode, args.mode_games, mode_decide, mode_act)
        label = f"{mode} (heuristic, {played / args.mode_games:.1f} rounds/game)"
        out(times(label, mode_decide, mode_act))


if __name__ == "__main__":
    main()
