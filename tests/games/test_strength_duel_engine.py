"""Strength Duel on the typed contract: ENGINE, its parsers, hooks, legal moves, copies."""

from __future__ import annotations

import random
from typing import Any, get_args

import pytest
from pydantic import BaseModel

from bot.games import strength_duel as sd
from bot.games.common import Abort, Deadline, Honour
from bot.games.contract import Engine
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove
from bot.games.strength_duel import ENGINE, Bid, Forbid, Rules, SettleAtValue, State

A, B, C, D = 101, 202, 303, 404
MODES: list[sd.Mode] = ["duel", "forbidden", "three", "tag"]


def new(mode: sd.Mode = "duel", **rules: Any) -> State:
    return sd.start(Rules(mode=mode, **rules), [A, B, C, D][: sd.SEATS[mode]], ScriptedDice())


def union_members(union: Any) -> tuple[type[BaseModel], ...]:
    """The models of an ``Annotated[X | Y | ..., discriminator]`` union."""
    return get_args(get_args(union)[0])


def random_game(mode: sd.Mode, seed: int) -> list[State]:
    """Every state of a random game played to its end (legal moves and deadlines)."""
    rng = random.Random(seed)
    states = [new(mode, max_rounds=30, afk_rounds_to_forfeit=2)]
    while not states[-1].finished:
        state = states[-1]
        waiting = sd.waiting_for(state)
        player: int | None
        action: sd.Action
        if rng.random() < 0.1:
            player, action = None, Deadline()
        else:
            player = rng.choice(waiting)
            action = rng.choice(sd.legal_actions(state, player))
        states.append(sd.act(state, player, action, ScriptedDice())[0])
    return states


# --------------------------------------------------------------------------- the engine


def test_engine_is_the_typed_contract_and_the_module_functions_are_its_methods() -> None:
    assert isinstance(ENGINE, Engine)
    assert ENGINE.name == "strength_duel" == sd.__name__.rsplit(".", 1)[-1]
    assert (ENGINE.rules_model, ENGINE.state_model) == (Rules, State)
    for name in ("start", "act", "seat_limits", "hold", "deadline_seconds", "legal_actions"):
        function = getattr(sd, name)
        assert function.__self__ is ENGINE, name
        assert function.__func__ is getattr(type(ENGINE), name), name


@pytest.mark.parametrize("mode", MODES)
def test_engine_methods_agree_with_the_module_functions(mode: sd.Mode) -> None:
    rules = Rules(mode=mode, stake=4, round_seconds=30)
    assert ENGINE.seat_limits(rules) == sd.seat_limits(rules) == (sd.SEATS[mode],) * 2
    assert ENGINE.hold(rules) == sd.hold(rules) == 4
    seats = [A, B, C, D][: sd.SEATS[mode]]
    state = ENGINE.start(rules, seats, ScriptedDice())
    assert state == sd.start(rules, seats, ScriptedDice())
    assert ENGINE.deadline_seconds(state) == sd.deadline_seconds(state) == 30
    by_engine = ENGINE.act(state, None, Deadline(), ScriptedDice())
    assert by_engine == sd.act(state, None, Deadline(), ScriptedDice())


def test_no_optional_hook_applies_so_each_keeps_its_default() -> None:
    state, _ = sd.act(new("duel"), A, Bid(amount=20), ScriptedDice())
    assert ENGINE.bank_exposure(state) == 0
    assert ENGINE.pending_charge(state, A) == 0  # a bid costs strength, never coins
    assert ENGINE.shortfall(state, A) is None
    assert (ENGINE.join_action, ENGINE.leave_action, ENGINE.charges_at_reveal) == (
        None,
        None,
        False,
    )


def test_actions_are_read_off_the_union_and_each_has_a_move() -> None:
    assert sd.ACTIONS == union_members(sd.Action) == (Bid, Forbid, Deadline, Abort, SettleAtValue)
    assert set(sd.RULEBOOK.action_types) == set(sd.ACTIONS)


def test_a_model_that_is_no_duel_action_is_refused() -> None:
    with pytest.raises(IllegalMove, match="not a move in this game"):
        sd.act(new("duel"), A, Honour(player=A, name="x"), ScriptedDice())  # type: ignore[arg-type]


