"""Click latency of every game with the bot in its own process against a loopback Discord,
beside a bare discord.py button and the durable floor answered by the same bot process in
the same run.

    python benchmarks/loopback_latency.py [--backend sqlite|postgresql|both] [--quick]
        [--games coinflip,hazard,nihakyu,fortunes_winds,strength_duel]
        [--tables 300] [--game-tables 150] [--duels 120] [--clicks 300] [--warmup 30]
        [--burst 50] [--bursts 10] [--ceiling-bursts 6] [--profile-bursts 3] [--runs 3]

The bot (`loopback_bot.py`) is the real `TanzakuBot` (every shipped game, the coin-flip
test game, the bare button of `click_latency.py` and the durable floor), started as a
separate Python process and pointed at the `LoopbackDiscord` of `loopback_discord.py`,
which this process serves on 127.0.0.1 (a real WebSocket gateway and real HTTP). A click
is an INTERACTION_CREATE frame sent on the gateway, timed from just before the frame is
written to the moment the bot's interaction callback arrives over HTTP (**click →
answer**). Nothing of the harness lives in the bot's process.

Each game's table's main action is clicked:
- coinflip: "Raise 5" (the test game of issue 28);
- hazard: the caster's Throw;
- nihakyu: Roll (a secret choice; the round is revealed at its last Roll);
- fortunes_winds: "Roll with best keep" (the shooter's second and third rolls);
- strength_duel: a bid of 0 on the bidder's DM panel (the duel opened through Discord:
  /duel challenge, then Accept).
What a table needs between two of those (Hazard's main called, Fortunes' shooter's bet and
first roll, a new turn, Nihakyu's Sleight window passed) is done by this process's own
`TableService` on the same database, untimed, while the bot is idle (the bot reads every
table afresh, so it takes the table as it then is; the click carries the table's ply).

Per game, beside the durable floor (a bare discord.py button that commits one row WAL +
FULL before answering with a small fixed edit), the payload floor (the same durable button
answering with the game's own table message: its embeds and components, captured after one
untimed click of the game and built into discord.py objects at every click) and the bare
button, in the same run:
- sequential: `--clicks` clicks of the game shuffled with as many clicks of each other
  kind, one at a time (ratios of p50 and p99 to each floor's);
- burst: `--bursts` bursts of `--burst` clicks on as many tables, each beside a floor
  burst and a bare burst (the kinds take turns going first); per click, burst start → its
  answer (ratios of p50 and p99 to the floor's);
- ceiling: `--ceiling-bursts` bursts of each kind back to back, the bot quiet before each:
  clicks answered a second while a burst runs (throughput ceiling), the bot's CPU per click
  (its work after the answers included: each burst's CPU is read once Discord has heard
  nothing from the bot for `--quiet-ms`), the Discord requests per click by kind, and the
  garbage collections the bot made (per generation, their time, the objects each full
  collection freed);
- profile: `--profile-bursts` more bursts under a CPU-time cProfile of the bot process, to
  divide a click's CPU between steps (route, service, engine, storage, render, view,
  answer, gateway…): each step's share of the profile times the unprofiled CPU per click.

The summary gives, per game, the median of `--runs` runs with their range. Exit 0 with a
report; 2 when a run was not valid (a click refused or unanswered, the bot process gone,
a route the bot needed missing from the loopback Discord).
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
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "benchmarks"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import click_latency as inproc  # noqa: E402
from _stats import percentile as share_percentile  # noqa: E402
from click_latency import (  # noqa: E402
    BID_LABEL,
    CHANNELS_PER_GUILD,
    DUEL_BIDS_PER_TABLE,
    HOUSE_FLOAT,
    PLAYER_FLOAT,
    PLAYERS_PER_GUILD,
    RAISE_LABEL,
    Seat,
    say,
    seed_tables,
)
from loopback_discord import Answer, LoopbackDiscord  # noqa: E402

Backend = Literal["sqlite", "postgresql"]
GOAL_CPU = 1.25
"""CPU per click at most this many times the durable floor's (issue 36)."""
GOAL_FLOOR_BURST = 1.25
"""Bursts of 50 on 50 tables: p50 and p99 at most this many times the floor's."""
GOAL_THROUGHPUT = 0.8
"""A game's throughput ceiling at least this share of the floor's."""
ANSWER_TIMEOUT_SECONDS = 10.0
START_TIMEOUT_SECONDS = 180.0
EDIT_WAIT_SECONDS = 5.0
"""How long a deferred answer's edit may follow it: a burst of 50 Hachi-hachi plays is a
second of the bot's CPU or more, so on a loaded machine the last edits came over 1 s late
(a whole run was lost to it)."""
ROUND_SECONDS = 3600
"""Every deadline an hour away: the clock here is real, and none may fall due in a run."""
GAMES = ("coinflip", "hazard", "nihakyu", "fortunes_winds", "strength_duel", "hachihachi")
KINDS = ("game", "floor", "payload", "bare")
"""The kinds of click of every game's turn: its own, the durable floor, the payload floor
(the durable floor answering with the game's table message) and the bare button."""
SEEDED = ("hazard", "nihakyu", "fortunes_winds", "hachihachi")
"""The games whose tables this process seeds before the bot starts."""


class NotValid(RuntimeError):
    """The run cannot be judged (exit 2)."""


def percentile(values: Sequence[float], p: float) -> float:
    return share_percentile(values, p / 100)


# -- clicks ---------------------------------------------------------------------------------


def public_update(answer: Answer) -> bool:
    """A table click is taken when the clicked message is edited in answer (a refusal is
    private): at once, or after a deferred update (a click the bot acknowledged first
    because it was slow) through the interaction's webhook."""
    if answer.ephemeral:
        return False
    return answer.callback_type == 7 or (answer.callback_type == 6 and answer.edits > 0)


def bid_taken(answer: Answer) -> bool:
    """A bid is taken when it is confirmed privately ("your bid is …"), or, when it
    revealed the round, when the bidder's panel is redrawn in answer."""
    if any("your bid is" in text.lower() for text in answer.contents):
        return True
    return answer.callback_type == 7 and not answer.ephemeral


@dataclass
class Click:
    """One click to send: who, on which message, the component's custom id (and a
    select's values), and how to tell the bot took it."""

    user_id: int
    message_id: int
    custom_id: str
    values: Sequence[str] | None = None
    accepted: Callable[[Answer], bool] = public_update
    table_message_id: int = 0
    """The game's table message the click redraws, when it is not the clicked message
    (a Hachi-hachi hand, a duel's DM panel): what the payload floor answers with."""


async def answered(answer: Answer) -> bool:
    try:
        await asyncio.wait_for(answer.done.wait(), ANSWER_TIMEOUT_SECONDS)
    except TimeoutError:
        return False
    return answer.answered_at is not None


