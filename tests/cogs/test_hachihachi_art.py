"""Hanafuda card pictures: every tile, the composed image, its caches, its size, its alt
text and the secrecy of its file name."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from PIL import Image

from bot.fonts import noto
from bot.games.hachihachi.cards import CARDS, DECK, MONTHS
from cogs.hachihachi import art, tiles
from tests.support.japanese import missing_glyphs

FIELD = ["maple-chaff-1", "pine-chaff-1", "willow-bright", "maple-animal", "pine-bright"]


def decoded(rendered: art.RenderedImage) -> Image.Image:
    image = Image.open(io.BytesIO(rendered.png))
    image.load()
    return image


def line_width(months: list[int]) -> int:
    """Tiles of one line, in the given months' order (already grouped)."""
    width = len(months) * art.TILE_W
    for before, after in itertools.pairwise(months):
        width += art.GAP if before == after else art.MONTH_GAP
    return width


@pytest.mark.parametrize("card", DECK)
def test_every_card_renders(card: str) -> None:
    assert art.tile(card).size == (art.TILE_W, art.TILE_H)
    image = decoded(art.render_cards([("Hand", [card])]))
    assert image.format == "PNG"
    assert image.size == (2 * art.MARGIN + art.TILE_W, 2 * art.MARGIN + art.LABEL_H + art.TILE_H)


def test_no_two_cards_share_a_picture() -> None:
    # A month's two chaff are one picture mirrored: still two tiles, told apart by nobody
    # who plays (they are identical in play), yet no card's tile is another's.
    pictures = {art.tile(card).tobytes() for card in DECK}
    assert len(pictures) == len(DECK) == 34


def test_each_month_has_its_own_colour() -> None:
    # A chaff tile's commonest colour is its month's ground: the month is seen at a glance.
    grounds = {}
    for month in MONTHS:
        chaff = next(c for c in DECK if CARDS[c].month == month and CARDS[c].category == "chaff")
        colours = art.tile(chaff).getcolors(art.TILE_W * art.TILE_H)
        assert colours is not None
        grounds[month] = max(colours)[1]
    assert grounds == {month: tiles.MONTH_COLOURS[month] for month in MONTHS}
    assert len(set(tiles.MONTH_COLOURS.values())) == len(MONTHS)


def test_same_rows_give_the_cached_object_and_other_rows_other_bytes() -> None:
    art.cache_clear()
    first = art.render_cards([("Field", FIELD), ("Your hand", ["cherry-bright"])])
    again = art.render_cards([("Field", tuple(FIELD)), ("Your hand", ("cherry-bright",))])
    assert again is first
    other = art.render_cards([("Field", FIELD), ("Your hand", ["cherry-ribbon"])])
    assert other.png != first.png
    relabelled = art.render_cards([("Field", FIELD), ("Their pile", ["cherry-bright"])])
    assert relabelled.png != first.png


def test_image_cache_is_bounded() -> None:
    maxsize = art._render.cache_info().maxsize
    assert maxsize is not None and maxsize <= 256
    art.cache_clear()
    for index in range(maxsize + 3):
        art.render_cards([("Hand", [DECK[index % 34]]), (str(index), [])])
    assert art._render.cache_info().currsize == maxsize


def test_rows_are_grouped_by_month_ascending() -> None:
    assert art.month_groups(FIELD) == [
        (1, ["pine-bright", "pine-chaff-1"]),
        (10, ["maple-animal", "maple-chaff-1"]),
        (11, ["willow-bright"]),
    ]
    shuffled = art.render_cards([("Field", FIELD)])
    grouped = art.render_cards(
        [
            (
                "Field",
                ["pine-bright", "pine-chaff-1", "maple-animal", "maple-chaff-1", "willow-bright"],
            )
        ]
    )
    assert shuffled is not grouped
    assert shuffled.png == grouped.png  # the picture shows the grouped order
    image = decoded(shuffled)
    assert image.width == 2 * art.MARGIN + line_width([1, 1, 10, 10, 11])


def test_month_groups_of_nothing() -> None:
    assert art.month_groups([]) == []


@pytest.mark.parametrize("count", range(1, 13))
def test_size_for_n_cards(count: int) -> None:
    # One card of each month first, then the months' second cards: a known grouping.
    months = sorted(MONTHS)
    firsts = [next(c for c in DECK if CARDS[c].month == m) for m in months]
    seconds = [[c for c in DECK if CARDS[c].month == m][1] for m in months]
    cards = (firsts + seconds)[:count]
    groups = art.month_groups(cards)
    # Lines of whole months, at most MAX_PER_LINE tiles each.
    lines: list[list[int]] = [[]]
    for month, members in groups:
        if lines[-1] and len(lines[-1]) + len(members) > art.MAX_PER_LINE:
            lines.append([])
        lines[-1].extend([month] * len(members))
    image = decoded(art.render_cards([("Field", cards)]))
    assert image.width == 2 * art.MARGIN + max(line_width(line) for line in lines)
    assert image.height == (
        2 * art.MARGIN + art.LABEL_H + len(lines) * art.TILE_H + (len(lines) - 1) * art.LINE_GAP
    )
    assert image.width <= 500  # Discord shows it at about its own size


