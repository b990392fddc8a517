"""Nuki Hachi-hachi through Discord: a full two-player round to settlement with scripted
shuffles and wallets, a three-player table through play-or-drop, the private hands (no
message visible to one player ever shows another's hand), a restart mid-round, deadlines
and every kind of bad input."""

from __future__ import annotations

import random
from typing import Any

import pytest
from simcord.actors import _dispatch_actor_interaction, _visible_message
from simcord.backend import serializers
from simcord.builders import ChannelHandle
from simcord.enums import InteractionType

from bot.games import hachihachi as hh
from bot.games.dice import ScriptedDice
from bot.games.hachihachi import models as hm
from bot.games.hachihachi.cards import CARDS, DECK
from cogs import hachihachi as cog
from cogs._ui.hands import EARLIER
from cogs.hachihachi.words import distinct, interchangeable
from tests.support.dice import SeededDice
from tests.support.discord_limits import payload_problems
from tests.support.sim import (
    answered,
    components,
    labels,
    make_world,
    message_text,
    refusal,
    sent_payloads,
    visible_to,
    wallet,
)

TABLE = 1
START = 1000  # every member's first wallet

# A deal for two (rules §5: non-dealer d[0..3], dealer d[4..7], field d[8..10], non-dealer
# d[11..13], dealer d[14..16], field d[17..19], draw pile d[20..33]). Alice deals. Nobody
# holds a teyaku, the field is Small, and Alice's Curtain matches the two Cherry chaff on
# the field: her first play has a second step.
ALICE_HAND = [
    "cherry-bright", "plum-animal", "peony-animal", "susuki-animal",
    "chrysanthemum-animal", "maple-animal", "pine-ribbon",
]  # fmt: skip
BOB_HAND = [
    "pine-bright", "plum-ribbon", "cherry-ribbon", "peony-ribbon",
    "susuki-bright", "chrysanthemum-ribbon", "maple-ribbon",
]  # fmt: skip
FIELD = [
    "cherry-chaff-1", "cherry-chaff-2", "plum-chaff-1",
    "peony-chaff-1", "maple-chaff-1", "willow-chaff",
]  # fmt: skip
DRAW = [card for card in DECK if card not in {*ALICE_HAND, *BOB_HAND, *FIELD}]


def deal(dealer: list[str], other: list[str], field: list[str], rest: list[str]) -> list[int]:
    """The shuffle order (indices into DECK) that deals these cards to two players."""
    cards = [
        *other[:4], *dealer[:4], *field[:3], *other[4:], *dealer[4:], *field[3:], *rest,
    ]  # fmt: skip
    assert sorted(cards) == sorted(DECK)
    return [DECK.index(card) for card in cards]


def two_player_dice() -> ScriptedDice:
    return ScriptedDice(orders=[deal(ALICE_HAND, BOB_HAND, FIELD, DRAW)])


def shuffles(orders: list[list[int]]) -> Any:
    """A test's scripted shuffles (orders of DECK indices), one per ``dice.shuffle``."""

    def mark(test: Any) -> Any:
        test.dice_orders = orders
        return test

    return mark


@pytest.fixture
def simcord_bot(bot_factory: Any, request: pytest.FixtureRequest) -> Any:
    """The bot with the shuffles a test names (:func:`shuffles`), by default the deal
    above; the dice are kept on the test's node for a restart."""
    orders = getattr(request.function, "dice_orders", [deal(ALICE_HAND, BOB_HAND, FIELD, DRAW)])
    dice = ScriptedDice(orders=orders)
    request.node.hh_dice = dice
    return bot_factory(dice_factory=lambda row: dice)


# -- helpers -------------------------------------------------------------------------------


async def snapshot(world: Any) -> Any:
    return await world.env.bot.tables.snapshot(TABLE)


async def state(world: Any) -> hm.State:
    return (await snapshot(world)).state


async def table_message(world: Any) -> Any:
    message_id = (await snapshot(world)).row.message_id
    for message in world.channel.history():
        if message.id == message_id:
            return message
    raise AssertionError("no table message")


async def started(env: Any, *names: str, **options: Any) -> Any:
    world = await make_world(env, *names)
    options.setdefault("stake_per_kan", 1)
    options.setdefault("first_dealer", "first_seat")
    options.setdefault("turn_seconds", 3600)
    options.setdefault("rounds", 2)  # a short match keeps a test quick
    opened = answered(await world[names[0]].slash(world.channel, "hanafuda open", **options))
    for name in names[1:]:
        answered(await world[name].click(opened.response.message, label="Join"))
    answered(await world[names[0]].click(opened.response.message, label="Start"))
    return world


