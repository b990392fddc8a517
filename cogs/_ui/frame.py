"""The table message of a game in play, drawn once for every game.

A game supplies its facts (:class:`Facts`); the frame adds what every table looks like:
the title "<Game> — table #n", the turn line first while the game runs (who acts, what
they decide, the time left: :func:`turn_text`), the status lines, the latest events,
the seats block, the colour by status and no buttons once it ends. The fair-dice footer
and the "cancelled" overlay are added by the hub for every table.

Event sentences may be templates (:class:`Sentences`): ``"{player:@} is ready."`` —
``:@`` mentions a member, ``:c`` shows coins in the table's currency, ``:+c`` signed.
Templates, titles and headings are English message ids (marked ``N_`` where written),
translated here as they are drawn, in the language in effect (the server's, for a table).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord
from pydantic import BaseModel

from bot.i18n import _, current_locale
from bot.service import TableSnapshot
from cogs._ui import render

EventText = Callable[[Any, TableSnapshot[Any, Any]], str | None] | str
"""How one kind of event reads: a template, or a function of (event, snapshot)."""


class Facts(Protocol):
    """What a game says about its table message (a :class:`cogs._ui.game.Game` is one)."""

    @property
    def title(self) -> str: ...

    @property
    def seats_title(self) -> str: ...

    @property
    def finished_seats_title(self) -> str | None: ...

    @property
    def recent_events(self) -> int: ...

    def status_lines(self, snapshot: TableSnapshot[Any, Any]) -> list[str]: ...

    def turn_line(self, snapshot: TableSnapshot[Any, Any]) -> str | None: ...

    def event_text(self, event: BaseModel, snapshot: TableSnapshot[Any, Any]) -> str | None: ...

    def notes(self, snapshot: TableSnapshot[Any, Any]) -> list[str]: ...

    def seat_lines(self, snapshot: TableSnapshot[Any, Any]) -> list[str]: ...

    def extra_fields(self, snapshot: TableSnapshot[Any, Any]) -> list[tuple[str, str]]: ...

    def controls(self, snapshot: TableSnapshot[Any, Any]) -> discord.ui.View | None: ...


@dataclass
class Frame:
    """The parts of a table message, before they become an embed."""

    title: str
    finished: bool
    status: list[str]
    turn: str | None = None
    """Who acts, what they decide, the time left: the message's first line in play."""
    events: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seats_title: str = "Seats"
    seats: list[str] = field(default_factory=list)
    extra_fields: list[tuple[str, str]] = field(default_factory=list)

    def description(self) -> str:
        lines = [self.turn] if self.turn and not self.finished else []
        lines.extend(self.status)
        if self.events:
            lines.append("")
            lines.extend(self.events)
        lines.extend(self.notes)
        return render.clip("\n".join(lines), 4096)

    def embed(self) -> discord.Embed:
        colour = render.COLOUR_FINISHED if self.finished else render.COLOUR_PLAYING
        embed = discord.Embed(
            title=self.title, description=self.description(), colour=discord.Colour(colour)
        )
        embed.add_field(
            name=self.seats_title,
            value=render.clip("\n".join(self.seats) or "—", 1024),
            inline=False,
        )
        for name, value in self.extra_fields:
            embed.add_field(name=name, value=render.clip(value, 1024))
        return embed


def frame_of(facts: Facts, snapshot: TableSnapshot[Any, Any], events: Sequence[BaseModel]) -> Frame:
    finished = snapshot.state is not None and bool(snapshot.state.finished)
    cancelled = snapshot.status == "cancelled"
    happenings = [text for event in events if (text := facts.event_text(event, snapshot))]
    return Frame(
        title=_("{game} — table #{table}", game=_(facts.title), table=str(snapshot.id)),
        finished=finished,
        status=facts.status_lines(snapshot),
        # A cancelled table's last state may still await someone: nobody acts any more.
        turn=None if finished or cancelled else facts.turn_line(snapshot),
        events=happenings[-facts.recent_events :] if facts.recent_events else [],
        notes=facts.notes(snapshot),
        seats_title=_((finished and facts.finished_seats_title) or facts.seats_title),
        seats=facts.seat_lines(snapshot),
        extra_fields=facts.extra_fields(snapshot),
    )


class _Formatter(string.Formatter):
    def __init__(self, currency: str) -> None:
        self.currency = currency

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "@":
            return render.mention(int(value))
        if format_spec == "c":
            return render.coins(int(value), self.currency)
        if format_spec == "+c":
            return render.signed_coins(int(value), self.currency)
        return str(super().format_field(value, format_spec))


class Sentences:
    """Event type → sentence; an event of no listed type says nothing.

    ``remember``: each sentence is kept, by the event's content, and shown again while
    the event is among the table's latest, so a table message does not write its eight
    latest sentences anew on every answer (the events are read back from the log as new
    objects, so they are known by their content). Only for a game whose sentences read
    nothing but the event, the table's currency and the language; ``reads_table`` lists
    the event types whose sentence reads more (the state now, the rules, the seats),
    which are written every time."""

    REMEMBERED = 4096
    """Sentences kept at most (for all tables); all are dropped when there are more."""

    def __init__(
        self,
        table: Mapping[type[Any], EventText],
        *,
        remember: bool = False,
        reads_table: Sequence[type[Any]] = (),
    ) -> None:
        self.table = dict(table)
        self.remember = remember
        self.reads_table = tuple(reads_table)
        self._said: dict[tuple[type[Any], bytes, str, str], str | None] = {}
        """(the event's type and JSON, language, currency) → its sentence."""

    def __call__(self, event: BaseModel, snapshot: TableSnapshot[Any, Any]) -> str | None:
        if not self.remember or isinstance(event, self.reads_table):
            return self._written(event, snapshot)
        content = event.__pydantic_serializer__.to_json(event)
        key = (type(event), content, current_locale(), snapshot.currency)
        if key in self._said:  # a remembered sentence may be None: the event says nothing
            return self._said[key]
        text = self._written(event, snapshot)
        if len(self._said) >= self.REMEMBERED:
            self._said.clear()
        self._said[key] = text
        return text

    def _written(self, event: BaseModel, snapshot: TableSnapshot[Any, Any]) -> str | None:
        for kind in type(event).__mro__:
            text = self.table.get(kind)
            if text is None:
                continue
            if isinstance(text, str):
                fields = {name: getattr(event, name) for name in type(event).model_fields}
                return _Formatter(snapshot.currency).format(_(text), **fields)
            return text(event, snapshot)
        return None


TURN = "▶️"
"""The mark of the turn line (and of the player who acts, where a game marks a seat)."""


def turn_text(who: str, what: str, snapshot: TableSnapshot[Any, Any]) -> str:
    """The turn line: ``▶️ @alice — play a card · <t:…:R>``. ``who`` is whoever acts (a
    mention, several, or "Everyone" for a secret choice), ``what`` what they decide; the
    time left is a Discord timestamp, which counts down in every client with no edit."""
    if snapshot.deadline is None:
        return _("{turn} {who} — {what}", turn=TURN, who=who, what=what)
    return _(
        "{turn} {who} — {what} · {due}",
        turn=TURN,
        who=who,
        what=what,
        due=render.timestamp(snapshot.deadline.due_at),
    )


def everyone() -> str:
    """``who`` of a choice every player still in makes at once (in secret)."""
    return _("Everyone")
