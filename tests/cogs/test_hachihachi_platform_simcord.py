"""Nuki Hachi-hachi through the platform's trust tools, on a real database file: /verify
re-derives every shuffle of a table played with production fair dice and replays the whole
match (and refuses a live table without its seed); /history of a live table shows no
hidden card to anyone; /stats books games, wins, net coins and honours as the match paid
them; the table message's picture (and each hand answer's) is replaced, never piled up."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.games import hachihachi as hh
from bot.games.dice import ScriptedDice
from bot.games.hachihachi import models as hm
from bot.games.hachihachi.cards import CARDS, DECK
from bot.service import LogKind
from tests.cogs.test_hachihachi_simcord import (
    START,
    TABLE,
    Hands,
    deal,
    do,
    money_is_whole,
    shuffles,
    snapshot,
    state,
    table_message,
)
from tests.support.sim import answered, make_world, message_text, refusal, wallet

TURN_SECONDS = 3600


@pytest.fixture
def simcord_bot(bot_factory: Any, request: pytest.FixtureRequest) -> Any:
    """Production fair dice (each table's own seed), unless the test scripts its shuffles
    with :func:`shuffles`."""
    orders = getattr(request.function, "dice_orders", None)
    if orders is None:
        return bot_factory()
    dice = ScriptedDice(orders=orders)
    return bot_factory(dice_factory=lambda row: dice)


# -- helpers -------------------------------------------------------------------------------


async def opened(env: Any, world: Any, *names: str, **options: Any) -> None:
    options.setdefault("stake_per_kan", 1)
    options.setdefault("turn_seconds", TURN_SECONDS)
    options.setdefault("rounds", 1)
    first = world[names[0]]
    lobby = answered(await first.slash(world.channel, "hanafuda open", **options))
    for name in names[1:]:
        answered(await world[name].click(lobby.response.message, label="Join"))
    answered(await first.click(lobby.response.message, label="Start"))


Step = Callable[[hm.State], Awaitable[None]]


async def play_to_end(
    world: Any, hands: Hands, *, deadlines: int = 0, each: Step | None = None, limit: int = 300
) -> hm.State:
    """Play the match out: the first ``deadlines`` decisions by the clock (the table plays
    them), every other one as the deciding player's first legal action (but "play" when
    asked to play or drop, so that a round is played), clicked in their hand answer;
    ``each`` sees the state after every step."""
    by_id = {m.id: m for m in world.members.values()}
    for step in range(limit):
        s = await state(world)
        if s.finished:
            return s
        assert s.turn is not None
        if step < deadlines:
            await world.env.advance_time(TURN_SECONDS + 1)
            assert (await state(world)).ply > s.ply, "the deadline played"
        else:
            await do(world, hands, by_id[s.turn], choice(hh.legal_actions(s, s.turn)))
        if each is not None:
            await each(await state(world))
    raise AssertionError("the match did not end")


def choice(legal: list[Any]) -> Any:
    return next((a for a in legal if isinstance(a, hm.Participate) and a.play), legal[0])


def hidden_cards(s: hm.State) -> set[str]:
    """Cards nobody but their holder may know: every hand and the draw pile, less what
    is public (a claimed teyaku's revealed cards, rules §9.3)."""
    revealed = {card for claims in s.claims.values() for c in claims for card in c.revealed}
    held = {card for hand in s.hands.values() for card in hand}
    return (held | set(s.draw_pile)) - revealed


def secret_words(hidden: set[str]) -> list[str]:
    """What would name a hidden card: its id, its name where no public card shares it."""
    public_names = {CARDS[card].name for card in DECK if card not in hidden}
    names = {CARDS[card].name for card in hidden} - public_names
    return sorted(hidden) + sorted(names)


def leaked(text: str, hidden: set[str]) -> list[str]:
    return [word for word in secret_words(hidden) if word in text]


def test_the_scan_catches_what_it_looks_for() -> None:
    hidden = {"pine-bright", "pine-chaff-1", "cherry-chaff-1"}
    # The other Cherry chaff is public: "Cherry chaff" names no hidden card by itself.
    assert leaked("Crane with Sun", hidden) == ["Crane with Sun"]
    assert leaked("play(card=pine-chaff-1)", hidden) == ["pine-chaff-1"]
    assert leaked("captured a Cherry chaff", hidden) == []
    assert leaked("Pine chaff", hidden) == []  # pine-chaff-2 is public
    assert leaked("Pine chaff", {"pine-chaff-1", "pine-chaff-2"}) == ["Pine chaff"]


def embed_text(result: Any) -> str:
    return message_text(answered(result, ephemeral=True).response.message)


# -- /verify -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "deadlines"), [(("alice", "bob"), 2), (("alice", "bob", "carol"), 1)]
)
async def test_verify_replays_a_fair_match_and_refuses_a_live_one(simcord_env, names, deadlines):
    world = await make_world(simcord_env, *names)
    alice, bob = world["alice"], world["bob"]
    await opened(simcord_env, world, *names, first_dealer="draw", seats=len(names))
    row = (await snapshot(world)).row
    seed = row.seed_hex
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == row.commitment

    text = refusal(await bob.slash(world.channel, "verify", table=TABLE))
    assert "still being played" in text and row.commitment in text
    assert seed not in text, "a live table's seed stays secret"
    footer = (await table_message(world)).embeds[0].footer.text or ""
    assert row.commitment in footer and seed not in footer

    final = await play_to_end(world, Hands(world), deadlines=deadlines)
    assert final.finished and final.rounds_played == 1

    footer = (await table_message(world)).embeds[0].footer.text or ""
    assert f"seed `{seed}`" in footer, "the ended table shows its seed"
    report = embed_text(await alice.slash(world.channel, "verify", table=TABLE))
    assert "✅ Every roll matches the seed." in report
    assert f"Seed: `{seed}`" in report and row.commitment in report
    _, rows = await simcord_env.bot.tables.history(TABLE, world.guild.id)
    draws = [draw for r in rows for draw in json.loads(r.draws_json)]
    deals = [draw for draw in draws if draw[0] == len(DECK) and isinstance(draw[1], list)]
    # The draw for the first dealer is one shuffle of the deck, the deal another.
    assert len(deals) >= 2
    if len(names) == 3:  # the dropped hand is shuffled into the draw pile: re-derived too
        assert any(draw[0] == 14 for draw in draws)
    kinds = [json.loads(r.action_json)["kind"] for r in rows]
    played = [k for k in kinds if k == LogKind.START or not LogKind.is_table_step(k)]
    assert "deadline" in kinds, "the clock's own decisions are in the log too"
    assert f"Outcomes re-derived: **{len(draws)}**" in report
    assert f"actions replayed: **{len(played)}**" in report

    # The check is real: a tampered shuffle, then a tampered result, are caught.
    first = next(r for r in rows if json.loads(r.draws_json))
    forged = json.loads(first.draws_json)
    forged[0][1] = list(reversed(forged[0][1]))
    async with simcord_env.bot.db.transaction() as tx:
        await tx.execute(
            "UPDATE action_log SET draws_json = ? WHERE table_id = ? AND seq = ?",
            (json.dumps(forged), TABLE, first.seq),
        )
    report = embed_text(await alice.slash(world.channel, "verify", table=TABLE))
    assert "❌" in report and "outcome #1 differs" in report
    stored = final.model_copy(update={"scores": {p: 0 for p in final.scores}})
    async with simcord_env.bot.db.transaction() as tx:
        await tx.execute(
            "UPDATE action_log SET draws_json = ? WHERE table_id = ? AND seq = ?",
            (first.draws_json, TABLE, first.seq),
        )
        await tx.execute(
            "UPDATE game_tables SET state_json = ? WHERE id = ?",
            (stored.model_dump_json(), TABLE),
        )
    report = embed_text(await alice.slash(world.channel, "verify", table=TABLE))
    assert "❌" in report and "replaying the log gives another result" in report


