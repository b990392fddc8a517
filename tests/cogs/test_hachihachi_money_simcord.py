"""Nuki Hachi-hachi's money through Discord (issue 27): the default table opened and
started by members with a first wallet, an escrow of one round put back after each
round, a member whose wallet cannot cover another round settled from what is held, and
the sage-or-shoubu choice with both outcomes in coins (and no sage on an empty hand)."""

from __future__ import annotations

from typing import Any

from bot.games import hachihachi as hh
from bot.games.hachihachi import models as hm
from bot.games.hachihachi.calls import call_stakes
from tests.cogs.test_hachihachi_simcord import (
    START,
    Hands,
    do,
    labels,
    message_text,
    money_is_whole,
    shuffles,
    simcord_bot,
    snapshot,
    started,
    state,
    table_message,
    wallet,
)
from tests.support.gifts import world_gifts_unheld
from tests.support.sim import answered, make_world

__all__ = ["simcord_bot"]  # the fixture with the scripted shuffles

# Found by playing each deal with the first legal action: Bob (second seat) forms a
# dekiyaku with cards still in hand, or on his last turn (his hand empty). Both on a Large
# Field (×2).
BOB_CALLS_EARLY = [
    15, 9, 6, 20, 1, 19, 23, 24, 30, 18, 0, 21, 33, 3, 16, 32, 2, 26, 7, 29, 11, 25, 22, 27,
    28, 13, 4, 8, 17, 12, 14, 10, 5, 31,
]  # fmt: skip
BOB_CALLS_LAST = [
    11, 13, 9, 18, 29, 4, 32, 10, 0, 5, 30, 2, 7, 19, 16, 6, 1, 33, 15, 31, 26, 22, 23, 12,
    17, 25, 21, 24, 27, 28, 14, 3, 8, 20,
]  # fmt: skip


async def first_moves_until(world: Any, hands: Hands, done: Any) -> hm.State:
    """Every decision the first legal action, through the decider's hand, until ``done``."""
    by_id = {m.id: m for m in world.members.values()}
    for _ in range(200):
        s = await state(world)
        if done(s):
            return s
        assert s.turn is not None and not s.finished
        await do(world, hands, by_id[s.turn], hh.legal_actions(s, s.turn)[0])
    raise AssertionError("never reached")


async def test_a_new_member_opens_and_starts_the_default_match(simcord_env):
    """`/hanafuda open` at 1 a kan, 12 rounds, from two first wallets of 1,000: each seat
    holds one round's worst case (127), not 12 rounds' (1,524)."""
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    assert await wallet(world, alice) == START
    opened = answered(
        await alice.slash(
            world.channel, "hanafuda open", stake_per_kan=1, first_dealer="first_seat"
        )
    )
    lobby = message_text(opened.response.message)
    assert "12 rounds" in lobby and "127" in lobby and "one round" in lobby
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    snap = await snapshot(world)
    assert snap.row.status == "running" and snap.state.rules.rounds == 12
    assert snap.hold == 127 and snap.row.escrow == 2 * 127
    for member in (alice, bob):
        assert await wallet(world, member) == START - 127
    await money_is_whole(world)


async def test_a_scored_rounds_loss_is_put_back_and_the_escrow_stays_one_round(simcord_env):
    world = await started(simcord_env, "alice", "bob", rounds=12)
    alice, bob = world["alice"], world["bob"]
    hands = Hands(world)
    s = await first_moves_until(world, hands, lambda s: s.rounds_played == 1)
    assert not s.finished and s.round == 2
    assert any(s.payouts[p] for p in (alice.id, bob.id)), "the deal moves coins"
    snap = await snapshot(world)
    assert snap.row.escrow == 2 * 127 and s.stakes == {alice.id: 127, bob.id: 127}
    for member in (alice, bob):
        # The loser's loss came out of their escrow and was put back from the wallet.
        assert await wallet(world, member) == START - 127 + s.payouts[member.id]
    await money_is_whole(world)


