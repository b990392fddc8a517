"""The 34-card stripped hanafuda deck of Nuki Hachi-hachi (rules §2).

Card ids, their order (``DECK``) and every card's facts are fixed by the rules file's
table §2.1; outside acceptance tests import ``DECK`` and deal from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Category = Literal["bright", "animal", "ribbon", "chaff"]
RibbonKind = Literal["poetry", "blue", "plain"]

POINTS: dict[Category, int] = {"bright": 20, "animal": 10, "ribbon": 5, "chaff": 1}
"""Card points by category (§2.2); Willow cards keep their printed value."""

WILLOW = 11
PAULOWNIA = 12


@dataclass(frozen=True, slots=True)
class Month:
    number: int
    name: str
    plant: str
    kanji: str


MONTHS: dict[int, Month] = {
    month.number: month
    for month in (
        Month(1, "Pine", "pine", "松"),
        Month(2, "Plum", "plum blossom", "梅"),
        Month(3, "Cherry", "cherry blossom", "桜"),
        Month(6, "Peony", "peony", "牡丹"),
        Month(8, "Susuki", "pampas grass", "芒"),
        Month(9, "Chrysanthemum", "chrysanthemum", "菊"),
        Month(10, "Maple", "maple", "紅葉"),
        Month(11, "Willow", "willow", "柳"),
        Month(12, "Paulownia", "paulownia", "桐"),
    )
}
"""The nine months left in the stripped deck, by month number."""


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    index: int
    month: int
    category: Category
    ribbon: RibbonKind | None
    name: str

    @property
    def points(self) -> int:
        return POINTS[self.category]

    @property
    def chaff_like(self) -> bool:
        """Chaff, or any Willow card (§2.3): used only by Group B teyaku and Sixteen Chaff."""
        return self.category == "chaff" or self.month == WILLOW

    @property
    def month_name(self) -> str:
        return MONTHS[self.month].name

    @property
    def rank(self) -> int:
        """Rank within its month when drawing for the first dealer (§4): its points."""
        return self.points


def _card(index: int, id: str, category: Category, ribbon: RibbonKind | None, name: str) -> Card:
    month = next(m.number for m in MONTHS.values() if id.startswith(m.name.lower()))
    return Card(id, index, month, category, ribbon, name)


_TABLE: tuple[tuple[str, Category, RibbonKind | None, str], ...] = (
    ("pine-bright", "bright", None, "Crane with Sun"),
    ("pine-ribbon", "ribbon", "poetry", "Pine poetry ribbon"),
    ("pine-chaff-1", "chaff", None, "Pine chaff"),
    ("pine-chaff-2", "chaff", None, "Pine chaff"),
    ("plum-animal", "animal", None, "Bush Warbler"),
    ("plum-ribbon", "ribbon", "poetry", "Plum poetry ribbon"),
    ("plum-chaff-1", "chaff", None, "Plum chaff"),
    ("plum-chaff-2", "chaff", None, "Plum chaff"),
    ("cherry-bright", "bright", None, "Curtain"),
    ("cherry-ribbon", "ribbon", "poetry", "Cherry poetry ribbon"),
    ("cherry-chaff-1", "chaff", None, "Cherry chaff"),
    ("cherry-chaff-2", "chaff", None, "Cherry chaff"),
    ("peony-animal", "animal", None, "Butterflies"),
    ("peony-ribbon", "ribbon", "blue", "Peony blue ribbon"),
    ("peony-chaff-1", "chaff", None, "Peony chaff"),
    ("peony-chaff-2", "chaff", None, "Peony chaff"),
    ("susuki-bright", "bright", None, "Full Moon"),
    ("susuki-animal", "animal", None, "Geese"),
    ("susuki-chaff-1", "chaff", None, "Susuki chaff"),
    ("susuki-chaff-2", "chaff", None, "Susuki chaff"),
    ("chrysanthemum-animal", "animal", None, "Sake Cup"),
    ("chrysanthemum-ribbon", "ribbon", "blue", "Chrysanthemum blue ribbon"),
    ("chrysanthemum-chaff-1", "chaff", None, "Chrysanthemum chaff"),
    ("chrysanthemum-chaff-2", "chaff", None, "Chrysanthemum chaff"),
    ("maple-animal", "animal", None, "Deer"),
    ("maple-ribbon", "ribbon", "blue", "Maple blue ribbon"),
    ("maple-chaff-1", "chaff", None, "Maple chaff"),
    ("maple-chaff-2", "chaff", None, "Maple chaff"),
    ("willow-bright", "bright", None, "Rain Man"),
    ("willow-animal", "animal", None, "Swallow"),
    ("willow-ribbon", "ribbon", "plain", "Willow ribbon"),
    ("willow-chaff", "chaff", None, "Lightning"),
    ("paulownia-bright", "bright", None, "Phoenix"),
    ("paulownia-chaff", "chaff", None, "Paulownia chaff"),
)

CARDS: dict[str, Card] = {row[0]: _card(index, *row) for index, row in enumerate(_TABLE)}
"""Every card by id, in the rules file's order."""

DECK: list[str] = list(CARDS)
"""The 34 card ids in the rules file's order (index 0–33)."""

CARD_POINTS_TOTAL = 211
"""All 34 cards' points (§2.2)."""

MAJORITY = 106
"""The smallest whole number of card points over half the deck: Escape and Mizuten (§2.2)."""


def month_of(card: str) -> int:
    return CARDS[card].month


def points_of(card: str) -> int:
    return CARDS[card].points
