"""The bot process of `loopback_latency.py`: the real `TanzakuBot` (the default extensions,
the coin-flip test game, the bare button of `click_latency.py` and the durable floor's
button below), pointed at the loopback Discord instead of discord.com. Started by the
benchmark; not meant to be run by hand.

Once the gateway is ready it posts, for each table listed in `--plans`, the table message
(as the bot renders it), a bare message, a floor message and a payload floor message into
the table's channel; the benchmark finds them among the messages the loopback Discord
receives.

The durable floor is the least a bot that keeps its promise ("a saved click survives power
loss") can do: a bare discord.py button that commits one row to its own SQLite file (WAL,
``synchronous=FULL``, one aiosqlite connection, one COMMIT per click) before it answers with
the same edit as the bare button. The **payload floor** is the same durable button answering
with an edit of a game's size: the embeds and components of that game's table message (sent
by the benchmark as JSON, `SIGHUP` to read it again), built into `discord.Embed` and `View`
objects at every click.

`SIGUSR1` opens a measuring window and `SIGUSR2` closes it (:class:`Windows`): the
garbage collections made in it are counted and timed, and written to
`<control>.<n>.json`; when the `--control` file says `profile:<path>`, the window is also
profiled (CPU time), the profile of every window with that path adding up in `<path>`.
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
from typing import Any

import aiosqlite
import yarl

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import click_latency  # noqa: E402
import discord  # noqa: E402
from discord.ext import commands  # noqa: E402
from discord.gateway import DiscordWebSocket  # noqa: E402
from discord.http import Route  # noqa: E402

from cogs._ui.hub import TableHub  # noqa: E402

log = logging.getLogger("loopback_bot")


class DurableFloor:
    """One row committed durably per click: the floor's whole storage."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.connection: aiosqlite.Connection | None = None

    async def open(self) -> None:
        self.connection = await aiosqlite.connect(self.path)
        await self.connection.execute("PRAGMA journal_mode=WAL")
        await self.connection.execute("PRAGMA synchronous=FULL")
        await self.connection.execute(
            "CREATE TABLE IF NOT EXISTS clicks (id INTEGER PRIMARY KEY, n INTEGER NOT NULL,"
            " user_id INTEGER NOT NULL, at REAL NOT NULL)"
        )
        await self.connection.commit()

    async def save(self, n: int, user_id: int) -> None:
        assert self.connection is not None
        await self.connection.execute(
            "INSERT INTO clicks (n, user_id, at) VALUES (?, ?, ?)", (n, user_id, time.time())
        )
        await self.connection.commit()

    async def close(self) -> None:
        if self.connection is not None:
            await self.connection.close()


FLOOR: DurableFloor | None = None


class FloorButton(click_latency.BareButton, template=r"floor:(?P<n>[0-9]+):(?P<v>[a-z]+)"):
    """The bare button with one durable row committed before the same answer."""

    PREFIX = "floor"

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        assert FLOOR is not None
        await FLOOR.save(self.n, interaction.user.id)
        await super().callback(interaction)


class Payload:
    """The table message the payload floor answers with: a game's embeds and components
    as the loopback Discord last stored them (`<control>.payload.json`, written by the
    benchmark, read again on SIGHUP). Kept as JSON: every click builds its own
    `discord.Embed` and `View` from it, as a bot drawing its message must."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.message: dict[str, Any] | None = None

    def reload(self) -> None:
        if self.path.exists():
            self.message = json.loads(self.path.read_text())


PAYLOAD: Payload | None = None


def component_of(data: dict[str, Any], row: int) -> discord.ui.Item[Any]:
    """A View item built from a component's JSON (a button or a string select)."""
    emoji = data.get("emoji")
    partial = discord.PartialEmoji.from_dict(emoji) if emoji else None
    if data["type"] == 2:
        return discord.ui.Button(
            style=discord.ButtonStyle(data.get("style", 2)),
            label=data.get("label"),
            custom_id=data.get("custom_id"),
            url=data.get("url"),
            emoji=partial,
            disabled=bool(data.get("disabled")),
            row=row,
        )
    if data["type"] == 3:
        return discord.ui.Select(
            custom_id=data["custom_id"],
            placeholder=data.get("placeholder"),
            min_values=data.get("min_values", 1),
            max_values=data.get("max_values", 1),
            disabled=bool(data.get("disabled")),
            row=row,
            options=[
                discord.SelectOption(
                    label=o["label"],
                    value=o["value"],
                    description=o.get("description"),
                    emoji=discord.PartialEmoji.from_dict(o["emoji"]) if o.get("emoji") else None,
                    default=bool(o.get("default")),
                )
                for o in data.get("options", ())
            ],
        )
    raise ValueError(f"component type {data['type']} is not drawn by the payload floor")


