"""A game's UI from its facts: the one base every game's UI builds on.

A game subclasses :class:`Game`, the UI its cog registers with the hub
(:func:`install_game`), and declares what is its own: status and seat lines,
event sentences, its controls, its verbs (:mod:`cogs._ui.verbs`), private confirmations
and, if it has one, a private panel per player (a DM) or a private hand per player (an
ephemeral answer kept up to date, :mod:`cogs._ui.hands`). Everything else — the table
message frame, the click → action path, confirmations, DM panels with their fallback,
hand answers refreshed after every outcome — is here, written once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from pydantic import BaseModel

from bot.catalog import AnyGame
from bot.errors import InsufficientFunds, NotAllowed, StaleAction
from bot.games.common import PrivateEvent
from bot.i18n import N_, _, use_locale
from bot.safe_log import log_failure
from bot.service import Outcome, TableService, TableSnapshot
from cogs._ui import render, verbs
from cogs._ui.controls import Control, Menu, draw
from cogs._ui.custom_ids import ComponentId
from cogs._ui.frame import Sentences, frame_of
from cogs._ui.hands import EarlierHand, HandKeeper
from cogs._ui.hub import TableHub
from cogs._ui.primitives import (
    Payload,
    TableComponent,
    actor_of,
    button,
    send_ephemeral,
    view_of,
)
from cogs._ui.private import PanelKeeper

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


class Game:
    """A game's face in Discord, declared rather than written.

    A game's UI names its catalog record, ``class HazardUI(Game, record=HAZARD)``, and
    takes its key and title from there."""

    record: ClassVar[AnyGame]
    game: ClassVar[str]
    """The game's key (its record's :attr:`~bot.catalog.Game.name`)."""
    title: ClassVar[str]
    """The game's title, untranslated (its record's)."""
    has_dice: ClassVar[bool] = True
    """Whether the game draws on the fair dice; a game without chance shows no seed."""
    seats_title: ClassVar[str] = N_("Seats")
    finished_seats_title: ClassVar[str | None] = None
    """The seats' heading once the table is over (``None``: :attr:`seats_title`), for a
    heading that explains marks only a table in play shows."""
    recent_events: ClassVar[int] = 8
    """How many of the latest event sentences the table message shows."""
    sentences: ClassVar[Sentences] = Sentences({})
    """Public event → sentence, shown on the table message."""
    confirmations: ClassVar[Sentences] = Sentences({})
    """Private event (a :class:`PrivateEvent`) → the word its member alone sees."""

    buttons: ClassVar[tuple[Control | Menu, ...]] = ()
    """The table message's controls while the game runs (:mod:`cogs._ui.controls`)."""
    private_panels: ClassVar[bool] = False
    """A private panel per player (DM, or ephemeral when DMs are closed)."""
    panel_label: ClassVar[str] = N_("Panel privately")
    not_seated: ClassVar[str] = N_("You are not seated at this table.")
    panel_moves: ClassVar[tuple[type[Any], ...]] = ()
    """Events after which every panel is redrawn (a new decision point, the end)."""
    own_moves: ClassVar[tuple[type[Any], ...]] = ()
    """Events (with a ``player``) after which only that player's panel is redrawn."""
    private_hands: ClassVar[bool] = False
    """A private hand per player: the table's "My hand" button (:meth:`hand_button`)
    answers ephemerally with :meth:`hand`; every answer is edited after every outcome, and
    a click on one drawn at an earlier ply is refused in its own words."""
    hand_label: ClassVar[str] = N_("My hand")

    def __init_subclass__(cls, record: AnyGame | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if record is not None:
            cls.record = record
            cls.game = record.name
            cls.title = record.title

    def __init__(self, hub: TableHub) -> None:
        self.hub = hub
        self.panels = PanelKeeper(hub, self) if self.private_panels else None
        self.hands = HandKeeper() if self.private_hands else None
        self._hand_locks: dict[int, asyncio.Lock] = {}
        self.verb_table: verbs.VerbTable = self.verbs()
        if self.panels is not None:
            self.verb_table = {"panel": self.show_panel, **self.verb_table}
        if self.hands is not None:
            self.verb_table = {"hand": self.show_hand, **self.verb_table}

    @property
    def service(self) -> TableService:
        return self.hub.service

    async def load(self) -> None:
        """At start, before any click: what the game keeps across restarts."""
        if self.panels is not None:
            await self.panels.load()

    # -- facts (override what the game has) -----------------------------------------------

    def verbs(self) -> verbs.VerbTable:
        return {}

    def describe_rules(self, snapshot: TableSnapshot[Any, Any]) -> list[str]:
        """Lines describing the table's options, shown in the lobby."""
        return []

    def hold_line(self, snapshot: TableSnapshot[Any, Any]) -> str | None:
        """What a seat puts up (the engine's hold), in the lobby: a stake the game may
        take. A game whose hold comes back (an escrow) says so instead."""
        return _("Stake to sit: **{stake}**", stake=render.coins(snapshot.hold, snapshot.currency))

    def status_lines(self, snapshot: TableSnapshot[Any, Any]) -> list[str]:
        return []

    def turn_line(self, snapshot: TableSnapshot[Any, Any]) -> str | None:
        """The table message's first line while the game runs: who acts, what they
        decide, the time left (:func:`cogs._ui.frame.turn_text`); ``None``: no one."""
        return None

    def event_text(self, event: BaseModel, snapshot: TableSnapshot[Any, Any]) -> str | None:
        return self.sentences(event, snapshot)

    def notes(self, snapshot: TableSnapshot[Any, Any]) -> list[str]:
        """Lines after the events: by default, who cannot be DMed their panel."""
        if self.panels is None or (snapshot.state is not None and snapshot.state.finished):
            return []
        closed = self.panels.closed(snapshot.id)
        return [
            _(
                "📪 {player}: I cannot DM you — use **{button}**.",
                player=render.mention(p),
                button=_(self.panel_label),
            )
            for p in snapshot.seats
            if p in closed
        ]

    def seat_lines(self, snapshot: TableSnapshot[Any, Any]) -> list[str]:
        return []

    def extra_fields(self, snapshot: TableSnapshot[Any, Any]) -> list[tuple[str, str]]:
        return []

    def controls(self, snapshot: TableSnapshot[Any, Any]) -> discord.ui.View | None:
        return view_of(*draw(snapshot.id, snapshot.state, self.buttons)) if self.buttons else None

    def panel(
        self, snapshot: TableSnapshot[Any, Any], player: int
    ) -> tuple[str, discord.ui.View | None]:
        raise NotImplementedError

    def hand(self, snapshot: TableSnapshot[Any, Any], player: int) -> Payload:
        """What only ``player`` sees of a game with private hands, with the buttons of what
        they may do now (drawn at the state's ply)."""
        raise NotImplementedError

    def notice_view(self, snapshot: TableSnapshot[Any, Any], member: int) -> discord.ui.View | None:
        """The controls a turn notice carries (:mod:`cogs._ui.notify`): the way the member
        acts, as the table message offers it (its **My hand** button, its panel button,
        its own buttons)."""
        return self.controls(snapshot)

    def notices_now(self, snapshot: TableSnapshot[Any, Any]) -> bool:
        """Whether the members the table waits for may be told now; False at a step where
        whom the table waits for is a secret."""
        return True

    def waiting(self, state: Any) -> Iterable[int]:
        """Players the game waits for (their panel is kept as a notice if undeliverable)."""
        return ()

    # -- the frame, clicks and follow-ups --------------------------------------------------

    def render_game(
        self, snapshot: TableSnapshot[Any, Any], events: Sequence[BaseModel]
    ) -> Payload:
        frame = frame_of(self, snapshot, events)
        return Payload(frame.embed(), None if frame.finished else self.controls(snapshot))

    def panel_button(
        self, snapshot: TableSnapshot[Any, Any], label: str | None = None
    ) -> TableComponent:
        ply = snapshot.ply
        return button(snapshot.id, ply, "panel", label or _(self.panel_label), emoji="🔒")

    def action_for(
        self, snapshot_id: int, verb: str, arg: str | None, values: Sequence[str]
    ) -> BaseModel:
        return verbs.action_for(self.verb_table, ComponentId(snapshot_id, 0, verb, arg), values)

    async def click(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> None:
        entry = self.verb_table.get(cid.verb)
        if entry is None:
            # A verb the table does not list: the game's own :meth:`action_for` (by
            # default a private refusal), checked at the click's ply.
            action = self.action_for(cid.table, cid.verb, cid.arg, values)
            await self.act(interaction, cid.table, action, ply=cid.ply)
            return
        if not isinstance(entry, verbs.Act):
            await entry(interaction, cid, values)
            return
        action = entry.make(cid.arg, values)
        ply = cid.ply if entry.checked else None
        await self.act(interaction, cid.table, action, ply=ply, confirm=entry.confirm)

    async def act(
        self,
        interaction: discord.Interaction[Any],
        table: int,
        action: BaseModel,
        *,
        ply: int | None = None,
        confirm: Any = None,
    ) -> Outcome:
        """Apply an action for the member and answer; ``confirm`` is a private word, or a
        function of the outcome giving one."""
        outcome = await self.apply(interaction, table, action, ply=ply)
        word = confirm(outcome) if callable(confirm) else confirm
        await self.hub.answer(interaction, outcome, confirm=word)
        return outcome

    async def apply(
        self,
        interaction: discord.Interaction[Any],
        table: int,
        action: BaseModel,
        *,
        ply: int | None = None,
    ) -> Outcome:
        """The one place a member's action reaches the table service."""
        try:
            return await self.service.act(table, actor_of(interaction), action, expected_ply=ply)
        except StaleAction as stale:
            if self.hands is None or not self.from_private_answer(interaction):
                raise
            raise EarlierHand() from stale
        except InsufficientFunds as short:
            if short.user_id in (None, interaction.user.id):
                raise
            snapshot = await self.service.snapshot(table)
            refusal = self.wallet_refusal(short, snapshot.currency)
            if refusal is None:
                raise
            raise NotAllowed(refusal) from short

    async def open_or_challenge(
        self,
        interaction: discord.Interaction[Any],
        rules: BaseModel,
        member: discord.Member | None,
        stake: int,
    ) -> None:
        """Open a lobby, or challenge ``member`` (who must be able to cover ``stake``), or
        the computer when ``member`` is this bot."""
        if member is None:
            await self.hub.open_table(interaction, self.game, rules)
            return
        me = self.hub.bot.user
        if me is not None and member.id == me.id:
            # The computer takes the challenge at once (its stake from the house bank).
            await self.hub.open_table(interaction, self.game, rules, against_computer=True)
            return
        if member.bot:
            raise NotAllowed(
                "Bots do not play {game}; challenge a member (or me).", game=_(self.title)
            )
        if member.id == interaction.user.id:
            raise NotAllowed("You cannot challenge yourself.")
        assert interaction.guild_id is not None
        theirs = await self.hub.bot.economy.balance(interaction.guild_id, member.id)
        if theirs.balance < stake:
            raise NotAllowed(
                "{member} cannot cover a stake of {stake}.",
                member=member.mention,
                stake=render.coins(stake, theirs.currency),
            )
        timeout = self.hub.bot.settings.challenge_timeout_seconds
        await self.hub.open_table(
            interaction, self.game, rules, invitee_id=member.id, lobby_seconds=timeout
        )

    async def show_panel(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> None:
        """The panel, privately: for a player whose DMs are closed, or who prefers it."""
        snapshot = await self.service.snapshot(cid.table)
        if interaction.user.id not in snapshot.seats:
            raise NotAllowed(self.not_seated)  # a template: shown translated
        text, view = self.panel(snapshot, interaction.user.id)
        await send_ephemeral(interaction, text, view=view)

    # -- private hands ---------------------------------------------------------------------

    def hand_button(self, snapshot: TableSnapshot[Any, Any]) -> TableComponent:
        """The table message's button for a private hand (ply 0: never stale)."""
        return button(
            snapshot.id,
            0,
            "hand",
            _(self.hand_label),
            style=discord.ButtonStyle.primary,
            emoji="🎴",
        )

    async def seated(
        self, interaction: discord.Interaction[Any], table: int
    ) -> TableSnapshot[Any, Any]:
        """The table, for a member seated at a game that has started; else a refusal."""
        snapshot = await self.service.snapshot(table)
        if interaction.user.id not in snapshot.seats:
            raise NotAllowed(self.not_seated)
        if snapshot.state is None:
            raise NotAllowed("The game has not started yet.")
        return snapshot

    @staticmethod
    def current_hand(cid: ComponentId, snapshot: TableSnapshot[Any, Any]) -> None:
        """Refuse a click on a hand answer drawn at an earlier ply."""
        if cid.ply != snapshot.ply:
            raise EarlierHand()

    async def show_hand(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> None:
        snapshot = await self.seated(interaction, cid.table)
        await self.give_hand(interaction, snapshot, self.hand(snapshot, interaction.user.id))

    async def give_hand(
        self,
        interaction: discord.Interaction[Any],
        snapshot: TableSnapshot[Any, Any],
        payload: Payload,
    ) -> None:
        """Answer with ``payload`` as the member's hand (a step of a choice, say), kept
        for the edits after the next outcomes."""
        assert self.hands is not None, "a game with private_hands"
        await self.hands.show(
            interaction, snapshot.id, interaction.user.id, payload, keep=snapshot.row.live
        )

    async def refresh_hands(self, table: int, *, skip: Sequence[int] = ()) -> None:
        """Edit every kept hand answer of ``table`` to the table as it is now."""
        if self.hands is None:
            return
        lock = self._hand_locks.setdefault(table, asyncio.Lock())
        async with lock:
            # Read afresh inside the lock: a refresh that waited must not draw an older turn.
            snapshot = await self.service.snapshot(table)
            if snapshot.state is None:
                return
            await self.hands.refresh(table, lambda player: self.hand(snapshot, player), skip=skip)
            if not snapshot.row.live:
                self.forget(table)

    def forget(self, table_id: int) -> None:
        """An ended table's kept hand answers and their lock go (the private panels'
        keeper forgets its own when it shows the end)."""
        if self.hands is not None:
            self.hands.forget(table_id)
        self._hand_locks.pop(table_id, None)

    @staticmethod
    def from_private_answer(interaction: discord.Interaction[Any] | None) -> bool:
        message = interaction.message if interaction is not None else None
        return message is not None and message.flags.ephemeral

    async def after(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        snapshot = outcome.snapshot
        acting: list[int] = []
        if (
            self.hands is not None
            and snapshot.state is not None
            and interaction is not None
            and self.from_private_answer(interaction)
            and interaction.user.id in snapshot.seats
        ):
            # The hand clicked on becomes the new hand, through the click's own answer.
            player = interaction.user.id
            await self.hands.show(
                interaction,
                snapshot.id,
                player,
                self.hand(snapshot, player),
                keep=snapshot.row.live,
            )
            acting.append(player)
        await self._after(outcome, interaction)
        if self.hands is not None and snapshot.state is not None:
            try:
                await self.refresh_hands(snapshot.id, skip=acting)
            except Exception as error:
                # The action is saved; a hand that could not be redrawn must not turn the
                # click's answer into "nothing was changed". Its next click is refused as
                # stale, which says to ask again.
                log_failure(
                    log, "could not refresh the hands of table %s", snapshot.id, error=error
                )

    async def _after(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        if interaction is not None:
            for event in outcome.events:
                if not isinstance(event, PrivateEvent) or event.private_to != interaction.user.id:
                    continue
                text = self.confirmations(event, outcome.snapshot)
                if text:
                    await send_ephemeral(interaction, text)
        if self.panels is not None:
            await self.panels.after(outcome)
        row = outcome.snapshot.row
        # A line in the channel: everyone reads it, in the server's language.
        with use_locale(self.hub.bot.languages.server(row.guild_id)):
            line = self.public_line(outcome)
        if line is not None:
            channel = self.hub.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
            try:
                await channel.send(line, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as error:  # the table message says the same
                log.warning("table %s: could not post a result line: HTTP %s", row.id, error.status)

    def replay_cards(self, state: Any, name: Callable[[int], str]) -> dict[str, list[str]] | None:
        """The public cards after a step, as the replay page lists them (pile title →
        cards; ``name`` names a member). Default: a game without cards."""
        return None

    def replay_tile(self, card: str, height: int) -> bytes:
        """One of :meth:`replay_cards`' cards as a PNG ``height`` pixels high."""
        raise NotImplementedError

    def action_text(self, action: Mapping[str, Any], currency: str) -> str | None:
        """A logged action of this game in words, without its actor ("bets 6 ryō with
        the caster"), for /history and the replay page; ``None``: spelled out plainly
        (:func:`cogs._ui.step_words.plain`)."""
        return None

    def history_text(
        self, event: BaseModel, snapshot: TableSnapshot[Any, Any], earlier: Sequence[BaseModel]
    ) -> str | None:
        """A logged event as the table message said it, for /history and the replay page;
        ``earlier``: the table's public events before it (a sentence that reads the table
        as it is now must read it as it was then instead)."""
        return self.event_text(event, snapshot)

    def left_word(self, outcome: Outcome, player: int) -> str | None:
        """A private word to ``player`` who just left (or cashed out of) the table; default
        none (the table message says it)."""
        return None

    def public_line(self, outcome: Outcome) -> str | None:
        """A short line of its own in the channel for an outcome that deserves one (a
        round's result), kept there when the table message moves on. Default: none."""
        return None

    def wallet_refusal(self, short: InsufficientFunds, currency: str) -> str | None:
        """How to refuse an action because *another* member's wallet fell short (a
        player banker covering a bet); ``None``: the service's own words."""
        return None

    async def redraw(
        self,
        interaction: discord.Interaction[Any],
        snapshot: TableSnapshot[Any, Any],
        view: discord.ui.View,
    ) -> None:
        """Redraw the table message with other controls (a choice half made, see
        :mod:`cogs._ui.picks`), through the click's own response; nothing is saved."""
        payload = self.hub.render(snapshot)
        payload.view = view
        await interaction.response.edit_message(**payload.as_kwargs())
