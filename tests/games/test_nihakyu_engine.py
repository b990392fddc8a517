"""Nihakyu on the typed engine contract: ENGINE, its bound functions, parsing every logged
action and event, the Action union as the one list of actions, and legal_actions as the
Rulebook's checks."""

from __future__ import annotations

import random
from typing import Any, get_args

import pytest
from pydantic import BaseModel, ValidationError

from bot.games import nihakyu as N
from bot.games.common import Abort, Deadline, Honour, Permission
from bot.games.contract import Engine
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove

A, B, C = 101, 202, 303
ALL_VARIANTS = N.Rules(
    starting_stamina=30,
    ante=7,
    kage_endurance=True,
    shadow_step=True,
    shadow_step_uses=2,
    dealers_blood=True,
    shinobi_interference=True,
)
PLAYER_ACTIONS: list[BaseModel] = [
    N.Roll(),
    N.ShadowStep(),
    N.KageEndurance(),
    N.Sleight(adjust=-1),
    N.Sleight(adjust=1),
    N.SkipSleight(),
]
BOUND = [
    "start",
    "act",
    "seat_limits",
    "hold",
    "deadline_seconds",
    "pending_charge",
    "shortfall",
    "legal_actions",
]


def test_engine_declares_nihakyu() -> None:
    engine = N.ENGINE
    assert isinstance(engine, Engine) and isinstance(engine, N.NihakyuEngine)
    assert engine.name == "nihakyu"
    assert engine.rules_model is N.Rules and engine.state_model is N.State
    # A reveal can take Kage's second ante; nobody joins or leaves a running game.
    assert engine.charges_at_reveal is True
    assert engine.join_action is None and engine.leave_action is None
    assert engine.permissions is N.PERMISSIONS
    assert engine.permissions == {
        N.Eject: Permission.MODERATOR_NOT_SEATED,
        N.KageUnpaid: Permission.TABLE,
    }


@pytest.mark.parametrize("name", BOUND)
def test_module_functions_are_the_engines_bound_methods(name: str) -> None:
    function = getattr(N, name)
    assert function.__self__ is N.ENGINE
    assert function.__func__ is getattr(N.NihakyuEngine, name)


def test_a_hook_nihakyu_lacks_keeps_the_contract_default() -> None:
    state = N.start(ALL_VARIANTS, [A, B], ScriptedDice())
    assert N.ENGINE.bank_exposure(state) == 0  # no bank pays out in Nihakyu


def random_game(seed: int, engine_side: bool) -> tuple[list[N.State], list[Any]]:
    """A random legal game played through ENGINE or through the module functions."""
    rng = random.Random(seed)
    dice = ScriptedDice([rng.randint(1, 20) for _ in range(2000)])
    start = N.ENGINE.start if engine_side else N.start
    act = N.ENGINE.act if engine_side else N.act
    legal = N.ENGINE.legal_actions if engine_side else N.legal_actions
    state = start(ALL_VARIANTS, [A, B, C], dice)
    states, events = [state], []
    while not state.finished:
        options: list[tuple[int | None, Any]] = [
            (p, a) for p in N.standing(state) for a in legal(state, p)
        ]
        if rng.random() < 0.1 or not options:
            options = [(None, Deadline())]
        player, action = rng.choice(options)
        state, new_events = act(state, player, action, dice)
        states.append(state)
        events.extend(new_events)
    return states, events


@pytest.mark.parametrize("seed", range(5))
def test_engine_methods_and_module_functions_play_the_same_game(seed: int) -> None:
    by_engine = random_game(seed, engine_side=True)
    by_module = random_game(seed, engine_side=False)
    assert by_engine == by_module
    states, _ = by_engine
    for state in states:
        assert N.ENGINE.deadline_seconds(state) == N.deadline_seconds(state)
        for p in state.seats:
            assert N.ENGINE.pending_charge(state, p) == N.pending_charge(state, p)
            assert N.ENGINE.shortfall(state, p) == N.shortfall(state, p)
    assert N.ENGINE.seat_limits(ALL_VARIANTS) == N.seat_limits(ALL_VARIANTS) == (2, 8)
    assert N.ENGINE.hold(ALL_VARIANTS) == N.hold(ALL_VARIANTS) == 7


def test_actions_are_read_off_the_action_union() -> None:
    members = get_args(get_args(N.Action)[0])
    assert members == N.ACTIONS
    assert Deadline in N.ACTIONS and Abort in N.ACTIONS and N.KageUnpaid in N.ACTIONS
    kinds = [cls.model_fields["kind"].default for cls in N.ACTIONS]
    assert len(set(kinds)) == len(kinds)


