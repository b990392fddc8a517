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

A game turns this on with ``private_hands = True`` and a ``hand(snapshot, player)`` method
(:class:`cogs._ui.game.Game` wires the button, the verb and the refreshes).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import discord

from bot.errors import StaleAction
from bot.i18n import N_, _, use_locale
from bot.interactions import settled
from cogs._ui.primitives import Payload

log = logging.getLogger(__name__)

TOKEN_SECONDS = 14 * 60
"""How long an interaction's answer is edited: Discord's 15 minutes, with a margin."""
SWEEP_SECONDS = 60.0
"""How often expired answers are swept from every table (not on every click)."""
REPLACED = N_(
    "🔁 This copy of your hand was **replaced by a newer one** (you pressed **My hand** "
    "again) and no longer updates: use the newest."
)
"""What an older hand answer is edited to say once a newer copy is kept."""
EARLIER = N_(
    "That hand is from an earlier turn, so nothing was done. "
    "Press **My hand** on the table for your hand as it is now."
)


class EarlierHand(StaleAction):
    """A click on a hand answer drawn at an earlier ply."""

    def __init__(self) -> None:
        super().__init__()
        # The template too: the hub shows a refusal translated from it (bot.errors.explain).
        self.template = EARLIER
        self.params = {}
        self.args = (EARLIER,)

    def __str__(self) -> str:
        return EARLIER


def locale_of(interaction: Any) -> str:
    """The language of the member behind an interaction (English if it carries none)."""
    return str(getattr(interaction, "locale", None) or "")


def now() -> float:
    """The clock Discord's tokens run on (virtual under SimCord)."""
    return discord.utils.utcnow().timestamp()


@dataclass
class _Kept:
    interaction: discord.Interaction[Any]
    since: float
    picture: str
    """The picture key the answer shows."""
    message_id: int | None
    """The answer's message (``None``: not known yet, the interaction's own answer)."""
    original: bool
    """Whether the answer is the interaction's own response (else one of its follow-ups)."""
    shown: str = ""
    """The fingerprint of what the answer shows: a refresh that would change nothing is
    not made (an edit is itself a sign: a member's secret step must not edit another's)."""

    async def edit(self, **kwargs: Any) -> None:
        if self.original:
            await self.interaction.edit_original_response(**kwargs)
        else:
            assert self.message_id is not None
            await self.interaction.followup.edit_message(self.message_id, **kwargs)


