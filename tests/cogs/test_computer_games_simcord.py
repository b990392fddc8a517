"""Each game played alone against the computer through Discord, to the end: the
computer's seat shows as the computer, the table service plays it (no clicks), the money
settles against the house bank where the house stakes (the two-player duel), and a
restart while it is the computer's turn loses nothing."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from bot.games import hachihachi as hh
from bot.games import nihakyu, strength_duel
from bot.games.common import COMPUTER_IDS
from bot.i18n import translate
from bot.players import strength_duel as duel_player
from tests.cogs.test_hachihachi_simcord import Hands, leak_scan
from tests.cogs.test_hachihachi_simcord import do as hachihachi_do
from tests.support.computers import vary_computer
from tests.support.japanese import make_japanese_world
from tests.support.sim import (
    answered,
    labels,
    make_world,
    message_text,
    refusal,
    the_bot,
    visible_to,
    wallet,
)

COMPUTER = COMPUTER_IDS[0]
LEAK_NOISE = re.compile(r"<t:\d+:\w>|<@!?\d+>|`[0-9a-f]{16,}…?`|#\d+|table \d+", re.IGNORECASE)
"""What differs between two servers' messages whatever the bids: times, mentions, digests,
table numbers."""


async def house(world: Any) -> int:
    return (await world.env.bot.economy.settings(world.guild.id)).house_balance


async def alone_with_the_computer(env: Any, game: str, **options: Any) -> tuple[Any, Any, int]:
    """alice opens ``game`` with ``options``, adds the computer and starts: the world, alice
    and the house bank's balance before the table."""
    world = await make_world(env, "alice")
    alice = world["alice"]
    answered(await alice.slash(world.channel, "wallet"))
    bank = await house(world)
    opened = answered(await alice.slash(world.channel, f"{game} open", **options))
    answered(await alice.click(opened.response.message, label="Add computer"))
    answered(await alice.click(world.channel.last_message, label="Start"))
    return world, alice, bank


async def books_balance(world: Any) -> None:
    totals = await world.env.bot.economy.totals(world.guild.id)
    assert totals.wallets + totals.escrow + totals.house == totals.minted
    assert totals.escrow == 0, "nothing left at stake once the table ended"


async def state(world: Any, table: int = 1) -> Any:
    return (await world.env.bot.tables.snapshot(table)).state


async def table_message(world: Any) -> Any:
    snapshot = await world.env.bot.tables.snapshot(1)
    return next(m for m in world.channel.history() if m.id == snapshot.row.message_id)


def table_text(message: Any) -> str:
    embed = message.embeds[0]
    return "\n".join([embed.description or "", *(f"{f.name}\n{f.value}" for f in embed.fields)])


# -- the Strength Duel: the exact equilibrium, with the house's coins --------------------------


async def test_a_duel_against_the_computer_settles_with_the_house(simcord_env, dice):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    answered(await alice.slash(world.channel, "wallet"))
    bank = await house(world)
    me = the_bot(world)
    dice.extend([1] * 60)  # the computer's samples: each the lowest bid of its mix
    answered(
        await alice.slash(world.channel, "duel challenge", member=me, stake=10), ephemeral=False
    )
    start = await state(world)
    assert start.seats == [alice.id, COMPUTER] and start.round == 1
    assert await house(world) == bank - 10 and await wallet(world, alice) == 990
    assert "🤖 Computer" in table_text(world.channel.last_message)
    assert "it wins **50.0%** from here" in table_text(world.channel.last_message)

    # Every round the computer has bid (from its equilibrium mix, with the table's dice)
    # before alice does; alice bids everything she has at once and loses.
    rounds = 0
    while not (current := await state(world)).finished:
        assert COMPUTER in current.bids, "the computer bid as the round opened"
        panel = alice.user.dm_channel.last_message
        own = current.strength[alice.id]
        shown = answered(await alice.user.click(panel, label="Other amount…"))
        answered(await alice.user.submit_modal(shown, {"amount": str(own)}))
        rounds += 1
        assert rounds < 30
    final = await state(world)
    assert final.winner in (alice.id, COMPUTER) or final.draw
    review = table_text(world.channel.last_message)
    assert "Your bids against the equilibrium" in review
    first_bid = final.history[0].bids[alice.id]
    gave_up = duel_player.bid_regret(25, 25, first_bid)
    assert f"R1 25–25: **{first_bid}**" in review
    assert (f"−{gave_up:.1%}" in review) == (gave_up >= 5e-4)
    # The house took the computer's share of the pot or paid alice's.
    nets = {alice.id: await wallet(world, alice) - 1000, "house": await house(world) - bank}
    assert nets[alice.id] + nets["house"] == 0, nets
    assert nets[alice.id] == (10 if final.winner == alice.id else 0 if final.draw else -10)
    await books_balance(world)
    # The computer's bids are logged under its seat; /stats never counts it.
    stats = answered(await alice.slash(world.channel, "stats", game="strength_duel"))
    assert "played: **1**" in stats.response.embeds[0].fields[0].value


