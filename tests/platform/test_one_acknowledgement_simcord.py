"""One acknowledgement per interaction: the slow-work deferral (bot/interactions.py) and
the interaction's own answer are decided once, before either reaches Discord. Whichever
sets off first is the interaction's response; the other completes it (a followup, an edit
of the deferred message) and is never a second acknowledgement that Discord refuses
(400, code 40060) and the metrics count as a failure.

Each race is made deterministic: one side's trip to Discord waits on an event the other
side sets, never on a sleep."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from simcord.http.client import FakeWebhookAdapter

from bot import interactions
from bot.app import TanzakuBot
from tests.conftest import BotFactory
from tests.platform.test_metrics_simcord import every, scrape
from tests.support.sim import answered, labels, make_world

DEFERRALS = {5, 6}
"""A deferred answer to come (a command's "thinking…"), a deferred update (a click's)."""


@pytest.fixture
def simcord_bot(bot_factory: BotFactory, dice: Any) -> TanzakuBot:
    return bot_factory(settings={"metrics_port": 0}, dice_factory=lambda row: dice)


@pytest.fixture(autouse=True)
def quick_deferral(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deferral timer fires after a moment rather than Discord's margin of 2 s."""
    monkeypatch.setattr(interactions, "ACKNOWLEDGE_AFTER", 0.05)


def callbacks(env: Any) -> list[int]:
    """Every initial response the bot sent to Discord, by type, in order."""
    return [
        request.json["type"]
        for request in env.http_requests
        if request.method == "POST" and request.path.endswith("/callback")
    ]