def current(world: Any, member: Any, message_id: int) -> Any:
    """A message as ``member`` sees it now (their own ephemerals included)."""
    for channel in world.guild.channels.values():
        for message in channel.history(viewer=member):
            if message.id == message_id:
                return message
    raise AssertionError(f"{member} cannot see message {message_id}")


class Hands:
    """Each member's latest hand answer (what a player would look at)."""

    def __init__(self, world: Any) -> None:
        self.world = world
        self.ids: dict[int, int] = {}

    async def open(self, member: Any) -> Any:
        shown = answered(await member.click(await table_message(self.world), label="My hand"))
        assert shown.ephemeral
        self.ids[member.id] = shown.response.message.id
        return shown.response.message

    def of(self, member: Any) -> Any:
        return current(self.world, member, self.ids[member.id])

    async def fresh(self, member: Any) -> Any:
        """The member's hand answer, which the bot keeps current; opened if there is none."""
        if member.id not in self.ids:
            return await self.open(member)
        message = self.of(member)
        ply = (await state(self.world)).ply
        ids = [str(c.custom_id) for c in components(message)]
        assert all(f":{ply}:" in cid for cid in ids), "the hand answer follows every turn"
        return message


def custom_id(ply: int, verb: str, arg: str | None = None) -> str:
    return f"tz:{TABLE}:{ply}:{verb}" + (f":{arg}" if arg is not None else "")


async def forged(member: Any, message: Any, cid: str) -> Any:
    """A click on a button the message does not have, as a modified client could send it.
    Discord itself sends only ids of buttons on the message, and discord.py drops any other,
    so the forged button is added to the message the click carries; the bot must still
    judge it by the table as it is, never by the button."""
    stored = _visible_message(member, message)
    backend = member._env.backend
    payload = dict(serializers.message_payload(backend, stored))
    button = {"type": 2, "style": 2, "label": "forged", "custom_id": cid}
    payload["components"] = [*payload.get("components", []), {"type": 1, "components": [button]}]
    channel = ChannelHandle(member._env, member.guild, backend.get_channel(stored.channel_id))
    return await _dispatch_actor_interaction(
        member,
        InteractionType.MESSAGE_COMPONENT,
        channel,
        {"custom_id": cid, "component_type": 2},
        extra={"message": payload},
        source_message_id=stored.id,
    )


def verb_of(action: Any) -> tuple[str, str | None]:
    if isinstance(action, hm.Play):
        return "play", cog.card_arg(action.card, action.capture)
    spec = cog.decision(action, [])
    assert spec is not None, action
    return spec[0], spec[2]


def same_move(s: hm.State, player: int, action: Any) -> Any:
    """The action as its buttons offer it: of two identical chaff the capture is the first
    (the buttons offer one; either is the same move)."""
    if isinstance(action, hm.Play) and action.capture is not None:
        takes = [
            a.capture
            for a in hh.legal_actions(s, player)
            if isinstance(a, hm.Play) and a.card == action.card and a.capture
        ]
        if action.capture not in distinct(takes):
            capture = next(c for c in distinct(takes) if interchangeable(c, action.capture))
            return hm.Play(card=action.card, capture=capture)
    if isinstance(action, hm.CaptureDrawn) and s.drawn is not None:
        takes = [a.capture for a in hh.legal_actions(s, player) if isinstance(a, hm.CaptureDrawn)]
        if action.capture not in distinct(takes):
            capture = next(c for c in distinct(takes) if interchangeable(c, action.capture))
            return hm.CaptureDrawn(capture=capture)
    return action


async def do(world: Any, hands: Hands, member: Any, action: Any) -> Any:
    """``member`` does ``action`` through their hand answer's buttons."""
    s = await state(world)
    message = await hands.fresh(member)
    action = same_move(s, member.id, action)
    if isinstance(action, hm.Play) and action.capture is not None:
        second = custom_id(s.ply, "card", cog.card_arg(action.card))
        if any(str(c.custom_id) == second for c in components(message)):
            answered(await member.click(message, custom_id=second))
            message = hands.of(member)
            assert "matches two field cards" in message_text(message)
    verb, arg = verb_of(action)
    result = answered(await member.click(message, custom_id=custom_id(s.ply, verb, arg)))
    assert not [m for m in result.followups if m.ephemeral and "nothing" in m.content.lower()]
    return result


