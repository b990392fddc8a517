"""Computer seats through Discord, on the coin-flip test game (its computer calls a side
with one die roll): the host adds and removes it, the house bank stakes for it and takes
its winnings, the table service plays it at once (no click), its draws are logged and
verified, a restart takes a turn that was waiting, and the last member out of a lobby
takes the computer's stake back to the house."""

from __future__ import annotations

import itertools
import json
from typing import Any

from bot.games.common import COMPUTER_IDS
from tests.support.computers import vary_computer
from tests.support.sim import (
    answered,
    button_of,
    labels,
    make_world,
    refusal,
    the_bot,
    wallet,
)

COMPUTER = COMPUTER_IDS[0]


async def house(world: Any) -> int:
    return (await world.env.bot.economy.settings(world.guild.id)).house_balance


async def log_of(world: Any, table: int = 1) -> list[Any]:
    _snapshot, rows = await world.env.bot.tables.history(table, world.guild.id)
    return rows


async def books_balance(world: Any) -> None:
    totals = await world.env.bot.economy.totals(world.guild.id)
    assert totals.wallets + totals.escrow + totals.house == totals.minted


async def lobby_with_computer(world: Any, stake: int = 10) -> Any:
    alice = world["alice"]
    opened = answered(await alice.slash(world.channel, "coinflip open", stake=stake))
    table = opened.response.message
    answered(await alice.click(table, label="Add computer"))
    return world.channel.last_message


