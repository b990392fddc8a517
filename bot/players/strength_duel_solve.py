"""Solve the two-player Strength Duel exactly and write the table the computer plays from
(``bot/players/strength_duel_table.json``): ``python -m bot.players.strength_duel_solve``.

Every state (own strength, the opponent's strength), both at least 1, is a zero-sum
matrix game over the two bids; its payoffs are the round's end (win 1, draw ½, loss 0)
or the value of the state the round leads to. Every round with a bid spends strength, so
states are solved in order of their total strength, each from smaller ones, except one
entry: both bidding 0 leaves the state as it was, so the game contains its own value.
Its value is the fixed point ``v = val(M(v))`` (``val`` is the matrix game's value with
``v`` at that entry). ``val(M(v))`` is piecewise linear in ``v`` with slope ``p₀·q₀ < 1``
(the chance both equilibria bid 0), so Newton's method on ``val(M(v)) − v`` reaches the
fixed point in a few steps and lands on it exactly once it is on the right piece.

A decided state is not left to the LP. There, any mix is optimal, and the LP's pick was
often "both bid 0": a stall that leaves the win to the round limit (``max_rounds``,
100), an engine rule this model leaves out. So a state is *won* when some bid above 0 wins
against every reply, outright or into a won state (an exact, float-free induction); its
value is 1 and the computer plays the won bid that ends the game in the fewest rounds the
opponent can hold it to. The mirror state is *lost* (value 0); there the computer bids
above 0 too (the one that scores most against a uniformly random reply, a proxy for the
opponent's mistakes), so the game never stalls. Every other state bids 0 with a chance
below 1, so the game ends with certainty and the round limit is left out: the state is
the two strengths alone.

Each matrix game is solved with SciPy's HiGHS at tight tolerances, then polished: the
equilibrium is re-solved as the exact equalising system on the support HiGHS found, so
the table holds to 1e-12 what the tests check to 1e-9. The bot never imports this module:
it reads the table.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import linprog  # type: ignore[import-untyped]

from bot.players.duel_round import round_end

log = logging.getLogger(__name__)

MAX_STRENGTH = 25
TABLE_PATH = Path(__file__).with_name("strength_duel_table.json")
_TOLERANCE = 1e-11


def value_of(values: NDArray[np.float64], a: int, b: int) -> float:
    """The value of any pair of strengths, the ended ones included."""
    if a == 0 or b == 0:
        return 0.5 if a == b else (0.0 if a == 0 else 1.0)
    return float(values[a, b])


def payoff_matrix(
    values: NDArray[np.float64], a: int, b: int, self_value: float
) -> NDArray[np.float64]:
    """Own bids by rows, the opponent's by columns; ``self_value`` at (0, 0)."""
    matrix = np.empty((a + 1, b + 1))
    for x in range(a + 1):
        for y in range(b + 1):
            end, after = round_end(a, b, x, y)
            if end is not None:
                matrix[x, y] = end
            elif after == (a, b):
                matrix[x, y] = self_value
            else:
                assert after is not None
                matrix[x, y] = values[after]
    return matrix


def solve_matrix(
    matrix: NDArray[np.float64],
) -> tuple[float, NDArray[np.float64], NDArray[np.float64]]:
    """The matrix game's value, the row player's equilibrium mix and the column player's."""
    row_mix, value = _maximin(matrix)
    col_mix, minus_value = _maximin(-matrix.T)
    assert abs(value + minus_value) < 1e-7, (value, minus_value)
    return _polish(matrix, row_mix, col_mix, value)


def _maximin(matrix: NDArray[np.float64]) -> tuple[NDArray[np.float64], float]:
    rows, cols = matrix.shape
    # Variables: the row mix p (rows), then v. Maximise v: minimise -v.
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    # For every column y: v - sum_x p_x M[x, y] <= 0.
    upper = np.hstack([-matrix.T, np.ones((cols, 1))])
    equal = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    result = linprog(
        cost,
        A_ub=upper,
        b_ub=np.zeros(cols),
        A_eq=equal,
        b_eq=[1.0],
        bounds=[(0, None)] * rows + [(None, None)],
        method="highs",
        options={
            "primal_feasibility_tolerance": 1e-10,
            "dual_feasibility_tolerance": 1e-10,
        },
    )
    if not result.success:
        raise RuntimeError(f"the LP failed: {result.message}")
    mix = np.clip(result.x[:rows], 0.0, None)
    return mix / mix.sum(), float(result.x[-1])


def _polish(
    matrix: NDArray[np.float64],
    row_mix: NDArray[np.float64],
    col_mix: NDArray[np.float64],
    value: float,
) -> tuple[float, NDArray[np.float64], NDArray[np.float64]]:
    """Re-solve the equalising system on the supports HiGHS found (each side's support
    makes the other's support indifferent at the value); keep it when it is a valid
    equilibrium, tighter than the solver's own tolerance."""
    rows = np.flatnonzero(row_mix > 1e-9)
    cols = np.flatnonzero(col_mix > 1e-9)
    if len(rows) != len(cols):
        return value, row_mix, col_mix
    sub = matrix[np.ix_(rows, cols)]
    size = len(rows)
    # Row mix p on `rows`, value v: p·M[:, y] = v for y in cols, sum p = 1.
    system = np.zeros((size + 1, size + 1))
    system[:size, :size] = sub.T
    system[:size, size] = -1.0
    system[size, :size] = 1.0
    target = np.zeros(size + 1)
    target[size] = 1.0
    try:
        p_solution = np.linalg.solve(system, target)
        system[:size, :size] = sub
        q_solution = np.linalg.solve(system, target)
    except np.linalg.LinAlgError:
        return value, row_mix, col_mix
    if p_solution[:size].min() < 0 or q_solution[:size].min() < 0:
        return value, row_mix, col_mix
    polished_p = np.zeros_like(row_mix)
    polished_p[rows] = p_solution[:size]
    polished_q = np.zeros_like(col_mix)
    polished_q[cols] = q_solution[:size]
    polished_value = float(p_solution[size])
    # Valid only if no pure strategy outside the supports does better against them.
    if (polished_p @ matrix).min() < polished_value - 1e-13:
        return value, row_mix, col_mix
    if (matrix @ polished_q).max() > polished_value + 1e-13:
        return value, row_mix, col_mix
    return polished_value, polished_p, polished_q


