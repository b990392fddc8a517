"""Verbs → actions, from a table each game declares (no if-chains in cogs).

A verb is the ``<verb>`` of a component's custom id. A game maps each of its verbs to
either an :class:`Act` (build the engine action from the id's argument and a select's
values; the table service checks and applies it at the id's ply) or a handler (a
coroutine for what is not one action: a private panel, a form, a picker). A verb not in
the table, or an argument the verb does not take, is refused privately.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from pydantic import BaseModel

from bot.errors import NotAllowed
from bot.i18n import N_
from bot.service import Outcome
from cogs._ui.custom_ids import ComponentId
from cogs._ui.face import Answer

NOTHING = N_("That button does nothing at this table.")

ActionFactory = Callable[[str | None, Sequence[str]], BaseModel]
Handler = Callable[[discord.Interaction[Any], ComponentId, Sequence[str]], Awaitable[Answer]]
"""A verb answered by the game's own code: what the hub answers (:data:`Answer`)."""


@dataclass(frozen=True)
class Act:
    """A verb that is one engine action.

    ``make``: the action from (argument, select values); ``confirm``: a private word to
    the member once it is saved; ``checked``: whether the click's ply must still be the
    table's (every button of a table message; a form typed later is not)."""

    make: ActionFactory
    confirm: Callable[[Outcome], str] | None = None
    checked: bool = True


Verb = Act | Handler
VerbTable = Mapping[str, Verb]


def fixed(action: Callable[[], BaseModel]) -> Act:
    """A verb with no argument: ``"throw": fixed(hazard.Throw)``."""
    return Act(lambda arg, values: action())


def by_arg(choices: Mapping[str, Callable[[], BaseModel]]) -> Act:
    """A verb whose argument picks the action: ``{"minus": …, "plus": …}``."""

    def make(arg: str | None, values: Sequence[str]) -> BaseModel:
        chosen = choices.get(arg or "")
        if chosen is None:
            raise NotAllowed(NOTHING)
        return chosen()

    return Act(make)


def small_number(text: str | None, *, digits: int = 4) -> int | None:
    """A component's number; ASCII digits only (``"²".isdigit()`` is true)."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > digits:
        return None
    return int(text)


def with_number(action: Callable[[int], BaseModel], *, digits: int = 4) -> Act:
    """A verb whose argument is a small whole number: ``"forbid": with_number(…)``."""

    def make(arg: str | None, values: Sequence[str]) -> BaseModel:
        number = small_number(arg, digits=digits)
        if number is None:
            raise NotAllowed(NOTHING)
        return action(number)

    return Act(make)


def with_choice(action: Callable[[int], BaseModel]) -> Act:
    """A select whose one chosen value is a small whole number."""

    def make(arg: str | None, values: Sequence[str]) -> BaseModel:
        number = small_number(values[0] if values else None)
        if number is None:
            raise NotAllowed(NOTHING)
        return action(number)

    return Act(make)


def lookup(table: VerbTable, verb: str) -> Verb:
    entry = table.get(verb)
    if entry is None:
        raise NotAllowed(NOTHING)
    return entry


def action_for(table: VerbTable, cid: ComponentId, values: Sequence[str]) -> BaseModel:
    """The action a component stands for, or a private refusal."""
    entry = lookup(table, cid.verb)
    if not isinstance(entry, Act):
        raise NotAllowed(NOTHING)
    return entry.make(cid.arg, values)
