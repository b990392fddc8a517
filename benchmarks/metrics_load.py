"""A bystander's answer beside a busy metrics endpoint (issue 33): does scraping the bot's
Prometheus metrics, or holding connections to them open, slow down the members?

    python benchmarks/metrics_load.py [--commands 300] [--warmup 30] [--scrapers 16]
                                      [--idle 800] [--hold-seconds 8]

The bot is the real `TanzakuBot` in its own process (`loopback_bot.py --metrics`, SQLite)
against the loopback Discord of `loopback_discord.py`, served by this process; its metrics
port is read from the process's own listening socket (/proc), so this script also runs
against a bot that cannot say which port it took. The load comes from a third process (this
script with `--load`), so neither the loopback Discord's timing nor the bot's loop carries
the scrapers' own work:

- scrapers: `--scrapers` clients, each scraping `/metrics` again as soon as it has the last
  answer, over kept-alive connections (the worst a misconfigured Prometheus, or several,
  can do);
- idle: `--idle` connections opened and never used (a scanner, a stuck client).

A bystander sends `/wallet` `--commands` times, one at a time (after `--warmup` unmeasured
ones), and each is timed from the INTERACTION_CREATE frame written to its answer arriving
(**command → answer**). Printed, each beside the quiet baseline measured in the same run:
the answer's p50 and p99 with the scrapers running, with the idle connections open, and
with both; the scrapes served a second and how scrapes ended; how many idle connections
the bot accepted and how many it still held `--hold-seconds` later.

Exit 0 with the report; 2 when the run was not valid (the bot never came up, a /wallet was
not answered, the load process failed).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from _stats import percentile  # noqa: E402
from loopback_discord import LoopbackDiscord  # noqa: E402
from loopback_latency import (  # noqa: E402
    START_TIMEOUT_SECONDS,
    BotProcess,
    NotValid,
    answered,
    wait_for,
)

from bot.storage import sqlite_url  # noqa: E402

GOAL_RATIO = 3.0
"""With the scrapers running (alone, or beside the idle connections), the bystander's p50
and p99 at most this many times the quiet ones of the same run."""
MAX_HELD = 64
"""The bot's cap on metrics connections (bot/metrics.py, MAX_CONNECTIONS)."""

ANSWER_GAP_SECONDS = 0.005
"""Between two commands, after the answer: the bot finishes what follows an answer."""


def say(line: str = "") -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


# -- the load process -------------------------------------------------------------------------


async def scrape_forever(url: str, ends: Counter[str], token: str | None) -> None:
    import aiohttp

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    connector = aiohttp.TCPConnector(limit=1)
    async with aiohttp.ClientSession(connector=connector, headers=headers) as session:
        while True:
            try:
                async with session.get(url) as response:
                    await response.read()
                    ends[f"HTTP {response.status}"] += 1
            except aiohttp.ClientError as error:
                ends[type(error).__name__] += 1
                await asyncio.sleep(0.01)


async def hold_idle(
    port: int, count: int, state: dict[str, int]
) -> tuple[list[asyncio.Task[None]], list[asyncio.StreamWriter]]:
    """Open `count` connections that never send a byte; note which the server closes.
    The writers are kept (a writer collected closes its connection)."""

    async def watch(reader: asyncio.StreamReader) -> None:
        with contextlib.suppress(OSError):
            await reader.read()  # b"" once the server closes it (or whatever it said first)
        state["open"] -= 1
        state["closed by the bot"] += 1

    watchers = []
    writers = []
    for _ in range(count):
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            state["refused"] += 1
            continue
        state["open"] += 1
        writers.append(writer)
        watchers.append(asyncio.create_task(watch(reader)))
    state["writers"] = len(writers)
    return watchers, writers


