"""A logged step in words, for /history and the replay page: who did what, and what the
table then said.

The log keeps each step's action as its engine's JSON (``{"kind": "bid", "amount": 6}``)
and the table's own steps under reserved kinds (``__open__``…); a player reads neither.
What an action was is the game's to say (:meth:`cogs._ui.game.Game.action_text`, from
its words module); what followed is the table message's own sentences for the step's
events (:meth:`cogs._ui.game.Game.history_text`). A step no game word covers is still
spelled out in words (:func:`plain`), never as a repr."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from pydantic import BaseModel, ValidationError

from bot.games.common import is_public
from bot.i18n import N_, _
from bot.service import LogKind, TableSnapshot

log = logging.getLogger(__name__)

TABLE_STEPS: dict[str, str] = {
    LogKind.OPEN: N_("opened the table"),
    LogKind.JOIN: N_("joined"),
    LogKind.LEAVE: N_("left"),
    LogKind.START: N_("started the game"),
    LogKind.CANCEL: N_("cancelled the table"),
    LogKind.EXPIRE: N_("the lobby expired"),
    LogKind.WITHDRAW: N_("the table message could not be posted; cancelled"),
    LogKind.ABANDON: N_("the game could not go on; ended with refunds"),
    "abort": N_("ended the table (moderator)"),
    "deadline": N_("time ran out"),
}
"""Steps every game logs the same way (English message ids: translated where shown)."""


class Speaker(Protocol):
    """What a game's UI says about its logged steps (:class:`cogs._ui.game.Game`)."""

    def action_text(self, action: Mapping[str, Any], currency: str) -> str | None: ...

    def history_text(
        self, event: BaseModel, snapshot: TableSnapshot[Any, Any], earlier: Sequence[BaseModel]
    ) -> str | None: ...


def _value(value: Any, name: Callable[[int], str]) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return _(", ").join(_value(item, name) for item in value) or _("none")
    return str(value)


def plain(action: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
    """An action no game word covers, in words: ``bid: amount 6, tag out no``."""
    kind = str(action.get("kind", "?")).strip("_").replace("_", " ")
    rest = [
        f"{key.replace('_', ' ')} {_value(value, name)}"
        for key, value in action.items()
        if key not in ("kind", "action", "players")
    ]
    return f"{kind}: {', '.join(rest)}" if rest else kind


def action_words(speaker: Speaker | None, action: Mapping[str, Any], currency: str) -> str:
    """What the step's actor did, without the actor: ``bets 6 ryō with the caster``."""
    kind = str(action.get("kind", "?"))
    if kind in TABLE_STEPS:
        return _(TABLE_STEPS[kind])
    said = speaker.action_text(action, currency) if speaker is not None else None
    return said or plain(action)


def parsed_events(
    snapshot: TableSnapshot[Any, Any], events: Sequence[Mapping[str, Any]]
) -> list[BaseModel]:
    """A step's logged events the table may show (a private one is its owner's alone)."""
    adapter = snapshot.spec.engine.events
    if adapter is None:
        return []
    out: list[BaseModel] = []
    for data in events:
        try:
            event = adapter.validate_python(data)
        except ValidationError:
            log.warning("table %s logged an event it cannot read: %s", snapshot.id, data)
            continue
        if is_public(event):
            out.append(event)
    return out


def step_line(
    speaker: Speaker | None,
    snapshot: TableSnapshot[Any, Any],
    who: str,
    action: Mapping[str, Any],
    events: Sequence[BaseModel],
    earlier: Sequence[BaseModel],
) -> str:
    """One step as a player reads it. The table message's sentences for its events say
    what happened (they name who); the action's own words lead only where those say
    nothing, or say less than the action (a secret choice listed once revealed: its
    events said only "has chosen")."""
    sentences = [
        text
        for index, event in enumerate(events)
        if speaker is not None
        and (text := speaker.history_text(event, snapshot, [*earlier, *events[:index]]))
    ]
    kind = str(action.get("kind", "?"))
    secret = kind in snapshot.spec.engine.secret_choices
    if sentences and not secret and not LogKind.is_table_step(kind):
        return " ".join(sentences)
    head = f"{who}: {action_words(speaker, action, snapshot.currency)}"
    # What followed (a round revealed by this bid) is its own news: on its own line, not
    # read as part of the bid.
    return "\n".join([head, " ".join(sentences)]) if sentences else head
