"""The dice games' computer players (issue 15): Nihakyu, Hazard, Fortunes and Winds.

Time per decision: every decision that returned a move, p50 and p99 in µs, beside the
engine's own ``act`` on the same tables in the same run (the baseline). Goal: a decision
well under 10 ms (p99 below 10 ms) at the default Stamina; Nihakyu is also timed at the
settings that make its dynamic programme work hardest (limited Shadow Steps, Stamina
1 000), for information. Tables: Nihakyu with two and four computers playing each other
(every variant on, ante 0); Hazard and Fortunes and Winds with computers beside a member
who makes a random legal move (or lets the deadline act).

Landing moment (issue 24): the table service lands each Nihakyu move of the computer a
fixed ``NIHAKYU.computer.thinking_seconds`` after its decision began (the next multiple if it
took longer). Printed per Nihakyu setting: p99.9 and the slowest decision as a share of
that moment, and how many decisions took longer.

Strength: Nihakyu's DP computer over ``--games`` seeded two-player games (Stamina
``--stamina``, Shadow Step, Kage's Endurance and Sleight of Hand on, ante 0, seats
alternating) against an always-Roll player and against a uniform random legal player,
its share of wins with a 95% Wilson interval; the baseline is the same opponent against
itself, 50% by symmetry. Goal: the interval above 50% against both. Also printed, for
information: against an always-Shadow-Step player, which plays better than the model the
computer assumes of the others (that they Roll).

Dice: the production fair dice (HMAC-SHA256), one seed per game. The opponents' random
choices come from their own seeded generator, never from the table's dice.

    python benchmarks/computer_dice_games.py [--games 600] [--stamina 100] [--tables 30]

Exit 0 with the report; 2 when the run is not valid (an engine refused a computer's move).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._stats import percentile, wilson
from bot.catalog import NIHAKYU
from bot.fairness import FairDice
from bot.games import fortunes_winds as fw
from bot.games import hazard, nihakyu
from bot.games.common import COMPUTER_IDS, Deadline, Leave
from bot.games.errors import IllegalMove
from bot.players import fortunes_winds as fw_player
from bot.players import hazard as hazard_player
from bot.players import nihakyu as nihakyu_player

A, B, C, D = COMPUTER_IDS[0], COMPUTER_IDS[1], COMPUTER_IDS[2], 4004
MEMBER = 5005
BUDGET_MS = 10.0


class Invalid(Exception):
    """An engine refused a computer's move: the run measures nothing."""


class Timings:
    def __init__(self) -> None:
        self.decide: list[float] = []
        self.act: list[float] = []

    def decision(
        self, decide: Callable[[Any, int, Any], Any], state: Any, seat: int, dice: Any
    ) -> Any:
        started = time.perf_counter()
        action = decide(state, seat, dice)
        if action is not None:
            self.decide.append((time.perf_counter() - started) * 1e6)
        return action

    def apply(
        self, act: Callable[..., Any], state: Any, seat: int | None, action: Any, dice: Any
    ) -> Any:
        started = time.perf_counter()
        try:
            state, _ = act(state, seat, action, dice)
        except IllegalMove as refused:
            if seat in COMPUTER_IDS:
                raise Invalid(f"{type(action).__name__} refused: {refused}") from refused
            raise
        self.act.append((time.perf_counter() - started) * 1e6)
        return state


def seeded(label: str, index: int) -> FairDice:
    return FairDice(label.encode() + index.to_bytes(4, "big") * 6)


# -- Nihakyu -----------------------------------------------------------------------------------


def nihakyu_table(rules: nihakyu.Rules, seats: list[int], dice: FairDice, timings: Timings) -> None:
    """Computers at every seat play one game to the end."""
    state = nihakyu.start(rules, seats, dice)
    while not state.finished:
        moved = False
        for seat in seats:
            if state.finished:
                break
            action = timings.decision(nihakyu_player.decide, state, seat, dice)
            if action is not None:
                state = timings.apply(nihakyu.act, state, seat, action, dice)
                moved = True
        if not moved:
            raise Invalid("no computer acted and the game is not over")


NihakyuOpponent = Callable[[nihakyu.State, int, random.Random], nihakyu.Action | None]


def always_roll(state: nihakyu.State, seat: int, rng: random.Random) -> nihakyu.Action | None:
    legal = nihakyu.legal_actions(state, seat)
    if nihakyu.Roll() in legal:
        return nihakyu.Roll()
    return nihakyu.SkipSleight() if nihakyu.SkipSleight() in legal else None


