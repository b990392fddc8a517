"""One amount form for every game: quick amounts, Max, and "Other amount…".

- :func:`quick_amounts`: the preset amounts to offer, each marked affordable or not
  (within the table's limits and the member's wallet, as the game computes them).
- :class:`TableModal`: every form a table shows (a failure answered truthfully).
- :class:`AmountModal`: the typed amount, parsed strictly (:func:`parse_amount`).
- :class:`AmountPicker`: the whole private flow for a game whose amounts have kinds
  (Hazard's bets): a picker message of quick amounts, Max and the form; a quick amount
  is placed at the picker's ply, so a picker left from an earlier moment bets nothing.

The engine still decides every amount: what is offered here is only a convenience.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
from pydantic import BaseModel

from bot.errors import InsufficientFunds, NotAllowed, UserFacingError, explain
from bot.i18n import N_, Said, _, number
from bot.interactions import acknowledge_if_slow, note_failure, note_refusal
from bot.service import Outcome, TableSnapshot, saved_writes
from cogs._ui import render
from cogs._ui.amounts import parse_amount
from cogs._ui.custom_ids import ComponentId
from cogs._ui.face import Acted, Answer
from cogs._ui.primitives import (
    FORM_ALIVE,
    answer_failure,
    button,
    log_click_failure,
    send_ephemeral,
    view_of,
)
from cogs._ui.verbs import NOTHING, VerbTable

if TYPE_CHECKING:
    from cogs._ui.game import Game


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
            note_refusal(interaction, error.reason)
            await send_ephemeral(interaction, explain(error))
        except Exception as error:
            log_click_failure("a form at table %s failed", self.table_id, error=error)
            # Such a form (the options past a command's 25) belongs to no table message
            # yet: there is none to repair, only the truth to tell.
            await answer_failure(interaction, saved_writes.get() > saved_before, error=error)

    async def submit(self, interaction: discord.Interaction[Any]) -> None:
        raise NotImplementedError

    async def on_error(  # type: ignore[override]  # Modal's own signature
        self, interaction: discord.Interaction[Any], error: Exception, /
    ) -> None:
        note_failure(interaction, "error")
        log_click_failure("a form at table %s failed", self.table_id, error=error)


QUICK_AMOUNTS: tuple[int, ...] = (10, 50, 100)
MAX = "max"

Room = Callable[
    [discord.Interaction[Any], TableSnapshot[Any, Any], str], Awaitable[tuple[int, int]]
]
"""(the least, the most) a member may put on a kind of amount now."""


def quick_amounts(
    least: int,
    most: int,
    presets: Sequence[int] = QUICK_AMOUNTS,
    *,
    count: int = 3,
    step: int = 1,
) -> list[tuple[int, bool]]:
    """The first ``count`` presets at or above ``least`` (led by ``least`` itself when it
    is above the smallest preset), each with whether it fits under ``most``. With a
    ``step``, amounts must be its multiples: each preset is rounded down to one (at least
    one step), and ``least`` is taken as one already."""
    if step > 1:
        presets = [max(step, amount - amount % step) for amount in presets]
    amounts = {amount for amount in presets if amount >= least}
    if presets and least > min(presets):
        amounts.add(least)
    return [(amount, amount <= most) for amount in sorted(amounts)[:count]]


def parse_quick(arg: str | None) -> tuple[str, int | None]:
    """A quick button's ``<kind>-<amount>`` (or ``<kind>-max``: ``None``)."""
    kind, _, amount = (arg or "").rpartition("-")
    if amount == MAX:
        return kind, None
    if not amount.isascii() or not amount.isdigit() or len(amount) > 12:
        raise NotAllowed(NOTHING)
    return kind, int(amount)


AMOUNT_FIELD = "amount"