def deferral_timer_fired(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Set once the deferral timer has fired (and done whatever it decided)."""
    fired = asyncio.Event()
    original = interactions._defer_later

    def spy(interaction: Any) -> None:
        original(interaction)
        fired.set()

    monkeypatch.setattr(interactions, "_defer_later", spy)
    return fired


async def deferrals_done() -> None:
    """Any deferral the timer set off has had its answer from Discord."""
    current = asyncio.current_task()
    tasks = [t for t in asyncio.all_tasks() if t.get_name() == "tanzaku-defer" and t is not current]
    await asyncio.gather(*tasks, return_exceptions=True)


def hold_answers(
    env: Any, monkeypatch: pytest.MonkeyPatch, answer_type: int, until: asyncio.Event
) -> None:
    """The interaction's own answer (a callback of `answer_type`) is on its way to Discord
    when the deferral timer fires: it arrives only after the timer has done its work."""
    original = FakeWebhookAdapter.request

    async def slow(self: Any, route: Any, session: Any, *, payload: Any = None, **kwargs: Any):
        if route.url.endswith("/callback") and (payload or {}).get("type") == answer_type:
            await env.external_wait(until.wait(), reason="the answer's slow trip")
            await deferrals_done()
        return await original(self, route, session, payload=payload, **kwargs)

    monkeypatch.setattr(FakeWebhookAdapter, "request", slow)


async def running_coinflip(world: Any) -> Any:
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "coinflip open", stake=10)).response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    return world.channel.last_message


def deferral_waits_for_the_answer(
    env: Any, monkeypatch: pytest.MonkeyPatch
) -> tuple[asyncio.Event, asyncio.Event]:
    """Hold every deferral's trip to Discord until the answer is ready: returns the event
    set when a deferral sets off and the one the test sets when the answer is ready (the
    answer is then ready before the deferral lands)."""
    deferring, answering = asyncio.Event(), asyncio.Event()
    original = FakeWebhookAdapter.request

    async def slow(self: Any, route: Any, session: Any, *, payload: Any = None, **kwargs: Any):
        if route.url.endswith("/callback") and (payload or {}).get("type") in DEFERRALS:
            deferring.set()
            await env.external_wait(answering.wait(), reason="the deferral's slow trip")
        return await original(self, route, session, payload=payload, **kwargs)

    monkeypatch.setattr(FakeWebhookAdapter, "request", slow)
    return deferring, answering


async def test_a_click_answer_on_its_way_as_the_timer_fires_is_the_only_acknowledgement(
    simcord_env: Any, dice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = await make_world(simcord_env, "alice", "bob")
    table = await running_coinflip(world)
    before = len(callbacks(simcord_env))
    hold_answers(simcord_env, monkeypatch, 7, deferral_timer_fired(monkeypatch))
    dice.extend([1])  # heads: alice wins
    answered(await world["alice"].click(table, label="Heads"))
    assert callbacks(simcord_env)[before:] == [7], "the update alone, no deferral"
    assert "Winner" in world.channel.last_message.embeds[0].description
    assert every(await scrape(simcord_env.bot), "tanzaku_interaction_failures_total") == {}


async def test_a_command_answer_on_its_way_as_the_timer_fires_is_the_only_acknowledgement(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = await make_world(simcord_env, "alice")
    hold_answers(simcord_env, monkeypatch, 4, deferral_timer_fired(monkeypatch))
    result = answered(await world["alice"].slash(world.channel, "wallet"), ephemeral=True)
    assert callbacks(simcord_env) == [4], "the answer alone, no deferral"
    assert "Your wallet holds" in result.response.content and result.followups == []
    assert every(await scrape(simcord_env.bot), "tanzaku_interaction_failures_total") == {}


async def test_a_click_answer_ready_while_the_deferral_is_on_its_way_edits_what_it_deferred(
    simcord_env: Any, dice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The timer fired first: its deferral is the response, and the click's update,
    ready while the deferral is still on its way, waits for it and edits the message."""
    world = await make_world(simcord_env, "alice", "bob")
    table = await running_coinflip(world)
    deferring, answering = deferral_waits_for_the_answer(simcord_env, monkeypatch)
    service = simcord_env.bot.tables
    real_act = service.act

    async def slow_act(*args: Any, **kwargs: Any) -> Any:
        # Slow work: the deferral sets off meanwhile.
        await simcord_env.external_wait(deferring.wait(), reason="slow work")
        return await real_act(*args, **kwargs)

    monkeypatch.setattr(service, "act", slow_act)
    real_update = interactions.update_message

    async def update(interaction: Any, **fields: Any) -> None:
        answering.set()
        await real_update(interaction, **fields)

    import cogs._ui.sync

    monkeypatch.setattr(cogs._ui.sync, "update_message", update)
    before = len(callbacks(simcord_env))
    requests_before = len(simcord_env.http_requests)
    dice.extend([1])
    result = answered(await world["alice"].click(table, label="Heads"))
    assert callbacks(simcord_env)[before:] == [6], "the deferral alone"
    made = simcord_env.http_requests[requests_before:]
    edits = [r for r in made if r.path.endswith("/messages/@original")]
    assert [r.method for r in edits] == ["PATCH"], "the update edited the deferred message"
    await asyncio.gather(*simcord_env.bot.background_tasks)
    assert "Winner" in world.channel.last_message.embeds[0].description
    assert [m.content for m in result.followups if m.ephemeral] == []
    assert every(await scrape(simcord_env.bot), "tanzaku_interaction_failures_total") == {}


async def test_a_command_answer_ready_while_the_deferral_is_on_its_way_is_its_followup(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = await make_world(simcord_env, "alice")
    deferring, answering = deferral_waits_for_the_answer(simcord_env, monkeypatch)
    economy = simcord_env.bot.economy
    real_balance = economy.balance

    async def slow_balance(*args: Any, **kwargs: Any) -> Any:
        await simcord_env.external_wait(deferring.wait(), reason="slow work")
        return await real_balance(*args, **kwargs)

    monkeypatch.setattr(economy, "balance", slow_balance)
    import cogs._ui.primitives

    real_respond = cogs._ui.primitives.respond

    async def respond(interaction: Any, **kwargs: Any) -> None:
        answering.set()
        await real_respond(interaction, **kwargs)

    monkeypatch.setattr(cogs._ui.primitives, "respond", respond)
    result = answered(await world["alice"].slash(world.channel, "wallet"), ephemeral=True)
    assert callbacks(simcord_env) == [5], "the deferral alone"
    said = [m.content for m in [result.response, *result.followups] if m is not None]
    assert any("Your wallet holds" in text for text in said), said
    assert every(await scrape(simcord_env.bot), "tanzaku_interaction_failures_total") == {}


async def test_a_hand_shown_while_the_deferral_is_on_its_way_is_a_private_followup(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "My hand" on the table message: the timer's deferred update of the table message is
    on its way when the hand is ready. The hand is a new private message; the public
    table message, which the deferral made the response, never shows it."""
    from cogs._ui.hands import HandKeeper
    from tests.cogs.test_hachihachi_simcord import started, table_message

    world = await started(simcord_env, "alice", "bob", turn_seconds=60)
    table = await table_message(world)
    deferring, answering = deferral_waits_for_the_answer(simcord_env, monkeypatch)
    service = simcord_env.bot.tables
    real_snapshot = service.snapshot

    async def slow_snapshot(*args: Any, **kwargs: Any) -> Any:
        await simcord_env.external_wait(deferring.wait(), reason="slow work")
        return await real_snapshot(*args, **kwargs)

    monkeypatch.setattr(service, "snapshot", slow_snapshot)
    real_show = HandKeeper.show

    async def show(self: Any, *args: Any, **kwargs: Any) -> None:
        answering.set()
        await real_show(self, *args, **kwargs)

    monkeypatch.setattr(HandKeeper, "show", show)
    before = len(callbacks(simcord_env))
    result = answered(await world["alice"].click(table, label="My hand"))
    monkeypatch.setattr(service, "snapshot", real_snapshot)
    assert callbacks(simcord_env)[before:] == [6], "the deferral alone"
    [hand] = [m for m in result.followups if m.ephemeral]
    assert labels(hand) and "My hand" not in labels(hand), "the hand, not the table"
    shown = await table_message(world)
    assert shown.id == table.id and shown.embeds[0].to_dict() == table.embeds[0].to_dict()
    assert every(await scrape(simcord_env.bot), "tanzaku_interaction_failures_total") == {}
    # The turn's deadlines play for alice (a card, then its capture): her kept hand is
    # redrawn where it is, and the table message stays the table's.
    await simcord_env.advance_time(61)
    await simcord_env.advance_time(61)
    assert (await service.snapshot(1)).state.turn == world["bob"].id
    assert "My hand" in labels(await table_message(world)), "the table, not a hand"