async def test_a_wallet_that_cannot_cover_the_next_round_ends_the_match_fairly(simcord_env):
    """Both give away all their wallet holds beyond the escrow: whoever loses round 1
    cannot put the loss back, so the round is paid from the escrow and the match ends."""
    world = await make_world(simcord_env, "alice", "bob", "carol")
    await world_gifts_unheld(world)
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    opened = answered(
        await alice.slash(
            world.channel, "hanafuda open", stake_per_kan=5, first_dealer="first_seat"
        )
    )
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    hold = (await snapshot(world)).hold
    assert hold == 631
    answered(await carol.slash(world.channel, "wallet"))  # a wallet to receive gifts
    for member in (alice, bob):
        answered(await member.slash(world.channel, "give", member=carol, amount=START - hold))
        assert await wallet(world, member) == 0
    hands = Hands(world)
    s = await first_moves_until(world, hands, lambda s: s.finished or s.rounds_played)
    assert s.finished and s.rounds_played == 1 and s.stakes == {alice.id: 0, bob.id: 0}
    assert s.uncovered and min(s.payouts[alice.id], s.payouts[bob.id]) < 0
    for member in (alice, bob):
        assert await wallet(world, member) == hold + s.payouts[member.id] >= 0
    assert (await snapshot(world)).row.escrow == 0
    text = message_text(await table_message(world))
    assert "could not cover another round" in text or "cannot put back" in text
    await money_is_whole(world)


@shuffles([BOB_CALLS_EARLY])
async def test_the_caller_sees_both_outcomes_in_coins(simcord_env):
    world = await started(simcord_env, "alice", "bob", rounds=12, stake_per_kan=3)
    bob = world["bob"]
    hands = Hands(world)
    s = await first_moves_until(world, hands, lambda s: s.phase == "call")
    assert s.turn == bob.id and s.hands[bob.id] and s.multiplier == 2
    stakes = call_stakes(s, bob.id)
    assert stakes is not None
    shown = await hands.fresh(bob)
    text = message_text(shown)
    coins = stakes.kan * 2 * 3
    currency = (await snapshot(world)).currency
    assert f"pays you **{coins:,} {currency}**" in text, text
    assert f"{stakes.kan} kan × 2 (field)" in text
    assert "**Sage**" in text and "pay **nothing**" in text
    assert f"cancel for half ({coins // 2:,}" in text
    assert "Sage — play on" in labels(shown) and "Shoubu — end the round" in labels(shown)
    await do(world, hands, bob, hm.Shoubu())
    after = await state(world)
    assert after.last_round is not None and after.last_round.ended_by == "shoubu"


@shuffles([BOB_CALLS_LAST])
async def test_on_an_empty_hand_only_shoubu_is_offered_and_sage_explained(simcord_env):
    world = await started(simcord_env, "alice", "bob", rounds=12)
    bob = world["bob"]
    hands = Hands(world)
    s = await first_moves_until(world, hands, lambda s: s.phase == "call")
    assert s.turn == bob.id and not s.hands[bob.id]
    shown = await hands.fresh(bob)
    text = message_text(shown)
    assert "Sage is not offered" in text and "your hand is empty" in text
    assert "Sage — play on" not in labels(shown) and "Shoubu — end the round" in labels(shown)
    await do(world, hands, bob, hm.Shoubu())
    assert (await state(world)).last_round.ended_by == "shoubu"  # type: ignore[union-attr]


async def test_a_self_excluded_member_is_not_staked_again_the_match_ends_instead(simcord_env):
    """Putting a round's loss back into escrow is a stake: a member who excluded themself
    mid-match is not charged it; the round is paid from the escrow and the match ends."""
    world = await started(simcord_env, "alice", "bob", rounds=12)
    alice, bob = world["alice"], world["bob"]
    for member in (alice, bob):
        asked = answered(await member.slash(world.channel, "selfexclude", days=7), ephemeral=True)
        answered(await member.click(asked.response, label="Exclude me for 7 days"))
    hands = Hands(world)
    s = await first_moves_until(world, hands, lambda s: s.finished or s.rounds_played)
    assert s.finished and s.rounds_played == 1 and s.uncovered
    loser = next(p for p in (alice.id, bob.id) if s.payouts[p] < 0)
    assert s.uncovered == [loser]
    for member in (alice, bob):
        assert await wallet(world, member) == START + s.payouts[member.id]
    await money_is_whole(world)
