"""Nuki Hachi-hachi scoring helpers: teyaku, dekiyaku, card points, Sixteen Chaff (rules §10, §12.1,
§13.2) and the forced-out compensation of §8.

Everything here is a pure function of card ids and runs in every playout, so it works on
facts looked up once per card (month, points, chaff-likeness, a bit per card for the
dekiyaku sets) and plain month counts; no models, no validation beyond what is free.

What is computed
- ``group_a(hand)``: the Group A teyaku of a 7-card hand from its month-count signature
  (§10.2's table, which already takes the best reading: 3,2,2 is Triplet and Two Pairs, not
  Three Pairs; 4,2,1 is One-Two-Four, not Four of a Kind).
- ``group_b(hand)``: the Group B teyaku from the hand's cards that are not chaff-like (§10.3).
- ``teyaku(hand)``: best Group A then best Group B as ``(name, kan)`` (the contract's form).
- ``dekiyaku(pile)`` / ``dekiyaku_kan(pile)``: the dekiyaku in a score pile and their total D.
- ``card_points``, ``chaff_like_count``, ``sixteen_chaff_kan`` (12 + 2 per card over 16).
- ``compensation_points(hand, points_per_kan=...)``: §8's forced-out compensation
  (a) + (b) + (c) in points, before the field multiplier.

Rulings used (the rules file's, restated where the code depends on them)
- Willow rule (§2.3): a Willow card counts as chaff ONLY for Group B teyaku and Sixteen
  Chaff. For card points, dekiyaku and Group A it keeps its printed category: the Rain Man
  is one of the Five Brights and the Willow ribbon one of the Seven Ribbons.
- Four Brights are Crane, Curtain, Moon and Phoenix: the Rain Man is not one of them, so
  Crane, Curtain, Moon and Rain Man without the Phoenix score nothing (W14).
- Five Brights excludes Four Brights: a pile with all five scores Five Brights (12) only.
- Seven Ribbons (all 7 ribbons of the deck) always comes with Poetry and Blue Ribbons,
  10 + 7 + 7 = 24 kan; the maximum D is 12 + 24 = 36 kan.
- Boar-Deer-Butterflies (house option) can never complete: the Boar is a Bush Clover card,
  stripped from the deck. The option still counts the Deer and the Butterflies in
  compensation (c).
- Two triplets (3,3,1) are one Triplet (2 kan); ``triplet_months`` lists both and
  ``revealed`` holds the lower month's three cards (the auto-claim ruling of §10.2). A
  manual claim naming the other month reveals that month's cards instead.
- Compensation (c) excludes the cards of complete dekiyaku in (b) and the Group A cards
  revealed in (a), but never Group B cards: Group B reveals only chaff-like cards, which
  belong to no dekiyaku set anyway.
- Revealed cards are listed in deck order, whatever the hand's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from bot.games.hachihachi.cards import CARDS, DECK

Group = Literal["A", "B"]

# Per-card facts, looked up once: the helpers below only index these.
_MONTH: dict[str, int] = {card.id: card.month for card in CARDS.values()}
_POINTS: dict[str, int] = {card.id: card.points for card in CARDS.values()}
_INDEX: dict[str, int] = {card.id: card.index for card in CARDS.values()}
_BIT: dict[str, int] = {card.id: 1 << card.index for card in CARDS.values()}
_CHAFF_LIKE: frozenset[str] = frozenset(card.id for card in CARDS.values() if card.chaff_like)
# Group B looks only at the cards that are not chaff-like, by printed category.
_B_CATEGORY: dict[str, str] = {
    card.id: card.category for card in CARDS.values() if not card.chaff_like
}


def _mask(cards: Sequence[str]) -> int:
    mask = 0
    for card in cards:
        mask |= _BIT[card]
    return mask


# Group A by signature (§10.2): name and kan. With _NO_GROUP_A (the signatures worth
# nothing) this covers every 7-card hand of distinct cards; anything else is a bad hand.
_GROUP_A: dict[tuple[int, ...], tuple[str, int]] = {
    (4, 3): ("Four-Three", 20),
    (4, 2, 1): ("One-Two-Four", 8),
    (4, 1, 1, 1): ("Four of a Kind", 4),
    (3, 3, 1): ("Triplet", 2),
    (3, 2, 2): ("Triplet and Two Pairs", 8),
    (3, 2, 1, 1): ("Triplet", 2),
    (3, 1, 1, 1, 1): ("Triplet", 2),
    (2, 2, 2, 1): ("Three Pairs", 4),
}
_NO_GROUP_A: frozenset[tuple[int, ...]] = frozenset(
    {(2, 2, 1, 1, 1), (2, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 1, 1)}
)

GROUP_A_KAN: dict[str, int] = {
    "Triplet": 2,
    "Three Pairs": 4,
    "Four of a Kind": 4,
    "Triplet and Two Pairs": 8,
    "One-Two-Four": 8,
    "Four-Three": 20,
}
"""§10.1 Group A values in kan, in the rules' order (for tables shown to players)."""

