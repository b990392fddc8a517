"""Nuki Hachi-hachi scoring helpers (rules §2, §8, §10, §12.1, §13.2, worked examples W1–W16).

The expected values are written out from the rules file, not read from ``yaku``'s own tables,
so a wrong entry there cannot agree with itself here.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.hachihachi.cards import CARDS, DECK
from bot.games.hachihachi.yaku import (
    Teyaku,
    card_points,
    chaff_like_count,
    compensation_points,
    dekiyaku,
    dekiyaku_kan,
    group_a,
    group_b,
    sixteen_chaff_kan,
    teyaku,
)

# §10.1, copied by hand.
GROUP_A_VALUES = {
    "Triplet": 2,
    "Three Pairs": 4,
    "Four of a Kind": 4,
    "Triplet and Two Pairs": 8,
    "One-Two-Four": 8,
    "Four-Three": 20,
}
GROUP_B_VALUES = {"Red": 2, "One Ribbon": 3, "One Animal": 3, "One Bright": 4, "Empty Hand": 4}
# §12.1, copied by hand.
DEKIYAKU_VALUES = {
    "Five Brights": 12,
    "Four Brights": 10,
    "Seven Ribbons": 10,
    "Poetry Ribbons": 7,
    "Blue Ribbons": 7,
}
FIVE = {"pine-bright", "cherry-bright", "susuki-bright", "willow-bright", "paulownia-bright"}
FOUR = FIVE - {"willow-bright"}
POETRY = {"pine-ribbon", "plum-ribbon", "cherry-ribbon"}
BLUE = {"peony-ribbon", "chrysanthemum-ribbon", "maple-ribbon"}
SEVEN = POETRY | BLUE | {"willow-ribbon"}
CHAFF_LIKE = {card for card in DECK if card.endswith(("-chaff", "-chaff-1", "-chaff-2"))} | {
    card for card in DECK if card.startswith("willow-")
}

hands = st.permutations(DECK).map(lambda deck: deck[:7])
_random_piles = st.lists(st.booleans(), min_size=34, max_size=34).map(
    lambda keep: [card for card, kept in zip(DECK, keep, strict=True) if kept]
)
# Whole dekiyaku sets are rare in uniform piles: add some on purpose.
piles = st.tuples(
    _random_piles, st.lists(st.sampled_from([FIVE, FOUR, POETRY, BLUE, SEVEN]), max_size=3)
).map(lambda drawn: [card for card in DECK if card in set(drawn[0]).union(*drawn[1])])


def _found(found: Teyaku | None) -> tuple[str, int] | None:
    return None if found is None else (found.name, found.kan)


def _signature(hand: list[str]) -> tuple[int, ...]:
    return tuple(sorted(Counter(CARDS[card].month for card in hand).values(), reverse=True))


# ---------------------------------------------------------------------------------------
# W1–W16


def test_w1_deck_totals() -> None:
    categories = Counter(CARDS[card].category for card in DECK)
    assert categories == {"bright": 5, "animal": 6, "ribbon": 7, "chaff": 16}
    assert card_points(list(DECK)) == 211
    assert chaff_like_count(DECK) == 19
    assert chaff_like_count(DECK) == len(CHAFF_LIKE)
    assert 106 == 211 // 2 + 1


def test_w2_four_three() -> None:
    hand = [
        "susuki-bright",
        "susuki-animal",
        "susuki-chaff-1",
        "susuki-chaff-2",
        "maple-animal",
        "maple-ribbon",
        "maple-chaff-1",
    ]
    found = group_a(hand)
    assert found is not None
    assert (found.name, found.kan, found.group) == ("Four-Three", 20, "A")
    assert set(found.revealed) == set(hand)
    assert found.triplet_months == ()  # a four: never Diving-eligible
    assert group_b(hand) is None
    assert teyaku(hand) == [("Four-Three", 20)]


def test_w3_one_two_four_and_empty_hand() -> None:
    hand = [
        "willow-bright",
        "willow-animal",
        "willow-ribbon",
        "willow-chaff",
        "pine-chaff-1",
        "pine-chaff-2",
        "plum-chaff-1",
    ]
    found = group_a(hand)
    assert found is not None and (found.name, found.kan) == ("One-Two-Four", 8)
    assert set(found.revealed) == set(hand)
    assert found.triplet_months == ()
    assert _found(group_b(hand)) == ("Empty Hand", 4)
    assert teyaku(hand) == [("One-Two-Four", 8), ("Empty Hand", 4)]


def test_w4_triplet_and_two_pairs_beats_three_pairs() -> None:
    hand = [
        "cherry-bright",
        "cherry-ribbon",
        "cherry-chaff-1",
        "peony-chaff-1",
        "peony-chaff-2",
        "maple-chaff-1",
        "maple-chaff-2",
    ]
    found = group_a(hand)
    assert found is not None and (found.name, found.kan) == ("Triplet and Two Pairs", 8)
    assert found.triplet_months == (3,)  # Diving-eligible on Cherry
    assert set(found.revealed) == set(hand)
    assert group_b(hand) is None
    assert teyaku(hand) == [("Triplet and Two Pairs", 8)]


def test_w5_three_pairs_and_red() -> None:
    hand = [
        "pine-ribbon",
        "pine-chaff-1",
        "plum-ribbon",
        "plum-chaff-2",
        "chrysanthemum-chaff-1",
        "chrysanthemum-chaff-2",
        "peony-chaff-1",
    ]
    found = group_a(hand)
    assert found is not None and (found.name, found.kan) == ("Three Pairs", 4)
    assert set(found.revealed) == set(hand) - {"peony-chaff-1"}
    assert found.triplet_months == ()
    red = group_b(hand)
    assert red is not None and (red.name, red.kan) == ("Red", 2)
    assert set(red.revealed) == set(hand) - {"pine-ribbon", "plum-ribbon"}
    assert teyaku(hand) == [("Three Pairs", 4), ("Red", 2)]


def test_w6_two_triplets_pay_as_one_triplet() -> None:
    hand = [
        "pine-bright",
        "pine-chaff-1",
        "pine-chaff-2",
        "maple-chaff-1",
        "maple-chaff-2",
        "maple-ribbon",
        "willow-chaff",
    ]
    found = group_a(hand)
    assert found is not None and (found.name, found.kan) == ("Triplet", 2)
    assert found.triplet_months == (1, 10)
    # The auto-claim names the lower month: its three cards are the ones shown.
    assert found.revealed == ("pine-bright", "pine-chaff-1", "pine-chaff-2")
    assert group_b(hand) is None
    assert teyaku(hand) == [("Triplet", 2)]


def test_w7_four_of_a_kind_alone() -> None:
    hand = [
        "chrysanthemum-animal",
        "chrysanthemum-ribbon",
        "chrysanthemum-chaff-1",
        "chrysanthemum-chaff-2",
        "pine-chaff-1",
        "plum-chaff-1",
        "peony-chaff-1",
    ]
    found = group_a(hand)
    assert found is not None and (found.name, found.kan) == ("Four of a Kind", 4)
    assert found.revealed == tuple(hand[:4])
    assert found.triplet_months == ()
    assert group_b(hand) is None
    assert teyaku(hand) == [("Four of a Kind", 4)]


def test_w8_willow_ribbon_is_chaff_one_ribbon_not_red() -> None:
    hand = [
        "pine-ribbon",
        "willow-ribbon",
        "cherry-chaff-1",
        "peony-chaff-2",
        "susuki-chaff-1",
        "maple-chaff-1",
        "paulownia-chaff",
    ]
    assert group_a(hand) is None
    found = group_b(hand)
    assert found is not None and (found.name, found.kan) == ("One Ribbon", 3)
    assert len(found.revealed) == 6 and "willow-ribbon" in found.revealed
    assert "pine-ribbon" not in found.revealed
    assert teyaku(hand) == [("One Ribbon", 3)]


def test_w9_rain_man_is_chaff_empty_hand_not_one_bright() -> None:
    hand = [
        "willow-bright",
        "plum-chaff-1",
        "cherry-chaff-2",
        "peony-chaff-1",
        "chrysanthemum-chaff-1",
        "maple-chaff-2",
        "susuki-chaff-2",
    ]
    assert group_a(hand) is None
    found = group_b(hand)
    assert found is not None and (found.name, found.kan) == ("Empty Hand", 4)
    assert set(found.revealed) == set(hand)
    assert teyaku(hand) == [("Empty Hand", 4)]


def test_w10_triplet_and_one_bright() -> None:
    hand = [
        "pine-bright",
        "pine-chaff-1",
        "pine-chaff-2",
        "plum-chaff-1",
        "cherry-chaff-1",
        "willow-animal",
        "paulownia-chaff",
    ]
    found = group_a(hand)
    assert found is not None and (found.name, found.kan) == ("Triplet", 2)
    assert found.triplet_months == (1,)
    assert found.revealed == ("pine-bright", "pine-chaff-1", "pine-chaff-2")
    assert _found(group_b(hand)) == ("One Bright", 4)
    assert teyaku(hand) == [("Triplet", 2), ("One Bright", 4)]


def test_w11_swallow_is_chaff_one_animal() -> None:
    hand = [
        "chrysanthemum-animal",
        "willow-animal",
        "willow-chaff",
        "pine-chaff-2",
        "cherry-chaff-2",
        "peony-chaff-2",
        "susuki-chaff-2",
    ]
    assert _signature(hand) == (2, 1, 1, 1, 1, 1)
    assert group_a(hand) is None  # a lone pair is nothing
    assert _found(group_b(hand)) == ("One Animal", 3)
    assert teyaku(hand) == [("One Animal", 3)]


def test_w12_no_teyaku() -> None:
    hand = [
        "pine-bright",
        "cherry-bright",
        "plum-animal",
        "peony-ribbon",
        "susuki-chaff-1",
        "maple-chaff-1",
        "chrysanthemum-chaff-1",
    ]
    assert group_a(hand) is None
    assert group_b(hand) is None
    assert teyaku(hand) == []


def test_w13_five_brights_excludes_four_brights() -> None:
    pile = [
        "pine-bright",
        "pine-chaff-1",
        "cherry-bright",
        "cherry-chaff-2",
        "susuki-bright",
        "susuki-chaff-1",
        "willow-bright",
        "willow-chaff",
        "paulownia-bright",
        "paulownia-chaff",
    ]
    assert card_points(pile) == 105
    assert dekiyaku(pile) == [("Five Brights", 12)]
    assert dekiyaku_kan(pile) == 12


def test_w14_four_brights_with_the_rain_man_is_nothing() -> None:
    pile = [
        "pine-bright",
        "pine-ribbon",
        "cherry-bright",
        "cherry-chaff-1",
        "susuki-bright",
        "susuki-animal",
        "willow-bright",
        "willow-animal",
    ]
    assert card_points(pile) == 106
    assert dekiyaku(pile) == []
    assert dekiyaku_kan(pile) == 0
    # The Phoenix instead of the Rain Man is Four Brights.
    with_phoenix = [*pile[:6], "paulownia-bright", "paulownia-chaff"]
    assert dekiyaku(with_phoenix) == [("Four Brights", 10)]


def test_w15_seven_ribbons_is_cumulative() -> None:
    ribbons = [
        "pine-ribbon",
        "plum-ribbon",
        "cherry-ribbon",
        "peony-ribbon",
        "chrysanthemum-ribbon",
        "maple-ribbon",
        "willow-ribbon",
    ]
    chaff = [
        "pine-chaff-1",
        "plum-chaff-1",
        "cherry-chaff-1",
        "peony-chaff-1",
        "chrysanthemum-chaff-1",
        "maple-chaff-1",
        "willow-chaff",
    ]
    pile = [card for pair in zip(ribbons, chaff, strict=True) for card in pair]
    assert dekiyaku(pile) == [("Seven Ribbons", 10), ("Poetry Ribbons", 7), ("Blue Ribbons", 7)]
    assert dekiyaku_kan(pile) == 24
    # Without the Willow ribbon only the two sets of three are left.
    six = [card for card in pile if card != "willow-ribbon"]
    assert dekiyaku_kan(six) == 14


def test_w16_sixteen_chaff() -> None:
    pile = [
        "pine-chaff-1",
        "pine-chaff-2",
        "plum-chaff-1",
        "plum-chaff-2",
        "cherry-chaff-1",
        "cherry-chaff-2",
        "peony-chaff-1",
        "peony-chaff-2",
        "susuki-chaff-1",
        "susuki-chaff-2",
        "chrysanthemum-chaff-1",
        "chrysanthemum-chaff-2",
        "maple-ribbon",
        "maple-chaff-1",
        "willow-bright",
        "willow-animal",
        "willow-ribbon",
        "willow-chaff",
    ]
    assert len(pile) == 18
    assert card_points(pile) == 54
    assert chaff_like_count(pile) == 17
    assert dekiyaku(pile) == []
    assert sixteen_chaff_kan(pile) == 14


# ---------------------------------------------------------------------------------------
# §10.2: the signature table


def _hand_of(signature: tuple[int, ...]) -> list[str]:
    """A hand with this signature: the largest counts from the four-card months, in order."""
    months = sorted({CARDS[card].month for card in DECK}, key=lambda m: (m == 12, m))
    hand: list[str] = []
    for count, month in zip(signature, months, strict=False):
        hand += [card for card in DECK if CARDS[card].month == month][:count]
    return hand


SIGNATURE_TABLE = [
    ((4, 3), ("Four-Three", 20)),
    ((4, 2, 1), ("One-Two-Four", 8)),
    ((4, 1, 1, 1), ("Four of a Kind", 4)),
    ((3, 3, 1), ("Triplet", 2)),
    ((3, 2, 2), ("Triplet and Two Pairs", 8)),
    ((3, 2, 1, 1), ("Triplet", 2)),
    ((3, 1, 1, 1, 1), ("Triplet", 2)),
    ((2, 2, 2, 1), ("Three Pairs", 4)),
    ((2, 2, 1, 1, 1), None),
    ((2, 1, 1, 1, 1, 1), None),
    ((1, 1, 1, 1, 1, 1, 1), None),
]
SIGNATURES = dict(SIGNATURE_TABLE)


@pytest.mark.parametrize(("signature", "expected"), SIGNATURE_TABLE)
def test_signature_table(signature: tuple[int, ...], expected: tuple[str, int] | None) -> None:
    hand = _hand_of(signature)
    assert _signature(hand) == signature
    assert _found(group_a(hand)) == expected
    assert _found(group_a(list(reversed(hand)))) == expected


def test_signature_table_is_exhaustive() -> None:
    def partitions(total: int, largest: int) -> list[tuple[int, ...]]:
        if total == 0:
            return [()]
        return [
            (part, *rest)
            for part in range(min(total, largest), 0, -1)
            for rest in partitions(total - part, part)
        ]

    assert set(partitions(7, 4)) == set(SIGNATURES)


# ---------------------------------------------------------------------------------------
# Properties over random 7-card hands


def _best_group_a(hand: list[str]) -> tuple[str, int] | None:
    """Every reading of §10.2 in words, the best one taken (an oracle independent of the table)."""
    counts = sorted(Counter(CARDS[card].month for card in hand).values(), reverse=True)
    readings: list[tuple[str, int]] = []
    if 4 in counts and 3 in counts:
        readings.append(("Four-Three", 20))
    if counts == [4, 2, 1]:
        readings.append(("One-Two-Four", 8))
    if 4 in counts:
        readings.append(("Four of a Kind", 4))
    if counts == [3, 2, 2]:
        readings.append(("Triplet and Two Pairs", 8))
    if 3 in counts and 4 not in counts:
        readings.append(("Triplet", 2))
    if sum(1 for count in counts if count in (2, 3)) >= 3:
        readings.append(("Three Pairs", 4))
    return max(readings, key=lambda reading: reading[1], default=None)


def _group_b_rows(hand: list[str]) -> list[tuple[str, int]]:
    """Every row of §10.3 whose condition holds (at most one should)."""
    others = [CARDS[card].category for card in hand if card not in CHAFF_LIKE]
    rows = [
        ("Empty Hand", 4, others == []),
        ("One Bright", 4, others == ["bright"]),
        ("One Animal", 3, others == ["animal"]),
        ("One Ribbon", 3, others == ["ribbon"]),
        ("Red", 2, len(others) >= 2 and set(others) == {"ribbon"}),
    ]
    return [(name, kan) for name, kan, holds in rows if holds]


@settings(max_examples=400, deadline=None)
@given(hands)
def test_group_a_depends_only_on_the_signature(hand: list[str]) -> None:
    found = group_a(hand)
    assert _found(found) == SIGNATURES[_signature(hand)]
    assert _found(found) == _best_group_a(hand)
    assert _found(group_a(list(reversed(hand)))) == _found(found)


@settings(max_examples=400, deadline=None)
@given(hands)
def test_at_most_one_group_b_row(hand: list[str]) -> None:
    rows = _group_b_rows(hand)
    assert len(rows) <= 1
    assert _found(group_b(hand)) == (rows[0] if rows else None)


@settings(max_examples=400, deadline=None)
@given(hands)
def test_revealed_cards_are_in_the_hand(hand: list[str]) -> None:
    found_a = group_a(hand)
    found_b = group_b(hand)
    if found_a is not None:
        assert set(found_a.revealed) <= set(hand)
        assert len(set(found_a.revealed)) == len(found_a.revealed)
        # The shown cards are whole months of the hand.
        shown = {CARDS[card].month for card in found_a.revealed}
        assert set(found_a.revealed) == {card for card in hand if CARDS[card].month in shown}
        triplets = sorted(m for m, n in Counter(CARDS[c].month for c in hand).items() if n == 3)
        four = 4 in Counter(CARDS[card].month for card in hand).values()
        assert found_a.triplet_months == (() if four else tuple(triplets))
    if found_b is not None:
        assert set(found_b.revealed) == set(hand) & CHAFF_LIKE
        assert found_b.triplet_months == ()
    for found in (found_a, found_b):
        if found is not None:
            assert list(found.revealed) == sorted(found.revealed, key=DECK.index)


@settings(max_examples=400, deadline=None)
@given(hands)
def test_teyaku_is_best_a_then_best_b(hand: list[str]) -> None:
    expected = [found for found in (_best_group_a(hand), *_group_b_rows(hand)) if found]
    assert teyaku(hand) == expected
    for name, kan in teyaku(hand):
        assert {**GROUP_A_VALUES, **GROUP_B_VALUES}[name] == kan
    found_a, found_b = group_a(hand), group_b(hand)
    assert found_a is None or (found_a.group, found_a.kan) == ("A", GROUP_A_VALUES[found_a.name])
    assert found_b is None or (found_b.group, found_b.kan) == ("B", GROUP_B_VALUES[found_b.name])


# ---------------------------------------------------------------------------------------
# Properties over random piles


def _reference_dekiyaku(pile: list[str]) -> list[tuple[str, int]]:
    held = set(pile)
    found: list[tuple[str, int]] = []
    if held >= FIVE:
        found.append(("Five Brights", 12))
    elif held >= FOUR:
        found.append(("Four Brights", 10))
    for name, cards in (
        ("Seven Ribbons", SEVEN),
        ("Poetry Ribbons", POETRY),
        ("Blue Ribbons", BLUE),
    ):
        if cards <= held:
            found.append((name, DEKIYAKU_VALUES[name]))
    return found


@settings(max_examples=400, deadline=None)
@given(piles, st.booleans())
def test_dekiyaku_of_random_piles(pile: list[str], boar_deer_butterflies: bool) -> None:
    found = dekiyaku(pile, boar_deer_butterflies=boar_deer_butterflies)
    names = [name for name, _ in found]
    assert not {"Four Brights", "Five Brights"} <= set(names)
    if "Seven Ribbons" in names:
        assert {"Poetry Ribbons", "Blue Ribbons"} <= set(names)
        assert {"peony-ribbon", "pine-ribbon"} <= set(pile)
    assert found == _reference_dekiyaku(pile)
    assert all(DEKIYAKU_VALUES[name] == kan for name, kan in found)
    assert dekiyaku_kan(pile, boar_deer_butterflies=boar_deer_butterflies) == sum(
        kan for _, kan in found
    )
    assert 0 <= dekiyaku_kan(pile) <= 36


@settings(max_examples=300, deadline=None)
@given(piles)
def test_card_points_and_chaff_of_random_piles(pile: list[str]) -> None:
    rest = [card for card in DECK if card not in pile]
    assert card_points(pile) + card_points(rest) == 211
    assert card_points(pile) == sum(CARDS[card].points for card in pile)
    assert chaff_like_count(pile) + chaff_like_count(rest) == 19
    assert chaff_like_count(pile) == len(set(pile) & CHAFF_LIKE)


@pytest.mark.parametrize(
    ("count", "kan"), [(0, 0), (15, 0), (16, 12), (17, 14), (18, 16), (19, 18)]
)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_sixteen_chaff_kan(count: int, kan: int, data: st.DataObject) -> None:
    chaff = data.draw(st.permutations(sorted(CHAFF_LIKE)))[:count]
    others = data.draw(st.lists(st.sampled_from(sorted(set(DECK) - CHAFF_LIKE)), unique=True))
    pile = data.draw(st.permutations(chaff + others))
    assert chaff_like_count(pile) == count
    assert sixteen_chaff_kan(pile) == kan


def test_whole_deck() -> None:
    assert card_points(list(DECK)) == 211
    assert chaff_like_count(DECK) == 19
    assert sixteen_chaff_kan(DECK) == 18
    assert dekiyaku(list(DECK)) == [
        ("Five Brights", 12),
        ("Seven Ribbons", 10),
        ("Poetry Ribbons", 7),
        ("Blue Ribbons", 7),
    ]
    assert dekiyaku_kan(DECK) == 36


def test_boar_deer_butterflies_never_completes() -> None:
    deer_butterflies = ["maple-animal", "peony-animal"]
    assert dekiyaku(deer_butterflies, boar_deer_butterflies=True) == []
    assert dekiyaku(list(DECK), boar_deer_butterflies=True) == dekiyaku(list(DECK))
    assert dekiyaku_kan(DECK, boar_deer_butterflies=True) == 36


def test_empty_pile_and_valid_inputs() -> None:
    assert dekiyaku([]) == []
    assert dekiyaku([], boar_deer_butterflies=True) == []
    assert dekiyaku_kan([]) == 0
    assert dekiyaku_kan(()) == 0
    assert card_points([]) == 0
    assert chaff_like_count([]) == 0
    assert chaff_like_count(()) == 0
    assert sixteen_chaff_kan([]) == 0
    # Any sequence of ids is taken, not only lists.
    assert dekiyaku_kan(tuple(FIVE)) == 12
    assert group_a(tuple(_hand_of((4, 3)))) is not None
    # Pine 4 + Plum 3: Four-Three 20 → (a) 10 kan; every valuable card is revealed.
    assert compensation_points(tuple(DECK[:7]), points_per_kan=10) == 100
    # Willow 4, Paulownia 2, Maple 1: One-Two-Four 8 + One Bright 4 (the Phoenix) → (a) 6 kan;
    # the Phoenix is revealed with all seven for One-Two-Four.
    assert compensation_points(DECK[27:34], points_per_kan=12) == 72


@pytest.mark.parametrize("size", [0, 6, 8])
def test_teyaku_needs_seven_cards(size: int) -> None:
    hand = DECK[:size]
    with pytest.raises(ValueError):
        group_a(hand)
    with pytest.raises(ValueError):
        group_b(hand)
    with pytest.raises(ValueError):
        teyaku(hand)


def test_a_repeated_card_is_refused() -> None:
    hand = ["pine-chaff-1"] * 5 + ["plum-chaff-1", "cherry-chaff-1"]
    with pytest.raises(ValueError):
        group_a(hand)


# ---------------------------------------------------------------------------------------
# §8 forced-out compensation, worked out by hand


COMPENSATION = [
    pytest.param(
        # No teyaku (sig 2,2,1,1,1; X mixed). (b) Poetry Ribbons complete: half of 7 kan.
        # (c) Crane and Curtain (Five Brights cards, no complete set): 2 × 3.
        # The three poetry ribbons are in (b), so not in (c).
        [
            "pine-ribbon",
            "plum-ribbon",
            "cherry-ribbon",
            "pine-bright",
            "cherry-bright",
            "susuki-chaff-1",
            "maple-chaff-1",
        ],
        {10: 35 + 6, 12: 42 + 6},
        id="poetry-ribbons-in-hand",
    ),
    pytest.param(
        # W10: Triplet 2 + One Bright 4 → (a) 3 kan. The Crane is revealed for the
        # Triplet (Group A), so it earns no (c).
        [
            "pine-bright",
            "pine-chaff-1",
            "pine-chaff-2",
            "plum-chaff-1",
            "cherry-chaff-1",
            "willow-animal",
            "paulownia-chaff",
        ],
        {10: 30, 12: 36},
        id="w10-triplet-one-bright",
    ),
    pytest.param(
        # Triplet (Cherry) 2 → (a) 1 kan. (c): the Cherry ribbon is revealed (out);
        # Crane, Moon, Rain Man (Five Brights set) and the Peony ribbon (Blue): 4 × 3.
        [
            "cherry-chaff-1",
            "cherry-chaff-2",
            "cherry-ribbon",
            "pine-bright",
            "susuki-bright",
            "peony-ribbon",
            "willow-bright",
        ],
        {10: 10 + 12, 12: 12 + 12},
        id="triplet-with-loose-brights",
    ),
    pytest.param(
        # No Group A; One Bright 4 → (a) 2 kan. Group B reveals only chaff-like cards,
        # so the Crane still earns (c): 3.
        [
            "pine-bright",
            "plum-chaff-1",
            "cherry-chaff-1",
            "peony-chaff-1",
            "susuki-chaff-1",
            "maple-chaff-1",
            "willow-ribbon",
        ],
        {10: 20 + 3, 12: 24 + 3},
        id="one-bright-not-excluded",
    ),
    pytest.param(
        # All seven ribbons: Red 2 → (a) 1 kan; (b) Seven + Poetry + Blue 24 → 12 kan;
        # (c) every ribbon is in a complete dekiyaku: 0.
        sorted(SEVEN, key=DECK.index),
        {10: 10 + 120, 12: 12 + 144},
        id="seven-ribbons-in-hand",
    ),
    pytest.param(
        # Five Brights (12 → 6 kan) and no teyaku (seven months; X mixed).
        # (c) the Peony ribbon: 3; the Deer counts only with Boar-Deer-Butterflies.
        [
            "pine-bright",
            "cherry-bright",
            "susuki-bright",
            "willow-bright",
            "paulownia-bright",
            "peony-ribbon",
            "maple-animal",
        ],
        {10: 60 + 3, 12: 72 + 3},
        id="five-brights-in-hand",
    ),
]


@pytest.mark.parametrize(("hand", "expected"), COMPENSATION)
@pytest.mark.parametrize("points_per_kan", [10, 12])
def test_compensation_by_hand(
    hand: list[str], expected: dict[int, int], points_per_kan: int
) -> None:
    assert compensation_points(hand, points_per_kan=points_per_kan) == expected[points_per_kan]


def test_compensation_with_boar_deer_butterflies() -> None:
    hand = [
        "pine-bright",
        "cherry-bright",
        "susuki-bright",
        "willow-bright",
        "paulownia-bright",
        "peony-ribbon",
        "maple-animal",
    ]
    # The Deer joins (c), the set never completes: 60 + 3 + 3.
    assert compensation_points(hand, points_per_kan=10, boar_deer_butterflies=True) == 66
    # Butterflies and Deer together, no teyaku (seven months, X mixed): 2 × 3 with the option.
    pair = [
        "peony-animal",
        "maple-animal",
        "pine-chaff-1",
        "plum-chaff-1",
        "cherry-chaff-1",
        "susuki-animal",
        "willow-chaff",
    ]
    assert teyaku(pair) == []
    assert compensation_points(pair, points_per_kan=10) == 0
    assert compensation_points(pair, points_per_kan=10, boar_deer_butterflies=True) == 6


@settings(max_examples=300, deadline=None)
@given(hands, st.sampled_from([10, 12]))
def test_compensation_bounds(hand: list[str], points_per_kan: int) -> None:
    points = compensation_points(hand, points_per_kan=points_per_kan)
    teyaku_kan = sum(kan for _, kan in teyaku(hand))
    floor = (teyaku_kan + dekiyaku_kan(hand)) * points_per_kan // 2
    valuable = FIVE | POETRY | BLUE
    assert floor <= points <= floor + 3 * len(set(hand) & valuable)