def always_shadow(state: nihakyu.State, seat: int, rng: random.Random) -> nihakyu.Action | None:
    """Shadow Step while it is allowed (a steady 5, less than a roll's 10.5 on average)."""
    legal = nihakyu.legal_actions(state, seat)
    if nihakyu.ShadowStep() in legal:
        return nihakyu.ShadowStep()
    return always_roll(state, seat, rng)


def uniform_random(state: nihakyu.State, seat: int, rng: random.Random) -> nihakyu.Action | None:
    legal = nihakyu.legal_actions(state, seat)
    return rng.choice(legal) if legal else None


def nihakyu_match(opponent: NihakyuOpponent | None, games: int, stamina: int) -> float:
    """The DP computer's share of wins over ``games`` two-player games (``None``: the
    opponent is always-Roll playing against itself, the baseline)."""
    rules = nihakyu.Rules(
        ante=0,
        starting_stamina=stamina,
        shadow_step=True,
        kage_endurance=True,
        shinobi_interference=True,
    )
    wins = 0.0
    for game in range(games):
        dice = seeded("nihakyu-match", game)
        rng = random.Random(game)
        seats = [A, D] if game % 2 == 0 else [D, A]
        state = nihakyu.start(rules, seats, dice)
        while not state.finished:
            moved = False
            for seat in seats:
                if state.finished:
                    break
                if seat == A and opponent is not None:
                    action = nihakyu_player.decide(state, seat, dice)
                else:
                    action = (opponent or always_roll)(state, seat, rng)
                if action is not None:
                    state, _ = nihakyu.act(state, seat, action, dice)
                    moved = True
            if not moved and not state.finished:
                state, _ = nihakyu.act(state, None, nihakyu.Deadline(), dice)
        wins += 1.0 if state.winner == A else 0.0
    return wins


# -- Hazard and Fortunes and Winds ------------------------------------------------------------


def member_moves(state: hazard.State, rng: random.Random) -> Iterator[hazard.Action]:
    candidates: list[hazard.Action] = [
        hazard.Ready(),
        hazard.Throw(),
        hazard.PassDice(),
        hazard.CallMain(main=rng.choice(hazard.MAINS)),
        *(hazard.Bet(kind=kind, amount=rng.randint(1, 20)) for kind in hazard.BET_KINDS),
    ]
    rng.shuffle(candidates)
    return iter(candidates)


def computers_move(
    decide: Callable[..., Any],
    act: Callable[..., Any],
    state: Any,
    seats: list[int],
    dice: FairDice,
    timings: Timings,
) -> Any:
    """Each computer seat in turn makes the move it decides on, if any."""
    for seat in seats:
        if seat == MEMBER:
            continue
        action = timings.decision(decide, state, seat, dice)
        if action is not None:
            state = timings.apply(act, state, seat, action, dice)
    return state


def beside_a_member(game: str, tables: int) -> Iterator[tuple[FairDice, random.Random, list[int]]]:
    """Each table's dice, the member's own generator, and its seats: two computers around
    the member, or the member first beside one."""
    for table in range(tables):
        seats = [A, MEMBER, B] if table % 2 else [MEMBER, A]
        yield seeded(game, table), random.Random(table), seats


def hazard_tables(tables: int, timings: Timings) -> int:
    rounds = 0
    for dice, rng, seats in beside_a_member("hazard", tables):
        state = hazard.start(hazard.Rules(), seats, dice)
        for _ in range(300):
            state = computers_move(hazard_player.decide, hazard.act, state, seats, dice, timings)
            if rng.random() < 0.3:
                state = timings.apply(hazard.act, state, None, Deadline(), dice)
                continue
            for move in member_moves(state, rng):
                try:
                    state = timings.apply(hazard.act, state, MEMBER, move, dice)
                except IllegalMove:
                    continue
                break
        rounds += state.round - 1
    return rounds


def fortunes_tables(tables: int, timings: Timings) -> int:
    turns = 0
    for dice, rng, seats in beside_a_member("fortunes", tables):
        state = fw.start(fw.Rules(), seats, dice)
        for _ in range(300):
            if state.finished:
                break
            state = computers_move(fw_player.decide, fw.act, state, seats, dice, timings)
            moves = [m for m in fw.legal_actions(state, MEMBER) if not isinstance(m, Leave)]
            if moves and rng.random() < 0.6:
                state = timings.apply(fw.act, state, MEMBER, rng.choice(moves), dice)
            else:
                state = timings.apply(fw.act, state, None, Deadline(), dice)
        turns += state.turn - 1
    return turns


# -- the report --------------------------------------------------------------------------------


