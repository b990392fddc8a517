"""Click latency with the bot in its own process against a loopback Discord: the issue's own
set-up ("bot in its own process against a loopback Discord"), beside a bare discord.py
button answered by the same bot process in the same run.

    python benchmarks/loopback_latency.py [--backend sqlite|postgresql|both]
                                          [--case sequential|burst|game|all]
                                          [--tables 1000] [--clicks 2000] [--warmup 100]
                                          [--burst 50] [--bursts 40] [--burst-warmup 3]
                                          [--duels 120] [--game-clicks 1000] [--seed 1]

The bot (`loopback_bot.py`) is the real `TanzakuBot` with the coin-flip test game and the
bare button of `click_latency.py`, started as a separate Python process and pointed at the
`LoopbackDiscord` of `loopback_discord.py`, which this process serves on 127.0.0.1 (a real
WebSocket gateway and real HTTP). A click is an INTERACTION_CREATE frame sent on the
gateway; it is timed from just before the frame is written to the moment the bot's
interaction callback arrives over HTTP (**click → answer**). Nothing of the harness lives
in the bot's process: no SimCord bookkeeping, no simulated Discord on its heap.

Cases (what the goals judge):
- sequential: `--clicks` "Raise 5" clicks on random coin-flip tables shuffled with as many
  bare clicks, one at a time. Goal: p99 ≤ 1.3× bare.
- burst: `--bursts` bursts of `--burst` "Raise 5" clicks on distinct tables, all frames
  written at once, each beside a bare burst of the same size (the two kinds take turns
  going first). Per click: burst start → its answer. Goal: p99 ≤ 1.5× bare. Then as many
  bursts back to back for the throughput ceiling (state-changing clicks/s).
- game (a shipped game): `--duels` Strength Duels opened through Discord (/duel challenge,
  then Accept), then DM bids ("0") one at a time shuffled with bare clicks (goal: p99 ≤
  1.3× bare), the time until the public table message's edit arrives after a bid, and
  bursts of DM bids on distinct duels beside bare bursts (goal: p99 ≤ 1.5× bare) and their
  throughput ceiling.

Between two clicks of the sequential cases the driver waits `--gap-ms` (2 ms) after the
answer, the same for every kind: the bot finishes what it does after answering (the
pending-notice check) before the next click, as a member's next click would find it.
Between bursts it waits for every answer and then `--burst-gap-ms` (20 ms).

Exit 0 with a report; 2 when the run was not valid (a click refused or unanswered, the bot
process gone, a route the bot needed missing from the loopback Discord).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import click_latency as inproc  # noqa: E402
from click_latency import (  # noqa: E402
    BID_LABEL,
    CHANNELS_PER_GUILD,
    DUEL_BIDS_PER_TABLE,
    PLAYERS_PER_GUILD,
    RAISE_LABEL,
    Seat,
    percentile,
    say,
    seed_tables,
)
from loopback_discord import Answer, LoopbackDiscord  # noqa: E402

Backend = Literal["sqlite", "postgresql"]
GOAL_FLOOR_SEQUENTIAL = 1.2
"""Sequential p99 at most this many times the durable floor's (issue 28)."""
GOAL_FLOOR_BURST = 1.25
"""Bursts of 50 on 50 tables: p50 and p99 at most this many times the floor's."""
GOAL_THROUGHPUT = 1500
"""State-changing clicks a second in one process on SQLite."""
ANSWER_TIMEOUT_SECONDS = 10.0
START_TIMEOUT_SECONDS = 120.0
EDIT_WAIT_SECONDS = 1.0
DUEL_ROUND_SECONDS = 3600
"""A round of an hour: the clock here is real, and no deadline may fall due in a run."""


class NotValid(RuntimeError):
    """The run cannot be judged (exit 2)."""


@dataclass
class Table:
    seat: Seat
    table_id: int = 0
    message_id: int = 0
    bare_message_id: int = 0
    floor_message_id: int = 0


@dataclass
class Duel:
    host_id: int
    guest_id: int
    table_message_id: int
    bids: int = 0

    def next_bidder(self) -> int:
        return self.host_id if self.bids % 2 == 0 else self.guest_id

    @property
    def round(self) -> int:
        return self.bids // 2 + 1


@dataclass
class Series:
    answer_ms: list[float] = field(default_factory=list)
    refused: int = 0


@dataclass
class BurstSeries(Series):
    burst_ms: list[float] = field(default_factory=list)