def leak_scan(world: Any, s: hm.State) -> None:
    """No message any seated member can see holds a card of another player's hand or of
    the draw pile: not its id, not its name (where no other card shares it), not in text,
    labels, custom ids, attachment names or alt text. Claimed teyaku cards are public
    (rules §9.3)."""
    names: dict[str, int] = {}
    for card in CARDS.values():
        names[card.name] = names.get(card.name, 0) + 1
    revealed = {card for claims in s.claims.values() for c in claims for card in c.revealed}
    for viewer in world.members.values():
        if viewer.id not in s.seats:
            continue
        seen = []
        for message in visible_to(world, viewer):
            seen.append(message_text(message))
            seen.extend(str(getattr(c, "custom_id", "")) for c in components(message))
            for attachment in message.attachments:
                seen.append(f"{attachment.filename} {attachment.description or ''}")
        blob = "\n".join(seen)
        secret = [(other, hand) for other, hand in s.hands.items() if other != viewer.id]
        if not s.active or viewer.id in s.active:  # a dropped hand went into the pile
            secret.append((0, s.draw_pile))
        for other, hand in secret:
            for card in hand:
                if card in revealed:
                    continue
                assert card not in blob, f"{card} of {other} is visible to {viewer.id}"
                name = CARDS[card].name
                if names[name] == 1:
                    assert name not in blob, f"{name} of {other} is visible to {viewer.id}"


async def play_out(world: Any, hands: Hands, *, scan: bool = False, limit: int = 200) -> None:
    """Play until the match ends, each decision the first legal action (the deadline's
    default), every one through the deciding player's hand answer."""
    by_id = {m.id: m for m in world.members.values()}
    for _ in range(limit):
        s = await state(world)
        if s.finished:
            return
        if scan and s.round == 1:  # later deals reuse the cards earlier rounds showed
            leak_scan(world, s)
        assert s.turn is not None
        action = hh.legal_actions(s, s.turn)[0]
        await do(world, hands, by_id[s.turn], action)
        await only_the_decider_has_buttons(world, hands)
    raise AssertionError("the match did not end")


async def only_the_decider_has_buttons(world: Any, hands: Hands) -> None:
    """Every kept hand answer is current, and only a player who must decide has buttons:
    the turn's, and while manual claims are open whoever has a claim step untaken."""
    s = await state(world)
    for member_id, message_id in hands.ids.items():
        member = next(m for m in world.members.values() if m.id == member_id)
        shown = labels(current(world, member, message_id))
        stepping = s.claims_open and member_id in s.to_claim
        turn = member_id == s.turn and s.phase != "claim"
        if s.finished or not (turn or stepping):
            assert not shown, f"{member_id} has buttons at another's decision: {shown}"
        else:
            assert shown, "the player who must decide has their buttons"


async def money_is_whole(world: Any) -> None:
    totals = await world.env.bot.economy.totals(world.guild.id)
    assert totals.wallets + totals.escrow + totals.house == totals.minted


# -- the tests -------------------------------------------------------------------------------


