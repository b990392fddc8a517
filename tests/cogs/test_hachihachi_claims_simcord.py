"""Manual teyaku claims through Discord (rules §9, the turn 3 secrecy ruling): every
player gets the same private claim step, teyaku or not; the table says only that claims
are open; a decline is never announced; claims close at the dealer's first draw.

Two tables side by side, dealt alike but for Alice's hand: at one she holds a Triplet and
declines it, at the other she holds no teyaku and takes "nothing to claim". Bob (and the
table) must see exactly the same at both."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from bot.games import hachihachi as hh
from bot.games.dice import ScriptedDice
from bot.games.hachihachi import models as hm
from bot.games.hachihachi.cards import CARDS
from cogs import hachihachi as cog
from tests.cogs.test_hachihachi_simcord import (
    ALICE_TRIPLET,
    BOB_NOTHING,
    FIELD_QUIET,
    REST,
    deal,
    forged,
)
from tests.platform.test_replay_page import attachment_text
from tests.support.sim import (
    answered,
    components,
    labels,
    make_world,
    message_text,
    refusal,
    visible_to,
)

ASIDE = ["chrysanthemum-chaff-2", "maple-chaff-2"]
"""Two draw-pile cards that take the place of two Pine cards in Alice's plain hand."""
ALICE_PLAIN = [card for card in ALICE_TRIPLET if card not in ("pine-ribbon", "pine-chaff-1")]
ALICE_PLAIN[1:1] = ASIDE
PILE = [card for card in REST if card not in ASIDE]
# The two tables' draw piles differ only in their last two cards, which nobody sees here.
TRIPLET_DEAL = deal(ALICE_TRIPLET, BOB_NOTHING, FIELD_QUIET, [*PILE, *ASIDE])
PLAIN_DEAL = deal(ALICE_PLAIN, BOB_NOTHING, FIELD_QUIET, [*PILE, "pine-ribbon", "pine-chaff-1"])
OPTIONS = {
    "teyaku_claims": "manual",
    "mizuten": False,
    "first_dealer": "first_seat",
    "stake_per_kan": 1,
    "rounds": 1,
    "turn_seconds": 60,
}


@pytest.fixture
def simcord_bot(bot_factory: Any) -> Any:
    dice = ScriptedDice(orders=[TRIPLET_DEAL, PLAIN_DEAL])
    return bot_factory(dice_factory=lambda row: dice)


class Table:
    """One table in its own channel, and the hand answers its members opened."""

    def __init__(self, world: Any, number: int, channel: Any) -> None:
        self.world, self.number, self.channel = world, number, channel
        self.hands: dict[int, int] = {}

    async def state(self) -> hm.State:
        return (await self.world.env.bot.tables.snapshot(self.number)).state

    async def message(self) -> Any:
        message_id = (await self.world.env.bot.tables.snapshot(self.number)).row.message_id
        return next(m for m in self.channel.history() if m.id == message_id)

    async def open_hand(self, member: Any) -> Any:
        shown = answered(await member.click(await self.message(), label="My hand"))
        self.hands[member.id] = shown.response.message.id
        return shown.response.message

    def hand(self, member: Any) -> Any:
        for message in self.channel.history(viewer=member):
            if message.id == self.hands[member.id]:
                return message
        raise AssertionError("no hand answer")


async def two_tables(env: Any) -> tuple[Any, Table, Table]:
    world = await make_world(env, "alice", "bob")
    tables = []
    for number, channel in enumerate(
        (world.channel, world.guild.create_text_channel("tables-two")), start=1
    ):
        opened = answered(await world["alice"].slash(channel, "hanafuda open", **OPTIONS))
        answered(await world["bob"].click(opened.response.message, label="Join"))
        answered(await world["alice"].click(opened.response.message, label="Start"))
        tables.append(Table(world, number, channel))
    return world, tables[0], tables[1]


