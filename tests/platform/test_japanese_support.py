"""The helper the Japanese SimCord tests scan with (tests/support/japanese.py): it must find
English a Japanese member would see, and nothing in Japanese text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest
from simcord import Env

from tests.support import japanese
from tests.support.japanese import english_in, make_japanese_world, texts_of
from tests.support.sim import answered

FAKE_CATALOG = {
    "Join": "参加",
    "Pot": "場",
    "{player} bids {amount}.": "{player}が{amount}を賭けました。",
    "{player} rolls a {total}.": "{player}の出目は{total}です。",
    ("{count} card", "{count} cards"): ("{count}枚",),
    "OK": "OK",  # the same in Japanese: not a leftover
}


@pytest.fixture
def fake_catalog(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(japanese, "catalog", lambda locale: FAKE_CATALOG)
    japanese._templates.cache_clear()
    yield
    japanese._templates.cache_clear()


@pytest.mark.parametrize(
    "text",
    [
        "Join",  # a button label left in English
        "**Pot**\n1,200 両",  # a line of a field
        "<@123> bids 50.",  # a template, mention and number filled in
        "3 cards",  # a plural form
    ],
)
def test_an_untranslated_catalog_message_is_english(fake_catalog: None, text: str) -> None:
    assert english_in([text]) == [text]


@pytest.mark.parametrize(
    "text",
    [
        "Nothing was changed.",
        "<@1> wins the pot of 300 coins",
        "場：1,200 両 — waiting for <@2>",
        "Timed out",
        "Nothing needs doing again: /wallet shows it.",
    ],
)
def test_an_ascii_sentence_is_english(fake_catalog: None, text: str) -> None:
    assert english_in([text]), text


@pytest.mark.parametrize(
    "text",
    [
        "参加",
        "<@123>が50を賭けました。",
        "<@1>の出目は12です。 🎲 <:die:123456> <t:1700000000:R>",
        "詳しくは https://example.com/replay/ab12 をご覧ください。",
        "`/hazard open` で卓を開けます。",
        "条件はサーバーが決めます（モデレーター：/config rule）。",
        "/economy loss-limit set で設定します",
        "オプション：min_stake 5 · odds_bets オフ",
        "Tanzaku の賭け金：1,000 両",
        "alice、bob の番です。",
        "alice, bob の番です。",  # member names the test passes: shown as they are
        "A ♠ と K ♥",  # card ranks: single letters are not words
        "OK",
        "3枚",
    ],
)
def test_japanese_text_is_not_english(fake_catalog: None, text: str) -> None:
    assert english_in([text], names=["alice", "bob"]) == []


def test_names_are_removed_as_whole_words_only(fake_catalog: None) -> None:
    assert english_in(["model answer"], names=["mod"]) == ["model answer"]


def test_texts_of_a_message_payload_and_a_modal() -> None:
    embed = discord.Embed(title="卓", description="説明")
    embed.add_field(name="場", value="100 両")
    embed.set_footer(text="脚注")
    embed.set_author(name="作者")
    payload: dict[str, Any] = {
        "content": "本文",
        "embeds": [embed.to_dict()],
        "components": [
            {
                "type": 1,
                "components": [
                    {"type": 2, "style": 1, "label": "参加", "custom_id": "tz:1:join"},
                    {
                        "type": 3,
                        "custom_id": "tz:1:pick",
                        "placeholder": "選んでください",
                        "options": [
                            {"label": "光", "value": "hikari-id", "description": "二十点札"}
                        ],
                    },
                ],
            }
        ],
    }
    modal = {
        "type": 9,
        "data": {
            "title": "賭け金",
            "custom_id": "tz:1:bid",
            "components": [
                {
                    "type": 1,
                    "components": [
                        {
                            "type": 4,
                            "custom_id": "amount",
                            "label": "金額",
                            "placeholder": "1〜100",
                            "value": "10",
                        }
                    ],
                }
            ],
        },
    }
    found = texts_of([payload, modal])
    assert found == [
        "本文",
        "卓",
        "説明",
        "場",
        "100 両",
        "脚注",
        "作者",
        "参加",
        "選んでください",
        "光",
        "二十点札",
        "賭け金",
        "金額",
        "1〜100",
        "10",
    ]
    assert "hikari-id" not in found and "tz:1:join" not in found


async def test_simcord_members_carry_their_language_and_answers_are_read(
    simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    world, _locales = await make_japanese_world(
        simcord_env, monkeypatch, "alice", "bob", english=["bob"]
    )
    seen: dict[int, tuple[str, str | None]] = {}

    async def remember(interaction: discord.Interaction[Any]) -> None:
        guild_locale = interaction.guild_locale
        seen[interaction.user.id] = (
            interaction.locale.value,
            guild_locale.value if guild_locale else None,
        )

    simcord_env.bot.add_listener(remember, "on_interaction")
    shown = answered(await world["alice"].slash(world.channel, "wallet"))
    answered(await world["bob"].slash(world.channel, "wallet"))
    assert seen[world["alice"].id] == ("ja", "ja")
    assert seen[world["bob"].id] == ("en-US", "ja")
    assert texts_of(shown)
    assert all(isinstance(text, str) and text.strip() for text in texts_of(shown))