class AmountModal(TableModal):
    """The typed amount: one field (custom id ``amount``).

    The form's own custom id is the id of the button that opened it, so its submission is
    routed like a click on that button (:meth:`TableHub.on_interaction`) and read by
    :func:`typed_amount` from the id and the field alone: nothing of it is kept in memory,
    and a form submitted after a restart or past this object's timeout is still answered
    — applied if its ply is still the table's, else refused as stale."""

    def __init__(
        self,
        cid: ComponentId,
        *,
        title: str,
        label: str = N_("Amount"),
        placeholder: str = N_("Whole coins"),
        max_length: int = 16,
    ) -> None:
        # The member alone sees it, in their language (``title`` comes translated).
        super().__init__(title=_(title), timeout=300, custom_id=str(cid))
        self.table_id = cid.table
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            label=_(label),
            placeholder=_(placeholder),
            min_length=1,
            max_length=max_length,
            custom_id=AMOUNT_FIELD,
        )
        self.add_item(self.amount)


def submitted(interaction: discord.Interaction[Any], field: str) -> str | None:
    """The text typed in a form's ``field``, or ``None`` when the interaction is not a
    form's submission (it is the click that opens the form)."""
    if interaction.type != discord.InteractionType.modal_submit:
        return None
    data: dict[str, Any] = dict(interaction.data or {})
    rows: list[Any] = list(data.get("components") or [])
    while rows:
        node = rows.pop()
        if not isinstance(node, dict):
            continue
        if node.get("custom_id") == field and "value" in node:
            return str(node.get("value") or "")
        rows.extend(node.get("components") or [])
        if isinstance(node.get("component"), dict):
            rows.append(node["component"])  # a field inside a label
    return ""


async def typed_amount(
    interaction: discord.Interaction[Any],
    cid: ComponentId,
    *,
    title: str,
    label: str = N_("Amount"),
    placeholder: str = N_("Whole coins"),
    max_length: int = 16,
    what: str = N_("a whole number of coins"),
) -> int | None:
    """A verb whose button opens an amount form: on the click, show the form and return
    ``None``; on the form's submission (routed to the same verb), the amount typed.

    Strict: ``str.isdigit()`` would let "²" through, and ``int()`` would then fail."""
    text = submitted(interaction, AMOUNT_FIELD)
    if text is None:
        form = AmountModal(
            cid, title=title, label=label, placeholder=placeholder, max_length=max_length
        )
        await interaction.response.send_modal(form)
        return None
    return parse_amount(text, what=what)