async def judged(answer: Answer, accepted: Callable[[Answer], bool]) -> bool:
    """Whether the bot took the click: its answer may come in parts (a deferred update,
    then a follow-up), so give the parts a moment to arrive."""
    if not await answered(answer):
        return False
    give_up = time.perf_counter() + EDIT_WAIT_SECONDS
    while not accepted(answer):
        if time.perf_counter() > give_up:
            return False
        await asyncio.sleep(0.0005)
    return True


async def send(discord: LoopbackDiscord, click: Click) -> Answer:
    return await discord.click_id(click.user_id, click.message_id, click.custom_id, click.values)


@dataclass
class Series:
    answer_ms: list[float] = field(default_factory=list)
    refused: int = 0


async def one_click(discord: LoopbackDiscord, click: Click, series: Series | None) -> None:
    answer = await send(discord, click)
    ok = await judged(answer, click.accepted)
    if series is not None:
        if answer.answered_at is not None:
            series.answer_ms.append((answer.answered_at - answer.sent_at) * 1000)
        if not ok:
            series.refused += 1


async def burst(
    discord: LoopbackDiscord, clicks: Sequence[Click], series: Series | None
) -> tuple[int, float]:
    """Write one click frame per click at once; wait for every answer. Returns how many
    were taken and the seconds from the first frame to the last answer."""
    started = time.perf_counter()
    answers = [await send(discord, c) for c in clicks]
    pairs = zip(answers, clicks, strict=True)
    results = await asyncio.gather(*(judged(a, c.accepted) for a, c in pairs))
    last = started
    for answer, ok in zip(answers, results, strict=True):
        if answer.answered_at is not None:
            last = max(last, answer.answered_at)
        if series is None:
            continue
        if not ok:
            series.refused += 1
        if answer.answered_at is not None:
            series.answer_ms.append((answer.answered_at - started) * 1000)
    if series is None and not all(results):
        said = next(
            (a.callback_type, a.ephemeral, a.contents)
            for a, ok in zip(answers, results, strict=True)
            if not ok
        )
        raise NotValid(
            f"{len(results) - sum(results)} clicks of a burst were refused (one said {said})"
        )
    return sum(results), last - started


# -- the bot process ------------------------------------------------------------------------