GROUP_B_KAN: dict[str, int] = {
    "Red": 2,
    "One Ribbon": 3,
    "One Animal": 3,
    "One Bright": 4,
    "Empty Hand": 4,
}
"""§10.1 Group B values in kan, in the rules' order."""

DEKIYAKU_KAN: dict[str, int] = {
    "Five Brights": 12,
    "Four Brights": 10,
    "Seven Ribbons": 10,
    "Poetry Ribbons": 7,
    "Blue Ribbons": 7,
    "Boar-Deer-Butterflies": 7,
}
"""§12.1 dekiyaku values in kan, in the rules' order (the last only as a house option)."""

_FIVE_BRIGHTS = _mask(
    ["pine-bright", "cherry-bright", "susuki-bright", "willow-bright", "paulownia-bright"]
)
_FOUR_BRIGHTS = _mask(["pine-bright", "cherry-bright", "susuki-bright", "paulownia-bright"])
_SEVEN_RIBBONS = _mask([card.id for card in CARDS.values() if card.category == "ribbon"])
_POETRY_RIBBONS = _mask(["pine-ribbon", "plum-ribbon", "cherry-ribbon"])
_BLUE_RIBBONS = _mask(["peony-ribbon", "chrysanthemum-ribbon", "maple-ribbon"])
# The Boar was stripped with Bush Clover: its bit lies past the deck, so no pile holds it
# and the set below can never be complete (§12.1 ruling) while its two present cards still
# count in compensation (c).
_BOAR = 1 << len(DECK)
_DEER_BUTTERFLIES = _mask(["maple-animal", "peony-animal"])
_BOAR_DEER_BUTTERFLIES = _BOAR | _DEER_BUTTERFLIES
_DEKIYAKU_CARDS: dict[str, int] = {
    "Five Brights": _FIVE_BRIGHTS,
    "Four Brights": _FOUR_BRIGHTS,
    "Seven Ribbons": _SEVEN_RIBBONS,
    "Poetry Ribbons": _POETRY_RIBBONS,
    "Blue Ribbons": _BLUE_RIBBONS,
    "Boar-Deer-Butterflies": _BOAR_DEER_BUTTERFLIES,
}
# Compensation (c): the cards of the Five Brights, Poetry and Blue Ribbons sets.
_COMPENSATED = _FIVE_BRIGHTS | _POETRY_RIBBONS | _BLUE_RIBBONS


@dataclass(frozen=True, slots=True)
class Teyaku:
    """One teyaku found in a 7-card hand."""

    group: Group
    name: str
    kan: int
    revealed: tuple[str, ...]
    """Cards shown when claimed (§9.3), in deck order: Group A the combination (One-Two-Four
    all 7), Group B the chaff-like cards."""
    triplet_months: tuple[int, ...] = ()
    """Triplet or Triplet and Two Pairs (a triplet and no four): the triplet month(s),
    ascending (two with 3,3,1); otherwise ()."""


def _in_deck_order(cards: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=_INDEX.__getitem__))


def group_a(hand: Sequence[str]) -> Teyaku | None:
    """The Group A teyaku of a 7-card hand (§10.2), or None."""
    if len(hand) != 7:
        raise ValueError(f"a teyaku hand has 7 cards, not {len(hand)}")
    counts: dict[int, int] = {}
    for card in hand:
        month = _MONTH[card]
        counts[month] = counts.get(month, 0) + 1
    signature = tuple(sorted(counts.values(), reverse=True))
    found = _GROUP_A.get(signature)
    if found is None:
        if signature in _NO_GROUP_A:
            return None
        raise ValueError(f"not a hand of distinct cards: {list(hand)}")
    name, kan = found
    triplets = tuple(sorted(month for month, count in counts.items() if count == 3))
    if signature == (4, 1, 1, 1):
        shown = {month for month, count in counts.items() if count == 4}
    elif signature == (2, 2, 2, 1):
        shown = {month for month, count in counts.items() if count == 2}
    elif name == "Triplet":
        # Two triplets pay as one; the shown one is the lower month (auto-claim ruling).
        shown = {triplets[0]}
    else:
        # Four-Three, One-Two-Four and Triplet and Two Pairs use all seven cards.
        shown = set(counts)
    has_four = signature[0] == 4
    return Teyaku(
        group="A",
        name=name,
        kan=kan,
        revealed=_in_deck_order([card for card in hand if _MONTH[card] in shown]),
        triplet_months=() if has_four else triplets,
    )


