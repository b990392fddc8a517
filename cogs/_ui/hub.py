"""Where a click becomes an action and an outcome becomes a message.

Every click on a table component (:mod:`cogs._ui.primitives`), and every form opened from
one, is answered by :meth:`TableHub.on_interaction` from its custom id alone: on any
message — one sent before a restart, one edited since the member saw it — and after any
restart or form timeout. Lobby verbs are handled for every game alike; game verbs go to
the game's UI (:class:`cogs._ui.game.Game`), which its cog registers. Keeping each
message in step with its table is :class:`cogs._ui.sync.MessageSync`'s.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord
from pydantic import BaseModel

from bot import rules_text
from bot.errors import NotAllowed, StaleAction, UserFacingError, explain
from bot.games.common import is_computer
from bot.i18n import _, use_locale
from bot.interactions import (
    acknowledge_if_slow,
    answer_dropped_click,
    answer_taken,
    note_failure,
    note_refusal,
)
from bot.safe_log import describe, log_failure
from bot.service import Outcome, TableSnapshot, TableStatus, saved_writes
from cogs._ui import render
from cogs._ui.custom_ids import ComponentId
from cogs._ui.notify import Notifier, Ping, challenge_note
from cogs._ui.primitives import (
    ANSWER_REFUSED,
    APOLOGY,
    FORM_ALIVE,
    FORM_EXPIRED,
    RULES_TABLE,
    SAVED_BUT_NOT_SHOWN,
    WATCH_ROW,
    Payload,
    TableComponent,
    actor_of,
    button,
    log_click_failure,
    send_ephemeral,
    tell,
    view_of,
)
from cogs._ui.rules_pages import rules_page
from cogs._ui.sync import MessageSync

if TYPE_CHECKING:
    from bot.app import TanzakuBot

log = logging.getLogger(__name__)

ACTED = "tanzaku_acted"
"""An interaction's extras key: its click acted (its turn notices are already updated)."""

LOBBY_VERBS = frozenset(
    {"join", "leave", "start", "cancel", "accept", "decline", "computer", "uncomputer"}
)


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
    ) -> None: ...

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


EndedListener = Callable[["TableHub", TableSnapshot[Any, Any]], Coroutine[Any, Any, None]]
"""Work for a table that has just ended (tell its watchers, attach its replay page)."""


