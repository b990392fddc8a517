"""A game's buttons and selects as a table: which verb, what label, when each is live.

    Control("throw", "Throw", row=1, style="primary", emoji="🎲", live=lambda s: s.main)

``live`` decides whether the button is enabled, ``shown`` whether it is there at all,
both from the game's state. Buttons carry the state's ply (``lobby=True``: ply 0, for
lobby verbs such as join that are not tied to a moment of the game).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

import discord

from bot.i18n import _
from cogs._ui.primitives import TableComponent, button, select

Style = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True)
class Control:
    verb: str
    label: str
    arg: str | None = None
    row: int | None = None
    style: Style = "secondary"
    emoji: str | None = None
    live: Callable[[Any], object] | None = None
    shown: Callable[[Any], object] | None = None
    lobby: bool = False

    def draw(self, table: int, state: Any) -> TableComponent:
        return button(
            table,
            0 if self.lobby else state.ply,
            self.verb,
            # An English message id (N_ where declared), in the table's language.
            _(self.label),
            arg=self.arg,
            style=getattr(discord.ButtonStyle, self.style),
            emoji=self.emoji,
            disabled=self.live is not None and not self.live(state),
            row=self.row,
        )


def draw(table: int, state: Any, controls: Iterable[Control | Menu]) -> list[TableComponent]:
    """The buttons of ``controls`` that are shown for ``state``, in order."""
    return [c.draw(table, state) for c in controls if c.shown is None or c.shown(state)]


@dataclass(frozen=True)
class Menu:
    """A select: ``choices(state)`` gives (label, value, description) for each option."""

    verb: str
    placeholder: str
    choices: Callable[[Any], list[tuple[str, str, str | None]]]
    row: int | None = None
    shown: Callable[[Any], object] | None = None

    def draw(self, table: int, state: Any) -> TableComponent:
        options = [
            discord.SelectOption(label=label, value=value, description=description)
            for label, value, description in self.choices(state)
        ]
        return select(table, state.ply, self.verb, _(self.placeholder), options, row=self.row)