@dataclass
class Figures:
    backend: Backend
    sequential: Series = field(default_factory=Series)
    sequential_bare: Series = field(default_factory=Series)
    sequential_floor: Series = field(default_factory=Series)
    burst: BurstSeries = field(default_factory=BurstSeries)
    burst_bare: BurstSeries = field(default_factory=BurstSeries)
    burst_floor: BurstSeries = field(default_factory=BurstSeries)
    throughput: float = 0.0
    throughput_bare: float = 0.0
    throughput_floor: float = 0.0
    cpu_ms_per_click: float = 0.0
    """The bot process's CPU per state-changing click over the throughput bursts."""
    cpu_ms_per_click_bare: float = 0.0
    cpu_ms_per_click_floor: float = 0.0
    breakdown: dict[str, float] = field(default_factory=dict)
    """Per state-changing click, ms of CPU by step, from a profile of the throughput bursts."""
    bid: Series = field(default_factory=Series)
    bid_bare: Series = field(default_factory=Series)
    table_edit_ms: list[float] = field(default_factory=list)
    edits_missing: int = 0
    bid_burst: BurstSeries = field(default_factory=BurstSeries)
    bid_burst_bare: BurstSeries = field(default_factory=BurstSeries)
    bid_throughput: float = 0.0
    bot_cpu_seconds: float = 0.0
    driver_cpu_seconds: float = 0.0
    wall_seconds: float = 0.0

    @property
    def refused(self) -> int:
        return sum(
            s.refused
            for s in (
                self.sequential,
                self.sequential_bare,
                self.sequential_floor,
                self.burst,
                self.burst_bare,
                self.burst_floor,
                self.bid,
                self.bid_bare,
                self.bid_burst,
                self.bid_burst_bare,
            )
        )


# -- the world ------------------------------------------------------------------------------