class TableHub(MessageSync):
    """Every table message: its lobby and frame drawn, every click on it routed to the
    lobby or to its game's UI, and answered. Keeping the message in step with its table is
    :class:`MessageSync`'s; what a game shows and does is its UI's."""

    def __init__(self, bot: TanzakuBot) -> None:
        super().__init__(bot)
        self.games: dict[str, GameFace] = {}
        self.ended_listeners: list[tuple[str, EndedListener]] = []
        """Run (each as its own task) once a table's last outcome is shown."""
        bot.tables.deadline_listeners.append(self.on_deadline_outcome)
        self.notifier = Notifier(bot, self.games.get)
        """Tells a member the table has waited on them a while, in a way Discord notifies."""

    @classmethod
    def of(cls, bot: TanzakuBot) -> TableHub:
        """The bot's one hub, made on first use."""
        hub = bot.table_hub
        if not isinstance(hub, TableHub):
            hub = cls(bot)
            bot.table_hub = hub
        return hub

    def register(self, ui: GameFace) -> None:
        self.games[ui.game] = ui

    def ui(self, game: str) -> GameFace:
        ui = self.games.get(game)
        if ui is None:
            raise NotAllowed("That game is not available on this bot right now.")
        return ui

    # -- rendering ---------------------------------------------------------------------------

    def render(self, snapshot: TableSnapshot[Any, Any]) -> Payload:
        """The table message. Content is always set (even to empty) so an invitation's
        mention does not linger once the challenge is answered.

        Everyone sees it: drawn in the server's language, whoever's click drew it."""
        with use_locale(self.bot.languages.server(snapshot.row.guild_id)):
            return self.draw(snapshot)

    def draw(self, snapshot: TableSnapshot[Any, Any]) -> Payload:
        """:meth:`render` in the language in effect (a replay page for whoever asked)."""
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
        watch = button(table, 0, "watch", _("Watch"), emoji="🔔", row=WATCH_ROW)
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
                _(
                    "**Cancelled** — results already settled stand; every coin still at stake "
                    "came back or, on a round in play, was settled at its exact value."
                )
                + "\n"
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
                _(
                    "{host} challenges {invitee}!",
                    host=render.mention(snapshot.row.host_id),
                    invitee=render.mention(invitee),
                )
            ]
        else:
            lines = [
                _(
                    "Host: {host} · players: {need}",
                    host=render.mention(snapshot.row.host_id),
                    need=need,
                )
            ]
        ui = self.ui(spec.name)
        held = ui.hold_line(snapshot) if snapshot.hold else None
        if held:
            lines.append(held)
        lines.extend(ui.describe_rules(snapshot))
        if snapshot.deadline is not None:
            lines.append(
                _(
                    "Expires {when} unless started.",
                    when=render.timestamp(snapshot.deadline.due_at),
                )
            )
        embed = discord.Embed(
            title=_("{game} — table #{table} (lobby)", game=_(spec.title), table=str(snapshot.id)),
            description="\n".join(lines),
            colour=discord.Colour(render.COLOUR_LOBBY),
        )
        seats = "\n".join(
            f"{number}. {render.mention(user)}" for number, user in enumerate(snapshot.seats, 1)
        )
        embed.add_field(
            name=_("Seats ({seated}/{most})", seated=len(snapshot.seats), most=most),
            value=seats or "—",
        )
        self.add_fairness(embed, snapshot)
        table = snapshot.id
        if invitee is not None:
            view = view_of(
                button(table, 0, "accept", _("Accept"), style=discord.ButtonStyle.success),
                button(table, 0, "decline", _("Decline"), style=discord.ButtonStyle.danger),
                self.rules_button(table, spec.name),
            )
            return Payload(embed, view, content=render.mention(invitee))
        computers: list[TableComponent] = []
        if self.service.has_computer(spec.name):
            # The host's alone (checked by the table service): fill a seat with the computer.
            computers.append(button(table, 0, "computer", _("Add computer"), emoji="🤖"))
            if any(is_computer(seat) for seat in snapshot.seats):
                computers.append(button(table, 0, "uncomputer", _("Remove computer")))
        view = view_of(
            button(table, 0, "join", _("Join"), style=discord.ButtonStyle.success),
            button(table, 0, "leave", _("Leave")),
            button(table, 0, "start", _("Start"), style=discord.ButtonStyle.primary),
            button(table, 0, "cancel", _("Cancel"), style=discord.ButtonStyle.danger),
            self.rules_button(table, spec.name),
            *computers,
        )
        return Payload(embed, view)

    @staticmethod
    def rules_button(table: int, game: str) -> TableComponent:
        """Opens the game's rules privately, without touching the table message."""
        return button(table, 0, "rules", _("Rules"), arg=game, emoji="📜")

    def render_cancelled(self, snapshot: TableSnapshot[Any, Any]) -> Payload:
        embed = discord.Embed(
            title=_(
                "{game} — table #{table} (closed)",
                game=_(snapshot.spec.title),
                table=str(snapshot.id),
            ),
            description=_("This table closed before play began; every stake was refunded."),
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
            text = _(
                "Fair dice — seed `{seed}` (SHA-256 `{commitment}…`). "
                "Check every roll with /verify table:{table}",
                seed=row.seed_hex,
                commitment=row.commitment[:16],
                table=str(row.id),
            )
        else:
            text = _(
                "Fair dice — commitment SHA-256 `{commitment}`; seed revealed at the end.",
                commitment=row.commitment,
            )
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
        payload = self.render(outcome.snapshot)
        mentions = discord.AllowedMentions.none()
        if invitee_id is not None:
            # A challenge is a member's ping to another: theirs to switch off, and one a
            # pair in a while (:meth:`Notifier.may_ping`).
            try:
                ping = await self.notifier.may_ping(
                    interaction.guild_id, interaction.user.id, invitee_id
                )
            except Exception as error:
                # Unsure whether they may be pinged: they are not (the challenge stands).
                log_failure(log, "table %s: could not check a challenge's ping", table, error=error)
                ping = Ping.UNKNOWN
            if ping is Ping.YES:
                mentions = discord.AllowedMentions(users=[discord.Object(invitee_id)])
            with use_locale(self.bot.languages.server(interaction.guild_id)):
                note = challenge_note(ping, invitee_id)
            if note is not None:
                payload.content = f"{payload.content}\n{note}"
        try:
            message = await self._post(interaction, payload, mentions)
        except discord.HTTPException as error:
            # Nobody can see or join a table without its message: undo it, truthfully.
            log.warning("could not post table %s's message: HTTP %s", table, error.status)
            withdrawn = await self.service.withdraw(table)
            await tell(
                interaction,
                _(
                    "I could not post the table message in this channel (Discord answered "
                    "{status}), so table #{table} is cancelled and your stake, if any, is "
                    "back in your wallet. Check that I may send messages, embeds and files here.",
                    status=str(error.status),
                    table=str(table),
                ),
            )
            return withdrawn
        await self.service.set_message(table, message.id)
        if outcome.snapshot.state is not None:
            # Started as it opened (against the computer): the player's private panel.
            await self.ui(game).after(outcome, interaction)
            await self.notify(outcome, interaction.user.id)
        return outcome

    async def _post(
        self,
        interaction: discord.Interaction[Any],
        payload: Payload,
        mentions: discord.AllowedMentions,
    ) -> discord.Message | discord.PartialMessage:
        """The table message: the command's own answer, or a channel message when the
        command was already deferred (privately) because the table took long to open.
        Decided with no await before the request sets off, so the deferral's timer cannot
        slip in between: a public message never becomes the deferral's private followup."""
        if not answer_taken(interaction):
            await interaction.response.send_message(
                **payload.send_kwargs(), allowed_mentions=mentions
            )
            return await interaction.original_response()
        assert interaction.channel_id is not None
        channel = self.bot.get_partial_messageable(
            interaction.channel_id, guild_id=interaction.guild_id
        )
        message = await channel.send(**payload.send_kwargs(), allowed_mentions=mentions)
        await tell(interaction, _("Your table is open: {link}", link=message.jump_url))
        return message

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every click on a table component and every form opened from one (its custom
        id is the opening button's), answered from the custom id alone.

        discord.py dispatches ``on_interaction`` exactly once for each interaction, so
        this is the one place they are answered: whether or not the clicked id is still
        on the message (a click made as an edit replaced the buttons gets the stale
        answer, or its action when its ply is still the table's), and whether or not the
        form object is still in memory (after a restart or its timeout). A click on any
        other bot component that an edit took off its message is answered here too
        (:func:`answer_dropped_click`): one listener, one task per interaction."""
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
            else:
                await self._answer_dropped_click(interaction)
            return
        raw_values: Any = data.get("values") or []
        values = [str(value) for value in raw_values]
        try:
            await self.dispatch(interaction, cid, values)
        except Exception as error:
            # Never let the library log this interaction: a button's label, a form's
            # value may be a bid.
            log_click_failure("a %r %s at table %s failed", cid.verb, kind, cid.table, error=error)

    async def _answer_dropped_click(self, interaction: discord.Interaction[Any]) -> None:
        # Every click gets an answer, also one on a button an edit just removed.
        try:
            await answer_dropped_click(interaction, self.bot.dynamic_item_types)
        except Exception as error:
            log_click_failure("a click on a removed component failed", error=error)

    async def _answer_expired_form(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await send_ephemeral(interaction, _(FORM_EXPIRED))
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
        if not interaction.extras.get(ACTED) and cid.verb not in LOBBY_VERBS:
            # A click that did not act (their hand, a panel, the rules) shows the member
            # is at the table: their wait starts again, a notice posted goes.
            try:
                await self.notifier.seen(cid.table, interaction.user.id)
            except Exception as error:
                log_click_failure("turn notices at table %s failed", cid.table, error=error)

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
            text = _(
                "🔔 You will get one DM when table #{table} ends, with its result. "
                "Press Watch again to stop.",
                table=str(cid.table),
            )
        else:
            text = _("You no longer watch table #{table}.", table=str(cid.table))
        await send_ephemeral(interaction, text)

    async def _lobby_click(self, interaction: discord.Interaction[Any], cid: ComponentId) -> None:
        actor = actor_of(interaction)
        if cid.verb == "join":
            outcome = await self.service.join(cid.table, actor)
        elif cid.verb == "leave":
            outcome = await self.service.leave(cid.table, actor)
            ui = self.games.get(outcome.snapshot.spec.name)
            confirm = ui.left_word(outcome, actor.user_id) if ui is not None else None
            await self.answer(interaction, outcome, confirm=confirm)
            return
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
                # They are told their action stands, and the refresh shows it.
                shown = False
                self.schedule_refresh(snapshot.id, force=True)
        else:
            self.schedule_refresh(snapshot.id)
        try:
            await self.ui(snapshot.spec.name).after(outcome, interaction)
        except Exception as error:
            log_failure(log, "table %s: private follow-ups failed", snapshot.id, error=error)
            shown = False
        interaction.extras[ACTED] = True
        await self.notify(outcome, interaction.user.id)
        try:
            if not shown:
                saved = _(SAVED_BUT_NOT_SHOWN)
                note = saved if confirm is None else f"{confirm}\n{saved}"
                await send_ephemeral(interaction, note)
            elif confirm is not None:
                await send_ephemeral(interaction, confirm)
            if not interaction.response.is_done():
                if interaction.type == discord.InteractionType.component:
                    await interaction.response.defer()
                else:
                    await send_ephemeral(interaction, _("Done."))
        except discord.HTTPException as error:
            log.warning(
                "table %s: the action was saved but its answer failed: HTTP %s",
                snapshot.id,
                error.status,
            )
        if not snapshot.row.live:
            self.ended(snapshot)

    async def notify(self, outcome: Outcome, actor: int | None) -> None:
        """Turn notifications after an outcome is shown (:mod:`cogs._ui.notify`); a
        failure there never touches the answer to the click."""
        try:
            await self.notifier.after(outcome, actor)
        except Exception as error:
            log_failure(
                log, "table %s: turn notifications failed", outcome.snapshot.id, error=error
            )

    def ended(self, snapshot: TableSnapshot[Any, Any]) -> None:
        """A table has just ended (its last outcome is shown): forget it, and start the
        work its end brings (:attr:`ended_listeners`: its watchers told, its replay page
        attached, :mod:`cogs._ui.endings`)."""
        self.forget(snapshot.id, snapshot.spec.name)
        for name, listener in self.ended_listeners:
            self._spawn(listener(self, snapshot), f"tanzaku-{name}-{snapshot.id}")

    def forget_game(self, table_id: int, game: str) -> None:
        ui = self.games.get(game)
        if ui is not None:
            ui.forget(table_id)
        # Here or in another process: the notices of an ended table go (each once).
        self._spawn(self.notifier.forget(table_id), f"tanzaku-unnotify-{table_id}")

    async def refuse(
        self, interaction: discord.Interaction[Any], error: UserFacingError | None
    ) -> None:
        text = explain(error) if error is not None else _(APOLOGY)
        if error is not None:
            note_refusal(interaction, error.reason)
        await tell(interaction, text)

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
        note_failure(interaction, "error")
        if saved:
            self.schedule_refresh(table_id, force=True)
            await tell(interaction, _(SAVED_BUT_NOT_SHOWN))
        elif isinstance(error, discord.HTTPException):
            self.schedule_refresh(table_id, force=True)
            await tell(interaction, _(ANSWER_REFUSED))
        else:
            await tell(interaction, _(APOLOGY))

    async def deliver_notice(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        """A private message that could not be sent as a DM is shown on the next click."""
        notice = await self.service.take_notice(interaction.user.id, table_id)
        if notice is not None:
            await send_ephemeral(
                interaction,
                _("Your direct messages are closed, so here is what I tried to send you:")
                + "\n\n"
                + notice,
            )

    # -- updates not caused by a click on the table message ------------------------------------

    async def on_deadline_outcome(self, outcome: Outcome) -> None:
        await self.refresh(outcome.snapshot.id)
        # Every outcome of a game in play, the one that ends it included (a deadline the
        # game could not take ends it too): private panels must not keep live buttons.
        if outcome.snapshot.state is not None:
            await self.ui(outcome.snapshot.spec.name).after(outcome, None)
        await self.notify(outcome, outcome.actor)
        if not outcome.snapshot.row.live:
            self.ended(outcome.snapshot)