class AmountPicker:
    """Amounts of several kinds (bets): the verbs ``open``, ``quick`` and ``form``."""

    def __init__(
        self,
        game: Game,
        *,
        kinds: dict[str, str],
        room: Room,
        action: Callable[[str, int], BaseModel],
        verbs: tuple[str, str, str] = ("bet", "qbet", "betform"),
        presets: Sequence[int] = QUICK_AMOUNTS,
        noun: str = N_("Bet"),
        placed: str = N_("Your bet is on: {amount} {kind}."),
        notes: Mapping[str, str] | None = None,
        step: Callable[[str], int] | None = None,
    ) -> None:
        self.game = game
        self.kinds = kinds
        """Kind → its words (``"with": "with the caster"``)."""
        self.room = room
        self.action = action
        self.open_verb, self.quick_verb, self.form_verb = verbs
        self.presets = presets
        self.noun = noun
        self.placed = placed
        self.notes = dict(notes or {})
        """Kind → what the member should know before placing it (how it pays, rounding)."""
        self.step = step or (lambda kind: 1)
        """Kind → the multiple its amounts come in (``room`` gives its bounds in them)."""

    def verbs(self) -> VerbTable:
        return {self.open_verb: self.open, self.quick_verb: self.quick, self.form_verb: self.form}

    def kind_of(self, arg: str | None) -> str:
        if arg not in self.kinds:
            raise NotAllowed(NOTHING)
        return arg

    def confirmation(self, amount: int, kind: str, outcome: Outcome) -> str:
        shown = render.coins(amount, outcome.snapshot.currency)
        return _(self.placed, amount=shown, kind=_(self.kinds[kind]))

    async def picker(
        self, interaction: discord.Interaction[Any], table: int, kind: str
    ) -> tuple[str, discord.ui.View]:
        snapshot = await self.game.service.snapshot(table)
        least, most = await self.room(interaction, snapshot, kind)
        ply = snapshot.ply
        quick = self.quick_verb
        items: list[discord.ui.Item[Any]] = [
            button(
                table,
                ply,
                quick,
                number(amount),
                arg=f"{kind}-{amount}",
                style=discord.ButtonStyle.primary,
                disabled=not fits,
                row=0,
            )
            for amount, fits in quick_amounts(least, most, self.presets, step=self.step(kind))
        ]
        items.append(
            button(
                table,
                ply,
                quick,
                _("Max ({most})", most=max(most, 0)),
                arg=f"{kind}-{MAX}",
                style=discord.ButtonStyle.primary,
                disabled=most < least,
                row=0,
            )
        )
        items.append(button(table, ply, self.form_verb, _("Other amount…"), arg=kind, row=0))
        text = _(
            "**{noun} {kind}** at table #{table}: how much? (you can add {most} at most now)",
            noun=_(self.noun),
            kind=_(self.kinds[kind]),
            table=str(table),
            most=render.coins(max(most, 0), snapshot.currency),
        )
        if kind in self.notes:
            text += f"\n{_(self.notes[kind])}"
        return text, view_of(*items)

    async def open(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> Answer:
        text, view = await self.picker(interaction, cid.table, self.kind_of(cid.arg))
        await send_ephemeral(interaction, text, view=view)
        return None

    async def form(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> Answer:
        """The "Other amount…" button opens the form; its submission places the amount at
        the ply the button was drawn at (a form left from an earlier moment, or submitted
        after a restart into another round, bets nothing)."""
        kind = self.kind_of(cid.arg)
        title = _("{noun}: {kind}", noun=_(self.noun), kind=_(self.kinds[kind]))
        amount = await typed_amount(interaction, cid, title=title)
        if amount is None:
            return None  # the form is open
        return await self.place(interaction, cid.table, kind, amount, ply=cid.ply)

    async def place(
        self,
        interaction: discord.Interaction[Any],
        table: int,
        kind: str,
        amount: int,
        *,
        ply: int | None = None,
    ) -> Acted:
        """A typed amount: from the form (at its button's ply) or a command (any ply). A
        wallet too short for it is told the most it can add on that kind now."""
        try:
            return await self.game.act(
                interaction,
                table,
                self.action(kind, amount),
                ply=ply,
                confirm=lambda outcome: self.confirmation(amount, kind, outcome),
            )
        except InsufficientFunds as short:
            if short.user_id not in (None, interaction.user.id):
                raise
            snapshot = await self.game.service.snapshot(table)
            least, most = await self.room(interaction, snapshot, kind)
            if most < least or most >= amount:
                raise
            raise NotAllowed(
                "Your wallet holds {balance} {currency}: the most you can add to your bet "
                "({kind}) now is **{most}**.",
                balance=short.balance,
                currency=short.currency,
                kind=Said(self.kinds[kind]),
                most=most,
            ) from short

    async def quick(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> Answer:
        kind_text, chosen = parse_quick(cid.arg)
        kind = self.kind_of(kind_text)
        if chosen is None:
            snapshot = await self.game.service.snapshot(cid.table)
            least, chosen = await self.room(interaction, snapshot, kind)
            if chosen < least:
                raise NotAllowed(
                    "There is no room for more on that {noun} right now.",
                    noun=_(self.noun).lower(),
                )
        amount = chosen
        outcome = await self.game.apply(
            interaction, cid.table, self.action(kind, amount), ply=cid.ply
        )
        text, view = await self.picker(interaction, cid.table, kind)
        await interaction.response.edit_message(
            content=self.confirmation(amount, kind, outcome) + "\n" + text, view=view
        )
        return Acted(outcome)  # the picker answered the click: the table is shown by an edit
