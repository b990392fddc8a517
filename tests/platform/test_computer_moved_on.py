"""A computer's decision the table moved past for real: the computer decides (outside the
table's transaction), and before its move lands the round's deadline lands first; the move
is refused as stale by the table itself (not by a test double), nothing of it is kept, and
the computer decides again at the new position and plays that.

Strength Duel against the computer (the bot challenged): the computer's bid is decided as
the round opens. A member's secret bid does not move the table's ply (nothing visible
changes before the reveal), so it is the deadline, revealing the round with the missing
bids at their lowest, that moves the table on while the computer's bid is on its way. From
the moment it decided, nothing kicks the computer (as with a deadline fired by another
process): only the refused move itself may make it decide again."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bot.games import strength_duel as sd
from bot.games.common import COMPUTER_IDS
from tests.support.sim import answered, make_world, the_bot, wallet

COMPUTER = COMPUTER_IDS[0]
ROUND_SECONDS = 60


async def test_a_deadline_landing_first_makes_the_computer_decide_again(
    simcord_env, dice, monkeypatch
):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    answered(await alice.slash(world.channel, "wallet"))
    service = simcord_env.bot.tables
    computers = service.computers
    real_act = computers._act
    tried: list[tuple[int, int]] = []  # (ply decided at, ply of the table as it lands)
    decided, go = asyncio.Event(), asyncio.Event()

    async def held_first(table_id: int, seat: int, action: Any, ply: int, draws: Any) -> Any:
        tried.append((ply, int((await service.snapshot(table_id)).state.ply)))
        if len(tried) == 1:
            assert seat == COMPUTER and isinstance(action, sd.Bid)
            monkeypatch.setattr(computers, "kick", lambda snapshot: None)
            decided.set()
            await simcord_env.external_wait(go.wait(), reason="the deadline lands first")
        return await real_act(table_id, seat, action, ply, draws)

    monkeypatch.setattr(computers, "_act", held_first)
    dice.extend([1] * 60)  # the computer's samples: each the lowest bid of its mix
    challenge = {"member": the_bot(world), "stake": 10, "round_seconds": ROUND_SECONDS}
    answered(await alice.slash(world.channel, "duel challenge", **challenge), ephemeral=False)
    await decided.wait()
    assert (await service.snapshot(1)).state.bids == {}, "its bid has not landed"
    await simcord_env.advance_time(ROUND_SECONDS + 1)  # nobody bid: the deadline reveals
    moved = (await service.snapshot(1)).state
    assert moved.round == 2 and moved.ply == tried[0][0] + 1
    go.set()
    await computers.idle()

    assert len(tried) == 2, "the computer decided again after its stale move, once"
    first, again = tried
    assert first[0] == first[1], "the first decision was made at the table's position"
    assert again == (first[0] + 1, first[0] + 1), "decided again, at the new position"
    state = (await service.snapshot(1)).state
    assert state.round == 2 and set(state.bids) == {COMPUTER}, "its round-2 bid is in"
    # The stale bid left nothing: round 1 was the deadline's, at the lowest bids for both.
    assert state.history[0].bids == {alice.id: 0, COMPUTER: 0}
    _snapshot, rows = await service.history(1, world.guild.id)
    kinds = [(row.actor_id, json.loads(row.action_json)["kind"]) for row in rows]
    assert kinds[-2:] == [(None, "deadline"), (COMPUTER, "bid")]
    assert await wallet(world, alice) == 990, "alice's stake, and nothing else, is at stake"
    totals = await simcord_env.bot.economy.totals(world.guild.id)
    assert totals.wallets + totals.escrow + totals.house == totals.minted
