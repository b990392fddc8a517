"""The 34 card tiles: each card its own traditional picture, full month names that fit
their band, and the tile's size."""

from __future__ import annotations

import hashlib
import itertools

import pytest
from PIL import Image, ImageChops, ImageDraw

from bot.games.hachihachi.cards import CARDS, DECK, MONTHS
from cogs.hachihachi import art, tiles

BRIGHTS = [card for card in DECK if CARDS[card].category == "bright"]
ANIMALS = [card for card in DECK if CARDS[card].category == "animal"]
PICTURE = (tiles._RIM, tiles.BAND_TOP, tiles.TILE_W - tiles._RIM, tiles.TILE_H - tiles.BAND_BOTTOM)
"""The tile's picture, between its bands."""


def digest(card: str) -> str:
    return hashlib.sha256(tiles.tile(card).tobytes()).hexdigest()


def picture(card: str) -> Image.Image:
    return tiles.tile(card).crop(PICTURE)


def changed_share(one: str, other: str) -> float:
    """The share of the picture's pixels that differ clearly between two tiles."""
    return share_within(picture(one), picture(other), over=60)


def share_within(one: Image.Image, other: Image.Image, *, over: int) -> float:
    """The share of pixels whose colours differ by more than ``over`` (summed over R, G, B)."""
    red, green, blue = ImageChops.difference(one, other).split()
    total = ImageChops.add(ImageChops.add(red, green), blue)  # clipped at 255: enough here
    histogram = total.histogram()
    return sum(histogram[over + 1 :]) / (one.width * one.height)


def plain_card(month: int) -> str:
    """The month's card with no figure of its own: its first chaff, else its ribbon
    (Willow's chaff is Lightning), else its only chaff (Paulownia)."""
    members = [card for card in DECK if CARDS[card].month == month]
    for wanted in ("-chaff-1", "-ribbon", "-chaff"):
        for card in members:
            if card.endswith(wanted) and card not in tiles._FIGURES:
                return card
    raise AssertionError(month)


def test_every_tile_is_its_own() -> None:
    assert len({digest(card) for card in DECK}) == 34


def test_brights_are_pairwise_distinct_pictures() -> None:
    # Not only in their month's colour: their figures differ over much of the picture.
    for one, other in itertools.combinations(BRIGHTS, 2):
        assert digest(one) != digest(other)
        assert changed_share(one, other) > 0.3, (one, other)


def test_animals_are_pairwise_distinct_pictures() -> None:
    for one, other in itertools.combinations(ANIMALS, 2):
        assert digest(one) != digest(other)
        assert changed_share(one, other) > 0.3, (one, other)


@pytest.mark.parametrize("card", BRIGHTS + ANIMALS + ["willow-chaff"])
def test_a_figure_card_is_more_than_its_months_plant_with_a_badge(card: str) -> None:
    # A badge in a corner (the old paw or sun) changed about a tenth of the picture; a
    # card's own figure (crane, curtain, deer, ...) changes far more of it.
    assert changed_share(card, plain_card(CARDS[card].month)) > 0.2


def moonlit_pixels(card: str) -> int:
    """Pixels of the Full Moon's pale disc colour."""
    moon = Image.new("RGB", picture(card).size, (255, 243, 196))
    return round((1 - share_within(picture(card), moon, over=30)) * moon.width * moon.height)


def test_only_the_full_moon_has_the_moon() -> None:
    assert moonlit_pixels("susuki-bright") > 400
    for card in ("susuki-chaff-1", "susuki-chaff-2", "susuki-animal"):
        assert moonlit_pixels(card) < 20, card


def test_a_months_two_chaff_are_one_picture_mirrored() -> None:
    for month in ("pine", "plum", "cherry", "peony", "susuki", "chrysanthemum", "maple"):
        one, other = picture(f"{month}-chaff-1"), picture(f"{month}-chaff-2")
        assert one.tobytes() != other.tobytes()
        # The picture is drawn mirrored before the bands: compare a mirrored inner strip.
        flipped = other.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        assert share_within(one, flipped, over=40) < 0.1, month


