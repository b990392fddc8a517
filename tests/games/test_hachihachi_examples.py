"""The rules file's worked examples W17–W24 (shared/rules/nuki-hachi-hachi.md), each its
own test, driven through ``start``/``act`` with scripted deals; where an example gives
only the piles, the position is built and played or scored by the engine itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games import hachihachi as hh
from bot.games.dice import ScriptedDice
from bot.games.hachihachi import match
from bot.games.hachihachi.round import End
from bot.games.kit import evolve
from tests.games.test_hachihachi_engine import (
    A,
    B,
    accounted,
    begin,
    built,
    deal_order,
    finish_round,
    kinds,
    refused,
    step,
)

# ----------------------------------------------------------------------- helpers


def position(
    piles: dict[int, list[str]],
    hands: dict[int, list[str]] | None = None,
    draw: Sequence[str] = (),
    **fields: Any,
) -> hh.State:
    """A two-player round in play (A deals), one round to go, the unlisted cards on the
    field: a position the examples describe."""
    state, _ = begin((A, B), list(range(34)), rounds=1)
    hands = hands or {A: [], B: []}
    placed = [*piles[A], *piles[B], *hands[A], *hands[B], *draw]
    field = [card for card in hh.DECK if card not in placed]
    fields.setdefault("phase", "play")
    fields.setdefault("multiplier", 1)  # a Small Field unless the example says otherwise
    fields.setdefault("claims", {A: [], B: []})
    new = built(state, piles=piles, hands=hands, draw_pile=list(draw), field=field, **fields)
    assert accounted(new) == sorted(hh.DECK)
    return new


def claim(
    group: str, name: str, kan: int, revealed: list[str], month: int | None = None
) -> hh.Claim:
    return hh.Claim.model_validate(
        {"group": group, "name": name, "kan": kan, "revealed": revealed, "month": month}
    )


def scored(events: list[Any]) -> hh.RoundResult:
    result: hh.RoundResult = next(e for e in events if e.kind == "round_scored").result
    return result


def dealt(events: list[Any]) -> list[Any]:
    return [event for event in events if event.kind == "dealt"]


# ---------------------------------------------------------------------- examples

W17_FIELDS = [
    ["pine-bright", "susuki-bright", "plum-chaff-1", "peony-ribbon", "maple-chaff-2",
     "willow-animal"],
    ["willow-bright", "paulownia-bright", "cherry-chaff-1", "chrysanthemum-animal",
     "maple-ribbon", "plum-chaff-2"],
    ["plum-chaff-1", "peony-chaff-1", "maple-chaff-1", "chrysanthemum-chaff-1",
     "willow-chaff", "susuki-chaff-1"],
]  # fmt: skip


def test_w17_large_field_and_carry_over() -> None:
    orders = [deal_order([[], []], field) for field in W17_FIELDS]
    state, dice = begin((A, B), *orders, rounds=3)
    assert state.field == W17_FIELDS[0]
    # Round 1: Crane and Moon, n = 2: ×2, one Large Field carried over.
    assert state.multiplier == 2 and state.pending_large == 1
    state, events = finish_round(state, dice)
    (second,) = dealt(events)
    # Round 2: Rain Man and Phoenix do not count (n = 0), but the carry-over makes ×2.
    assert second.field == W17_FIELDS[1]
    assert (second.multiplier, second.pending_large) == (2, 0)
    assert (state.multiplier, state.pending_large) == (2, 0)
    assert scored(events).multiplier == 2
    state, events = finish_round(state, dice)
    (third,) = dealt(events)
    # Round 3: no Crane, Curtain or Moon, nothing carried: ×1.
    assert third.field == W17_FIELDS[2] and (third.multiplier, third.pending_large) == (1, 0)
    state, events = finish_round(state, dice)
    assert scored(events).multiplier == 1 and state.finished


W18_MISDEAL = ["maple-animal", "maple-ribbon", "maple-chaff-1", "maple-chaff-2", "pine-chaff-1",
               "cherry-ribbon"]  # fmt: skip


def test_w18_misdeal() -> None:
    misdeal = deal_order([[], []], W18_MISDEAL)
    good = deal_order([[], []], ["pine-bright", "plum-chaff-1"])
    # At the start: the same dealer redeals from the next shuffle.
    state, dice = begin((A, B), misdeal, good, rounds=2)
    assert state.dealer == A and state.round == 1
    assert state.field[:2] == ["pine-bright", "plum-chaff-1"]
    assert (state.multiplier, state.pending_large) == (2, 0)
    # Inside a match: round 2's first deal is a misdeal; the round's dealer redeals,
    # nothing is counted and the carry-over counter is untouched.
    carry = deal_order([[], []], ["pine-bright", "susuki-bright"])
    state, dice = begin((A, B), carry, misdeal, good, rounds=2)
    assert state.pending_large == 1
    state, events = finish_round(state, dice)
    winner = scored(events).winner
    misdealt = [event for event in events if event.kind == "misdealt"]
    assert len(misdealt) == 1
    assert misdealt[0].reason == "four_of_a_month" and misdealt[0].month == 10
    assert misdealt[0].field == W18_MISDEAL and misdealt[0].dealer == winner
    (deal,) = dealt(events)
    assert kinds(events).index("misdealt") < kinds(events).index("dealt")
    assert state.round == 2 and state.rounds_played == 1 and state.dealer == winner
    # pending 1 (from round 1) + the Crane = 2 sources: ×2, 1 left; the misdeal took none.
    assert (deal.multiplier, deal.pending_large) == (2, 1)


def test_w19_paulownia_pair_on_the_field() -> None:
    field = ["paulownia-bright", "paulownia-chaff", "plum-chaff-1", "peony-animal",
             "chrysanthemum-ribbon", "willow-chaff"]  # fmt: skip
    state, _ = begin((A, B), deal_order([[], []], field))
    assert state.piles[A] == ["paulownia-bright", "paulownia-chaff"]
    assert hh.card_points(state.piles[A]) == 21
    assert state.field == ["plum-chaff-1", "peony-animal", "chrysanthemum-ribbon", "willow-chaff"]
    assert state.multiplier == 1 and state.pending_large == 0
    # Not a turn, no dekiyaku decision: the dealer simply plays first.
    assert state.phase == "play" and state.turn == A
    assert accounted(state) == sorted(hh.DECK)


def test_w20a_two_matches_the_player_chooses() -> None:
    field = ["cherry-bright", "cherry-chaff-2", "pine-chaff-1", "plum-chaff-1",
             "peony-chaff-1", "susuki-chaff-1"]  # fmt: skip
    state, _ = begin((A, B), deal_order([[], ["cherry-chaff-1"]], field, ["willow-chaff"]))
    assert hh.Play(card="cherry-chaff-1", capture="cherry-bright") in hh.legal_actions(state, A)
    refused(state, A, hh.Play(card="cherry-chaff-1"), "choose")
    state, events = step(state, A, hh.Play(card="cherry-chaff-1", capture="cherry-bright"))
    assert events[0].captured == ["cherry-bright"]
    assert state.piles[A][:2] == ["cherry-chaff-1", "cherry-bright"]
    assert "cherry-chaff-2" in state.field


def test_w20b_the_fourth_card_takes_a_dealt_triplet() -> None:
    field = ["susuki-bright", "susuki-animal", "susuki-chaff-1", "pine-chaff-1",
             "plum-chaff-1", "peony-chaff-1"]  # fmt: skip
    state, _ = begin((A, B), deal_order([[], ["maple-chaff-1"]], field, ["susuki-chaff-2"]))
    state, events = step(state, A, hh.Play(card="maple-chaff-1"))
    drawn = events[1]
    assert drawn.source == "draw" and drawn.card == "susuki-chaff-2"
    assert drawn.captured == ["susuki-bright", "susuki-animal", "susuki-chaff-1"]
    assert state.piles[A] == ["susuki-chaff-2", "susuki-bright", "susuki-animal", "susuki-chaff-1"]
    assert state.phase == "play" and state.turn == B  # no choice was asked


def test_w20c_a_laid_card_is_taken_by_the_draw() -> None:
    field = ["pine-chaff-1", "plum-chaff-1", "peony-chaff-1", "susuki-chaff-1",
             "cherry-chaff-1", "chrysanthemum-chaff-1"]  # fmt: skip
    state, _ = begin((A, B), deal_order([[], ["maple-chaff-1"]], field, ["maple-animal"]))
    state, events = step(state, A, hh.Play(card="maple-chaff-1"))
    assert events[0].captured == []  # it went to the field
    assert events[1].card == "maple-animal" and events[1].captured == ["maple-chaff-1"]
    assert state.piles[A] == ["maple-animal", "maple-chaff-1"]
    assert "maple-chaff-1" not in state.field


def test_w20d_capturing_is_compulsory() -> None:
    field = ["peony-animal", "pine-chaff-1", "plum-chaff-1", "susuki-chaff-1",
             "cherry-chaff-1", "chrysanthemum-chaff-1"]  # fmt: skip
    state, _ = begin((A, B), deal_order([[], ["peony-chaff-1"]], field, ["willow-chaff"]))
    plays = [
        move
        for move in hh.legal_actions(state, A)
        if isinstance(move, hh.Play) and move.card == "peony-chaff-1"
    ]
    assert plays == [hh.Play(card="peony-chaff-1")]
    refused(state, A, hh.Play(card="peony-chaff-1", capture="pine-chaff-1"), "can't capture")
    state, events = step(state, A, hh.Play(card="peony-chaff-1"))
    assert events[0].captured == ["peony-animal"]
    assert state.piles[A] == ["peony-chaff-1", "peony-animal"]


W21_A = ["cherry-bright", "cherry-ribbon", "cherry-chaff-1", "cherry-chaff-2", "pine-bright",
         "pine-chaff-1", "plum-chaff-1", "plum-chaff-2", "peony-animal", "peony-ribbon",
         "susuki-chaff-1", "susuki-chaff-2", "chrysanthemum-animal", "chrysanthemum-chaff-1",
         "maple-chaff-1", "maple-chaff-2", "willow-bright", "willow-chaff", "paulownia-bright",
         "paulownia-chaff"]  # fmt: skip


def test_w21_full_settlement_card_points_large_field_diving() -> None:
    w21_b = [card for card in hh.DECK if card not in W21_A]
    assert hh.card_points(W21_A) == 122 and hh.card_points(w21_b) == 89
    claims = {
        A: [claim("A", "Triplet", 2, ["cherry-bright", "cherry-ribbon", "cherry-chaff-1"], 3)],
        B: [claim("B", "One Ribbon", 3, [])],
    }
    state = position({A: W21_A, B: w21_b}, multiplier=2, active=[A, B], claims=claims)
    result, honours = hh.score_round(state, "exhaustion", None)
    assert result.case == "C" and result.winner == A and honours == []
    by_kind = {(line.kind, line.payee): line.points for line in result.lines}
    assert by_kind == {
        ("teyaku", A): 40,
        ("teyaku", B): 60,
        ("card_points", A): 66,
        ("diving", A): 20,
    }
    assert result.net == {A: 66, B: -66}
    # Booked by the match: A deals next (and with one round, the match is over).
    s = evolve(state)
    match.end_round(s, End("exhaustion"), ScriptedDice())
    assert s.scores == {A: 66, B: -66} and s.dealer == A and s.finished
    assert s.payouts == {0: 0, A: 7, B: -7}


def test_w22_shoubu_with_a_failed_mizuten() -> None:
    b_pile = ["pine-bright", "pine-ribbon", "plum-ribbon", "plum-chaff-1", "cherry-ribbon",
              "cherry-chaff-2", "peony-animal", "peony-chaff-1"]  # fmt: skip
    a_pile = ["pine-chaff-1", "pine-chaff-2", "susuki-animal", "susuki-chaff-1", "maple-animal",
              "maple-chaff-2"]  # fmt: skip
    assert hh.card_points(a_pile) == 24
    hands = {A: ["willow-chaff", "plum-chaff-2", "cherry-chaff-1"],
             B: ["peony-chaff-2", "susuki-chaff-2", "maple-chaff-1"]}  # fmt: skip
    claims = {A: [claim("B", "Empty Hand", 4, [])], B: []}
    state = position(
        {A: a_pile, B: b_pile},
        hands,
        ["chrysanthemum-chaff-1", "chrysanthemum-chaff-2", "willow-animal", "willow-ribbon",
         "paulownia-chaff", "maple-ribbon"],
        phase="call",
        turn=B,
        active=[A, B],
        mizuten_declared=True,
        claims=claims,
        yaku_kan={A: 0, B: 7},
    )  # fmt: skip
    refused(state, A, hh.Shoubu(), "isn't your turn")
    state, events = step(state, B, hh.Shoubu())
    result = scored(events)
    assert result.ended_by == "shoubu" and result.caller == B and result.winner == B
    lines = {(line.kind, line.payer, line.payee): line.points for line in result.lines}
    assert lines == {
        ("teyaku", B, A): 40,
        ("dekiyaku", A, B): 70,
        ("mizuten", A, B): 10,
    }
    assert result.net == {A: -40, B: 40}
    assert state.scores == {A: -40, B: 40} and state.dealer == B


def test_w23_hands_exhausted_with_dekiyaku_on_both_sides_and_escape() -> None:
    a_pile = ["pine-bright", "pine-ribbon", "cherry-bright", "cherry-chaff-1", "susuki-bright",
              "susuki-chaff-1", "paulownia-bright", "paulownia-chaff", "plum-animal",
              "plum-chaff-1", "willow-animal", "willow-chaff", "chrysanthemum-animal",
              "chrysanthemum-chaff-2"]  # fmt: skip
    b_final = [card for card in hh.DECK if card not in a_pile]
    assert hh.card_points(a_pile) == 121 and hh.card_points(b_final) == 90
    assert hh.dekiyaku(b_final) == [("Blue Ribbons", 7)]
    # B's seventh and last turn: the Pine chaff takes the other from the field, the drawn
    # Maple chaff takes the last; no new dekiyaku, so the hands run out.
    last = ["pine-chaff-1", "pine-chaff-2", "maple-chaff-1", "maple-chaff-2"]
    b_pile = [card for card in b_final if card not in last]
    state = position(
        {A: a_pile, B: b_pile},
        {A: [], B: ["pine-chaff-1"]},
        ["maple-chaff-1"],
        turn=B,
        active=[A, B],
        claims={A: [claim("B", "One Ribbon", 3, [])], B: []},
        sage_calls=[A, B],
        yaku_kan={A: 10, B: 7},
    )
    assert state.field == ["pine-chaff-2", "maple-chaff-2"]
    state, events = step(state, B, hh.Play(card="pine-chaff-1"))
    result = scored(events)
    assert result.ended_by == "exhaustion" and result.case == "D"
    assert sum(result.card_points.values()) == hh.CARD_POINTS_TOTAL
    lines = {(line.kind, line.payee): line.points for line in result.lines}
    assert lines == {
        ("teyaku", A): 30,
        ("dekiyaku", A): 50,
        ("dekiyaku", B): 35,
        ("escape", A): 10,
    }
    assert result.net == {A: 55, B: -55}
    assert result.winner == A  # the first sage
    assert state.dealer == A


def _w24(**fields: Any) -> hh.State:
    b_pile = ["pine-ribbon", "pine-chaff-1", "plum-ribbon", "plum-chaff-1", "cherry-ribbon",
              "cherry-chaff-1", "peony-ribbon", "peony-chaff-1", "chrysanthemum-ribbon",
              "chrysanthemum-chaff-1", "maple-ribbon", "maple-chaff-1"]  # fmt: skip
    a_pile = ["pine-bright", "pine-chaff-2", "cherry-bright", "cherry-chaff-2", "susuki-bright",
              "susuki-chaff-1", "paulownia-bright", "paulownia-chaff"]  # fmt: skip
    assert hh.dekiyaku_kan(b_pile) == 14 and hh.dekiyaku(a_pile) == [("Four Brights", 10)]
    return position(
        {A: a_pile, B: b_pile},
        {A: ["willow-chaff"], B: ["plum-chaff-2"]},
        ["maple-animal", "peony-animal"],
        active=[A, B],
        **fields,
    )


def test_w24_cancel() -> None:
    state = _w24(turn=B, sage_calls=[B, A], yaku_kan={A: 10, B: 14})
    assert hh.legal_actions(state, B)[-1] == hh.Cancel()
    refused(state, A, hh.Cancel(), "isn't your turn")
    state, events = step(state, B, hh.Cancel())
    result = scored(events)
    assert result.ended_by == "cancel" and result.caller == B and result.winner == B
    assert [(line.kind, line.payee, line.points) for line in result.lines] == [("dekiyaku", B, 70)]
    assert result.net == {A: -70, B: 70}
    # Had A called shoubu instead of sage: A would have received 100, B nothing.
    state = _w24(phase="call", turn=A, sage_calls=[B], yaku_kan={A: 10, B: 14})
    state, events = step(state, A, hh.Shoubu())
    result = scored(events)
    assert result.winner == A and result.net == {A: 100, B: -100}


# ------------------------------------------------------ honours of the big dekiyaku

FIVE_BRIGHTS = [card for card in hh.DECK if card.endswith("-bright")]
SEVEN_RIBBONS = [card for card in hh.DECK if card.endswith("-ribbon")]


def test_five_brights_and_seven_ribbons_are_honours_of_who_scored_them() -> None:
    """At exhaustion both scorers' big dekiyaku are honours; on a shoubu only the caller's
    (the other pile is not paid for)."""
    assert len(FIVE_BRIGHTS) == 5 and len(SEVEN_RIBBONS) == 7
    state = position({A: FIVE_BRIGHTS, B: SEVEN_RIBBONS}, active=[A, B])
    result, honours = hh.score_round(state, "exhaustion", None)
    assert result.case == "D"
    assert [(h.player, h.name) for h in honours] == [(A, "Five Brights"), (B, "Seven Ribbons")]
    _, honours = hh.score_round(state, "shoubu", B)
    assert [(h.player, h.name) for h in honours] == [(B, "Seven Ribbons")]

    # The match books them: the round's end carries them as honour events.
    s = evolve(state)
    events = match.end_round(s, End("exhaustion"), ScriptedDice())
    booked = [(e.player, e.name) for e in events if e.kind == "honour"]
    assert booked == [(A, "Five Brights"), (B, "Seven Ribbons")]