# --------------------------------------------------------------------------- parsing logs


@pytest.mark.parametrize(
    "action",
    [Bid(amount=3), Bid(amount=0, tag_out=True), Forbid(number=5), Deadline(), Abort()],
)
def test_parse_action_reads_every_logged_action(action: BaseModel) -> None:
    assert ENGINE.parse_action(action.model_dump(mode="json")) == action
    assert ENGINE.parse_action({"kind": action.kind, **action.model_dump()}) == action


def test_parse_action_refuses_an_unknown_kind() -> None:
    with pytest.raises(ValueError, match="kind"):
        ENGINE.parse_action({"kind": "throw"})


def test_parse_event_reads_every_event_kind_back() -> None:
    d = ScriptedDice()
    forbid = new("forbidden", afk_rounds_to_forfeit=1)
    logs = [
        sd.act(forbid, A, Forbid(number=2), d)[1],  # forbid_confirmed, forbid_chosen
        sd.act(forbid, None, Deadline(), d)[1],  # assigned numbers, forbid_closed, game over
        sd.act(new("duel"), A, Bid(amount=3), d)[1],  # bid_confirmed, player_bid
        sd.act(sd.act(new("duel"), A, Bid(amount=3), d)[0], B, Bid(amount=1), d)[1],
        sd.act(new("tag"), None, Abort(), d)[1],
        sd.act(new("duel"), None, SettleAtValue(house=B, chance=0.5), d)[1],
    ]
    events = [event for log in logs for event in log]
    assert {event.kind for event in events} == {
        model.model_fields["kind"].default for model in union_members(sd.Event)
    }
    for event in events:
        assert ENGINE.parse_event(event.model_dump(mode="json")) == event


# --------------------------------------------------------------------------- legal moves


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", range(3))
def test_legal_actions_are_exactly_the_moves_act_accepts(mode: sd.Mode, seed: int) -> None:
    for state in random_game(mode, seed)[:-1]:
        for player in [*state.seats, 999]:
            legal = sd.legal_actions(state, player)
            top = max(state.strength.values())
            every: list[Any] = [Forbid(number=n) for n in range(-1, 7)] + [
                Bid(amount=n, tag_out=t) for n in range(-1, top + 2) for t in (False, True)
            ]
            for action in every:
                try:
                    sd.act(state, player, action, ScriptedDice())
                except IllegalMove:
                    assert action not in legal
                else:
                    assert action in legal
            amounts = sorted({a.amount for a in legal if isinstance(a, Bid)})
            assert amounts == sd.legal_bids(state, player)


def test_legal_actions_in_each_phase() -> None:
    forbid = new("forbidden")
    assert sd.legal_actions(forbid, A) == [Forbid(number=n) for n in range(6)]
    tag = new("tag")
    assert sd.legal_actions(tag, B) == []  # sitting out
    assert Bid(amount=25, tag_out=True) in sd.legal_actions(tag, A)
    assert sd.legal_actions(new("duel"), 999) == []
    finished, _ = sd.act(new("duel"), None, Abort(), ScriptedDice())
    assert sd.legal_actions(finished, A) == []


# --------------------------------------------------------------------------- copies


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed", range(4))
def test_no_later_action_changes_any_earlier_state(mode: sd.Mode, seed: int) -> None:
    """States share containers (shallow copies): every state of a game, not just the one
    an action was given, must read the same at the end as when it was made."""
    rng = random.Random(seed)
    states, dumps = [new(mode, max_rounds=25)], []
    dumps.append(states[0].model_dump_json())
    while not states[-1].finished:
        state = states[-1]
        player: int | None = rng.choice(sd.waiting_for(state))
        assert player is not None
        action: sd.Action = rng.choice(sd.legal_actions(state, player))
        if rng.random() < 0.1:
            player, action = None, Deadline()
        states.append(sd.act(state, player, action, ScriptedDice())[0])
        dumps.append(states[-1].model_dump_json())
    assert [state.model_dump_json() for state in states] == dumps
    assert len(states) > 3
