"""Swiss pairing against brute force on small fields: every pairing of the field is tried and
the algorithm's must be among the best by the rules, in their order of priority."""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.events import Entrant, Pairing, TableResult, bye_result, pair_round, standings
from bot.events.scoring import unit_scores


@st.composite
def histories(draw: st.DrawFn, seats: int) -> tuple[list[Entrant], list[TableResult], int]:
    """A field and earlier rounds of random tables (repeats allowed: harder than real ones),
    with byes, random places, forfeits and drops."""
    members = list(range(1, draw(st.integers(1, 10)) + 1))
    entrants = [
        Entrant(
            member=m,
            rating=draw(st.sampled_from([1400, 1500, 1600])),
            dropped=draw(st.booleans()) and draw(st.booleans()),
        )
        for m in members
    ]
    results: list[TableResult] = []
    rounds = draw(st.integers(0, 4))
    for round in range(1, rounds + 1):
        order = draw(st.permutations(members))
        size = draw(st.integers(2, seats))
        for start in range(0, len(order), size):
            table = tuple(order[start : start + size])
            if len(table) == 1:
                results.append(bye_result(table[0], round, len(results) + 1))
                continue
            places = tuple(draw(st.integers(1, len(table))) for _ in table)
            forfeit = tuple(
                p
                for p, place in zip(table, places, strict=True)
                if place == max(places) and draw(st.booleans())
            )
            results.append(
                TableResult(
                    table_id=len(results) + 1,
                    round=round,
                    players=table,
                    places=places,
                    forfeit_losers=forfeit,
                )
            )
    return entrants, results, rounds + 1


def met_pairs(results: list[TableResult]) -> set[frozenset[int]]:
    return {frozenset(p) for r in results for p in combinations(r.players, 2)}


def had_bye(results: list[TableResult]) -> set[int]:
    return {r.players[0] for r in results if r.is_bye}


def active_order(entrants: list[Entrant], results: list[TableResult]) -> list[int]:
    return [r.member for r in standings(entrants, results) if not r.dropped]


def assert_everyone_once(pairing: Pairing, active: list[int], seats: int) -> None:
    seated = [m for table in pairing.tables for m in table]
    assert sorted(seated + list(pairing.byes)) == sorted(active)
    assert all(len(table) == seats for table in pairing.tables)
    assert len(pairing.byes) == len(active) % seats


def matchings(players: list[int]) -> Iterator[tuple[list[tuple[int, int]], int | None]]:
    """Every way to pair ``players``, with the bye when their count is odd."""
    if len(players) % 2:
        for bye in players:
            for pairs, _ in matchings([p for p in players if p != bye]):
                yield pairs, bye
        return
    if not players:
        yield [], None
        return
    first, rest = players[0], players[1:]
    for partner in rest:
        for pairs, _ in matchings([p for p in rest if p != partner]):
            yield [(first, partner), *pairs], None


def two_seat_cost(
    pairs: list[tuple[int, int]], bye: int | None, order: list[int], results: list[TableResult]
) -> tuple[int, int, int, int]:
    """The rules' priorities: repeats, a second bye, the bye's height in rank, score gaps."""
    met, byes, score = met_pairs(results), had_bye(results), unit_scores(results)
    return (
        sum(frozenset(p) in met for p in pairs),
        int(bye is not None and bye in byes),
        0 if bye is None else len(order) - 1 - order.index(bye),
        sum((score.get(a, 0) - score.get(b, 0)) ** 2 for a, b in pairs),
    )


@settings(max_examples=300, deadline=None)
@given(histories(seats=2))
def test_two_seats_pair_as_well_as_brute_force(
    case: tuple[list[Entrant], list[TableResult], int],
) -> None:
    entrants, results, round = case
    order = active_order(entrants, results)
    pairing = pair_round(entrants, results, seats=2, round=round)
    assert_everyone_once(pairing, order, 2)
    best = min(two_seat_cost(p, b, order, results) for p, b in matchings(order))
    got = two_seat_cost(
        [(a, b) for a, b in pairing.tables], next(iter(pairing.byes), None), order, results
    )
    assert got == best