def payload_view(rows: list[dict[str, Any]], own_id: str) -> discord.ui.View:
    """The game's components, the first button with a custom id taking the floor's own
    (discord.py dispatches a dynamic item only if the clicked message shows it)."""
    view = discord.ui.View(timeout=None)
    mine = False
    for number, row in enumerate(rows):
        for data in row.get("components", ()):
            if not mine and data["type"] == 2 and "custom_id" in data:
                data = {**data, "custom_id": own_id}
                mine = True
            view.add_item(component_of(data, number))
    if not mine:
        view.add_item(discord.ui.Button(label=click_latency.RAISE_LABEL, custom_id=own_id))
    return view


class PayloadFloorButton(click_latency.BareButton, template=r"pay:(?P<n>[0-9]+):(?P<v>[a-z]+)"):
    """The durable floor answering with the current game's table message: one durable
    row, then an edit of the same size as the game's own answer (its embeds and
    components, built anew from their JSON)."""

    PREFIX = "pay"

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        assert FLOOR is not None and PAYLOAD is not None
        await FLOOR.save(self.n, interaction.user.id)
        message = PAYLOAD.message
        if message is None:  # before the first game's message is known (warm-up only)
            await super().callback(interaction)
            return
        own_id = str(self.item.custom_id)
        await interaction.response.edit_message(
            content=message.get("content") or None,
            embeds=[discord.Embed.from_dict(e) for e in message.get("embeds", ())],
            view=payload_view(message.get("components", []), own_id),
        )


