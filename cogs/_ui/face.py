"""What the hub and a game's UI say to each other, so that calls run one way.

The hub (:mod:`cogs._ui.hub`) routes a click down to the game's UI (:class:`GameFace`,
whose one base is :class:`cogs._ui.game.Game`); the UI returns an :data:`Answer` and the
hub answers it. A game's UI never holds the hub: it is built on a :class:`UIHost` (the
hub's message sync), which lends it the bot, the table service and a redraw on request.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

import discord
from pydantic import BaseModel

from bot.service import Outcome, TableService, TableSnapshot
from cogs._ui.custom_ids import ComponentId
from cogs._ui.primitives import Payload

if TYPE_CHECKING:
    from bot.app import TanzakuBot


@dataclass(frozen=True)
class Acted:
    """An action is saved: the hub shows ``outcome`` (the table message, through the
    click's own response when it can; the UI's private follow-ups, :meth:`GameFace.after`;
    turn notices) and says ``confirm`` to the member alone."""

    outcome: Outcome
    confirm: str | None = None


@dataclass(frozen=True)
class Redraw:
    """Nothing is saved: the hub redraws the table message through the click's own
    response, with ``view`` as its controls (a choice half made, :mod:`cogs._ui.picks`)."""

    snapshot: TableSnapshot[Any, Any]
    view: discord.ui.View


Answer: TypeAlias = Acted | Redraw | None
"""What a click returns for the hub to answer. ``None``: the UI has already answered
the member privately and changed nothing (a panel, a hand, a picker, a form opened);
a refusal is raised (:class:`bot.errors.UserFacingError`), never returned."""


class UIHost(Protocol):
    """What a game's UI is built on (the hub's :class:`cogs._ui.sync.MessageSync`): the
    downward API. ``schedule_refresh`` is there because a panel keeper learns things the
    table message shows (a member's closed DMs, the 📪 note) outside any click."""

    @property
    def bot(self) -> TanzakuBot: ...

    @property
    def service(self) -> TableService: ...

    def schedule_refresh(self, table_id: int, *, force: bool = False) -> None: ...


class GameFace(Protocol):
    """What the hub asks of a game's UI (:class:`cogs._ui.game.Game` is the one base every
    game's UI builds on; the hub needs only this of it)."""

    @property
    def game(self) -> str: ...

    @property
    def has_dice(self) -> bool: ...

    def describe_rules(self, snapshot: TableSnapshot[Any, Any]) -> list[str]: ...

    def hold_line(self, snapshot: TableSnapshot[Any, Any]) -> str | None: ...

    def render_game(
        self, snapshot: TableSnapshot[Any, Any], events: Sequence[BaseModel]
    ) -> Payload: ...

    async def click(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> Answer: ...

    async def after(
        self, outcome: Outcome, interaction: discord.Interaction[Any] | None
    ) -> None: ...

    def forget(self, table_id: int) -> None: ...

    def notice_view(
        self, snapshot: TableSnapshot[Any, Any], member: int
    ) -> discord.ui.View | None: ...

    def notices_now(self, snapshot: TableSnapshot[Any, Any]) -> bool: ...

    def replay_cards(
        self, state: Any, name: Callable[[int], str]
    ) -> dict[str, list[str]] | None: ...

    def replay_tile(self, card: str, height: int) -> bytes: ...

    def left_word(self, outcome: Outcome, player: int) -> str | None: ...

    def action_text(self, action: Mapping[str, Any], currency: str) -> str | None: ...

    def history_text(
        self, event: BaseModel, snapshot: TableSnapshot[Any, Any], earlier: Sequence[BaseModel]
    ) -> str | None: ...