async def test_what_a_member_sees_before_the_reveal_is_the_same_whatever_the_computer_bid(
    simcord_env, dice
):
    """The computer bids as the round opens; until alice bids too, nothing she can see
    (the table, her DMs, its buttons), nor any wallet or the house bank, depends on its
    bid. Two servers, the computer's lowest bid in one and its highest in the other."""
    seen: list[list[str]] = []
    bids: list[int] = []
    for roll in (1, duel_player.SAMPLE_SIDES):
        world = await make_world(simcord_env, "alice")
        alice = world["alice"]
        answered(await alice.slash(world.channel, "wallet"))
        dice.extend([roll])
        me = the_bot(world)
        answered(await alice.slash(world.channel, "duel challenge", member=me, stake=10))
        table = (await world.env.bot.tables.snapshot(len(bids) + 1)).state
        bids.append(table.bids[COMPUTER])
        shown = [
            LEAK_NOISE.sub("", message_text(m)) + " ".join(labels(m))
            for m in visible_to(world, alice)
        ]
        shown.append(f"wallet {await wallet(world, alice)} house {await house(world)}")
        seen.append(shown)
    assert bids[0] != bids[1], "the two servers' computers bid differently"
    assert seen[0] == seen[1]


async def test_a_restart_while_the_computer_must_bid(simcord_env, bot_factory, dice, monkeypatch):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    bot = simcord_env.bot
    monkeypatch.setattr(bot.tables.computers, "kick", lambda snapshot: None)
    answered(await alice.slash(world.channel, "duel challenge", member=the_bot(world), stake=10))
    assert COMPUTER not in (await state(world)).bids, "this process stopped before it bid"
    await bot.close()
    dice.extend([1] * 8)
    await simcord_env.restart_bot(bot_factory(dice_factory=lambda row: dice))
    await simcord_env.settle()
    assert COMPUTER in (await state(world)).bids, "the restarted bot bid for the computer"
    panel = alice.user.dm_channel.last_message
    answered(await alice.user.click(panel, label="3"))
    after = await state(world)
    assert after.round == 2 and after.history[0].bids[alice.id] == 3


async def test_the_house_does_not_stake_an_unproven_computer(simcord_env, dice):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    bank = await house(world)
    opened = answered(
        await alice.slash(world.channel, "nihakyu open", ante=30, starting_stamina=20)
    )
    text = refusal(await alice.click(opened.response.message, label="Add computer"))
    assert "for no coins" in text and "Nothing changed" in text
    assert (await world.env.bot.tables.snapshot(1)).seats == [alice.id]
    assert await house(world) == bank
    # A duel variant's computer plays a heuristic: for no coins only.
    variant = dict(member=the_bot(world), mode="forbidden")
    text = refusal(await alice.slash(world.channel, "duel challenge", stake=10, **variant))
    assert "for no coins" in text and await house(world) == bank
    answered(
        await alice.slash(world.channel, "duel challenge", stake=0, **variant), ephemeral=False
    )
    assert (await state(world, 2)).seats == [alice.id, COMPUTER]


# -- Nihakyu, for no coins -----------------------------------------------------------------------


async def test_nihakyu_alone_against_the_computer(simcord_env, dice):
    world, alice, bank = await alone_with_the_computer(
        simcord_env, "nihakyu", ante=0, starting_stamina=30
    )
    assert "🤖 Computer" in table_text(await table_message(world))
    for _ in range(10):
        if (await state(world)).finished:
            break
        assert COMPUTER in (await state(world)).choices, "the computer chose as the round opened"
        dice.extend([20, 1])  # alice loses 20 a roll, the computer 1
        answered(await alice.click(await table_message(world), label="Roll"))
    final = await state(world)
    assert final.finished and final.winner == COMPUTER and final.round == 2
    assert await wallet(world, alice) == 1000 and await house(world) == bank, "no coins"
    await books_balance(world)