async def load(args: argparse.Namespace) -> None:
    """`--load`: follow commands on stdin ("scrape", "idle", "status", "stop")."""
    url = f"http://127.0.0.1:{args.port}/metrics"
    ends: Counter[str] = Counter()
    state = {"open": 0, "closed by the bot": 0, "refused": 0}
    scrapers: list[asyncio.Task[None]] = []
    idle: list[asyncio.Task[None]] = []
    kept: list[asyncio.StreamWriter] = []
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    started = time.perf_counter()
    while line := (await reader.readline()).decode().strip():
        command, *rest = line.split()
        if command == "scrape":
            ends.clear()
            started = time.perf_counter()
            token = rest[0] if rest else None
            scrapers = [
                asyncio.create_task(scrape_forever(url, ends, token)) for _ in range(args.scrapers)
            ]
        elif command == "unscrape":
            for task in scrapers:
                task.cancel()
            await asyncio.gather(*scrapers, return_exceptions=True)
            scrapers = []
        elif command == "idle":
            idle, kept = await hold_idle(args.port, args.idle, state)
        elif command == "unidle":
            for task in idle:
                task.cancel()
            await asyncio.gather(*idle, return_exceptions=True)
            for writer in kept:
                writer.close()
            idle, kept = [], []
        elif command == "status":
            seconds = time.perf_counter() - started
            status = {"scrapes": dict(ends), "seconds": seconds, **state}
            sys.stdout.write(json.dumps(status) + "\n")
            sys.stdout.flush()
        elif command == "stop":
            break
    for task in [*scrapers, *idle]:
        task.cancel()


class Load:
    """The load process, driven line by line."""

    def __init__(self, port: int, scrapers: int, idle: int) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--load",
                "--port",
                str(port),
                "--scrapers",
                str(scrapers),
                "--idle",
                str(idle),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    async def status(self) -> dict[str, Any]:
        self.send("status")
        assert self.process.stdout is not None
        line = await asyncio.to_thread(self.process.stdout.readline)
        if not line:
            raise NotValid(f"the load process ended (exit {self.process.poll()})")
        status: dict[str, Any] = json.loads(line)
        return status

    def stop(self) -> None:
        with contextlib.suppress(BrokenPipeError):
            self.send("stop")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


# -- the bot's side -------------------------------------------------------------------------


def listening_ports(pid: int) -> set[int]:
    """The TCP ports process `pid` listens on (its own sockets, from /proc)."""
    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
            if target.startswith("socket:["):
                inodes.add(target[len("socket:[") : -1])
    ports = set()
    for table in ("tcp", "tcp6"):
        path = Path(f"/proc/{pid}/net/{table}")
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


async def metrics_port(bot: BotProcess) -> int:
    assert bot.process is not None
    pid = bot.process.pid
    give_up = time.perf_counter() + START_TIMEOUT_SECONDS
    while not (ports := listening_ports(pid)):
        bot.check_alive()
        if time.perf_counter() > give_up:
            raise NotValid("the bot never listened for metrics")
        await asyncio.sleep(0.05)
    if len(ports) != 1:
        raise NotValid(f"the bot listens on several ports: {sorted(ports)}")
    return ports.pop()


async def wallets(
    discord: LoopbackDiscord, user: int, channel: int, count: int, bot: BotProcess
) -> list[float]:
    """`count` /wallet commands one at a time; each one's command → answer in ms."""
    times: list[float] = []
    for _ in range(count):
        answer = await discord.slash(user, channel, "wallet", [])
        if not await answered(answer):
            bot.check_alive()
            raise NotValid("a /wallet was not answered")
        assert answer.answered_at is not None
        times.append((answer.answered_at - answer.sent_at) * 1000)
        await asyncio.sleep(ANSWER_GAP_SECONDS)
    return times


def row(label: str, times: list[float], quiet: list[float]) -> None:
    p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
    base50, base99 = percentile(quiet, 0.5), percentile(quiet, 0.99)
    say(
        f"  {label:<34} p50 {p50:7.2f} ms ({p50 / base50:5.1f}× quiet)"
        f"   p99 {p99:7.2f} ms ({p99 / base99:5.1f}× quiet)"
    )


def scrape_line(status: dict[str, Any]) -> str:
    ends = status["scrapes"]
    served = ends.get("HTTP 200", 0)
    rate = served / status["seconds"] if status["seconds"] else 0.0
    others = ", ".join(f"{k}: {v}" for k, v in sorted(ends.items()) if k != "HTTP 200")
    return f"{served} scrapes served ({rate:,.0f}/s)" + (f"; also {others}" if others else "")


