"""Prometheus metrics (TANZAKU_METRICS_PORT): the real bot serves them on its own loop,
a real HTTP scrape reads them while tables play, and every value moves as it should;
unset, nothing listens."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app import MetricsUnavailable, TanzakuBot
from bot.games.common import COMPUTER_IDS
from bot.interactions import kind_of
from bot.meter import NO_METER
from tests.conftest import BotFactory
from tests.support.sim import answered, make_world, refusal

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


@pytest.fixture
def simcord_bot(bot_factory: BotFactory, dice: Any) -> TanzakuBot:
    # Port 0: the system picks a free one, read back from the server.
    return bot_factory(settings={"metrics_port": 0}, dice_factory=lambda row: dice)


async def scrape(bot: TanzakuBot) -> Samples:
    """GET /metrics over a real connection, parsed as Prometheus parses it. Each scrape
    here reads the change just made: the second a reading serves later scrapes for is
    tests/platform/test_metrics_server.py's subject."""
    assert bot.metrics is not None
    bot.metrics.reuse = 0.0
    url = f"http://127.0.0.1:{bot.metrics.port}/metrics"
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=")
        text = await response.text()
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def moved(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


def every(samples: Samples, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    return {labels: v for (n, labels), v in samples.items() if n == name}


def listening_ports() -> set[int]:
    """The TCP ports this process listens on (its own sockets only: other processes on
    the machine come and go), from /proc."""
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    ports = set()
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        path = Path(table)
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            listening = fields[3] == "0A"
            if listening and fields[9] in inodes:
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


async def test_a_scrape_follows_a_table_through_clicks_a_refusal_and_a_computer_move(
    simcord_env: Any, dice: Any
) -> None:
    bot: TanzakuBot = simcord_env.bot
    assert bot.metrics is not None and bot.metrics.port in listening_ports()
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    commits_before = bot.db.commits  # type: ignore[attr-defined]
    before = await scrape(bot)
    assert value(before, "tanzaku_live_tables", game="coinflip", status="lobby") == 0
    assert value(before, "tanzaku_live_tables", game="hazard", status="running") == 0
    assert value(before, "process_resident_memory_bytes") > 0

    opened = answered(await alice.slash(world.channel, "coinflip open", stake=10))
    lobby = await scrape(bot)
    assert value(lobby, "tanzaku_live_tables", game="coinflip", status="lobby") == 1
    assert moved(before, lobby, "tanzaku_table_actions_total", game="coinflip", source="member")
    assert moved(before, lobby, "tanzaku_interactions_answered_total", kind="command") == 1
    assert moved(before, lobby, "tanzaku_interaction_answer_seconds_count", kind="command") == 1

    table = opened.response.message
    assert "Only the table's host" in refusal(await bob.click(table, label="Add computer"))
    answered(await alice.click(table, label="Add computer"))
    answered(await alice.click(world.channel.last_message, label="Start"))
    playing = await scrape(bot)
    assert value(playing, "tanzaku_live_tables", game="coinflip", status="lobby") == 0
    assert value(playing, "tanzaku_live_tables", game="coinflip", status="running") == 1

    # Alice calls heads and misses; the computer calls heads (its draw) and wins.
    dice.extend([2, 1, 1])
    answered(await alice.click(world.channel.last_message, label="Heads"))
    await bot.tables.computers.idle()
    snapshot = await bot.tables.snapshot(1)
    assert snapshot.state.finished and snapshot.state.winner == COMPUTER_IDS[0]
    after = await scrape(bot)

    actions = "tanzaku_table_actions_total"
    # open, add computer, start, the call: alice's; the winning call: the computer's.
    assert moved(before, after, actions, game="coinflip", source="member") == 4
    assert moved(before, after, actions, game="coinflip", source="computer") == 1
    assert moved(before, after, actions, game="coinflip", source="deadline") == 0
    assert moved(before, after, "tanzaku_refusals_total", kind="click", reason="NotAllowed") == 1
    assert sum(every(after, "tanzaku_refusals_total").values()) == 1, "one refusal, no more"
    # One command, four clicks (the refused one is answered too), each timed.
    assert moved(before, after, "tanzaku_interactions_answered_total", kind="click") == 4
    assert moved(before, after, "tanzaku_interaction_answer_seconds_count", kind="click") == 4
    assert moved(before, after, "tanzaku_interactions_answered_total", kind="command") == 1
    assert every(after, "tanzaku_interaction_failures_total") == {}, "nothing failed"
    decisions = "tanzaku_computer_decision_seconds_count"
    assert moved(before, after, decisions, game="coinflip") == 1
    assert value(after, "tanzaku_live_tables", game="coinflip", status="running") == 0
    # Every commit the database made is observed, with the units it held.
    commits = bot.db.commits - commits_before  # type: ignore[attr-defined]
    assert commits > 0
    assert moved(before, after, "tanzaku_db_commit_seconds_count", backend="sqlite") == commits
    assert moved(before, after, "tanzaku_db_commit_units_count", backend="sqlite") == commits
    assert moved(before, after, "tanzaku_db_commit_units_sum", backend="sqlite") >= commits


async def test_deadlines_fired_are_counted_by_kind_and_act_for_the_table(
    simcord_env: Any, dice: Any
) -> None:
    bot: TanzakuBot = simcord_env.bot
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    answered(await alice.slash(world.channel, "coinflip open", stake=10))
    before = await scrape(bot)
    assert value(before, "tanzaku_live_tables", game="coinflip", status="lobby") == 1

    await simcord_env.advance_time(bot.settings.lobby_timeout_seconds + 1)
    expired = await scrape(bot)
    assert value(expired, "tanzaku_live_tables", game="coinflip", status="lobby") == 0
    assert moved(before, expired, "tanzaku_deadlines_fired_total", kind="lobby") == 1
    assert moved(before, expired, "tanzaku_deadline_lateness_seconds_count", kind="lobby") == 1
    assert moved(before, expired, "tanzaku_deadlines_fired_total", kind="game") == 0
    actions = "tanzaku_table_actions_total"
    assert moved(before, expired, actions, game="coinflip", source="deadline") == 1

    opened = answered(await alice.slash(world.channel, "coinflip open", stake=10))
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    started = await scrape(bot)
    dice.extend([2])  # the turn's deadline calls heads for alice; tails: the turn passes
    await simcord_env.advance_time(31)
    fired = await scrape(bot)
    assert moved(started, fired, "tanzaku_deadlines_fired_total", kind="game") == 1
    assert moved(started, fired, "tanzaku_deadline_lateness_seconds_count", kind="game") == 1
    assert moved(started, fired, "tanzaku_deadlines_fired_total", kind="lobby") == 0
    assert moved(started, fired, actions, game="coinflip", source="deadline") == 1
    assert moved(started, fired, actions, game="coinflip", source="member") == 0
    assert value(fired, "tanzaku_live_tables", game="coinflip", status="running") == 1


async def test_unset_port_nothing_listens(bot_factory: BotFactory) -> None:
    listening = listening_ports()
    bot = bot_factory()
    await bot.setup_hook()
    assert bot.meter is NO_METER and bot.metrics is None
    assert listening_ports() == listening, "no socket was bound"


async def test_a_strength_duel_counts_its_forms_and_a_refused_bid(simcord_env: Any) -> None:
    bot: TanzakuBot = simcord_env.bot
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    before = await scrape(bot)
    challenge = answered(await alice.slash(world.channel, "duel challenge", member=bob, stake=10))
    answered(await bob.click(challenge.response.message, label="Accept"))
    panel = alice.user.dm_channel.last_message
    shown = answered(await alice.user.click(panel, label="Other amount…"))
    assert "whole number" in refusal(await alice.user.submit_modal(shown, {"amount": "lots"}))
    shown = answered(await alice.user.click(panel, label="Other amount…"))
    answered(await alice.user.submit_modal(shown, {"amount": "23"}))
    answered(await bob.user.click(bob.user.dm_channel.last_message, label="2"))
    after = await scrape(bot)

    actions = "tanzaku_table_actions_total"
    # The challenge, its acceptance, alice's bid and bob's (which reveals the round).
    assert moved(before, after, actions, game="strength_duel", source="member") == 4
    answered_total = "tanzaku_interactions_answered_total"
    assert moved(before, after, answered_total, kind="command") == 1
    # Accept, two "Other amount…" (each answered by showing its form), bob's bid button.
    assert moved(before, after, answered_total, kind="click") == 4
    assert moved(before, after, answered_total, kind="form") == 2
    refusals = every(after, "tanzaku_refusals_total")
    assert list(refusals) == [(("kind", "form"), ("reason", "NotAllowed"))]
    assert moved(before, after, "tanzaku_refusals_total", kind="form", reason="NotAllowed") == 1
    assert value(after, "tanzaku_live_tables", game="strength_duel", status="running") == 1


async def test_failed_and_unanswered_interactions_are_counted_by_reason(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot: TanzakuBot = simcord_env.bot
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    opened = answered(await alice.slash(world.channel, "coinflip open", stake=10))
    table = opened.response.message
    before = await scrape(bot)
    failures = "tanzaku_interaction_failures_total"

    # Discord refuses the answer to bob's join (a 5xx): the join is saved, and he is
    # told so by a second answer.
    simcord_env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    await bob.click(table, label="Join")
    refused = await scrape(bot)
    assert moved(before, refused, failures, kind="click", reason="discord_error") == 1
    assert moved(before, refused, "tanzaku_interactions_answered_total", kind="click") == 1
    assert moved(before, refused, "tanzaku_table_actions_total", game="coinflip", source="member")

    # A failure inside the handler reaches the apology.
    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("broken for the test")

    monkeypatch.setattr(bot.tables, "join", broken)
    answered(await carol.click(world.channel.last_message, label="Join"))
    errored = await scrape(bot)
    assert moved(refused, errored, failures, kind="click", reason="error") == 1

    # A click nobody answers: counted once Discord's 3 s have passed.
    hub: Any = bot.table_hub

    async def silent(*args: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr(hub, "dispatch", silent)
    result = await carol.click(world.channel.last_message, label="Join")
    assert not result.acknowledged
    await simcord_env.advance_time(4)  # past Discord's 3 s (SimCord may have been already)
    unanswered = await scrape(bot)
    assert moved(errored, unanswered, failures, kind="click", reason="unanswered") == 1
    assert moved(errored, unanswered, "tanzaku_interactions_answered_total", kind="click") == 0
    assert sum(every(unanswered, failures).values()) == 3


async def test_closing_the_bot_stops_listening(simcord_env: Any) -> None:
    bot: TanzakuBot = simcord_env.bot
    assert bot.metrics is not None
    port = bot.metrics.port
    assert port in listening_ports()
    await bot.close()
    assert bot.metrics is None and port not in listening_ports()


async def test_a_metrics_port_already_taken_stops_the_start(bot_factory: BotFactory) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        bot = bot_factory(settings={"metrics_port": taken.getsockname()[1]})
        with pytest.raises(MetricsUnavailable):
            await bot.setup_hook()
    assert bot.metrics is None


@pytest.mark.parametrize(
    ("interaction_type", "data", "kind"),
    [
        (discord.InteractionType.application_command, {}, "command"),
        (discord.InteractionType.component, {"component_type": 2}, "click"),
        (discord.InteractionType.component, {"component_type": 3}, "select"),
        (discord.InteractionType.component, {"component_type": 5}, "select"),
        (discord.InteractionType.modal_submit, {}, "form"),
        (discord.InteractionType.autocomplete, {}, "autocomplete"),
    ],
)
def test_each_kind_of_interaction_has_its_label(
    interaction_type: discord.InteractionType, data: dict[str, int], kind: str
) -> None:
    stand_in: Any = SimpleNamespace(type=interaction_type, data=data)
    assert kind_of(stand_in) == kind
