"""The dice games through Discord in Japanese (issue 29): a Japanese member at a Japanese
server plays Hazard, Nihakyu and Strength Duel to the end and reads no English anywhere —
the table, its buttons and selects, their private answers, pickers, refusals and DMs; at
a mixed table an English member reads their own answers and DMs in English while the
table everyone sees stays in the server's Japanese."""

from __future__ import annotations

import re
from typing import Any

import pytest
from simcord import Env

from tests.support.japanese import english_in, make_japanese_world, texts_of
from tests.support.sim import World, answered, select_id

NAMES = ["alice", "bob"]
DUEL_GAME = [(3, 2), (3, 4), (5, 0), (0, 2), (1, 1), (2, 1), (3, 3), (1, 3)]
"""A whole duel from 25 strength each: bob wins in round 8."""


def public(world: World) -> list[Any]:
    """Everything the bot posted in the table's channel."""
    return list(world.channel.history())


def dms(world: World, name: str) -> list[Any]:
    channel = world[name].user.dm_channel
    return list(channel.history()) if channel is not None else []


async def hazard_round(world: World, dice: Any, *, seen: dict[str, list[Any]]) -> None:
    """alice opens and casts, bob bets with her through the private picker; the main is
    called, bob is ready, a nick; a refused throw; the odds; alice closes the table."""
    alice, bob = world["alice"], world["bob"]
    opened = answered(await alice.slash(world.channel, "hazard open"))
    table = opened.response.message
    seen["alice"].append(opened)
    seen["bob"].append(answered(await bob.click(table, label="参加")))
    seen["alice"].append(answered(await alice.click(table, label="開始")))
    picker = answered(
        await bob.click(world.channel.last_message, label="振り手側に賭ける"), ephemeral=True
    )
    seen["bob"].append(picker)
    seen["bob"].append(answered(await bob.click(picker.response.message, label="10")))
    seen["alice"].append(
        answered(await alice.slash(world.channel, "hazard bet", kind="caster", amount=20))
    )
    message = world.channel.last_message
    seen["alice"].append(
        answered(await alice.select(message, ["7"], custom_id=select_id(message, "main")))
    )
    seen["bob"].append(answered(await bob.click(world.channel.last_message, label="準備完了")))
    seen["bob"].append(await bob.click(world.channel.last_message, label="振る"))  # refused
    dice.extend([3, 4])  # 7 on a main of 7: the caster nicks
    seen["alice"].append(answered(await alice.click(world.channel.last_message, label="振る")))
    seen["bob"].append(answered(await bob.slash(world.channel, "hazard odds", main=7)))
    seen["alice"].append(
        answered(await alice.click(world.channel.last_message, label="卓を閉じる"))
    )
    state = (await world.env.bot.tables.snapshot(1)).state
    assert state is not None and state.finished


async def nihakyu_game(world: World, dice: Any, *, seen: dict[str, list[Any]]) -> None:
    """Two players Roll two rounds, each choosing first once (the first chooser alone
    reads a private word: the second choice reveals the round); alice rolls 20 from 19
    Stamina in the second and falls: bob wins the pot."""
    alice, bob = world["alice"], world["bob"]
    opened = answered(
        await alice.slash(world.channel, "nihakyu open", ante=10, starting_stamina=20)
    )
    table = opened.response.message
    seen["alice"].append(opened)
    seen["bob"].append(answered(await bob.click(table, label="参加")))
    seen["alice"].append(answered(await alice.click(table, label="開始")))
    seen["bob"].append(answered(await bob.click(table_of(world), label="振る")))
    dice.extend([1, 1])  # seat order: alice loses 1, bob 1
    seen["alice"].append(answered(await alice.click(table_of(world), label="振る")))
    seen["alice"].append(answered(await alice.click(table_of(world), label="振る")))
    dice.extend([20, 1])  # alice loses 20 of her 19, bob 1
    seen["bob"].append(answered(await bob.click(table_of(world), label="振る")))
    state = (await world.env.bot.tables.snapshot(1)).state
    assert state is not None and state.finished and state.winner == bob.id


def table_of(world: World) -> Any:
    """The newest table message (a result line may follow it)."""
    return next(m for m in reversed(public(world)) if m.embeds and "卓 #" in m.embeds[0].title)


