"""Each engine's ``waiting_on``: whom a turn notice may name (cogs/_ui/notify.py). Only what
the table already shows: the player to act, or at a round of secret choices those still to
choose once another has chosen."""

from __future__ import annotations

from bot.games import fortunes_winds as fw
from bot.games import hachihachi as hh
from bot.games import hazard, nihakyu
from bot.games import strength_duel as duel
from bot.games.dice import ScriptedDice
from tests.support.dice import SeededDice

A, B, C = 11, 12, 13


def test_hazard_waits_on_the_caster_until_the_end() -> None:
    state = hazard.ENGINE.start(hazard.Rules(), [A, B], ScriptedDice())
    assert hazard.ENGINE.waiting_on(state) == [A]
    assert hazard.ENGINE.waiting_on(state.model_copy(update={"caster": B})) == [B]
    assert hazard.ENGINE.waiting_on(state.model_copy(update={"finished": True})) == []


def test_fortunes_waits_on_the_shooter_through_the_betting_window() -> None:
    state = fw.ENGINE.start(fw.Rules(), [A, B], ScriptedDice())
    assert fw.ENGINE.waiting_on(state) == [state.shooter]
    assert fw.ENGINE.waiting_on(state.model_copy(update={"window_open": True})) == [state.shooter]
    assert fw.ENGINE.waiting_on(state.model_copy(update={"finished": True})) == []


def test_hachihachi_waits_on_the_player_to_decide() -> None:
    state = hh.ENGINE.start(hh.Rules(), [A, B], SeededDice(3))
    assert state.turn is not None
    assert hh.ENGINE.waiting_on(state) == [state.turn]
    assert hh.ENGINE.waiting_on(state.model_copy(update={"finished": True})) == []


def test_nihakyu_names_only_those_still_to_choose_once_another_has() -> None:
    engine = nihakyu.ENGINE
    state = engine.start(nihakyu.Rules(ante=10), [A, B, C], ScriptedDice())
    assert engine.waiting_on(state) == [], "everyone is choosing: nobody is late"
    state, _ = engine.act(state, A, nihakyu.Roll(), ScriptedDice())
    assert engine.waiting_on(state) == [B, C]
    state, _ = engine.act(state, B, nihakyu.Roll(), ScriptedDice())
    assert engine.waiting_on(state) == [C]


def test_a_duel_names_the_bidder_still_to_bid_once_the_other_has() -> None:
    engine = duel.ENGINE
    state = engine.start(duel.Rules(stake=10), [A, B], ScriptedDice())
    assert engine.waiting_on(state) == []
    state, _ = engine.act(state, B, duel.Bid(amount=3), ScriptedDice())
    assert engine.waiting_on(state) == [A]
    state, _ = engine.act(state, B, duel.Bid(amount=4), ScriptedDice())
    assert engine.waiting_on(state) == [A], "a changed bid changes nothing"