# -- /history ------------------------------------------------------------------------------


async def test_history_of_a_live_table_shows_no_hidden_card_to_anyone(simcord_env):
    world = await make_world(simcord_env, "alice", "bob", "dave")
    await opened(simcord_env, world, "alice", "bob", first_dealer="draw")
    seed = (await snapshot(world)).row.seed_hex
    viewers = [world["alice"], world["bob"], world["dave"], world.moderator]
    checked = 0

    async def scan(s: hm.State) -> None:
        nonlocal checked
        if s.finished:
            return
        hidden = hidden_cards(s)  # empty at a last decision after the last card
        for viewer in viewers:
            text = embed_text(await viewer.slash(world.channel, "history", table=TABLE))
            assert not leaked(text, hidden), f"/history shows {leaked(text, hidden)} live"
            assert seed not in text
            # A member's public action (a play, mizuten, play or drop) is listed as the
            # table showed it; the cards it names are on the table, none is hidden.
            if s.ply >= 2:  # the clock decided the first, a member the second
                assert re.search(r"> (?:plays|looks at their hand|drops) ", text), text
                assert not re.search(r"\w\((?:card|declare|play)=", text), "words, not reprs"
        checked += 1

    await scan(await state(world))
    final = await play_to_end(world, Hands(world), deadlines=1, each=scan)
    assert final.finished and checked >= 4
    # Once the match is over, /history lists every action as it was, like every game.
    text = embed_text(await world["dave"].slash(world.channel, "history", table=TABLE))
    assert re.search(r"> plays [A-Z]", text)


