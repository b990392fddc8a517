"""Turn notices through Discord, on each real game: a member the table has waited on for
their wait (/notify wait, 25 s by default) without a click of theirs gets one new message
that mentions them (or a DM, /notify dm), with the way to act; members who act within the
wait are never pinged, a computer seat never is, nobody with /notify off, and the notice is
deleted once they act. A member's challenge pings another once in a while, never with
their notices off."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.games import hachihachi as hh
from bot.games.dice import ScriptedDice
from bot.service import Actor
from cogs._ui.notify import DEFAULT_WAIT_SECONDS, PAIR_PING_SECONDS
from tests.cogs.test_hachihachi_simcord import (
    ALICE_HAND,
    BOB_HAND,
    DRAW,
    FIELD,
    Hands,
    deal,
    do,
)
from tests.cogs.test_hachihachi_simcord import started as hachihachi_started
from tests.cogs.test_hachihachi_simcord import state as hachihachi_state
from tests.support.sim import answered, close_dms, labels, make_world, pinged, select_id, the_bot

BELL = "🔔"
WAIT = DEFAULT_WAIT_SECONDS


async def away(world: Any, seconds: float = WAIT + 1) -> None:
    """Nobody clicks for ``seconds`` (the virtual clock: every timer due meanwhile fires)."""
    await world.env.advance_time(seconds)


@pytest.fixture
def dice() -> ScriptedDice:
    return ScriptedDice(orders=[deal(ALICE_HAND, BOB_HAND, FIELD, DRAW)])


@pytest.fixture
def simcord_bot(bot_factory: Any, dice: ScriptedDice) -> Any:
    return bot_factory(dice_factory=lambda row: dice, settings={"turn_notices": True})


def pings(world: Any) -> dict[int, list[Any]]:
    """The turn notices in the table's channel, by the member each pings: Discord notifies
    the member it names, and nobody else."""
    found: dict[int, list[Any]] = {}
    for message in world.channel.history():
        if message.content.startswith(BELL):
            assert len(message.raw_mentions) == 1, message.content
            assert pinged(world.env, message) == message.raw_mentions, "names and pings one"
            found.setdefault(message.raw_mentions[0], []).append(message)
    return found


def dm_pings(member: Any) -> list[Any]:
    return [m for m in member.user.dm_channel.history() if m.content.startswith(BELL)]


async def table_message(world: Any, table: int = 1) -> Any:
    message_id = (await world.env.bot.tables.snapshot(table)).row.message_id
    for message in world.channel.history():
        if message.id == message_id:
            return message
    raise AssertionError("no table message")


async def click(world: Any, member: Any, label: str) -> Any:
    return answered(await member.click(await table_message(world), label=label))


# -- Nuki Hachi-hachi ---------------------------------------------------------------------


async def alice_plays_her_turn(world: Any, hands: Hands, alice: Any) -> hh.State:
    """Alice makes her moves (the first legal each time) until the table waits on
    someone else; the state it then waits in."""
    s = await hachihachi_state(world)
    while s.turn == alice.id:
        await do(world, hands, alice, hh.legal_actions(s, s.turn)[0])
        s = await hachihachi_state(world)
    return s


async def test_two_attentive_hachihachi_players_are_never_pinged(simcord_env):
    """Each moves within the wait (a few seconds a move): no notice is ever posted."""
    world = await hachihachi_started(simcord_env, "alice", "bob")
    by_id = {m.id: m for m in world.members.values()}
    hands = Hands(world)
    moves = 0
    for _ in range(16):
        s = await hachihachi_state(world)
        if s.finished or s.turn is None:
            break
        await away(world, WAIT - 5)
        await do(world, hands, by_id[s.turn], hh.legal_actions(s, s.turn)[0])
        moves += 1
        assert pings(world) == {}, "a member who moves within the wait is never pinged"
    assert moves >= 8
    assert world.env.bot.table_hub.notifier.sent == 0


async def test_a_hachihachi_player_away_is_pinged_once_with_their_hand(simcord_env):
    world = await hachihachi_started(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    hands = Hands(world)
    s = await alice_plays_her_turn(world, hands, alice)
    assert s.turn == bob.id
    await away(world, WAIT - 1)
    assert pings(world) == {}, "not before bob has been waited on for his wait"
    await away(world, 2)
    [notice] = pings(world)[bob.id]
    assert list(pings(world)) == [bob.id] and "Nuki Hachi-hachi" in notice.content
    assert labels(notice) == ["My hand"], "the notice carries the way to act"
    await away(world, 600)
    assert [m.id for m in pings(world)[bob.id]] == [notice.id], "once a turn"
    # Bob opens his hand from the notice itself and plays from it: the notice goes.
    shown = answered(await bob.click(notice, label="My hand"))
    assert shown.ephemeral and "Nuki Hachi-hachi" not in shown.response.content
    assert pings(world) == {}, "he is at the table now"
    hands.ids[bob.id] = shown.response.message.id
    await do(world, hands, bob, hh.legal_actions(s, s.turn)[0])
    after = await hachihachi_state(world)
    assert pings(world) == {}
    if after.turn == alice.id:
        await away(world)
        assert list(pings(world)) == [alice.id], "alice, away in turn, is told in turn"


async def test_a_click_at_the_table_starts_the_members_wait_again(simcord_env):
    """Bob looks at his hand (no move) before his wait is over: he is there, so he is
    told only once a whole wait has passed since that click."""
    world = await hachihachi_started(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    hands = Hands(world)
    await alice_plays_her_turn(world, hands, alice)
    await away(world, WAIT - 5)
    await hands.open(bob)
    await away(world, WAIT - 5)
    assert pings(world) == {}, "bob clicked at this table a moment ago"
    await away(world, 6)
    assert list(pings(world)) == [bob.id]


async def test_hachihachi_off_and_dm_are_each_members_own(simcord_env):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob = world["alice"], world["bob"]
    said = answered(await bob.slash(world.channel, "notify", mode="dm"), ephemeral=True)
    assert "direct message" in said.response.content
    answered(await alice.slash(world.channel, "notify", mode="off"), ephemeral=True)
    shown = answered(await bob.slash(world.channel, "notify"), ephemeral=True)
    assert "direct message" in shown.response.content
    opened = answered(
        await alice.slash(
            world.channel, "hanafuda open", stake_per_kan=1, first_dealer="first_seat",
            turn_seconds=3600, rounds=2,
        )
    )  # fmt: skip
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    hands = Hands(world)
    by_id = {alice.id: alice, bob.id: bob}
    bob_turns = 0
    for _ in range(8):
        s = await hachihachi_state(world)
        if s.finished or s.turn is None:
            break
        actor = by_id[s.turn]
        await do(world, hands, actor, hh.legal_actions(s, s.turn)[0])
        after = await hachihachi_state(world)
        await away(world)
        assert pings(world) == {}, "alice is off, bob is told by DM"
        assert dm_pings(alice) == []
        if after.turn == bob.id and actor is not bob:
            [dm] = dm_pings(bob)
            assert "Nuki Hachi-hachi" in dm.content and labels(dm) == ["My hand"]
            bob_turns += 1
        else:
            assert dm_pings(bob) == [], "the DM goes once bob has acted"
    assert bob_turns >= 2


async def test_the_computer_is_never_told_nor_do_its_moves_ping_the_member(simcord_env, dice):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    dice.extend([1] * 60)  # the computer's samples: each the lowest bid of its mix
    me = the_bot(world)
    answered(await alice.slash(world.channel, "duel challenge", member=me, stake=10))
    engine = world.env.bot.tables.registry.get("strength_duel").engine
    rounds = 0
    while not (current := await duel_state(world)).finished and rounds < 3:
        # The computer bid as the round opened: the table waits for alice alone, who is
        # playing (her own last bid or challenge), so nothing pings her.
        assert engine.waiting_on(current) == [alice.id]
        await away(world, WAIT - 5)
        assert pings(world) == {} and dm_pings(alice) == []
        await bid_by_dm(alice, 1)
        rounds += 1
    assert rounds == 3


async def duel_state(world: Any) -> Any:
    return (await world.env.bot.tables.snapshot(1)).state


async def bid_by_dm(member: Any, amount: int) -> Any:
    panel = next(
        m for m in reversed(list(member.user.dm_channel.history())) if "Pick your bid" in m.content
    )
    return answered(await member.user.click(panel, label=str(amount)))


# -- Strength Duel --------------------------------------------------------------------------


async def test_a_duel_bidder_away_is_told_a_wait_after_the_other_has_bid(simcord_env):
    """The table waits for one bidder once the other has bid (its ✅ / ⏳ marks show it):
    his wait starts there, so a notice tells nothing the table does not."""
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(
        await alice.slash(world.channel, "duel challenge", member=bob, stake=10)
    ).response.message
    answered(await bob.click(table, label="Accept"))
    for _ in range(2):
        await away(world)
        assert pings(world) == {}, "nobody is late while both are choosing"
        await bid_by_dm(alice, 1)
        await away(world, WAIT - 1)
        assert pings(world) == {}, "bob is not late yet"
        await away(world, 2)
        [ping] = pings(world)[bob.id]
        assert list(pings(world)) == [bob.id] and "Strength Duel" in ping.content
        assert labels(ping) == ["Bid privately"], "the notice opens the bid panel"
        await bid_by_dm(alice, 2)  # alice changes her bid: bob is not told again
        await away(world)
        assert [m.id for m in pings(world)[bob.id]] == [ping.id]
        await bid_by_dm(bob, 1)
        assert pings(world) == {}, "deleted once bob has bid"
    # Next round bob bids first: alice is the one told, whatever bob did last round.
    await bid_by_dm(bob, 1)
    await away(world)
    assert list(pings(world)) == [alice.id]


async def test_the_bid_panel_button_on_a_notice_opens_the_panel(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(
        await alice.slash(world.channel, "duel challenge", member=bob, stake=10)
    ).response.message
    answered(await bob.click(table, label="Accept"))
    await bid_by_dm(alice, 1)
    await away(world)
    [ping] = pings(world)[bob.id]
    shown = answered(await bob.click(ping, label="Bid privately"), ephemeral=True)
    assert "Pick your bid" in shown.response.content
    assert pings(world) == {}, "he is at the table now"


# -- Hazard and Fortunes and Winds: the caster, the shooter ----------------------------------


@pytest.mark.parametrize(
    ("command", "title"), [("hazard open", "Hazard"), ("fortunes open", "Fortunes and Winds")]
)
async def test_the_caster_or_shooter_is_told_once_when_the_dice_come_to_them(
    simcord_env, command, title
):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    opened = answered(await alice.slash(world.channel, command))
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await carol.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    assert pings(world) == {}, "alice casts first and started the table herself"
    await click(world, alice, "Pass the dice")
    assert pings(world) == {}, "bob has not been waited on for his wait yet"
    await away(world)
    [ping] = pings(world)[bob.id]
    assert list(pings(world)) == [bob.id] and title in ping.content
    assert "Pass the dice" in labels(ping), "the notice carries the table's controls"
    answered(await carol.slash(world.channel, "notify", mode="off"))
    await click(world, bob, "Pass the dice")
    await away(world)
    assert pings(world) == {}, "bob's notice goes as he acts; carol switched hers off"
    answered(await carol.slash(world.channel, "notify", mode="on"))
    await click(world, carol, "Pass the dice")
    await away(world)
    assert list(pings(world)) == [alice.id]
    await click(world, alice, "Pass the dice")
    await away(world)
    assert list(pings(world)) == [bob.id] and pings(world)[bob.id][0].id != ping.id


# -- Nihakyu ---------------------------------------------------------------------------------


async def test_a_nihakyu_round_tells_only_those_still_to_choose(simcord_env, dice):
    dice.extend([3] * 30)
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    answered(await carol.slash(world.channel, "notify", mode="dm"))
    opened = answered(await alice.slash(world.channel, "nihakyu open", ante=10))
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await carol.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    assert pings(world) == {} and dm_pings(carol) == []
    await click(world, alice, "Roll")
    assert pings(world) == {} and dm_pings(carol) == [], "nobody is late yet"
    await away(world)
    assert list(pings(world)) == [bob.id], "carol asked for a DM"
    [dm] = dm_pings(carol)
    assert "Nihakyu" in dm.content
    # The table shows who has chosen, so naming who has not tells nothing more.
    seats = "\n".join(f.value for f in (await table_message(world)).embeds[0].fields)
    assert "⏳" in seats and "✅" in seats
    await click(world, bob, "Roll")
    assert pings(world) == {} and len(dm_pings(carol)) == 1
    await click(world, carol, "Roll")
    assert pings(world) == {} and dm_pings(carol) == []


# -- the /notify command ------------------------------------------------------------------


async def test_notify_answers_privately_and_keeps_a_setting_per_server(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    first = answered(await alice.slash(world.channel, "notify"), ephemeral=True)
    assert "mentions you" in first.response.content and "25 seconds" in first.response.content
    answered(await alice.slash(world.channel, "notify", mode="off"), ephemeral=True)
    assert await world.env.bot.tables.notify_mode(world.guild.id, alice.id) == "off"
    assert await world.env.bot.tables.notify_mode(world.guild.id + 1, alice.id) is None
    again = answered(await alice.slash(world.channel, "notify"), ephemeral=True)
    assert "nothing" in again.response.content


async def test_notify_wait_sets_how_long_a_table_waits_before_the_member_is_told(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    bob = world["bob"]
    said = answered(await bob.slash(world.channel, "notify", wait=90), ephemeral=True)
    assert (
        "1 minute 30 seconds" in said.response.content and "mentions you" in said.response.content
    )
    await hazard_passed_to_bob(world, away_for=0)
    await away(world, 89)
    assert pings(world) == {}
    await away(world, 2)
    assert list(pings(world)) == [bob.id]


async def test_a_deadline_that_plays_for_a_member_takes_their_notice_back(simcord_env):
    world = await hachihachi_started(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    hands = Hands(world)
    s = await alice_plays_her_turn(world, hands, alice)
    await away(world)
    assert s.turn == bob.id and list(pings(world)) == [bob.id]
    await world.env.advance_time(3600)
    after = await hachihachi_state(world)
    assert after.ply > s.ply, "the deadline played for bob"
    shown = pings(world)
    assert bob.id not in shown
    if after.turn == alice.id:
        await away(world)
        assert list(pings(world)) == [alice.id], "alice, away since, is told her turn"


async def test_a_hazard_caster_is_not_told_again_when_the_betting_window_closes(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    opened = answered(await alice.slash(world.channel, "hazard open"))
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    message = await table_message(world)
    select = select_id(message, "main")
    answered(await alice.select(message, ["7"], custom_id=select))
    await click(world, bob, "Ready")  # the window closes: alice may throw
    await away(world, WAIT - 5)
    assert pings(world) == {}, "alice called the main herself a moment ago"


# -- who is pinged, and when a notice goes ---------------------------------------------------


async def hazard_passed_to_bob(world: Any, away_for: float = WAIT + 1) -> Any:
    """A Hazard table of alice and bob where alice has passed the dice to bob: the table
    now waits for bob, and he has not clicked since (for ``away_for`` seconds)."""
    alice, bob = world["alice"], world["bob"]
    opened = answered(await alice.slash(world.channel, "hazard open"))
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    await click(world, alice, "Pass the dice")
    if away_for:
        await away(world, away_for)
    snapshot = await world.env.bot.tables.snapshot(1)
    assert snapshot.spec.engine.waiting_on(snapshot.state) == [bob.id]
    return snapshot


async def test_a_notice_pings_the_member_it_names_and_nobody_else(simcord_env):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    answered(await carol.slash(world.channel, "wallet"))  # a bystander in the server
    await hazard_passed_to_bob(world)
    [notice] = [m for m in world.channel.history() if m.content.startswith(BELL)]
    assert pinged(simcord_env, notice) == [bob.id], "Discord notifies bob"
    assert alice.id not in pinged(simcord_env, notice) and carol.id not in pinged(
        simcord_env, notice
    )


async def test_a_members_own_click_takes_their_notice_back_while_the_table_waits_on_them(
    simcord_env,
):
    """Bob, told the dice are his, calls the main: the table still waits for him (he
    throws next), but he is plainly there, so the notice goes."""
    world = await make_world(simcord_env, "alice", "bob")
    bob = world["bob"]
    await hazard_passed_to_bob(world)
    [notice] = pings(world)[bob.id]
    message = await table_message(world)
    main = select_id(message, "main")
    answered(await bob.select(message, ["7"], custom_id=main))
    snapshot = await world.env.bot.tables.snapshot(1)
    assert snapshot.spec.engine.waiting_on(snapshot.state) == [bob.id], "still his move"
    assert notice.id not in [m.id for m in world.channel.history()], "his notice was deleted"
    assert pings(world) == {}


async def test_closed_dms_fall_back_to_a_mention_in_the_channel(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    bob = world["bob"]
    answered(await bob.slash(world.channel, "notify", mode="dm"), ephemeral=True)
    close_dms(simcord_env, bob)
    await hazard_passed_to_bob(world)
    assert dm_pings(bob) == []
    [notice] = pings(world)[bob.id]
    assert "Hazard" in notice.content and pinged(simcord_env, notice) == [bob.id]


async def test_a_notice_discord_refuses_is_one_warning_line(simcord_env, caplog):
    """Closed DMs, and a channel where the bot may no longer post: the move stands, and
    the log has one WARNING line for it, no traceback."""
    world = await make_world(simcord_env, "alice", "bob")
    bob = world["bob"]
    answered(await bob.slash(world.channel, "notify", mode="dm"), ephemeral=True)
    close_dms(simcord_env, bob)
    opened = answered(await world["alice"].slash(world.channel, "hazard open"))
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await world["alice"].click(opened.response.message, label="Start"))
    caplog.set_level(logging.DEBUG)
    simcord_env.inject_error(
        "POST", f"/channels/{world.channel.id}/messages", status=403, code=50013,
        message="Missing Permissions", times=None,
    )  # fmt: skip
    await click(world, world["alice"], "Pass the dice")
    await away(world)
    snapshot = await world.env.bot.tables.snapshot(1)
    assert snapshot.state.caster == bob.id, "the move stands"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert all(r.exc_info is None for r in caplog.records)
    assert [r for r in caplog.records if r.levelno == logging.WARNING and "403" in r.getMessage()]


# -- a member's pings to another: a challenge ------------------------------------------------


async def challenge_then_cancel(world: Any, member: Any, target: Any) -> tuple[list[int], str]:
    """``member`` challenges ``target`` to a duel and cancels it at once (a scripted
    client's loop); returns whom the challenge pinged, and what it said."""
    opened = answered(await member.slash(world.channel, "duel challenge", member=target, stake=10))
    message = opened.response.message
    said = (pinged(world.env, message), message.content)
    table = await world.env.bot.tables.live_table_in(world.channel.id, "strength_duel")
    answered(await member.slash(world.channel, "cancel", table=table))
    return said


async def test_a_challenge_and_cancel_loop_pings_the_member_once_in_a_while(simcord_env):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    shown = [await challenge_then_cancel(world, alice, bob) for _ in range(30)]
    assert [who for who, _ in shown] == [[bob.id]] + [[]] * 29
    assert all(text.startswith(f"<@{bob.id}>") for _, text in shown), "it still names him"
    assert "is not pinged again" in shown[1][1], "the message says why"
    # Another member's challenge is theirs: it pings bob once too.
    assert (await challenge_then_cancel(world, carol, bob))[0] == [bob.id]
    await away(world, PAIR_PING_SECONDS - 60)
    assert (await challenge_then_cancel(world, alice, bob))[0] == []
    await away(world, 61)
    assert (await challenge_then_cancel(world, alice, bob))[0] == [bob.id]


async def test_a_challenge_never_pings_a_member_with_notify_off(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    answered(await bob.slash(world.channel, "notify", mode="off"), ephemeral=True)
    opened = answered(await alice.slash(world.channel, "duel challenge", member=bob, stake=10))
    message = opened.response.message
    assert pinged(simcord_env, message) == []
    assert f"<@{bob.id}> is not pinged: they turned turn notices off" in message.content
    # The challenge stands: bob accepts it from the message.
    answered(await bob.click(message, label="Accept"))
    assert (await world.env.bot.tables.snapshot(1)).state is not None


# -- Hachi-hachi's teyaku claim steps ----------------------------------------------------------


async def test_nobody_is_told_during_a_teyaku_claim_step(bot_factory, simcord_env):
    """The dealer's first draw waits for claim steps the table keeps secret (who holds
    teyaku): however long it waits, no notice names anyone; after it, the turn's does."""
    from tests.cogs.test_hachihachi_claims_simcord import OPTIONS, TRIPLET_DEAL

    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    world.env.bot.tables.dice_factory = lambda row: ScriptedDice(orders=[TRIPLET_DEAL])
    options = {**OPTIONS, "turn_seconds": 600}
    opened = answered(await alice.slash(world.channel, "hanafuda open", **options))
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    hands = Hands(world)
    s = await hachihachi_state(world)
    assert s.claims_open and s.turn == alice.id
    await do(
        world,
        hands,
        alice,
        next(a for a in hh.legal_actions(s, alice.id) if isinstance(a, hh.Play)),
    )
    s = await hachihachi_state(world)
    assert s.phase == "claim", "the draw waits for the claim steps"
    for _ in range(5):
        await away(world, 100)
        assert pings(world) == {} and dm_pings(alice) == dm_pings(bob) == []
    assert (await hachihachi_state(world)).phase == "claim"
    await away(world, 200)  # the claim deadline: the draw happens, play goes on
    s = await hachihachi_state(world)
    assert s.phase != "claim" and s.turn is not None
    await away(world)
    assert list(pings(world)) == [s.turn]


# -- notices in the database: a restart ---------------------------------------------------------


async def restart(world: Any, bot_factory: Any, dice: ScriptedDice) -> None:
    await world.env.bot.close()
    await world.env.restart_bot(
        bot_factory(dice_factory=lambda row: dice, settings={"turn_notices": True})
    )


async def test_a_notice_posted_before_a_restart_is_deleted_after_it_and_not_posted_again(
    simcord_env, bot_factory, dice
):
    world = await make_world(simcord_env, "alice", "bob")
    bob = world["bob"]
    await hazard_passed_to_bob(world)
    [notice] = pings(world)[bob.id]
    await restart(world, bot_factory, dice)
    await away(world)
    assert [m.id for m in pings(world)[bob.id]] == [notice.id], "no second one for his turn"
    await click(world, bob, "Pass the dice")
    assert notice.id not in [m.id for m in world.channel.history()], "deleted after the restart"
    assert pings(world) == {}


async def test_a_wait_running_at_a_restart_still_ends_in_one_notice(simcord_env, bot_factory, dice):
    world = await make_world(simcord_env, "alice", "bob")
    bob = world["bob"]
    await hazard_passed_to_bob(world, away_for=WAIT - 10)
    assert pings(world) == {}
    await restart(world, bot_factory, dice)
    await away(world, 8)
    assert pings(world) == {}, "the wait kept its deadline across the restart"
    await away(world, 3)
    assert len(pings(world)[bob.id]) == 1
    await away(world)
    assert len(pings(world)[bob.id]) == 1


async def test_the_notice_of_a_table_ended_while_the_bot_was_down_goes_at_start(
    simcord_env, bot_factory, dice
):
    world = await make_world(simcord_env, "alice", "bob")
    bob = world["bob"]
    await hazard_passed_to_bob(world)
    [notice] = pings(world)[bob.id]
    bot = world.env.bot
    # The table ends while no process can tell Discord (the bot is down).
    await bot.tables.cancel(1, Actor(world.moderator.id, is_moderator=True))
    await restart(world, bot_factory, dice)
    await world.env.settle()
    assert notice.id not in [m.id for m in world.channel.history()]
