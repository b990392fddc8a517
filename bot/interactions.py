"""Answering Discord in time: an interaction not acknowledged within 3 s fails for the
member, whatever happens after. Work that may wait (a table lock another click holds,
the database's 5 s busy timeout) is guarded so it is deferred before that happens."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.http import Route
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot.meter import NO_METER, Meter
from bot.safe_log import ALREADY_ACKNOWLEDGED, UNKNOWN_INTERACTION, describe

log = logging.getLogger(__name__)

ACKNOWLEDGE_AFTER = 2.0
"""Seconds of work before the interaction is deferred: a second of margin for the trip."""

_deferrals: set[asyncio.Task[None]] = set()

T = TypeVar("T")


class OneResponse(discord.InteractionResponse[Any]):
    """An interaction's response, taken once: the first call that sets off for Discord
    (the slow-work deferral or the interaction's own answer) is the response, decided
    before its request leaves, and every later call is decided knowing it.

    discord.py marks a response done only once Discord has taken it, so a deferral and
    an answer setting off in the same moment would each see nothing sent and both go:
    Discord refuses the second (400, code 40060). Here a call made while another is on
    its way waits for it, then is decided as if made after it: a command's or a form's
    message completes its deferred "thinking…" (as its first followup, which replaces
    it), an update of a click's message after a deferred update edits that message, and
    anything else gets discord.py's :class:`~discord.InteractionResponded` (nothing is
    sent; the caller's own "answered already" path goes on). A call made after one that
    failed is the response in its place.
    """

    __slots__ = ("_landing",)

    def __init__(self, parent: discord.Interaction[Any]) -> None:
        super().__init__(parent)
        self._landing: asyncio.Future[None] | None = None
        """The initial response on its way (resolved when Discord has answered)."""

    def is_taken(self) -> bool:
        """Whether the initial response is sent or on its way."""
        return self._landing is not None or self.is_done()

    async def landed(self) -> None:
        """Wait for the initial response on its way, if any."""
        while self._landing is not None:
            await asyncio.shield(self._landing)

    async def take(self, request: Awaitable[T]) -> T:
        """Send ``request`` (the initial response, not yet started) as the response. Call
        it with nothing on its way (after :meth:`landed`, with no await between)."""
        assert self._landing is None
        landing = self._landing = asyncio.get_running_loop().create_future()
        try:
            return await request
        finally:
            self._landing = None
            landing.set_result(None)

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> Any:
        await self.landed()
        return await self.take(super().defer(ephemeral=ephemeral, thinking=thinking))

    async def send_message(self, *args: Any, **kwargs: Any) -> Any:
        await self.landed()
        if self.type == discord.InteractionResponseType.deferred_channel_message:
            kwargs.pop("delete_after", None)  # a followup cannot delete itself
            return await self._parent.followup.send(*args, **kwargs)
        return await self.take(super().send_message(*args, **kwargs))

    async def edit_message(self, **kwargs: Any) -> Any:
        await self.landed()
        if self.type == discord.InteractionResponseType.deferred_message_update:
            return await self._parent.edit_original_response(**_as_edit(kwargs))
        return await self.take(super().edit_message(**kwargs))

    async def send_modal(self, modal: discord.ui.Modal, /) -> Any:
        await self.landed()
        return await self.take(super().send_modal(modal))

    async def autocomplete(self, choices: Any) -> None:
        await self.landed()
        await self.take(super().autocomplete(choices))

    async def pong(self) -> None:
        await self.landed()
        await self.take(super().pong())


def _as_edit(fields: dict[str, Any]) -> dict[str, Any]:
    """``edit_message``'s arguments as ``edit_original_response`` takes them."""
    return {k: v for k, v in fields.items() if k not in ("delete_after", "suppress_embeds")}


async def settled(interaction: discord.Interaction[Any]) -> None:
    """Wait for the interaction's response on its way (the deferral's, say), if any: a
    choice made on ``response.is_done()`` after this is made on what Discord has."""
    response = interaction.response
    if isinstance(response, OneResponse):
        await response.landed()


def answer_taken(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's response is sent or on its way (a deferral included):
    an answer that must be the response (a public table message) goes another way."""
    response = interaction.response
    return response.is_taken() if isinstance(response, OneResponse) else response.is_done()


@contextmanager
def acknowledge_if_slow(
    interaction: discord.Interaction[Any], *, after: float | None = None
) -> Iterator[None]:
    """Defer `interaction` if the block is still running after `after` seconds
    (:data:`ACKNOWLEDGE_AFTER` by default) and nothing has set off to answer it.

    A timer, not a task, so the common fast path costs one heap entry. A component is
    deferred as an update (the answer then edits the message); a command or a form as
    a private "thinking…", since most of their answers are private.
    """
    delay = ACKNOWLEDGE_AFTER if after is None else after
    handle = asyncio.get_running_loop().call_later(delay, _defer_later, interaction)
    try:
        yield
    finally:
        handle.cancel()


def _defer_later(interaction: discord.Interaction[Any]) -> None:
    if answer_taken(interaction):
        return  # answered, or the answer is on its way
    task = asyncio.create_task(_defer(interaction), name="tanzaku-defer")
    _deferrals.add(task)
    task.add_done_callback(_deferrals.discard)


async def _defer(interaction: discord.Interaction[Any]) -> None:
    # Decided in the same step as the request sets off (no await between): an answer
    # set off since the timer fired is the response, and nothing is deferred.
    if answer_taken(interaction):
        return
    try:
        if interaction.type == discord.InteractionType.component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(thinking=True, ephemeral=True)
    except discord.InteractionResponded:
        return
    except discord.HTTPException as error:
        # The answer path copes: it becomes the response in the deferral's place.
        log.warning("a slow interaction could not be deferred: %s", describe(error))


async def respond(interaction: discord.Interaction[Any], **kwargs: Any) -> None:
    """Send the answer: the interaction's response, or a followup once it is taken.

    Once the slow-work deferral has set off, the answer completes it
    (:class:`OneResponse`): a message that was on its way as the timer fired is the
    response, and the timer defers nothing."""
    if interaction.response.is_done():
        await _followup(interaction, **kwargs)
        return
    try:
        await interaction.response.send_message(**kwargs)
    except discord.InteractionResponded:
        await _followup(interaction, **kwargs)


async def _followup(interaction: discord.Interaction[Any], **kwargs: Any) -> None:
    try:
        await interaction.followup.send(**kwargs)
    except discord.HTTPException as error:
        note_failure(interaction, f"followup_{failure_reason(error)}")
        raise


async def answer_saved(
    interaction: discord.Interaction[Any], went_through: str, **kwargs: Any
) -> bool:
    """Answer an action that is already saved; ``True`` if the answer was delivered.

    If Discord refuses it, the member is told ``went_through`` privately (again through
    the response if it was never taken, else by a followup) — never "nothing was
    changed", which would have them do it a second time."""
    try:
        await respond(interaction, **kwargs)
        return True
    except discord.HTTPException as error:
        log.warning("the answer to a saved action failed: %s", describe(error))
    try:
        await respond(interaction, content=went_through, ephemeral=True)
    except discord.HTTPException as error:
        log.warning("could not say a saved action went through: %s", describe(error))
    return False


class GuardedTree(app_commands.CommandTree[Any]):
    """The command tree: every slash command runs under :func:`acknowledge_if_slow`."""

    async def _call(self, interaction: discord.Interaction[Any]) -> None:
        with acknowledge_if_slow(interaction):
            await super()._call(interaction)


def _still_on(message: discord.Message, component_type: int, custom_id: str) -> bool:
    """Whether discord.py will dispatch this click to its DynamicItem: it looks for the
    clicked id among the components of the message *as the interaction carries it*
    (``ViewStore.schedule_dynamic_item_call``), and does the same test here."""
    view_type = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    view = view_type.from_message(message, timeout=None)
    return any(
        item.type.value == component_type and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


async def answer_dropped_click(
    interaction: discord.Interaction[Any],
    factories: Iterable[type[discord.ui.DynamicItem[Any]]],
) -> None:
    """A click on a `DynamicItem` whose id an edit took off the message meanwhile (a page
    turned by a double click, a table moved on) is dropped by discord.py without a word,
    and Discord shows "This interaction failed". Such a click is given here to its item,
    built from the custom id alone — the same item discord.py would have called, so the
    click is answered once, by its own code. (The table components are not registered
    dynamic items: a listener of their own answers them whatever the message holds.)"""
    if interaction.type != discord.InteractionType.component or interaction.message is None:
        return
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    component_type = int(data.get("component_type", 0))
    for factory in factories:
        match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is None:
            continue
        if _still_on(interaction.message, component_type, custom_id):
            return  # discord.py calls the item itself
        base: discord.ui.Item[Any]
        if component_type == discord.ComponentType.button.value:
            base = discord.ui.Button(custom_id=custom_id)
        else:
            base = discord.ui.Select(custom_id=custom_id)
        item = await factory.from_custom_id(interaction, base, match)
        if await item.interaction_check(interaction):
            await item.callback(interaction)
        return


# -- metrics: every interaction's answer timed, and the ones that fail counted ------------

ANSWER_DEADLINE = 3.0
"""Discord's: an interaction not acknowledged within this fails for the member."""

_SELECTS = frozenset(
    {
        discord.ComponentType.select.value,
        discord.ComponentType.user_select.value,
        discord.ComponentType.role_select.value,
        discord.ComponentType.mentionable_select.value,
        discord.ComponentType.channel_select.value,
    }
)


def kind_of(interaction: discord.Interaction[Any]) -> str:
    """The interaction's kind as the metrics label it: command, click, select, form,
    autocomplete (or other)."""
    kind = interaction.type
    if kind == discord.InteractionType.application_command:
        return "command"
    if kind == discord.InteractionType.component:
        data: Any = interaction.data or {}
        return "select" if data.get("component_type") in _SELECTS else "click"
    if kind == discord.InteractionType.modal_submit:
        return "form"
    if kind == discord.InteractionType.autocomplete:
        return "autocomplete"
    return "other"


async def update_message(interaction: discord.Interaction[Any], **fields: Any) -> None:
    """``interaction.response.edit_message(**fields)`` without asking Discord to send the
    edited message back.

    discord.py asks for it on every answer (``with_response``) and builds a ``Message``
    from it, which nothing here reads: a table click answered so spends about 0.1 ms of
    CPU on Discord's copy of a message it has just written (benchmarks/loopback_latency.py).
    The request is discord.py's own (its payload builder, its webhook adapter, so its
    rate limits and retries); the response is marked done as discord.py marks it.

    After a deferral of the update (the slow-work timer's), it is the deferred message's
    edit (:class:`OneResponse`)."""
    response = interaction.response
    one = response if isinstance(response, OneResponse) else None
    if one is not None:
        await one.landed()
        if one.type == discord.InteractionResponseType.deferred_message_update:
            try:
                await interaction.edit_original_response(**fields)
            except discord.HTTPException as error:
                note_failure(interaction, failure_reason(error))
                raise
            return
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        previous_allowed_mentions=state.allowed_mentions,
        **fields,
    )
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = state.http
    request: dict[str, Any] = (
        {"files": params.files, "multipart": params.multipart}
        if params.files
        else {"payload": params.payload}
    )
    try:
        with params:  # closes a picture's file once sent (or given up on)
            sent = async_context.get().request(
                route,
                session=interaction._session,
                proxy=http.proxy,
                proxy_auth=http.proxy_auth,
                **request,
            )
            await (sent if one is None else one.take(sent))
    except discord.HTTPException as error:
        note_failure(interaction, failure_reason(error))
        raise
    response._response_type = discord.InteractionResponseType.message_update


def meter_of(interaction: discord.Interaction[Any]) -> Meter:
    """The bot's metrics (:mod:`bot.meter`); nothing recorded for a client without."""
    meter = getattr(getattr(interaction, "client", None), "meter", NO_METER)
    return meter if isinstance(meter, Meter) else NO_METER


def failure_reason(error: discord.HTTPException) -> str:
    """A bounded name for Discord refusing an answer."""
    if error.code == UNKNOWN_INTERACTION:
        return "expired"  # past its 3 s (or a followup past 15 min)
    if error.code == ALREADY_ACKNOWLEDGED:
        return "already_acknowledged"
    if error.status >= 500:
        return "discord_error"
    return "refused"


class MeteredResponse(OneResponse):
    """An interaction's response that tells the metrics when Discord acknowledged it, and
    when it did not: the one place every kind of answer passes (a command's, a click's, a
    form's, a deferral), whichever code sends it.

    discord.py marks a response done by setting ``_response_type`` once Discord has taken
    it (after the request returned): that attribute is a property here, so the moment is
    seen however the answer was sent. The methods that call Discord are wrapped to count
    the calls it refused. A timer at Discord's 3 s deadline counts an interaction nobody
    answered; it is cancelled by the answer, so a bot that answers holds no timer.
    """

    __slots__ = ("_answer", "_kind", "_meter", "_received", "_timer")

    def __init__(self, parent: discord.Interaction[Any], meter: Meter, kind: str) -> None:
        self._answer: discord.InteractionResponseType | None = None
        self._meter = meter
        self._kind = kind
        self._received = time.perf_counter()
        self._timer: asyncio.TimerHandle | None = None
        super().__init__(parent)
        if kind != "autocomplete":  # Discord shows nothing when one goes unanswered
            loop = asyncio.get_running_loop()
            self._timer = loop.call_later(ANSWER_DEADLINE, self._unanswered)

    @property
    def _response_type(self) -> discord.InteractionResponseType | None:
        return self._answer

    @_response_type.setter
    def _response_type(self, value: discord.InteractionResponseType | None) -> None:
        if value is not None and self._answer is None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            self._meter.answered(self._kind, time.perf_counter() - self._received)
        self._answer = value

    def _unanswered(self) -> None:
        self._timer = None
        if self._answer is None:
            self._meter.failed(self._kind, "unanswered")

    async def _discord(self, call: Any) -> Any:
        try:
            return await call
        except discord.HTTPException as error:
            self._meter.failed(self._kind, failure_reason(error))
            raise

    async def defer(self, *args: Any, **kwargs: Any) -> Any:
        return await self._discord(super().defer(*args, **kwargs))

    async def send_message(self, *args: Any, **kwargs: Any) -> Any:
        return await self._discord(super().send_message(*args, **kwargs))

    async def edit_message(self, *args: Any, **kwargs: Any) -> Any:
        return await self._discord(super().edit_message(*args, **kwargs))

    async def send_modal(self, *args: Any, **kwargs: Any) -> Any:
        return await self._discord(super().send_modal(*args, **kwargs))

    async def autocomplete(self, *args: Any, **kwargs: Any) -> Any:
        return await self._discord(super().autocomplete(*args, **kwargs))


def take_interaction(interaction: discord.Interaction[Any], meter: Meter) -> None:
    """Give `interaction` its :class:`OneResponse`, and time its answer from now for the
    metrics when `meter` records (its arrival: call this before any handler of it has
    run)."""
    if interaction.type == discord.InteractionType.ping:
        return
    response = (
        OneResponse(interaction)
        if meter is NO_METER
        else MeteredResponse(interaction, meter, kind_of(interaction))
    )
    # `Interaction.response` is a cached slot: filled here, it is this response that
    # every handler gets.
    interaction._cs_response = response  # type: ignore[attr-defined]


def note_refusal(interaction: discord.Interaction[Any], reason: str) -> None:
    """The member was told no; `reason` is bounded (a refusal's ``reason``, a check's
    class name), never the text."""
    meter = meter_of(interaction)
    if meter is not NO_METER:
        meter.refused(kind_of(interaction), reason)


def note_failure(interaction: discord.Interaction[Any], reason: str) -> None:
    """The interaction failed (an error handler reached it, a followup was refused)."""
    meter = meter_of(interaction)
    if meter is not NO_METER:
        meter.failed(kind_of(interaction), reason)
