"""The bot process of `loopback_latency.py`: the real `TanzakuBot` (the default extensions,
the coin-flip test game and the bare button of `click_latency.py`), pointed at the loopback
Discord instead of discord.com. Started by the benchmark; not meant to be run by hand.

Once the gateway is ready it posts, for each table listed in `--plans`, the table message
(as the bot renders it) and a bare message into the table's channel; the benchmark finds
them among the messages the loopback Discord receives.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import json
import logging
import signal
import sys
import time
from pathlib import Path

import yarl

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import click_latency  # noqa: E402
import discord  # noqa: E402
from discord.gateway import DiscordWebSocket  # noqa: E402
from discord.http import Route  # noqa: E402

from cogs._ui.hub import TableHub  # noqa: E402

log = logging.getLogger("loopback_bot")


async def post_messages(bot: discord.Client, plans: list[dict[str, int]]) -> None:
    hub = TableHub.of(bot)  # type: ignore[arg-type]
    tables = bot.tables  # type: ignore[attr-defined]
    for plan in plans:
        channel = bot.get_channel(plan["channel_id"])
        assert isinstance(channel, discord.TextChannel), plan
        snapshot = await tables.snapshot(plan["table_id"])
        message = await channel.send(**hub.render(snapshot).as_kwargs())
        await tables.set_message(plan["table_id"], message.id)
        await channel.send(
            embed=click_latency.bare_embed(plan["n"], plan["host_id"]),
            view=click_latency.bare_view(plan["n"]),
        )


class Timings:
    """Wall time of a few steps of a click inside the bot process (`--timings`): where the
    difference from the bare button goes. Printed to stderr when the bot stops."""

    def __init__(self) -> None:
        self.ms: dict[str, list[float]] = {}
        self._gc_started = 0.0
        gc.callbacks.append(self._gc)

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            label = f"garbage collection, generation {info['generation']}"
            self.ms.setdefault(label, []).append((time.perf_counter() - self._gc_started) * 1000)

    def wrap(self, owner: object, name: str, label: str) -> None:
        original = getattr(owner, name)
        into = self.ms.setdefault(label, [])
        if asyncio.iscoroutinefunction(original):

            async def timed_async(*args: object, **kwargs: object) -> object:
                started = time.perf_counter()
                try:
                    return await original(*args, **kwargs)
                finally:
                    into.append((time.perf_counter() - started) * 1000)

            setattr(owner, name, timed_async)
        else:

            def timed(*args: object, **kwargs: object) -> object:
                started = time.perf_counter()
                try:
                    return original(*args, **kwargs)
                finally:
                    into.append((time.perf_counter() - started) * 1000)

            setattr(owner, name, timed)

    def report(self) -> None:
        for label, values in self.ms.items():
            if values:
                ordered = sorted(values)
                p50 = ordered[len(ordered) // 2]
                p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
                sys.stderr.write(
                    f"bot timing {label:<34} n={len(values):6d}"
                    f" p50 {p50:7.3f} ms  p99 {p99:7.3f} ms  max {ordered[-1]:7.3f} ms\n"
                )


async def main(args: argparse.Namespace) -> None:
    Route.BASE = args.api
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(args.gateway)
    plans = json.loads(args.plans.read_text())
    bot = click_latency.make_bot(
        args.database_url, args.synchronous, metrics_port=0 if args.metrics else None
    )
    await bot.add_cog(click_latency.BareCog(bot))
    # Every guild arrives right after READY here: no need for discord.py's 2 s wait for
    # more (start-up only; nothing timed).
    bot._connection.guild_ready_timeout = 0.05
    posted = False

    async def on_ready() -> None:
        nonlocal posted
        if not posted:
            posted = True
            await post_messages(bot, plans)

    bot.add_listener(on_ready, "on_ready")
    timings = Timings() if args.timings else None
    if timings is not None:
        hub = TableHub.of(bot)
        timings.wrap(hub, "dispatch", "TableHub.dispatch (whole click)")
        timings.wrap(bot.tables, "act", "TableService.act")
        timings.wrap(bot.tables, "game_of", "TableService.game_of")
        timings.wrap(hub, "render", "TableHub.render")
        timings.wrap(hub, "_edit_through", "answer through the interaction")
        timings.wrap(hub, "deliver_notice", "pending-notice check (after)")
    # The benchmark ends this process with SIGTERM: close the bot so the database is closed
    # cleanly (and a profile, when asked for, is written).
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))
    profile = cProfile.Profile() if args.profile else None
    if profile is not None:
        profile.enable()
    try:
        async with bot:
            await bot.start("not-a-real-token")
    finally:
        if profile is not None:
            profile.disable()
            profile.dump_stats(args.profile)
        if timings is not None:
            timings.report()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", required=True)
    parser.add_argument("--gateway", required=True)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--plans", required=True, type=Path)
    parser.add_argument("--synchronous", default="FULL")
    parser.add_argument("--profile", help="write a cProfile of the whole run to this file")
    parser.add_argument("--timings", action="store_true", help="time steps of each click")
    parser.add_argument(
        "--metrics", action="store_true", help="serve Prometheus metrics (on a free port)"
    )
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(parser.parse_args()))