def solve_state(values: NDArray[np.float64], a: int, b: int) -> tuple[float, NDArray[np.float64]]:
    """The state's value (the fixed point of its self-loop) and the row player's mix."""
    guess = 0.5
    for _ in range(60):
        matrix = payoff_matrix(values, a, b, guess)
        value, row_mix, col_mix = solve_matrix(matrix)
        gap = value - guess
        if abs(gap) < 1e-14:
            return value, row_mix
        slope = float(row_mix[0] * col_mix[0])
        guess = guess + gap / (1.0 - slope) if slope < 1.0 - 1e-12 else value
    raise RuntimeError(f"state ({a}, {b}) did not converge")


def solve(
    max_strength: int = MAX_STRENGTH,
) -> tuple[NDArray[np.float64], dict[tuple[int, int], NDArray[np.float64]]]:
    """Every state's value and the row player's equilibrium mix."""
    values = np.full((max_strength + 1, max_strength + 1), np.nan)
    mixes: dict[tuple[int, int], NDArray[np.float64]] = {}
    # Rounds a won state needs at most when its winner plays the fastest won bid.
    finish_in: dict[tuple[int, int], int] = {}
    for total in range(2, 2 * max_strength + 1):
        states = [
            (a, total - a)
            for a in range(max(1, total - max_strength), min(max_strength, total - 1) + 1)
        ]
        # Every successor of a bid above 0 has a smaller total: already settled.
        for a, b in states:
            fastest = _fastest_won_bid(finish_in, a, b)
            if fastest is not None:
                bid, rounds = fastest
                assert (b, a) not in finish_in, "a game cannot be won by both"
                finish_in[(a, b)] = rounds
                values[a, b], values[b, a] = 1.0, 0.0
                mixes[(a, b)] = _pure(a, bid)
        for a, b in states:
            if (b, a) in finish_in:
                mixes[(a, b)] = _pure(a, _losing_bid(values, a, b))
            elif (a, b) not in finish_in:
                values[a, b], mixes[(a, b)] = solve_state(values, a, b)
    return values, mixes


def _pure(strength: int, bid: int) -> NDArray[np.float64]:
    mix = np.zeros(strength + 1)
    mix[bid] = 1.0
    return mix


def _fastest_won_bid(
    finish_in: dict[tuple[int, int], int], a: int, b: int
) -> tuple[int, int] | None:
    """The bid above 0 that wins against every reply (outright or into a won state) in the
    fewest rounds, with that count; ``None`` when no bid wins for sure."""
    best: tuple[int, int] | None = None
    for bid in range(1, a + 1):
        rounds = 1
        for their_bid in range(b + 1):
            end, after = round_end(a, b, bid, their_bid)
            if end == 1.0:
                continue
            if end is not None or after not in finish_in:
                break
            rounds = max(rounds, 1 + finish_in[after])
        else:
            if best is None or rounds < best[1]:
                best = (bid, rounds)
    return best


def _losing_bid(values: NDArray[np.float64], a: int, b: int) -> int:
    """In a lost state: the bid above 0 that scores most against a uniformly random reply
    (the smallest of equals)."""
    scores = [
        sum(_result(values, a, b, bid, their_bid) for their_bid in range(b + 1))
        for bid in range(1, a + 1)
    ]
    return 1 + scores.index(max(scores))


def _result(values: NDArray[np.float64], a: int, b: int, bid: int, their_bid: int) -> float:
    end, after = round_end(a, b, bid, their_bid)
    if end is not None:
        return end
    assert after is not None
    return value_of(values, *after)


def table_json(
    values: NDArray[np.float64], mixes: dict[tuple[int, int], NDArray[np.float64]]
) -> str:
    """The shipped table: every value by (own, other), and each mix's support."""
    size = values.shape[0]
    # Clipped to [0, 1] (and -0.0 made 0.0): a chance, whatever the float noise.
    rows = [
        [min(1.0, max(0.0, value_of(values, a, b))) + 0.0 for b in range(size)] for a in range(size)
    ]
    supports = {
        f"{a},{b}": [[bid, float(p)] for bid, p in enumerate(mix) if p > 1e-12]
        for (a, b), mix in sorted(mixes.items())
    }
    table = {"max_strength": size - 1, "values": rows, "mixes": supports}
    return json.dumps(table, separators=(",", ":")) + "\n"


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    values, mixes = solve()
    TABLE_PATH.write_text(table_json(values, mixes), encoding="utf-8")
    log.info("wrote %s: %d states; value(25, 25) = %r", TABLE_PATH, len(mixes), values[25, 25])


if __name__ == "__main__":
    main()
    sys.exit(0)
