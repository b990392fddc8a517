"""The Fortunes and Winds engine's fast paths agree with their plain definitions.

The speed work (issue 9's 20,000 turns a second) replaced a few straightforward pieces
with cached or table-driven ones; each is checked here against the plain version it
replaced, so a later change to one side cannot drift from the other unnoticed.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import fortunes_winds as fw
from bot.games.dice import ScriptedDice
from bot.games.fortunes_winds import Bet, Rules, State, engine, keeping, odds

A, B, C = 101, 202, 303
SIDE_KINDS = ["daikoku", "against", "tea", "hungry"]


def _reference_value(position: odds.Position, objective: tuple[int, ...]) -> int:
    """The best keeping's value as a memoised recursion (the pre-speed-up definition)."""

    @cache
    def value(position: odds.Position) -> int:
        ending, going_on = odds._structure(position)
        total = sum(weight * objective[index] for index, weight in ending)
        for weight, children in going_on:
            total += weight * max(value(child) for child in children)
        return total

    return value(position)


bet_lists = st.lists(
    st.tuples(st.sampled_from(list(fw.BET_KINDS)), st.integers(0, 40)), min_size=0, max_size=5
)


@settings(max_examples=60, deadline=None)
@given(bet_lists)
def test_the_one_pass_values_equal_the_recursion(bets: list[tuple[fw.BetKind, int]]) -> None:
    objective = keeping._sum_payoffs(bets)
    positions = odds._positions_last_first()
    assert odds._START in positions
    for position in positions:
        assert odds._value(position, objective) == _reference_value(position, objective)


def test_every_position_a_keep_leads_to_is_valued() -> None:
    positions = set(odds._positions_last_first())
    for position in positions:
        for _, children in odds._structure(position)[1]:
            assert set(children) <= positions
    # Every position before a roll that a table can be in (roll 1 or 2 about to be made
    # with up to three dice aside) is among them.
    for rolls in (1, 2):
        for e in range(4):
            for w in range(4 - e):
                for b in range(4 - e - w):
                    assert odds._canonical(rolls, e, w, b) in positions


def _reference_bet_list(
    bets: Mapping[int, Mapping[fw.BetKind, int]], extra: Bet | None, player: int | None
) -> tuple[tuple[fw.BetKind, int], ...]:
    """The guard's canonical bet list, built by copying the bets (the plain way)."""
    if extra is not None:
        assert player is not None
        held = dict(bets.get(player, {}))
        held[extra.kind] = held.get(extra.kind, 0) + extra.amount
        bets = {**bets, player: held}
    return tuple(sorted((kind, amount) for held in bets.values() for kind, amount in held.items()))


held_bets = st.dictionaries(
    st.sampled_from(list(fw.BET_KINDS)), st.integers(1, 20), min_size=0, max_size=3
)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.sampled_from([A, B, C]), held_bets, max_size=3),
    st.sampled_from(list(fw.BET_KINDS)),
    st.integers(1, 20),
    st.sampled_from([A, B, C]),
)
def test_the_guards_bet_list_is_the_plain_one(
    bets: dict[int, dict[fw.BetKind, int]], kind: fw.BetKind, amount: int, player: int
) -> None:
    state = fw.start(Rules(), [A, B, C], ScriptedDice())
    state = state.model_copy(update={"bets": bets})
    extra = Bet(kind=kind, amount=amount)
    assert keeping._bet_list(state, extra, player) == _reference_bet_list(bets, extra, player)
    assert keeping._bet_list(state, None, None) == _reference_bet_list(bets, None, None)


@pytest.mark.parametrize("kind", ["daikoku", "against"])
def test_the_cached_guard_limit_tells_players_with_different_bets_apart(kind: str) -> None:
    # B already holds a step on ``kind``, C nothing: one table of bets, two questions (B's
    # top-up, C's own bet). With whole pays both add the same to the members' value, so
    # the limits agree whichever is asked first, and each is every multiple up to it.
    step = fw.whole_pays_step(kind)  # type: ignore[arg-type]
    state = fw.start(Rules(max_stake=1000, bet_seconds=0), [A, B, C], ScriptedDice())
    state, _ = fw.act(state, A, Bet(kind="shooter", amount=3), ScriptedDice())
    state, _ = fw.act(state, B, Bet(kind=kind, amount=step), ScriptedDice())  # type: ignore[arg-type]
    fresh = {}
    for player in (B, C):
        keeping._guard_limit.cache_clear()
        fresh[player] = fw.guard_limit(state, player, kind)  # type: ignore[arg-type]
    keeping._guard_limit.cache_clear()
    cached = {player: fw.guard_limit(state, player, kind) for player in (C, B)}  # type: ignore[arg-type]
    assert cached == fresh
    assert cached[B] == cached[C]
    for player, limit in cached.items():
        for amount in range(step, limit + 1, step):
            fw.act(state, player, Bet(kind=kind, amount=amount), ScriptedDice())  # type: ignore[arg-type]


