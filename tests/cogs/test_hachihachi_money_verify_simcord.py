"""A Hachi-hachi match ended because a wallet could not cover another round, played with
production fair dice: /verify re-derives every shuffle and replays the log, the table's
own "cannot cover" note included (issue 27)."""

from __future__ import annotations

from tests.cogs.test_hachihachi_money_simcord import first_moves_until
from tests.cogs.test_hachihachi_platform_simcord import embed_text, opened, simcord_bot
from tests.cogs.test_hachihachi_simcord import TABLE, Hands, snapshot
from tests.support.sim import answered, make_world

__all__ = ["simcord_bot"]  # production fair dice


async def test_verify_replays_a_match_ended_by_an_uncovered_round(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await opened(simcord_env, world, "alice", "bob", rounds=12, first_dealer="first_seat")
    for member in (alice, bob):
        asked = answered(await member.slash(world.channel, "selfexclude", days=7), ephemeral=True)
        answered(await member.click(asked.response, label="Exclude me for 7 days"))
    s = await first_moves_until(world, Hands(world), lambda s: s.finished or s.rounds_played)
    if not s.finished:  # a round where no coin changed hands needs no top-up
        s = await first_moves_until(world, Hands(world), lambda s: s.finished)
    assert s.finished and s.uncovered, "the loser was not staked again"
    assert (await snapshot(world)).row.escrow == 0
    report = embed_text(await alice.slash(world.channel, "verify", table=TABLE))
    assert "✅ Every roll matches the seed." in report, report
    assert "❌" not in report, report
