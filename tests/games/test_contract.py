"""The engine contract, checked the same way over every engine with random playouts."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from pydantic import BaseModel

from bot.fairness import FairDice, RecordingDice
from bot.games import fortunes_winds, hachihachi, hazard, nihakyu, strength_duel
from bot.games.common import HOUSE, Deadline
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove

ActionMaker = Callable[[random.Random, Any, int], BaseModel]


def hazard_action(rng: random.Random, state: Any, player: int) -> BaseModel:
    return rng.choice(
        [
            lambda: hazard.CallMain(main=rng.randint(4, 10)),
            lambda: hazard.Bet.model_validate(
                {"kind": rng.choice(hazard.BET_KINDS), "amount": rng.randint(-1, 40)}
            ),
            hazard.Throw,
            hazard.Throw,
            hazard.PassDice,
        ]
    )()


def nihakyu_action(rng: random.Random, state: Any, player: int) -> BaseModel:
    return rng.choice(
        [
            nihakyu.Roll,
            nihakyu.Roll,
            nihakyu.ShadowStep,
            nihakyu.KageEndurance,
            lambda: nihakyu.Sleight(adjust=rng.choice([-1, 1])),
            nihakyu.SkipSleight,
        ]
    )()


def fortunes_action(rng: random.Random, state: Any, player: int) -> BaseModel:
    return rng.choice(
        [
            lambda: fortunes_winds.Bet.model_validate(
                {"kind": rng.choice(fortunes_winds.BET_KINDS), "amount": rng.randint(-1, 12)}
            ),
            fortunes_winds.Roll,
            fortunes_winds.Roll,
            lambda: fortunes_winds.SetAside(
                dice=rng.sample(fortunes_winds.WHITE_DICE, rng.randint(1, 3))
            ),
            fortunes_winds.NewTurn,
            fortunes_winds.PassDice,
        ]
    )()


def duel_action(rng: random.Random, state: Any, player: int) -> BaseModel:
    strength = state.strength.get(player, 0)
    if rng.random() < 0.2:
        return strength_duel.Forbid(number=rng.randint(-1, 6))
    return strength_duel.Bid(amount=rng.randint(-1, strength + 1), tag_out=rng.random() < 0.2)


def hachihachi_action(rng: random.Random, state: Any, player: int) -> BaseModel:
    legal = hachihachi.legal_actions(state, player)
    if legal and rng.random() < 0.9:
        return rng.choice(legal)
    return rng.choice(
        [
            lambda: hachihachi.Play(card=rng.choice(hachihachi.DECK)),
            lambda: hachihachi.Play(card=rng.choice(hachihachi.DECK), capture="pine-bright"),
            lambda: hachihachi.CaptureDrawn(capture=rng.choice(hachihachi.DECK)),
            hachihachi.Sage,
            hachihachi.Shoubu,
            hachihachi.Cancel,
            lambda: hachihachi.Mizuten(declare=rng.random() < 0.5),
            lambda: hachihachi.Participate(play=rng.random() < 0.5),
            lambda: hachihachi.ClaimTeyaku(claim=True, month=rng.randint(0, 13)),
        ]
    )()


ENGINES: list[tuple[ModuleType, list[BaseModel], ActionMaker]] = [
    (hazard, [hazard.Rules(), hazard.Rules(odds_max_multiple=3)], hazard_action),
    (
        nihakyu,
        [
            nihakyu.Rules(starting_stamina=40),
            nihakyu.Rules(
                starting_stamina=30,
                kage_endurance=True,
                shadow_step=True,
                shadow_step_uses=2,
                dealers_blood=True,
                shinobi_interference=True,
            ),
        ],
        nihakyu_action,
    ),
    (
        fortunes_winds,
        [
            fortunes_winds.Rules(),
            fortunes_winds.Rules(player_banker=True, house_guard=False, bet_seconds=0),
        ],
        fortunes_action,
    ),
    (
        strength_duel,
        [strength_duel.Rules(mode=mode) for mode in ("duel", "forbidden", "three", "tag")],
        duel_action,
    ),
    (
        hachihachi,
        [
            hachihachi.Rules(rounds=2),
            hachihachi.Rules(
                seated_players=3,
                rounds=1,
                teyaku_claims="manual",
                dropout_penalties=True,
                forced_out_compensation=True,
            ),
            hachihachi.Rules(seated_players=4, rounds=1, field_multiplier_mode="stack"),
        ],
        hachihachi_action,
    ),
]
CASES = [
    pytest.param(module, rules, maker, id=f"{module.__name__.rsplit('.', 1)[-1]}-{index}")
    for module, all_rules, maker in ENGINES
    for index, rules in enumerate(all_rules)
]


@pytest.mark.parametrize(("module", "rules", "maker"), CASES)
@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_keep_the_contract(
    module: ModuleType, rules: BaseModel, maker: ActionMaker, seed: int
) -> None:
    rng = random.Random(seed)
    fewest, most = module.seat_limits(rules)
    players = list(range(101, 101 + rng.randint(fewest, min(most, 5))))
    fair = FairDice(seed.to_bytes(32, "big"))
    dice = RecordingDice(fair)
    state = module.start(rules, players, dice)
    history: list[tuple[int | None, BaseModel]] = []
    for _ in range(400):
        if state.finished:
            break
        player: int | None = rng.choice(players)
        action = Deadline() if rng.random() < 0.08 else maker(rng, state, player)
        if isinstance(action, Deadline):
            player = None
        before = state.model_dump_json()
        try:
            new_state, events = module.act(state, player, action, dice)
        except IllegalMove as refusal:
            assert str(refusal), "a refusal must say why"
            assert state.model_dump_json() == before, "a refused action changed the state"
            continue
        assert state.model_dump_json() == before, "act mutated its input"
        assert new_state.ply >= state.ply
        assert sum(new_state.payouts.values()) == 0, "payouts must sum to zero with the house"
        assert all(stake >= 0 for stake in new_state.stakes.values())
        assert HOUSE not in new_state.stakes
        assert module.State.model_validate_json(new_state.model_dump_json()) == new_state
        for event in events:
            assert isinstance(event.kind, str)
        history.append((player, action))
        state = new_state
    if state.finished:
        assert all(stake == 0 for stake in state.stakes.values())
        assert module.deadline_seconds(state) is None

    # Replaying the same actions with the same outcomes gives the very same game.
    replay_dice = ScriptedDice(
        rolls=[draw.value for draw in dice.draws if draw.value is not None],
        orders=[draw.order for draw in dice.draws if draw.order is not None],
    )
    replayed = module.start(rules, players, replay_dice)
    for player, action in history:
        replayed, _ = module.act(replayed, player, action, replay_dice)
    assert replayed == state


@pytest.mark.parametrize(("module", "rules", "maker"), CASES)
def test_logged_actions_parse_back(module: ModuleType, rules: BaseModel, maker: ActionMaker):
    rng = random.Random(7)
    fewest, _ = module.seat_limits(rules)
    state = module.start(rules, list(range(1, fewest + 1)), ScriptedDice())
    from bot.games.registry import GameSpec

    spec = GameSpec(module.ENGINE, "x")
    for _ in range(30):
        action = maker(rng, state, 1)
        assert spec.engine.parse_action(action.model_dump(mode="json")) == action
    assert spec.engine.parse_action(Deadline().model_dump(mode="json")) == Deadline()


@pytest.mark.parametrize("module", [fortunes_winds, hachihachi, hazard, nihakyu, strength_duel])
def test_each_engine_module_exports_its_typed_engine(module: ModuleType) -> None:
    from bot.games.common import Abort
    from bot.games.contract import Engine

    engine = module.ENGINE
    assert isinstance(engine, Engine)
    assert engine.name == module.__name__.rsplit(".", 1)[-1]
    assert engine.rules_model is module.Rules and engine.state_model is module.State
    # The contract's module-level functions and the engine are one implementation.
    rules = module.Rules() if module is not nihakyu else module.Rules(ante=5)
    fewest, most = engine.seat_limits(rules)
    assert (fewest, most) == module.seat_limits(rules)
    assert engine.hold(rules) == module.hold(rules)
    players = list(range(1, fewest + 1))
    assert engine.start(rules, players, ScriptedDice()) == module.start(
        rules, players, ScriptedDice()
    )
    # One discriminator for every action: `kind` (a bet's kind is the bet's own).
    for action_type in module.ACTIONS:
        assert "kind" in action_type.model_fields, action_type
    assert engine.parse_action(Abort().model_dump(mode="json")) == Abort()
