"""The engine contract, checked the same way over every engine with random playouts."""

from __future__ import annotations

import importlib
import random
import sys
import typing
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from bot.catalog import CATALOG, AnyGame, Catalog
from bot.fairness import FairDice, RecordingDice
from bot.games import fortunes_winds, hachihachi, hazard, nihakyu, strength_duel
from bot.games.common import HOUSE, Deadline
from bot.games.contract import Engine
from bot.games.dice import ScriptedDice
from bot.games.errors import IllegalMove
from tests.support.coinflip import COINFLIP, TEST_CATALOG

AnyEngine = Engine[Any, Any, Any, Any]

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


MAKERS: dict[str, ActionMaker] = {
    "hazard": hazard_action,
    "nihakyu": nihakyu_action,
    "fortunes_winds": fortunes_action,
    "strength_duel": duel_action,
    "hachihachi": hachihachi_action,
}
"""Random actions tuned to a game (legal ones often enough to get far into it); a game
without one is played with :func:`any_action`."""


def action_models(engine: AnyEngine) -> list[type[BaseModel]]:
    """The action models of an engine's union (``kind``-discriminated)."""
    found: list[type[BaseModel]] = []
    pending: list[Any] = [engine.actions._type]  # the union the engine parses
    while pending:
        kind = pending.pop()
        if isinstance(kind, type) and issubclass(kind, BaseModel):
            found.append(kind)
        else:
            pending.extend(typing.get_args(kind))
    return found


def any_action(engine: AnyEngine) -> ActionMaker:
    """Random actions for any engine: a legal one when the engine lists them, otherwise
    any of its actions with random fields (a bool, a small int, one of a Literal's)."""
    models = action_models(engine)

    def value(rng: random.Random, annotation: Any) -> Any:
        if typing.get_origin(annotation) is typing.Literal:
            return rng.choice(typing.get_args(annotation))
        if annotation is bool:
            return rng.random() < 0.5
        return rng.randint(-1, 20)

    def make(rng: random.Random, state: Any, player: int) -> BaseModel:
        legal = engine.legal_actions(state, player)
        if legal and rng.random() < 0.9:
            return rng.choice(legal)
        model = rng.choice(models)
        fields = {
            name: value(rng, info.annotation)
            for name, info in model.model_fields.items()
            if name != "kind" and info.is_required()
        }
        return model.model_validate(fields)

    return make


def playout_variants(record: AnyGame) -> tuple[BaseModel, ...]:
    """The rules a game's playouts cover: ``PLAYOUT_VARIANTS``, beside ``ENGINE`` in the
    module that defines its engine."""
    module = sys.modules[type(record.engine).__module__]
    variants: tuple[BaseModel, ...] = getattr(module, "PLAYOUT_VARIANTS", ())
    return variants


def maker_for(record: AnyGame) -> ActionMaker:
    """The game's tuned random actions, or :func:`any_action` over its engine."""
    return MAKERS.get(record.name) or any_action(record.engine)


def record_cases(record: AnyGame) -> list[Any]:
    """One case per rules variant of one game."""
    return [
        pytest.param(record.engine, rules, maker_for(record), id=f"{record.name}-{index}")
        for index, rules in enumerate(playout_variants(record))
    ]


def cases(catalog: Catalog) -> list[Any]:
    """One case per rules variant of every game in ``catalog``."""
    return [case for record in catalog for case in record_cases(record)]


CASES = cases(CATALOG)


def unplayed(record: AnyGame) -> list[str]:
    """Why the playouts would skip the game: it declares no rules to play."""
    return [] if playout_variants(record) else [f"{record.name}: declare PLAYOUT_VARIANTS"]


def test_every_game_in_the_catalog_is_played_out() -> None:
    # A game without variants would be skipped silently: each must list at least one.
    for record in CATALOG:
        assert unplayed(record) == []
    assert {case.id.rsplit("-", 1)[0] for case in CASES} == set(CATALOG.names())
    # A game added to the catalog is played out too, with any_action if untuned.
    added = {case.id for case in cases(TEST_CATALOG)} - {case.id for case in CASES}
    assert added == {"coinflip-0", "coinflip-1"}


@pytest.mark.parametrize(("engine", "rules", "maker"), [*CASES, *cases(Catalog((COINFLIP,)))])
@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_keep_the_contract(
    engine: AnyEngine, rules: BaseModel, maker: ActionMaker, seed: int
) -> None:
    play_out(engine, rules, maker, seed)


def play_out(engine: AnyEngine, rules: BaseModel, maker: ActionMaker, seed: int) -> Any:
    """One random playout, checked against the contract at every step: a refusal says why
    and changes nothing, ``act`` never mutates its input, payouts sum to zero with the
    house, stakes never go negative, the state round-trips through JSON; the finished
    game holds no stake and waits on no deadline; the same actions and draws replay to
    the very same state."""
    rng = random.Random(seed)
    fewest, most = engine.seat_limits(rules)
    players = list(range(101, 101 + rng.randint(fewest, min(most, 5))))
    fair = FairDice(seed.to_bytes(32, "big"))
    dice = RecordingDice(fair)
    state = engine.start(rules, players, dice)
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
            new_state, events = engine.act(state, player, action, dice)
        except IllegalMove as refusal:
            assert str(refusal), "a refusal must say why"
            assert state.model_dump_json() == before, "a refused action changed the state"
            continue
        assert state.model_dump_json() == before, "act mutated its input"
        assert new_state.ply >= state.ply
        assert sum(new_state.payouts.values()) == 0, "payouts must sum to zero with the house"
        assert all(stake >= 0 for stake in new_state.stakes.values())
        assert HOUSE not in new_state.stakes
        assert engine.state_model.model_validate_json(new_state.model_dump_json()) == new_state
        for event in events:
            assert isinstance(event.kind, str)
        history.append((player, action))
        state = new_state
    if state.finished:
        assert all(stake == 0 for stake in state.stakes.values())
        assert engine.deadline_seconds(state) is None

    # Replaying the same actions with the same outcomes gives the very same game.
    replay_dice = ScriptedDice(
        rolls=[draw.value for draw in dice.draws if draw.value is not None],
        orders=[draw.order for draw in dice.draws if draw.order is not None],
    )
    replayed = engine.start(rules, players, replay_dice)
    for player, action in history:
        replayed, _ = engine.act(replayed, player, action, replay_dice)
    assert replayed == state
    return state


@pytest.mark.parametrize(("engine", "rules", "maker"), [*CASES, *cases(Catalog((COINFLIP,)))])
def test_logged_actions_parse_back(engine: AnyEngine, rules: BaseModel, maker: ActionMaker):
    logged_actions_parse_back(engine, rules, maker)


def logged_actions_parse_back(engine: AnyEngine, rules: BaseModel, maker: ActionMaker) -> None:
    """Every action the game's random maker makes, and a deadline, parse back from their
    logged JSON to themselves."""
    rng = random.Random(7)
    fewest, _ = engine.seat_limits(rules)
    state = engine.start(rules, list(range(1, fewest + 1)), ScriptedDice())
    for _ in range(30):
        action = maker(rng, state, 1)
        assert engine.parse_action(action.model_dump(mode="json")) == action
    assert engine.parse_action(Deadline().model_dump(mode="json")) == Deadline()


@pytest.mark.parametrize("record", CATALOG.records, ids=CATALOG.names())
def test_each_engine_module_exports_its_typed_engine(record: AnyGame) -> None:
    from bot.games.common import Abort

    module = importlib.import_module(f"bot.games.{record.name}")
    engine = module.ENGINE
    assert engine is record.engine
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
