"""The card games through Discord in Japanese (issue 29): a Japanese member at a Japanese
server plays Nuki Hachi-hachi and Fortunes and Winds to the end against the computer and
reads no English; at a mixed table an English member reads their own hand and answers in
English while the table speaks the server's Japanese."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import hachihachi as hh
from bot.games.hachihachi import models as hm
from bot.i18n import translate
from cogs import hachihachi as cog
from tests.cogs.test_hachihachi_simcord import (
    current,
    custom_id,
    same_move,
    state,
    table_message,
    verb_of,
)
from tests.support.computers import vary_computer
from tests.support.japanese import english_in, make_japanese_world, texts_of
from tests.support.sim import answered, components, message_text, visible_to

NAMES = ["alice", "bob", "mod"]


def ja(text: str) -> str:
    return translate(text, "ja")


def seen_by(world: Any, member: Any) -> list[str]:
    """Every text ``member`` can read in the channel now, picture descriptions included."""
    messages = visible_to(world, member)
    texts = texts_of(messages)
    texts += [a.description or "" for m in messages for a in m.attachments]
    return [text for text in texts if text]


def english(texts: list[str]) -> list[str]:
    """What of ``texts`` a Japanese member should not read in English."""
    return english_in(texts, names=NAMES)


async def open_with_the_computer(world: Any, member: Any, command: str, **options: Any) -> None:
    opened = answered(await member.slash(world.channel, command, **options))
    answered(await member.click(opened.response.message, label=ja("Add computer")))
    answered(await member.click(world.channel.last_message, label=ja("Start")))


# -- Nuki Hachi-hachi ---------------------------------------------------------------------------


class JapaneseHand:
    """A member's hand answer, opened with the table's 🎴 button (its label is Japanese)."""

    def __init__(self, world: Any, member: Any) -> None:
        self.world, self.member = world, member
        self.message_id: int | None = None
        self.answers: list[Any] = []

    async def message(self) -> Any:
        if self.message_id is None:
            table = await table_message(self.world)
            shown = answered(await self.member.click(table, custom_id="tz:1:0:hand"))
            assert shown.ephemeral
            self.answers.append(shown)
            self.message_id = shown.response.message.id
        return current(self.world, self.member, self.message_id)

    async def do(self, action: Any) -> None:
        s = await state(self.world)
        message = await self.message()
        action = same_move(s, self.member.id, action)
        if isinstance(action, hm.Play) and action.capture is not None:
            second = custom_id(s.ply, "card", cog.card_arg(action.card))
            if any(str(c.custom_id) == second for c in components(message)):
                self.answers.append(answered(await self.member.click(message, custom_id=second)))
                message = current(self.world, self.member, self.message_id or 0)
        verb, arg = verb_of(action)
        self.answers.append(
            answered(await self.member.click(message, custom_id=custom_id(s.ply, verb, arg)))
        )


async def test_hachihachi_a_japanese_member_plays_a_match_and_reads_no_english(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.players.hachihachi.SAMPLES", 4)
    vary_computer(monkeypatch, simcord_env.bot, "hachihachi", thinking_seconds=0.0)
    world, _locales = await make_japanese_world(simcord_env, monkeypatch, "alice")
    alice = world["alice"]
    await open_with_the_computer(world, alice, "hanafuda open", stake_per_kan=0, rounds=1)
    await simcord_env.bot.tables.computers.idle()
    hand = JapaneseHand(world, alice)
    texts: list[str] = []
    for _ in range(80):
        s = await state(world)
        if s.finished:
            break
        texts += seen_by(world, alice)
        texts += texts_of(await hand.message())
        await hand.do(hh.legal_actions(s, alice.id)[0])
        await simcord_env.bot.tables.computers.idle()
    assert (await state(world)).finished
    texts += seen_by(world, alice) + texts_of(hand.answers)
    assert any("抜き八八" in text for text in texts)
    assert any("場" in text for text in texts)
    assert english(texts) == []
    table = message_text(await table_message(world))
    assert "対局終了" in table


async def test_hachihachi_at_a_mixed_table_each_reads_their_own_hand(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _locales = await make_japanese_world(
        simcord_env, monkeypatch, "alice", "bob", english=["bob"]
    )
    alice, bob = world["alice"], world["bob"]
    opened = answered(
        await alice.slash(
            world.channel, "hanafuda open", stake_per_kan=1, first_dealer="first_seat"
        )
    )
    answered(await bob.click(opened.response.message, label=ja("Join")))
    answered(await alice.click(world.channel.last_message, label=ja("Start")))
    alices, bobs = JapaneseHand(world, alice), JapaneseHand(world, bob)
    alice_hand, bob_hand = await alices.message(), await bobs.message()
    assert english(texts_of(alice_hand)) == []
    assert "あなたの手札" in message_text(alice_hand)
    bob_text = message_text(bob_hand)
    assert "Your hand" in bob_text and "Field" in bob_text
    assert not any("\u3040" <= ch <= "\u30ff" for ch in bob_text), "bob's hand is English"
    assert bob_hand.attachments[0].description.startswith("Field")
    assert alice_hand.attachments[0].description.startswith("場")
    # The table message everyone sees speaks the server's language; its picture is headed
    # by the turn line.
    table = await table_message(world)
    assert english(texts_of(table)) == []
    assert table.attachments[0].description.startswith("▶ ")
    assert "。場：" in table.attachments[0].description


# -- Fortunes and Winds -------------------------------------------------------------------------


async def test_fortunes_a_japanese_member_plays_to_the_end_and_reads_no_english(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch, dice: Any
) -> None:
    world, _locales = await make_japanese_world(simcord_env, monkeypatch, "alice")
    alice = world["alice"]
    await open_with_the_computer(world, alice, "fortunes open", bet_seconds=0)
    answers = [answered(await alice.slash(world.channel, "fortunes bet", kind="shooter", amount=5))]
    # Alice's first roll: the four Winds and Fortunes on the black die (she keeps nothing).
    dice.extend([4, 4, 4, 4, 3])
    answers.append(answered(await alice.click(await table_message(world), label=ja("Roll"))))
    await simcord_env.bot.tables.computers.idle()
    s = await state(world)
    assert s.phase == "won" and s.shooter == alice.id
    # She passes the dice: the computer bets the minimum, meets Lord Moon; the dice return.
    dice.extend([1, 1, 1, 1, 6])
    answers.append(
        answered(await alice.click(await table_message(world), label=ja("Pass the dice")))
    )
    await simcord_env.bot.tables.computers.idle()
    answers.append(answered(await alice.click(await table_message(world), label=ja("Cash out"))))
    assert (await state(world)).finished
    texts = seen_by(world, alice) + texts_of(answers)
    assert any("福と風" in text for text in texts)
    assert english(texts) == []


async def test_fortunes_at_a_mixed_table_each_reads_their_own_answers(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch, dice: Any
) -> None:
    world, _locales = await make_japanese_world(
        simcord_env, monkeypatch, "alice", "bob", english=["bob"]
    )
    alice, bob = world["alice"], world["bob"]
    opened = answered(await alice.slash(world.channel, "fortunes open", bet_seconds=0))
    answered(await bob.click(opened.response.message, label=ja("Join")))
    answered(await alice.click(world.channel.last_message, label=ja("Start")))
    # Bob may not bet as the shooter: his refusal is English, alice's Japanese.
    bobs = await bob.slash(world.channel, "fortunes bet", kind="shooter", amount=5)
    assert bobs.ephemeral and "Only the shooter makes the shooter's bet" in texts_of(bobs)[0]
    answered(await alice.slash(world.channel, "fortunes bet", kind="shooter", amount=5))
    dice.extend([1, 2, 3, 4, 1])
    answered(await alice.click(await table_message(world), label=ja("Roll")))
    alices = await alice.click(await table_message(world), label=ja("Best keep"))
    assert alices.ephemeral and english(texts_of(alices)) == []
    bob_keep = await bob.click(await table_message(world), label=ja("Best keep"))
    assert bob_keep.ephemeral and "**Best keep** after roll 1" in texts_of(bob_keep)[0]
    table = await table_message(world)
    assert english(texts_of(table)) == []