def build_world(discord: LoopbackDiscord, count: int) -> list[Table]:
    users = [discord.add_user(f"player{k}") for k in range(PLAYERS_PER_GUILD)]
    tables: list[Table] = []
    for g in range(math.ceil(count / CHANNELS_PER_GUILD)):
        guild_id = discord.add_guild(f"guild{g}")
        for c in range(min(CHANNELS_PER_GUILD, count - g * CHANNELS_PER_GUILD)):
            channel_id = discord.add_channel(guild_id, f"table-{c}")
            host, guest = users[(2 * c) % len(users)], users[(2 * c + 1) % len(users)]
            tables.append(Table(Seat(guild_id, channel_id, host, guest)))
    return tables


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class BotProcess:
    """`loopback_bot.py` in its own process, pointed at the loopback Discord."""

    def __init__(
        self,
        discord: LoopbackDiscord,
        url: str,
        plans: Path,
        floor_database: Path,
        synchronous: str = "FULL",
        profile: Path | None = None,
        timings: bool = False,
        metrics: bool = False,
    ) -> None:
        self.command = [
            sys.executable,
            str(ROOT / "benchmarks" / "loopback_bot.py"),
            "--api",
            discord.api_base,
            "--gateway",
            discord.gateway_url,
            "--database-url",
            url,
            "--plans",
            str(plans),
            "--synchronous",
            synchronous,
            "--floor-database",
            str(floor_database),
        ]
        self.profile = profile
        if profile is not None:
            self.command += ["--profile", str(profile)]
        if timings:
            self.command.append("--timings")
        if metrics:
            self.command.append("--metrics")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, cwd=ROOT)

    def check_alive(self) -> None:
        if self.process is not None and self.process.poll() is not None:
            raise NotValid(f"the bot process ended (exit {self.process.returncode})")

    def cpu_seconds(self) -> float:
        assert self.process is not None
        return process_cpu_seconds(self.process.pid)

    def signal(self, number: int) -> None:
        assert self.process is not None
        self.process.send_signal(number)

    async def stop(self) -> None:
        """SIGTERM, then wait for the bot to close, serving its last requests meanwhile (a
        blocking wait here would leave them unanswered until its grace runs out)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        give_up = time.perf_counter() + 15
        while self.process.poll() is None:
            if time.perf_counter() > give_up:
                self.process.kill()
                self.process.wait()
                return
            await asyncio.sleep(0.01)


async def wait_for(condition: Any, what: str, bot: BotProcess, seconds: float) -> None:
    give_up = time.perf_counter() + seconds
    while not condition():
        bot.check_alive()
        if time.perf_counter() > give_up:
            raise NotValid(f"timed out waiting for {what}")
        await asyncio.sleep(0.002)


async def find_posted(discord: LoopbackDiscord, tables: list[Table], bot: BotProcess) -> None:
    """Match the messages the bot posts at start to their tables (by channel and by the
    bare and floor buttons' custom ids)."""
    by_channel = {t.seat.channel_id: t for t in tables}
    left = 3 * len(tables)
    give_up = time.perf_counter() + START_TIMEOUT_SECONDS
    while left:
        bot.check_alive()
        try:
            message = await asyncio.wait_for(discord.created.get(), timeout=1.0)
        except TimeoutError:
            if time.perf_counter() > give_up:
                raise NotValid("the bot did not post every table message") from None
            continue
        table = by_channel.get(int(message["channel_id"]))
        if table is None:
            continue
        ids = [
            item.get("custom_id", "")
            for row in message["components"]
            for item in row.get("components", ())
        ]
        if any(i.startswith("bench:") for i in ids):
            table.bare_message_id = int(message["id"])
        elif any(i.startswith("floor:") for i in ids):
            table.floor_message_id = int(message["id"])
        else:
            table.message_id = int(message["id"])
        left -= 1


# -- clicking -------------------------------------------------------------------------------


async def answered(answer: Answer) -> bool:
    try:
        await asyncio.wait_for(answer.done.wait(), ANSWER_TIMEOUT_SECONDS)
    except TimeoutError:
        return False
    return answer.answered_at is not None


def public_update(answer: Answer) -> bool:
    """A Raise (or a bare click) is taken when the clicked message is edited in answer."""
    return answer.callback_type == 7 and not answer.ephemeral


def bid_taken(answer: Answer) -> bool:
    return any("your bid is" in text.lower() for text in answer.contents)


async def judged(answer: Answer, accepted: Any) -> bool:
    """Whether the bot took the click: its answer may come in parts (a deferred update, then
    a follow-up saying "your bid is …"), so give the parts a moment to arrive."""
    if not await answered(answer):
        return False
    give_up = time.perf_counter() + EDIT_WAIT_SECONDS
    while not accepted(answer):
        if time.perf_counter() > give_up:
            return False
        await asyncio.sleep(0.0005)
    return True


async def one_click(
    discord: LoopbackDiscord,
    user_id: int,
    message_id: int,
    label: str,
    series: Series | None,
    gap: float,
    accepted: Any = public_update,
) -> Answer:
    answer = await discord.click(user_id, message_id, label)
    ok = await judged(answer, accepted)
    if series is not None:
        if answer.answered_at is not None:
            series.answer_ms.append((answer.answered_at - answer.sent_at) * 1000)
        if not ok:
            series.refused += 1
    await asyncio.sleep(gap)
    return answer


async def burst(
    discord: LoopbackDiscord,
    picks: Sequence[tuple[int, int]],
    label: str,
    series: BurstSeries | None,
    accepted: Any = public_update,
) -> int:
    """Write one click frame per (user, message) at once; wait for every answer. Returns
    how many were accepted."""
    started = time.perf_counter()
    answers = [await discord.click(user, message, label) for user, message in picks]
    results = await asyncio.gather(*(judged(a, accepted) for a in answers))
    taken = 0
    last = started
    for answer, ok in zip(answers, results, strict=True):
        taken += ok
        if series is None:
            continue
        if not ok:
            series.refused += 1
        if answer.answered_at is not None:
            series.answer_ms.append((answer.answered_at - started) * 1000)
            last = max(last, answer.answered_at)
    if series is not None:
        series.burst_ms.append((last - started) * 1000)
    return taken


# -- the cases ------------------------------------------------------------------------------


async def run_sequential(
    discord: LoopbackDiscord,
    tables: list[Table],
    args: argparse.Namespace,
    rng: random.Random,
    figures: Figures,
) -> None:
    kinds = ["table", "bare", "floor"] * args.clicks
    rng.shuffle(kinds)
    warmup = ["table", "bare", "floor"] * args.warmup
    gap = args.gap_ms / 1000
    for n, kind in enumerate([*warmup, *kinds]):
        measuring = n >= len(warmup)
        table = rng.choice(tables)
        user = rng.choice((table.seat.host_id, table.seat.guest_id))
        message_id, series = {
            "table": (table.message_id, figures.sequential),
            "bare": (table.bare_message_id, figures.sequential_bare),
            "floor": (table.floor_message_id, figures.sequential_floor),
        }[kind]
        await one_click(discord, user, message_id, RAISE_LABEL, series if measuring else None, gap)


async def run_bursts(
    discord: LoopbackDiscord,
    tables: list[Table],
    args: argparse.Namespace,
    rng: random.Random,
    figures: Figures,
    bot: BotProcess,
) -> None:
    size = min(args.burst, len(tables))
    gap = args.burst_gap_ms / 1000
    for n in range(args.burst_warmup + args.bursts):
        measuring = n >= args.burst_warmup
        chosen = rng.sample(tables, size)
        seat = [rng.choice((t.seat.host_id, t.seat.guest_id)) for t in chosen]
        runs = [
            ([(u, t.message_id) for u, t in zip(seat, chosen, strict=True)], figures.burst),
            (
                [(u, t.bare_message_id) for u, t in zip(seat, chosen, strict=True)],
                figures.burst_bare,
            ),
            (
                [(u, t.floor_message_id) for u, t in zip(seat, chosen, strict=True)],
                figures.burst_floor,
            ),
        ]
        # No kind always goes first: the order turns round from one burst to the next.
        shift = n % len(runs)
        for picks, series in runs[shift:] + runs[:shift]:
            await burst(discord, picks, RAISE_LABEL, series if measuring else None)
            await asyncio.sleep(gap)
    figures.throughput, figures.cpu_ms_per_click = await ceiling(
        discord, tables, args, rng, bot, lambda t: t.message_id
    )
    figures.throughput_bare, figures.cpu_ms_per_click_bare = await ceiling(
        discord, tables, args, rng, bot, lambda t: t.bare_message_id
    )
    figures.throughput_floor, figures.cpu_ms_per_click_floor = await ceiling(
        discord, tables, args, rng, bot, lambda t: t.floor_message_id
    )
    if bot.profile is not None:
        # Once more under the profiler, apart: profiling slows the process, so it only says
        # how the CPU of a click divides between steps; the ms come from the unprofiled run.
        await ceiling(discord, tables, args, rng, bot, lambda t: t.message_id, bot.profile)
        await wait_for(bot.profile.exists, "the bot's profile", bot, START_TIMEOUT_SECONDS)
        shares = breakdown(bot.profile)
        figures.breakdown = {
            step: share * figures.cpu_ms_per_click for step, share in shares.items()
        }


async def ceiling(
    discord: LoopbackDiscord,
    tables: list[Table],
    args: argparse.Namespace,
    rng: random.Random,
    bot: BotProcess,
    message_of: Any,
    profile: Path | None = None,
) -> tuple[float, float]:
    """Bursts back to back: clicks answered a second, and the bot's CPU ms per click."""
    size = min(args.burst, len(tables))
    clicks = 0
    if profile is not None:
        bot.signal(signal.SIGUSR1)
    cpu = bot.cpu_seconds()
    started = time.perf_counter()
    for _ in range(args.bursts):
        chosen = rng.sample(tables, size)
        picks = [(rng.choice((t.seat.host_id, t.seat.guest_id)), message_of(t)) for t in chosen]
        clicks += await burst(discord, picks, RAISE_LABEL, None)
    wall = time.perf_counter() - started
    cpu = bot.cpu_seconds() - cpu
    if profile is not None:
        bot.signal(signal.SIGUSR2)
    return clicks / wall, cpu * 1000 / max(clicks, 1)


STEPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # (step, path fragments of the functions whose own time counts for it), first match wins.
    ("engine", ("/bot/games/", "/coinflip/engine", "/coinflip/__init__", "/bot/players/")),
    ("render (embed, text)", ("/cogs/", "/coinflip_cog/", "discord/embeds.py", "discord/colour")),
    ("view (buttons, components)", ("discord/ui/", "discord/components.py")),
    (
        "storage (SQL, commit)",
        ("/bot/storage/", "aiosqlite", "sqlite3", "asyncpg", "{method 'execute"),
    ),
    ("table service", ("/bot/service/", "/bot/economy.py", "/bot/fairness.py", "/bot/scheduler")),
    (
        "Discord call (parse, HTTP)",
        (
            "discord/",
            "aiohttp",
            "yarl",
            "multidict",
            "json",
            "_json",
            "{method 'send'",
            "{method 'recv",
            "ssl",
        ),
    ),
    ("pydantic models", ("pydantic",)),
    ("event loop, other", ("",)),
)