TABLE_NUMBER = re.compile(r"(tz:|#|table |tanzaku-table-)\d+", re.IGNORECASE)
COMMITMENT = re.compile(r"`[0-9a-f]{64}`")
"""Each table's own fairness commitment (its seed's hash), the one difference allowed."""


def seen(message: Any) -> str:
    """All a member can tell of a message, its table's number and commitment aside: text,
    every button's label and custom id, attachments' names and alt text."""
    parts = [message_text(message)]
    parts += [f"{_label(c)}|{getattr(c, 'custom_id', '')}" for c in components(message)]
    parts += [f"{a.filename}|{a.description}" for a in message.attachments]
    text = COMMITMENT.sub("`commitment`", "\n".join(parts))
    return TABLE_NUMBER.sub(lambda found: found.group(1) + "N", text)


def _label(child: Any) -> str:
    return str(child.get("label") if isinstance(child, dict) else getattr(child, "label", ""))


async def views(world: Any, table: Table) -> dict[str, str]:
    """What the table and Bob show: the public message and Bob's hand answer."""
    return {"table": seen(await table.message()), "bob": seen(table.hand(world["bob"]))}


async def test_a_declined_teyaku_looks_like_no_teyaku_to_the_table_and_to_bob(simcord_env):
    assert hh.teyaku(ALICE_TRIPLET) == [("Triplet", 2)] and hh.teyaku(ALICE_PLAIN) == []
    world, holding, plain = await two_tables(simcord_env)
    alice, bob = world["alice"], world["bob"]
    for table in (holding, plain):
        s = await table.state()
        assert s.phase == "play" and s.turn == alice.id and s.claims_open
        await table.open_hand(bob)
        assert labels(table.hand(bob)) == ["Nothing to claim"]
        assert "Teyaku claims are open" in message_text(await table.message())
    before = {table.number: await views(world, table) for table in (holding, plain)}
    assert before[1] == before[2]

    def edits() -> list[str]:
        return [r.path for r in simcord_env.http_requests if r.method == "PATCH"]

    mine = await holding.open_hand(alice)
    assert "Don't claim Triplet" in labels(mine) and "Claim Triplet" in labels(mine)
    edited = len(edits())
    answered(await alice.click(mine, label="Don't claim Triplet"))
    assert edits()[edited:] == [], "a decline edited a message"
    mine = await plain.open_hand(alice)
    assert "Nothing to claim" in labels(mine) and not any("Triplet" in x for x in labels(mine))
    edited = len(edits())
    answered(await alice.click(mine, label="Nothing to claim"))
    assert edits()[edited:] == [], "a step with nothing to claim edited a message"
    after = {table.number: await views(world, table) for table in (holding, plain)}
    assert after[1] == after[2], "the table or Bob can tell a declined teyaku from none"
    assert after == before, "a claim step changed what the table or Bob sees"
    assert (await holding.state()).claims[alice.id] == []
    # Nor does Bob's /history of either table show a step (or a number) for it.
    logs = []
    for table in (holding, plain):
        shown = answered(await bob.slash(table.channel, "history", table=table.number))
        logs.append(TABLE_NUMBER.sub("#N", shown.response.embeds[0].description))
    assert logs[0] == logs[1] and "claim" not in logs[0], logs[0]

    # Alice's first card: the draw waits for Bob's step, at both tables alike.
    for table in (holding, plain):
        s = await table.state()
        play = f"tz:{table.number}:{s.ply}:play:{cog.card_arg('peony-animal')}"
        answered(await alice.click(table.hand(alice), custom_id=play))
        assert (await table.state()).phase == "claim"
    waiting = [await views(world, table) for table in (holding, plain)]
    assert waiting[0] == waiting[1]
    # The turn line, first, names nobody whose step it is (the dealer only draws after).
    first = (await holding.message()).embeds[0].description.split("\n")[0]
    assert first.startswith(
        "▶️ Teyaku claim steps — each player's, with the My hand button; "
        f"then <@{alice.id}> draws · <t:"
    ), first
    assert f"<@{bob.id}>" not in first
    header = (await holding.message()).attachments[0].description.split(". ")[0]
    # Names as known when the claim window opened (none yet here): the seat.
    assert (
        header == "▶ Teyaku claim steps — each player's, with the My hand button; then seat 1 draws"
    )
    # The clock closes Bob's untaken step at both tables (nothing claimed) and the draw
    # happens; nothing of it differs either.
    await simcord_env.advance_time(61)
    drawn = [await views(world, table) for table in (holding, plain)]
    assert drawn[0] == drawn[1]
    for table in (holding, plain):
        s = await table.state()
        assert not s.claims_open and s.claims == {alice.id: [], bob.id: []}
        assert len(s.draw_pile) == 13
    leak_scan(world, bob, {*ALICE_TRIPLET, *ALICE_PLAIN} - {"peony-animal"})