# -- /stats --------------------------------------------------------------------------------

# Alice deals herself all four Pine and three Plum: Four-Three (20 kan), an honour.
ALICE_FOUR_THREE = [
    "pine-bright", "pine-ribbon", "pine-chaff-1", "pine-chaff-2",
    "plum-animal", "plum-ribbon", "plum-chaff-1",
]  # fmt: skip
BOB_HAND = [
    "cherry-bright", "cherry-ribbon", "peony-ribbon", "susuki-bright",
    "chrysanthemum-ribbon", "maple-ribbon", "peony-animal",
]  # fmt: skip
FIELD = [
    "plum-chaff-2", "cherry-chaff-1", "peony-chaff-1",
    "maple-chaff-1", "willow-chaff", "susuki-chaff-1",
]  # fmt: skip
REST = [c for c in DECK if c not in {*ALICE_FOUR_THREE, *BOB_HAND, *FIELD}]


def stats_of(result: Any) -> dict[str, int]:
    """The Nuki Hachi-hachi field of a /stats answer, one ``stat: **value**`` a line."""
    (embed,) = answered(result, ephemeral=True).response.embeds
    (field,) = [f for f in embed.fields if f.name == "Nuki Hachi-hachi"]
    found = re.findall(r"^(.+): \*\*([-+]?[\d,]+)(?: ryō)?\*\*$", field.value, re.MULTILINE)
    return {stat: int(value.replace(",", "")) for stat, value in found}