def group_b(hand: Sequence[str]) -> Teyaku | None:
    """The Group B teyaku of a 7-card hand (§10.3), or None.

    Only the cards that are not chaff-like decide (Willow cards are chaff here)."""
    if len(hand) != 7:
        raise ValueError(f"a teyaku hand has 7 cards, not {len(hand)}")
    others = [_B_CATEGORY[card] for card in hand if card not in _CHAFF_LIKE]
    if not others:
        name = "Empty Hand"
    elif len(others) == 1:
        name = {"bright": "One Bright", "animal": "One Animal", "ribbon": "One Ribbon"}[others[0]]
    elif all(category == "ribbon" for category in others):
        # Every ribbon that is not chaff-like is a poetry or blue ribbon.
        name = "Red"
    else:
        return None
    return Teyaku(
        group="B",
        name=name,
        kan=GROUP_B_KAN[name],
        revealed=_in_deck_order([card for card in hand if card in _CHAFF_LIKE]),
    )


def teyaku(hand: list[str]) -> list[tuple[str, int]]:
    """The hand's best Group A then best Group B teyaku as ``(name, kan)`` (§10.1)."""
    return [(found.name, found.kan) for found in (group_a(hand), group_b(hand)) if found]


def _dekiyaku_of_mask(mask: int, boar_deer_butterflies: bool) -> list[tuple[str, int]]:
    found: list[tuple[str, int]] = []
    if mask & _FIVE_BRIGHTS == _FIVE_BRIGHTS:
        found.append(("Five Brights", 12))
    elif mask & _FOUR_BRIGHTS == _FOUR_BRIGHTS:
        found.append(("Four Brights", 10))
    if mask & _SEVEN_RIBBONS == _SEVEN_RIBBONS:
        found.append(("Seven Ribbons", 10))
    if mask & _POETRY_RIBBONS == _POETRY_RIBBONS:
        found.append(("Poetry Ribbons", 7))
    if mask & _BLUE_RIBBONS == _BLUE_RIBBONS:
        found.append(("Blue Ribbons", 7))
    if boar_deer_butterflies and mask & _BOAR_DEER_BUTTERFLIES == _BOAR_DEER_BUTTERFLIES:
        found.append(("Boar-Deer-Butterflies", 7))
    return found


def dekiyaku(pile: list[str], *, boar_deer_butterflies: bool = False) -> list[tuple[str, int]]:
    """The dekiyaku in a score pile as ``(name, kan)``, in the order of §12.1."""
    return _dekiyaku_of_mask(_mask(pile), boar_deer_butterflies)


def dekiyaku_kan(pile: Sequence[str], *, boar_deer_butterflies: bool = False) -> int:
    """The pile's dekiyaku total D in kan (0 to 36)."""
    return sum(kan for _, kan in _dekiyaku_of_mask(_mask(pile), boar_deer_butterflies))


def card_points(pile: list[str]) -> int:
    """The pile's card points (§2.2: Bright 20, Animal 10, Ribbon 5, Chaff 1; Willow too)."""
    return sum(_POINTS[card] for card in pile)


def chaff_like_count(pile: Sequence[str]) -> int:
    """How many of the pile's cards are chaff-like (Chaff or any Willow card, §2.3)."""
    return sum(1 for card in pile if card in _CHAFF_LIKE)


def sixteen_chaff_kan(pile: Sequence[str]) -> int:
    """Sixteen Chaff's value in kan (§13.2): 12 + 2 per chaff-like card over 16, else 0.

    Whether it applies (no dekiyaku in either pile) is the caller's check."""
    count = chaff_like_count(pile)
    return 12 + 2 * (count - 16) if count >= 16 else 0


def compensation_points(
    hand: Sequence[str], *, points_per_kan: int, boar_deer_butterflies: bool = False
) -> int:
    """A forced-out player's compensation (§8) in points, before the field multiplier.

    (a) half the best Group A plus best Group B teyaku; (b) half of each dekiyaku already
    complete within the 7 cards; (c) 3 points per card of the Five Brights, Poetry Ribbons
    or Blue Ribbons sets (and the Deer and Butterflies with Boar-Deer-Butterflies) that is
    neither in a complete dekiyaku of (b) nor revealed for the Group A teyaku of (a).
    Halves are whole: ``points_per_kan`` is 10 or 12.
    """
    found_a = group_a(hand)
    found_b = group_b(hand)
    teyaku_kan = (found_a.kan if found_a else 0) + (found_b.kan if found_b else 0)
    mask = _mask(hand)
    complete = _dekiyaku_of_mask(mask, boar_deer_butterflies)
    dekiyaku_total = sum(kan for _, kan in complete)
    # Excluded from (c): the cards of the complete dekiyaku, then those revealed for Group A.
    used = 0
    for name, _ in complete:
        used |= _DEKIYAKU_CARDS[name]
    valuable = _COMPENSATED | _DEER_BUTTERFLIES if boar_deer_butterflies else _COMPENSATED
    if found_a is not None:
        used |= _mask(found_a.revealed)
    loose = (mask & valuable & ~used).bit_count()
    return (teyaku_kan + dekiyaku_total) * points_per_kan // 2 + 3 * loose