def leak_scan(world: Any, viewer: Any, hidden: set[str]) -> None:
    """Nothing ``viewer`` can see (every channel, their DMs, their own private answers)
    names a hidden card (its id, or its name where no other card shares it), a teyaku of
    Alice's, or a decline."""
    names = Counter(card.name for card in CARDS.values())
    blob = "\n".join(seen(message) for message in visible_to(world, viewer))
    for card in hidden:
        assert card not in blob, f"{card} is visible to {viewer}"
        if names[CARDS[card].name] == 1:
            assert CARDS[card].name not in blob, f"{CARDS[card].name} is visible to {viewer}"
    assert "Triplet" not in blob and "declin" not in blob.lower() and "Don't claim" not in blob


async def test_a_claim_after_the_dealers_first_draw_is_refused(simcord_env):
    world, holding, _plain = await two_tables(simcord_env)
    alice, bob = world["alice"], world["bob"]
    s = await holding.state()
    mine = await holding.open_hand(alice)
    claim = next(label for label in labels(mine) if label.startswith("Claim Triplet"))
    # The dealer plays first, her claim step still untaken: the draw waits for it.
    play = f"tz:1:{s.ply}:play:{cog.card_arg('peony-animal')}"
    answered(await alice.click(mine, custom_id=play))
    assert (await holding.state()).phase == "claim"
    answered(await bob.click(await holding.open_hand(bob), label="Nothing to claim"))
    assert (await holding.state()).phase == "claim", "Alice's step is still untaken"
    await simcord_env.advance_time(61)
    s = await holding.state()
    assert not s.claims_open and s.claims[alice.id] == [] and len(s.draw_pile) == 13
    assert claim not in labels(holding.hand(alice))
    arg = next(str(c.custom_id).split(":")[-1] for c in components(mine) if _label(c) == claim)
    refused = refusal(await forged(alice, mine, f"tz:1:{s.ply}:claim:{arg}"))
    assert "closed when the dealer drew" in refused
    assert (await holding.state()) == s, "the refusal changed nothing"
    # Once a moderator has ended the match, Bob's "nothing to claim" is still nowhere: not
    # in /history, not on the replay page /verify attaches.
    answered(await world.moderator.slash(holding.channel, "cancel", table=1))
    assert not (await world.env.bot.tables.snapshot(1)).row.live
    shown = answered(await alice.slash(holding.channel, "history", table=1))
    history = "\n".join(embed.description for embed in shown.response.embeds if embed.description)
    assert "> plays " in history and "teyaku" not in history, history
    verified = answered(await alice.slash(holding.channel, "verify", table=1))
    page = attachment_text(world, verified.response.attachments[0])
    # The page may show the table's public line that claim steps are open (the ruling's
    # one public word on them); never a step taken, nor a decline.
    lowered = page.lower()
    assert "nothing to claim" not in lowered and "declin" not in lowered, "a claim step shown"
    assert "claims nothing" not in lowered and "plays the " in page
