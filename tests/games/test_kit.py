"""The engine kit: evolving state, check-then-apply dispatch, splitting coins."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from bot.games.dice import Dice, ScriptedDice
from bot.games.errors import IllegalMove
from bot.games.kit import Move, Rulebook, evolve, split_evenly, split_proportional


class Tally(BaseModel):
    counts: dict[int, int]
    log: list[str]
    finished: bool = False


class Add(BaseModel):
    kind: Literal["add"] = "add"
    amount: int


class Stop(BaseModel):
    kind: Literal["stop"] = "stop"


class Said(BaseModel):
    kind: Literal["said"] = "said"
    text: str


def check_add(state: Tally, player: int | None, action: Add) -> None:
    if action.amount <= 0:
        raise IllegalMove("Add at least one.")


def apply_add(s: Tally, player: int | None, action: Add, dice: Dice) -> list[Said]:
    key = player or 0
    s.counts = {**s.counts, key: s.counts.get(key, 0) + action.amount + dice.roll(1) - 1}
    s.log = [*s.log, f"add {action.amount}"]
    return [Said(text="added")]


def apply_stop(s: Tally, player: int | None, action: Stop, dice: Dice) -> list[Said]:
    s.finished = True
    return [Said(text="stopped")]


def never_refuse(state: Tally, player: int | None, action: Stop) -> None:
    return None


BOOK: Rulebook[Tally, Add | Stop, Said] = Rulebook(
    {Add: Move(check_add, apply_add), Stop: Move(never_refuse, apply_stop)}
)


def test_evolve_copies_fields_and_writes_changes() -> None:
    state = Tally(counts={1: 2}, log=["a"])
    copy = evolve(state, finished=True)
    assert copy is not state and copy.finished and not state.finished
    assert copy.counts is state.counts, "containers are shared until replaced"
    copy.counts = {**copy.counts, 1: 9}
    assert state.counts == {1: 2}
    assert Tally.model_validate_json(copy.model_dump_json()) == copy


def test_rulebook_applies_to_a_copy_and_never_mutates() -> None:
    state = Tally(counts={}, log=[])
    before = state.model_dump()
    new, events = BOOK.act(state, 7, Add(amount=3), ScriptedDice([1]))
    assert new.counts == {7: 3} and events == [Said(text="added")]
    assert state.model_dump() == before


def test_rulebook_refuses_with_the_reason_and_changes_nothing() -> None:
    state = Tally(counts={}, log=[])
    with pytest.raises(IllegalMove, match="at least one"):
        BOOK.act(state, 7, Add(amount=0), ScriptedDice())
    with pytest.raises(IllegalMove, match="not a move in this game"):
        BOOK.act(state, 7, Tally(counts={}, log=[]), ScriptedDice())  # type: ignore[arg-type]
    done, _ = BOOK.act(state, None, Stop(), ScriptedDice())
    with pytest.raises(IllegalMove, match="already over"):
        BOOK.act(done, 7, Add(amount=1), ScriptedDice())
    assert state == Tally(counts={}, log=[])


def test_legal_actions_filters_by_the_checks() -> None:
    state = Tally(counts={}, log=[])
    candidates: list[Add | Stop] = [Add(amount=0), Add(amount=2), Stop()]
    assert BOOK.legal_actions(state, 1, candidates) == [Add(amount=2), Stop()]
    done, _ = BOOK.act(state, None, Stop(), ScriptedDice())
    assert BOOK.legal_actions(done, 1, candidates) == []


@pytest.mark.parametrize(
    ("amount", "players", "expected"),
    [(10, [1, 2, 3], {1: 4, 2: 3, 3: 3}), (2, [5, 6, 7], {5: 1, 6: 1, 7: 0}), (0, [1], {1: 0})],
)
def test_split_evenly_hands_the_remainder_out_in_order(
    amount: int, players: list[int], expected: dict[int, int]
) -> None:
    assert split_evenly(amount, players) == expected
    assert split_evenly(0, []) == {}


def test_splits_refuse_to_lose_coins_with_nobody_to_pay() -> None:
    with pytest.raises(ValueError, match="nobody"):
        split_evenly(5, [])
    with pytest.raises(ValueError, match="nobody"):
        split_proportional(5, {})


@pytest.mark.parametrize(
    ("amount", "weights", "expected"),
    [
        (100, {1: 1, 2: 1, 3: 1}, {1: 34, 2: 33, 3: 33}),
        (10, {1: 15, 2: 4}, {1: 8, 2: 2}),
        (7, {1: 0, 2: 3}, {1: 0, 2: 7}),
        (5, {1: 0, 2: 0}, {1: 3, 2: 2}),
    ],
)
def test_split_proportional_by_largest_remainder(
    amount: int, weights: dict[int, int], expected: dict[int, int]
) -> None:
    assert split_proportional(amount, weights) == expected


@given(
    st.integers(min_value=0, max_value=10**9),
    st.dictionaries(st.integers(1, 50), st.integers(0, 10**6), min_size=1, max_size=8),
)
def test_split_proportional_never_makes_or_loses_a_coin(
    amount: int, weights: dict[int, int]
) -> None:
    shares = split_proportional(amount, weights)
    assert sum(shares.values()) == amount
    total = sum(weights.values())
    for player, share in shares.items():
        if total:
            assert abs(share - amount * weights[player] / total) < 1 + 1e-9


class Noted(BaseModel):
    kind: Literal["noted"] = "noted"
    player: int
    tags: list[str] = []


def test_build_fills_defaults_and_equals_a_validated_model() -> None:
    from bot.games.kit import build

    built = build(Noted, player=3)
    assert built == Noted(player=3)
    assert Noted.model_validate(built.model_dump()) == built
    assert build(Noted, player=4, tags=["a"]).tags == ["a"]


def test_refuse_outsider_names_the_table_or_the_clock() -> None:
    from bot.games.errors import IllegalMove
    from bot.games.kit import NOT_SEATED_JOIN_FIRST, refuse_outsider

    with pytest.raises(IllegalMove, match="The table itself can only call time"):
        refuse_outsider(None)
    with pytest.raises(IllegalMove, match=r"^You aren't seated at this table\.$"):
        refuse_outsider(7)
    expected = r"^You aren't seated at this table — join it first\.$"
    with pytest.raises(IllegalMove, match=expected):
        refuse_outsider(7, outsider=NOT_SEATED_JOIN_FIRST)


def _refusal(refuse: Callable[[], object]) -> IllegalMove:
    with pytest.raises(IllegalMove) as refused:
        refuse()
    return refused.value


def test_the_kits_refusals_are_whole_sentences_a_member_reads_in_japanese() -> None:
    """Every refusal the kit builds is a template in the catalog, not English with a
    game's title spliced in (which no catalog can hold)."""
    from bot.games.kit import NOT_SEATED_JOIN_FIRST, check_join, refuse_outsider
    from bot.i18n import translate

    class Seats(BaseModel):
        seats: list[int]
        finished: bool = False

    over = Rulebook({Add: Move(check_add, apply_add)})
    refusals = [
        _refusal(lambda: BOOK.act(Tally(counts={}, log=[]), 1, Said(text="hi"), ScriptedDice())),
        _refusal(
            lambda: over.act(Seats(seats=[], finished=True), 1, Add(amount=1), ScriptedDice())
        ),
        _refusal(lambda: refuse_outsider(None)),
        _refusal(lambda: refuse_outsider(7)),
        _refusal(lambda: refuse_outsider(7, outsider=NOT_SEATED_JOIN_FIRST)),
        _refusal(lambda: check_join(Seats(seats=[1, 2]), 3, 2)),
    ]
    for error in refusals:
        japanese = translate(error.template, "ja", **error.params)
        assert japanese != str(error), f"untranslated: {error}"
    full = refusals[-1]
    assert translate(full.template, "ja", **full.params) == "この卓は満席です（2席）。"
    joining = refusals[-2]
    assert (
        translate(joining.template, "ja")
        == "あなたはこの卓に着いていません。先に参加してください。"
    )


