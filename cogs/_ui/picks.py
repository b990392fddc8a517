"""Pick a few of several things on the table message, then confirm: toggle buttons.

    picks = Picks(("earth", "water", "fire", "air"), verb="die", confirm_verb="again")

Each toggle button carries, in its custom id, the choice that clicking it makes (the
current choice with that item flipped); the confirm button carries the current choice.
A click on a toggle only redraws the message, and no state is kept anywhere else, so a
choice half made survives a restart and costs the database nothing. Items that can no
longer be picked (``locked``) are drawn disabled. What a choice *does* is the game's
business, on confirm; the engine still decides whether it is legal.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import NotAllowed
from bot.i18n import _
from cogs._ui.primitives import TableComponent, button
from cogs._ui.verbs import NOTHING

NONE = "none"
LOCKED = "locked"


@dataclass(frozen=True)
class Picks:
    items: Sequence[str]
    """What may be picked, in display order (at most 10)."""
    verb: str = "pick"
    """The toggles' verb; their argument is the choice a click makes."""
    confirm_verb: str = "picked"

    def encode(self, chosen: Iterable[str]) -> str:
        picked = set(chosen)
        digits = "".join(str(i) for i, item in enumerate(self.items) if item in picked)
        return f"p{digits}" if digits else NONE

    def decode(self, arg: str | None) -> list[str]:
        """The choice an argument names, in item order; refused unless well formed."""
        if arg == NONE:
            return []
        digits = (arg or "")[1:]
        if (
            not (arg or "").startswith("p")
            or not digits.isascii()
            or not digits.isdigit()
            or len(set(digits)) != len(digits)
            or any(int(d) >= len(self.items) for d in digits)
        ):
            raise NotAllowed(NOTHING)
        return [self.items[int(d)] for d in sorted(digits)]

    def locked_item(self, arg: str | None) -> str | None:
        """The item a locked (disabled) toggle stands for, if ``arg`` is one."""
        head, _, index = (arg or "").partition("-")
        if head == LOCKED and index.isascii() and index.isdigit() and int(index) < len(self.items):
            return self.items[int(index)]
        return None

    def draw(
        self,
        table: int,
        ply: int,
        labels: Mapping[Any, str],
        chosen: Collection[str],
        locked: Collection[str],
        confirm_label: str,
        *,
        row: int,
    ) -> list[TableComponent]:
        """One toggle per item (chosen ones highlighted, locked ones disabled), then the
        confirm button."""
        items = []
        for index, item in enumerate(self.items):
            if item in locked:
                items.append(
                    button(
                        table,
                        ply,
                        self.verb,
                        _(labels[item]),
                        arg=f"{LOCKED}-{index}",
                        disabled=True,
                        row=row,
                    )
                )
                continue
            flipped = set(chosen) ^ {item}
            style = discord.ButtonStyle.success if item in chosen else discord.ButtonStyle.secondary
            items.append(
                button(
                    table,
                    ply,
                    self.verb,
                    _(labels[item]),
                    arg=self.encode(flipped),
                    style=style,
                    row=row,
                )
            )
        items.append(
            button(
                table,
                ply,
                self.confirm_verb,
                _(confirm_label),
                arg=self.encode(chosen),
                style=discord.ButtonStyle.primary,
                emoji="🎲",
                row=row,
            )
        )
        return items
