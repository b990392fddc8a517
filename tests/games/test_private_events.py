"""Privacy is a type: every event that names the one player who may see it derives from
``PrivateEvent``, and the table service logs, replays and shows only events that do not."""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Iterable, Iterator
from types import ModuleType

from pydantic import BaseModel

from bot.games import fortunes_winds, hachihachi, hazard, nihakyu, strength_duel
from bot.games.common import PrivateEvent, is_public
from bot.games.dice import ScriptedDice
from bot.service.steps import dump_events

ENGINES = (fortunes_winds, hachihachi, hazard, nihakyu, strength_duel)
A, B = 101, 202


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


def test_every_engines_private_event_is_a_private_event() -> None:
    every = {model for engine in ENGINES for module in modules(engine) for model in models(module)}
    assert untyped_private(every) == []
    # The engines do have private events, and each is seen as one.
    private = {model.__name__ for model in every if issubclass(model, PrivateEvent)}
    assert {"BidConfirmed", "ForbidConfirmed", "ChoiceConfirmed", "SleightConfirmed"} <= private


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