@pytest.mark.parametrize("block", [2, 4])
@settings(max_examples=200, deadline=None)
@given(case=histories(seats=2))
def test_small_blocks_still_keep_the_rules(
    block: int, case: tuple[list[Entrant], list[TableResult], int]
) -> None:
    """Matched in blocks, a repeat or a second bye is left only when the field can't avoid it
    (the lower tiers, bye height and score gaps, may differ from the whole field's best)."""
    entrants, results, round = case
    order = active_order(entrants, results)
    pairing = pair_round(entrants, results, seats=2, round=round, block=block)
    assert_everyone_once(pairing, order, 2)
    best = min(two_seat_cost(p, b, order, results)[:2] for p, b in matchings(order))
    got = two_seat_cost(
        [(a, b) for a, b in pairing.tables], next(iter(pairing.byes), None), order, results
    )
    assert got[:2] == best


def partitions(players: list[int], seats: int) -> Iterator[list[tuple[int, ...]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in combinations(rest, seats - 1):
        remaining = [p for p in rest if p not in others]
        for tables in partitions(remaining, seats):
            yield [(first, *others), *tables]


def repeats(tables: list[tuple[int, ...]], met: set[frozenset[int]]) -> int:
    return sum(frozenset(p) in met for t in tables for p in combinations(t, 2))


@pytest.mark.parametrize("seats", [3, 4])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_three_and_four_seats_keep_the_rules(seats: int, data: st.DataObject) -> None:
    entrants, results, round = data.draw(histories(seats=seats))
    order = active_order(entrants, results)
    pairing = pair_round(entrants, results, seats=seats, round=round)
    assert_everyone_once(pairing, order, seats)
    # The byes: the lowest-ranked without a bye, then (if too few) the lowest-ranked.
    never = [m for m in reversed(order) if m not in had_bye(results)]
    again = [m for m in reversed(order) if m in had_bye(results)]
    assert set(pairing.byes) == set((never + again)[: len(order) % seats])
    seated = [m for m in order if m not in pairing.byes]
    met = met_pairs(results)
    best = min(repeats(tables, met) for tables in partitions(seated, seats))
    assert repeats(list(pairing.tables), met) == best


def test_a_dropped_player_is_not_paired_and_a_bad_seat_count_is_refused() -> None:
    field = [Entrant(member=m, dropped=m == 3) for m in range(1, 5)]
    pairing = pair_round(field, [], seats=2, round=1)
    assert 3 not in {m for t in pairing.tables for m in t} and pairing.byes != (3,)
    with pytest.raises(ValueError, match="seats"):
        pair_round(field, [], seats=5, round=1)
    with pytest.raises(ValueError, match="rounds before"):
        pair_round(field, [bye_result(1, 1)], seats=2, round=1)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_realistic_event_of_sixty_never_repeats(seats: int) -> None:
    """Sixty entrants, six rounds of seeded results (draws, a drop each round), paired by
    the real thing each round (several blocks at two seats): nobody meets anyone twice, and
    the bye goes to someone new each round."""
    rng = random.Random(seats)
    entrants = [Entrant(member=m, rating=rng.randrange(1000, 2000)) for m in range(1, 61)]
    results: list[TableResult] = []
    for round in range(1, 7):
        pairing = pair_round(entrants, results, seats=seats, round=round, block=8)
        order = active_order(entrants, results)
        assert_everyone_once(pairing, order, seats)
        assert repeats(list(pairing.tables), met_pairs(results)) == 0
        assert not set(pairing.byes) & had_bye(results)
        for table in pairing.tables:
            places = [rng.randint(1, len(table)) for _ in table]
            results.append(
                TableResult(
                    table_id=len(results) + 1, round=round, players=table, places=tuple(places)
                )
            )
        results.extend(bye_result(m, round, len(results) + 1) for m in pairing.byes)
        quitter = rng.choice([e for e in entrants if not e.dropped])
        entrants = [e.model_copy(update={"dropped": True}) if e == quitter else e for e in entrants]
