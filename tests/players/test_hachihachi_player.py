"""Nuki Hachi-hachi's computer: legal decisions only, the same decision whatever the hidden
cards are, a fixed amount of work, the lean round agreeing with the engine, and a clear
edge over a random player even at a small budget."""

from __future__ import annotations

import random

import pytest

from bot.fairness import FairDice
from bot.games import hachihachi as hh
from bot.games.dice import ScriptedDice
from bot.players import hachihachi as hp

RULES = hh.Rules(stake_per_kan=0, rounds=1)
A, B = 1, 9009


def positions(games: int, *, seed: int = 0) -> list[hh.State]:
    """Every decision point of a few seeded rounds between two random players."""
    found = []
    for game in range(games):
        dice = FairDice(bytes([seed, game]) * 16)
        state = hh.start(RULES, [A, B], dice)
        while not state.finished:
            seat = state.turn
            assert seat is not None
            found.append(state)
            action = hp.random_decide(state, seat, dice)
            state, _ = hh.act(state, seat, action, dice)
    return found


def test_every_decision_is_legal() -> None:
    for state in positions(6)[::3]:
        seat = state.turn
        assert seat is not None
        action = hp.decide(state, seat, FairDice(bytes(32)), samples=3)
        assert action in hh.legal_actions(state, seat)
        other = next(p for p in state.seats if p != seat)
        assert hp.decide(state, other, FairDice(bytes(32)), samples=3) is None


def reshuffled(state: hh.State, seat: int, rng: random.Random) -> hh.State:
    """The same information set for `seat`: the other hand and the draw pile dealt anew
    from the same hidden cards (cards revealed by a claim stay in the other hand)."""
    other = next(p for p in state.active if p != seat)
    _, known = hp.unseen_cards(state, seat)
    hidden = [c for c in [*state.hands[other], *state.draw_pile] if c not in known]
    rng.shuffle(hidden)
    need = len(state.hands[other]) - len(known)
    return state.model_copy(
        update={
            "hands": {**state.hands, other: [*known, *hidden[:need]]},
            "draw_pile": hidden[need:],
        }
    )


def test_the_decision_depends_only_on_what_the_seat_sees() -> None:
    rng = random.Random(7)
    checked = 0
    for state in positions(4, seed=3):
        seat = state.turn
        if state.phase not in hp.SEARCHED or seat is None:
            continue
        if len(hh.legal_actions(state, seat)) < 2:
            continue
        decided = hp.decide(state, seat, ScriptedDice([4242]), samples=6)
        for _ in range(2):
            twin = reshuffled(state, seat, rng)
            assert twin.hands[seat] == state.hands[seat]
            assert hp.decide(twin, seat, ScriptedDice([4242]), samples=6) == decided
        checked += 1
    assert checked >= 10


def test_the_work_is_fixed(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []
    real = hp.roll_out
    monkeypatch.setattr(hp, "roll_out", lambda w, b, r: (played.append(1), real(w, b, r)))
    for state in positions(2, seed=5):
        seat = state.turn
        assert seat is not None
        moves = hh.legal_actions(state, seat)
        played.clear()
        hp.decide(state, seat, FairDice(bytes(32)), samples=5)
        searched = state.phase in hp.SEARCHED and len(moves) > 1
        assert len(played) == (5 * len(moves) if searched else 0)
    assert hp.SAMPLES * 12 <= 2400, "a dozen moves at full budget stay within the plan"


def test_the_lean_round_plays_and_scores_as_the_engine() -> None:
    for game in range(8):
        dice = FairDice(bytes([77, game]) * 16)
        state = hh.start(RULES, [A, B], dice)
        while state.phase not in ("play", "over") and not state.finished:
            seat = state.turn
            assert seat is not None
            state, _ = hh.act(state, seat, hh.legal_actions(state, seat)[0], dice)
        if state.finished:
            continue
        # The true world (no sampling), both sides greedy, shoubu at once.
        world = hp.World(
            hands={p: list(state.hands[p]) for p in state.active},
            field=list(state.field),
            draw=list(state.draw_pile),
            piles={p: list(state.piles[p]) for p in state.active},
            yaku={p: state.yaku_kan.get(p, 0) for p in state.active},
            sage=list(state.sage_calls),
            turn=state.turn or A,
            active=(state.active[0], state.active[1]),
        )
        engine = state
        while world.ended is None:
            player = world.turn
            card, _ = hp.greedy_policy(world, player, random.Random(0))
            found = hh.legal_actions(engine, player)
            capture = hp._best([c for c in engine.field if hp.MONTH[c] == hp.MONTH[card]] or [card])
            move = next(
                m
                for m in found
                if isinstance(m, hh.Play) and m.card == card and m.capture in (None, capture)
            )
            top = engine.draw_pile[0]
            top_matches = [c for c in engine.field if hp.MONTH[c] == hp.MONTH[top]]
            hp.play_turn(world, player, card, move.capture, RULES.boar_deer_butterflies)
            engine, _ = hh.act(engine, player, move, ScriptedDice())
            if engine.phase == "capture_drawn":
                engine, _ = hh.act(
                    engine,
                    player,
                    hh.CaptureDrawn(
                        capture=hp._best(
                            [c for c in engine.field if hp.MONTH[c] == hp.MONTH[engine.drawn]]
                        )
                    ),
                    ScriptedDice(),
                )
            if engine.phase == "call":
                engine, _ = hh.act(engine, player, hh.Shoubu(), ScriptedDice())
            assert top_matches is not None
            if not engine.finished:
                assert sorted(engine.field) == sorted(world.field)
                assert {p: sorted(engine.piles[p]) for p in engine.active} == {
                    p: sorted(pile) for p, pile in world.piles.items()
                }
        assert engine.finished
        assert engine.last_round is not None
        assert hp.score(state, world, A) == engine.last_round.net[A], game


def test_it_beats_a_random_player_even_at_a_small_budget() -> None:
    net = wins = 0
    rounds = 30
    for game in range(rounds):
        dice = FairDice(game.to_bytes(4, "big") * 8)
        computer = A if game % 2 == 0 else B
        state = hh.start(RULES, [A, B], dice)
        while not state.finished:
            seat = state.turn
            assert seat is not None
            if seat == computer:
                action = hp.decide(state, seat, dice, samples=6)
            else:
                action = hp.random_decide(state, seat, dice)
            state, _ = hh.act(state, seat, action, dice)
        net += state.scores[computer]
        wins += state.scores[computer] > 0
    assert wins >= rounds * 0.6 and net > 0, (wins, net)