def breakdown(path: Path) -> dict[str, float]:
    """Each step's share of the profiled time: the own time of every profiled function,
    summed by the step its file belongs to."""
    import pstats

    stats = pstats.Stats(str(path))
    totals = dict.fromkeys((step for step, _ in STEPS), 0.0)
    profiled: dict[tuple[str, int, str], tuple[Any, ...]] = stats.stats  # type: ignore[attr-defined]
    for (filename, _line, name), (_cc, _nc, own, _cum, _callers) in profiled.items():
        where = f"{filename}:{name}" if filename != "~" else name
        for step, fragments in STEPS:
            if any(fragment in where for fragment in fragments):
                totals[step] += own
                break
    whole = sum(totals.values()) or 1.0
    if TOP_FUNCTIONS:
        say(f"  the {TOP_FUNCTIONS} functions with the most own time in the profiled bursts:")
        ranked = sorted(profiled.items(), key=lambda item: -item[1][2])[:TOP_FUNCTIONS]
        for (filename, line, name), (_cc, calls, own, _cum, _callers) in ranked:
            where = f"{filename}:{line}({name})".replace(str(ROOT), "")
            say(f"    {own / whole:6.1%} {calls:8d} calls  {where[-90:]}")
    return {step: seconds / whole for step, seconds in totals.items()}


TOP_FUNCTIONS = 0
"""`--top`: how many of the profiled functions to list (0: none)."""


@dataclass(frozen=True)
class DuelSeat:
    host_id: int
    guest_id: int
    channel_id: int