@shuffles([deal(ALICE_FOUR_THREE, BOB_HAND, FIELD, REST)])
async def test_stats_book_the_match_and_the_honour(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await opened(
        simcord_env, world, "alice", "bob", first_dealer="first_seat", rounds=2, mizuten=False
    )
    s = await state(world)
    assert s.dealer == alice.id and [c.name for c in s.claims[alice.id]] == ["Four-Three"]
    final = await play_to_end(world, Hands(world))
    assert final.finished and final.rounds_played == 2
    await money_is_whole(world)

    for member, other in ((alice, bob), (bob, alice)):
        booked = stats_of(await other.slash(world.channel, "stats", member=member))
        net = final.payouts[member.id]
        assert await wallet(world, member) == START + net
        assert booked["played"] == 1 and booked["net"] == net
        won = net > 0 or member.id in final.winners
        assert booked.get("won", 0) == (1 if won else 0)
        assert booked["best win"] == max(net, 0)
        assert booked["longest streak"] == (1 if won else 0)
        records = ("played", "won", "net", "best win", "longest streak")
        honours = {k for k in booked if k not in records}
        assert honours == ({"Four-Three"} if member is alice else set()), booked
    assert final.payouts[alice.id] != 0, "the match moved coins"


# -- the table message's picture -----------------------------------------------------------


async def test_the_table_picture_is_replaced_never_piled_up(simcord_env, monkeypatch):
    world = await make_world(simcord_env, "alice", "bob")
    await opened(simcord_env, world, "alice", "bob")
    table_id = (await snapshot(world)).row.message_id
    backend = simcord_env.backend
    edit = backend.edit_message
    counts: list[int] = []
    pictures: set[str] = set()

    most: dict[int, int] = {}  # every message edited (the hand answers too): most pictures

    def watched(channel_id: int, message_id: int, fields: dict[str, Any]) -> Any:
        message = edit(channel_id, message_id, fields)
        most[message_id] = max(most.get(message_id, 0), len(message.attachments))
        if message_id == table_id:
            counts.append(len(message.attachments))
            pictures.update(
                str(a.get("id") if isinstance(a, dict) else a.id) for a in message.attachments
            )
        return message

    monkeypatch.setattr(backend, "edit_message", watched)
    start = (await table_message(world)).attachments
    assert len(start) == 1, f"the started table shows {len(start)} pictures"
    first = start[0]
    final = await play_to_end(world, Hands(world), deadlines=1)
    assert final.finished
    assert len(counts) >= 4, "every step edited the table message"
    assert max(counts) <= 1, f"attachments piled up on the table message: {counts}"
    assert len(pictures) >= 3, "the field changed: its picture was replaced each time"
    shown = (await table_message(world)).attachments
    assert len(shown) <= 1 and first.id not in {a.id for a in shown}
    hand_answers = set(most) - {table_id}
    assert len(hand_answers) >= 2, "both players' hand answers were edited along"
    assert max(most.values()) <= 1, f"a message held several pictures: {most}"


async def test_verify_replays_a_match_a_moderator_ended(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice = world["alice"]
    await opened(simcord_env, world, "alice", "bob", mizuten=False, rounds=2)
    hands = Hands(world)
    for _ in range(3):
        s = await state(world)
        member = next(m for m in world.members.values() if m.id == s.turn)
        await do(world, hands, member, choice(hh.legal_actions(s, s.turn)))
    answered(await world.moderator.slash(world.channel, "cancel", table=TABLE))
    final = await state(world)
    assert final.finished and final.aborted
    report = embed_text(await alice.slash(world.channel, "verify", table=TABLE))
    assert "✅ Every roll matches the seed." in report
    assert "actions replayed: **5**" in report, "the start, three plays and the abort"
    # An ended match was not played out: it counts in nobody's stats.
    text = embed_text(await alice.slash(world.channel, "stats"))
    assert "No finished games yet." in text


async def test_verify_after_a_restart_mid_deal(simcord_env, bot_factory, monkeypatch):
    """The fair dice's place in the stream is saved with the table: a bot restarted
    between the deal and the draw pile's shuffle (three seated) goes on where it was,
    and /verify re-derives both."""
    # A fixed seed whose deal stands: a random one is sometimes a misdeal, dealt again.
    monkeypatch.setattr("bot.service.new_seed", lambda: bytes(range(1, 33)))
    names = ("alice", "bob", "carol")
    world = await make_world(simcord_env, *names)
    await opened(simcord_env, world, *names, seats=3, mizuten=False, first_dealer="first_seat")
    s = await state(world)
    assert s.phase == "participate"
    await do(world, Hands(world), world["alice"], hm.Participate(play=True))
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory())
    final = await play_to_end(world, Hands(world))
    assert final.finished
    report = embed_text(await world["carol"].slash(world.channel, "verify", table=TABLE))
    assert "✅ Every roll matches the seed." in report
    _, rows = await simcord_env.bot.tables.history(TABLE, world.guild.id)
    sizes = [draw[0] for r in rows for draw in json.loads(r.draws_json)]
    assert sizes[:2] == [len(DECK), 14], "the deal, then the draw pile after the restart"


async def test_a_table_ended_first_thing_after_a_restart_drops_its_picture(
    simcord_env, bot_factory
):
    world = await make_world(simcord_env, "alice", "bob")
    await opened(simcord_env, world, "alice", "bob", mizuten=False)
    s = await state(world)
    member = next(m for m in world.members.values() if m.id == s.turn)
    await do(world, Hands(world), member, choice(hh.legal_actions(s, member.id)))
    assert len((await table_message(world)).attachments) == 1
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory())
    answered(await world.moderator.slash(world.channel, "cancel", table=TABLE))
    assert (await state(world)).finished
    # An ended table shows no field: only its replay page (tests/platform/test_replay_page).
    ended = (await table_message(world)).attachments
    assert [a.filename for a in ended] == ["tanzaku-table-1-replay.html"], "no field picture"