def timing_line(name: str, timings: Timings, goal: bool = True, landing: float = 0.0) -> str:
    p50, p99 = percentile(timings.decide, 0.5), percentile(timings.decide, 0.99)
    verdict = ""
    if goal:
        verdict = "; p99 < 10 ms: " + ("MET" if p99 < BUDGET_MS * 1000 else "NOT MET")
    line = (
        f"  {name}: {len(timings.decide)} decisions p50 {p50:,.1f} µs, p99 {p99:,.1f} µs, "
        f"max {max(timings.decide):,.1f} µs; engine act p50 {percentile(timings.act, 0.5):,.1f}"
        f" µs, p99 {percentile(timings.act, 0.99):,.1f} µs{verdict}\n"
    )
    if landing > 0:
        moment = landing * 1e6
        over = sum(took > moment for took in timings.decide)
        line += (
            f"    beside the landing moment ({landing * 1000:.0f} ms): p99.9 "
            f"{percentile(timings.decide, 0.999) / moment:.1%}, max "
            f"{max(timings.decide) / moment:.1%} of it; {over} took longer\n"
        )
    return line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=600, help="Nihakyu games per opponent")
    parser.add_argument("--stamina", type=int, default=100, help="Stamina in those games")
    parser.add_argument("--tables", type=int, default=30, help="tables timed per setting")
    args = parser.parse_args()
    out = sys.stdout.write
    started = time.perf_counter()
    try:
        out("Time per decision (a decision that returned a move) beside the engine's act\n")
        every = {
            "ante": 0,
            "shadow_step": True,
            "kage_endurance": True,
            "shinobi_interference": True,
        }
        settings: list[tuple[str, dict[str, Any], list[int], bool]] = [
            ("Nihakyu 2 seats, Stamina 200, every variant", every, [A, B], True),
            ("Nihakyu 4 seats, Stamina 200, every variant", every, [A, B, C, D], True),
            (
                "Nihakyu 3 seats + Dealer, Stamina 200, every variant",
                {**every, "dealers_blood": True},
                [A, B, C],
                True,
            ),
            (
                "Nihakyu 2 seats, Stamina 200, 3 Shadow Steps each",
                {**every, "shadow_step_uses": 3},
                [A, B],
                False,
            ),
            (
                "Nihakyu 2 seats, Stamina 1000, every variant",
                {**every, "starting_stamina": 1000},
                [A, B],
                False,
            ),
            (
                "Nihakyu 2 seats, Stamina 1000, Kage only",
                {"ante": 0, "starting_stamina": 1000, "kage_endurance": True},
                [A, B],
                False,
            ),
        ]
        for name, rules, seats, goal in settings:
            timings = Timings()
            tables = args.tables if goal else max(1, args.tables // 6)
            for table in range(tables):
                dice = seeded(name, table)
                nihakyu_table(nihakyu.Rules(**rules), seats, dice, timings)
            assert NIHAKYU.computer is not None
            landing = NIHAKYU.computer.thinking_seconds
            out(timing_line(f"{name} ({tables} games)", timings, goal, landing))
        timings = Timings()
        rounds = hazard_tables(args.tables, timings)
        out(timing_line(f"Hazard, beside a random member ({rounds} rounds)", timings))
        timings = Timings()
        turns = fortunes_tables(args.tables, timings)
        out(timing_line(f"Fortunes and Winds, beside a random member ({turns} turns)", timings))

        out(
            f"Nihakyu's DP computer, {args.games} two-player games per opponent (Stamina "
            f"{args.stamina}, Shadow Step, Kage's Endurance, Sleight of Hand)\n"
        )
        baseline = nihakyu_match(None, args.games, args.stamina)
        low, high = wilson(baseline, args.games)
        share = baseline / args.games
        out(f"  baseline, always-Roll against itself: {share:.1%} [{low:.1%}, {high:.1%}]\n")
        for name, opponent in (
            ("always-Roll", always_roll),
            ("uniform random legal", uniform_random),
            ("always-Shadow-Step (for information)", always_shadow),
        ):
            wins = nihakyu_match(opponent, args.games, args.stamina)
            low, high = wilson(wins, args.games)
            verdict = "MET" if low > 0.5 else "NOT MET"
            out(
                f"  vs {name}: wins {wins / args.games:.1%} [{low:.1%}, {high:.1%}]; "
                f"interval above 50%: {verdict}\n"
            )
    except Invalid as invalid:
        out(f"NOT VALID: {invalid}\n")
        return 2
    out(f"wall {time.perf_counter() - started:.1f} s\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
