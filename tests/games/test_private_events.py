"""Privacy is a type: every event that names the one player who may see it derives from
``PrivateEvent``, and the table service logs, replays and shows only events that do not."""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
from collections.abc import Iterable, Iterator
from types import ModuleType

import pytest
from pydantic import BaseModel

from bot.catalog import CATALOG, AnyGame, Catalog
from bot.games import strength_duel
from bot.games.common import PrivateEvent, is_public
from bot.games.dice import ScriptedDice
from bot.service.steps import dump_events
from tests.support.coinflip import TEST_CATALOG

A, B = 101, 202


def engine_module(record: AnyGame) -> ModuleType:
    """A game's engine package (or module): where its engine class is defined, or the
    package holding that module (``bot/games/hazard/`` for ``hazard/engine.py``)."""
    name = type(record.engine).__module__
    package = name.rsplit(".", 1)[0]
    if name.endswith(".engine") and hasattr(sys.modules[package], "__path__"):
        name = package
    return importlib.import_module(name)


def engine_modules(catalog: Catalog) -> list[ModuleType]:
    """Each game's engine package (or module), in catalog order."""
    return [engine_module(record) for record in catalog]


def game_models(record: AnyGame) -> set[type[BaseModel]]:
    """Every model a game's engine package defines."""
    return {m for module in modules(engine_module(record)) for m in models(module)}


def every_model(catalog: Catalog) -> set[type[BaseModel]]:
    return {model for record in catalog for model in game_models(record)}


def privacy_problems(record: AnyGame) -> list[str]:
    """The privacy check of one game: each of its models that names the one player who
    may see it (``private_to``) without being a :class:`PrivateEvent`, which the table
    service would log, replay and show to everyone."""
    return [
        f"{record.name}: {model.__module__}.{model.__qualname__} has private_to but is not "
        "a PrivateEvent: the table would show it to everyone"
        for model in sorted(untyped_private(game_models(record)), key=lambda m: m.__qualname__)
    ]


def modules(engine: ModuleType) -> Iterator[ModuleType]:
    """An engine module, or a package and every module in it."""
    yield engine
    for found in pkgutil.walk_packages(getattr(engine, "__path__", []), engine.__name__ + "."):
        yield importlib.import_module(found.name)


def models(module: ModuleType) -> Iterator[type[BaseModel]]:
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, BaseModel):
            yield value


def untyped_private(found: Iterable[type[BaseModel]]) -> list[type[BaseModel]]:
    """Models with a ``private_to`` field that are not a PrivateEvent: a secret the
    service would take for public."""
    return [
        model
        for model in found
        if "private_to" in model.model_fields and not issubclass(model, PrivateEvent)
    ]


@pytest.mark.parametrize("record", CATALOG.records, ids=CATALOG.names())
def test_each_engines_private_events_are_private_events(record: AnyGame) -> None:
    assert privacy_problems(record) == []


def test_every_engines_private_event_is_a_private_event() -> None:
    every = every_model(CATALOG)
    # The engines do have private events, and each is seen as one.
    private = {model.__name__ for model in every if issubclass(model, PrivateEvent)}
    assert {"BidConfirmed", "ForbidConfirmed", "ChoiceConfirmed", "SleightConfirmed"} <= private


def test_every_game_in_the_catalog_is_searched() -> None:
    names = [module.__name__ for module in engine_modules(CATALOG)]
    assert names == [f"bot.games.{name}" for name in CATALOG.names()]
    # A game added to the catalog is searched too: its models are among those checked.
    added = every_model(TEST_CATALOG) - every_model(CATALOG)
    assert {model.__name__ for model in added} >= {"Call", "Raise", "Flipped", "Won"}


def test_a_private_to_field_on_a_plain_model_is_caught() -> None:
    class Misdeclared(BaseModel):
        kind: str = "misdeclared"
        private_to: int

    class Declared(PrivateEvent):
        kind: str = "declared"

    assert untyped_private([Misdeclared, Declared]) == [Misdeclared]


def test_a_private_event_never_reaches_the_public_log() -> None:
    state = strength_duel.start(strength_duel.Rules(stake=10), [A, B], ScriptedDice())
    _, events = strength_duel.act(state, A, strength_duel.Bid(amount=3), ScriptedDice())
    private = [event for event in events if isinstance(event, PrivateEvent)]
    assert private and all(event.private_to == A for event in private)
    assert [is_public(event) for event in events] == [e not in private for e in events]
    logged = json.loads(dump_events(events))
    assert len(logged) == len(events) - len(private)
    assert all("private_to" not in event for event in logged)
    assert all(event["kind"] != "bid_confirmed" for event in logged)