# -- Hazard: the computer casts, the member bets against the bank -------------------------------


async def test_hazard_the_computer_casts_and_the_bank_settles_the_bets(simcord_env, dice):
    world, alice, bank = await alone_with_the_computer(simcord_env, "hazard")
    answered(await alice.click(world.channel.last_message, label="Pass the dice"))
    current = await state(world)
    assert current.caster == COMPUTER and current.main == 7, "it called the best main at once"
    assert current.window_open, "and waits for the member's bet"
    dice.extend([3, 4])  # 7 on the first throw: a nick, the caster wins
    answered(await alice.slash(world.channel, "hazard bet", kind="against", amount=30))
    after = await state(world)
    assert after.throws == 0 and after.round == 2, "the bet closed the window, it threw"
    assert await wallet(world, alice) == 970 and await house(world) == bank + 30
    assert after.main == 7, "and called the next round's main"
    answered(await alice.click(world.channel.last_message, label="Cash out"))
    final = await state(world)
    assert final.finished, "a table only the computer sits at ends"
    await books_balance(world)


# -- Fortunes and Winds: the computer shoots ----------------------------------------------------


async def test_fortunes_the_computer_shoots_with_the_best_keep(simcord_env, dice):
    world, alice, bank = await alone_with_the_computer(simcord_env, "fortunes", bet_seconds=0)
    # Alice shoots first and loses to Lord Moon; the dice pass to the computer, which
    # bets the minimum and rolls at once (no betting window): Moon again.
    answered(await alice.slash(world.channel, "fortunes bet", kind="shooter", amount=5))
    dice.extend([1, 1, 1, 1, 6, 1, 1, 1, 1, 6])
    answered(await alice.click(await table_message(world), label="Roll"))
    current = await state(world)
    assert current.shooter == alice.id and current.turn >= 3, "both turns were played"
    assert await wallet(world, alice) == 990
    assert await house(world) == bank + 10, "the computer's own bet went house to house"
    answered(await alice.click(await table_message(world), label="Cash out"))
    assert (await state(world)).finished
    await books_balance(world)


async def test_fortunes_the_computer_never_banks_and_passes_a_player_bankers_dice(
    simcord_env, dice
):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    # Bob's wallet starts empty, and he ends up seated after the computer: the computer
    # must still rank below him, or the house's coins would bank against members.
    answered(await world.moderator.slash(world.channel, "config economy", starting_balance=0))
    opened = answered(await alice.slash(world.channel, "fortunes open", banker="player"))
    answered(await alice.click(opened.response.message, label="Add computer"))
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Leave"))
    lobby = await world.env.bot.tables.snapshot(1)
    assert lobby.seats == [COMPUTER, bob.id] and lobby.row.host_id == bob.id
    bank = await house(world)
    answered(await bob.click(world.channel.last_message, label="Start"))
    await world.env.bot.tables.computers.idle()
    current = await state(world)
    assert current.banker == bob.id
    assert current.bets == {}, "the computer bets nothing against a member's wallet"
    # Nobody but the computer may shoot and it will not stake the house's coins against
    # bob: it cashes out at once and the table closes, without waiting on a deadline.
    assert current.finished and COMPUTER not in current.seats
    assert "the table closes" in table_text(await table_message(world))
    assert await wallet(world, bob) == 0 and await house(world) == bank
    await books_balance(world)


async def beside_a_player_banker(world: Any, banker: Any, member: Any, ja: bool = False) -> None:
    """``banker`` opens a player-banked table with the computer, ``member`` joins; the
    computer passes the dice to ``member`` at once, who then cashes out."""

    def label(text: str) -> str:
        return translate(text, "ja") if ja else text

    opened = answered(await banker.slash(world.channel, "fortunes open", banker="player"))
    answered(await banker.click(opened.response.message, label=label("Add computer")))
    answered(await member.click(opened.response.message, label=label("Join")))
    answered(await banker.click(world.channel.last_message, label=label("Start")))
    await world.env.bot.tables.computers.idle()
    current = await state(world)
    assert current.seats == [banker.id, COMPUTER, member.id] and current.banker == banker.id
    assert current.shooter == member.id and current.bets == {}, "passed without a bet"
    answered(await member.click(await table_message(world), label=label("Cash out")))
    await world.env.bot.tables.computers.idle()