class HandKeeper:
    """The latest hand answer of each player at each table, edited after every turn.

    Kept by table, then player: a table's refresh looks at its own answers only, and an
    ended table's go at once (:meth:`forget`, ``keep=False``)."""

    def __init__(self, clock: Callable[[], float] = now) -> None:
        self._kept: dict[int, dict[int, _Kept]] = {}
        self.clock = clock
        self.edits = 0
        self._next_sweep = 0.0
        self._marking: set[asyncio.Task[None]] = set()

    async def show(
        self,
        interaction: discord.Interaction[Any],
        table: int,
        player: int,
        payload: Payload,
        *,
        keep: bool = True,
    ) -> None:
        """Answer a click with the player's hand and keep the answer for later edits.

        A click on a hand answer itself (a card, a capture) edits that answer in place; any
        other click (the table's "My hand") answers with a new ephemeral message. A click
        already deferred (slow work) is answered the same way through its token: the hand
        goes to a new private follow-up, never into the public message it was clicked on.

        ``keep=False`` (a table that has ended): answered, but not kept, as nothing will
        edit it again.

        Long because: the three ways Discord lets a click be answered (edit in place,
        a new response, a follow-up) each keep their answer, side by side.
        """
        kept = self._kept.get(table, {}).get(player)
        shown = payload.fingerprint()
        # Decided on what Discord has: a deferral still on its way is a followup's cue.
        await settled(interaction)
        done = interaction.response.is_done()
        message = interaction.message
        if (
            interaction.type == discord.InteractionType.component
            and message is not None
            and message.flags.ephemeral
        ):
            same = kept is not None and kept.message_id == message.id
            replaced = kept is not None and kept.message_id not in (None, message.id)
            kwargs = payload.edit_kwargs(kept.picture if same and kept is not None else None)
            if done:  # deferred as an update of this very message
                await interaction.edit_original_response(**kwargs)
            else:
                await interaction.response.edit_message(**kwargs)
            entry = _Kept(interaction, self.clock(), payload.picture_key, message.id, True, shown)
        elif not done:
            replaced = True
            sent = await interaction.response.send_message(**payload.send_kwargs(), ephemeral=True)
            message_id = getattr(sent, "message_id", None)
            entry = _Kept(interaction, self.clock(), payload.picture_key, message_id, True, shown)
        else:
            replaced = True
            followup = await interaction.followup.send(
                **payload.send_kwargs(), ephemeral=True, wait=True
            )
            entry = _Kept(interaction, self.clock(), payload.picture_key, followup.id, False, shown)
        if keep:
            self._kept.setdefault(table, {})[player] = entry
        else:
            self._drop(table, player)
        # The older copy, if this answer is another message: a new one was sent, or an
        # older copy's own button was clicked (never the message just edited).
        # In the background: the click's answer never waits on another message's edit.
        if kept is not None and replaced:
            task = asyncio.create_task(self._mark_replaced(table, kept))
            self._marking.add(task)
            task.add_done_callback(self._marking.discard)
        self._sweep()

    async def _mark_replaced(self, table: int, kept: _Kept) -> None:
        """The older copy says it was replaced, and loses its picture and buttons: it would
        otherwise stay frozen at its turn, still saying it updates (a click on it would be
        refused as stale anyway). Past its token it cannot be edited; it is left."""
        if kept.since <= self.clock() - TOKEN_SECONDS:
            return
        try:
            with use_locale(locale_of(kept.interaction)):
                text = _(REPLACED)
            await kept.edit(content=text, embed=None, view=None, attachments=[])
        except discord.HTTPException as error:
            log.info(
                "table %s: a replaced hand answer could not be marked (%s)", table, error.status
            )

    def _drop(self, table: int, player: int, only: _Kept | None = None) -> None:
        """Forget a player's answer (``only``: if it is still that one, not a newer one
        kept while an edit was awaited); a table with none left goes too."""
        answers = self._kept.get(table)
        if answers is None or player not in answers:
            return
        if only is None or answers[player] is only:
            del answers[player]
        if not answers:
            del self._kept[table]

    def _sweep(self) -> None:
        """Forget answers past their token at every table (a table left idle is never
        refreshed), at most once every :data:`SWEEP_SECONDS`: a click does not scan every
        kept answer of every table."""
        now = self.clock()
        if now < self._next_sweep:
            return
        self._next_sweep = now + SWEEP_SECONDS
        expired = now - TOKEN_SECONDS
        for table, answers in list(self._kept.items()):
            for player, kept in list(answers.items()):
                if kept.since <= expired:
                    self._drop(table, player, kept)

    def holders(self, table: int) -> list[int]:
        """The players of ``table`` whose hand answer can still be edited."""
        fresh = self.clock() - TOKEN_SECONDS
        return [p for p, kept in self._kept.get(table, {}).items() if kept.since > fresh]

    def tables(self) -> set[int]:
        """The tables with a kept answer."""
        return set(self._kept)

    async def refresh(
        self,
        table: int,
        draw: Callable[[int], Payload | None],
        *,
        skip: Iterable[int] = (),
    ) -> None:
        """Edit every kept hand answer of ``table`` (but ``skip``'s) to ``draw(player)``;
        ``None`` leaves a player's answer as it is. An expired token is forgotten."""
        answers = self._kept.get(table)
        if not answers:
            return
        skipped = set(skip)
        expired = self.clock() - TOKEN_SECONDS
        for player, kept in list(answers.items()):
            if player in skipped:
                continue
            if kept.since <= expired:
                self._drop(table, player, kept)
                continue
            # The player's own answer: in the language their interaction carried.
            with use_locale(locale_of(kept.interaction)):
                payload = draw(player)
            if payload is None:
                continue
            shown = payload.fingerprint()
            if shown == kept.shown:
                continue
            try:
                await kept.edit(**payload.edit_kwargs(kept.picture))
            except discord.HTTPException as error:
                # The answer was dismissed or the token ended early: its buttons will be
                # refused as stale, which tells the player to ask again.
                log.info("table %s: a hand answer could not be edited (%s)", table, error.status)
                self._drop(table, player, kept)
                continue
            kept.picture = payload.picture_key
            kept.shown = shown
            self.edits += 1

    def forget(self, table: int) -> None:
        """Drop every kept answer of ``table`` (it has ended)."""
        self._kept.pop(table, None)
