"""Run by test_sigterm.py: the real bot, on SimCord inside this process, stopped by SIGTERM.

    python -m tests.platform.sigterm_child DB_PATH [--in-flight]

The bot runs through `bot.__main__.serve`, with the same signal handling as
`python -m bot`; only the connection differs (SimCord's in-memory Discord instead of the
gateway). Once a coin-flip table is live it prints "ready" on stdout. With `--in-flight`
a player's "Raise 5" click is then under way: its action waits until the SIGTERM has been
received ("in-flight" is printed when it starts), so the stop must let it finish.
After the stop it prints "click acknowledged=<bool>" (with `--in-flight`) and "exit".
Logs go to stderr at INFO, including `bot.__main__.STOPPED_CLEANLY`.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path
from typing import Any

import simcord
from simcord import InteractionResult

from bot.__main__ import StopOnSignal, serve, setup_logging
from bot.app import TanzakuBot, create_bot
from bot.config import Settings
from tests.support.coinflip import TEST_CATALOG


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def main(path: Path, in_flight: bool) -> None:
    settings = Settings(
        _env_file=None,
        token="not-a-real-token",
        database_path=path,
        log_level="INFO",
    )
    setup_logging(settings.log_level)
    bot = create_bot(settings, catalog=TEST_CATALOG)
    stopper = StopOnSignal(bot)
    envs: list[simcord.Env] = []
    clicks: list[asyncio.Task[InteractionResult]] = []

    if in_flight:
        hold_until_stopping(bot, stopper)

    async def connect() -> None:
        env = simcord.Env(bot)
        envs.append(env)
        await env.start()
        with env.time_context():
            table, raiser = await live_table(env)
            if in_flight:
                clicks.append(asyncio.create_task(raiser.click(table, label="Raise 5")))
            else:
                say("ready")
            # Like `bot.start`, return only once the connection ends: here when the stop
            # was asked for (the close itself is awaited by `serve`).
            await stopper.requested.wait()

    await serve(bot, connect, stopper)
    for click in clicks:
        result = await click
        say(f"click acknowledged={result.acknowledged}")
    for env in envs:
        await env.shutdown()
    say("exit")


async def live_table(env: simcord.Env) -> tuple[Any, Any]:
    """A started two-player coin-flip table; returns its message and one of its players."""
    assert isinstance(env.bot, TanzakuBot)
    await env.bot.tree.sync()
    guild = env.create_guild("sigterm")
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    opened = await alice.slash(channel, "coinflip open", stake=10)
    assert opened.acknowledged and opened.response is not None, opened
    table = opened.response.message
    assert (await bob.click(table, label="Join")).acknowledged
    assert (await alice.click(table, label="Start")).acknowledged
    return table, bob


def hold_until_stopping(bot: TanzakuBot, stopper: StopOnSignal) -> None:
    """Make the next table action wait for the SIGTERM, then give the stop a head start:
    half a second, or until the bot and its database are closed (which a stop that does
    not wait for the action in flight gets to at once: the action then finds the database
    closed and is lost)."""
    real_act = bot.tables.act
    real_close = bot.db.close
    # A thread's event, waited for in a thread: SimCord would make an asyncio timeout
    # virtual (it never fires unless the test moves the clock), this one is real time.
    database_closed = threading.Event()

    async def close() -> None:
        await real_close()
        database_closed.set()

    async def act(*args: Any, **kwargs: Any) -> Any:
        say("in-flight")
        await stopper.requested.wait()
        await asyncio.to_thread(database_closed.wait, 0.5)
        return await real_act(*args, **kwargs)

    bot.tables.act = act  # type: ignore[method-assign]
    bot.db.close = close  # type: ignore[method-assign]


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), "--in-flight" in sys.argv[2:]))
