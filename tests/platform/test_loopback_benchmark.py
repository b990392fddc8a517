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


def test_a_small_run_of_every_game_is_valid(capsys: pytest.CaptureFixture[str]) -> None:
    # Exit 0 only if every click of every game was answered and taken (Raise, Throw, Roll,
    # Roll with best keep, the duel's Accept and DM bids, the floor, payload floor and bare
    # clicks) and no route was missing.
    code = loopback_latency.main(
        [
            "--tables=6",
            "--game-tables=6",
            "--duels=6",
            "--clicks=3",
            "--warmup=1",
            "--burst=3",
            "--bursts=1",
            "--burst-warmup=1",
            "--ceiling-bursts=1",
            "--profile-bursts=1",
            "--runs=1",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    for game in loopback_latency.GAMES:
        assert f"\n{game} — " in out, out
    for figure in (
        "CPU ms/click in bursts",
        "CPU ms/click one at a time",
        "Discord requests/click",
        "sequential p99 × floor",
        "burst of 3 p50 × floor",
        "burst of 3 p99 × floor",
        "× payload floor",
        "the payload floor's answer",
        "throughput ceiling",
        "garbage collection in its",
        "CPU by step, ms a click",
    ):
        assert figure in out, out


async def test_a_click_by_custom_id_carries_a_select_s_values() -> None:
    discord = LoopbackDiscord()
    guild = discord.add_guild("g")
    channel = discord.add_channel(guild, "c")
    user = discord.add_user("u")
    message = discord._new_message(channel, {"components": []})
    sent: list[str] = []

    async def capture(frame: object, data: dict[str, object], op: int = 0) -> None:
        sent.append(json.dumps(data))

    discord._send = capture  # type: ignore[assignment,method-assign]
    await discord.click_id(user, int(message["id"]), "tz:1:2:main", ["7"])
    data = json.loads(sent[0])["data"]
    assert data == {"custom_id": "tz:1:2:main", "component_type": 3, "values": ["7"]}


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