def process_cpu_seconds(pid: int) -> float:
    """CPU time of a process so far, its threads' together, to the nanosecond (Linux
    schedstat; /proc/<pid>/stat counts in ticks of 10 ms, too coarse for a click)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(FileNotFoundError, ProcessLookupError):
            total += int((task / "schedstat").read_text().split()[0])
    if total:
        return total / 1e9
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class BotProcess:
    """`loopback_bot.py` in its own process, pointed at the loopback Discord. Between
    SIGUSR1 and SIGUSR2 it counts its garbage collections (and profiles, when the control
    file asks): a measuring window, written to `<control>.<n>.json` at its end."""

    def __init__(
        self,
        discord: LoopbackDiscord,
        url: str,
        plans: Path,
        floor_database: Path,
        control: Path,
        synchronous: str = "FULL",
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
            "--control",
            str(control),
        ]
        self.control = control
        self.windows = 0
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

    def send_payload(self, message: dict[str, Any]) -> None:
        """What the payload floor answers with from now on (see `loopback_bot.Payload`)."""
        path = self.control.with_name(f"{self.control.name}.payload.json")
        written = path.with_suffix(".partial")
        written.write_text(json.dumps(message))
        written.rename(path)
        self.signal(signal.SIGHUP)

    async def open_window(self, profile: Path | None = None, garbage: bool = False) -> None:
        mode = "garbage" if garbage else "plain"
        self.control.write_text(f"profile:{profile}" if profile is not None else mode)
        self.signal(signal.SIGUSR1)
        # The signal is handled by the bot's loop: give it a moment before clicking.
        await asyncio.sleep(0.01)

    async def close_window(self) -> dict[str, Any]:
        """End the window; what the bot counted in it (garbage collections)."""
        self.windows += 1
        self.signal(signal.SIGUSR2)
        path = self.control.with_name(f"{self.control.name}.{self.windows}.json")
        await wait_for(path.exists, "the bot's window figures", self, START_TIMEOUT_SECONDS)
        result: dict[str, Any] = json.loads(path.read_text())
        return result

    async def stop(self) -> None:
        """SIGTERM, then wait for the bot to close, serving its last requests meanwhile."""
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


async def quiet(discord: LoopbackDiscord, bot: BotProcess, ms: float) -> None:
    """Until the bot has sent Discord nothing for `ms`: the work a click does after its
    answer (follow-ups, notices, panels) is over."""
    await asyncio.sleep(ms / 1000)
    await wait_for(
        lambda: time.perf_counter() - discord.last_request_at >= ms / 1000,
        "the bot to go quiet",
        bot,
        ANSWER_TIMEOUT_SECONDS,
    )


# -- the world ------------------------------------------------------------------------------


@dataclass
class Table:
    """A coin-flip table with its bare, floor and payload floor messages in the same
    channel."""

    seat: Seat
    n: int = 0
    table_id: int = 0
    message_id: int = 0
    bare_message_id: int = 0
    floor_message_id: int = 0
    payload_message_id: int = 0


@dataclass
class GameTable:
    """A table of a shipped game, seeded before the bot starts."""

    game: str
    seat: Seat
    table_id: int = 0
    message_id: int = 0


def build_world(discord: LoopbackDiscord, count: int, prefix: str = "") -> list[Seat]:
    users = [discord.add_user(f"{prefix}player{k}") for k in range(PLAYERS_PER_GUILD)]
    seats: list[Seat] = []
    for g in range(math.ceil(count / CHANNELS_PER_GUILD)):
        guild_id = discord.add_guild(f"{prefix}guild{g}")
        for c in range(min(CHANNELS_PER_GUILD, count - g * CHANNELS_PER_GUILD)):
            channel_id = discord.add_channel(guild_id, f"{prefix}table-{c}")
            host, guest = users[(2 * c) % len(users)], users[(2 * c + 1) % len(users)]
            seats.append(Seat(guild_id, channel_id, host, guest))
    return seats


def game_rules(game: str) -> Any:
    """Each game's table as the benchmark plays it: no deadline falls due in a run, and no
    betting window waits for the other seat (its main action is always the next click)."""
    from bot.games import fortunes_winds, hazard, nihakyu

    if game == "hazard":
        return hazard.Rules(bet_seconds=0, throw_seconds=ROUND_SECONDS)
    if game == "nihakyu":
        return nihakyu.Rules(round_seconds=ROUND_SECONDS, sleight_seconds=ROUND_SECONDS)
    if game == "fortunes_winds":
        return fortunes_winds.Rules(bet_seconds=0, roll_seconds=ROUND_SECONDS)
    if game == "hachihachi":
        from bot.games import hachihachi

        return hachihachi.Rules(turn_seconds=ROUND_SECONDS, rounds=48)
    raise ValueError(game)


def driver_service(url: str) -> Any:
    """A TableService of this process on the bot's database (every shipped game and the
    coin flip): it seeds the tables and makes the untimed moves between timed clicks."""
    from bot.economy import Economy
    from bot.service import TableService
    from bot.storage import database_for_url
    from tests.support.coinflip import TEST_CATALOG

    db = database_for_url(url, synchronous="NORMAL")
    economy = Economy(db, house_float=HOUSE_FLOAT)
    return TableService(db, economy, TEST_CATALOG.registry())


async def seed_game_tables(service: Any, tables: list[GameTable]) -> None:
    """Open, join and start each table (the host and the guest of its seat)."""
    from bot.service import Actor

    granted: set[tuple[int, int]] = set()
    for table in tables:
        seat = table.seat
        for member_id in (seat.host_id, seat.guest_id):
            if (seat.guild_id, member_id) not in granted:
                granted.add((seat.guild_id, member_id))
                await service._economy.grant(seat.guild_id, member_id, PLAYER_FLOAT, "benchmark")
    for table in tables:
        seat = table.seat
        opened = await service.open(
            guild_id=seat.guild_id,
            channel_id=seat.channel_id,
            game=table.game,
            host_id=seat.host_id,
            rules=game_rules(table.game),
        )
        table.table_id = opened.snapshot.id
        await service.join(table.table_id, Actor(seat.guest_id))
        await service.start(table.table_id, Actor(seat.host_id))


async def find_posted(
    discord: LoopbackDiscord, tables: list[Table], games: list[GameTable], bot: BotProcess
) -> None:
    """Match the messages the bot posts at start to their tables (by channel, and by the
    bare and floor buttons' custom ids)."""
    by_channel: dict[int, Table | GameTable] = {t.seat.channel_id: t for t in tables}
    by_channel.update({t.seat.channel_id: t for t in games})
    left = 4 * len(tables) + len(games)
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
        if isinstance(table, Table) and any(i.startswith("bench:") for i in ids):
            table.bare_message_id = int(message["id"])
        elif isinstance(table, Table) and any(i.startswith("floor:") for i in ids):
            table.floor_message_id = int(message["id"])
        elif isinstance(table, Table) and any(i.startswith("pay:") for i in ids):
            table.payload_message_id = int(message["id"])
        else:
            table.message_id = int(message["id"])
        left -= 1


# -- the games' drivers ---------------------------------------------------------------------


class Driver:
    """How the benchmark plays one game: its tables, and for chosen tables the timed
    clicks of their main action (after the untimed moves that lead to it)."""

    game: str
    action: str

    async def ready(self, count: int, rng: random.Random) -> list[Click]:
        raise NotImplementedError

    async def settle(self) -> None:
        """After a burst, wait for the follow-ups the next clicks need (not timed)."""


class CoinflipDriver(Driver):
    game = "coinflip"
    action = "Raise 5"

    def __init__(self, discord: LoopbackDiscord, tables: list[Table]) -> None:
        self.discord = discord
        self.tables = tables

    async def ready(self, count: int, rng: random.Random) -> list[Click]:
        return [
            Click(
                rng.choice((t.seat.host_id, t.seat.guest_id)),
                t.message_id,
                self.discord.button(t.message_id, RAISE_LABEL),
            )
            for t in rng.sample(self.tables, count)
        ]


class SeededDriver(Driver):
    """A shipped game seeded before the bot started: the state is read from the database
    (untimed) and the clicks are drawn at the table's ply."""

    def __init__(self, game: str, action: str, service: Any, tables: list[GameTable]) -> None:
        self.game = game
        self.action = action
        self.service = service
        self.tables = tables

    def main_click(self, state: Any) -> tuple[int, str, Sequence[str] | None] | None:
        """(member, verb, select values) of the main action, if the table is at it."""
        raise NotImplementedError

    def untimed_move(self, state: Any) -> tuple[int, Any]:
        """(member, action) leading the table towards its main action."""
        raise NotImplementedError

    async def prepare(self, table: GameTable) -> Click | None:
        from bot.service import Actor

        for _ in range(20):
            snapshot = await self.service.snapshot(table.table_id)
            state = snapshot.game
            if state.finished:
                return None
            main = self.main_click(state)
            if main is not None:
                user, verb, values = main
                custom_id = f"tz:{table.table_id}:{snapshot.ply}:{verb}"
                return Click(
                    user, table.message_id, custom_id, values, table_message_id=table.message_id
                )
            user, action = self.untimed_move(state)
            await self.service.act(table.table_id, Actor(user), action)
        raise NotValid(f"{self.game} table {table.table_id} never came to its main action")

    async def ready(self, count: int, rng: random.Random) -> list[Click]:
        clicks: list[Click] = []
        candidates = list(self.tables)
        rng.shuffle(candidates)
        while len(clicks) < count:
            if not candidates:
                raise NotValid(f"too few {self.game} tables still in play: raise --game-tables")
            table = candidates.pop()
            click = await self.prepare(table)
            if click is None:
                self.tables.remove(table)
            else:
                clicks.append(click)
        return clicks


class HazardDriver(SeededDriver):
    def main_click(self, state: Any) -> tuple[int, str, Sequence[str] | None] | None:
        if state.main is not None and not state.window_open:
            return state.caster, "throw", None
        return None

    def untimed_move(self, state: Any) -> tuple[int, Any]:
        from bot.games import hazard

        return state.caster, hazard.CallMain(main=7)


class NihakyuDriver(SeededDriver):
    def main_click(self, state: Any) -> tuple[int, str, Sequence[str] | None] | None:
        from bot.games import nihakyu

        if state.phase == "choosing":
            for player in nihakyu.standing(state):
                if player not in state.choices:
                    return player, "roll", None
        return None

    def untimed_move(self, state: Any) -> tuple[int, Any]:
        from bot.games import nihakyu

        waiting = [p for p in state.sleight_players if p not in state.sleights]
        if state.phase == "sleight" and waiting:
            return waiting[0], nihakyu.SkipSleight()
        raise NotValid(f"a Nihakyu table in phase {state.phase} the benchmark cannot move")


class FortunesDriver(SeededDriver):
    def main_click(self, state: Any) -> tuple[int, str, Sequence[str] | None] | None:
        if state.phase == "rolling" and 1 <= state.roll_number <= 2 and not state.window_open:
            return state.shooter, "bestroll", None
        return None

    def untimed_move(self, state: Any) -> tuple[int, Any]:
        from bot.games import fortunes_winds as fw

        shooter = state.shooter
        if state.phase == "won":
            return shooter, fw.NewTurn()
        if state.roll_number == 0 and not state.bets.get(shooter, {}).get("shooter"):
            return shooter, fw.Bet(kind="shooter", amount=2)
        return shooter, fw.Roll()


class HachihachiDriver(SeededDriver):
    """A play from the player's hand: the click is on their private hand (the ephemeral
    answer of the table's "My hand", kept up to date by the bot), asked for once per
    player and table, untimed. Every other decision (mizuten, a drawn card's capture,
    continuing or ending after a hand) is made untimed, as the engine lists it first."""

    def __init__(
        self,
        game: str,
        action: str,
        service: Any,
        tables: list[GameTable],
        discord: LoopbackDiscord,
    ) -> None:
        super().__init__(game, action, service, tables)
        self.discord = discord
        self.hands: dict[tuple[int, int], int] = {}
        self.current: GameTable | None = None

    def main_click(self, state: Any) -> tuple[int, str, Sequence[str] | None] | None:
        from bot.games import hachihachi as hh
        from cogs.hachihachi.buttons import card_arg

        for player in hh.ENGINE.waiting_on(state):
            for action in hh.legal_actions(state, player):
                if isinstance(action, hh.Play):
                    return player, f"play:{card_arg(action.card, action.capture)}", None
        return None

    def untimed_move(self, state: Any) -> tuple[int, Any]:
        from bot.games import hachihachi as hh

        (player,) = hh.ENGINE.waiting_on(state)
        actions = [a for a in hh.legal_actions(state, player) if not isinstance(a, hh.Cancel)]
        return player, actions[0]

    async def prepare(self, table: GameTable) -> Click | None:
        click = await super().prepare(table)
        if click is None:
            return None
        hand = self.hands.get((table.table_id, click.user_id))
        if hand is None:
            # Their hand, privately (not timed): the message a play is clicked on.
            asked = await self.discord.click_id(
                click.user_id, table.message_id, f"tz:{table.table_id}:0:hand"
            )
            if not await answered(asked) or asked.message_id is None:
                raise NotValid(f"no hand at Hachi-hachi table {table.table_id}")
            hand = self.hands[(table.table_id, click.user_id)] = asked.message_id
        click.message_id = hand
        # The hand is redrawn in answer (a refusal would be a new private message).
        click.accepted = lambda a: a.callback_type == 7 or (a.callback_type == 6 and a.edits > 0)
        return click


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


class DuelDriver(Driver):
    """Strength Duels opened as players open them; a click is a bid of 0 on the next
    bidder's DM panel (host and guest take turns: the round is revealed at the second)."""

    game = "strength_duel"
    action = "DM bid"

    def __init__(self, discord: LoopbackDiscord, bot: BotProcess) -> None:
        self.discord = discord
        self.bot = bot
        self.duels: list[Duel] = []
        self.last: list[Duel] = []

    async def open(self, seats: list[DuelSeat]) -> None:
        for seat in seats:
            options = [
                {"type": 6, "name": "member", "value": str(seat.guest_id)},
                {"type": 4, "name": "stake", "value": 10},
                {"type": 4, "name": "round_seconds", "value": ROUND_SECONDS},
            ]
            opened = await self.discord.slash(
                seat.host_id, seat.channel_id, "duel challenge", options
            )
            if not await answered(opened) or opened.ephemeral or opened.message_id is None:
                raise NotValid(f"the duel challenge was refused: {opened.contents}")
            accepted = await self.discord.click(seat.guest_id, opened.message_id, "Accept")
            if not await answered(accepted):
                raise NotValid("the duel was not accepted")
            self.duels.append(Duel(seat.host_id, seat.guest_id, opened.message_id))
        await self.settle_duels(self.duels)

    async def settle_duels(self, duels: list[Duel]) -> None:
        await wait_for(
            lambda: all(panel_of(self.discord, d.next_bidder(), d.round) for d in duels),
            "the next DM panels",
            self.bot,
            START_TIMEOUT_SECONDS,
        )

    async def ready(self, count: int, rng: random.Random) -> list[Click]:
        live = [d for d in self.duels if d.bids < DUEL_BIDS_PER_TABLE and d not in self.last]
        if len(live) < count:
            raise NotValid("too few duels with rounds left: raise --duels")
        chosen = rng.sample(live, count)
        await self.settle_duels(chosen)
        clicks = []
        for duel in chosen:
            panel = panel_of(self.discord, duel.next_bidder(), duel.round)
            assert panel is not None
            clicks.append(
                Click(
                    duel.next_bidder(),
                    panel,
                    self.discord.button(panel, BID_LABEL),
                    accepted=bid_taken,
                    table_message_id=duel.table_message_id,
                )
            )
            duel.bids += 1
        self.last = chosen
        return clicks

    async def settle(self) -> None:
        await self.settle_duels(self.last)
        self.last = []


# -- per game figures -----------------------------------------------------------------------


@dataclass
class KindFigures:
    """One kind of click (a game's, the floor's or the bare button's) in one run."""

    sequential: Series = field(default_factory=Series)
    burst: Series = field(default_factory=Series)
    sequential_cpu_ms: list[float] = field(default_factory=list)
    """The bot's CPU for each sequential click, until Discord heard nothing from it for
    `--gap-ms` (its work after the answer included)."""
    throughput: float = 0.0
    cpu_ms: float = 0.0
    requests: Counter[str] = field(default_factory=Counter)
    clicks: int = 0
    gc: dict[str, Any] = field(default_factory=dict)
    steps: dict[str, float] = field(default_factory=dict)
    garbage: dict[str, float] = field(default_factory=dict)
    """Objects left to the collector (in reference cycles) per click, by type."""

    def requests_per_click(self) -> float:
        return sum(self.requests.values()) / max(self.clicks, 1)


@dataclass
class GameFigures:
    game: str
    action: str
    ours: KindFigures = field(default_factory=KindFigures)
    floor: KindFigures = field(default_factory=KindFigures)
    payload: KindFigures = field(default_factory=KindFigures)
    """The payload floor: the durable floor answering with this game's table message."""
    bare: KindFigures = field(default_factory=KindFigures)
    message: dict[str, int] = field(default_factory=dict)
    """The size of the table message the payload floor answers with."""

    @property
    def refused(self) -> int:
        kinds = (self.ours, self.floor, self.payload, self.bare)
        return sum(s.refused for k in kinds for s in (k.sequential, k.burst))


@dataclass
class RunFigures:
    backend: Backend
    games: dict[str, GameFigures] = field(default_factory=dict)
    bot_cpu_seconds: float = 0.0
    wall_seconds: float = 0.0

    @property
    def refused(self) -> int:
        return sum(g.refused for g in self.games.values())


class Bench:
    """One run: the bot, the loopback Discord, the tables and the drivers."""

    def __init__(
        self,
        args: argparse.Namespace,
        discord: LoopbackDiscord,
        bot: BotProcess,
        tables: list[Table],
        folder: Path,
        run_number: int,
    ) -> None:
        self.args = args
        self.discord = discord
        self.bot = bot
        self.tables = tables
        self.rng = random.Random(args.seed)
        self.folder = folder
        self.run_number = run_number

    def baseline(self, kind: str, count: int) -> list[Click]:
        chosen = self.rng.sample(self.tables, count)
        if kind == "payload":
            # Its message shows the game's components, one of them carrying this id.
            return [
                Click(
                    self.rng.choice((t.seat.host_id, t.seat.guest_id)),
                    t.payload_message_id,
                    f"pay:{t.n}:raise",
                )
                for t in chosen
            ]
        return [
            Click(
                self.rng.choice((t.seat.host_id, t.seat.guest_id)),
                t.bare_message_id if kind == "bare" else t.floor_message_id,
                self.discord.button(
                    t.bare_message_id if kind == "bare" else t.floor_message_id, RAISE_LABEL
                ),
            )
            for t in chosen
        ]

    async def capture(self, driver: Driver, figures: GameFigures) -> None:
        """One game click, untimed; then the table message it redrew, as the loopback
        Discord stores it, becomes what the payload floor answers with (the bot reads it
        again on SIGHUP)."""
        (click,) = await driver.ready(1, self.rng)
        await one_click(self.discord, click, None)
        await quiet(self.discord, self.bot, self.args.quiet_ms)
        await driver.settle()
        stored = self.discord.messages[click.table_message_id or click.message_id]
        message = {key: stored.get(key) for key in ("content", "embeds", "components")}
        self.bot.send_payload(message)
        embeds = message["embeds"] or []
        figures.message = {
            "components": sum(len(r.get("components", ())) for r in message["components"] or []),
            "embed lines": sum(
                len((e.get("description") or "").splitlines())
                + sum(1 + len(f.get("value", "").splitlines()) for f in e.get("fields", ()))
                for e in embeds
            ),
            "bytes": len(json.dumps(message)),
        }
        await asyncio.sleep(0.05)  # the signal is handled on the bot's loop

    async def clicks_of(self, driver: Driver, kind: str, count: int) -> list[Click]:
        if kind == "game":
            return await driver.ready(count, self.rng)
        return self.baseline(kind, count)

    async def sequential(self, driver: Driver, figures: GameFigures) -> None:
        of = {
            "game": figures.ours,
            "floor": figures.floor,
            "payload": figures.payload,
            "bare": figures.bare,
        }
        kinds = [*KINDS] * self.args.clicks
        self.rng.shuffle(kinds)
        warmup = [*KINDS] * self.args.warmup
        for n, kind in enumerate([*warmup, *kinds]):
            measuring = n >= len(warmup)
            (click,) = await self.clicks_of(driver, kind, 1)
            cpu = self.bot.cpu_seconds()
            await one_click(self.discord, click, of[kind].sequential if measuring else None)
            # The bot's work after the answer is over before the next click, as a member's
            # next click would find it (and counts for this one).
            await quiet(self.discord, self.bot, self.args.gap_ms)
            if measuring:
                of[kind].sequential_cpu_ms.append((self.bot.cpu_seconds() - cpu) * 1000)
            if kind == "game":
                await driver.settle()

    async def bursts(self, driver: Driver, figures: GameFigures) -> None:
        series = {
            "game": figures.ours.burst,
            "floor": figures.floor.burst,
            "payload": figures.payload.burst,
            "bare": figures.bare.burst,
        }
        size = self.args.burst
        kinds = [*KINDS]
        for n in range(self.args.burst_warmup + self.args.bursts):
            measuring = n >= self.args.burst_warmup
            shift = n % len(kinds)
            for kind in kinds[shift:] + kinds[:shift]:
                clicks = await self.clicks_of(driver, kind, size)
                await quiet(self.discord, self.bot, self.args.quiet_ms)
                await burst(self.discord, clicks, series[kind] if measuring else None)
                if kind == "game":
                    await driver.settle()
                await asyncio.sleep(self.args.burst_gap_ms / 1000)

    async def ceiling(
        self,
        driver: Driver,
        kind: str,
        into: KindFigures,
        profile: Path | None = None,
        garbage: bool = False,
    ) -> None:
        """Bursts one after another, the bot quiet before each: clicks a second while a
        burst runs, CPU and Discord requests per click (the work after the answers
        included), and the collections the bot made meanwhile."""
        size = self.args.burst
        clicks = 0
        cpu = 0.0
        busy = 0.0
        requests: Counter[str] = Counter()
        bursts = self.args.ceiling_bursts
        if profile is not None:
            bursts = self.args.profile_bursts
        elif garbage:
            bursts = 1
        await self.bot.open_window(profile, garbage)
        for _ in range(bursts):
            picks = await self.clicks_of(driver, kind, size)
            await quiet(self.discord, self.bot, self.args.quiet_ms)
            before_cpu = self.bot.cpu_seconds()
            before = Counter(self.discord.requests)
            started = time.perf_counter()
            taken, _seconds = await burst(self.discord, picks, None)
            await quiet(self.discord, self.bot, self.args.quiet_ms)
            # Busy until its last request: the work after the answers counts too.
            seconds = self.discord.last_request_at - started
            cpu += self.bot.cpu_seconds() - before_cpu
            requests += Counter(self.discord.requests) - before
            clicks += taken
            busy += seconds
            if kind == "game":
                await driver.settle()
        window = await self.bot.close_window()
        if garbage:
            into.garbage = {t: n / max(clicks, 1) for t, n in window["garbage"].items()}
            return
        if profile is not None:
            return
        into.throughput = clicks / busy if busy else math.nan
        into.cpu_ms = cpu * 1000 / max(clicks, 1)
        into.requests = requests
        into.clicks = clicks
        into.gc = window["gc"]

    async def run_game(self, driver: Driver) -> GameFigures:
        figures = GameFigures(driver.game, driver.action)
        await self.capture(driver, figures)
        if self.args.clicks:
            await self.sequential(driver, figures)
        if self.args.bursts:
            await self.bursts(driver, figures)
        kinds = [
            ("game", figures.ours),
            ("floor", figures.floor),
            ("payload", figures.payload),
            ("bare", figures.bare),
        ]
        for kind, into in kinds:
            await self.ceiling(driver, kind, into)
        if self.args.garbage:
            await self.ceiling(driver, "game", figures.ours, garbage=True)
            await self.ceiling(driver, "floor", figures.floor, garbage=True)
        if self.args.profile_bursts:
            path = self.folder / f"{driver.game}-{self.run_number}.prof"
            if self.args.keep_profiles is not None:
                path = self.args.keep_profiles / path.name
            await self.ceiling(driver, "game", figures.ours, path)
            await wait_for(path.exists, "the bot's profile", self.bot, START_TIMEOUT_SECONDS)
            shares = breakdown(path)
            figures.ours.steps = {step: s * figures.ours.cpu_ms for step, s in shares.items()}
        return figures


# -- the profile's steps --------------------------------------------------------------------

STEPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # (step, fragments of "file:function" whose own time counts for it), first match wins.
    ("engine", ("/bot/games/", "/coinflip/engine", "/coinflip/__init__", "/bot/players/")),
    ("route (hub, ids, notices)", ("/cogs/_ui/hub.py", "/cogs/_ui/custom_ids", "/cogs/_ui/notify",
                                   "/cogs/_ui/sync.py", "/bot/service/notices", "/bot/i18n/lang")),
    ("render (words, embed)", ("/cogs/", "/coinflip_cog/", "/bot/i18n/", "discord/embeds.py",
                               "discord/colour", "babel")),
    ("view (components)", ("discord/ui/", "discord/components.py", "discord/enums.py")),
    ("storage (SQL, commit)", ("/bot/storage/", "aiosqlite", "sqlite3", "asyncpg",
                               "{method 'execute", "{method 'commit", "{method 'fetch")),
    ("service (table, money)", ("/bot/service/", "/bot/economy.py", "/bot/fairness.py",
                                "/bot/scheduler", "/bot/signals", "/bot/meter", "/bot/metrics")),
    ("pydantic (models, JSON)", ("pydantic",)),
    ("answer (REST: HTTP, JSON)", ("discord/http.py", "discord/webhook", "discord/interactions",
                                   "aiohttp", "yarl", "multidict", "json", "{method 'send'",
                                   "ssl")),
    ("gateway (frame, parse)", ("discord/gateway", "discord/state", "discord/",
                                "{method 'recv", "zlib")),
    ("event loop, other", ("",)),
)  # fmt: skip


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
        say(f"  the {TOP_FUNCTIONS} functions with the most own time in {path.name}:")
        ranked = sorted(profiled.items(), key=lambda item: -item[1][2])[:TOP_FUNCTIONS]
        for (filename, line, name), (_cc, calls, own, _cum, _callers) in ranked:
            where = f"{filename}:{line}({name})".replace(str(ROOT), "")
            say(f"    {own / whole:6.1%} {calls:8d} calls  {where[-90:]}")
    return {step: seconds / whole for step, seconds in totals.items()}