def build_duel_world(discord: LoopbackDiscord, count: int) -> list[DuelSeat]:
    """A server with a channel and two new members per duel (there before the bot connects,
    so its GUILD_CREATE carries them)."""
    guild_id = discord.add_guild("duels")
    return [
        DuelSeat(
            discord.add_user(f"duelist{2 * n}"),
            discord.add_user(f"duelist{2 * n + 1}"),
            discord.add_channel(guild_id, f"duel-{n}"),
        )
        for n in range(count)
    ]


async def open_duels(
    discord: LoopbackDiscord, seats: list[DuelSeat], bot: BotProcess
) -> list[Duel]:
    """A duel per seat, opened as players open them: /duel challenge, then Accept."""
    duels: list[Duel] = []
    for seat in seats:
        host, guest, channel_id = seat.host_id, seat.guest_id, seat.channel_id
        options = [
            {"type": 6, "name": "member", "value": str(guest)},
            {"type": 4, "name": "stake", "value": 10},
            {"type": 4, "name": "round_seconds", "value": DUEL_ROUND_SECONDS},
        ]
        opened = await discord.slash(host, channel_id, "duel challenge", options)
        if not await answered(opened) or opened.ephemeral or opened.message_id is None:
            raise NotValid(f"the duel challenge was refused: {opened.contents}")
        accepted = await discord.click(guest, opened.message_id, "Accept")
        if not await answered(accepted):
            raise NotValid("the duel was not accepted")
        duels.append(Duel(host, guest, opened.message_id))
    # Both players' DM panels are sent once the duel starts, after the Accept's answer.
    await wait_for(
        lambda: all(panel_of(discord, d.host_id) and panel_of(discord, d.guest_id) for d in duels),
        "every duel's DM panels",
        bot,
        START_TIMEOUT_SECONDS,
    )
    return duels


def panel_of(discord: LoopbackDiscord, user_id: int, round_number: int = 1) -> int | None:
    """The bidder's DM panel for a round: the latest message in their DM, once it shows
    that round (the bot edits it for the next round after a reveal)."""
    channel_id = discord.dm_of_user.get(user_id)
    if channel_id is None:
        return None
    message_id = discord.last_message_in.get(channel_id)
    if message_id is None:
        return None
    content = discord.messages[message_id]["content"].lower()
    if "your strength" not in content or f"round {round_number}." not in content:
        return None
    return message_id


async def run_game(
    discord: LoopbackDiscord,
    tables: list[Table],
    args: argparse.Namespace,
    rng: random.Random,
    figures: Figures,
    bot: BotProcess,
    seats: list[DuelSeat],
) -> None:
    duels = await open_duels(discord, seats, bot)

    def live() -> list[Duel]:
        return [d for d in duels if d.bids < DUEL_BIDS_PER_TABLE]

    async def panel(duel: Duel) -> int:
        """The next bidder's panel, once it shows the duel's round (not timed)."""
        await wait_for_panels(discord, [duel], bot)
        message_id = panel_of(discord, duel.next_bidder(), duel.round)
        assert message_id is not None
        return message_id

    gap = args.gap_ms / 1000
    kinds = ["bid"] * args.game_clicks + ["bare"] * args.game_clicks
    rng.shuffle(kinds)
    warmup = ["bid", "bare"] * args.warmup
    for n, kind in enumerate([*warmup, *kinds]):
        measuring = n >= len(warmup)
        if kind == "bare":
            table = rng.choice(tables)
            series = figures.bid_bare if measuring else None
            await one_click(
                discord, table.seat.host_id, table.bare_message_id, RAISE_LABEL, series, gap
            )
            continue
        candidates = live()
        if not candidates:
            raise NotValid("every duel ran out of rounds: raise --duels")
        duel = rng.choice(candidates)
        before = discord.edits_landed.get(duel.table_message_id, 0.0)
        answer = await one_click(
            discord,
            duel.next_bidder(),
            await panel(duel),
            BID_LABEL,
            figures.bid if measuring else None,
            0.0,
            bid_taken,
        )
        duel.bids += 1
        # The public table message is edited after the answer: wait for that edit.
        give_up = time.perf_counter() + EDIT_WAIT_SECONDS
        while discord.edits_landed.get(duel.table_message_id, 0.0) == before:
            if time.perf_counter() > give_up:
                break
            await asyncio.sleep(0.0002)
        landed = discord.edits_landed.get(duel.table_message_id, 0.0)
        if measuring:
            if landed == before:
                figures.edits_missing += 1
            else:
                figures.table_edit_ms.append((landed - answer.sent_at) * 1000)
        await asyncio.sleep(gap)
    size = min(args.burst, len(duels))
    burst_gap = args.burst_gap_ms / 1000
    for n in range(args.burst_warmup + args.bursts):
        measuring = n >= args.burst_warmup
        candidates = live()
        if len(candidates) < size:
            raise NotValid("too few duels with rounds left: raise --duels")
        chosen = rng.sample(candidates, size)
        bid_picks = [(d.next_bidder(), await panel(d)) for d in chosen]
        bare_picks = [(t.seat.host_id, t.bare_message_id) for t in rng.sample(tables, size)]
        runs: list[tuple[list[tuple[int, int]], BurstSeries, str, Any]] = [
            (bid_picks, figures.bid_burst, BID_LABEL, bid_taken),
            (bare_picks, figures.bid_burst_bare, RAISE_LABEL, public_update),
        ]
        if n % 2:
            runs.reverse()
        for picks, series, label, ok in runs:
            started = time.perf_counter()
            await burst(discord, picks, label, series if measuring else None, ok)
            if series is figures.bid_burst:
                for d in chosen:
                    d.bids += 1
                await wait_for_follow_ups(discord, chosen, started, bot)
            await asyncio.sleep(burst_gap)
    clicks = 0
    started = time.perf_counter()
    for _ in range(args.bursts):
        candidates = live()
        if len(candidates) < size:
            raise NotValid("too few duels with rounds left: raise --duels")
        chosen = rng.sample(candidates, size)
        picks = [(d.next_bidder(), await panel(d)) for d in chosen]
        clicks += await burst(discord, picks, BID_LABEL, None, bid_taken)
        for d in chosen:
            d.bids += 1
    figures.bid_throughput = clicks / (time.perf_counter() - started)


