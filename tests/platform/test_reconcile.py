"""Money reconciliation, the pure function (bot/service/money.py): from where a table's
money stands to the coin moves the service carries out.

`problems_of` replays a settlement the way the ledger would and lists what is wrong with
it; hypothesis feeds it every kind of table position, and `test_the_checker_*` feed it
broken settlements so it is known to catch what it looks for.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games.common import HOUSE
from bot.service import CoinMove, ReconcileError, Settlement, reconcile

ALICE, BOB, CAROL = 1, 2, 3


def escrow_of(seat_nets: Mapping[int, int], house_net: int) -> int:
    """What the escrow holds when wallets and the house stand at these nets: every coin
    they are down is on the table."""
    return -(sum(seat_nets.values()) + house_net)


def problems_of(
    seat_nets: Mapping[int, int],
    house_net: int,
    stakes: Mapping[int, int],
    payouts: Mapping[int, int],
    settlement: Settlement,
) -> list[str]:
    """Everything wrong with carrying out `settlement` from this position: escrow below
    zero at any step, a move that does not start where its mover stands, a mover with no
    seat, a player or the house not ending where the engine says, the wrong house net."""
    nets = {**dict(seat_nets), **dict.fromkeys(settlement.new_seats, 0)}
    house = house_net
    escrow = escrow_of(seat_nets, house_net)
    found = [
        f"player {p} is given a new seat but has one"
        for p in seat_nets
        if p in settlement.new_seats
    ]
    for number, move in enumerate(settlement.moves, start=1):
        if move.player is not None and move.player not in nets:
            found.append(f"move {number} pays player {move.player}, who has no seat")
        standing = house if move.player is None else nets.get(move.player, 0)
        if standing != move.current:
            found.append(f"move {number} starts {move.player} at {move.current}, not {standing}")
        escrow += move.into_escrow
        if escrow < 0:
            found.append(f"escrow is {escrow} after move {number}")
        if move.player is None:
            house = move.target
        else:
            nets[move.player] = move.target
    for player in (set(nets) | set(stakes) | set(payouts)) - {HOUSE}:
        target = payouts.get(player, 0) - stakes.get(player, 0)
        if nets.get(player) != target:
            found.append(f"player {player} ends at {nets.get(player)}, not {target}")
    if house != payouts.get(HOUSE, 0):
        found.append(f"the house ends at {house}, not {payouts.get(HOUSE, 0)}")
    if settlement.house_net != payouts.get(HOUSE, 0):
        found.append(f"the settlement says the house ends at {settlement.house_net}")
    if escrow != sum(stakes.values()):
        found.append(f"escrow ends at {escrow}, not the stakes' {sum(stakes.values())}")
    return found


# -- table positions, as engines leave them -------------------------------------------------

PLAYERS = st.integers(min_value=1, max_value=8)
AT_RISK = st.integers(min_value=0, max_value=1_000)
RESULTS = st.integers(min_value=-1_000, max_value=1_000)


@st.composite
def positions(draw: st.DrawFn) -> tuple[dict[int, int], dict[int, int]]:
    """(stakes, payouts) as the contract has them: stakes >= 0, the house never at risk,
    payouts summing to 0 — balanced by the house (a banked game) or by a player."""
    stakes = draw(st.dictionaries(PLAYERS, AT_RISK, max_size=6))
    payouts = draw(st.dictionaries(PLAYERS, RESULTS, max_size=6))
    balancer = draw(st.sampled_from([HOUSE, *sorted(payouts)]))
    payouts[balancer] = payouts.get(balancer, 0) - sum(payouts.values())
    return stakes, payouts


@st.composite
def tables(
    draw: st.DrawFn,
) -> tuple[dict[int, int], int, dict[int, int], dict[int, int]]:
    """(seat nets, house net) where an earlier position left the table, and the position
    the engine now reports; players may have joined (no seat yet) or left (net 0)."""
    before_stakes, before_payouts = draw(positions())
    seated = set(before_stakes) | set(before_payouts) | draw(st.sets(PLAYERS, max_size=3))
    seated.discard(HOUSE)
    nets = {p: before_payouts.get(p, 0) - before_stakes.get(p, 0) for p in seated}
    stakes, payouts = draw(positions())
    return nets, before_payouts.get(HOUSE, 0), stakes, payouts


@given(tables())
def test_moves_keep_escrow_non_negative_and_reach_the_engines_figures(
    table: tuple[dict[int, int], int, dict[int, int], dict[int, int]],
) -> None:
    nets, house_net, stakes, payouts = table
    settlement = reconcile(nets, house_net, stakes, payouts)
    assert problems_of(nets, house_net, stakes, payouts, settlement) == []


@given(tables())
def test_every_inflow_comes_before_any_outflow_and_each_mover_moves_once(
    table: tuple[dict[int, int], int, dict[int, int], dict[int, int]],
) -> None:
    settlement = reconcile(*table)
    flows = [move.into_escrow for move in settlement.moves]
    assert flows == sorted(flows, reverse=True)
    assert 0 not in flows
    movers = [move.player for move in settlement.moves]
    assert len(movers) == len(set(movers))


@given(tables())
def test_a_settled_table_needs_no_more_moves(
    table: tuple[dict[int, int], int, dict[int, int], dict[int, int]],
) -> None:
    nets, house_net, stakes, payouts = table
    first = reconcile(nets, house_net, stakes, payouts)
    after = {**nets, **{m.player: m.target for m in first.moves if m.player is not None}}
    after.update({p: after.get(p, 0) for p in first.new_seats})
    again = reconcile(after, first.house_net, stakes, payouts)
    assert again == Settlement((), first.house_net, ())


# -- worked examples -------------------------------------------------------------------------


def test_a_banked_bet_moves_coins_in_before_paying_out() -> None:
    """Escrow holds Bob's 50; Alice stakes 100, Bob is paid 50 by the bank. Paying Bob
    first would take escrow to -50: the two inflows go first."""
    nets, stakes, payouts = {ALICE: 0, BOB: -50}, {ALICE: 100}, {BOB: 50, HOUSE: -50}
    settlement = reconcile(nets, 0, stakes, payouts)
    assert settlement.moves == (
        CoinMove(ALICE, 0, -100),
        CoinMove(None, 0, -50),
        CoinMove(BOB, -50, 50),
    )
    assert settlement.house_net == -50
    assert problems_of(nets, 0, stakes, payouts, settlement) == []


def test_a_player_the_engine_seats_mid_game_gets_a_seat_and_pays_in() -> None:
    settlement = reconcile({ALICE: -10}, 0, {ALICE: 10, CAROL: 25}, {})
    assert settlement.new_seats == (CAROL,)
    assert settlement.moves == (CoinMove(CAROL, 0, -25),)


def test_a_cancel_returns_every_stake_and_lets_settled_results_stand() -> None:
    """The service cancels with no stakes and the stored payouts."""
    nets, payouts = {ALICE: -30, BOB: -20}, {ALICE: 10, BOB: -10}
    settlement = reconcile(nets, 0, {}, payouts)
    assert settlement.moves == (CoinMove(BOB, -20, -10), CoinMove(ALICE, -30, 10))
    assert problems_of(nets, 0, {}, payouts, settlement) == []


def test_equal_moves_keep_one_order_players_by_id_then_the_house() -> None:
    settlement = reconcile({CAROL: 0, ALICE: 0}, 0, {CAROL: 5, ALICE: 5}, {})
    assert [move.player for move in settlement.moves] == [ALICE, CAROL]
    settlement = reconcile({BOB: 0, CAROL: 0}, 0, {BOB: 5}, {CAROL: 5, HOUSE: -5})
    assert [move.player for move in settlement.moves] == [BOB, None, CAROL]


@pytest.mark.parametrize(
    ("stakes", "payouts", "reason"),
    [
        ({ALICE: 10}, {ALICE: 5}, "sum to 0"),
        ({ALICE: -1}, {}, "negative"),
        ({HOUSE: 10}, {}, "house cannot have a stake"),
    ],
)
def test_money_that_breaks_the_contract_is_refused_before_anything_moves(
    stakes: dict[int, int], payouts: dict[int, int], reason: str
) -> None:
    with pytest.raises(ReconcileError, match=reason):
        reconcile({ALICE: -10}, 0, stakes, payouts)


# -- the checker catches what it looks for ---------------------------------------------------

NETS, STAKES, PAYOUTS = {ALICE: 0, BOB: -50}, {ALICE: 100}, {BOB: 50, HOUSE: -50}
GOOD = (CoinMove(ALICE, 0, -100), CoinMove(None, 0, -50), CoinMove(BOB, -50, 50))


@pytest.mark.parametrize(
    ("settlement", "caught"),
    [
        (
            Settlement((GOOD[2], GOOD[0], GOOD[1]), -50, ()),
            ["escrow is -50 after move 1"],
        ),
        (
            Settlement(GOOD[:2], -50, ()),
            ["player 2 ends at -50, not 50", "escrow ends at 200, not the stakes' 100"],
        ),
        (
            Settlement((CoinMove(ALICE, 5, -100), GOOD[1], GOOD[2]), -50, ()),
            ["move 1 starts 1 at 5, not 0", "escrow ends at 105, not the stakes' 100"],
        ),
        (
            Settlement((*GOOD, CoinMove(CAROL, 0, -1)), -50, ()),
            [
                "move 4 pays player 3, who has no seat",
                "player 3 ends at -1, not 0",
                "escrow ends at 101, not the stakes' 100",
            ],
        ),
        (Settlement(GOOD, 0, ()), ["the settlement says the house ends at 0"]),
        (
            Settlement(GOOD, -50, (BOB,)),
            ["player 2 is given a new seat but has one", "move 3 starts 2 at -50, not 0"],
        ),
    ],
)
def test_the_checker_catches_a_broken_settlement(settlement: Settlement, caught: list[str]) -> None:
    assert problems_of(NETS, 0, STAKES, PAYOUTS, settlement) == caught


def test_the_checker_passes_the_good_settlement() -> None:
    assert problems_of(NETS, 0, STAKES, PAYOUTS, Settlement(GOOD, -50, ())) == []