TOP_FUNCTIONS = 0
"""`--top`: how many of the profiled functions to list (0: none)."""


# -- the run --------------------------------------------------------------------------------


def plans_of(tables: list[Table], games: list[GameTable]) -> list[dict[str, Any]]:
    plans: list[dict[str, Any]] = [
        {
            "table_id": t.table_id,
            "channel_id": t.seat.channel_id,
            "n": n,
            "host_id": t.seat.host_id,
            "baselines": True,
        }
        for n, t in enumerate(tables)
    ]
    plans += [{"table_id": t.table_id, "channel_id": t.seat.channel_id} for t in games]
    return plans


def seeded_drivers(
    games: list[str], service: Any, tables: list[GameTable], discord: LoopbackDiscord
) -> list[Driver]:
    kinds: dict[str, tuple[type[SeededDriver], str]] = {
        "hazard": (HazardDriver, "Throw"),
        "nihakyu": (NihakyuDriver, "Roll"),
        "fortunes_winds": (FortunesDriver, "Roll with best keep"),
    }
    drivers: list[Driver] = [
        kinds[g][0](g, kinds[g][1], service, [t for t in tables if t.game == g])
        for g in games
        if g in kinds
    ]
    if "hachihachi" in games:
        mine = [t for t in tables if t.game == "hachihachi"]
        drivers.append(HachihachiDriver("hachihachi", "a play", service, mine, discord))
    return drivers


