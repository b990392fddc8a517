"""At LOG_LEVEL=DEBUG the logs hold no secret and no live fairness seed.

The bot's logging is set up as `python -m bot` sets it up; then a duel is played with
bids by button and by typed form, and a Nuki Hachi-hachi round with its private hands,
and everything logged is scanned."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from discord.webhook.async_ import AsyncWebhookAdapter
from simcord.http import FakeWebhookAdapter

from bot.__main__ import setup_logging
from bot.games.hachihachi.cards import CARDS
from tests.cogs.test_hachihachi_platform_simcord import (
    TABLE,
    Hands,
    hidden_cards,
    opened,
    play_to_end,
    secret_words,
    state,
)
from tests.support.sim import answered, make_world

TYPED_BIDS = ("23", "19")
"""Above the quick buttons (0–14), so they can only be typed; 19 replaces 23."""
BUTTON_BID = 13


@pytest.fixture
def debug_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    touched = ("aiosqlite", "discord.http", "discord.gateway", "discord.webhook")
    levels = {name: logging.getLogger(name).level for name in touched}
    setup_logging("DEBUG")
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, old in levels.items():
        logging.getLogger(name).setLevel(old)


def bid_patterns(amount: str) -> list[re.Pattern[str]]:
    """Where a bid would show in a log line: a custom id's argument, a form's value, a
    JSON or repr field, a button label."""
    return [
        re.compile(rf":bid:{amount}\b"),
        re.compile(rf"""["']value["']:\s*["']{amount}["']"""),
        re.compile(rf"""["']?amount["']?\s*[:=]\s*["']?{amount}\b"""),
        re.compile(rf"""label=["']{amount}["']"""),
        re.compile(rf"bid (?:is |of )?\**{amount}\b"),
    ]


async def test_a_duel_at_debug_logs_no_bid_and_no_seed(simcord_env, caplog, debug_logging):
    caplog.set_level(logging.DEBUG)
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "duel challenge", member=bob, stake=10))
    answered(await bob.click(table.response.message, label="Accept"))
    seed = (await simcord_env.bot.tables.snapshot(1)).row.seed_hex
    assert logging.getLogger("aiosqlite").getEffectiveLevel() >= logging.WARNING

    panel = alice.user.dm_channel.last_message
    for typed in TYPED_BIDS:
        shown = answered(await alice.user.click(panel, label="Other amount…"))
        answered(await alice.user.submit_modal(shown, {"amount": typed}))
    answered(await bob.user.click(bob.user.dm_channel.last_message, label=str(BUTTON_BID)))
    live_log = caplog.text
    assert (await simcord_env.bot.tables.snapshot(1)).state.round == 2, "the round resolved"

    assert live_log, "the scan must have something to read"
    assert seed not in live_log
    for amount in (*TYPED_BIDS, str(BUTTON_BID)):
        for pattern in bid_patterns(amount):
            assert not pattern.search(live_log), f"{pattern.pattern} found in the log"


def test_the_patterns_catch_what_they_look_for() -> None:
    leaks = [
        "INTERACTION_CREATE {'custom_id': 'tz:1:3:bid:13'}",
        "components: [{'type': 4, 'custom_id': 'amount', 'value': '19'}]",
        "Bid(amount=19, tag_out=False)",
        '{"kind": "bid", "amount": 19}',
        "<Button style=<ButtonStyle.secondary: 2> label='13' emoji=None>",
        "your bid is **19**",
    ]
    for leak in leaks:
        amount = "13" if "13" in leak else "19"
        assert any(p.search(leak) for p in bid_patterns(amount)), leak
    assert not any(p.search("round 13 at 19:00, ply 19") for p in bid_patterns("19"))


def hand_patterns(hidden: set[str]) -> list[re.Pattern[str]]:
    """Where a hidden Hachi-hachi card would show in a log line: its id, its name (where
    no public card shares it), or its deck index as a hand button's custom id carries it."""
    words = [re.compile(re.escape(word)) for word in secret_words(hidden)]
    if not hidden:
        return words
    indices = "|".join(str(CARDS[card].index) for card in sorted(hidden))
    return [*words, re.compile(rf":(?:play|card|drawn):(?:{indices})\b")]