async def wait_for_follow_ups(
    discord: LoopbackDiscord, duels: list[Duel], since: float, bot: BotProcess
) -> None:
    """After a burst of bids, the bot's work that follows the answers (each duel's table
    message edited, the next round's panels) is done before the next burst is timed, as
    SimCord's settling made sure in click_latency.py."""
    await wait_for(
        lambda: all(discord.edits_landed.get(d.table_message_id, 0.0) > since for d in duels),
        "the table messages' edits after the bids",
        bot,
        ANSWER_TIMEOUT_SECONDS,
    )
    await wait_for_panels(discord, duels, bot)


async def wait_for_panels(discord: LoopbackDiscord, duels: list[Duel], bot: BotProcess) -> None:
    """Wait until each duel's next bidder has their panel for the duel's round."""
    await wait_for(
        lambda: all(panel_of(discord, d.next_bidder(), d.round) for d in duels),
        "the next DM panels",
        bot,
        ANSWER_TIMEOUT_SECONDS,
    )


# -- the run --------------------------------------------------------------------------------


async def run_on(
    backend: Backend, url: str, args: argparse.Namespace, folder: Path, run_number: int
) -> Figures:
    rng = random.Random(args.seed)
    discord = LoopbackDiscord()
    tables = build_world(discord, args.tables)
    duel_seats = build_duel_world(discord, args.duels if args.case in ("game", "all") else 0)
    table_ids = await seed_tables(url, [t.seat for t in tables], time.time())
    for table, table_id in zip(tables, table_ids, strict=True):
        table.table_id = table_id
    plans = folder / f"plans-{backend}.json"
    plans.write_text(
        json.dumps(
            [
                {
                    "table_id": t.table_id,
                    "channel_id": t.seat.channel_id,
                    "n": n,
                    "host_id": t.seat.host_id,
                }
                for n, t in enumerate(tables)
            ]
        )
    )
    await discord.start()
    bot = BotProcess(
        discord,
        url,
        plans,
        folder / f"floor-{backend}-{run_number}.db",
        args.synchronous,
        None
        if args.no_breakdown
        else (args.keep_profiles or folder) / f"burst-{backend}-{run_number}.prof",
        args.bot_timings,
        args.metrics,
    )
    figures = Figures(backend)
    started = time.perf_counter()
    try:
        bot.start()
        await wait_for(discord.ready.is_set, "the bot's IDENTIFY", bot, START_TIMEOUT_SECONDS)
        await find_posted(discord, tables, bot)
        say(f"bot up and {len(tables)} tables posted in {time.perf_counter() - started:.1f} s")
        gc.collect()
        cpu_bot, cpu_driver = bot.cpu_seconds(), time.process_time()
        clicking = time.perf_counter()
        if args.case in ("sequential", "all"):
            await run_sequential(discord, tables, args, rng, figures)
        if args.case in ("burst", "all"):
            await run_bursts(discord, tables, args, rng, figures, bot)
        if args.case in ("game", "all"):
            await run_game(discord, tables, args, rng, figures, bot, duel_seats)
        figures.wall_seconds = time.perf_counter() - clicking
        figures.bot_cpu_seconds = bot.cpu_seconds() - cpu_bot
        figures.driver_cpu_seconds = time.process_time() - cpu_driver
        bot.check_alive()
    finally:
        await bot.stop()
        await discord.stop()
    if discord.unknown:
        raise NotValid(f"routes the loopback Discord lacks: {sorted(set(discord.unknown))}")
    return figures