async def run_on(
    backend: Backend, url: str, args: argparse.Namespace, folder: Path, run_number: int
) -> RunFigures:
    discord = LoopbackDiscord()
    tables = [Table(seat, n) for n, seat in enumerate(build_world(discord, args.tables))]
    seeded = [g for g in args.games if g in SEEDED]
    game_tables = [
        GameTable(game, seat)
        for game in seeded
        for seat in build_world(discord, args.game_tables, prefix=f"{game}-")
    ]
    duel_seats = build_duel_world(discord, args.duels if "strength_duel" in args.games else 0)
    table_ids = await seed_tables(url, [t.seat for t in tables], time.time())
    for table, table_id in zip(tables, table_ids, strict=True):
        table.table_id = table_id
    service = driver_service(url)
    await service._db.open()
    figures = RunFigures(backend)
    try:
        await seed_game_tables(service, game_tables)
        plans = folder / f"plans-{backend}-{run_number}.json"
        plans.write_text(json.dumps(plans_of(tables, game_tables)))
        await discord.start()
        bot = BotProcess(
            discord,
            url,
            plans,
            folder / f"floor-{backend}-{run_number}.db",
            folder / f"control-{backend}-{run_number}",
            args.synchronous,
            args.bot_timings,
            args.metrics,
        )
        started = time.perf_counter()
        try:
            bot.start()
            await wait_for(discord.ready.is_set, "the bot's IDENTIFY", bot, START_TIMEOUT_SECONDS)
            await find_posted(discord, tables, game_tables, bot)
            say(
                f"bot up and {len(tables) + len(game_tables)} tables posted in"
                f" {time.perf_counter() - started:.1f} s"
            )
            drivers: list[Driver] = []
            if "coinflip" in args.games:
                drivers.append(CoinflipDriver(discord, tables))
            drivers += seeded_drivers(seeded, service, game_tables, discord)
            if duel_seats:
                duels = DuelDriver(discord, bot)
                await duels.open(duel_seats)
                drivers.append(duels)
            bench = Bench(args, discord, bot, tables, folder, run_number)
            gc.collect()
            cpu_bot = bot.cpu_seconds()
            clicking = time.perf_counter()
            order = {g: n for n, g in enumerate(args.games)}
            for driver in sorted(drivers, key=lambda d: order[d.game]):
                figures.games[driver.game] = await bench.run_game(driver)
                say(f"  {driver.game}: done at {time.perf_counter() - clicking:.0f} s")
            figures.wall_seconds = time.perf_counter() - clicking
            figures.bot_cpu_seconds = bot.cpu_seconds() - cpu_bot
            bot.check_alive()
        finally:
            await bot.stop()
            await discord.stop()
    finally:
        await service.scheduler.stop()
        await service._db.close()
    if discord.unknown:
        raise NotValid(f"routes the loopback Discord lacks: {sorted(set(discord.unknown))}")
    return figures