class FloorCog(commands.Cog, name="BenchFloor"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(FloorButton, PayloadFloorButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(FloorButton, PayloadFloorButton)


async def post_messages(bot: discord.Client, plans: list[dict[str, int]]) -> None:
    hub = TableHub.of(bot)  # type: ignore[arg-type]
    tables = bot.tables  # type: ignore[attr-defined]
    for plan in plans:
        channel = bot.get_channel(plan["channel_id"])
        assert isinstance(channel, discord.TextChannel), plan
        snapshot = await tables.snapshot(plan["table_id"])
        message = await channel.send(**hub.render(snapshot).as_kwargs())
        await tables.set_message(plan["table_id"], message.id)
        if not plan.get("baselines"):
            continue  # a shipped game's table: its message alone
        await channel.send(
            embed=click_latency.bare_embed(plan["n"], plan["host_id"]),
            view=click_latency.bare_view(plan["n"]),
        )
        await channel.send(
            embed=click_latency.bare_embed(plan["n"], plan["host_id"]),
            view=FloorButton.view_of(plan["n"]),
        )
        await channel.send(
            embed=click_latency.bare_embed(plan["n"], plan["host_id"]),
            view=PayloadFloorButton.view_of(plan["n"]),
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
    global FLOOR
    bot = click_latency.make_bot(
        args.database_url, args.synchronous, metrics_port=0 if args.metrics else None
    )
    await bot.add_cog(click_latency.BareCog(bot))
    FLOOR = DurableFloor(args.floor_database)
    await FLOOR.open()
    await bot.add_cog(FloorCog(bot))
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
        timings.wrap(hub.sync, "edit_through", "answer through the interaction")
        timings.wrap(hub, "deliver_notice", "pending-notice check (after)")
    # The benchmark ends this process with SIGTERM: close the bot so the database is closed
    # cleanly (and a profile, when asked for, is written).
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))
    global PAYLOAD
    PAYLOAD = Payload(args.control.with_name(f"{args.control.name}.payload.json"))
    loop.add_signal_handler(signal.SIGHUP, PAYLOAD.reload)
    windows = Windows(args.control)
    loop.add_signal_handler(signal.SIGUSR1, windows.begin)
    loop.add_signal_handler(signal.SIGUSR2, windows.end)
    try:
        async with bot:
            await bot.start("not-a-real-token")
    finally:
        await FLOOR.close()
        if timings is not None:
            timings.report()


class Windows:
    """Measuring windows between SIGUSR1 and SIGUSR2: the garbage collections in each
    (per generation, their time, the objects they freed), and a profile when asked."""

    def __init__(self, control: Path) -> None:
        self.control = control
        self.count = 0
        self.open = False
        self.profiles: dict[str, cProfile.Profile] = {}
        self.profile: tuple[str, cProfile.Profile] | None = None
        self._started = 0.0
        self._started_cpu = 0.0
        self.garbage = False
        self._reset()
        gc.callbacks.append(self._gc)

    def _reset(self) -> None:
        self.collections = [0, 0, 0]
        self.ms_total = 0.0
        self.full_ms: list[float] = []
        """Each full collection's wall time (a busy machine stretches it)."""
        self.cpu_ms_total = 0.0
        self.full_cpu_ms: list[float] = []
        """Each full collection's CPU time: what the collection itself costs."""
        self.collected = 0

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if not self.open:
            return
        if phase == "start":
            self._started = time.perf_counter()
            self._started_cpu = time.thread_time()
            return
        ms = (time.perf_counter() - self._started) * 1000
        cpu_ms = (time.thread_time() - self._started_cpu) * 1000
        generation = info["generation"]
        self.collections[generation] += 1
        self.ms_total += ms
        self.cpu_ms_total += cpu_ms
        self.collected += info["collected"]
        if generation == 2:
            self.full_ms.append(ms)
            self.full_cpu_ms.append(cpu_ms)

    def begin(self) -> None:
        self._reset()
        self.open = True
        mode = self.control.read_text().strip() if self.control.exists() else "plain"
        self.garbage = mode == "garbage"
        if self.garbage:
            # What the window leaves to the collector: every object a collection finds
            # unreachable is kept in gc.garbage instead of freed, to be counted by type.
            gc.collect()
            gc.garbage.clear()
            gc.set_debug(gc.DEBUG_SAVEALL)
        if mode.startswith("profile:"):
            path = mode.removeprefix("profile:")
            # CPU time, not wall time: a COMMIT waiting for the disk is not work of the process.
            profile = self.profiles.setdefault(path, cProfile.Profile(time.process_time))
            self.profile = (path, profile)
            profile.enable()

    def end(self) -> None:
        self.open = False
        if self.profile is not None:
            path, profile = self.profile
            profile.disable()
            self.profile = None
            # Written aside and renamed: the benchmark reads it as soon as the name appears.
            written = Path(path).with_suffix(".partial")
            profile.dump_stats(written)
            written.rename(path)
        self.count += 1
        garbage: dict[str, int] = {}
        if self.garbage:
            gc.collect()
            gc.set_debug(0)
            for thing in gc.garbage:
                kind = type(thing)
                name = f"{kind.__module__}.{kind.__qualname__}"
                garbage[name] = garbage.get(name, 0) + 1
            gc.garbage.clear()
            self.garbage = False
        figures = {
            "garbage": garbage,
            "gc": {
                "collections": self.collections,
                "ms_total": self.ms_total,
                "full_ms": self.full_ms,
                "cpu_ms_total": self.cpu_ms_total,
                "full_cpu_ms": self.full_cpu_ms,
                "collected": self.collected,
                "gen2_objects": len(gc.get_objects(2)),
                "frozen": gc.get_freeze_count(),
            },
        }
        target = self.control.with_name(f"{self.control.name}.{self.count}.json")
        written = target.with_suffix(".partial")
        written.write_text(json.dumps(figures))
        written.rename(target)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--api", required=True)
    parser.add_argument("--gateway", required=True)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--plans", required=True, type=Path)
    parser.add_argument("--synchronous", default="FULL")
    parser.add_argument("--floor-database", required=True, type=Path)
    parser.add_argument(
        "--control", required=True, type=Path, help="what a window measures (class Windows)"
    )
    parser.add_argument("--timings", action="store_true", help="time steps of each click")
    parser.add_argument(
        "--metrics", action="store_true", help="serve Prometheus metrics (on a free port)"
    )
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(parser.parse_args()))