async def test_a_two_player_round_to_settlement_with_wallets(simcord_env):
    world = await started(simcord_env, "alice", "bob", rounds=1, stake_per_kan=5)
    alice, bob = world["alice"], world["bob"]
    s = await state(world)
    assert s.dealer == alice.id and sorted(s.hands[alice.id]) == sorted(ALICE_HAND)
    hold = (await snapshot(world)).hold
    assert hold > 0
    for member in (alice, bob):
        assert await wallet(world, member) == START - hold, "the worst case is held in escrow"
    table = await table_message(world)
    text = message_text(table)
    assert "Small Field" in text and "Draw pile: **14**" in text and "Round **1** of 1" in text
    assert "7 cards in hand" in text
    # The field is the picture's (and its alt text's), not a list in the embed.
    assert "Cherry chaff" not in text
    (attachment,) = table.attachments
    assert attachment.filename == "field.png" and "Cherry chaff" in (attachment.description or "")

    hands = Hands(world)
    # The dealer decides mizuten before seeing their hand (rules §7.1).
    blind = await hands.open(alice)
    assert "Decide **before you look**" in message_text(blind)
    for card in ALICE_HAND:
        assert CARDS[card].name not in message_text(blind)
        assert CARDS[card].name not in (blind.attachments[0].description or "")
    assert sorted(labels(blind)) == ["Look at my hand", "Play blind (mizuten)"]
    bob_hand = await hands.open(bob)
    assert "Pine poetry ribbon" not in message_text(bob_hand) and "Full Moon" in message_text(
        bob_hand
    )
    leak_scan(world, await state(world))
    answered(await alice.click(blind, label="Look at my hand"))
    seen = hands.of(alice)
    assert "Curtain" in message_text(seen), "the same answer now shows the hand"
    assert "Full Moon" not in message_text(hands.of(alice))
    table = await table_message(world)
    assert "looks at their hand" in message_text(table), "the table message was edited"
    # The same field under a new turn line: the picture's header says what is asked now.
    assert table.attachments[0].description.startswith("▶ alice — play a card. Field:")

    # Alice's Curtain matches both Cherry chaff, which are identical in play: it takes one
    # at once, without a second step (the pick between different cards: the picture tests).
    first = table.attachments[0].id
    curtain = next(label for label in labels(seen) if "Curtain" in label)
    assert not curtain.endswith("…"), "no question between two identical chaff"
    answered(await alice.click(seen, label=curtain))
    after = await state(world)
    assert "cherry-bright" in after.piles[alice.id] and "cherry-chaff-1" in after.piles[alice.id]
    table = await table_message(world)
    assert table.attachments[0].id != first, "the field changed: a new picture"
    assert "Curtain" in message_text(table) and "takes" in message_text(table)

    await play_out(world, hands, scan=True)
    final = await state(world)
    assert final.finished and final.last_round is not None
    assert sum(final.payouts.values()) == 0 and final.stakes == {alice.id: 0, bob.id: 0}
    for member in (alice, bob):
        assert await wallet(world, member) == START + final.payouts[member.id]
    net = final.last_round.net
    assert final.scores == {p: net.get(p, 0) for p in final.seats}
    # Coins are the points at 5 coins a kan of 10 points (one round: no rounding across).
    assert abs(final.payouts[alice.id] - final.scores[alice.id] * 5 / 10) < 1
    line = world.channel.last_message.content
    assert "Round 1" in line or "Match over" in message_text(await table_message(world))
    await money_is_whole(world)
    for payload in sent_payloads(simcord_env):
        assert payload_problems(payload) == [], payload


@shuffles([list(range(34)), list(range(34))])
async def test_a_three_player_table_through_play_or_drop(simcord_env):
    world = await started(
        simcord_env, "alice", "bob", "carol", seats=3, first_dealer="draw", mizuten=False
    )
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    s = await state(world)
    # The draw for the first dealer: Alice holds the Crane (Pine bright), Bob the Pine
    # ribbon, Carol a Pine chaff — one month, and the Crane ranks highest (rules §4).
    assert s.dealer == alice.id and s.phase == "participate" and s.turn == alice.id
    assert all(len(s.hands[p]) == 7 for p in s.seats)
    hands = Hands(world)
    ask = await hands.open(alice)
    assert {"Play this round", "Drop out"} <= set(labels(ask))
    carol_hand = await hands.open(carol)
    assert not labels(carol_hand), "nothing to decide yet: no buttons"
    leak_scan(world, s)
    await do(world, hands, alice, hm.Participate(play=False))
    assert (await state(world)).turn == bob.id
    await do(world, hands, bob, hm.Participate(play=True))
    # Carol must answer too (the phase stops at two players saying play).
    s = await state(world)
    if s.phase == "participate":
        await do(world, hands, carol, hm.Participate(play=True))
    s = await state(world)
    assert sorted(s.active) == sorted([bob.id, carol.id]) and s.acting_dealer == bob.id
    assert len(s.draw_pile) == 14, "the dropped hand went into the draw pile"
    text = message_text(await table_message(world))
    assert f"<@{alice.id}> — sits this round out" in text
    # A dropped player sees that they are out, and cannot play.
    out = answered(await alice.click(await table_message(world), label="My hand"))
    assert "sit this round out" in message_text(out.response.message)
    assert not labels(out.response.message)
    before = s.model_dump_json()
    card = s.hands[bob.id][0] if s.hands.get(bob.id) else DECK[0]
    refused = refusal(
        await forged(alice, out.response.message, custom_id(s.ply, "play", cog.card_arg(card)))
    )
    assert refused and (await state(world)).model_dump_json() == before
    leak_scan(world, s)
    # Play a few turns through the hands, scanning as cards move.
    by_id = {m.id: m for m in (alice, bob, carol)}
    for _ in range(6):
        s = await state(world)
        leak_scan(world, s)
        assert s.turn is not None
        await do(world, hands, by_id[s.turn], hh.legal_actions(s, s.turn)[0])


