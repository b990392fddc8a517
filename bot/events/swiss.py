"""Swiss pairing: every round pairs the whole field at once, by score.

Two seats: a maximum-weight matching (networkx), never a greedy loop. Each edge's weight
encodes, in strict order of priority (each tier outweighs everything below it):

1. not a repeat (a pair that met before at any table, forfeits included);
2. a bye only to a player who has not had one (the bye is a node of the graph);
3. the bye to the lowest-ranked player (rank: the standings' order);
4. the smallest score gaps (the sum of squared gaps: two half-point floats beat one full);
5. a player who floats to another score meets the nearest in rank (the lowest of the higher
   group, the highest of the lower, as in FIDE's Dutch system);
6. within a score group the top half meets the bottom half (1st–5th, 2nd–6th of eight).

networkx's blossom algorithm is pure Python and cubic: the whole field of 1,000 takes
seconds. So the ranked field is matched in consecutive blocks of ``BLOCK`` players: blocks
cut anywhere on an even count float no more players than the whole field would (the parity
of the players above any score is the same), and a player of a block meets same-score
players of that block. A block whose best matching still repeats a pairing, or gives the
bye to a player who had one while another has not, is merged with its neighbour and matched
again, up to the whole field: so a repeat, or a second bye, is left only when the whole
field cannot avoid it.

Three and four seats: forming tables of three is 3-dimensional matching (NP-hard), so the
tables are made by a documented heuristic instead: the byes (the count modulo the seats) go
to the lowest-ranked players without a bye, the rest are cut by rank into tables, then
players are swapped between nearby tables while a swap lowers (first) the number of pairs
at a table that met before, (then) the sum of squared score gaps within tables. When pairs
still repeat, a depth-first search for the fewest repeats (best-ranked first, nearest
partners first) replaces them if it finishes within ``_SEARCH_NODES`` steps, which it does
for small fields (tested against brute force up to ten players; only fields up to
``_SEARCH_FIELD`` are searched): in a large field the swaps' tables stand, and a repeat
may remain that a perfect search would avoid.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

import networkx as nx

from bot.events.model import MAX_SEATS, MIN_SEATS, Entrant, Pairing, TableResult
from bot.events.scoring import standings, unit_scores

BLOCK = 24
"""Players matched at once (even): 24 pairs round 5 of 1,000 in about 0.1 s of CPU
(benchmarks/events_pairing.py)."""

_BYE = -1
"""The bye's node in the matching graph (no member id is negative)."""

_SWAP_WINDOW = 3
"""Tables of 3–4 swap players with the next few tables by rank (all of them in small events)."""

_SWAP_PASSES = 50

_SEARCH_NODES = 20_000
_SEARCH_FIELD = 36
"""The search for fewer repeats at 3–4 seats runs on fields up to this size (each step
costs the field's size) and stops after ``_SEARCH_NODES`` steps."""


