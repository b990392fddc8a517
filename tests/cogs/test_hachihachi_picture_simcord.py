"""What a Hachi-hachi player sees of the table's picture and hand flow (issue 27): every
active player's score pile in the table picture, grouped by kind with its dekiyaku
progress; the face-up drawn card and the two-match step framed; two identical chaff taken
without a question; an older "My hand" copy marked replaced."""

from __future__ import annotations

from typing import Any

from bot.games import hachihachi as hh
from bot.games.hachihachi import models as hm
from bot.games.hachihachi.cards import DECK
from cogs._ui.hands import REPLACED
from tests.cogs.test_hachihachi_simcord import (  # noqa: F401  (simcord_bot: the fixture)
    Hands,
    current,
    deal,
    do,
    shuffles,
    simcord_bot,
    started,
    state,
    table_message,
)
from tests.support.sim import answered, components, labels, message_text

# Alice deals and moves first; nobody holds a teyaku; no four of a month on the field.
# Alice's Curtain matches the Cherry ribbon and a Cherry chaff (a real choice); her
# Butterflies match the two Peony chaff (identical: no choice). Her first draw, the Deer,
# matches the Maple ribbon and a Maple chaff: it waits face up for her pick.
ALICE = [
    "cherry-bright", "peony-animal", "pine-bright", "plum-animal",
    "susuki-bright", "chrysanthemum-animal", "willow-bright",
]  # fmt: skip
BOB = [
    "pine-ribbon", "plum-ribbon", "susuki-animal", "chrysanthemum-ribbon",
    "willow-animal", "paulownia-bright", "maple-chaff-2",
]  # fmt: skip
FIELD = [
    "cherry-ribbon", "cherry-chaff-1", "maple-ribbon",
    "maple-chaff-1", "peony-chaff-1", "peony-chaff-2",
]  # fmt: skip
FIRST_DRAWS = ["maple-animal", "paulownia-chaff", "pine-chaff-1"]
REST = FIRST_DRAWS + [c for c in DECK if c not in {*ALICE, *BOB, *FIELD, *FIRST_DRAWS}]
ORDER = deal(ALICE, BOB, FIELD, REST)


def picture_of(message: Any) -> Any:
    (attachment,) = message.attachments
    return attachment


async def begin(env: Any) -> tuple[Any, Any, Any, Hands]:
    world = await started(env, "alice", "bob", mizuten=False, rounds=1)
    s = await state(world)
    alice, bob = world["alice"], world["bob"]
    assert s.phase == "play" and s.turn == alice.id and s.hands[alice.id] == ALICE
    return world, alice, bob, Hands(world)


@shuffles([ORDER])
async def test_the_table_picture_shows_each_pile_by_kind_with_its_progress(simcord_env):
    world, alice, bob, hands = await begin(simcord_env)
    before = picture_of(await table_message(world)).description or ""
    assert "Pile" not in before, "no pile before the first capture"
    await do(world, hands, alice, hm.Play(card="cherry-bright", capture="cherry-ribbon"))
    s = await state(world)
    assert s.phase == "capture_drawn"
    await do(world, hands, alice, hm.CaptureDrawn(capture="maple-ribbon"))
    s = await state(world)
    assert sorted(s.piles[alice.id]) == sorted(
        ["cherry-bright", "cherry-ribbon", "maple-animal", "maple-ribbon"]
    )
    table = await table_message(world)
    alt = picture_of(table).description or ""
    assert picture_of(table).filename == "field.png"
    # Alice's pile, by kind, with her way toward each dekiyaku.
    assert "Pile of alice: 4 cards, 40 pts" in alt, alt
    assert "brights — Curtain; animals — Deer; ribbons — Cherry poetry ribbon, Maple blue" in alt
    assert "Four Brights 1/4" in alt and "Poetry 1/3" in alt and "Blue 1/3" in alt
    assert "Seven Ribbons 2/7" in alt
    # Bob's pile appears with his first capture.
    assert "Pile of bob" not in alt
    await do(world, hands, bob, hm.Play(card="maple-chaff-2"))
    alt = picture_of(await table_message(world)).description or ""
    assert "Pile of bob: 2 cards, 2 pts (Chaff 2/16): chaff — Maple chaff, Maple chaff" in alt
    # Alice's hand picture shows both piles too.
    mine = await hands.fresh(alice)
    assert "Pile of bob" in (picture_of(mine).description or "")


@shuffles([ORDER])
async def test_a_name_the_font_cannot_draw_is_left_out_or_the_seat(simcord_env):
    """The pictures' font has no emoji: drawn, they would be boxes (▯sakura's pile). The
    picture drops what the font cannot draw, and a name with nothing left is the seat's."""
    world = await started(simcord_env, "🌸sakura", "😀😀", mizuten=False, rounds=1)
    s = await state(world)
    alice, bob = world["🌸sakura"], world["😀😀"]
    assert s.turn == alice.id and s.hands[alice.id] == ALICE
    hands = Hands(world)
    await do(world, hands, alice, hm.Play(card="cherry-bright", capture="cherry-ribbon"))
    await do(world, hands, alice, hm.CaptureDrawn(capture="maple-ribbon"))
    await do(world, hands, bob, hm.Play(card="maple-chaff-2"))
    alt = picture_of(await table_message(world)).description or ""
    assert "Pile of sakura: 4 cards" in alt, alt
    assert "Pile of seat 2: 2 cards" in alt, alt
    assert "🌸" not in alt and "😀" not in alt