async def test_the_stale_the_stranger_and_the_bad_input_are_refused_privately(simcord_env):
    world = await started(simcord_env, "alice", "bob", mizuten=False)
    alice, bob = world["alice"], world["bob"]
    dave = world.guild.add_member(world.env.create_user("dave"))
    hands = Hands(world)
    if (await state(world)).phase == "mizuten":
        await do(world, hands, alice, hm.Mizuten(declare=False))
    s = await state(world)
    assert s.phase == "play" and s.turn == alice.id
    mine = await hands.fresh(alice)
    theirs = await hands.open(bob)

    async def refused(member: Any, message: Any, cid: str, *words: str) -> str:
        before = (await state(world)).model_dump_json()
        text = refusal(await forged(member, message, cid))
        for word in words:
            assert word.lower() in text.lower(), text
        assert (await state(world)).model_dump_json() == before, "nothing changed"
        return text

    ply = s.ply
    # A card not in the hand; a capture that does not match; a card that is not one.
    await refused(alice, mine, custom_id(ply, "play", cog.card_arg("pine-bright")), "hold")
    await refused(
        alice,
        mine,
        custom_id(ply, "play", cog.card_arg("cherry-bright", "plum-chaff-1")),
        "capture",
    )
    await refused(alice, mine, custom_id(ply, "play", "99"), "nothing")
    # The capture step for a card not held, and for one that does not match two.
    await refused(alice, mine, custom_id(ply, "card", cog.card_arg("pine-bright")), "hold")
    await refused(alice, mine, custom_id(ply, "card", cog.card_arg("plum-animal")), "two")
    # Out of turn; sage without a new dekiyaku; cancel without an own sage.
    await refused(bob, theirs, custom_id(ply, "play", cog.card_arg("pine-bright")), "turn")
    await refused(alice, mine, custom_id(ply, "sage"), "sage")
    await refused(alice, mine, custom_id(ply, "stop"), "sage")
    # A stranger: no hand, no play.
    assert "not seated" in refusal(await dave.click(await table_message(world), label="My hand"))
    await refused(
        dave,
        await table_message(world),
        custom_id(ply, "play", cog.card_arg("cherry-bright")),
        "not seated",
    )

    # A stale hand: Alice opens a second answer; the first is no longer kept (it says it
    # was replaced and loses its buttons), so once the turn moves on a click on one of its
    # former buttons (as an outdated client could still send it) is from an earlier turn.
    old = mine
    stale = next(c for c in components(old) if not c.disabled)
    await hands.open(alice)
    assert not components(current(world, alice, old.id))
    await do(world, hands, alice, hm.Play(card="plum-animal"))
    s = await state(world)
    while s.turn == alice.id and not s.finished:
        await do(world, hands, alice, hh.legal_actions(s, alice.id)[0])
        s = await state(world)
    before = s.model_dump_json()
    text = refusal(await forged(alice, current(world, alice, old.id), str(stale.custom_id)))
    assert text == EARLIER and (await state(world)).model_dump_json() == before


async def test_a_hand_answer_past_its_token_is_left_and_then_refused(simcord_env):
    # 16 minutes a decision: the deadline plays after Discord's 15 minutes for a token.
    world = await started(simcord_env, "alice", "bob", mizuten=False, turn_seconds=960)
    alice, bob = world["alice"], world["bob"]
    hands = Hands(world)
    s = await state(world)
    assert s.turn == alice.id and s.phase == "play"
    old = await hands.open(alice)
    await hands.open(bob)
    await simcord_env.advance_time(961)  # the table plays Alice's turn
    after = await state(world)
    assert after.ply > s.ply
    message = current(world, alice, old.id)
    live = [c for c in components(message) if not c.disabled]
    assert live and all(f":{s.ply}:" in str(c.custom_id) for c in live), "left as it was"
    before = after.model_dump_json()
    assert refusal(await alice.click(message, custom_id=live[0].custom_id)) == EARLIER
    assert (await state(world)).model_dump_json() == before
    fresh = await hands.open(alice)
    assert f":{after.ply}:" in "".join(str(c.custom_id) for c in components(fresh)) or not labels(
        fresh
    ), "My hand again: the hand as it is now"