def test_a_white_faces_class_by_table_is_the_plain_one() -> None:
    for die in fw.WHITE_DICE:
        for face in {*fw.FACES[die], *fw.FACES["earth"], "Nonsense"}:
            looked_up = engine._CLASS_OF_FACE.get((die, face), odds._BLANK)
            assert looked_up == odds._face_class(die, face), (die, face)
        for value, (face, face_class) in enumerate(dict(engine._WHITE_ROLLS)[die], start=1):
            assert face == fw.FACES[die][value - 1]
            assert face_class == odds._face_class(die, face)


def _assert_keep_is_the_plain_one(state: State) -> list[str]:
    keep = fw.best_keep(state)
    plain, _ = keeping._best_keep_at(
        state.roll_number,
        tuple(state.faces[die] for die in fw.WHITE_DICE),
        tuple(state.set_aside),
        odds._SHOOTER_OBJECTIVE,
    )
    assert keep == list(plain)
    # Asked again (now from the cache): the same keep, in a list of its own.
    again = fw.best_keep(state)
    assert again == keep and again is not keep
    return keep


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(1, 6), min_size=5, max_size=5),
    st.lists(st.integers(1, 6), min_size=5, max_size=5),
)
def test_the_shooters_keep_from_its_cache_is_the_plain_one(
    first: list[int], second: list[int]
) -> None:
    state = fw.start(Rules(bet_seconds=0), [A, B], ScriptedDice())
    state, _ = fw.act(state, A, Bet(kind="shooter", amount=1), ScriptedDice())
    state, _ = fw.act(state, A, fw.Roll(), ScriptedDice(first))
    if state.roll_number != 1:
        return  # the first roll ended the turn
    keep = _assert_keep_is_the_plain_one(state)
    if keep:
        state, _ = fw.act(state, A, fw.SetAside(dice=keep), ScriptedDice())
    state, _ = fw.act(state, A, fw.Roll(), ScriptedDice(second[: 5 - len(state.set_aside)]))
    if state.roll_number == 2:
        _assert_keep_is_the_plain_one(state)


guard_tables = st.lists(
    st.tuples(st.sampled_from(list(fw.BET_KINDS)), st.integers(1, 60)), min_size=1, max_size=5
).map(lambda bets: tuple(sorted(bets)))


@settings(max_examples=300, deadline=None)
@given(guard_tables)
def test_the_guards_bounds_give_the_dynamic_programmes_verdict(
    bet_list: tuple[tuple[fw.BetKind, int], ...],
) -> None:
    keeping._beats_the_bank.cache_clear()
    assert keeping._beats_the_bank(bet_list) == (keeping._joint_value(bet_list) > 0)


@pytest.mark.parametrize(
    ("bet_list", "settled_by"),
    [
        ((("hungry", 2), ("shooter", 1)), "lower bound"),  # refused
        ((("daikoku", 1), ("shooter", 1)), "upper bound"),  # taken
        ((("against", 2), ("shooter", 1)), "dynamic programme"),  # taken
        ((("against", 3), ("shooter", 1)), "dynamic programme"),  # refused
    ],
)
def test_each_way_the_guard_decides_agrees_with_the_dynamic_programme(
    bet_list: tuple[tuple[fw.BetKind, int], ...], settled_by: str
) -> None:
    objective = keeping._sum_payoffs(bet_list)
    one_keeping = odds._dot(odds._distribution(odds._START, odds._SHOOTER_OBJECTIVE), objective)
    each_alone = sum(keeping._value_alone(kind, amount) for kind, amount in bet_list)
    joint = keeping._joint_value(bet_list)
    assert one_keeping <= joint <= each_alone
    if settled_by == "lower bound":
        assert one_keeping > 0
    elif settled_by == "upper bound":
        assert each_alone <= 0
    else:
        assert one_keeping <= 0 < each_alone
    keeping._beats_the_bank.cache_clear()
    assert keeping._beats_the_bank(bet_list) == (joint > 0)


def test_the_guards_named_limit_is_the_first_multiple_it_refuses_less_one() -> None:
    """With whole pays the guard takes every multiple up to the named limit and none past
    it: the limit named is exact, not a cautious estimate."""
    from bot.games import fortunes_winds as fw
    from bot.games.dice import ScriptedDice
    from bot.games.errors import IllegalMove

    state = fw.start(fw.Rules(bet_seconds=0, max_stake=10_000), [1, 2, 3], ScriptedDice())
    state, _ = fw.act(state, 1, fw.Bet(kind="shooter", amount=3), ScriptedDice())
    state, _ = fw.act(state, 2, fw.Bet(kind="daikoku", amount=2), ScriptedDice())
    limit = fw.guard_limit(state, 3, "daikoku")
    for amount in range(2, limit + 1, 2):
        fw.act(state, 3, fw.Bet(kind="daikoku", amount=amount), ScriptedDice())
    try:
        fw.act(state, 3, fw.Bet(kind="daikoku", amount=limit + 2), ScriptedDice())
    except IllegalMove as refused:
        assert f"{limit}" in str(refused)
    else:
        raise AssertionError(f"{limit + 2} was taken: the named limit {limit} is too low")