async def test_the_host_adds_the_computer_and_the_house_stakes_it(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    answered(await alice.slash(world.channel, "wallet"))
    bank = await house(world)
    opened = answered(await alice.slash(world.channel, "coinflip open", stake=10))
    table = opened.response.message
    assert "Remove computer" not in labels(table)
    text = refusal(await bob.click(table, label="Add computer"))
    assert "Only the table's host" in text
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Add computer"))
    message = world.channel.last_message
    assert "🤖 Computer" in message.embeds[0].fields[0].value
    assert await house(world) == bank - 10, "the computer's stake came from the house"
    assert await wallet(world, alice) == 990 and await wallet(world, bob) == 990
    answered(await alice.click(message, label="Add computer"))
    assert "🤖 Computer 2" in world.channel.last_message.embeds[0].fields[0].value
    assert await house(world) == bank - 20
    await books_balance(world)

    # The host takes the last computer out again: its stake goes back to the house.
    answered(await alice.click(world.channel.last_message, label="Remove computer"))
    assert "Computer 2" not in world.channel.last_message.embeds[0].fields[0].value
    assert await house(world) == bank - 10
    assert "host" in refusal(await bob.click(world.channel.last_message, label="Remove computer"))
    await books_balance(world)


async def test_the_computer_plays_its_turn_and_the_house_takes_its_winnings(simcord_env, dice):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    answered(await alice.slash(world.channel, "wallet"))
    bank = await house(world)
    table = await lobby_with_computer(world)
    answered(await alice.click(table, label="Start"))
    # Alice calls heads, the coin lands tails; the computer calls at once (roll 1:
    # heads) and the coin lands heads: the computer takes the pot.
    dice.extend([2, 1, 1])
    answered(await alice.click(world.channel.last_message, label="Heads"))
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.finished and snapshot.state.winner == COMPUTER
    assert dice.remaining == 0, "the computer's decision took its draw from the table's dice"
    assert "Winner: 🤖 Computer" in world.channel.last_message.embeds[0].description
    assert await wallet(world, alice) == 990
    assert await house(world) == bank + 10
    await books_balance(world)
    calls = [(row.actor_id, json.loads(row.action_json)) for row in await log_of(world)]
    calls = [(actor, action) for actor, action in calls if action["kind"] == "call"]
    assert calls == [
        (alice.id, {"kind": "call", "side": "heads"}),
        (COMPUTER, {"kind": "call", "side": "heads", "decided_with": 1}),
    ], "the computer's call is logged under its seat, with the draw its decision took"


async def test_a_computer_that_reads_a_hidden_hand_moves_only_after_its_thinking_time(
    simcord_env, dice, monkeypatch
):
    """Where the computer's decision reads its hidden hand, how long it took must not show:
    it waits out the rest of the game's thinking time before its move lands, and only in
    such a game."""
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    computers = simcord_env.bot.tables.computers
    pauses: list[tuple[float, int]] = []

    async def pause(seconds: float) -> None:
        rows = await log_of(world, table=2)  # the only table that should pause
        calls = [r for r in rows if json.loads(r.action_json)["kind"] == "call"]
        pauses.append((seconds, len(calls)))

    monkeypatch.setattr(computers, "pause", pause)
    table = await lobby_with_computer(world)
    answered(await alice.click(table, label="Start"))
    dice.extend([2, 1, 1])
    answered(await alice.click(world.channel.last_message, label="Heads"))
    await computers.idle()
    assert pauses == [], "a game without a hidden hand adds no wait"

    vary_computer(monkeypatch, simcord_env.bot, "coinflip", thinking_seconds=5.0)
    # Deciding "takes" 0.25 s on a clock the test drives: the wait is then exactly the
    # rest, whatever the machine's load (a real clock made this a timed assertion).
    ticks = itertools.count(100.0, 0.25)  # each reading a quarter second later
    monkeypatch.setattr(computers, "clock", lambda: next(ticks))
    table = await lobby_with_computer(world)
    answered(await alice.click(table, label="Start"))
    dice.extend([2, 1, 1])
    answered(await alice.click(world.channel.last_message, label="Heads"))
    await computers.idle()
    ((seconds, moves_before),) = pauses
    assert seconds == 4.75, "the rest of its thinking time, after what deciding took"
    assert moves_before == 1, "it waited before its move was applied (alice's call only)"
    assert (await simcord_env.bot.tables.snapshot(2)).state.finished


async def test_a_computers_draws_are_verified_with_the_table(simcord_env, monkeypatch):
    # A fixed seed: alice's first call lands wrong; the computer's first decision draws
    # heads and its flip lands tails (a replay that did not take the decision's draw
    # again would flip heads for it, and reach another result).
    monkeypatch.setattr("bot.service.new_seed", lambda: bytes(range(1, 33)))
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    table = await lobby_with_computer(world)
    answered(await alice.click(table, label="Start"))
    for _ in range(40):  # fair dice: call until somebody wins
        snapshot = await simcord_env.bot.tables.snapshot(1)
        if snapshot.state.finished:
            break
        answered(await alice.click(world.channel.last_message, label="Heads"))
    assert snapshot.state.finished
    report = await simcord_env.bot.tables.verify(1, world.guild.id)
    assert report.matched, report.reason
    rows = await log_of(world)
    computer_calls = [row for row in rows if row.actor_id == COMPUTER and "call" in row.action_json]
    member_calls = [row for row in rows if row.actor_id == alice.id and "call" in row.action_json]
    assert len(computer_calls) == 2, "this seed has the computer call twice"
    for row in computer_calls:
        assert json.loads(row.action_json)["decided_with"] == 1
        assert len(json.loads(row.draws_json)) == 2, "its decision's draw, then the flip"
    # A member's call drew once (the flip); a computer's twice (its side, then the flip):
    # every one of them was re-derived from the seed, and the replay reached the result.
    assert report.draws_checked == len(member_calls) + 2 * len(computer_calls)
    assert report.actions_replayed >= len(member_calls) + len(computer_calls)


async def test_a_restart_takes_the_computers_waiting_turn(
    simcord_env, bot_factory, dice, monkeypatch
):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    table = await lobby_with_computer(world)
    answered(await alice.click(table, label="Start"))
    # The process stops before the computer moves (its kick is lost with it).
    bot = simcord_env.bot
    monkeypatch.setattr(bot.tables.computers, "kick", lambda snapshot: None)
    dice.extend([2])  # alice's call lands wrong: the computer's turn
    answered(await alice.click(world.channel.last_message, label="Heads"))
    waiting = await bot.tables.snapshot(1)
    assert waiting.state.seats[waiting.state.turn] == COMPUTER and not waiting.state.finished
    await bot.close()
    dice.extend([2, 2])  # the computer calls tails, and tails it is
    await simcord_env.restart_bot(bot_factory(dice_factory=lambda row: dice))
    await simcord_env.settle()
    after = await simcord_env.bot.tables.snapshot(1)
    assert after.state.finished and after.state.winner == COMPUTER
    assert "Winner: 🤖 Computer" in world.channel.last_message.embeds[0].description


async def test_the_last_member_out_of_a_lobby_closes_it_and_the_house_gets_its_stake(
    simcord_env, dice
):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    answered(await alice.slash(world.channel, "wallet"))
    bank = await house(world)
    table = await lobby_with_computer(world)
    assert await house(world) == bank - 10
    answered(await alice.click(table, label="Leave"))
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert not snapshot.row.live, "a computer does not keep a lobby open, nor host it"
    assert await house(world) == bank and await wallet(world, alice) == 1000
    await books_balance(world)


async def test_the_house_must_cover_the_computers_stake(simcord_env, dice):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    bank = await house(world)
    grant = dict(member=alice, amount=2 * bank, reason="a whale")
    answered(await world.moderator.slash(world.channel, "economy grant", **grant))
    opened = answered(await alice.slash(world.channel, "coinflip open", stake=bank + 1))
    text = refusal(await alice.click(opened.response.message, label="Add computer"))
    assert "house bank holds" in text and "Nothing changed" in text
    assert (await simcord_env.bot.tables.snapshot(1)).seats == [alice.id]
    assert button_of(world.channel.last_message, "Add computer") is not None


async def test_no_computer_at_a_house_banked_fortunes_table_with_the_guard_off(simcord_env):
    """Its stakes are the house's: with the server's guard off, members could farm the
    bank through it. Refused at Add computer (before: only at Start), and with the guard
    on or a player banker it sits."""
    world = await make_world(simcord_env, "alice")
    alice, mod = world["alice"], world.moderator
    rule = dict(game="fortunes_winds", option="house_guard", value="off")
    answered(await mod.slash(world.channel, "config rule", **rule))
    opened = answered(await alice.slash(world.channel, "fortunes open"))
    text = refusal(await alice.click(opened.response.message, label="Add computer"))
    assert "house guard is off" in text and "Nothing changed" in text
    assert (await simcord_env.bot.tables.snapshot(1)).seats == [alice.id]

    other = world.guild.create_text_channel("player-banked")
    banked = answered(await alice.slash(other, "fortunes open", banker="player"))
    answered(await alice.click(banked.response.message, label="Add computer"))
    assert len((await simcord_env.bot.tables.snapshot(2)).seats) == 2


async def test_a_refused_or_failing_decision_leaves_the_table_to_its_deadline(
    simcord_env, dice, monkeypatch, caplog
):
    from tests.support import coinflip

    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    table = await lobby_with_computer(world)
    answered(await alice.click(table, label="Start"))
    # A strategy that answers with an illegal raise: refused, logged without its words.
    vary_computer(
        monkeypatch,
        simcord_env.bot,
        "coinflip",
        decide=lambda state, seat, dice: coinflip.Raise(amount=-31337),
    )
    dice.extend([2])
    answered(await alice.click(world.channel.last_message, label="Heads"))
    waiting = await simcord_env.bot.tables.snapshot(1)
    assert waiting.state.seats[waiting.state.turn] == COMPUTER and not waiting.state.finished
    assert "the computer's Raise was refused (IllegalMove)" in caplog.text
    assert "31337" not in caplog.text, "a refusal's words may name a secret choice"

    # A strategy that fails outright: logged, nothing saved; the deadline plays for it.
    def broken(state, seat, dice):
        raise RuntimeError("no idea")

    vary_computer(monkeypatch, simcord_env.bot, "coinflip", decide=broken)
    simcord_env.bot.tables.computers.kick(waiting)
    await simcord_env.bot.tables.computers.idle()
    assert "a computer move failed" in caplog.text
    assert (await simcord_env.bot.tables.snapshot(1)).row.version == waiting.row.version
    dice.extend([1])  # the deadline calls heads for the computer, and heads it is
    await simcord_env.advance_time(31)
    assert (await simcord_env.bot.tables.snapshot(1)).state.winner == COMPUTER


async def test_a_decision_the_table_moved_past_is_made_again(simcord_env, dice, monkeypatch):
    from bot.errors import StaleAction

    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    table = await lobby_with_computer(world)
    answered(await alice.click(table, label="Start"))
    service = simcord_env.bot.tables
    real = service.act_as_computer
    tries: list[int] = []

    async def moved_once(*args):
        tries.append(args[3])
        if len(tries) == 1:
            raise StaleAction()
        return await real(*args)

    monkeypatch.setattr(service.computers, "_act", moved_once)
    dice.extend([2, 1, 2, 2, 2])  # alice wrong; the computer decides twice, then flips
    answered(await alice.click(world.channel.last_message, label="Heads"))
    await service.computers.idle()
    assert len(tries) == 2 and tries[0] == tries[1], "decided again at the same ply"
    assert (await service.snapshot(1)).state.winner == COMPUTER


async def test_a_member_hosts_at_most_three_tables_with_the_computer(simcord_env, dice):
    """Each game against the computer is the bot's work on every turn, all of it driven by
    one member: a member hosts at most 3 live tables with a computer seat (games and
    lobbies). The 4th, by a lobby's Add computer or a challenge to the bot, is refused
    privately and changes nothing."""
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    rooms = [world.guild.create_text_channel(f"room-{n}") for n in range(4)]
    for room in rooms[:2]:  # two games with the computer, running
        opened = answered(await alice.slash(room, "coinflip open", stake=10))
        answered(await alice.click(opened.response.message, label="Add computer"))
        answered(await alice.click(room.last_message, label="Start"))
    opened = answered(await alice.slash(rooms[2], "coinflip open", stake=10))
    answered(await alice.click(opened.response.message, label="Add computer"))
    opened = answered(await alice.slash(rooms[3], "coinflip open", stake=10))
    fourth = opened.response.message
    await simcord_env.bot.tables.computers.idle()
    tables = world.env.bot.tables
    before = (
        await wallet(world, alice),
        await house(world),
        [(t.id, t.status) for t in await tables.live_tables(world.guild.id)],
        [len(room.history()) for room in rooms],
        (await tables.snapshot(4)).seats,
    )

    text = refusal(await alice.click(fourth, label="Add computer"))
    assert "already host 3 tables with the computer (#1, #2, #3)" in text, text
    assert "at most 3 at once" in text
    assert "Nothing changed" in text
    duel = await alice.slash(rooms[3], "duel challenge", member=the_bot(world), stake=10)
    assert "already host 3 tables with the computer" in refusal(duel)
    await simcord_env.bot.tables.computers.idle()
    after = (
        await wallet(world, alice),
        await house(world),
        [(t.id, t.status) for t in await tables.live_tables(world.guild.id)],
        [len(room.history()) for room in rooms],
        (await tables.snapshot(4)).seats,
    )
    assert after == before, "no seat, no table, no coins, no message"

    # The lobby's computer taken out, the fourth table may have one.
    answered(await alice.click(rooms[2].last_message, label="Remove computer"))
    answered(await alice.click(rooms[3].last_message, label="Add computer"))
    assert (await tables.snapshot(4)).seats == [alice.id, COMPUTER]
