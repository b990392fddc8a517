"""Every database commit is told to the metrics with the units of work it held, on both
backends; a transaction rolled back is no commit."""

from __future__ import annotations

import asyncio

import pytest

from bot.meter import Meter
from bot.storage import database_for_url
from bot.storage import table_queries as tq


class Recorder(Meter):
    def __init__(self) -> None:
        self.commits: list[tuple[str, int]] = []

    def committed(self, backend: str, seconds: float, units: int) -> None:
        assert seconds >= 0
        self.commits.append((backend, units))


async def test_every_commit_is_metered_with_its_units(database_url: str) -> None:
    db = database_for_url(database_url)
    recorder = Recorder()
    db.meter = recorder
    await db.open()
    try:
        recorder.commits.clear()  # the migrations' own

        async def write(guild: int, *, fail: bool = False) -> None:
            async with db.transaction() as tx:
                await tq.set_guild_config(tx, guild, "test", "1")
                if fail:
                    raise LookupError("refused")

        await asyncio.gather(*(write(guild) for guild in range(1, 9)))
        with pytest.raises(LookupError):
            await write(99, fail=True)
        assert {backend for backend, _units in recorder.commits} == {db.dialect}
        assert sum(units for _backend, units in recorder.commits) == 8, "each unit once"
        if db.dialect == "sqlite":
            # Group commit: the database's own count of commits, each observed.
            assert len(recorder.commits) == db.commits  # type: ignore[attr-defined]
            assert len(recorder.commits) < 8, "units queued together shared a commit"
        else:
            assert recorder.commits == [("postgresql", 1)] * 8
    finally:
        await db.close()
