"""Run by test_crash.py: hammer one database with table actions and economy moves until the
parent kills this process with SIGKILL.

    python -m tests.platform.crash_worker DB_PATH RUN_NUMBER

Writes "ready" on stdout once the database is open. Refusals (UserFacingError) are part of
the traffic; any other exception ends the process with a traceback, which the parent reports.

The second half of the module plays the real games with a kill at a chosen step (forked
by the test; see `real_game_process`).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import os
import random
import sys
import time
import traceback
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.economy import Economy
from bot.errors import UserFacingError
from bot.games.registry import GameRegistry, GameSpec
from bot.service import Actor, TableService, fair_dice
from bot.storage import SqliteDatabase, Transaction
from bot.storage import table_queries as tq
from tests.platform._helpers import (
    COINFLIP,
    START_TIME,
    FakeClock,
    Services,
    fingerprint,
    open_services,
)
from tests.support import coinflip
from tests.support.gifts import gifts_unheld

GUILDS = (1, 2)
USERS = (11, 12, 13, 14, 15)


class Worker:
    def __init__(self, services: Services, rng: random.Random) -> None:
        self.s = services
        self.rng = rng

    async def live_tables(self) -> list[tq.TableRow]:
        async with self.s.db.reading() as tx:
            rows = [await tq.table(tx, table_id) for table_id in await tq.live_table_ids(tx)]
        return [row for row in rows if row is not None]

    async def step(self) -> None:
        rng = self.rng
        self.s.clock.advance(rng.uniform(0, 120))
        guild, user, other = rng.choice(GUILDS), rng.choice(USERS), rng.choice(USERS)
        economy, service = self.s.economy, self.s.tables
        kind = rng.choices(["daily", "give", "grant", "open", "table"], weights=[1, 2, 1, 2, 10])[0]
        if kind == "daily":
            await economy.daily(guild, user)
        elif kind == "give":
            await economy.give(guild, user, other, rng.randint(1, 600))
        elif kind == "grant":
            await economy.grant(guild, user, rng.randint(1, 200), "crash test")
        elif kind == "open":
            rules = coinflip.Rules(stake=rng.randint(0, 300), rake=rng.randint(0, 10))
            await service.open(
                guild_id=guild,
                channel_id=guild * 100 + rng.randint(0, 2),
                game=COINFLIP,
                host_id=user,
                rules=rules,
            )
        else:
            tables = await self.live_tables()
            if tables:
                await self.table_action(rng.choice(tables), user)

    async def table_action(self, row: tq.TableRow, user: int) -> None:
        rng, service = self.rng, self.s.tables
        actions = ["join", "leave", "start", "call", "raise", "deadline", "cancel"]
        if row.status == "lobby":
            weights = [6, 1, 4, 1, 1, 0.5, 0.5]
        else:
            weights = [0.5, 0.5, 0.5, 6, 3, 2, 0.5]
        action = rng.choices(actions, weights=weights)[0]
        if action == "join":
            await service.join(row.id, Actor(user))
        elif action == "leave":
            await service.leave(row.id, Actor(user))
        elif action == "start":
            await service.start(row.id, Actor(row.host_id))
        elif action == "cancel":
            await service.cancel(row.id, Actor(row.host_id, rng.random() < 0.3))
        else:
            snapshot = await service.snapshot(row.id)
            state = snapshot.state
            if action == "deadline":
                deadline = snapshot.deadline
                if deadline is not None:
                    self.s.clock.now = max(self.s.clock.now, deadline.due_at + 1)
                    await service.fire_deadline(row.id, deadline.ply)
            elif state is not None and action == "call":
                side = rng.choice(["heads", "tails"])
                await service.act(row.id, Actor(state.seats[state.turn]), coinflip.Call(side=side))
            elif state is not None:
                amount = rng.randint(1, 1500)  # sometimes more than the wallet holds
                await service.act(
                    row.id, Actor(rng.choice(state.seats)), coinflip.Raise(amount=amount)
                )


async def main(path: Path, run: int) -> None:
    clock = FakeClock(START_TIME + run * 1_000_000)
    services = await open_services(path, clock=clock, dice_factory=fair_dice, house_float=1000)
    for guild in GUILDS:  # gifts of any coins, as before the hold on free coins
        await gifts_unheld(services.economy, guild)
    worker = Worker(services, random.Random(run))
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    while True:
        with contextlib.suppress(UserFacingError):
            await worker.step()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))


# -- the real games: one deterministic kill per run, at a chosen step ---------------------
#
# test_crash.py forks a process per run (`real_game_process`). Each run re-opens the
# database as a restarted bot would, carries the table on from where the last one died,
# plays `free_steps` steps, then one more "armed" step whose save freezes the process at a
# phase the parent chose, and the parent SIGKILLs it there:
#
# - "before-commit": the action's transaction is complete but not committed (the bot was
#   saving it): after the restart the database must be exactly as before the step;
# - "after-commit": the action is saved and nothing of it has been shown yet (the table
#   message is neither edited nor posted, the message id of a new table not stored): after
#   the restart the action must be there, whole.
#
# A click's later steps (answering, editing the message, DMs) write nothing the books
# depend on, so these two phases are every state the database can be left in between
# saving an action and posting its message. Steps are driven through the table service
# with each engine's own actions, chosen at random among those it accepts, so the driver
# keeps working while the games' rules change.

REAL_GUILD = 7
REAL_PLAYERS = (701, 702)
MODERATOR = 799
REAL_CHANNELS = {"hazard": 7001, "nihakyu": 7002, "strength_duel": 7003}
REAL_RULES: dict[str, dict[str, object]] = {
    "hazard": {},
    # Short games that still use the variants which move money mid-game.
    "nihakyu": {"starting_stamina": 40, "ante": 10, "kage_endurance": True, "shadow_step": True},
    "strength_duel": {"stake": 10, "max_rounds": 6},
}
PLAYER_FUNDS = 2_000
PHASES = ("before-commit", "after-commit")


def real_registry() -> GameRegistry:
    from bot.games import hazard, nihakyu, strength_duel

    registry = GameRegistry()
    for module, title in (
        (hazard, "Hazard"),
        (nihakyu, "Nihakyu"),
        (strength_duel, "Strength Duel"),
    ):
        registry.add(GameSpec(module.ENGINE, title))
    return registry


def _candidates(game: str) -> tuple[list[BaseModel], list[BaseModel]]:
    """(moves that carry the game on, side bets): each engine's actions, built by name so
    a renamed or reshaped action is skipped rather than breaking the driver."""
    module = importlib.import_module(f"bot.games.{game}")
    progress: list[tuple[str, dict[str, object]]]
    side: list[tuple[str, dict[str, object]]] = []
    if game == "hazard":
        progress = [("CallMain", {"main": m}) for m in (5, 6, 7, 8, 9)]
        progress += [("Ready", {}), ("Throw", {})]
        kinds = ("caster", "with", "against", "odds_for", "odds_against")
        side = [("Bet", {"kind": k, "amount": a}) for k in kinds for a in (5, 25)]
    elif game == "nihakyu":
        progress = [("Roll", {}), ("ShadowStep", {}), ("KageEndurance", {}), ("SkipSleight", {})]
        progress += [("Sleight", {"adjust": a}) for a in (-1, 1)]
    else:
        progress = [("Bid", {"amount": a}) for a in range(0, 9)]
        progress += [("Forbid", {"number": n}) for n in range(0, 9)]

    def build(specs: list[tuple[str, dict[str, object]]]) -> list[BaseModel]:
        built = []
        for name, fields in specs:
            model = getattr(module, name, None)
            if model is None:
                continue
            with contextlib.suppress(ValidationError):
                built.append(model(**fields))
        return built

    return build(progress), build(side)


class FreezingDatabase(SqliteDatabase):
    """The bot's database, which can stop the process dead at one commit.

    Armed with a phase, it freezes at the next commit; with `only_the_last` too, only at
    the commit that ends the game's table (the settlement, or a moderator's abort).
    `before` is what the database held before the step, sent to the parent on freezing
    with whether the step ends the table.
    """

    def __init__(self, path: Path, game: str, report: Callable[[tuple[Any, ...]], None]) -> None:
        super().__init__(path)
        self.game = game
        self.armed: str | None = None
        self.only_the_last = False
        self.before: dict[str, Any] = {}
        self._report = report

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        async with super().transaction() as tx:
            yield tx
            # The block is done and COMMIT comes next: the action is being saved.
            if self.armed == "before-commit":
                await self._maybe_freeze(tx)
        if self.armed == "after-commit":
            async with self.reading() as reader:
                await self._maybe_freeze(reader)

    async def _maybe_freeze(self, tx: Transaction) -> None:
        row = await tx.fetchone(
            "SELECT COUNT(*), SUM(status IN ('lobby', 'running')) FROM game_tables WHERE game = ?",
            (self.game,),
        )
        ends_table = row is not None and int(row[0]) > 0 and not row[1]
        if ends_table or not self.only_the_last:
            self._freeze(ends_table)

    def _freeze(self, ends_table: bool) -> None:
        self._report(("frozen", self.armed, self.before, ends_table))
        # Blocking on purpose: nothing else of this process may run before the SIGKILL.
        time.sleep(600)
        os._exit(3)


class GameDriver:
    """Plays one table of a real game through the table service, a step at a time."""

    def __init__(self, services: Services, game: str, rng: random.Random) -> None:
        self.s = services
        self.game = game
        self.rng = rng
        self.progress, self.side = _candidates(game)

    async def table(self) -> tq.TableRow | None:
        async with self.s.db.reading() as tx:
            row = await tx.fetchone(
                "SELECT id FROM game_tables WHERE game = ? ORDER BY id DESC LIMIT 1", (self.game,)
            )
            return None if row is None else await tq.table(tx, int(row[0]))

    async def step(self) -> bool:
        """Commit one step (open, join, start, a move or the deadline); False when the
        table has ended or nothing it accepts is left."""
        row = await self.table()
        service = self.s.tables
        if row is None:
            spec = self.s.registry.get(self.game)
            opened = await service.open(
                guild_id=REAL_GUILD,
                channel_id=REAL_CHANNELS[self.game],
                game=self.game,
                host_id=REAL_PLAYERS[0],
                rules=spec.engine.rules_model.model_validate(REAL_RULES[self.game]),
            )
            # Posting the table message, then storing its id: the bot's next step.
            await service.snapshot(opened.snapshot.id)
            await service.set_message(opened.snapshot.id, 900_000 + opened.snapshot.id)
            return True
        if row.status == "lobby":
            snapshot = await service.snapshot(row.id)
            waiting = [p for p in REAL_PLAYERS if p not in snapshot.seats]
            if waiting:
                await service.join(row.id, Actor(waiting[0]))
            else:
                await service.start(row.id, Actor(row.host_id))
            return True
        if row.status != "running":
            return False
        return await self.move(row.id)

    async def move(self, table_id: int) -> bool:
        snapshot = await self.s.tables.snapshot(table_id)
        seats = list(snapshot.seats)
        first, then = self.progress, self.side
        if self.rng.random() < 0.3:  # now and then the side bets come first
            first, then = then, first
        tries = [(p, a) for p in self.rng.sample(seats, len(seats)) for a in self.shuffled(first)]
        tries += [(p, a) for p in self.rng.sample(seats, len(seats)) for a in self.shuffled(then)]
        for player, action in tries:
            try:
                await self.s.tables.act(table_id, Actor(player), action)
            except UserFacingError:
                continue
            return True
        deadline = snapshot.deadline
        if deadline is None:
            return False
        self.s.clock.now = max(self.s.clock.now, deadline.due_at + 1)
        return await self.s.tables.fire_deadline(table_id, deadline.ply) is not None

    def shuffled(self, actions: list[BaseModel]) -> list[BaseModel]:
        return self.rng.sample(actions, len(actions))

    async def end_by_moderator(self) -> bool:
        """A moderator ends the table (the game's Abort settles it); False if none is live."""
        row = await self.table()
        if row is None or not row.live:
            return False
        await self.s.tables.cancel(row.id, Actor(MODERATOR, True))
        return True


async def fund_real_players(path: Path) -> None:
    """Before the first run: the guild, its house float and the players' coins, so every
    later commit of a run is a step of the game."""
    services = await open_services(path, registry=real_registry(), house_float=100_000)
    try:
        for player in REAL_PLAYERS:
            await services.economy.grant(REAL_GUILD, player, PLAYER_FUNDS, "crash test")
    finally:
        await services.db.close()


async def _play_real_game(
    path: Path,
    game: str,
    free_steps: int,
    phase: str | None,
    last: bool,
    seed: int,
    report: Callable[[tuple[Any, ...]], None],
) -> None:
    db = FreezingDatabase(path, game, report)
    await db.open()
    async with db.reading() as tx:
        row = await tx.fetchone("SELECT MAX(updated_at) FROM game_tables")
    latest = float(row[0]) if row is not None and row[0] is not None else START_TIME
    clock = FakeClock(max(START_TIME, latest) + 1)
    registry = real_registry()
    economy = Economy(db, house_float=100_000, clock=clock)
    service = TableService(
        db, economy, registry, clock=clock, dice_factory=fair_dice, lobby_timeout_seconds=900
    )
    driver = GameDriver(Services(db, economy, service, registry, clock), game, random.Random(seed))
    try:
        if last:
            # Every step armed, freezing only at the one that ends the table; a table still
            # live after `free_steps` steps is ended by a moderator.
            db.armed, db.only_the_last = phase, True
            for _ in range(free_steps):
                db.before = await fingerprint(db)
                if not await driver.step():
                    break
            db.before = await fingerprint(db)
            db.only_the_last = False
            await driver.end_by_moderator()
            report(("ended",))
            return
        # The free steps freeze only if one of them ends the table: that step is killed
        # too, whenever it comes.
        db.armed, db.only_the_last = phase, True
        for _ in range(free_steps):
            db.before = await fingerprint(db) if phase is not None else {}
            if not await driver.step():
                report(("ended",))
                return
        if phase is None:
            report(("done",))
            return
        db.before = await fingerprint(db)
        db.only_the_last = False
        if not await driver.step():
            report(("ended",))
    finally:
        await db.close()


def real_game_process(
    path: str,
    game: str,
    free_steps: int,
    phase: str | None,
    last: bool,
    seed: int,
    conn: Connection,
) -> None:
    """Entry point of a forked run; reports on `conn`, then waits for SIGKILL if frozen.

    `last`: freeze at the step that ends the table (playing up to `free_steps` steps,
    then a moderator's abort); otherwise play `free_steps` steps and freeze at the next."""
    try:
        asyncio.run(_play_real_game(Path(path), game, free_steps, phase, last, seed, conn.send))
    except BaseException:
        conn.send(("error", traceback.format_exc()))
        os._exit(1)
    os._exit(0)