# -- the report -----------------------------------------------------------------------------


def row(name: str, values: Sequence[float]) -> str:
    if not values:
        return f"{name:<34} (none)"
    cells = " ".join(f"{percentile(values, p):8.2f}ms" for p in (50, 95, 99))
    return f"{name:<34} {cells} {max(values):8.2f}ms"


def ratio(ours: Sequence[float], base: Sequence[float], p: float) -> float:
    return percentile(ours, p) / percentile(base, p) if ours and base else math.nan


def gc_text(window: dict[str, Any], clicks: int) -> str:
    if not window:
        return "(none)"
    counts = window["collections"]
    full = window.get("full_cpu_ms", window["full_ms"])
    full_text = ", ".join(f"{ms:.1f}" for ms in full[:8]) + (" …" if len(full) > 8 else "")
    return (
        f"collections gen0/1/2 {counts[0]}/{counts[1]}/{counts[2]},"
        f" CPU {window.get('cpu_ms_total', 0):.1f} ms in all (wall {window['ms_total']:.1f}),"
        f" full ones [{full_text}] ms CPU;"
        f" objects freed by the collector {window['collected'] / max(clicks, 1):.1f} a click;"
        f" {window.get('gen2_objects', 0)} objects in the oldest generation,"
        f" {window.get('frozen', 0)} frozen"
    )