@shuffles([ORDER])
async def test_the_two_match_step_and_the_drawn_card_are_framed(simcord_env):
    world, alice, _bob, hands = await begin(simcord_env)
    seen = await hands.open(alice)
    # The Curtain matches two different cards: a second step, the three cards framed.
    curtain = next(label for label in labels(seen) if "Curtain" in label)
    assert curtain.endswith("…")
    answered(await alice.click(seen, label=curtain))
    picking = hands.of(alice)
    alt = picture_of(picking).description or ""
    assert "Cherry — Cherry poetry ribbon (marked), Cherry chaff (marked)" in alt, alt
    assert "Your hand: Curtain takes one of the framed field cards" in alt
    assert "Curtain (marked)" in alt and "Butterflies (marked)" not in alt
    assert sorted(x for x in labels(picking) if x.startswith("Take")) == [
        "Take 桜 Cherry chaff",
        "Take 桜 Cherry poetry ribbon",
    ]
    await do(world, hands, alice, hm.Play(card="cherry-bright", capture="cherry-chaff-1"))
    # The Deer turned up matches the Maple ribbon and a Maple chaff: it waits face up,
    # and the table's picture shows it with its two candidates framed.
    s = await state(world)
    assert s.phase == "capture_drawn" and s.drawn == "maple-animal"
    alt = picture_of(await table_message(world)).description or ""
    assert "Drawn by alice, face up: it takes one of the framed field cards: Maple — Deer" in alt
    assert "Maple — Maple blue ribbon (marked), Maple chaff (marked)" in alt
    assert "Peony chaff (marked)" not in alt


@shuffles([ORDER])
async def test_two_identical_chaff_are_taken_without_a_question(simcord_env):
    world, alice, bob, hands = await begin(simcord_env)
    await do(world, hands, alice, hm.Play(card="cherry-bright", capture="cherry-ribbon"))
    await do(world, hands, alice, hm.CaptureDrawn(capture="maple-ribbon"))
    await do(world, hands, bob, hm.Play(card="maple-chaff-2"))
    s = await state(world)
    assert s.turn == alice.id and {"peony-chaff-1", "peony-chaff-2"} <= set(s.field)
    assert len([a for a in hh.legal_actions(s, alice.id) if a.card == "peony-animal"]) == 2
    mine = await hands.fresh(alice)
    butterflies = next(label for label in labels(mine) if "Butterflies" in label)
    assert not butterflies.endswith("…"), "one button: the two chaff are the same"
    answered(await alice.click(mine, label=butterflies))
    after = await state(world)
    assert "peony-animal" in after.piles[alice.id] and "peony-chaff-1" in after.piles[alice.id]
    assert "peony-chaff-2" in after.field
    assert "matches two field cards" not in message_text(hands.of(alice))


@shuffles([ORDER])
async def test_pressing_my_hand_again_marks_the_older_copy_replaced(simcord_env):
    world, alice, _bob, hands = await begin(simcord_env)
    old = await hands.open(alice)
    assert "updates after every turn" in message_text(old) and components(old)
    new = await hands.open(alice)
    assert new.id != old.id
    older = current(world, alice, old.id)
    assert REPLACED in message_text(older)
    assert "updates after every turn" not in message_text(older)
    assert not components(older) and not older.attachments
    # The newest copy is the one that follows the turns; the older one stays replaced.
    await do(world, hands, alice, hm.Play(card="pine-bright"))
    assert REPLACED in message_text(current(world, alice, old.id))
    assert "updates after every turn" in message_text(hands.of(alice))


DRAWS_PEONY = ["peony-ribbon"] + [c for c in REST if c != "peony-ribbon"]


@shuffles([deal(ALICE, BOB, FIELD, DRAWS_PEONY)])
async def test_a_drawn_card_on_two_identical_chaff_offers_one_capture(simcord_env):
    world, alice, _bob, hands = await begin(simcord_env)
    await do(world, hands, alice, hm.Play(card="pine-bright"))
    s = await state(world)
    assert s.phase == "capture_drawn" and s.drawn == "peony-ribbon"
    assert len(hh.legal_actions(s, alice.id)) == 2, "the engine still has both captures"
    mine = hands.of(alice)
    assert [x for x in labels(mine) if x.startswith("Take")] == ["Take 牡丹 Peony chaff"]
    assert "two identical chaff" in message_text(mine)
    answered(await alice.click(mine, label="Take 牡丹 Peony chaff"))
    after = await state(world)
    assert after.drawn is None and "peony-ribbon" in after.piles[alice.id]


def test_progress_counts_toward_each_dekiyaku_and_sixteen_chaff() -> None:
    from cogs.hachihachi import art

    assert art.progress([]) == []
    assert art.progress(["pine-ribbon", "plum-ribbon", "peony-ribbon", "pine-chaff-1"]) == [
        ("Poetry 2/3", False),
        ("Blue 1/3", False),
        ("Seven Ribbons 3/7", False),
        ("Chaff 1/16", False),
    ]
    # The Rain Man turns the bright count to Five Brights; Willow counts as chaff (§13.2).
    four = ["pine-bright", "cherry-bright", "susuki-bright", "paulownia-bright"]
    assert art.progress(four)[0] == ("Four Brights 4/4", True)
    assert art.progress([*four, "willow-bright"])[0] == ("Five Brights 5/5", True)
    assert art.progress(["willow-ribbon"]) == [("Seven Ribbons 1/7", False), ("Chaff 1/16", False)]


def test_the_whole_deck_in_two_piles_fits_the_pictures_width() -> None:
    from cogs.hachihachi import art

    half = len(DECK) // 2
    rows = [
        art.Row(f"Pile {i}", tuple(pile), layout="pile", note=tuple(art.progress(pile)))
        for i, pile in enumerate([DECK[:half], DECK[half:]])
    ]
    image = art.render_rows(rows)
    width = int.from_bytes(image.png[16:20], "big")
    assert width <= art.MAX_W + 2 * art.MARGIN
    assert "brights — Crane with Sun, Curtain, Full Moon" in image.alt
