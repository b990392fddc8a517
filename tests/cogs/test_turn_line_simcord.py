"""Whose turn it is, first (issue 34): every game's table message leads with one line —
who acts, what they decide, the time left as Discord's live countdown (``<t:…:R>``, right
without an edit) — in English and in Japanese. The games come from the catalog, so a new
game without a turn line (or without a way here to reach a decision) fails this file.

A game with no opener of its own here is opened with its open command's defaults, and its
line is held to the shape (who — what · the countdown); the shipped games' lines are held
to their exact words.

A secret choice (Nihakyu's round, a duel's bid) names what everyone decides, never who has
chosen; Hachi-hachi's teyaku claim steps single out nobody (tests/cogs/
test_hachihachi_claims_simcord.py)."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.catalog import CATALOG, AnyGame
from tests.cogs.test_nihakyu_simcord import choose
from tests.cogs.test_open_defaults_simcord import group_of
from tests.cogs.test_strength_duel_simcord import bid_by_dm
from tests.support.japanese import english_in, make_japanese_world
from tests.support.sim import World, answered, make_world

Opener = Callable[[World, dict[str, str]], Awaitable[None]]


async def open_hazard(world: World, words: dict[str, str]) -> None:
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "hazard open")).response.message
    answered(await bob.click(table, label=words["join"]))
    answered(await alice.click(table, label=words["start"]))


async def open_nihakyu(world: World, words: dict[str, str]) -> None:
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "nihakyu open", ante=10)).response.message
    answered(await bob.click(table, label=words["join"]))
    answered(await alice.click(table, label=words["start"]))


async def open_duel(world: World, words: dict[str, str]) -> None:
    alice, bob = world["alice"], world["bob"]
    table = answered(
        await alice.slash(world.channel, "duel challenge", member=bob, stake=10)
    ).response.message
    answered(await bob.click(table, label=words["accept"]))


async def open_fortunes(world: World, words: dict[str, str]) -> None:
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "fortunes open")).response.message
    answered(await bob.click(table, label=words["join"]))
    answered(await alice.click(table, label=words["start"]))


async def open_hachihachi(world: World, words: dict[str, str]) -> None:
    alice, bob = world["alice"], world["bob"]
    table = answered(
        await alice.slash(
            world.channel, "hanafuda open", stake_per_kan=1, first_dealer="first_seat"
        )
    ).response.message
    answered(await bob.click(table, label=words["join"]))
    answered(await alice.click(table, label=words["start"]))


async def open_with_defaults(world: World, words: dict[str, str], game: str) -> None:
    """Any game: its open command with no options, bob joins, alice starts (a game whose
    table starts once seated needs no Start)."""
    alice, bob = world["alice"], world["bob"]
    group = group_of(world.env.bot, game)
    table = answered(await alice.slash(world.channel, f"{group} open")).response.message
    answered(await bob.click(table, label=words["join"]))
    if (await world.env.bot.tables.snapshot(1)).state is None:
        answered(await alice.click(table, label=words["start"]))


OPENERS: dict[str, Opener] = {
    "hazard": open_hazard,
    "nihakyu": open_nihakyu,
    "strength_duel": open_duel,
    "fortunes_winds": open_fortunes,
    "hachihachi": open_hachihachi,
}
"""Each catalog game opened by alice and started with bob: a decision is then awaited."""

EXPECTED = {
    # (who, what) of the first decision, in English and in Japanese; "alice" is her mention.
    "hazard": {
        "en": ("alice", "call a main (5–9); bets are open"),
        "ja": ("alice", "メインを宣言（5〜9）· 賭け受付中"),
    },
    "nihakyu": {"en": ("Everyone", "roll"), "ja": ("全員", "振る")},
    "strength_duel": {
        "en": ("Everyone", "bid in secret, round 1"),
        "ja": ("全員", "ラウンド1の秘密の入札"),
    },
    "fortunes_winds": {
        "en": (
            "alice",
            "the shooter's bet (none by then: bets go back, the dice pass); bets are open",
        ),
        "ja": (
            "alice",
            "振り手の賭け（なければ賭けは返却され、サイコロは次に渡ります）· 賭け受付中",
        ),
    },
    "hachihachi": {
        "en": ("alice", "mizuten (play blind) or look at the hand"),
        "ja": ("alice", "見ず転にするか手札を見るか"),
    },
}

WORDS = {
    "en": {"join": "Join", "start": "Start", "accept": "Accept"},
    "ja": {"join": "参加", "start": "開始", "accept": "受ける"},
}


def test_every_catalog_game_is_driven_here() -> None:
    # The shipped games by their own openers and words; a new game by its defaults and
    # the line's shape (the one list of shipped games is tests/platform/test_catalog.py's).
    assert set(OPENERS) == set(EXPECTED) <= set(CATALOG.names())


async def first_line(world: World) -> tuple[str, Any]:
    snapshot = await world.env.bot.tables.snapshot(1)
    assert snapshot.state is not None and not snapshot.state.finished
    message = next(m for m in world.channel.history() if m.id == snapshot.row.message_id)
    return message.embeds[0].description.split("\n")[0], snapshot


def expected_line(world: World, snapshot: Any, who: str, what: str) -> str:
    who = f"<@{world['alice'].id}>" if who == "alice" else who
    due = f" · <t:{int(snapshot.deadline.due_at)}:R>" if snapshot.deadline is not None else ""
    return f"▶️ {who} — {what}{due}"


SHAPE = re.compile(r"▶️ \S.* — \S.*")
"""A turn line of a game whose words are not listed here: who — what."""


async def check_turn_line(world: World, record: AnyGame, locale: str = "en") -> str:
    """Open the game (its own opener here, or its defaults) and check the table message
    leads with the turn line: who acts, what they decide, the countdown; returns it."""
    game = record.name
    opener = OPENERS.get(game)
    if opener is None:
        await open_with_defaults(world, WORDS[locale], game)
    else:
        await opener(world, WORDS[locale])
    line, snapshot = await first_line(world)
    assert snapshot.deadline is not None, "every game's first decision has a deadline"
    if game in EXPECTED:
        assert line == expected_line(world, snapshot, *EXPECTED[game][locale])
    else:
        due = f" · <t:{int(snapshot.deadline.due_at)}:R>"
        assert SHAPE.fullmatch(line) and line.endswith(due), line
    return line


@pytest.mark.parametrize("game", CATALOG.names())
async def test_the_turn_line_leads_every_table_message(simcord_env, game):
    world = await make_world(simcord_env, "alice", "bob")
    await check_turn_line(world, CATALOG.get(game))


@pytest.mark.parametrize("game", CATALOG.names())
async def test_the_turn_line_in_japanese(simcord_env, monkeypatch, game):
    world, _locales = await make_japanese_world(simcord_env, monkeypatch, "alice", "bob")
    await OPENERS[game](world, WORDS["ja"])
    line, snapshot = await first_line(world)
    assert line == expected_line(world, snapshot, *EXPECTED[game]["ja"])
    assert english_in([line]) == []


async def test_a_secret_choice_keeps_its_line_when_someone_has_chosen(simcord_env, dice):
    """Nihakyu's round and a duel's bid: alice's choice leaves the turn line as it was —
    it says what everyone decides, never who is still deciding."""
    world = await make_world(simcord_env, "alice", "bob")
    await open_nihakyu(world, WORDS["en"])
    before, _snapshot = await first_line(world)
    await choose(world, world["alice"])
    state = (await world.env.bot.tables.snapshot(1)).state
    assert world["alice"].id in state.choices and not state.finished
    after, _snapshot = await first_line(world)
    assert after == before and before.startswith("▶️ Everyone — roll · <t:")


async def test_a_duel_bid_keeps_the_line(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    await open_duel(world, WORDS["en"])
    before, _snapshot = await first_line(world)
    await bid_by_dm(world["alice"], 3)
    state = (await world.env.bot.tables.snapshot(1)).state
    assert world["alice"].id in state.bids
    after, _snapshot = await first_line(world)
    assert after == before and before.startswith("▶️ Everyone — bid in secret, round 1 · <t:")