def report(args: argparse.Namespace, run: RunFigures, run_number: int) -> None:
    say(f"\n[{run.backend}, run {run_number}] click → answer" + " " * 18 + "p50 p95 p99 max")
    for g in run.games.values():
        say(f"{g.game} — {g.action}; its table message: {message_text(g.message)}")
        for label, kind in (
            ("  ", g.ours),
            ("  durable floor, ", g.floor),
            ("  payload floor, ", g.payload),
            ("  bare, ", g.bare),
        ):
            name = g.action if kind is g.ours else ""
            say(row(f"{label}{name} sequential".replace(",  ", ", "), kind.sequential.answer_ms))
            say(row(f"{label}{name} burst".replace(",  ", ", "), kind.burst.answer_ms))
        for label, kind in (
            ("game", g.ours),
            ("floor", g.floor),
            ("payload", g.payload),
            ("bare", g.bare),
        ):
            req = ", ".join(
                f"{what} {n / max(kind.clicks, 1):.2f}" for what, n in sorted(kind.requests.items())
            )
            seq_cpu = statistics.fmean(kind.sequential_cpu_ms) if kind.sequential_cpu_ms else 0
            say(
                f"  {label:<7} ceiling {kind.throughput:6.0f}/s  CPU {kind.cpu_ms:.3f} ms/click"
                f" in bursts, {seq_cpu:.3f} one at a time"
                f"  requests/click {kind.requests_per_click():.2f} ({req})"
            )
            say(f"         gc: {gc_text(kind.gc, kind.clicks)}")
        for label, kind in (("game", g.ours), ("floor", g.floor)):
            if kind.garbage:
                top = sorted(kind.garbage.items(), key=lambda item: -item[1])[:12]
                say(
                    f"  {label}: objects in reference cycles a click"
                    f" {sum(kind.garbage.values()):.1f}: "
                    + ", ".join(f"{name.rsplit('.', 1)[-1]} {n:.1f}" for name, n in top)
                )
        if g.ours.steps:
            say(
                "  CPU by step, ms: "
                + " · ".join(f"{step} {ms:.3f}" for step, ms in g.ours.steps.items())
            )
    say(f"CPU while clicking: bot {run.bot_cpu_seconds:.1f} s, wall {run.wall_seconds:.1f} s")
    if run.refused:
        say(f"WARNING: {run.refused} clicks refused or unanswered: the run is not valid")


def message_text(size: dict[str, int]) -> str:
    if not size:
        return "(not captured)"
    return ", ".join(f"{n} {what}" for what, n in size.items())


def spread(values: Sequence[float], digits: int = 2) -> str:
    """The median of the runs and their range."""
    ordered = sorted(v for v in values if not math.isnan(v))
    if not ordered:
        return "(none)"
    middle = statistics.median(ordered)
    if len(ordered) == 1:
        return f"{middle:.{digits}f}"
    return f"{middle:.{digits}f} [{ordered[0]:.{digits}f}–{ordered[-1]:.{digits}f}]"


def seq_cpu(kind: KindFigures) -> float:
    return statistics.fmean(kind.sequential_cpu_ms) if kind.sequential_cpu_ms else math.nan


def median(values: Sequence[float]) -> float:
    ordered = [v for v in values if not math.isnan(v)]
    return statistics.median(ordered) if ordered else math.nan


def verdict(values: Sequence[float], goal: float, at_most: bool = True) -> str:
    middle = median(values)
    if math.isnan(middle):
        return ""
    met = middle <= goal if at_most else middle >= goal
    return "met" if met else "NOT met"


def summary(args: argparse.Namespace, runs: Sequence[RunFigures]) -> None:
    """Per game, the median over the runs (with their range) of what the goals judge."""
    backend = runs[0].backend
    say(f"\n[{backend}] per game, median of {len(runs)} runs [min–max], against the floor")
    for game in runs[0].games:
        figs = [r.games[game] for r in runs if game in r.games]
        g0 = figs[0]
        say(f"{game} — {g0.action}; the payload floor's answer: {message_text(g0.message)}")
        cpu = [g.ours.cpu_ms for g in figs]
        say(
            f"  CPU ms/click in bursts {spread(cpu, 3)};"
            f" floor {spread([g.floor.cpu_ms for g in figs], 3)},"
            f" payload floor {spread([g.payload.cpu_ms for g in figs], 3)},"
            f" bare {spread([g.bare.cpu_ms for g in figs], 3)};"
            + against(figs, lambda k: k.cpu_ms, GOAL_CPU)
        )
        one = [seq_cpu(g.ours) for g in figs]
        say(
            f"  CPU ms/click one at a time {spread(one, 3)};"
            f" floor {spread([seq_cpu(g.floor) for g in figs], 3)},"
            f" payload floor {spread([seq_cpu(g.payload) for g in figs], 3)},"
            f" bare {spread([seq_cpu(g.bare) for g in figs], 3)};"
            + against(figs, seq_cpu, GOAL_CPU)
        )
        say(
            f"  Discord requests/click {spread([g.ours.requests_per_click() for g in figs])}"
            f" (floor {spread([g.floor.requests_per_click() for g in figs])},"
            f" payload floor {spread([g.payload.requests_per_click() for g in figs])})"
        )
        for p in (50, 99):
            say(
                f"  sequential p{p}"
                + against(figs, lambda k, p=p: percentile_of(k.sequential.answer_ms, p), None, True)
            )
        for p in (50, 99):
            say(
                f"  burst of {args.burst} p{p}"
                + against(
                    figs, lambda k, p=p: percentile_of(k.burst.answer_ms, p), GOAL_FLOOR_BURST, True
                )
            )
        thr = [g.ours.throughput / g.floor.throughput for g in figs]
        thr_payload = [g.ours.throughput / g.payload.throughput for g in figs]
        say(
            f"  throughput ceiling {spread([g.ours.throughput for g in figs], 0)}/s,"
            f" floor {spread([g.floor.throughput for g in figs], 0)}/s,"
            f" payload floor {spread([g.payload.throughput for g in figs], 0)}/s:"
            f" × floor {spread(thr)} (≥ {GOAL_THROUGHPUT}: {verdict(thr, GOAL_THROUGHPUT, False)}),"
            f" × payload floor {spread(thr_payload)}"
        )
        full = [len(g.ours.gc.get("full_ms", ())) for g in figs]
        full_ms = [
            statistics.fmean(g.ours.gc["full_cpu_ms"]) for g in figs if g.ours.gc.get("full_cpu_ms")
        ]
        floor_ms = [
            statistics.fmean(g.floor.gc["full_cpu_ms"])
            for g in figs
            if g.floor.gc.get("full_cpu_ms")
        ]
        gc_cpu = [g.ours.gc.get("cpu_ms_total", 0) / max(g.ours.clicks, 1) for g in figs]
        floor_gc_cpu = [g.floor.gc.get("cpu_ms_total", 0) / max(g.floor.clicks, 1) for g in figs]
        freed = [g.ours.gc.get("collected", 0) / max(g.ours.clicks, 1) for g in figs]
        floor_freed = [g.floor.gc.get("collected", 0) / max(g.floor.clicks, 1) for g in figs]
        floor_full = [len(g.floor.gc.get("full_ms", ())) for g in figs]
        say(
            f"  garbage collection in its {args.ceiling_bursts} ceiling bursts: full ones"
            f" {spread(full, 0)} (floor {spread(floor_full, 0)}),"
            f" {spread(full_ms, 1)} ms CPU each (floor {spread(floor_ms, 1)});"
            f" all collections {spread(gc_cpu, 3)} ms CPU a click"
            f" (floor {spread(floor_gc_cpu, 3)});"
            f" objects freed by the collector {spread(freed, 1)} a click"
            f" (floor {spread(floor_freed, 1)})"
        )
        if g0.ours.steps:
            say("  CPU by step, ms a click: " + " · ".join(
                f"{step} {spread([g.ours.steps.get(step, math.nan) for g in figs], 3)}"
                for step in g0.ours.steps
            ))  # fmt: skip
    say(
        f"\n[{backend}] one line a game (medians; × floor, × payload floor): CPU ms one at a"
        " time · × · × · CPU ms in bursts · × · × · requests · seq p50/p99 × floor ·"
        " × payload · burst p50/p99 × floor · × payload · throughput × floor · × payload"
    )
    for game in runs[0].games:
        figs = [r.games[game] for r in runs if game in r.games]

        def both(value: Callable[[KindFigures], float], figs: list[GameFigures] = figs) -> str:
            return (
                f"{median([value(g.ours) / value(g.floor) for g in figs]):.2f}"
                f" | {median([value(g.ours) / value(g.payload) for g in figs]):.2f}"
            )

        def pair(
            value: Callable[[KindFigures, float], float],
            of: str,
            figs: list[GameFigures] = figs,
        ) -> str:
            return "/".join(
                f"{median([value(g.ours, p) / value(getattr(g, of), p) for g in figs]):.2f}"
                for p in (50, 99)
            )

        def seq(k: KindFigures, p: float) -> float:
            return percentile_of(k.sequential.answer_ms, p)

        def bur(k: KindFigures, p: float) -> float:
            return percentile_of(k.burst.answer_ms, p)

        cells = [
            f"{median([seq_cpu(g.ours) for g in figs]):.2f}",
            both(seq_cpu),
            f"{median([g.ours.cpu_ms for g in figs]):.2f}",
            both(lambda k: k.cpu_ms),
            f"{median([g.ours.requests_per_click() for g in figs]):.2f}",
            pair(seq, "floor"),
            pair(seq, "payload"),
            pair(bur, "floor"),
            pair(bur, "payload"),
            both(lambda k: k.throughput),
        ]
        say(f"| {game} | " + " | ".join(cells) + " |")