async def test_a_restart_mid_round_then_the_match_finishes(simcord_env, bot_factory, request):
    world = await started(simcord_env, "alice", "bob", rounds=1, mizuten=False)
    alice, bob = world["alice"], world["bob"]
    hands = Hands(world)
    s = await state(world)
    if s.phase == "mizuten":
        await do(world, hands, alice, hm.Mizuten(declare=False))
    await do(world, hands, alice, hm.Play(card="cherry-bright", capture="cherry-chaff-2"))
    s = await state(world)
    while s.turn == alice.id:
        await do(world, hands, alice, hh.legal_actions(s, alice.id)[0])
        s = await state(world)
    kept = await hands.fresh(bob)

    dice = request.node.hh_dice
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory(dice_factory=lambda row: dice))
    # The answer Bob holds is still at the table's ply: its buttons work after a restart.
    s = await state(world)
    action = hh.legal_actions(s, bob.id)[0]
    verb, arg = verb_of(action)
    answered(await bob.click(current(world, bob, kept.id), custom_id=custom_id(s.ply, verb, arg)))
    assert (await state(world)).ply > s.ply
    # Alice's answer was not edited by the new bot (it knows no token): press My hand again.
    hands.ids.pop(alice.id, None)
    hands.ids.pop(bob.id, None)
    await play_out(world, hands)
    final = await state(world)
    assert final.finished
    for member in (alice, bob):
        assert await wallet(world, member) == START + final.payouts[member.id]
    await money_is_whole(world)


async def test_the_deadline_plays_for_an_idle_player_and_the_hands_follow(simcord_env):
    world = await started(simcord_env, "alice", "bob", turn_seconds=60, mizuten=False)
    alice, bob = world["alice"], world["bob"]
    hands = Hands(world)
    s = await state(world)
    assert s.turn == alice.id and s.phase == "play"
    await hands.open(alice)
    await hands.open(bob)
    turn = (await table_message(world)).embeds[0].description.split("\n")[0]
    due = int((await snapshot(world)).deadline.due_at)
    assert turn == f"▶️ <@{alice.id}> — play a card · <t:{due}:R>"
    await simcord_env.advance_time(61)
    after = await state(world)
    assert after.ply > s.ply and after.idle.get(alice.id) == 1
    assert len(after.hands[alice.id]) == 6, "the table played Alice's first legal card"
    assert "decided by the table" in message_text(await table_message(world))
    for member in (alice, bob):  # both answers were edited to the new ply
        await hands.fresh(member)
    assert "Cherry" in (hands.of(alice).attachments[0].description or "")


