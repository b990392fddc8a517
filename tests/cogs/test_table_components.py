"""A table message drawn the quick way (issue 36) is the one drawn the long way: every
game played out by its engine, every table message in English and in Japanese, compared
as Discord receives it (JSON, byte for byte) — its components with the same buttons made
by ``discord.ui.Button`` in a plain ``discord.ui.View``, its embed with remembered event
sentences against the same embed with every sentence written anew."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import discord
import pytest
from pydantic import BaseModel

from bot.games import fortunes_winds as fw
from bot.games.common import Deadline, is_public
from bot.i18n import use_locale
from bot.service.snapshots import RECENT_LOG_ROWS
from cogs._ui.frame import frame_of
from cogs._ui.lobby import with_watch
from cogs._ui.primitives import Payload, TableButton, TableSelect, TableView, button, view_of
from cogs.fortunes_winds.ui import FortunesUI
from cogs.hazard.ui import HazardUI
from cogs.nihakyu.ui import NihakyuUI
from cogs.strength_duel.ui import DuelUI
from tests.cogs.test_dice_games_japanese import (
    A,
    B,
    C,
    CyclingDice,
    D,
    duel_session,
    hazard_session,
    hub,
    nihakyu_session,
    snapshot,
)

Steps = list[tuple[Any, list[BaseModel]]]


DICE_FIRST = ("SetAside", "Roll", "NewTurn", "Ready", "Bet")
"""The moves a Fortunes playout prefers, first first (a table's bets come a few a turn)."""


def fortunes_session() -> Steps:
    """Three players at a house-banked table, seeded legal moves, mostly the dice (keeps,
    rolls, new turns, bets now and then), and the table's deadlines, to the end or 400
    moves."""
    dice = CyclingDice(11)
    pick = random.Random(5)
    state = fw.ENGINE.start(fw.Rules(), [A, B, C], dice)
    steps: Steps = []

    def rank(move: tuple[int, Any]) -> int:
        name = type(move[1]).__name__
        return DICE_FIRST.index(name) if name in DICE_FIRST else len(DICE_FIRST)

    for _ in range(400):
        if state.finished:
            break
        moves = [(p, a) for p in state.seats for a in fw.ENGINE.legal_actions(state, p)]
        if not moves:
            state, events = fw.ENGINE.act(state, None, Deadline(), dice)
        else:
            best = min(rank(move) for move in moves)
            player, action = pick.choice(
                [move for move in moves if rank(move) == best or pick.random() < 0.15]
            )
            state, events = fw.ENGINE.act(state, player, action, dice)
        steps.append((state, events))
    return steps


def as_served(steps: Steps) -> list[tuple[Any, list[BaseModel]]]:
    """Each step's snapshot as the table service serves it: the public events of the
    latest actions, read back from the log (new objects for each snapshot)."""
    served = []
    for index, (state, _events) in enumerate(steps):
        window = steps[max(0, index + 1 - RECENT_LOG_ROWS) : index + 1]
        recent = [
            event.model_copy(deep=True)
            for _state, events in window
            for event in events
            if is_public(event)
        ]
        served.append((snapshot(state, recent), recent))
    return served


def stock_select(item: TableSelect) -> discord.ui.Select[Any]:
    return discord.ui.Select(
        custom_id=item.custom_id,
        placeholder=item.placeholder,
        options=list(item.options),
        min_values=item.min_values,
        max_values=item.max_values,
        disabled=item.disabled,
        row=item.row,
    )


def stock_components(view: discord.ui.View, stock: dict[int, discord.ui.Button[Any]]) -> str:
    """``view``'s components as discord.py's own items in its own view would send them."""
    expected = discord.ui.View(timeout=None)
    for item in view.children:
        if isinstance(item, TableButton):
            expected.add_item(stock[id(item)])
        else:
            assert isinstance(item, TableSelect)
            expected.add_item(stock_select(item))
    return json.dumps(expected.to_components())


SESSIONS = pytest.mark.parametrize(
    ("ui_class", "session"),
    [
        (HazardUI, hazard_session),
        (NihakyuUI, nihakyu_session),
        (FortunesUI, fortunes_session),
        (DuelUI, lambda: duel_session("duel", [A, B])),
        (DuelUI, lambda: duel_session("forbidden", [A, B])),
        (DuelUI, lambda: duel_session("tag", [A, B, C, D])),
    ],
    ids=["hazard", "nihakyu", "fortunes_winds", "duel", "forbidden", "tag"],
)


@SESSIONS
async def test_a_played_table_draws_the_components_discord_py_would(
    ui_class: Any, session: Callable[[], Steps], monkeypatch: pytest.MonkeyPatch
) -> None:
    stock: dict[int, discord.ui.Button[Any]] = {}
    quick = TableButton.drawn.__func__  # type: ignore[attr-defined]

    def drawn_beside_stock(cls: type[TableButton], **kwargs: Any) -> TableButton:
        made: TableButton = quick(cls, **kwargs)
        emoji = kwargs.pop("emoji")
        # The emoji as the game wrote it (text), parsed by discord.py itself.
        stock[id(made)] = discord.ui.Button(emoji=None if emoji is None else str(emoji), **kwargs)
        return made

    monkeypatch.setattr(TableButton, "drawn", classmethod(drawn_beside_stock))
    ui = ui_class(hub())
    steps = session()
    compared = 0
    for locale in ("en", "ja"):
        with use_locale(locale):
            for state, events in steps:
                snap = snapshot(state, events)
                payload = ui.render_game(snap, events)
                if payload.view is not None:
                    payload.view.to_components()  # drawn once before the Watch button
                view = with_watch(payload.view, snap.id)  # as the hub draws a live table
                assert view is not None
                assert json.dumps(view.to_components()) == stock_components(view, stock)
                compared += len(view.children)
    assert compared >= 2 * len(steps) > 0, "every step of both languages was compared"


async def test_a_views_components_are_drawn_again_when_its_items_change() -> None:
    first = button(7, 3, "throw", "Throw", emoji="🎲", row=1)
    view = view_of(first)
    assert isinstance(view, TableView)
    drawn = view.to_components()
    assert view.to_components() is drawn, "drawn once"
    second = button(7, 3, "ready", "Ready", row=2)
    for change in (
        lambda: view.add_item(second),
        lambda: view.remove_item(first),
        lambda: view.clear_items(),
    ):
        change()
        assert view.to_components() == discord.ui.View.to_components(view)


@SESSIONS
async def test_remembered_event_sentences_read_as_written_anew(
    ui_class: Any, session: Callable[[], Steps]
) -> None:
    ui = ui_class(hub())
    sentences = ui.sentences
    assert sentences.remember, "the game's table sentences are remembered"
    compared = 0
    for snap, recent in as_served(session()):
        for locale in ("en", "ja"):
            with use_locale(locale):
                remembered = json.dumps(frame_of(ui, snap, recent).embed().to_dict())
                sentences.remember = False
                try:
                    written = json.dumps(frame_of(ui, snap, recent).embed().to_dict())
                finally:
                    sentences.remember = True
            assert remembered == written
            compared += len(recent)
    assert compared > 20


@SESSIONS
async def test_a_fingerprint_is_the_same_for_the_same_message_and_only_for_it(
    ui_class: Any, session: Callable[[], Steps]
) -> None:
    """Two renders of one table (new objects each, the sentences written anew the second
    time) digest alike, and two messages digest alike only if they show the same thing:
    an edit that changes nothing visible is skipped, and no other."""
    ui = ui_class(hub())
    by_content: dict[str, str] = {}
    with use_locale("en"):
        for snap, recent in as_served(session()):
            payloads = []
            for remember in (True, False):
                ui.sentences.remember = remember
                try:
                    payload = ui.render_game(snap, recent)
                finally:
                    ui.sentences.remember = True
                payload.view = with_watch(payload.view, snap.id)
                payload.content = ""
                payloads.append(payload)
            first, second = (payload.fingerprint() for payload in payloads)
            assert first == second
            shown = json.dumps(
                [payloads[0].embed.to_dict(), payloads[0].view.to_components()], sort_keys=True
            )
            assert by_content.setdefault(first, shown) == shown, "one digest, two messages"
    assert len(by_content) > 5


def test_a_message_with_a_value_marshal_does_not_write_is_still_digested() -> None:
    class Word(str):
        pass

    embed = discord.Embed(title="Hazard")
    worded = Payload(embed, None, Word("hello"))
    other = Payload(embed, None, Word("bye"))
    assert worded.fingerprint() == Payload(embed, None, Word("hello")).fingerprint()
    assert worded.fingerprint() != other.fingerprint()


def test_equal_messages_digest_alike_whatever_objects_hold_their_words() -> None:
    word = "".join(["Sea", "ts"])  # made at run time: not interned
    shared = discord.Embed(title="Hazard")
    shared.add_field(name=word, value=word)
    apart = discord.Embed(title="Hazard")
    apart.add_field(name="".join(["Se", "ats"]), value="".join(["Seat", "s"]))
    assert Payload(shared, None, "").fingerprint() == Payload(apart, None, "").fingerprint()


async def test_a_remembered_sentence_is_not_another_tables() -> None:
    """The end of a duel at a table of another stake (the same events word for word)
    says its own pot: a sentence that reads the table is written every time."""
    ui = DuelUI(hub())
    last = duel_session("duel", [A, B])[-1:]
    small, recent = as_served(last)[0]
    large, _recent = as_served(last)[0]
    state = last[0][0]
    large.rules = state.rules.model_copy(update={"stake": state.rules.stake * 7})
    with use_locale("en"):
        frame_of(ui, small, recent)
        remembered = frame_of(ui, large, recent).events
        ui.sentences.remember = False
        try:
            written = frame_of(ui, large, recent).events
        finally:
            ui.sentences.remember = True
    assert any("pot" in line for line in written)
    assert remembered == written
