"""Where a click becomes an action and an outcome becomes a message.

Every Tanzaku component is a :class:`TableComponent` (one `DynamicItem` for the custom-id
grammar in :mod:`cogs._ui.custom_ids`), and every click on one, and every form opened from
one, is answered by :meth:`TableHub.on_interaction` from its custom id alone: on any
message — one sent before a restart, one edited since the member saw it — and after any
restart or form timeout. Lobby verbs are handled for every game alike; game verbs go to
the game's :class:`GameUI`, which its cog registers.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
import re
import secrets
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import quote, unquote

import discord
from discord.ext import commands
from pydantic import BaseModel

from bot import rules_text
from bot.errors import NotAllowed, StaleAction, UserFacingError
from bot.interactions import (
    ALREADY_ACKNOWLEDGED,
    acknowledge_if_slow,
    describe,
    is_routine,
    respond,
)
from bot.players import is_computer
from bot.safe_log import log_failure
from bot.service import (
    Actor,
    Outcome,
    TableService,
    TableSnapshot,
    TableStatus,
    saved_writes,
)
from bot.signals import SHOWN
from cogs._ui import render
from cogs._ui.custom_ids import TEMPLATE, ComponentId, component_id

if TYPE_CHECKING:
    from bot.app import TanzakuBot

log = logging.getLogger(__name__)

LOBBY_VERBS = frozenset(
    {"join", "leave", "start", "cancel", "accept", "decline", "computer", "uncomputer"}
)
WATCH_ROW = 4
"""The last of a message's five rows: the game's own buttons come first."""
RULES_TABLE = 0
"""Rules pages use table id 0 in the custom-id grammar: no real table has it."""
APOLOGY = "Something went wrong on our side; nothing was changed. Please try again."
ANSWER_REFUSED = (
    "Discord did not take my answer, so I cannot say whether that went through. Please "
    "check before trying again."
)
SAVED_BUT_NOT_SHOWN = (
    "Your action was saved, but Discord did not take the update of the table message. "
    "I will refresh it; nothing needs doing again."
)
EDIT_RETRY_DELAYS = (0.5, 1.5, 4.0)
"""Backoff between attempts to edit a table message when Discord fails (5xx)."""


@dataclass(frozen=True)
class Picture:
    """An image attached to a message (beside its embed), e.g. the cards on a table.

    ``key`` names what the picture shows: two pictures with the same key are the same
    image, so a message whose picture did not change is edited without uploading it again.
    ``filename`` and ``description`` (the alt text) are public wherever the message is.
    """

    key: str
    png: bytes
    filename: str
    description: str

    def file(self) -> discord.File:
        return discord.File(
            io.BytesIO(self.png), filename=self.filename, description=self.description
        )


NO_PICTURE = ""
"""The picture key of a message without a picture."""


@dataclass
class Payload:
    embed: discord.Embed
    view: discord.ui.View | None = None
    content: str | None = None
    picture: Picture | None = None
    """Attached to the message; sent again only when its key changed (:meth:`edit_kwargs`)."""

    def as_kwargs(self) -> dict[str, Any]:
        """The message's text and controls (an edit with these keeps its attachments)."""
        return {"content": self.content, "embed": self.embed, "view": self.view}

    def send_kwargs(self) -> dict[str, Any]:
        """A new message: the text, the controls and the picture, if any (an interaction's
        answer takes no ``view=None``)."""
        kwargs = self.as_kwargs()
        if self.view is None:
            del kwargs["view"]
        if self.picture is not None:
            kwargs["files"] = [self.picture.file()]
        return kwargs

    def edit_kwargs(self, shown: str | None, *, ended: bool = False) -> dict[str, Any]:
        """An edit of a message whose picture key is ``shown`` (``None``: not known, as
        after a restart): the picture is uploaded only when it is not already there, and
        removed when there is none any more.

        ``ended``: the message of an ended table, whose attachments are its replay page's
        to set (:meth:`TableHub.attach_replay`): a later edit (a queued refresh, a click
        on an outdated copy) must not take the page off, so it leaves them alone."""
        kwargs = self.as_kwargs()
        if ended:
            return kwargs
        if self.picture is not None and shown != self.picture.key:
            kwargs["attachments"] = [self.picture.file()]
        elif self.picture is None and shown != NO_PICTURE:
            # After a restart (``None``) a picture may still be there: clear it, once.
            kwargs["attachments"] = []
        return kwargs

    @property
    def picture_key(self) -> str:
        return self.picture.key if self.picture is not None else NO_PICTURE

    def fingerprint(self) -> str:
        """A digest of everything the message shows: kept per live table (so small) and
        sent to the other processes sharing the database."""
        view = self.view.to_components() if self.view is not None else []
        shown = json.dumps(
            [self.content, self.embed.to_dict(), view, self.picture_key],
            sort_keys=True,
            default=str,
        )
        return hashlib.blake2b(shown.encode(), digest_size=16).hexdigest()