async def test_yaku_rules_and_the_lobby_say_what_players_need(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice = world["alice"]
    shown = answered(await alice.slash(world.channel, "hanafuda yaku"), ephemeral=True)
    text = message_text(shown.response.message)
    for name in ("Four-Three", "Empty Hand", "Five Brights", "Seven Ribbons", "20 kan"):
        assert name in text
    rules = answered(await alice.slash(world.channel, "rules", game="hachihachi"), ephemeral=True)
    assert "Nuki Hachi-hachi" in rules.response.embeds[0].title
    opened = answered(
        await alice.slash(world.channel, "hanafuda open", stake_per_kan=2, rounds=3, seats=3)
    )
    lobby = message_text(opened.response.message)
    assert "the most one round can cost you" in lobby and "players: 3" in lobby
    hold = int(hh.ENGINE.hold(hm.Rules(stake_per_kan=2, rounds=3, seated_players=3)))
    assert f"{hold:,}" in lobby
    # One round at 50 a kan holds more than a first wallet: refused before opening.
    other = world.guild.create_text_channel("elsewhere")
    needed = hh.ENGINE.hold(hm.Rules(stake_per_kan=50))
    text = refusal(await world["bob"].slash(other, "hanafuda open", stake_per_kan=50))
    assert f"{needed:,}" in text and "The largest `stake_per_kan` it covers is **7**" in text
    assert await wallet(world, world["bob"]) == START


def test_the_open_command_reaches_every_house_option() -> None:
    params = {p.name for p in cog.HachiHachiCog.open.parameters}
    fields = set(hm.Rules.model_fields)
    reached = {option.target for option in cog.OPTIONS.options}
    assert fields == reached, fields ^ reached
    assert len(params) <= 25 and all(len(name) <= 32 for name in params)
    values = cog.OPTIONS.values({"stake_per_kan": 3, "seats": 4, "points_per_kan": "12"})
    rules = cog.OPTIONS.rules(values)
    rules["points_per_kan"] = int(rules["points_per_kan"])
    parsed = hm.Rules.model_validate(rules)
    assert (parsed.stake_per_kan, parsed.seated_players, parsed.points_per_kan) == (3, 4, 12)


def test_custom_id_arguments_are_indices_and_read_strictly() -> None:
    from bot.errors import NotAllowed

    assert cog.card_arg("chrysanthemum-chaff-1", "chrysanthemum-ribbon") == "22-21"
    assert cog.play_from("22-21", []) == hm.Play(
        card="chrysanthemum-chaff-1", capture="chrysanthemum-ribbon"
    )
    for bad in ("34", "²", "-1", "1-99", "", None):
        with pytest.raises(NotAllowed):
            cog.play_from(bad, [])
    action = hm.ClaimTeyaku(claim=True, group="A", month=3)
    assert cog.claim_from(cog.claim_arg(action), []) == action
    everything = hm.ClaimTeyaku(claim=False)
    assert cog.claim_from(cog.claim_arg(everything), []) == everything
    # A claim's label names the teyaku of a dealt hand, and survives any other hand.
    from cogs.hachihachi import words

    hand = ["pine-bright", "pine-chaff-1", "pine-chaff-2", "plum-chaff-1", "cherry-chaff-1"]
    hand += ["willow-animal", "paulownia-chaff"]  # W10: Triplet and One Bright
    assert words.claim_label(everything, hand, ["A", "B"]) == "Don't claim Triplet and One Bright"
    assert words.claim_label(everything, hand[1:], []) == "Nothing to claim"
    assert words.claim_label(action, hand, []) == "Claim Triplet (Cherry)"
    assert words.claim_label(hm.ClaimTeyaku(claim=True), [], ["A"]) == "Claim every teyaku"
    for bad in ("yC0", "x", "yA²"):
        with pytest.raises(NotAllowed):
            cog.claim_from(bad, [])


def test_random_hands_give_buttons_within_discords_limits() -> None:
    """Every decision of random playouts for 2, 3 and 4 seats has its button, and every
    hand answer fits one message: ≤ 5 rows of ≤ 5 buttons, labels ≤ 80, ids ≤ 100."""
    from types import SimpleNamespace

    rng = random.Random(5)
    for seats in (2, 3, 4):
        players = list(range(101, 101 + seats))
        dice = SeededDice(rng)
        rules = hm.Rules(seated_players=seats, rounds=2, teyaku_claims="manual")
        s = hh.start(rules, players, dice)
        for _ in range(150):
            if s.finished or s.turn is None:
                break
            view_of_state = SimpleNamespace(id=TABLE, game=s)
            for player in players:
                legal = hh.legal_actions(s, player)
                hand = s.hands.get(player, [])
                for action in legal:
                    if not isinstance(action, hm.Play):
                        assert cog.decision(action, hand) is not None, action
                steps: list[str | None] = [None]
                steps += [a.card for a in legal if isinstance(a, hm.Play) and a.capture]
                for picking in steps:
                    view = cog.HachiHachiUI.hand_view(
                        None,  # type: ignore[arg-type]  # the view reads no UI state
                        view_of_state,  # type: ignore[arg-type]
                        player,
                        legal,
                        picking=picking,
                    )
                    if view is None:
                        assert not legal
                        continue
                    rows = view.to_components()
                    assert len(rows) <= 5
                    for row in rows:
                        assert len(row["components"]) <= 5
                        for item in row["components"]:
                            assert len(item["label"]) <= 80 and len(item["custom_id"]) <= 100
                    plays = {a.card for a in legal if isinstance(a, hm.Play)}
                    if picking is None and plays:
                        assert len([i for r in rows for i in r["components"]]) >= len(plays)
            legal = hh.legal_actions(s, s.turn)
            s, _ = hh.act(s, s.turn, rng.choice(legal), dice)


ALICE_TRIPLET = [
    "pine-bright", "pine-ribbon", "pine-chaff-1", "plum-animal",
    "peony-animal", "susuki-animal", "maple-animal",
]  # fmt: skip
BOB_NOTHING = [
    "cherry-bright", "plum-ribbon", "cherry-ribbon", "peony-ribbon",
    "susuki-bright", "chrysanthemum-ribbon", "maple-ribbon",
]  # fmt: skip
FIELD_QUIET = [
    "plum-chaff-1", "peony-chaff-1", "maple-chaff-1",
    "willow-chaff", "chrysanthemum-chaff-1", "cherry-chaff-1",
]  # fmt: skip
REST = [c for c in DECK if c not in {*ALICE_TRIPLET, *BOB_NOTHING, *FIELD_QUIET}]


@shuffles([deal(ALICE_TRIPLET, BOB_NOTHING, FIELD_QUIET, REST)])
async def test_manual_claims_ask_everyone_and_a_claim_shows_the_revealed_cards(simcord_env):
    world = await started(
        simcord_env, "alice", "bob", teyaku_claims="manual", mizuten=False, rounds=1
    )
    alice, bob = world["alice"], world["bob"]
    s = await state(world)
    assert s.phase == "play" and s.turn == alice.id and s.claims_open
    hands = Hands(world)
    mine = await hands.open(alice)
    assert "Teyaku in this hand: Triplet (2 kan)" in message_text(mine)
    claim = next(label for label in labels(mine) if label.startswith("Claim Triplet"))
    assert any(label.startswith("Don't claim") for label in labels(mine))
    # Bob holds no teyaku, and has his claim step all the same.
    assert labels(await hands.open(bob)) == ["Nothing to claim"]
    await only_the_decider_has_buttons(world, hands)
    leak_scan(world, s)
    answered(await alice.click(mine, label=claim))
    s = await state(world)
    (made,) = s.claims[alice.id]
    assert made.name == "Triplet" and set(made.revealed) == {
        "pine-bright",
        "pine-ribbon",
        "pine-chaff-1",
    }
    text = message_text(await table_message(world))
    assert "claims **Triplet** (2 kan), showing Crane with Sun (Pine · Bright)" in text
    assert f"Teyaku claimed: <@{alice.id}> **Triplet** (2 kan)" in text
    leak_scan(world, s)  # the revealed cards are public now; the rest of the hand is not
    assert "Bush Warbler" not in "\n".join(message_text(m) for m in visible_to(world, bob))
    await play_out(world, hands, scan=True)


async def test_a_moderator_ends_the_match_and_the_round_in_play_is_played_out(simcord_env):
    world = await started(simcord_env, "alice", "bob", mizuten=False)
    alice, bob = world["alice"], world["bob"]
    hands = Hands(world)
    await do(world, hands, alice, hm.Play(card="cherry-bright", capture="cherry-chaff-1"))
    assert "moderator" in refusal(await alice.slash(world.channel, "cancel", table=TABLE))
    answered(await world.moderator.slash(world.channel, "cancel", table=TABLE))
    s = await state(world)
    assert s.finished and s.stakes == {alice.id: 0, bob.id: 0}
    assert s.rounds_played == 1, "the round in play was played out and scored, not voided"
    for member in (alice, bob):
        assert await wallet(world, member) == START + s.payouts[member.id]
    assert "a moderator ended it" in message_text(await table_message(world))
    assert not labels(hands.of(alice)), "the hand answer has no buttons once it ended"
    await money_is_whole(world)


async def test_an_idle_player_forfeits_and_the_match_ends_settled(simcord_env):
    world = await started(
        simcord_env, "alice", "bob", turn_seconds=60, afk_turns=2, mizuten=False, rounds=2
    )
    alice, bob = world["alice"], world["bob"]
    hands = Hands(world)
    for _ in range(40):  # Alice never acts; Bob plays his first legal move each time
        s = await state(world)
        if s.finished:
            break
        if s.turn == alice.id:
            await simcord_env.advance_time(61)
        else:
            assert s.turn is not None
            await do(world, hands, bob, hh.legal_actions(s, bob.id)[0])
    s = await state(world)
    assert s.finished and s.forfeited == [alice.id] and s.rounds_played == 1
    text = message_text(await table_message(world))
    assert "forfeited: the clock decided for them 2 times" in text and "Match over" in text
    for member in (alice, bob):
        assert await wallet(world, member) == START + s.payouts[member.id]
    await money_is_whole(world)