@pytest.mark.parametrize("cls", N.ACTIONS, ids=lambda cls: cls.__name__)
def test_every_action_is_a_move_of_the_rulebook(cls: type[BaseModel]) -> None:
    """Whatever the action and whoever sends it, the refusal (if any) is about the moment,
    never "not a move": the Rulebook knows every member of the union."""
    example = {
        N.Sleight: N.Sleight(adjust=1),
        N.Eject: N.Eject(target=A),
        N.KageUnpaid: N.KageUnpaid(player=A),
    }.get(cls) or cls()
    state = N.start(ALL_VARIANTS, [A, B], ScriptedDice())
    for player in (A, None, 999):
        try:
            N.act(state, player, example, ScriptedDice([10] * 10))  # type: ignore[arg-type]
        except IllegalMove as refusal:
            assert "not a move" not in str(refusal)


def test_an_unknown_action_is_refused_as_not_a_move() -> None:
    class Dance(BaseModel):
        kind: str = "dance"

    state = N.start(ALL_VARIANTS, [A, B], ScriptedDice())
    with pytest.raises(IllegalMove, match="not a move in this game"):
        N.act(state, A, Dance(), ScriptedDice())  # type: ignore[arg-type]


LOGGED_ACTIONS: list[BaseModel] = [
    *PLAYER_ACTIONS,
    N.Eject(target=A),
    N.KageUnpaid(player=B),
    N.RollForMe(on=True),
    N.RollForMe(on=False),
    Abort(),
    Deadline(),
]


@pytest.mark.parametrize("action", LOGGED_ACTIONS, ids=lambda a: repr(a))
def test_parse_action_reads_every_logged_action(action: BaseModel) -> None:
    logged = action.model_dump(mode="json")
    parsed = N.ENGINE.parse_action(logged)
    assert parsed == action and type(parsed) is type(action)


def test_parse_action_refuses_what_is_not_an_action() -> None:
    with pytest.raises(ValidationError):
        N.ENGINE.parse_action({"kind": "dance"})
    with pytest.raises(ValidationError):
        N.ENGINE.parse_action({"kind": "sleight", "adjust": 2})


EVENTS: list[BaseModel] = [
    N.ChoiceConfirmed(private_to=A, player=A, round=1, choice="kage", stake=7, charge=7),
    N.RollForMeConfirmed(private_to=A, player=A, round=1, on=True),
    N.PlayerChose(round=1, player=A),
    N.RoundRevealed(
        round=1,
        choices={A: "roll", B: "shadow_step"},
        rolls={A: [4], B: [], N.DEALER: [9]},
        auto_rolled=[B],
        forfeiting=[],
        kage_unpaid=[A],
    ),
    N.SleightWindowOpened(round=1, players=[A]),
    N.SleightConfirmed(private_to=A, player=A, round=1, adjust=0),
    N.SleightDecided(round=1, player=A),
    N.SleightChecked(round=1, player=A, adjust=-1, natural=18, total=18, outcome="success"),
    N.RoundResolved(round=1, losses={A: 3, B: 5}, stamina={A: 27, B: 25}),
    N.PlayerEliminated(round=2, player=B, reason="ejected", by=999),
    N.SuddenDeath(
        players=[A, N.DEALER], rolls=[{A: 5, N.DEALER: 5}, {A: 6, N.DEALER: 2}], winner=A
    ),
    N.RoundStarted(round=2, standing=[A, N.DEALER]),
    N.GameOver(
        winner=None,
        dealer_won=True,
        reason="dealer",
        pot=21,
        house=10,
        shares={A: 6, B: 5},
        payouts={A: -1, B: -2, C: -7, 0: 10},
        basis={A: 12, B: 11},
    ),
    N.Aborted(round=3, by=None, refunds={A: 7, B: 14}),
    Honour(player=A, name=N.SHINIGAMI),
]


def test_the_examples_cover_every_event_kind() -> None:
    members = get_args(get_args(N.Event)[0])
    assert {type(event) for event in EVENTS} == set(members)


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: e.kind)  # type: ignore[attr-defined]
def test_parse_event_reads_every_event(event: BaseModel) -> None:
    parsed = N.ENGINE.parse_event(event.model_dump(mode="json"))
    assert parsed == event and type(parsed) is type(event)


@pytest.mark.parametrize("seed", range(5))
def test_events_of_a_played_game_parse_back(seed: int) -> None:
    """The frequent events are built without validation: what the log keeps of them must
    still read back to the very same events."""
    _, events = random_game(seed, engine_side=True)
    for event in events:
        assert N.ENGINE.parse_event(event.model_dump(mode="json")) == event


@pytest.mark.parametrize("seed", range(8))
def test_legal_actions_are_exactly_what_act_accepts(seed: int) -> None:
    states, _ = random_game(seed, engine_side=True)
    for state in states:
        for p in [*state.seats, 999]:
            legal = N.legal_actions(state, p)
            for action in PLAYER_ACTIONS:
                try:
                    N.act(state, p, action, ScriptedDice([10] * 40))  # type: ignore[arg-type]
                    accepted = True
                except IllegalMove:
                    accepted = False
                assert (action in legal) == accepted, (state.phase, p, action)