def pair_round(
    entrants: Sequence[Entrant],
    results: Sequence[TableResult],
    *,
    seats: int,
    round: int,
    block: int = BLOCK,
) -> Pairing:
    """The tables of Swiss round ``round`` (1-based) for the entrants not dropped, given every
    earlier result (byes included); tables best-ranked first, members in seat order.

    Rules, in order of priority: every entrant not dropped sits at exactly one table or has a
    bye; nobody meets an opponent they met before while that is avoidable; the bye (when the
    field does not divide by ``seats``) goes to players who have not had one; the bye goes to
    the lowest-ranked of those (standings order); players meet others on the same score (the
    fewest and smallest score gaps). At two seats the player who sat first less often sits
    first (the higher-ranked when equal). Deterministic: the same input gives the same pairing.
    ``block`` is the matching's block size (see the module's notes; tests make it small).
    Raises ValueError when ``seats`` is not 2–4, ``block`` is not even and positive, or a
    result is not from an earlier round."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be {MIN_SEATS}–{MAX_SEATS}, not {seats}")
    if block < 2 or block % 2:
        raise ValueError(f"block must be even and positive, not {block}")
    if any(result.round >= round for result in results):
        raise ValueError(f"results must come from rounds before {round}")
    order = [row.member for row in standings(entrants, results) if not row.dropped]
    history = History.of(results)
    if seats == 2:
        return pair_two(order, history, block)
    return form_tables(order, history, seats)


@dataclass(frozen=True)
class History:
    """What earlier rounds left: scores (in 1/12 points), who met whom, who had a bye, who
    sat first how often. The arena builds one of its own (met = met at their last table)."""

    score: dict[int, int]
    met: set[frozenset[int]]
    had_bye: set[int]
    first: Counter[int]

    @classmethod
    def of(cls, results: Sequence[TableResult]) -> History:
        met: set[frozenset[int]] = set()
        had_bye: set[int] = set()
        first: Counter[int] = Counter()
        for result in results:
            if result.is_bye:
                had_bye.add(result.players[0])
                continue
            first[result.players[0]] += 1
            met.update(frozenset(pair) for pair in combinations(result.players, 2))
        return cls(unit_scores(results), met, had_bye, first)

    def gap(self, a: int, b: int) -> int:
        return (self.score.get(a, 0) - self.score.get(b, 0)) ** 2


def _blocks(order: Sequence[int], block: int) -> list[list[int]]:
    """The ranked field cut into blocks of ``block`` (the last takes the rest, odd or even);
    a remainder under half a block joins the one before rather than being matched alone."""
    cut = [list(order[start : start + block]) for start in range(0, len(order), block)]
    if len(cut) > 1 and len(cut[-1]) < block // 2:
        cut[-2].extend(cut.pop())
    return cut


def pair_two(order: Sequence[int], history: History, block: int) -> Pairing:
    """Two seats: blocks matched one by one, merged with a neighbour while they break a rule."""
    eligible = any(member not in history.had_bye for member in order)
    blocks = _blocks(order, block)
    done: list[tuple[list[tuple[int, int]], int | None]] = []
    index = 0
    while index < len(blocks):
        with_bye = index == len(blocks) - 1 and len(order) % 2 == 1
        pairs, bye = _match(blocks[index], history, with_bye=with_bye)
        broken = any(frozenset(pair) in history.met for pair in pairs) or (
            bye is not None and bye in history.had_bye and eligible
        )
        if not broken or len(blocks) == 1:
            done.append((pairs, bye))
            index += 1
        elif index + 1 < len(blocks):
            blocks[index].extend(blocks.pop(index + 1))
        else:
            blocks[index - 1].extend(blocks.pop(index))
            done.pop()
            index -= 1
    rank = {member: position for position, member in enumerate(order)}
    tables = sorted(
        (_seat_order(pair, history, rank) for pairs, _ in done for pair in pairs),
        key=lambda table: min(rank[member] for member in table),
    )
    byes = tuple(bye for _, bye in done if bye is not None)
    return Pairing(tables=tuple(tables), byes=byes)


def _seat_order(pair: tuple[int, int], history: History, rank: dict[int, int]) -> tuple[int, int]:
    a, b = sorted(pair, key=lambda member: (history.first[member], rank[member]))
    return (a, b)


def _match(
    players: list[int], history: History, *, with_bye: bool
) -> tuple[list[tuple[int, int]], int | None]:
    """The best pairing of one block (ranked best first), and its bye when it holds the bye."""
    size = len(players)
    scores = [history.score.get(member, 0) for member in players]
    spread = max(scores) - min(scores)
    group_size: Counter[int] = Counter(scores)
    # Tier multipliers: each tier's largest possible total stays below one unit of the next.
    fold_unit = 1
    float_unit = fold_unit * (size * size + 1)
    gap_unit = float_unit * (size * size + 1)
    rank_unit = gap_unit * ((size // 2 + 1) * spread * spread + 1)
    bye_unit = rank_unit * (size + 1)
    repeat_unit = bye_unit * 2
    ceiling = repeat_unit * (size // 2 + 2)

    graph: nx.Graph[int] = nx.Graph()
    for i, j in combinations(range(size), 2):
        a, b = players[i], players[j]
        same = scores[i] == scores[j]
        fold = abs((j - i) - group_size[scores[i]] // 2) if same else 0
        cost = (
            repeat_unit * (frozenset((a, b)) in history.met)
            + gap_unit * (scores[i] - scores[j]) ** 2
            + float_unit * (0 if same else j - i)
            + fold_unit * fold
        )
        graph.add_edge(a, b, weight=ceiling - cost)
    if with_bye:
        for i, member in enumerate(players):
            cost = bye_unit * (member in history.had_bye) + rank_unit * (size - 1 - i)
            graph.add_edge(_BYE, member, weight=ceiling - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[int, int]] = []
    bye: int | None = None
    for a, b in matching:
        if _BYE in (a, b):
            bye = a if b == _BYE else b
        else:
            pairs.append((a, b))
    if len(pairs) * 2 + (bye is not None) != size:
        raise AssertionError("a complete graph has a perfect matching")
    return pairs, bye


def form_tables(order: Sequence[int], history: History, seats: int) -> Pairing:
    """Three or four seats: byes to the lowest-ranked without one, then ranked tables improved
    by swaps (see the module's notes)."""
    bye_count = len(order) % seats
    never = [member for member in reversed(order) if member not in history.had_bye]
    again = [member for member in reversed(order) if member in history.had_bye]
    byes = set((never + again)[:bye_count])
    seated = [member for member in order if member not in byes]
    tables = [seated[start : start + seats] for start in range(0, len(seated), seats)]
    _improve(tables, history)
    repeated = sum(_table_cost(table, history)[0] for table in tables)
    if repeated and len(seated) <= _SEARCH_FIELD:
        fewer = _fewest_repeats(seated, seats, history)
        if fewer is not None:
            tables = fewer
            _improve(tables, history)
    rank = {member: position for position, member in enumerate(order)}
    for table in tables:
        table.sort(key=lambda member: (history.first[member], rank[member]))
    tables.sort(key=lambda table: min(rank[member] for member in table))
    return Pairing(
        tables=tuple(tuple(table) for table in tables),
        byes=tuple(member for member in order if member in byes),
    )


def _table_cost(table: Iterable[int], history: History) -> tuple[int, int]:
    pairs = list(combinations(table, 2))
    repeats = sum(frozenset(pair) in history.met for pair in pairs)
    return repeats, sum(history.gap(a, b) for a, b in pairs)


def _improve(tables: list[list[int]], history: History) -> None:
    """Swaps single players between tables near in rank while a swap lowers the cost
    (repeats, then score gaps); stops when no swap helps or after ``_SWAP_PASSES`` passes."""
    window = len(tables) if len(tables) <= 2 * _SWAP_WINDOW + 2 else _SWAP_WINDOW
    for _ in range(_SWAP_PASSES):
        improved = False
        for a in range(len(tables)):
            for b in range(a + 1, min(len(tables), a + 1 + window)):
                improved |= _best_swap(tables[a], tables[b], history)
        if not improved:
            return


def _best_swap(first: list[int], second: list[int], history: History) -> bool:
    """Makes the swap between two tables that lowers their cost most, if any does."""
    before = _add(_table_cost(first, history), _table_cost(second, history))
    best = before
    choice: tuple[int, int] | None = None
    for i, j in ((i, j) for i in range(len(first)) for j in range(len(second))):
        one = [*first[:i], second[j], *first[i + 1 :]]
        two = [*second[:j], first[i], *second[j + 1 :]]
        cost = _add(_table_cost(one, history), _table_cost(two, history))
        if cost < best:
            best, choice = cost, (i, j)
    if choice is None:
        return False
    i, j = choice
    first[i], second[j] = second[j], first[i]
    return True


def _fewest_repeats(seated: Sequence[int], seats: int, history: History) -> list[list[int]] | None:
    """Tables with the fewest repeated pairs, by a depth-first search (the best-ranked player
    left takes the nearest in rank first), or None when ``_SEARCH_NODES`` run out first:
    small fields are searched to the end, large ones keep the swaps' tables."""
    best: list[list[int]] | None = None
    best_repeats = len(seated) * seats
    nodes = 0

    def search(left: list[int], tables: list[list[int]], repeats: int) -> bool:
        nonlocal best, best_repeats, nodes
        nodes += 1
        if nodes > _SEARCH_NODES:
            return False
        if repeats >= best_repeats:
            return True
        if not left:
            best, best_repeats = [list(t) for t in tables], repeats
            return True
        head, rest = left[0], left[1:]
        for others in combinations(rest, seats - 1):
            table = [head, *others]
            added = _table_cost(table, history)[0]
            remaining = [member for member in rest if member not in others]
            if not search(remaining, [*tables, table], repeats + added):
                return False
            if best_repeats == 0:
                return True
        return True

    finished = search(list(seated), [], 0)
    return best if finished else None


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] + b[0], a[1] + b[1]