def test_the_hand_patterns_catch_what_they_look_for() -> None:
    hidden = {"pine-bright", "maple-chaff-1"}  # indices 0 and 26
    leaks = ["hand ['pine-bright']", "Crane with Sun", "custom_id='tz:1:4:play:26-14'"]
    for leak in leaks:
        assert any(p.search(leak) for p in hand_patterns(hidden)), leak
    public = ["tz:1:4:play:2", "Maple chaff", "ply 26", "tz:1:4:play:4-26"]
    assert not [text for text in public if any(p.search(text) for p in hand_patterns(hidden))]
    assert not any(p.search("tz:1:4:play:0") for p in hand_patterns(set()))


@pytest.mark.parametrize("names", [("alice", "bob"), ("alice", "bob", "carol")])
async def test_a_hachihachi_round_at_debug_logs_no_hidden_card_and_no_seed(
    simcord_env, caplog, debug_logging, names
):
    """Production fair dice, a whole round for two and for three seated (the clock decides
    first, the players click the rest): each step's log lines name no card still in a
    hand or in the draw pile, and nothing before the end holds the table's seed."""
    caplog.set_level(logging.DEBUG)
    for name in ("bot", "cogs"):
        assert logging.getLogger(name).isEnabledFor(logging.DEBUG)
    world = await make_world(simcord_env, *names)
    await opened(simcord_env, world, *names, first_dealer="draw", seats=len(names))
    seed = (await simcord_env.bot.tables.snapshot(TABLE)).row.seed_hex
    read = 0
    steps = 0

    async def scan(s: Any) -> None:
        nonlocal read, steps
        text, read = caplog.text[read:], len(caplog.text)
        if s.finished:  # the seed is revealed at the end; the hands are empty
            return
        assert seed not in text
        for pattern in hand_patterns(hidden_cards(s)):
            assert not pattern.search(text), f"{pattern.pattern} in the log while hidden"
        steps += 1

    await scan(await state(world))
    final = await play_to_end(world, Hands(world), deadlines=1, each=scan)
    assert final.finished and steps >= 4
    assert "rendered" in caplog.text, "the scan read the game's own debug lines"


class _Answered:
    """What Discord says to an interaction answer: 204, nothing more."""

    status = 204
    headers: ClassVar[dict[str, str]] = {}

    async def text(self, encoding: str = "utf-8") -> str:
        return ""

    async def __aenter__(self) -> _Answered:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Session:
    def request(self, method: str, url: str, **kwargs: Any) -> _Answered:
        return _Answered()


@pytest.fixture
def webhook_client_as_in_production(monkeypatch: pytest.MonkeyPatch) -> None:
    """SimCord answers interactions without discord.py's webhook HTTP client, which is
    what logs each request's URL (the interaction's token in it): every answer and
    followup also goes through that client's real `request`, against a session that
    answers 204, so the bot's interactions log what they log in production."""
    simulated = FakeWebhookAdapter.request

    async def request(self: Any, route: Any, session: Any, **kwargs: Any) -> Any:
        await AsyncWebhookAdapter().request(route, _Session())  # type: ignore[arg-type]
        return await simulated(self, route, session, **kwargs)

    monkeypatch.setattr(FakeWebhookAdapter, "request", request)


def interaction_tokens(env: Any) -> set[str]:
    """The token of every interaction the bot answered (its answer's or followup's URL)."""
    tokens = set()
    for request in env.http_requests:
        parts = request.path.split("/")
        for marker in ("interactions", "webhooks"):
            if marker in parts and len(parts) > parts.index(marker) + 2:
                tokens.add(parts[parts.index(marker) + 2])
    return tokens


@pytest.mark.parametrize("every_discord_logger_at_debug", [False, True])
async def test_clicks_at_debug_log_no_interaction_token(
    simcord_env,
    caplog,
    debug_logging,
    webhook_client_as_in_production,
    every_discord_logger_at_debug,
):
    """At LOG_LEVEL=DEBUG as `python -m bot` sets it up; and with discord.py's own loggers
    forced to DEBUG too (quieting alone is not relied on: the token is redacted)."""
    caplog.set_level(logging.DEBUG)
    if every_discord_logger_at_debug:
        for name in ("discord.webhook", "discord.http", "discord.gateway"):
            caplog.set_level(logging.DEBUG, logger=name)
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    opened = answered(await alice.slash(world.channel, "coinflip open", stake=10))
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await bob.click(opened.response.message, label="Rules"), ephemeral=True)
    tokens = interaction_tokens(simcord_env)
    assert len(tokens) >= 3
    records = [f"{record.name} {record.getMessage()}" for record in caplog.records]
    if every_discord_logger_at_debug:
        assert any("/interactions/" in line for line in records), "the client logged"
    leaks = [line for line in records for token in tokens if token in line]
    assert leaks == []