@pytest.mark.parametrize("card", DECK)
def test_labels_fit_their_bands(card: str) -> None:
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    for label in tiles.labels(card):
        left, top, right, bottom = text_box(measure, label)
        box_left, box_top, box_right, box_bottom = label.box
        assert box_left <= left and right <= box_right, label
        assert box_top <= top and bottom <= box_bottom, label


def text_box(measure: ImageDraw.ImageDraw, label: tiles.Label) -> tuple[float, ...]:
    """The label's inked box in tile pixels, measured as the tile draws it (at _SCALE)."""
    scale = tiles._SCALE
    box = measure.textbbox(
        (label.xy[0] * scale, label.xy[1] * scale),
        label.text,
        font=tiles.font(round(label.size * scale)),
        anchor=label.anchor,
    )
    return tuple(value / scale for value in box)


@pytest.mark.parametrize("month", sorted(MONTHS))
def test_the_full_month_name_is_written(month: int) -> None:
    card = next(card for card in DECK if CARDS[card].month == month)
    texts = [label.text for label in tiles.labels(card)]
    assert texts[0] == str(month)
    name = MONTHS[month].name
    written = "".join(text.removesuffix("-") for text in texts[1:-2])
    assert written == name
    assert len(texts[1:-2]) == (2 if name == "Chrysanthemum" else 1)


def test_name_lines_do_not_overlap() -> None:
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    first, second = tiles.labels("chrysanthemum-chaff-1")[1:3]
    # The first line's descender ("y") may reach at most one pixel into the second's
    # ascenders ("th"): the two lines stay readable apart.
    assert text_box(measure, first)[3] <= text_box(measure, second)[1] + 1


def test_golden_sizes() -> None:
    for card in DECK:
        image = tiles.tile(card)
        assert (image.size, image.mode) == ((60, 96), "RGB")
        assert image is tiles.tile(card)  # cached: drawn once
        assert art.TILE_W == tiles.TILE_W and art.TILE_H == tiles.TILE_H
    # A hand of seven cards of seven months: 7 tiles and 6 month gaps, one line.
    hand = [
        "pine-bright",
        "plum-animal",
        "cherry-ribbon",
        "peony-chaff-1",
        "susuki-bright",
        "maple-animal",
        "willow-chaff",
    ]
    image = Image.open(__import__("io").BytesIO(art.render_cards([("Your hand", hand)]).png))
    assert image.size == (500, 136)


def test_every_month_keeps_its_band() -> None:
    # The month is still seen at a glance by its colour: the top band is its shade.
    for card in DECK:
        ground = tiles.MONTH_COLOURS[CARDS[card].month]
        band = tiles.tile(card).crop((tiles._RIM + 4, 3, tiles.TILE_W - tiles._RIM - 4, 5))
        colours = band.getcolors(band.width * band.height)
        assert colours is not None
        commonest = max(colours)[1]
        band_colour = tiles._shade(ground, 0.55)
        assert all(abs(x - y) <= 6 for x, y in zip(commonest, band_colour, strict=True)), card


def red_and_white(card: str) -> tuple[int, int]:
    """Pixels of a tile's picture that are clearly red, and clearly white."""
    red = white = 0
    for count, (r, g, b) in picture(card).convert("RGB").getcolors(1 << 16) or []:
        if r > 170 and g < 80 and b < 90:
            red += count
        if r > 235 and g > 225 and b > 225:
            white += count
    return red, white


@pytest.mark.parametrize("card", ["plum-animal", "plum-chaff-1", "plum-chaff-2"])
def test_the_plum_blossoms_are_red_and_white(card: str) -> None:
    """紅白梅: red blossoms among white ones, not white ones with red hearts only."""
    red, white = red_and_white(card)
    assert red >= 150 and white >= 150, (red, white)


def test_the_sake_cup_bears_kotobuki() -> None:
    """The cup's gold mark is the character 寿, written with the font (hand-drawn
    strokes read as 王)."""
    written: list[str] = []

    class Recording(tiles._Pen):
        def text(self, xy: tiles.Point, text: str, *args: object, **kwargs: object) -> None:
            written.append(text)

    image = Image.new("RGB", (tiles.TILE_W * tiles._SCALE, tiles.TILE_H * tiles._SCALE))
    tiles._FIGURES["chrysanthemum-animal"](Recording(ImageDraw.Draw(image)))
    assert written == ["寿"]