def test_field_of_twelve_and_hand_of_seven() -> None:
    deck = list(DECK)
    random.Random(7).shuffle(deck)
    field, hand = deck[:12], deck[12:19]
    rendered = art.render_cards([("Field", field), ("Your hand", hand)], filename="field.png")
    image = decoded(rendered)
    assert image.width <= 500
    assert image.height >= 2 * art.MARGIN + 2 * art.LABEL_H + 3 * art.TILE_H + art.ROW_GAP


def test_an_empty_row_is_shown_as_empty() -> None:
    rendered = art.render_cards([("Field", []), ("Your hand", ["pine-bright"])])
    image = decoded(rendered)
    assert image.height == (
        2 * art.MARGIN + 2 * art.LABEL_H + art.EMPTY_H + art.ROW_GAP + art.TILE_H
    )
    assert rendered.alt.startswith("Field: empty. Your hand: Pine — Crane with Sun")
    # "(empty)" is written in the muted colour somewhere in the empty row.
    rgb = image.convert("RGB")
    top = art.MARGIN + art.LABEL_H
    colours = {
        rgb.getpixel((x, y))
        for x in range(art.MARGIN, art.MARGIN + 60)
        for y in range(top, top + art.EMPTY_H)
    }
    assert colours - {art.BACKGROUND}


def test_filename_never_depends_on_the_cards() -> None:
    deck = list(DECK)
    random.Random(3).shuffle(deck)
    one = art.render_cards([("Your hand", deck[:7])], filename="hand.png")
    other = art.render_cards([("Your hand", deck[7:14])], filename="hand.png")
    assert one.png != other.png
    assert one.filename == other.filename == "hand.png"
    assert art.render_cards([("Your hand", deck[:7])]).filename == "cards.png"
    for card in DECK:
        assert card not in one.filename
        assert CARDS[card].name.lower() not in one.filename.lower()
        # Nor inside the PNG as metadata: only pixels say what the cards are.
        assert card.encode() not in one.png
        assert CARDS[card].name.encode() not in one.png


def test_alt_text_lists_every_card_of_every_row() -> None:
    deck = list(DECK)
    random.Random(5).shuffle(deck)
    rows = [("Field", deck[:12]), ("Your hand", deck[12:19]), ("Your pile", deck[19:25])]
    alt = art.render_cards(rows).alt
    for label, cards in rows:
        assert f"{label}: " in alt
        section = alt.split(f"{label}: ", 1)[1].split(". ", 1)[0]
        for card in cards:
            assert CARDS[card].name in section
        for month, _members in art.month_groups(cards):
            assert f"{MONTHS[month].name} — " in section
    assert len(alt) <= art.ALT_LIMIT


def test_alt_text_follows_the_example() -> None:
    alt = art.render_cards([("Field", ["pine-chaff-2", "cherry-bright", "pine-bright"])]).alt
    assert alt == "Field: Pine — Crane with Sun, Pine chaff; Cherry — Curtain"


def test_alt_text_is_clipped_to_discords_limit() -> None:
    rows = [(f"Row {i}", DECK) for i in range(3)]
    alt = art.render_cards(rows).alt
    assert len(alt) == art.ALT_LIMIT
    assert alt.endswith("…")


@pytest.mark.parametrize(
    ("card", "label"),
    [
        ("pine-bright", "Crane with Sun (Pine · Bright)"),
        ("willow-animal", "Swallow (Willow · Animal)"),
        ("peony-ribbon", "Peony blue ribbon (Peony · Ribbon)"),
        ("willow-chaff", "Lightning (Willow · Chaff)"),
    ],
)
def test_card_label(card: str, label: str) -> None:
    assert art.card_label(card) == label


@pytest.mark.parametrize("bad", ["pine-chaff-3", "", "PINE-BRIGHT", "sakura-bright"])
def test_an_unknown_card_is_refused(bad: str) -> None:
    with pytest.raises(KeyError, match="unknown hanafuda card"):
        art.render_cards([("Field", ["pine-bright", bad])])
    with pytest.raises(KeyError):  # and not cached as if it were drawable
        art.render_cards([("Field", ["pine-bright", bad])])
    with pytest.raises(KeyError):
        art.card_label(bad)
    with pytest.raises(KeyError):
        art.month_groups([bad])
    with pytest.raises(KeyError):
        art.tile(bad)


@pytest.mark.parametrize(
    ("name", "drawn"),
    [
        ("さくら", "さくら"),
        ("🌸さくら", "さくら"),
        ("Zoë 😀", "Zoë"),
        ("𠮷野", "𠮷野"),
        ("🤖 Computer", "Computer"),
        ("😀😀", None),
        ("\u200b", None),
    ],
)
def test_a_name_keeps_only_what_the_font_draws(name: str, drawn: str | None) -> None:
    assert art.drawn_name(name) == drawn
    if drawn is not None:
        assert not missing_glyphs(noto(24), drawn)