async def test_fortunes_beside_a_player_banker_the_computer_passes_then_cashes_out(
    simcord_env, dice
):
    """The computer shoots between a member banker and a member: it passes the dice at
    once; when that member leaves, the dice come back and it cashes out, closing the
    table, all without a deadline (the clock never moves). The banker still sits there:
    the table says why it closes, not that everyone has gone."""
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await beside_a_player_banker(world, bob, alice)
    current = await state(world)
    assert current.finished and current.seats == [bob.id]
    _snapshot, rows = await world.env.bot.tables.history(1, world.guild.id)
    acts = [(row.actor_id, json.loads(row.action_json)["kind"]) for row in rows]
    assert (COMPUTER, "pass_dice") in acts and (COMPUTER, "leave") in acts, acts
    assert all(actor is not None for actor, _kind in acts), "no deadline acted"
    shown = table_text(await table_message(world))
    assert "Nobody is left to shoot against the banker: the table closes" in shown, shown
    assert "Everyone has gone" not in shown
    await books_balance(world)


async def test_fortunes_beside_a_player_banker_the_close_reads_true_in_japanese(
    simcord_env, dice, monkeypatch
):
    world, _locales = await make_japanese_world(simcord_env, monkeypatch, "alice", "bob")
    await beside_a_player_banker(world, world["bob"], world["alice"], ja=True)
    assert (await state(world)).finished
    shown = table_text(await table_message(world))
    assert "胴元の相手として振れる人がいなくなったので、卓を閉じます。" in shown, shown
    assert "全員が退席" not in shown
    await books_balance(world)


# -- Nuki Hachi-hachi: the search computer, a whole match ---------------------------------------


async def test_hachihachi_a_match_against_the_computer_with_a_restart(
    simcord_env, bot_factory, monkeypatch
):
    monkeypatch.setattr("bot.players.hachihachi.SAMPLES", 4)
    # The restart is the point here; when a move lands is tested below.
    vary_computer(monkeypatch, simcord_env.bot, "hachihachi", thinking_seconds=0.0)
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    opened = answered(await alice.slash(world.channel, "hanafuda open", stake_per_kan=0, rounds=1))
    answered(await alice.click(opened.response.message, label="Add computer"))
    answered(await alice.click(world.channel.last_message, label="Start"))
    await simcord_env.bot.tables.computers.idle()
    hands = Hands(world)
    restarted = False
    for _ in range(80):
        current = await state(world)
        if current.finished:
            break
        assert current.turn == alice.id, "the computer never leaves the table waiting"
        leak_scan(world, current)  # the computer's hand never reaches alice
        move = hh.legal_actions(current, alice.id)[0]
        if not restarted and current.phase == "play":
            # Stop before the computer answers alice's card; the restart plays its turn.
            bot = simcord_env.bot
            monkeypatch.setattr(bot.tables.computers, "kick", lambda snapshot: None)
            await hachihachi_do(world, hands, alice, move)
            # A drawn card that matches two field cards is alice's to place too.
            while (after := await state(world)).turn == alice.id:
                await hachihachi_do(world, hands, alice, hh.legal_actions(after, alice.id)[0])
            assert after.turn == COMPUTER
            await bot.close()
            await simcord_env.restart_bot(bot_factory())
            await simcord_env.bot.tables.computers.idle()
            hands = Hands(world)  # after a restart alice opens her hand again
            restarted = True
            continue
        await hachihachi_do(world, hands, alice, move)
        await simcord_env.bot.tables.computers.idle()
    final = await state(world)
    assert restarted and final.finished
    assert COMPUTER in final.scores
    assert "🤖 Computer" in table_text(await table_message(world))


LEGAL = {
    "hachihachi": hh.legal_actions,
    "nihakyu": nihakyu.legal_actions,
    "strength_duel": strength_duel.legal_actions,
}