class Window(BaseModel):
    seats: list[int]
    window_open: bool = True
    bets_closed: bool = False
    ready: list[int] = []
    ply: int = 0


class Closed(BaseModel):
    kind: Literal["betting_closed"] = "betting_closed"
    by_deadline: bool = False


def still_waiting(state: Window) -> list[int]:
    return [p for p in state.seats if p not in state.ready]


def test_ready_is_refused_with_no_window_or_twice() -> None:
    from bot.games.kit import check_ready

    check_ready(Window(seats=[1, 2]), 2)
    with pytest.raises(IllegalMove, match="No betting window is open"):
        check_ready(Window(seats=[1, 2], window_open=False), 2)
    with pytest.raises(IllegalMove, match="already said you're ready"):
        check_ready(Window(seats=[1, 2], ready=[2]), 2)


def test_the_window_closes_once_it_waits_for_nobody() -> None:
    from bot.games.kit import close_window_if_done

    waiting = evolve(Window(seats=[1, 2], ready=[1]))
    assert close_window_if_done(waiting, still_waiting, Closed) == []
    assert waiting.window_open and waiting.ply == 0
    done = evolve(Window(seats=[1, 2], ready=[1, 2]))
    assert close_window_if_done(done, still_waiting, Closed) == [Closed(by_deadline=False)]
    assert (done.window_open, done.bets_closed, done.ply) == (False, True, 1)
    assert close_window_if_done(done, still_waiting, Closed) == []