def row(name: str, values: Sequence[float]) -> str:
    if not values:
        return f"{name:<38} (none)"
    cells = " ".join(f"{percentile(values, p):8.2f}ms" for p in (50, 95, 99))
    return f"{name:<38} {cells} {max(values):8.2f}ms"


def ratio(ours: Sequence[float], base: Sequence[float], p: float) -> float:
    return percentile(ours, p) / percentile(base, p) if ours and base else math.nan


def report(args: argparse.Namespace, f: Figures, run_number: int) -> None:
    say(f"\n[{f.backend}, run {run_number}] click → answer" + " " * 22 + "p50 p95 p99 max")
    if f.sequential.answer_ms:
        say(f"sequential: {args.clicks} Raise clicks shuffled with as many bare and floor clicks")
        say(row("  Raise 5 (coin-flip table)", f.sequential.answer_ms))
        say(row("  durable floor", f.sequential_floor.answer_ms))
        say(row("  bare button", f.sequential_bare.answer_ms))
    if f.burst.answer_ms:
        say(
            f"burst: {args.bursts} bursts of {args.burst} on distinct tables, floor and bare beside"
        )
        say(row("  Raise 5, per click", f.burst.answer_ms))
        say(row("  durable floor, per click", f.burst_floor.answer_ms))
        say(row("  bare, per click", f.burst_bare.answer_ms))
        say(row("  Raise 5, whole burst", f.burst.burst_ms))
        say(row("  durable floor, whole burst", f.burst_floor.burst_ms))
        say(row("  bare, whole burst", f.burst_bare.burst_ms))
        say(
            f"  throughput ceiling (clicks/s): Raise {f.throughput:.0f}, durable floor"
            f" {f.throughput_floor:.0f}, bare {f.throughput_bare:.0f}"
        )
        say(
            f"  bot CPU per click over those bursts: Raise {f.cpu_ms_per_click:.3f} ms, floor"
            f" {f.cpu_ms_per_click_floor:.3f} ms, bare {f.cpu_ms_per_click_bare:.3f} ms"
        )
    if f.bid.answer_ms:
        say(f"Strength Duel (shipped game): {args.game_clicks} DM bids, as many bare clicks")
        say(row("  DM bid", f.bid.answer_ms))
        say(row("  bare button", f.bid_bare.answer_ms))
        say(row("  DM bid → public table message edited", f.table_edit_ms))
        if f.edits_missing:
            say(f"  ({f.edits_missing} bids left the table message as it was)")
        say(row("  burst of DM bids, per click", f.bid_burst.answer_ms))
        say(row("  bare beside them, per click", f.bid_burst_bare.answer_ms))
        say(f"  throughput ceiling, DM bids: {f.bid_throughput:.0f} clicks/s")
    say(
        f"CPU while clicking: bot process {f.bot_cpu_seconds:.1f} s, this process (loopback"
        f" Discord and driver) {f.driver_cpu_seconds:.1f} s, wall {f.wall_seconds:.1f} s"
    )
    if f.refused:
        say(f"WARNING: {f.refused} clicks refused or unanswered: the run is not valid")


def spread(values: Sequence[float], digits: int = 2) -> str:
    """The median of the runs and their range."""
    ordered = sorted(v for v in values if not math.isnan(v))
    if not ordered:
        return "(none)"
    middle = statistics.median(ordered)
    return f"{middle:.{digits}f} [{ordered[0]:.{digits}f}–{ordered[-1]:.{digits}f}]"


def goal_line(name: str, values: Sequence[float], goal: float, at_most: bool = True) -> str:
    ordered = [v for v in values if not math.isnan(v)]
    if not ordered:
        return f"{name:<34} no figures"
    middle = statistics.median(ordered)
    met = middle <= goal if at_most else middle >= goal
    sign = "≤" if at_most else "≥"
    return f"{name:<34} {spread(ordered):<22} goal {sign} {goal}: {'MET' if met else 'NOT MET'}"