# -- when a computer's move lands -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("hachihachi", {"stake_per_kan": 0, "rounds": 1}),
        ("nihakyu", {"ante": 0, "starting_stamina": 80, "shadow_step": True}),
        ("strength_duel", {"stake": 0}),
    ],
)
async def test_a_computers_move_lands_at_a_fixed_moment_whatever_it_decided(
    simcord_env, monkeypatch, game, options
):
    """Where the computer's decision reads what is hidden (Hachi-hachi's hand) or makes a
    secret choice (Nihakyu's, the duel's bid), how long it took must not show: on a
    virtual clock each decision takes a time picked by what it decided, and every move
    lands exactly its thinking_seconds after its decision began, or at the next multiple for
    one that took longer."""
    from bot.service import Actor

    monkeypatch.setattr("bot.players.hachihachi.SAMPLES", 2)
    # A fixed seed: on a random one a Hachi-hachi round may end after a few moves (fewer
    # than the five it takes to see an overrun).
    monkeypatch.setattr("bot.service.new_seed", lambda: bytes(range(1, 33)))
    real = simcord_env.bot.tables.computers.players[game]
    thinking = real.thinking_seconds or 1.0  # none: the test fails on no wait
    service = simcord_env.bot.tables
    now = [0.0]
    decisions: list[tuple[float, float]] = []  # (began, took)
    landings: list[float] = []  # after the decision began

    def timed(state: Any, seat: int, dice: Any) -> Any:
        action = real.decide(state, seat, dice)
        if action is None:
            return None
        # A time that depends on the decision: under the moment, and for every fifth
        # decision over it (a machine slowed by other work).
        took = thinking * (0.05 + 0.9 * (sum(map(ord, repr(action))) % 17) / 17)
        if len(decisions) % 5 == 4:
            took += thinking
        decisions.append((now[0], took))
        now[0] += took
        return action

    async def pause(seconds: float) -> None:
        landings.append(now[0] + seconds - decisions[-1][0])
        now[0] += seconds

    vary_computer(monkeypatch, simcord_env.bot, game, decide=timed)
    monkeypatch.setattr(service.computers, "clock", lambda: now[0])
    monkeypatch.setattr(service.computers, "pause", pause)
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    if game == "strength_duel":
        answered(
            await alice.slash(world.channel, "duel challenge", member=the_bot(world), **options)
        )
    else:
        command = "hanafuda open" if game == "hachihachi" else "nihakyu open"
        opened = answered(await alice.slash(world.channel, command, **options))
        answered(await alice.click(opened.response.message, label="Add computer"))
        answered(await alice.click(world.channel.last_message, label="Start"))
    await service.computers.idle()
    for _ in range(200):
        current = (await service.snapshot(1)).state
        if current.finished:
            break
        legal = LEGAL[game](current, alice.id)
        assert legal, "the computer never leaves the table waiting"
        await service.act(1, Actor(alice.id, False), legal[0])
        await service.computers.idle()
    assert (await service.snapshot(1)).state.finished
    moves = [took for _began, took in decisions]
    assert len(landings) == len(moves) >= 6, ("every decision that moved waited", moves, landings)
    for took, landed in zip(moves, landings, strict=True):
        expected = thinking if took <= thinking else 2 * thinking
        assert landed == pytest.approx(expected), (took, landed)
    assert any(took > thinking for took in moves)


async def test_hazard_the_computers_moves_are_paced_and_the_members_are_not(
    simcord_env, monkeypatch, dice
):
    """A second between the computer caster's moves (a round of throws a member can follow,
    not one landing within milliseconds), on a virtual clock; the member's own bet and
    clicks pass no pause."""
    service = simcord_env.bot.tables
    now = [0.0]
    pauses: list[float] = []
    moves: list[str] = []
    real = service.computers.players["hazard"]

    def recorded(state: Any, seat: int, dice_: Any) -> Any:
        action = real.decide(state, seat, dice_)
        if action is not None:
            moves.append(type(action).__name__)
        return action

    async def pause(seconds: float) -> None:
        pauses.append(seconds)
        now[0] += seconds

    vary_computer(monkeypatch, simcord_env.bot, "hazard", decide=recorded)
    monkeypatch.setattr(service.computers, "clock", lambda: now[0])
    monkeypatch.setattr(service.computers, "pause", pause)
    world, alice, _bank = await alone_with_the_computer(simcord_env, "hazard")
    answered(await alice.click(world.channel.last_message, label="Pass the dice"))
    await service.computers.idle()
    assert pauses == [1.0] * len(moves) and moves, "its call of the main waited a second"
    before = len(pauses)
    dice.extend([2, 3, 6, 6, 2, 3])  # 5 (the chance), 12 (neither), 5: the caster wins
    answered(await alice.slash(world.channel, "hazard bet", kind="against", amount=30))
    await service.computers.idle()
    after = await state(world)
    assert after.round == 2 and dice.remaining == 0, "it threw the round out"
    throws = moves[before:].count("Throw")
    assert throws == 3, moves
    assert pauses == [1.0] * len(moves), "every one of its moves, each throw included"
    assert len(pauses) - before == len(moves) - before >= 3