async def run(args: argparse.Namespace) -> int:
    discord = LoopbackDiscord()
    guild = discord.add_guild("metrics")
    channel = discord.add_channel(guild, "general")
    user = discord.add_user("bystander")
    with tempfile.TemporaryDirectory(prefix="tanzaku-metrics-load-") as name:
        folder = Path(name)
        plans = folder / "plans.json"
        plans.write_text("[]")
        await discord.start()
        bot = BotProcess(
            discord, sqlite_url(folder / "tanzaku.db"), plans, folder / "floor.db", metrics=True
        )
        load: Load | None = None
        try:
            bot.start()
            await wait_for(discord.ready.is_set, "the bot's IDENTIFY", bot, START_TIMEOUT_SECONDS)
            port = await metrics_port(bot)
            load = Load(port, args.scrapers, args.idle)
            await wallets(discord, user, channel, args.warmup, bot)
            say(
                f"bot up; metrics on port {port}; {args.commands} /wallet a phase after"
                f" {args.warmup} warm-up, one at a time"
            )
            quiet = await wallets(discord, user, channel, args.commands, bot)

            load.send("scrape")
            await asyncio.sleep(0.5)
            scraping = await wallets(discord, user, channel, args.commands, bot)
            scraped = await load.status()
            load.send("unscrape")

            load.send("idle")
            await load.status()  # every connection opened (or refused)
            idle = await wallets(discord, user, channel, args.commands, bot)
            opened = await load.status()
            load.send("scrape")
            await asyncio.sleep(0.5)
            both = await wallets(discord, user, channel, args.commands, bot)
            both_scraped = await load.status()
            load.send("unscrape")
            waited = time.perf_counter()
            await asyncio.sleep(args.hold_seconds)
            held = await load.status()
            held_after = time.perf_counter() - waited
            load.send("unidle")
        finally:
            if load is not None:
                load.stop()
            await bot.stop()
            await discord.stop()

    say()
    say("/wallet, command → answer")
    row("quiet (baseline, this run)", quiet, quiet)
    row(f"{args.scrapers} scrapers", scraping, quiet)
    row(f"{args.idle} idle connections", idle, quiet)
    row("both", both, quiet)
    say()
    say(f"scrapers alone: {scrape_line(scraped)}")
    say(f"scrapers beside the idle connections: {scrape_line(both_scraped)}")
    accepted = opened["writers"] - opened["closed by the bot"]
    say(
        f"idle connections: {opened['writers']} opened, {opened['refused']} refused at"
        f" connect; {accepted} held by the bot once opened;"
        f" {held['open']} still held {held_after:.1f} s later"
    )
    say()
    for label, times in ((f"{args.scrapers} scrapers", scraping), ("both", both)):
        worst = max(percentile(times, share) / percentile(quiet, share) for share in (0.5, 0.99))
        verdict = "MET" if worst <= GOAL_RATIO else "NOT MET"
        say(f"{verdict}: with {label}, /wallet p50 and p99 ≤ {GOAL_RATIO:g}× quiet ({worst:.1f}×)")
    bounded = accepted <= MAX_HELD and held["open"] == 0
    say(
        f"{'MET' if bounded else 'NOT MET'}: idle connections held at most {MAX_HELD}"
        f" ({accepted}), none after the keep-alive ({held['open']})"
    )
    served = both_scraped["scrapes"].get("HTTP 200", 0) > 0
    say(f"{'MET' if served else 'NOT MET'}: scrapes served beside the idle connections")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--scrapers", type=int, default=16)
    parser.add_argument("--idle", type=int, default=800)
    parser.add_argument("--hold-seconds", type=float, default=8.0)
    parser.add_argument("--load", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.load:
        asyncio.run(load(args))
        return 0
    try:
        return asyncio.run(run(args))
    except NotValid as error:
        say(f"NOT VALID: {error}")
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
