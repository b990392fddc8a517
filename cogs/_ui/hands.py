"""Private hands: each player's own answer (ephemeral), kept up to date after every turn.

A game whose players hold secret cards offers a public "My hand" button. Its answer is
ephemeral — only the player sees it — with the hand, a picture and the buttons of what
the player may do now. The answer is not a DM: it lives where the table is, and nobody
needs open DMs.

Discord lets a bot edit an interaction's answer for 15 minutes (the interaction's token).
:class:`HandKeeper` keeps, per table and player, the latest interaction that showed the
player their hand, and after every outcome edits that answer in place while the token is
valid. Past that, the answer is left as it is; its buttons carry the ply they were drawn
at, so a click on it is recognised as stale and answered with :data:`EARLIER`. Nothing
here is persisted: after a restart the old answers simply go stale the same way.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import StaleAction
from cogs._ui.hub import Payload

log = logging.getLogger(__name__)

TOKEN_SECONDS = 14 * 60
"""How long an interaction's answer is edited: Discord's 15 minutes, with a margin."""
EARLIER = (
    "That hand is from an earlier turn, so nothing was done. "
    "Press **My hand** on the table for your hand as it is now."
)


class EarlierHand(StaleAction):
    """A click on a hand answer drawn at an earlier ply."""

    def __init__(self) -> None:
        super().__init__()
        self.args = (EARLIER,)

    def __str__(self) -> str:
        return EARLIER


def now() -> float:
    """The clock Discord's tokens run on (virtual under SimCord)."""
    return discord.utils.utcnow().timestamp()


@dataclass
class _Kept:
    interaction: discord.Interaction[Any]
    since: float
    picture: str
    """The picture key the answer shows."""


class HandKeeper:
    """The latest hand answer of each player at each table, edited after every turn."""

    def __init__(self, clock: Callable[[], float] = now) -> None:
        self._kept: dict[tuple[int, int], _Kept] = {}
        self.clock = clock
        self.edits = 0

    async def show(
        self, interaction: discord.Interaction[Any], table: int, player: int, payload: Payload
    ) -> None:
        """Answer a click with the player's hand and keep the answer for later edits.

        A click on the hand answer itself (a card, a capture) edits it in place; any other
        click (the table's "My hand") answers with a new ephemeral message."""
        key = (table, player)
        kept = self._kept.get(key)
        own_answer = (
            interaction.type == discord.InteractionType.component
            and interaction.message is not None
            and interaction.message.flags.ephemeral
        )
        if own_answer and not interaction.response.is_done():
            shown = kept.picture if kept is not None else None
            await interaction.response.edit_message(**payload.edit_kwargs(shown))
        elif not interaction.response.is_done():
            await interaction.response.send_message(**payload.send_kwargs(), ephemeral=True)
        else:
            await interaction.followup.send(**payload.send_kwargs(), ephemeral=True)
        self._kept[key] = _Kept(interaction, self.clock(), payload.picture_key)

    def holders(self, table: int) -> list[int]:
        """The players of ``table`` whose hand answer can still be edited."""
        fresh = self.clock() - TOKEN_SECONDS
        return [p for (t, p), kept in self._kept.items() if t == table and kept.since > fresh]

    async def refresh(
        self,
        table: int,
        draw: Callable[[int], Payload | None],
        *,
        skip: Iterable[int] = (),
    ) -> None:
        """Edit every kept hand answer of ``table`` (but ``skip``'s) to ``draw(player)``;
        ``None`` leaves a player's answer as it is. An expired token is forgotten."""
        skipped = set(skip)
        expired = self.clock() - TOKEN_SECONDS
        for (t, player), kept in list(self._kept.items()):
            if t != table or player in skipped:
                continue
            if kept.since <= expired:
                del self._kept[(t, player)]
                continue
            payload = draw(player)
            if payload is None:
                continue
            try:
                await kept.interaction.edit_original_response(**payload.edit_kwargs(kept.picture))
            except discord.HTTPException as error:
                # The answer was dismissed or the token ended early: its buttons will be
                # refused as stale, which tells the player to ask again.
                log.info("table %s: a hand answer could not be edited (%s)", table, error.status)
                del self._kept[(t, player)]
                continue
            kept.picture = payload.picture_key
            self.edits += 1

    def forget(self, table: int) -> None:
        for key in [key for key in self._kept if key[0] == table]:
            del self._kept[key]


