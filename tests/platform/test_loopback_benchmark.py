"""The loopback benchmark (benchmarks/loopback_latency.py) keeps working: the bot in its own
process against the loopback Discord answers every kind of click the benchmark times, and
the loopback Discord refuses what it does not serve, so a missing route shows."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import aiohttp
import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))

import loopback_latency  # noqa: E402
from loopback_discord import LoopbackDiscord  # noqa: E402


def test_a_small_run_of_every_case_is_valid(capsys: pytest.CaptureFixture[str]) -> None:
    # Exit 0 only if every click was answered and taken (Raise, bare, the duel's Accept
    # and DM bids), every table message edit arrived and no route was missing.
    code = loopback_latency.main(
        [
            "--tables=6",
            "--clicks=6",
            "--warmup=1",
            "--burst=3",
            "--bursts=2",
            "--burst-warmup=1",
            "--duels=4",
            "--game-clicks=6",
            "--runs=1",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    for figure in (
        "sequential p99 / durable floor",
        "burst of 3 p50 / durable floor",
        "burst of 3 p99 / durable floor",
        "throughput ceiling, clicks/s",
        "durable floor ceiling",
        "a Raise click's CPU by step",
        "Strength Duel DM bid p99 / bare",
    ):
        assert figure in out, out
    assert "public table message edited" in out and "(none)" not in out, out


async def test_an_unknown_route_is_refused_and_counted() -> None:
    discord = LoopbackDiscord()
    await discord.start()
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{discord.api_base}/guilds/1/audit-logs") as response:
                assert response.status == 404
            async with session.get(f"{discord.api_base}/users/@me") as response:
                # Exactly this header: discord.py reads a body as JSON only then.
                assert response.headers["Content-Type"] == "application/json"
                assert json.loads(await response.text())["bot"] is True
    finally:
        await discord.stop()
    assert discord.unknown == ["GET /guilds/1/audit-logs"]


async def test_a_click_on_a_message_without_that_button_is_refused() -> None:
    discord = LoopbackDiscord()
    guild = discord.add_guild("g")
    channel = discord.add_channel(guild, "c")
    message = discord._new_message(channel, {"components": []})
    with pytest.raises(LookupError):
        discord.button(int(message["id"]), "Raise 5")
