"""The pieces every Tanzaku UI module draws with: a message's payload and picture, the
table components and views, and the private answers and member checks of an interaction.

Every Tanzaku component is a :data:`TableComponent` (a button or a select whose custom id
follows the grammar in :mod:`cogs._ui.custom_ids`); what a click on one does is the hub's
(:mod:`cogs._ui.hub`). This module imports no other UI module but the grammar and the
text helpers, so any of them may import it.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import logging
import marshal
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Self, TypeAlias

import discord
from discord.http import handle_message_parameters
from discord.utils import MISSING

from bot.i18n import N_, _, use_locale
from bot.interactions import note_failure, respond
from bot.safe_log import describe, log_failure
from bot.service import Actor
from cogs._ui import render
from cogs._ui.custom_ids import ComponentId, component_id

log = logging.getLogger(__name__)

WATCH_ROW = 4
"""The last of a message's five rows: the game's own buttons come first."""
RULES_TABLE = 0
"""Rules pages use table id 0 in the custom-id grammar: no real table has it."""
APOLOGY = N_("Something went wrong on our side; nothing was changed. Please try again.")
ANSWER_REFUSED = N_(
    "Discord did not take my answer, so I cannot say whether that went through. Please "
    "check before trying again."
)
SAVED_BUT_NOT_SHOWN = N_(
    "Your action was saved, but Discord did not take the update of the table message. "
    "I will refresh it; nothing needs doing again."
)


@dataclass(frozen=True)
class Picture:
    """An image attached to a message (beside its embed), e.g. the cards on a table.

    ``key`` names what the picture shows: two pictures with the same key are the same
    image, so a message whose picture did not change is edited without uploading it again.
    ``filename`` and ``description`` (the alt text) are public wherever the message is.

    ``draw`` makes the PNG and its alt text, once, when the picture is first uploaded
    (:meth:`file`): a payload drawn only to be compared (a kept answer whose picture did
    not change) never pays for an image nobody will see.
    """

    key: str
    filename: str
    draw: Callable[[], tuple[bytes, str]] = field(repr=False, compare=False)

    @functools.cached_property
    def _drawn(self) -> tuple[bytes, str]:
        return self.draw()

    @property
    def png(self) -> bytes:
        return self._drawn[0]

    @property
    def description(self) -> str:
        return self._drawn[1]

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
        to set (:func:`cogs._ui.endings.attach_replay`): a later edit (a queued refresh, a click
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
        shown = [self.content, self.embed.to_dict(), view, self.picture_key]
        try:
            # A sixth of JSON's time (a click's answer digests its message). Version 2:
            # equal values are written alike whatever their identity (version 3 and later
            # refer back to an object met before); the dicts' order is the one their
            # builders always give (discord.py's to_dict, the components' dicts).
            data = marshal.dumps(shown, 2)
        except ValueError:  # a value marshal does not write (a str subclass): JSON, sorted
            data = json.dumps(shown, sort_keys=True, default=str).encode()
        return hashlib.blake2b(data, digest_size=16).hexdigest()


async def edit_message(message: discord.PartialMessage, **fields: Any) -> None:
    """``message.edit(**fields)`` (content, embed, attachments, view) without building a
    :class:`discord.Message` from Discord's copy of the edited message, which nothing here
    reads: its embeds and a dozen components parsed on every refresh of a table message
    and every private panel redrawn (issue 36). The request and its failures are
    discord.py's own (``handle_message_parameters`` and ``HTTPClient.edit_message``: its
    rate limits, its ``NotFound`` and ``Forbidden``)."""
    state = message._state
    view = fields.get("view", MISSING)
    if view is not MISSING:
        state.prevent_view_updates_for(message.id)
    with handle_message_parameters(
        **fields,
        # As Message.edit: the client's allowed mentions merged in when text is sent.
        previous_allowed_mentions=state.allowed_mentions if "content" in fields else None,
    ) as params:
        await state.http.edit_message(message.channel.id, message.id, params=params)
    if view and not view.is_finished() and view.is_dispatchable():
        state.store_view(view, message.id)


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
    return TableButton.drawn(
        label=label,
        style=style,
        emoji=None if emoji is None else _emoji(emoji),
        disabled=disabled,
        custom_id=component_id(table, ply, verb, arg),
        row=row,
    )


@functools.lru_cache(maxsize=256)
def _emoji(text: str) -> discord.PartialEmoji:
    """A button's emoji, parsed once: a table draws the same few on every answer, and
    nothing changes an emoji once made."""
    return discord.PartialEmoji.from_str(text)


def select(
    table: int,
    ply: int,
    verb: str,
    placeholder: str,
    options: Sequence[discord.SelectOption],
    *,
    row: int | None = None,
) -> TableComponent:
    return TableSelect(
        placeholder=placeholder,
        options=list(options),
        custom_id=component_id(table, ply, verb),
        row=row,
    )


class TableView(discord.ui.View):
    """A table message's components. A failure is logged by table and verb only: the
    library's default names the item, and a button's label can be a bid.

    Its components are turned into Discord's form once (:meth:`to_components`): the
    answer to a click sends them and the message's fingerprint digests them, and nothing
    changes a drawn component (only adding or removing one, which draws them again)."""

    _drawn: list[dict[str, Any]] | None = None

    def to_components(self) -> list[dict[str, Any]]:
        if self._drawn is None:
            self._drawn = super().to_components()
        return self._drawn

    def add_item(self, item: discord.ui.Item[Any]) -> Self:
        self._drawn = None
        super().add_item(item)
        return self

    def remove_item(self, item: discord.ui.Item[Any]) -> Self:
        self._drawn = None
        super().remove_item(item)
        return self

    def clear_items(self) -> Self:
        self._drawn = None
        super().clear_items()
        return self

    async def on_error(
        self,
        interaction: discord.Interaction[Any],
        error: Exception,
        item: discord.ui.Item[Any],
        /,
    ) -> None:
        cid = ComponentId.parse(str(getattr(item, "custom_id", "") or ""))
        where = (cid.verb, cid.table) if cid is not None else ("?", "?")
        note_failure(interaction, "error")
        log_click_failure("a %r component at table %s failed", *where, error=error)


FORM_ALIVE = "tanzaku_form_alive"
"""Marks, in ``Interaction.extras``, a submission that a live form object took; one
submitted after a restart or past its timeout (discord.py dropped the object, and with it
what the command had chosen) is told so by the hub instead of going unanswered."""

FORM_EXPIRED = N_(
    "That form has expired (it was open too long, or the bot restarted since it was shown)."
    " Nothing was changed: run the command again."
)


def log_click_failure(message: str, *args: object, error: BaseException) -> None:
    """A click's or a form's failure: a routine one of Discord's (the interaction expired,
    was answered already, its message was deleted) in one WARNING line; anything else at
    ERROR with its frames, never its text (a form's value may be a bid)."""
    log_failure(log, message, *args, error=error)


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = TableView(timeout=None)
    for item in items:
        view.add_item(item)
    return view


class TableButton(discord.ui.Button[Any]):
    """A button of a Tanzaku table; its custom id (:mod:`cogs._ui.custom_ids`) says
    everything a click on it needs.

    Only drawn, never dispatched by discord.py: :meth:`TableHub.on_interaction` answers
    every click on one from its custom id alone, whether or not the id is still on the
    message. So it is not a registered dynamic item (discord.py would rebuild the clicked
    message's whole view for each click, to call a callback that does nothing) and a view
    of these is not dispatchable (discord.py would keep every table message's view in
    memory, to call the same nothing)."""

    @classmethod
    def drawn(
        cls,
        *,
        label: str,
        style: discord.ButtonStyle,
        emoji: discord.PartialEmoji | None,
        disabled: bool,
        custom_id: str,
        row: int | None,
    ) -> TableButton:
        """The button ``TableButton(label=…, …)`` makes, made without its checks and its
        generic copying (a third of a table's render, 13 buttons a Hazard answer): the
        arguments here are always a labelled button's. tests/cogs/test_table_components.py
        holds it equal to discord.py's own, component for component, over played games."""
        self = cls.__new__(cls)
        discord.ui.Item.__init__(self)  # type: ignore[no-untyped-call]
        self._provided_custom_id = True
        component = discord.components.Button.__new__(discord.components.Button)
        component.style = style
        component.custom_id = custom_id
        component.url = None
        component.disabled = disabled
        component.label = label
        component.emoji = emoji
        component.sku_id = None
        component.id = None
        self._underlying = component
        self.row = row
        return self

    def is_dispatchable(self) -> bool:
        return False

    def _update_view(self, view: Any) -> None:
        _no_view_back_reference()


class TableSelect(discord.ui.Select[Any]):
    """A select of a Tanzaku table: drawn, never dispatched, as :class:`TableButton`."""

    def is_dispatchable(self) -> bool:
        return False

    def _update_view(self, view: Any) -> None:
        _no_view_back_reference()


def _no_view_back_reference() -> None:
    """A table component keeps no reference to its view (discord.py's item keeps one to
    call its callback, which a table component never has): a view and its items then form
    no reference cycle, and the view drawn for each answer is freed as soon as it is sent
    instead of waiting for the garbage collector (a dozen objects a click, and the
    collections that find them)."""


TableComponent: TypeAlias = TableButton | TableSelect
"""Any component of a Tanzaku table."""


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


def in_server_language(interaction: discord.Interaction[Any]) -> AbstractContextManager[str]:
    """Build a public answer (one the whole channel reads, like /leaderboard) in the
    server's language; an interaction is otherwise handled in its member's (set where
    discord.py parses it, bot/app.py), which is right for everything private."""
    languages = getattr(interaction.client, "languages", None)
    locale = languages.server(interaction.guild_id) if languages is not None else ""
    return use_locale(locale)


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


async def tell(interaction: discord.Interaction[Any], text: str) -> None:
    """A private word that must not turn one failure into two."""
    try:
        await send_ephemeral(interaction, text)
    except discord.HTTPException as error:
        log.warning("could not answer an interaction: %s", describe(error))


async def answer_failure(
    interaction: discord.Interaction[Any], saved: bool, *, error: BaseException | None = None
) -> None:
    """After an unexpected failure: "nothing was changed" only if nothing was. A failure
    of Discord itself (it refused something the click sent) cannot tell whether the
    handler had already done its work, so it never says nothing was."""
    note_failure(interaction, "error")
    if saved:
        await tell(interaction, _(SAVED_BUT_NOT_SHOWN))
    elif isinstance(error, discord.HTTPException):
        await tell(interaction, _(ANSWER_REFUSED))
    else:
        await tell(interaction, _(APOLOGY))