def summary(args: argparse.Namespace, runs: Sequence[Figures]) -> None:
    """Median over the runs (with their range) of what the goals judge."""
    backend = runs[0].backend
    say(f"\n[{backend}] the goals, median of {len(runs)} runs [min–max]")
    if runs[0].sequential.answer_ms:
        say(
            goal_line(
                "sequential p99 / durable floor",
                [ratio(f.sequential.answer_ms, f.sequential_floor.answer_ms, 99) for f in runs],
                GOAL_FLOOR_SEQUENTIAL,
            )
        )
        seq_bare = [ratio(f.sequential.answer_ms, f.sequential_bare.answer_ms, 99) for f in runs]
        say(f"{'sequential p99 / bare':<34} {spread(seq_bare)}")
    if runs[0].burst.answer_ms:
        for p in (50, 99):
            say(
                goal_line(
                    f"burst of {args.burst} p{p} / durable floor",
                    [ratio(f.burst.answer_ms, f.burst_floor.answer_ms, p) for f in runs],
                    GOAL_FLOOR_BURST,
                )
            )
            bare = [ratio(f.burst.answer_ms, f.burst_bare.answer_ms, p) for f in runs]
            say(f"{f'burst of {args.burst} p{p} / bare':<34} {spread(bare)}")
        say(
            goal_line(
                "throughput ceiling, clicks/s",
                [f.throughput for f in runs],
                GOAL_THROUGHPUT,
                at_most=False,
            ).replace(".00", "")
        )
        say(
            f"{'  durable floor ceiling, clicks/s':<34}"
            f" {spread([f.throughput_floor for f in runs], 0)}"
        )
        say(f"{'  bare ceiling, clicks/s':<34} {spread([f.throughput_bare for f in runs], 0)}")
        say(
            f"{'bot CPU per click, ms':<34} Raise {spread([f.cpu_ms_per_click for f in runs], 3)}"
            f", floor {spread([f.cpu_ms_per_click_floor for f in runs], 3)}"
            f", bare {spread([f.cpu_ms_per_click_bare for f in runs], 3)}"
        )
        if runs[0].breakdown:
            say("  a Raise click's CPU by step (profile of the bursts, shares × the ms above):")
            for step in runs[0].breakdown:
                say(f"    {step:<30} {spread([f.breakdown[step] for f in runs], 3)} ms")
    if runs[0].bid.answer_ms:
        bids = [ratio(f.bid.answer_ms, f.bid_bare.answer_ms, 99) for f in runs]
        say(f"{'Strength Duel DM bid p99 / bare':<34} {spread(bids)}")
        bursts = [ratio(f.bid_burst.answer_ms, f.bid_burst_bare.answer_ms, 99) for f in runs]
        say(f"{'DM bid bursts p99 / bare':<34} {spread(bursts)}")


async def run(args: argparse.Namespace) -> int:
    backends: list[Backend] = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    server: Any = None
    code = 0
    results: dict[Backend, list[Figures]] = {}
    with tempfile.TemporaryDirectory(prefix="tanzaku-loopback-") as name:
        folder = Path(name)
        try:
            for backend in backends:
                if backend == "postgresql" and server is None:
                    from tests.support.postgres import start_test_server

                    server = start_test_server(durable=True)
                    up = server.start_seconds
                    say(f"PostgreSQL server (durable, pgserver wheel) up in {up:.2f} s")
                for run_number in range(1, args.runs + 1):
                    async with inproc.fresh_database(backend, server, folder) as url:
                        try:
                            figures = await run_on(backend, url, args, folder, run_number)
                        except NotValid as error:
                            say(f"\n[{backend}] NOT VALID: {error}")
                            code = 2
                            continue
                    report(args, figures, run_number)
                    results.setdefault(backend, []).append(figures)
                    code = max(code, 2 if figures.refused else 0)
        finally:
            if server is not None:
                server.stop()
    for runs in results.values():
        summary(args, runs)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="sqlite")
    parser.add_argument("--case", choices=["sequential", "burst", "game", "all"], default="all")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--clicks", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--burst", type=int, default=50)
    parser.add_argument("--bursts", type=int, default=40)
    parser.add_argument("--burst-warmup", type=int, default=3)
    parser.add_argument("--duels", type=int, default=120)
    parser.add_argument("--game-clicks", type=int, default=1000)
    parser.add_argument("--gap-ms", type=float, default=2.0)
    parser.add_argument("--burst-gap-ms", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL")
    parser.add_argument(
        "--bot-timings",
        action="store_true",
        help="the bot process times steps of each click and prints them when it stops",
    )
    parser.add_argument(
        "--no-breakdown",
        action="store_true",
        help="skip the profiled bursts that divide a click's CPU between steps",
    )
    parser.add_argument(
        "--runs", type=int, default=3, help="whole runs (a new bot each); ratios are medians"
    )
    parser.add_argument(
        "--keep-profiles", type=Path, help="write the profiles of the bursts into this folder"
    )
    parser.add_argument(
        "--top", type=int, default=0, help="list this many functions of the profiled bursts"
    )
    parser.add_argument(
        "--metrics",
        action="store_true",
        help="the bot serves Prometheus metrics (TANZAKU_METRICS_PORT), to measure their cost",
    )
    args = parser.parse_args(argv)
    global TOP_FUNCTIONS
    TOP_FUNCTIONS = args.top
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(run(args))
    return 130


if __name__ == "__main__":
    sys.exit(main())
