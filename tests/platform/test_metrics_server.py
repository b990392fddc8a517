"""The metrics endpoint is bounded (bot/metrics.py): an idle connection is closed after the
keep-alive, connections beyond the cap are refused, scrapes made together share one
reading of the metrics, and a token, when set, is required. Real sockets on 127.0.0.1."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest

from bot.metrics import LiveCounts, MetricsServer, PrometheusMeter
from tests.conftest import BotFactory


async def eventually(check: Callable[[], bool], within: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within
    while not check():
        assert loop.time() < give_up, "never happened"
        await asyncio.sleep(0.005)


async def no_tables() -> LiveCounts:
    return {}


@pytest.fixture
async def serve() -> AsyncIterator[Callable[..., Awaitable[MetricsServer]]]:
    """Start a metrics server on a free port with the given options; stopped after."""
    started: list[MetricsServer] = []

    async def start(
        live_tables: Callable[[], Awaitable[LiveCounts]] = no_tables, **options: Any
    ) -> MetricsServer:
        server = MetricsServer(
            PrometheusMeter(["coinflip"]), "127.0.0.1", 0, live_tables=live_tables, **options
        )
        await server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        await server.stop()


def url(server: MetricsServer) -> str:
    return f"http://127.0.0.1:{server.port}/metrics"


async def get(server: MetricsServer, **headers: str) -> tuple[int, bytes]:
    async with aiohttp.ClientSession() as session, session.get(url(server), headers=headers) as r:
        return r.status, await r.read()


async def test_an_idle_connection_is_closed_after_the_keep_alive(serve):
    server = await serve(keepalive=0.2)
    # A connection that never sends a byte.
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    assert await asyncio.wait_for(reader.read(), 10) == b"", "closed by the server"
    writer.close()
    # One that scraped once and kept the connection alive.
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    answer = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    assert answer.startswith(b"HTTP/1.1 200")
    assert b"tanzaku_live_tables" in await asyncio.wait_for(reader.read(), 10)
    writer.close()
    await eventually(lambda: server.connections == 0)


async def test_beyond_the_cap_an_idle_connection_gives_way(serve):
    server = await serve(max_connections=4)
    held = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(4)]
    await eventually(lambda: server.connections == 4)
    status, body = await get(server)
    assert status == 200 and b"tanzaku_live_tables" in body, "a scrape still gets in"
    oldest = held[0][0]
    assert await asyncio.wait_for(oldest.read(), 10) == b"", "the longest-held idle one went"
    assert server.evicted == 1 and server.connections <= 4
    for _, writer in held:
        writer.close()


async def test_beyond_the_cap_with_every_connection_busy_a_new_one_is_refused(serve):
    release = asyncio.Event()

    async def slow_tables() -> LiveCounts:
        await release.wait()  # a database slow to answer: four scrapes in hand
        return {}

    server = await serve(slow_tables, max_connections=4, reuse=0.0)
    scrapes = [asyncio.create_task(get(server)) for _ in range(4)]
    await eventually(lambda: server.waiting == 4)
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    refused = await asyncio.wait_for(reader.read(), 10)
    assert refused.startswith(b"HTTP/1.1 503 "), "told, and closed"
    writer.close()
    assert server.refused == 1 and server.connections == 4
    release.set()
    assert [status for status, _ in await asyncio.gather(*scrapes)] == [200] * 4


async def test_scrapes_made_together_share_one_reading(serve):
    release = asyncio.Event()
    calls = 0

    async def slow_tables() -> LiveCounts:
        nonlocal calls
        calls += 1
        await release.wait()  # a database slow to answer
        return {("coinflip", "lobby"): calls}

    server = await serve(slow_tables, reuse=0.0)
    scrapes = [asyncio.create_task(get(server)) for _ in range(16)]
    await eventually(lambda: server.waiting == 16)
    release.set()
    answers = await asyncio.gather(*scrapes)
    assert {status for status, _ in answers} == {200}
    assert len({body for _, body in answers}) == 1, "one output for all"
    assert calls == 1 and server.readings == 1


async def test_a_reading_serves_the_scrapes_of_the_next_moment(serve):
    server = await serve(reuse=60.0)
    first = await get(server)
    again = await get(server)
    assert first == again and server.readings == 1
    server.reuse = 0.0
    await get(server)
    assert server.readings == 2


async def test_a_token_when_set_is_required(serve):
    server = await serve(token="s3cret-token")
    status, _ = await get(server)
    assert status == 401
    assert (await get(server, Authorization="Bearer guess"))[0] == 401
    assert (await get(server, Authorization="s3cret-token"))[0] == 401
    status, body = await get(server, Authorization="Bearer s3cret-token")
    assert status == 200 and b"tanzaku_live_tables" in body


async def test_the_bots_metrics_token_setting_is_asked_for(bot_factory: BotFactory):
    bot = bot_factory(settings={"metrics_port": 0, "metrics_token": "from-the-settings"})
    await bot.setup_hook()
    assert bot.metrics is not None
    assert (await get(bot.metrics))[0] == 401
    assert (await get(bot.metrics, Authorization="Bearer from-the-settings"))[0] == 200


async def test_only_the_metrics_are_served(serve):
    server = await serve()
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{server.port}/") as response:
            assert response.status == 404
        async with session.post(url(server)) as response:
            assert response.status == 405
