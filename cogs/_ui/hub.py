"""Where a click becomes an action and an outcome becomes a message.

Every click on a table component (:mod:`cogs._ui.primitives`), and every form opened from
one, is answered by :meth:`TableHub.on_interaction` from its custom id alone: on any
message — one sent before a restart, one edited since the member saw it — and after any
restart or form timeout. Lobby verbs are handled for every game alike; game verbs go to
the game's UI (:class:`cogs._ui.face.GameFace`), which its cog registers.

Calls run one way: the hub routes a click down (to the lobby's verbs or to the game's
UI), every route returns an :data:`~cogs._ui.face.Answer`, and the hub answers it
(:meth:`TableHub.answer`). Nothing the hub is made of calls it back: drawing the lobby is
:mod:`cogs._ui.lobby`'s, keeping each message in step with its table its member
:attr:`TableHub.sync`'s (:class:`cogs._ui.sync.MessageSync`), on which the game UIs are
built.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any

import discord
from pydantic import BaseModel

from bot import rules_text
from bot.errors import NotAllowed, StaleAction, UserFacingError, explain
from bot.i18n import _, use_locale
from bot.interactions import (
    acknowledge_if_slow,
    answer_dropped_click,
    answer_taken,
    note_refusal,
)
from bot.safe_log import describe, log_failure
from bot.service import Outcome, TableService, TableSnapshot, TableStatus, saved_writes
from cogs._ui.custom_ids import ComponentId
from cogs._ui.face import Acted, Answer, GameFace, Redraw
from cogs._ui.lobby import (
    add_fairness,
    mark_cancelled,
    render_cancelled,
    render_lobby,
    with_watch,
)
from cogs._ui.notify import Notifier, Ping, challenge_note
from cogs._ui.primitives import (
    APOLOGY,
    FORM_ALIVE,
    FORM_EXPIRED,
    RULES_TABLE,
    SAVED_BUT_NOT_SHOWN,
    Payload,
    actor_of,
    answer_failure,
    log_click_failure,
    send_ephemeral,
    tell,
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


EndedListener = Callable[["TableHub", TableSnapshot[Any, Any]], Coroutine[Any, Any, None]]
"""Work for a table that has just ended (tell its watchers, attach its replay page)."""


class TableHub:
    """Every table message: every click on it routed to the lobby or to its game's UI,
    and answered. Keeping the message in step with its table is its member
    :attr:`sync`'s; what a game shows and does is its UI's."""

    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot
        # Looked up at each call, so a render wrapped later (a benchmark's timer) is used.
        self.sync = MessageSync(
            bot, render=lambda snapshot: self.render(snapshot), forget_game=self.forget_game
        )
        """Keeps every table message in step with its table; what the game UIs are built
        on (:class:`cogs._ui.face.UIHost`)."""
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

    @property
    def service(self) -> TableService:
        return self.bot.tables

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
            payload.view = with_watch(payload.view, snapshot.id)
        return payload

    def _render(self, snapshot: TableSnapshot[Any, Any]) -> Payload:
        name = snapshot.spec.name
        if snapshot.status == TableStatus.LOBBY:
            return render_lobby(snapshot, self.ui(name), computers=self.service.has_computer(name))
        known = self.games.get(name)
        has_dice = known is None or known.has_dice
        if snapshot.status == TableStatus.CANCELLED and snapshot.state is None:
            return render_cancelled(snapshot, has_dice=has_dice)
        payload = self.ui(name).render_game(snapshot, snapshot.recent_events)
        if snapshot.status == TableStatus.CANCELLED:
            mark_cancelled(payload)
        add_fairness(payload.embed, snapshot, has_dice=has_dice)
        return payload

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
        """Open a table in the command's channel and post its message (the command's own
        answer); a message that cannot be posted withdraws the table."""
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
            mentions = await self._challenge(interaction, table, invitee_id, payload)
        try:
            message = await self._post(interaction, payload, mentions)
        except discord.HTTPException as error:
            return await self._withdraw(interaction, table, error)
        await self.service.set_message(table, message.id)
        if outcome.snapshot.state is not None:
            # Started as it opened (against the computer): the player's private panel.
            await self.ui(game).after(outcome, interaction)
            await self.notify(outcome, interaction.user.id)
        return outcome

    async def _challenge(
        self,
        interaction: discord.Interaction[Any],
        table: int,
        invitee_id: int,
        payload: Payload,
    ) -> discord.AllowedMentions:
        """A challenge is a member's ping to another: theirs to switch off, and one a pair
        in a while (:meth:`Notifier.may_ping`). Says so on ``payload``; the mentions the
        message may make."""
        assert interaction.guild_id is not None
        try:
            ping = await self.notifier.may_ping(
                interaction.guild_id, interaction.user.id, invitee_id
            )
        except Exception as error:
            # Unsure whether they may be pinged: they are not (the challenge stands).
            log_failure(log, "table %s: could not check a challenge's ping", table, error=error)
            ping = Ping.UNKNOWN
        mentions = discord.AllowedMentions.none()
        if ping is Ping.YES:
            mentions = discord.AllowedMentions(users=[discord.Object(invitee_id)])
        with use_locale(self.bot.languages.server(interaction.guild_id)):
            note = challenge_note(ping, invitee_id)
        if note is not None:
            payload.content = f"{payload.content}\n{note}"
        return mentions

    async def _withdraw(
        self, interaction: discord.Interaction[Any], table: int, error: discord.HTTPException
    ) -> Outcome:
        """Nobody can see or join a table without its message: undo it, truthfully."""
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
                await self.answer(interaction, await self._route(interaction, cid, values))
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
    ) -> Answer:
        if cid.verb == "rules" and cid.arg:
            await self._rules_click(interaction, cid)
            return None
        if cid.verb == "watch":
            await self._watch_click(interaction, cid)
            return None
        if cid.verb in LOBBY_VERBS:
            return await self._lobby_click(interaction, cid)
        game = await self.service.game_of(cid.table)
        return await self.ui(game).click(interaction, cid, values)

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

    async def _lobby_click(self, interaction: discord.Interaction[Any], cid: ComponentId) -> Acted:
        actor = actor_of(interaction)
        if cid.verb == "join":
            outcome = await self.service.join(cid.table, actor)
        elif cid.verb == "leave":
            outcome = await self.service.leave(cid.table, actor)
            ui = self.games.get(outcome.snapshot.spec.name)
            return Acted(outcome, ui.left_word(outcome, actor.user_id) if ui is not None else None)
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
        return Acted(outcome)

    # -- answering ------------------------------------------------------------------------------

    async def answer(self, interaction: discord.Interaction[Any], answer: Answer) -> None:
        """Answer what a click (or a command acting at a table) returned: an outcome
        shown (:meth:`show`), the table message redrawn with other controls, or nothing
        more when the member was already answered privately."""
        if isinstance(answer, Acted):
            await self.show(interaction, answer.outcome, confirm=answer.confirm)
        elif isinstance(answer, Redraw):
            payload = self.render(answer.snapshot)
            payload.view = answer.view
            await interaction.response.edit_message(**payload.as_kwargs())

    async def show(
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
        shown = await self._show_table(interaction, snapshot)
        try:
            await self.ui(snapshot.spec.name).after(outcome, interaction)
        except Exception as error:
            log_failure(log, "table %s: private follow-ups failed", snapshot.id, error=error)
            shown = False
        interaction.extras[ACTED] = True
        await self.notify(outcome, interaction.user.id)
        await self._confirm(interaction, snapshot, confirm, shown=shown)
        if not snapshot.row.live:
            self.ended(snapshot)

    async def _show_table(
        self, interaction: discord.Interaction[Any], snapshot: TableSnapshot[Any, Any]
    ) -> bool:
        """The table message brought up to date; False when Discord refused the edit (a
        refresh then repairs it)."""
        on_table_message = (
            interaction.message is not None and interaction.message.id == snapshot.row.message_id
        )
        if not on_table_message or interaction.response.is_done():
            self.sync.schedule_refresh(snapshot.id)
            return True
        payload = self.render(snapshot)
        try:
            await self.sync.edit_through(interaction, snapshot, payload)
            self.sync.edited_meanwhile(snapshot.id)
        except discord.HTTPException as error:
            log.warning("table %s: answering a click failed: %s", snapshot.id, describe(error))
            # They are told their action stands, and the refresh shows it.
            self.sync.schedule_refresh(snapshot.id, force=True)
            return False
        return True

    async def _confirm(
        self,
        interaction: discord.Interaction[Any],
        snapshot: TableSnapshot[Any, Any],
        confirm: str | None,
        *,
        shown: bool,
    ) -> None:
        """The member's private word, with the truth when the table could not show their
        action; a click not answered yet is acknowledged."""
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
        self.sync.forget(snapshot.id, snapshot.spec.name)
        for name, listener in self.ended_listeners:
            self.sync.spawn(listener(self, snapshot), f"tanzaku-{name}-{snapshot.id}")

    def forget_game(self, table_id: int, game: str) -> None:
        ui = self.games.get(game)
        if ui is not None:
            ui.forget(table_id)
        # Here or in another process: the notices of an ended table go (each once).
        self.sync.spawn(self.notifier.forget(table_id), f"tanzaku-unnotify-{table_id}")

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
        self.sync.forget_shown(table_id)
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
                await self.sync.edit_through(interaction, snapshot, payload)
            except discord.HTTPException as failure:
                log.warning("table %s: stale refresh failed: HTTP %s", table_id, failure.status)
        else:
            self.sync.schedule_refresh(table_id, force=True)
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
        if saved or isinstance(error, discord.HTTPException):
            self.sync.schedule_refresh(table_id, force=True)
        await answer_failure(interaction, saved, error=error)

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
        await self.sync.refresh(outcome.snapshot.id)
        # Every outcome of a game in play, the one that ends it included (a deadline the
        # game could not take ends it too): private panels must not keep live buttons.
        if outcome.snapshot.state is not None:
            await self.ui(outcome.snapshot.spec.name).after(outcome, None)
        await self.notify(outcome, outcome.actor)
        if not outcome.snapshot.row.live:
            self.ended(outcome.snapshot)
