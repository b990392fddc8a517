"""Run by test_crash.py: hammer one database with table actions and economy moves until the
parent kills this process with SIGKILL.

    python -m tests.platform.crash_worker DB_PATH RUN_NUMBER

Writes "ready" on stdout once the database is open. Refusals (UserFacingError) are part of
the traffic; any other exception ends the process with a traceback, which the parent reports.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
from pathlib import Path

from bot.errors import UserFacingError
from bot.storage import tables as tq
from bot.tables import fair_dice
from tests.platform._helpers import COINFLIP, START_TIME, FakeClock, Services, open_services
from tests.support import coinflip

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
            await service.join(row.id, user)
        elif action == "leave":
            await service.leave(row.id, user)
        elif action == "start":
            await service.start(row.id, row.host_id)
        elif action == "cancel":
            await service.cancel(row.id, row.host_id, moderator=rng.random() < 0.3)
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
                await service.act(row.id, state.seats[state.turn], coinflip.Call(side=side))
            elif state is not None:
                amount = rng.randint(1, 1500)  # sometimes more than the wallet holds
                await service.act(row.id, rng.choice(state.seats), coinflip.Raise(amount=amount))


async def main(path: Path, run: int) -> None:
    clock = FakeClock(START_TIME + run * 1_000_000)
    services = await open_services(path, clock=clock, dice_factory=fair_dice, house_float=1000)
    worker = Worker(services, random.Random(run))
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    while True:
        with contextlib.suppress(UserFacingError):
            await worker.step()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))