def percentile_of(values: Sequence[float], p: float) -> float:
    return percentile(values, p) if values else math.nan


def against(
    figs: Sequence[GameFigures],
    value: Callable[[KindFigures], float],
    goal: float | None,
    shown: bool = False,
) -> str:
    """The game's figure over the floor's and over the payload floor's, run by run: the
    median and range of each ratio (the goal judged against the durable floor); `shown`:
    each kind's own figure (ms) after them."""
    to_floor = [value(g.ours) / value(g.floor) for g in figs]
    to_payload = [value(g.ours) / value(g.payload) for g in figs]
    judged = f" (≤ {goal}: {verdict(to_floor, goal)})" if goal is not None else ""
    text = f" × floor {spread(to_floor)}{judged}, × payload floor {spread(to_payload)}"
    if shown:
        text += "; ms: " + ", ".join(
            f"{name} {spread([value(getattr(g, kind)) for g in figs])}"
            for name, kind in (("game", "ours"), ("floor", "floor"), ("payload floor", "payload"))
        )
    return text


async def run(args: argparse.Namespace) -> int:
    backends: list[Backend] = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    server: Any = None
    code = 0
    results: dict[Backend, list[RunFigures]] = {}
    with tempfile.TemporaryDirectory(prefix="tanzaku-loopback-") as name:
        folder = Path(name)
        try:
            for backend in backends:
                if backend == "postgresql" and server is None:
                    from tests.support.postgres import start_test_server

                    server = start_test_server(durable=True)
                    say(f"PostgreSQL server (durable) up in {server.start_seconds:.2f} s")
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


QUICK = {
    "tables": 60,
    "game_tables": 60,
    "duels": 60,
    "clicks": 30,
    "warmup": 5,
    "bursts": 3,
    "burst_warmup": 1,
    "ceiling_bursts": 2,
    "profile_bursts": 1,
    "runs": 1,
}
"""`--quick`: a run of about a minute, for development (figures too short to judge)."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="sqlite")
    parser.add_argument(
        "--games", default=",".join(GAMES), help=f"comma-separated, of {', '.join(GAMES)}"
    )
    parser.add_argument("--quick", action="store_true", help="small sizes, one run")
    parser.add_argument("--tables", type=int, default=300, help="coin-flip tables (and baselines)")
    parser.add_argument("--game-tables", type=int, default=150, help="tables per seeded game")
    parser.add_argument("--duels", type=int, default=120)
    parser.add_argument("--clicks", type=int, default=300, help="sequential clicks of each kind")
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--burst", type=int, default=50)
    parser.add_argument("--bursts", type=int, default=10)
    parser.add_argument("--burst-warmup", type=int, default=2)
    parser.add_argument("--ceiling-bursts", type=int, default=6)
    parser.add_argument("--profile-bursts", type=int, default=3)
    parser.add_argument(
        "--gap-ms",
        type=float,
        default=3.0,
        help="between sequential clicks: the bot silent towards Discord this long",
    )
    parser.add_argument("--burst-gap-ms", type=float, default=20.0)
    parser.add_argument("--quiet-ms", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--bot-timings", action="store_true")
    parser.add_argument("--keep-profiles", type=Path)
    parser.add_argument(
        "--garbage",
        action="store_true",
        help="one more burst of each game and of the floor, counting by type what each"
        " click leaves in reference cycles (gc.DEBUG_SAVEALL)",
    )
    parser.add_argument("--top", type=int, default=0)
    parser.add_argument("--metrics", action="store_true")
    args = parser.parse_args(argv)
    given = set(argv if argv is not None else sys.argv[1:])
    if args.quick:
        for name, value in QUICK.items():
            if not any(g.startswith("--" + name.replace("_", "-")) for g in given):
                setattr(args, name, value)
    args.games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = set(args.games) - set(GAMES)
    if unknown:
        parser.error(f"unknown games: {sorted(unknown)}")
    args.burst = min(args.burst, args.tables, args.game_tables, args.duels or args.burst)
    global TOP_FUNCTIONS
    TOP_FUNCTIONS = args.top
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(run(args))
    return 130


if __name__ == "__main__":
    sys.exit(main())