async def duel_game(world: World, *, seen: dict[str, list[Any]]) -> None:
    """alice challenges bob; both bid by DM to the end of a whole duel."""
    alice, bob = world["alice"], world["bob"]
    # A challenge in a mode that opens a lobby is refused, in the challenger's words.
    seen["alice"].append(
        await alice.slash(world.channel, "duel challenge", member=bob, stake=10, mode="three")
    )
    challenge = answered(await alice.slash(world.channel, "duel challenge", member=bob, stake=10))
    seen["alice"].append(challenge)
    seen["bob"].append(answered(await bob.click(challenge.response.message, label="受ける")))
    # alice bids round 1 through the table's private button and the amount form (the table
    # button is the server's Japanese, her panel and form hers); too much is refused.
    panel = answered(await alice.click(table_of(world), label="内緒で入札"), ephemeral=True)
    form = answered(await alice.click(panel.response.message, label="他の数…"))
    seen["alice"] += [panel, form, await alice.submit_modal(form, {"amount": "99"})]
    (a_first, b_first), *rest = DUEL_GAME
    form = answered(await alice.click(panel.response.message, label="他の数…"))
    seen["alice"].append(answered(await alice.submit_modal(form, {"amount": str(a_first)})))
    dm = bob.user.dm_channel.last_message
    seen["bob"].append(answered(await bob.user.click(dm, label=str(b_first))))
    for a_bid, b_bid in rest:
        for member, bid in ((alice, a_bid), (bob, b_bid)):
            panel = member.user.dm_channel.last_message
            seen[member.user.name].append(answered(await member.user.click(panel, label=str(bid))))
    state = (await world.env.bot.tables.snapshot(1)).state
    assert state is not None and state.finished and state.winner == bob.id


async def play(game: str, world: World, dice: Any) -> dict[str, list[Any]]:
    seen: dict[str, list[Any]] = {"alice": [], "bob": []}
    if game == "hazard":
        await hazard_round(world, dice, seen=seen)
    elif game == "nihakyu":
        await nihakyu_game(world, dice, seen=seen)
    else:
        await duel_game(world, seen=seen)
    return seen


GAMES = ["hazard", "nihakyu", "strength_duel"]


@pytest.mark.parametrize("game", GAMES)
async def test_a_japanese_member_reads_no_english_from_start_to_end(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch, dice: Any, game: str
) -> None:
    world, _locales = await make_japanese_world(simcord_env, monkeypatch, *NAMES)
    seen = await play(game, world, dice)
    for name in NAMES:
        shown = texts_of([*seen[name], *public(world), *dms(world, name)])
        assert len(shown) > 10
        assert english_in(shown, names=NAMES) == [], name
    # /history tells the game's steps in the asker's words (the frame around them is the
    # history command's own).
    history = answered(await world["alice"].slash(world.channel, "history", table=1))
    steps = "\n".join(texts_of(history))
    japanese, english = HISTORY[game]
    assert japanese in steps and english not in steps, steps


HISTORY = {
    "hazard": ("が振り手側に10両賭けました。", "bets 10"),
    "nihakyu": ("振る（1d20を失う）を選択", "chose Roll"),
    "strength_duel": ("力3を入札", "bids 3 strength"),
}
"""A step of each game as /history tells it in Japanese, and in English."""


@pytest.mark.parametrize("game", GAMES)
async def test_an_english_member_at_a_japanese_table_reads_their_own_in_english(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch, dice: Any, game: str
) -> None:
    world, _locales = await make_japanese_world(simcord_env, monkeypatch, *NAMES, english=["bob"])
    seen = await play(game, world, dice)
    # The table everyone sees is the server's: Japanese, for bob too.
    assert english_in(texts_of(public(world)), names=NAMES) == []
    # What each reads alone (private answers, DMs) is in their own language.
    alice_own = texts_of([*own(seen["alice"]), *dms(world, "alice")])
    bob_own = texts_of([*own(seen["bob"]), *dms(world, "bob")])
    assert alice_own and bob_own
    assert english_in(alice_own, names=NAMES) == []
    assert all(JAPANESE.search(text) for text in alice_own if WORDS.search(text)), alice_own
    assert not any(KANA.search(text) for text in bob_own), bob_own
    assert english_in(bob_own, names=NAMES), "bob reads his own answers in English"


KANA = re.compile(r"[\u3040-\u30ff]")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
"""Kana (what an English text never has, though a currency may be 両), or kanji too."""
WORDS = re.compile(r"[^\W\d_]{2,}")


def own(results: list[Any]) -> list[Any]:
    """The private parts of interaction results: ephemeral answers and follow-ups (an
    answer that edits the table message shows the table, which is everyone's)."""
    parts: list[Any] = []
    for result in results:
        if result.response is not None and result.ephemeral:
            parts.append(result.response)
        parts.extend(f for f in result.followups if f.ephemeral)
        if result.modal is not None:
            parts.append(result.modal)
    return parts


async def test_a_moderators_ejection_reads_in_japanese(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = ["alice", "bob", "carol"]
    world, _locales = await make_japanese_world(simcord_env, monkeypatch, *names)
    alice = world["alice"]
    table = answered(await alice.slash(world.channel, "nihakyu open", ante=10)).response.message
    for name in ("bob", "carol"):
        answered(await world[name].click(table, label="参加"))
    answered(await alice.click(table, label="開始"))
    carol = world["carol"]
    ejected = answered(
        await world.moderator.slash(world.channel, "nihakyu eject", member=carol),
        ephemeral=True,
    )
    assert (
        ejected.response.content == f"{carol.mention}を退場させました。参加料はポットに残ります。"
    )
    shown = texts_of([ejected, *public(world)])
    assert english_in(shown, names=names) == []
    assert "退場" in table_of(world).embeds[0].description