def button(
    table: int,
    ply: int,
    verb: str,
    label: str,
    *,
    arg: str | int | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> TableComponent:
    return TableComponent(
        discord.ui.Button(
            label=label,
            style=style,
            emoji=emoji,
            disabled=disabled,
            custom_id=component_id(table, ply, verb, arg),
            row=row,
        )
    )


def select(
    table: int,
    ply: int,
    verb: str,
    placeholder: str,
    options: Sequence[discord.SelectOption],
    *,
    row: int | None = None,
) -> TableComponent:
    return TableComponent(
        discord.ui.Select(
            placeholder=placeholder,
            options=list(options),
            custom_id=component_id(table, ply, verb),
            row=row,
        )
    )


class TableView(discord.ui.View):
    """A table message's components. A failure is logged by table and verb only: the
    library's default names the item, and a button's label can be a bid."""

    async def on_error(
        self,
        interaction: discord.Interaction[Any],
        error: Exception,
        item: discord.ui.Item[Any],
        /,
    ) -> None:
        cid = ComponentId.parse(str(getattr(item, "custom_id", "") or ""))
        where = (cid.verb, cid.table) if cid is not None else ("?", "?")
        log_click_failure("a %r component at table %s failed", *where, error=error)


class TableModal(discord.ui.Modal):
    """Every form a table shows. What was typed may be a secret (a bid): a failure is
    logged without it, and the member is told whether anything was saved.

    A form whose custom id is a table component's (a bid or amount form: the id of the
    button that opened it) is answered by :meth:`TableHub.on_interaction` from that id,
    like a click, so it still works after a restart or its timeout, when discord.py has
    forgotten this object; here it does nothing."""

    table_id: int = 0

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        # discord.py found this form alive (not timed out, shown by this process): the
        # hub's listener, which sees every submission, leaves it to this object.
        interaction.extras[FORM_ALIVE] = True
        return True

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        if ComponentId.parse(self.custom_id) is not None:
            return
        saved_before = saved_writes.get()
        try:
            with acknowledge_if_slow(interaction):
                await self.submit(interaction)
        except UserFacingError as error:
            await send_ephemeral(interaction, str(error))
        except Exception as error:
            log_click_failure("a form at table %s failed", self.table_id, error=error)
            hub = TableHub.of(interaction.client)
            saved = saved_writes.get() > saved_before
            await hub.apologise(interaction, self.table_id, saved, error=error)

    async def submit(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError

    async def on_error(  # type: ignore[override]  # Modal's own signature
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        log_click_failure("a form at table %s failed", self.table_id, error=error)


FORM_ALIVE = "tanzaku_form_alive"
"""Marks, in ``Interaction.extras``, a submission that a live form object took; one
submitted after a restart or past its timeout (discord.py dropped the object, and with it
what the command had chosen) is told so by the hub instead of going unanswered."""

FORM_EXPIRED = (
    "That form has expired (it was open too long, or the bot restarted since it was shown)."
    " Nothing was changed: run the command again."
)


def log_click_failure(message: str, *args: object, error: BaseException) -> None:
    """A click's or a form's failure: a routine one of Discord's (the interaction expired,
    was answered already, its message was deleted) in one WARNING line; anything else at
    ERROR with its frames, never its text (a form's value may be a bid)."""
    if is_routine(error):
        assert isinstance(error, discord.HTTPException)
        log.warning(message + ": Discord refused: %s", *args, describe(error))
    else:
        log_failure(log, message, *args, error=error)


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = TableView(timeout=None)
    for item in items:
        view.add_item(item)
    return view


class TableComponent(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """Any button or select of a Tanzaku table; its custom id says everything needed."""

    answered_by_listener: ClassVar[bool] = True
    """Every click is answered by :meth:`TableHub.on_interaction`, not :meth:`callback`."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> TableComponent:
        return cls(item)

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Nothing: :meth:`TableHub.on_interaction` answers every click on a table
        component. discord.py calls this only when the clicked id is still on the message
        as the interaction carries it, and drops the click silently when an edit (another
        player's move, a deadline, a computer) removed it meanwhile — so it cannot be the
        one place a click is answered, and answering here too would answer twice."""


class GameUI:
    """A game's face in Discord. The game's cog subclasses it and registers it."""

    game: ClassVar[str]
    title: ClassVar[str]
    has_dice: ClassVar[bool] = True
    """Whether the game draws on the fair dice; a game without chance shows no seed."""

    def __init__(self, hub: TableHub) -> None:
        self.hub = hub

    @property
    def service(self) -> TableService:
        return self.hub.service

    def describe_rules(self, snapshot: TableSnapshot[Any, Any]) -> list[str]:
        """Lines describing the table's options, shown in the lobby."""
        return []

    def render_game(
        self, snapshot: TableSnapshot[Any, Any], events: Sequence[BaseModel]
    ) -> Payload:
        raise NotImplementedError

    def action_for(
        self, snapshot_id: int, verb: str, arg: str | None, values: Sequence[str]
    ) -> BaseModel:
        raise NotAllowed("That button does nothing at this table.")

    async def click(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> None:
        action = self.action_for(cid.table, cid.verb, cid.arg, values)
        outcome = await self.service.act(
            cid.table, actor_of(interaction), action, expected_ply=cid.ply
        )
        await self.hub.answer(interaction, outcome)

    async def after(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        """Private follow-ups of an outcome (confirmations, DMs). Default: none."""

    def forget(self, table_id: int) -> None:
        """Drop whatever the UI keeps in memory for a table that has ended (the hub calls
        it once the table's last outcome is shown). Default: nothing is kept."""


class TableHub:
    """The shared machinery behind every table message."""

    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot
        self.games: dict[str, GameUI] = {}
        # Per live table only: every entry goes when the table ends (:meth:`forget`), so a
        # bot that has run a million tables keeps no more than the live ones.
        self._editing: set[int] = set()
        """Tables whose message a :meth:`refresh` is editing now."""
        self._dirty: set[int] = set()
        """Tables changed again while their refresh was in flight: one more edit follows."""
        self._last_sent: dict[int, str] = {}
        """What each table message shows (its payload's fingerprint): an unchanged edit is
        skipped."""
        self._pictures: dict[int, str] = {}
        """The picture key each table message shows (unknown after a restart)."""
        self._ending: dict[int, str] = {}
        """Ended tables (→ game) to forget once the refresh in flight for them is done."""
        self.edits_sent = 0
        bot.tables.deadline_listeners.append(self.on_deadline_outcome)
        # Several processes on one PostgreSQL database may edit the same table message (a
        # bid by DM arrives on shard 0's process, the server's clicks on its own): each
        # tells the others what the message now shows (`_tell_shown`).
        self._origin = secrets.token_hex(4)
        bot.tables.signals.on(SHOWN, self._on_shown_signal)
        bot.tables.signals.on_resync(self._forget_what_was_shown)

    @classmethod
    def of(cls, client: discord.Client) -> TableHub:
        hub: TableHub | None = getattr(client, "table_hub", None)
        if hub is None:
            hub = cls(client)  # type: ignore[arg-type]
            client.table_hub = hub  # type: ignore[attr-defined]
        return hub

    @property
    def service(self) -> TableService:
        return self.bot.tables

    def register(self, ui: GameUI) -> None:
        self.games[ui.game] = ui

    def ui(self, game: str) -> GameUI:
        ui = self.games.get(game)
        if ui is None:
            raise NotAllowed("That game is not available on this bot right now.")
        return ui

    # -- rendering ---------------------------------------------------------------------------

    def render(self, snapshot: TableSnapshot[Any, Any]) -> Payload:
        """The table message. Content is always set (even to empty) so an invitation's
        mention does not linger once the challenge is answered."""
        payload = self._render(snapshot)
        if payload.content is None:
            payload.content = ""
        if snapshot.row.live:
            payload.view = self.with_watch(payload.view, snapshot.id)
        return payload

    @staticmethod
    def with_watch(view: discord.ui.View | None, table: int) -> discord.ui.View | None:
        """A live table's message gets a Watch button on its last row (one DM when the
        table ends), unless the game's own buttons fill that row."""
        watch = button(table, 0, "watch", "Watch", emoji="🔔", row=WATCH_ROW)
        if view is None:
            return view_of(watch)
        try:
            view.add_item(watch)
        except ValueError:
            log.debug("table %s: no room for the Watch button", table)
        return view

    def _render(self, snapshot: TableSnapshot[Any, Any]) -> Payload:
        if snapshot.status == TableStatus.LOBBY:
            return self.render_lobby(snapshot)
        if snapshot.status == TableStatus.CANCELLED and snapshot.state is None:
            return self.render_cancelled(snapshot)
        payload = self.ui(snapshot.spec.name).render_game(snapshot, snapshot.recent_events)
        if snapshot.status == TableStatus.CANCELLED:
            payload.embed.colour = discord.Colour(render.COLOUR_CANCELLED)
            payload.embed.description = (
                "**Cancelled** — results already settled stand; every coin still at stake "
                "came back or, on a round in play, was settled at its exact value.\n"
                + (payload.embed.description or "")
            )[:4096]
            payload.view = None
        self.add_fairness(payload.embed, snapshot)
        return payload

    def render_lobby(self, snapshot: TableSnapshot[Any, Any]) -> Payload:
        spec = snapshot.spec
        fewest, most = spec.engine.seat_limits(snapshot.rules)
        need = f"{fewest}" if fewest == most else f"{fewest}–{most}"
        invitee = snapshot.row.invitee_id
        if invitee is not None:
            lines = [
                f"{render.mention(snapshot.row.host_id)} challenges {render.mention(invitee)}!"
            ]
        else:
            lines = [f"Host: {render.mention(snapshot.row.host_id)} · players: {need}"]
        if snapshot.hold:
            lines.append(f"Stake to sit: **{render.coins(snapshot.hold, snapshot.currency)}**")
        lines.extend(self.ui(spec.name).describe_rules(snapshot))
        if snapshot.deadline is not None:
            lines.append(f"Expires {render.timestamp(snapshot.deadline.due_at)} unless started.")
        embed = discord.Embed(
            title=f"{spec.title} — table #{snapshot.id} (lobby)",
            description="\n".join(lines),
            colour=discord.Colour(render.COLOUR_LOBBY),
        )
        seats = "\n".join(
            f"{number}. {render.mention(user)}" for number, user in enumerate(snapshot.seats, 1)
        )
        embed.add_field(name=f"Seats ({len(snapshot.seats)}/{most})", value=seats or "—")
        self.add_fairness(embed, snapshot)
        table = snapshot.id
        if invitee is not None:
            view = view_of(
                button(table, 0, "accept", "Accept", style=discord.ButtonStyle.success),
                button(table, 0, "decline", "Decline", style=discord.ButtonStyle.danger),
                self.rules_button(table, spec.name),
            )
            return Payload(embed, view, content=render.mention(invitee))
        computers: list[TableComponent] = []
        if self.service.has_computer(spec.name):
            # The host's alone (checked by the table service): fill a seat with the computer.
            computers.append(button(table, 0, "computer", "Add computer", emoji="🤖"))
            if any(is_computer(seat) for seat in snapshot.seats):
                computers.append(button(table, 0, "uncomputer", "Remove computer"))
        view = view_of(
            button(table, 0, "join", "Join", style=discord.ButtonStyle.success),
            button(table, 0, "leave", "Leave"),
            button(table, 0, "start", "Start", style=discord.ButtonStyle.primary),
            button(table, 0, "cancel", "Cancel", style=discord.ButtonStyle.danger),
            self.rules_button(table, spec.name),
            *computers,
        )
        return Payload(embed, view)

    @staticmethod
    def rules_button(table: int, game: str) -> TableComponent:
        """Opens the game's rules privately, without touching the table message."""
        return button(table, 0, "rules", "Rules", arg=game, emoji="📜")

    def render_cancelled(self, snapshot: TableSnapshot[Any, Any]) -> Payload:
        embed = discord.Embed(
            title=f"{snapshot.spec.title} — table #{snapshot.id} (closed)",
            description="This table closed before play began; every stake was refunded.",
            colour=discord.Colour(render.COLOUR_CANCELLED),
        )
        self.add_fairness(embed, snapshot)
        return Payload(embed, None)

    def add_fairness(self, embed: discord.Embed, snapshot: TableSnapshot[Any, Any]) -> None:
        ui = self.games.get(snapshot.spec.name)
        if ui is not None and not ui.has_dice:
            return
        row = snapshot.row
        if snapshot.seed_revealed:
            text = (
                f"Fair dice — seed `{row.seed_hex}` (SHA-256 `{row.commitment[:16]}…`). "
                f"Check every roll with /verify table:{row.id}"
            )
        else:
            text = f"Fair dice — commitment SHA-256 `{row.commitment}`; seed revealed at the end."
        embed.set_footer(text=text)

    # -- opening and clicking ----------------------------------------------------------------

    async def open_table(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        rules: BaseModel,
        *,
        invitee_id: int | None = None,
        lobby_seconds: int | None = None,
        against_computer: bool = False,
    ) -> Outcome:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        outcome = await self.service.open(
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            game=game,
            host_id=interaction.user.id,
            rules=rules,
            invitee_id=invitee_id,
            lobby_seconds=lobby_seconds,
            against_computer=against_computer,
        )
        table = outcome.snapshot.id
        try:
            message = await self._post(interaction, self.render(outcome.snapshot))
        except discord.HTTPException as error:
            # Nobody can see or join a table without its message: undo it, truthfully.
            log.warning("could not post table %s's message: HTTP %s", table, error.status)
            withdrawn = await self.service.withdraw(table)
            await self._tell(
                interaction,
                f"I could not post the table message in this channel (Discord answered "
                f"{error.status}), so table #{table} is cancelled and your stake, if any, is "
                "back in your wallet. Check that I may send messages, embeds and files here.",
            )
            return withdrawn
        await self.service.set_message(table, message.id)
        if outcome.snapshot.state is not None:
            # Started as it opened (against the computer): the player's private panel.
            await self.ui(game).after(outcome, interaction)
        return outcome

    async def _post(
        self, interaction: discord.Interaction[Any], payload: Payload
    ) -> discord.Message | discord.PartialMessage:
        """The table message: the command's own answer, or a channel message when the
        command was already deferred (privately) because the table took long to open."""
        if not interaction.response.is_done():
            await interaction.response.send_message(**payload.send_kwargs())
            return await interaction.original_response()
        assert interaction.channel_id is not None
        channel = self.bot.get_partial_messageable(
            interaction.channel_id, guild_id=interaction.guild_id
        )
        message = await channel.send(**payload.send_kwargs())
        await self._tell(interaction, f"Your table is open: {message.jump_url}")
        return message

    async def _edit_through(
        self,
        interaction: discord.Interaction[Any],
        snapshot: TableSnapshot[Any, Any],
        payload: Payload,
    ) -> None:
        """Edit the table message through a click's own response, its picture only if
        it changed."""
        kwargs = payload.edit_kwargs(self._pictures.get(snapshot.id), ended=not snapshot.row.live)
        await interaction.response.edit_message(**kwargs)
        self._shown(snapshot, payload)

    def _shown(
        self,
        snapshot: TableSnapshot[Any, Any],
        payload: Payload,
        fingerprint: str | None = None,
    ) -> None:
        """Note what the table message now shows, for a live table only: an ended table's
        message is edited again only by a stale click, which then uploads its picture once
        more rather than every ended table being remembered for ever."""
        fingerprint = fingerprint or payload.fingerprint()
        if snapshot.row.live:
            self._last_sent[snapshot.id] = fingerprint
            self._pictures[snapshot.id] = payload.picture_key
        else:
            self._last_sent.pop(snapshot.id, None)
            self._pictures.pop(snapshot.id, None)
        if self.bot.db.shared:
            self._spawn(
                self._tell_shown(snapshot, fingerprint, payload.picture_key),
                f"tanzaku-shown-{snapshot.id}",
            )

    async def _tell_shown(
        self, snapshot: TableSnapshot[Any, Any], fingerprint: str, picture: str
    ) -> None:
        """After an edit landed, on a shared database: tell the other processes what the
        message shows, then make sure it shows the latest state.

        Two processes' edits of one message can land in either order, so the one landing
        last may show an older state. Every process reads the table's version once its
        edit has landed and edits again if it is newer: the edit landing last is then
        always followed by a look, and the message ends on the latest state. The second
        edit is skipped when the newer state looks the same (a changed bid does not show),
        so its timing tells nothing secret.
        """
        live = int(snapshot.row.live)
        try:
            await self.bot.db.publish(
                SHOWN,
                f"{self._origin} {snapshot.id} {live} {snapshot.spec.name} {fingerprint}"
                f" {quote(picture, safe='') or '-'}",
            )
            latest = await self.service.version_of(snapshot.id)
        except Exception as error:
            log_failure(
                log, "table %s: could not tell others what it shows", snapshot.id, error=error
            )
            return
        if latest is not None and latest > snapshot.row.version:
            if snapshot.row.live:
                self._last_sent[snapshot.id] = fingerprint
            await self.refresh(snapshot.id)

    def _on_shown_signal(self, payload: str) -> None:
        """Another process's edit of a table message landed: what it shows is known here
        too (so an edit that would change nothing is skipped by this process as well)."""
        origin, table, live, game, fingerprint, picture = payload.split()
        if origin == self._origin:
            return
        table_id = int(table)
        if live == "0":
            self.forget(table_id, game)
            self.service.forget_ended(table_id)
            return
        self._last_sent[table_id] = fingerprint
        self._pictures[table_id] = NO_PICTURE if picture == "-" else unquote(picture)

    async def _forget_what_was_shown(self) -> None:
        # Signals were lost while reconnecting: the next edit of each table is made whatever
        # this process believed the message showed.
        self._last_sent.clear()
        self._pictures.clear()

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self.bot.background_tasks.add(task)
        task.add_done_callback(self.bot.background_tasks.discard)

    def forget(self, table_id: int, game: str) -> None:
        """Drop everything kept in memory for a table that has ended: the hub's notes of
        its message and what its game's UI keeps (:meth:`GameUI.forget`).

        While a refresh of the table is in flight it may still note an earlier read when
        it lands: it is marked to read the table once more, and forgets it when done."""
        if table_id in self._editing:
            self._dirty.add(table_id)
            self._ending[table_id] = game
            return
        self._last_sent.pop(table_id, None)
        self._pictures.pop(table_id, None)
        self._dirty.discard(table_id)
        self._ending.pop(table_id, None)
        ui = self.games.get(game)
        if ui is not None:
            ui.forget(table_id)

    def tables_held(self) -> set[int]:
        """Every table the hub keeps something in memory for (live ones, as a rule)."""
        return (
            self._editing
            | self._dirty
            | set(self._last_sent)
            | set(self._pictures)
            | set(self._ending)
        )

    @staticmethod
    async def _tell(interaction: discord.Interaction[Any], text: str) -> None:
        """A private word that must not turn one failure into two."""
        try:
            await send_ephemeral(interaction, text)
        except discord.HTTPException as error:
            log.warning("could not answer an interaction: %s", describe(error))

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every click on a table component and every form opened from one (its custom
        id is the opening button's), answered from the custom id alone.

        discord.py dispatches ``on_interaction`` exactly once for each interaction, so
        this is the one place they are answered: whether or not the clicked id is still
        on the message (a click made as an edit replaced the buttons gets the stale
        answer, or its action when its ply is still the table's), and whether or not the
        form object is still in memory (after a restart or its timeout)."""
        if interaction.type == discord.InteractionType.component:
            kind = "click"
        elif interaction.type == discord.InteractionType.modal_submit:
            kind = "form"
        else:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        cid = ComponentId.parse(custom_id)
        if cid is None:
            if kind == "form":
                # discord.py scheduled the live form's own task first: let it claim.
                await asyncio.sleep(0)
                if not interaction.extras.get(FORM_ALIVE):
                    await self._answer_expired_form(interaction)
            return
        raw_values: Any = data.get("values") or []
        values = [str(value) for value in raw_values]
        try:
            await self.dispatch(interaction, cid, values)
        except Exception as error:
            # Never let the library log this interaction: a button's label, a form's
            # value may be a bid.
            log_click_failure("a %r %s at table %s failed", cid.verb, kind, cid.table, error=error)

    async def _answer_expired_form(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await send_ephemeral(interaction, FORM_EXPIRED)
        except Exception as error:
            log_click_failure("an expired form could not be answered", error=error)

    async def dispatch(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> None:
        saved_before = saved_writes.get()
        try:
            with acknowledge_if_slow(interaction):
                await self._route(interaction, cid, values)
        except StaleAction as error:
            await self.refuse_stale(interaction, cid.table, error)
        except UserFacingError as error:
            await self.refuse(interaction, error)
        except Exception as error:
            # Table and verb only: a component's argument may be a secret (a bid).
            log_click_failure("a %r click at table %s failed", cid.verb, cid.table, error=error)
            saved = saved_writes.get() > saved_before
            await self.apologise(interaction, cid.table, saved, error=error)
        try:
            await self.deliver_notice(interaction, cid.table)
        except Exception as error:
            log_click_failure("could not deliver a notice at table %s", cid.table, error=error)

    async def _route(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> None:
        if cid.verb == "rules" and cid.arg:
            await self._rules_click(interaction, cid)
        elif cid.verb == "watch":
            await self._watch_click(interaction, cid)
        elif cid.verb in LOBBY_VERBS:
            await self._lobby_click(interaction, cid)
        else:
            game = await self.service.game_of(cid.table)
            await self.ui(game).click(interaction, cid, values)

    async def _rules_click(self, interaction: discord.Interaction[Any], cid: ComponentId) -> None:
        from cogs._ui.rules_pages import rules_page

        game = str(cid.arg)
        if game not in rules_text.GAMES:
            raise NotAllowed("Those rules are not available.")
        page = rules_page(game, cid.ply)
        if cid.table == RULES_TABLE:
            # Paging inside a rules message already shown.
            await interaction.response.edit_message(**page.as_kwargs())
        else:
            # The Rules button of a table: the rules privately, the table untouched.
            await send_ephemeral(interaction, embed=page.embed, view=page.view)

    async def _watch_click(self, interaction: discord.Interaction[Any], cid: ComponentId) -> None:
        watching = await self.service.toggle_watch(cid.table, interaction.user.id)
        if watching:
            text = (
                f"🔔 You will get one DM when table #{cid.table} ends, with its result. "
                "Press Watch again to stop."
            )
        else:
            text = f"You no longer watch table #{cid.table}."
        await send_ephemeral(interaction, text)

    async def tell_watchers(self, snapshot: TableSnapshot[Any, Any]) -> None:
        """One DM to everyone who watched a table that has just ended (read and removed in
        one go, so each is told once even with several processes)."""
        watchers = await self.service.take_watchers(snapshot.id)
        if not watchers:
            return
        text = self.ending_note(snapshot)
        for user_id in watchers:
            try:
                channel = await self.bot.create_dm(discord.Object(user_id))
                await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException as error:
                # Closed DMs: nothing to deliver later; the table message shows the end.
                log.info("table %s: a watcher was not told: HTTP %s", snapshot.id, error.status)

    def ending_note(self, snapshot: TableSnapshot[Any, Any]) -> str:
        """What a watcher is told: how the table ended, and where to see it."""
        title = f"{snapshot.spec.title} — table #{snapshot.id}"
        if snapshot.status == TableStatus.CANCELLED:
            how = "was cancelled; every coin still at stake went back"
        else:
            state = snapshot.state
            winners = list(getattr(state, "winners", None) or [])
            single = getattr(state, "winner", None)
            if not winners and single is not None:
                winners = [single]
            names = ", ".join(render.mention(int(w)) for w in winners if int(w) != 0)
            how = f"has ended: won by {names}" if names else "has ended"
        row = snapshot.row
        where = (
            f" https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.message_id}"
            if row.message_id is not None
            else f" <#{row.channel_id}>"
        )
        return f"🔔 {title} {how}.{where}"

    async def _lobby_click(self, interaction: discord.Interaction[Any], cid: ComponentId) -> None:
        actor = actor_of(interaction)
        if cid.verb == "join":
            outcome = await self.service.join(cid.table, actor)
        elif cid.verb == "leave":
            outcome = await self.service.leave(cid.table, actor)
        elif cid.verb == "start":
            outcome = await self.service.start(cid.table, actor)
        elif cid.verb == "accept":
            outcome = await self.service.accept(cid.table, actor)
        elif cid.verb == "computer":
            outcome = await self.service.add_computer(cid.table, actor)
        elif cid.verb == "uncomputer":
            outcome = await self.service.remove_computer(cid.table, actor)
        else:  # cancel, or an invitee's decline
            outcome = await self.service.cancel(cid.table, actor)
        await self.answer(interaction, outcome)

    async def answer(
        self,
        interaction: discord.Interaction[Any],
        outcome: Outcome,
        *,
        confirm: str | None = None,
    ) -> None:
        """Show an outcome that is already saved: through the click's own response when
        the click came from the table message (one request instead of two), otherwise by
        a coalesced edit. `confirm` is a private word to the member who acted.

        Nothing here may claim "nothing was changed": if Discord fails, the member is told
        their action stands and the message is repaired.
        """
        snapshot = outcome.snapshot
        on_table_message = (
            interaction.message is not None and interaction.message.id == snapshot.row.message_id
        )
        shown = True
        if on_table_message and not interaction.response.is_done():
            payload = self.render(snapshot)
            try:
                await self._edit_through(interaction, snapshot, payload)
                if snapshot.id in self._editing:
                    # A refresh drawn from an earlier read may land after this edit: it
                    # edits once more with the table as it then is.
                    self._dirty.add(snapshot.id)
            except discord.HTTPException as error:
                log.warning("table %s: answering a click failed: %s", snapshot.id, describe(error))
                # Answered already (the deferral timer got there first): the click is
                # acknowledged and the refresh below shows the table, nothing went wrong
                # for the member. Anything else: they are told their action stands.
                shown = error.code == ALREADY_ACKNOWLEDGED
                self.schedule_refresh(snapshot.id, force=True)
        else:
            self.schedule_refresh(snapshot.id)
        try:
            await self.ui(snapshot.spec.name).after(outcome, interaction)
        except Exception as error:
            log_failure(log, "table %s: private follow-ups failed", snapshot.id, error=error)
            shown = False
        try:
            if not shown:
                note = (
                    SAVED_BUT_NOT_SHOWN if confirm is None else f"{confirm}\n{SAVED_BUT_NOT_SHOWN}"
                )
                await send_ephemeral(interaction, note)
            elif confirm is not None:
                await send_ephemeral(interaction, confirm)
            if not interaction.response.is_done():
                if interaction.type == discord.InteractionType.component:
                    await interaction.response.defer()
                else:
                    await send_ephemeral(interaction, "Done.")
        except discord.HTTPException as error:
            log.warning(
                "table %s: the action was saved but its answer failed: HTTP %s",
                snapshot.id,
                error.status,
            )
        if not snapshot.row.live:
            self.ended(snapshot)

    def ended(self, snapshot: TableSnapshot[Any, Any]) -> None:
        """A table has just ended (its last outcome is shown): forget it, tell its
        watchers, and attach its replay page to its message."""
        self.forget(snapshot.id, snapshot.spec.name)
        self._spawn(self.tell_watchers(snapshot), f"tanzaku-watchers-{snapshot.id}")
        if snapshot.state is not None and snapshot.row.message_id is not None:
            self._spawn(self.attach_replay(snapshot), f"tanzaku-replay-{snapshot.id}")

    async def attach_replay(self, snapshot: TableSnapshot[Any, Any]) -> None:
        """The replay page (cogs/_ui/replay.py) as the ended table's one attachment (in
        place of a picture of play), with the final text, so this edit also repairs a
        final edit that failed. Later edits of the message leave its attachments alone
        (:meth:`Payload.edit_kwargs`). The page is also one /verify away, so a failure
        here is only logged."""
        from cogs._ui.replay import replay_file

        row = snapshot.row
        assert row.message_id is not None
        try:
            page = await replay_file(self.bot, row.id, row.guild_id)
            if page is None:
                log.warning("table %s: its replay page is past Discord's file limit", row.id)
            channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
            final = self.render(snapshot).as_kwargs()
            attachments = [page] if page is not None else []
            await channel.get_partial_message(row.message_id).edit(**final, attachments=attachments)
        except discord.HTTPException as error:
            log.warning("table %s: its replay page was not attached: HTTP %s", row.id, error.status)
        except Exception as error:
            log_failure(log, "table %s: its replay page could not be built", row.id, error=error)

    async def refuse(
        self, interaction: discord.Interaction[Any], error: UserFacingError | None
    ) -> None:
        text = str(error) if error is not None else APOLOGY
        await self._tell(interaction, text)

    async def refuse_stale(
        self, interaction: discord.Interaction[Any], table_id: int, error: UserFacingError
    ) -> None:
        """A click from an outdated message: refuse it, and bring the message up to date
        so the next click is not refused too (an edit that failed earlier leaves a message
        a round behind until something else edits it)."""
        self._last_sent.pop(table_id, None)
        try:
            snapshot = await self.service.snapshot(table_id)
        except UserFacingError:
            await self.refuse(interaction, error)
            return
        from_table_message = (
            interaction.message is not None and interaction.message.id == snapshot.row.message_id
        )
        if from_table_message and not interaction.response.is_done():
            payload = self.render(snapshot)
            try:
                await self._edit_through(interaction, snapshot, payload)
            except discord.HTTPException as failure:
                log.warning("table %s: stale refresh failed: HTTP %s", table_id, failure.status)
        else:
            self.schedule_refresh(table_id, force=True)
        await self.refuse(interaction, error)

    async def apologise(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        saved: bool,
        *,
        error: BaseException | None = None,
    ) -> None:
        """After an unexpected failure: "nothing was changed" only if nothing was. A
        failure of Discord itself (it refused something the click sent) cannot tell
        whether the handler had already done its work, so it never says nothing was."""
        if saved:
            self.schedule_refresh(table_id, force=True)
            await self._tell(interaction, SAVED_BUT_NOT_SHOWN)
        elif isinstance(error, discord.HTTPException):
            self.schedule_refresh(table_id, force=True)
            await self._tell(interaction, ANSWER_REFUSED)
        else:
            await self._tell(interaction, APOLOGY)

    async def deliver_notice(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """A private message that could not be sent as a DM is shown on the next click."""
        notice = await self.service.take_notice(interaction.user.id, table_id)
        if notice is not None:
            await send_ephemeral(
                interaction,
                "Your direct messages are closed, so here is what I tried to send you:\n\n"
                + notice,
            )

    # -- updates not caused by a click on the table message ------------------------------------

    def schedule_refresh(self, table_id: int, *, force: bool = False) -> None:
        """Edit the table message soon; `force` when what Discord shows is in doubt (a
        failed edit), so the edit is not skipped as unchanged."""
        if force:
            self._last_sent.pop(table_id, None)
        self._spawn(self.refresh(table_id), f"tanzaku-refresh-{table_id}")

    async def refresh(self, table_id: int) -> None:
        """Edit the table message to show the table as it is now.

        Edits are coalesced: while one edit of a table is in flight, further requests only
        mark it dirty, and one more edit with the then-current state follows. A burst of
        deadlines and private bids thus costs a channel two edits, not one per change.
        """
        if table_id in self._editing:
            self._dirty.add(table_id)
            return
        self._editing.add(table_id)
        ended: str | None = None  # the table's game, once a read found the table ended
        try:
            while True:
                self._dirty.discard(table_id)
                snapshot = await self.service.snapshot(table_id)
                await self._edit(snapshot)
                ended = None if snapshot.row.live else snapshot.spec.name
                if table_id not in self._dirty:
                    break
        except Exception as error:
            log_failure(log, "could not refresh table %s", table_id, error=error)
        finally:
            self._editing.discard(table_id)
            self._dirty.discard(table_id)
        ended = self._ending.pop(table_id, ended)
        if ended is not None:
            self.forget(table_id, ended)

    async def _edit(self, snapshot: TableSnapshot[Any, Any]) -> None:
        if snapshot.row.message_id is None:
            return
        channel = self.bot.get_partial_messageable(
            snapshot.row.channel_id, guild_id=snapshot.row.guild_id
        )
        message = channel.get_partial_message(snapshot.row.message_id)
        payload = self.render(snapshot)
        # An edit that changes nothing visible is skipped: it would cost a request, and
        # its mere timing could tell watchers that a secret (a bid) was changed.
        fingerprint = payload.fingerprint()
        if self._last_sent.get(snapshot.id) == fingerprint:
            return
        for delay in (*EDIT_RETRY_DELAYS, None):
            try:
                # Built afresh for each attempt: an upload's file is read once.
                shown = self._pictures.get(snapshot.id)
                await message.edit(**payload.edit_kwargs(shown, ended=not snapshot.row.live))
                break
            except discord.NotFound:
                await self._repost(snapshot, payload)
                return
            except discord.Forbidden as error:
                log.warning(
                    "table %s: not allowed to edit its message: %s", snapshot.id, error.code
                )
                return
            except discord.HTTPException as error:
                if delay is None or error.status < 500:
                    log.warning(
                        "table %s: giving up on editing its message: HTTP %s",
                        snapshot.id,
                        error.status,
                    )
                    return
                await asyncio.sleep(delay)
        self._shown(snapshot, payload, fingerprint)
        self.edits_sent += 1

    async def _repost(self, snapshot: TableSnapshot[Any, Any], payload: Payload) -> None:
        """A live table whose message was deleted gets a new one, so play can go on."""
        if not snapshot.row.live:
            self._shown(snapshot, payload)
            return
        log.warning(
            "table %s lost its message %s; posting it again", snapshot.id, snapshot.row.message_id
        )
        channel = self.bot.get_partial_messageable(
            snapshot.row.channel_id, guild_id=snapshot.row.guild_id
        )
        try:
            message = await channel.send(**payload.send_kwargs())
        except discord.HTTPException as error:
            log.warning(
                "table %s: could not post its message again: HTTP %s", snapshot.id, error.status
            )
            return
        self._shown(snapshot, payload)
        await self.service.set_message(snapshot.id, message.id)
        self.edits_sent += 1

    async def on_deadline_outcome(self, outcome: Outcome) -> None:
        await self.refresh(outcome.snapshot.id)
        # Every outcome of a game in play, the one that ends it included (a deadline the
        # game could not take ends it too): private panels must not keep live buttons.
        if outcome.snapshot.state is not None:
            await self.ui(outcome.snapshot.spec.name).after(outcome, None)
        if not outcome.snapshot.row.live:
            self.ended(outcome.snapshot)


async def install_game(
    bot: TanzakuBot,
    ui_type: type[GameUI],
    cog_type: Callable[[TanzakuBot, Any], commands.Cog],
) -> None:
    """What every game extension's `setup` does: attach the UI to a game of the bot's
    catalog (bot/catalog.py) and add the game's cog. The table service already hosts the
    catalog's games; a UI for a game the catalog does not list is refused, so the bot
    does not start with buttons no engine answers."""
    if ui_type.game not in bot.catalog:
        raise UnknownGame(
            f"{ui_type.__module__} attaches a UI to the game {ui_type.game!r}, which the "
            f"bot's catalog does not list (it lists {', '.join(bot.catalog.names())}): add "
            "the game's record to bot/catalog.py."
        )
    hub = TableHub.of(bot)
    ui = ui_type(hub)
    hub.register(ui)
    await bot.add_cog(cog_type(bot, ui))


class UnknownGame(Exception):
    """A cog extension for a game the bot's catalog does not list."""


def is_moderator(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server, as Discord computed it for this interaction (the member's roles, the
    owner and Administrator included; empty in a DM) — the permissions the command checks
    use too. Not ``Member.guild_permissions``: that is worked out from the guild's cached
    roles, which are missing while a guild is unavailable or not yet loaded."""
    permissions = getattr(interaction, "permissions", None)
    if permissions is None:
        return False
    # Discord sends every bit for an Administrator; the second test is a belt and braces.
    return bool(permissions.manage_guild or permissions.administrator)


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    """The member behind an interaction, as the table service checks them."""
    return Actor(interaction.user.id, is_moderator(interaction))


async def send_ephemeral(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """Answer privately, whether or not the interaction was already answered."""
    kwargs: dict[str, Any] = {"ephemeral": True}
    if content is not None:
        kwargs["content"] = render.clip(content, 2000)
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    await respond(interaction, **kwargs)
