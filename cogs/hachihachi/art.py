"""Pictures of hanafuda cards for Nuki Hachi-hachi: one PNG of labelled rows of card tiles.

Players recognise hanafuda by sight, so the field and a hand are attached to the messages
as one image; the cog keeps the text list beside it (:func:`card_label`,
:func:`month_groups`) and the image carries an accessible description (``alt``).

Every tile is drawn once with Pillow primitives (no font or image files: the default
font has no kanji, so a tile shows the month's number and short name) and cached; an image
is composed from cached tiles and cached per exact set of rows.

- Month: the tile's colour and plant motif (pine needles, plum blossom, cherry petals,
  peony, pampas grass under the moon, chrysanthemum, maple leaves, willow strands,
  paulownia leaves), and its number and short name in the top band.
- Kind, in the bottom band with the card's points: Bright (gold band, a gold ring round a
  sun or moon), Animal (cream band, a paw badge), Ribbon (a slanted ribbon across the
  picture in its colour: poetry red with writing marks, blue, plain red; its band says
  "Poetry", "Blue" or "Ribbon"), Chaff (the month's dark band). Lightning, the Willow
  chaff, also carries its bolt.

Secrecy: an image's file name never depends on its cards (a hand is at most 7 of 34
cards, so any digest of it in a name could be inverted by trying every hand); the caller
names the file.
"""

from __future__ import annotations

import functools
import io
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.games.hachihachi.cards import CARDS, MONTHS, Card
from cogs._ui.primitives import Picture

log = logging.getLogger(__name__)

# Layout, in pixels of the final image. A line holds at most 7 tiles (a full hand), so an
# image stays within 500 px wide and Discord shows it at about its own size.
TILE_W = 60
TILE_H = 96
GAP = 4
"""Between two tiles of one month."""
MONTH_GAP = 10
"""Between two months' tiles in a row: the eye finds the month groups (captures)."""
MAX_PER_LINE = 7
MARGIN = 10
LABEL_H = 20
"""A row's label above its tiles."""
LINE_GAP = 8
"""Between two lines of tiles of one long row."""
ROW_GAP = 10
EMPTY_H = 24
"""The height of an empty row's "(empty)" line."""

BACKGROUND = (43, 45, 49)
LABEL_COLOUR = (220, 221, 222)
MUTED_COLOUR = (140, 144, 150)
ALT_LIMIT = 1024
"""Discord's limit on an attachment's description."""

_SCALE = 3
"""Tiles are drawn at 3× and scaled down once: smooth circles and text at no cost per image."""
_BAND_TOP = 16
_BAND_BOTTOM = 16
_RIM = 2
_RADIUS = 6

RGB = tuple[int, int, int]
Point = tuple[float, float]

SHORT_NAMES: dict[int, str] = {
    1: "Pine",
    2: "Plum",
    3: "Cherry",
    6: "Peony",
    8: "Susuki",
    9: "Chrys",
    10: "Maple",
    11: "Willow",
    12: "Paulow",
}
"""Month names short enough for a 60 px tile; the alt text and the labels use the full names."""

MONTH_COLOURS: dict[int, RGB] = {
    1: (46, 125, 50),  # pine green
    2: (142, 36, 98),  # plum magenta
    3: (247, 182, 200),  # cherry pink
    6: (91, 58, 158),  # peony violet
    8: (28, 43, 79),  # night over the pampas
    9: (224, 165, 38),  # chrysanthemum amber
    10: (192, 57, 43),  # maple red
    11: (94, 124, 134),  # rainy willow grey
    12: (124, 127, 42),  # paulownia olive
}
"""One colour per month, spread round the colour wheel so no two months look alike."""

KIND_WORDS = {"bright": "Bright", "animal": "Animal", "ribbon": "Ribbon", "chaff": "Chaff"}
RIBBON_WORDS = {"poetry": "Poetry", "blue": "Blue", "plain": "Ribbon"}
RIBBON_COLOURS: dict[str, RGB] = {
    "poetry": (211, 47, 47),
    "blue": (30, 90, 168),
    "plain": (211, 47, 47),
}
GOLD = (255, 213, 79)
CREAM = (245, 230, 200)
RIM_COLOUR = (242, 234, 211)
INK = (33, 33, 33)
WHITE = (255, 255, 255)


@dataclass(frozen=True)
class RenderedImage:
    """A PNG ready to attach: ``discord.File(io.BytesIO(png), filename, description=alt)``."""

    png: bytes
    filename: str
    alt: str


def card_of(card_id: str) -> Card:
    """The card, or ``KeyError`` naming the id: a bad id is a caller's bug, never drawn."""
    try:
        return CARDS[card_id]
    except (KeyError, TypeError):
        raise KeyError(f"unknown hanafuda card {card_id!r}") from None


def card_label(card_id: str) -> str:
    """ "Crane with Sun (Pine · Bright)": the card's name, month and kind, for text lists."""
    card = card_of(card_id)
    return f"{card.name} ({card.month_name} · {KIND_WORDS[card.category]})"


def month_groups(cards: Sequence[str]) -> list[tuple[int, list[str]]]:
    """The cards by month, months ascending, each month's cards in deck order (bright
    first): the order the pictures show them in."""
    by_month: dict[int, list[Card]] = {}
    for card_id in cards:
        card = card_of(card_id)
        by_month.setdefault(card.month, []).append(card)
    return [
        (month, [card.id for card in sorted(by_month[month], key=lambda card: card.index)])
        for month in sorted(by_month)
    ]


# --- Tiles -----------------------------------------------------------------------------


def _shade(colour: RGB, factor: float) -> RGB:
    """Darker (factor < 1) or towards white (factor > 1)."""
    if factor <= 1:
        return (int(colour[0] * factor), int(colour[1] * factor), int(colour[2] * factor))
    mix = factor - 1
    r, g, b = colour
    return (int(r + (255 - r) * mix), int(g + (255 - g) * mix), int(b + (255 - b) * mix))


def _light(colour: RGB) -> bool:
    r, g, b = colour
    return 0.299 * r + 0.587 * g + 0.114 * b > 150


class _Pen:
    """Draws in tile coordinates (60 × 96) on a canvas _SCALE times larger."""

    def __init__(self, draw: ImageDraw.ImageDraw) -> None:
        self.draw = draw

    @staticmethod
    def _xy(points: Sequence[Point]) -> list[tuple[float, float]]:
        return [(x * _SCALE, y * _SCALE) for x, y in points]

    def line(self, points: Sequence[Point], colour: RGB, width: float) -> None:
        self.draw.line(self._xy(points), fill=colour, width=max(1, round(width * _SCALE)))

    def polygon(self, points: Sequence[Point], colour: RGB, outline: RGB | None = None) -> None:
        self.draw.polygon(self._xy(points), fill=colour, outline=outline, width=_SCALE)

    def circle(
        self,
        centre: Point,
        radius: float,
        colour: RGB | None,
        outline: RGB | None = None,
        width: float = 1,
    ) -> None:
        x, y = centre
        box = self._xy([(x - radius, y - radius), (x + radius, y + radius)])
        self.draw.ellipse(box, fill=colour, outline=outline, width=round(width * _SCALE))

    def ellipse(self, centre: Point, rx: float, ry: float, colour: RGB) -> None:
        x, y = centre
        self.draw.ellipse(self._xy([(x - rx, y - ry), (x + rx, y + ry)]), fill=colour)

    def text(
        self, xy: Point, text: str, size: int, colour: RGB, anchor: str = "ls", stroke: int = 0
    ) -> None:
        self.draw.text(
            (xy[0] * _SCALE, xy[1] * _SCALE),
            text,
            fill=colour,
            font=_font(size * _SCALE),
            anchor=anchor,
            stroke_width=stroke,
            stroke_fill=colour,
        )


@functools.cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _flower(
    pen: _Pen, centre: Point, radius: float, petal: RGB, heart: RGB, petals: int = 5
) -> None:
    x, y = centre
    for i in range(petals):
        angle = 2 * math.pi * i / petals - math.pi / 2
        pen.circle(
            (x + radius * 0.55 * math.cos(angle), y + radius * 0.55 * math.sin(angle)),
            radius * 0.5,
            petal,
        )
    pen.circle(centre, radius * 0.3, heart)


def _pine(pen: _Pen) -> None:
    pen.line([(8, 82), (18, 66), (28, 56), (36, 44), (48, 34)], (78, 52, 46), 3.5)
    pen.line([(28, 56), (14, 46)], (78, 52, 46), 2)
    for cx, cy in ((14, 44), (30, 34), (46, 30), (38, 58), (18, 66)):
        pen.ellipse((cx, cy), 10, 5.5, (124, 179, 66))
        for i in range(9):  # a fan of needles over the clump
            angle = math.pi + math.pi * i / 8
            pen.line(
                [(cx, cy + 3), (cx + 11 * math.cos(angle), cy + 3 + 9 * math.sin(angle))],
                (20, 70, 28),
                0.9,
            )


def _plum(pen: _Pen) -> None:
    pen.line([(4, 70), (18, 60), (26, 44), (40, 38), (56, 26)], (62, 39, 35), 3)
    pen.line([(26, 44), (22, 28)], (62, 39, 35), 2)
    for centre in ((18, 58), (24, 30), (40, 40), (52, 26), (10, 70)):
        _flower(pen, centre, 6.5, (255, 240, 245), (211, 47, 47))


def _cherry(pen: _Pen) -> None:
    for centre, radius in (((16, 34), 9.0), ((42, 46), 11.0), ((20, 64), 8.0)):
        _flower(pen, centre, radius, (255, 250, 252), (216, 27, 96))
    for x, y in ((50, 26), (34, 72), (8, 50), (54, 68)):  # falling petals
        pen.ellipse((x, y), 2.2, 1.4, (216, 27, 96))


def _peony(pen: _Pen) -> None:
    for points in (
        [(6, 78), (18, 58), (24, 78)],
        [(36, 78), (44, 56), (56, 76)],
        [(14, 48), (4, 34), (22, 40)],
    ):
        pen.polygon(points, (67, 160, 71))
    pen.circle((32, 46), 15, (229, 57, 53))
    for i in range(8):  # a ring of outer petals
        angle = 2 * math.pi * i / 8
        pen.circle((32 + 12 * math.cos(angle), 46 + 12 * math.sin(angle)), 5, (239, 83, 80))
    pen.circle((32, 46), 9, (244, 143, 177))
    pen.circle((32, 46), 3.5, (255, 214, 0))


def _susuki(pen: _Pen) -> None:
    pen.circle((44, 32), 9, (255, 243, 196))  # the moon over the grass
    pen.polygon([(0, 80), (0, 60), (20, 52), (42, 56), (60, 64), (60, 80)], (12, 12, 16))
    for x in range(4, 60, 6):
        top = 44 + (x * 7) % 12
        pen.line([(x, 80), (x + 2, 64), (x + 6, top)], (224, 192, 104), 0.9)


def _chrysanthemum(pen: _Pen) -> None:
    pen.line([(30, 80), (30, 60)], (51, 105, 30), 2.5)
    pen.polygon([(30, 70), (16, 62), (24, 74)], (51, 105, 30))
    pen.polygon([(30, 66), (46, 58), (38, 72)], (51, 105, 30))
    for (cx, cy), radius in (((30, 42), 15.0), ((12, 28), 7.0), ((50, 28), 7.0)):
        for i in range(16):
            angle = 2 * math.pi * i / 16
            pen.line(
                [(cx, cy), (cx + radius * math.cos(angle), cy + radius * math.sin(angle))],
                (198, 40, 40),
                2.2 if radius > 10 else 1.4,
            )
        pen.circle((cx, cy), radius * 0.3, (255, 241, 118))


def _maple_leaf(pen: _Pen, centre: Point, radius: float, leaf: RGB) -> None:
    x, y = centre
    points = []
    for i in range(14):  # seven lobes: alternate long and short radii
        angle = 2 * math.pi * i / 14 - math.pi / 2
        r = radius if i % 2 == 0 else radius * 0.45
        points.append((x + r * math.cos(angle), y + r * math.sin(angle)))
    pen.polygon(points, leaf)
    pen.line([(x, y), (x, y + radius * 1.1)], (93, 64, 55), 1.2)


def _maple(pen: _Pen) -> None:
    pen.line([(2, 30), (30, 40), (58, 28)], (93, 64, 55), 2)
    for centre, radius, leaf in (
        ((14, 44), 9.0, (255, 193, 7)),
        ((42, 40), 10.0, (255, 143, 0)),
        ((28, 64), 10.0, (255, 213, 79)),
        ((50, 66), 7.0, (255, 143, 0)),
    ):
        _maple_leaf(pen, centre, radius, leaf)


def _willow(pen: _Pen) -> None:
    for x in range(6, 60, 10):
        sway = 5 if x % 20 == 6 else -5
        strand = [(x, 16.0), (x + sway * 0.5, 40.0), (x + sway, 62.0), (x + sway * 0.6, 78.0)]
        pen.line(strand, (56, 94, 46), 1.4)
        for sx, sy in strand[1:]:
            pen.ellipse((sx + 1.5, sy - 4), 1.4, 3.2, (156, 204, 101))


def _paulownia(pen: _Pen) -> None:
    pen.line([(30, 26), (30, 46)], (74, 20, 140), 1.5)
    for i, (dx, dy) in enumerate(((0, 22), (-5, 28), (5, 28), (-6, 35), (6, 35), (0, 40))):
        pen.circle((30 + dx, dy + 2), 3.2, (149, 117, 205) if i % 2 else (179, 157, 219))
    for centre, rx, ry in (((16, 62), 14.0, 11.0), ((44, 62), 14.0, 11.0), ((30, 70), 12, 9)):
        pen.ellipse(centre, rx, ry, (51, 105, 30))
        pen.line([centre, (centre[0], centre[1] - ry + 2)], (139, 195, 74), 1)


_MOTIFS: dict[int, Callable[[_Pen], None]] = {
    1: _pine,
    2: _plum,
    3: _cherry,
    6: _peony,
    8: _susuki,
    9: _chrysanthemum,
    10: _maple,
    11: _willow,
    12: _paulownia,
}


def _ribbon(pen: _Pen, kind: str) -> None:
    colour = RIBBON_COLOURS[kind]
    band = [(14, 22), (28, 20), (40, 76), (26, 78)]  # a tanzaku slanted across the picture
    pen.polygon(band, colour, outline=WHITE)
    if kind == "poetry":
        for i in range(4):  # the poem's writing marks down the ribbon
            t = 0.18 + 0.2 * i
            x = 21 + (33 - 21) * t
            y = 21 + (77 - 21) * t
            pen.line([(x - 1, y - 3), (x + 1, y + 3)], INK, 1.6)


def _bright(pen: _Pen, card: Card) -> None:
    if card.month != 8:  # the Full Moon's ring goes round the moon already drawn
        pen.circle((44, 32), 8, (229, 57, 53))
    pen.circle((44, 32), 11.5, None, outline=INK, width=4.5)
    pen.circle((44, 32), 11.5, None, outline=GOLD, width=2.5)


def _animal(pen: _Pen) -> None:
    pen.circle((47, 29), 9, CREAM, outline=INK, width=1)
    pen.ellipse((47, 32), 3.2, 2.6, (93, 64, 55))  # a paw print
    for dx, dy in ((-4, -2), (0, -4.5), (4, -2)):
        pen.circle((47 + dx, 29 + dy), 1.6, (93, 64, 55))


def _lightning(pen: _Pen) -> None:
    bolt = [(40, 18), (52, 18), (44, 34), (54, 34), (30, 62), (38, 40), (30, 40)]
    pen.polygon(bolt, (229, 57, 53), outline=INK)


@functools.cache
def tile(card_id: str) -> Image.Image:
    """The card's tile (TILE_W × TILE_H, RGB, on the image background), drawn once.

    The cached image is shared: paste it, never draw on it."""
    card = card_of(card_id)
    colour = MONTH_COLOURS[card.month]
    canvas = Image.new("RGB", (TILE_W * _SCALE, TILE_H * _SCALE), BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    outer = [(0, 0), (TILE_W * _SCALE - 1, TILE_H * _SCALE - 1)]
    draw.rounded_rectangle(outer, radius=_RADIUS * _SCALE, fill=RIM_COLOUR)
    inner = [
        (_RIM * _SCALE, _RIM * _SCALE),
        ((TILE_W - _RIM) * _SCALE - 1, (TILE_H - _RIM) * _SCALE - 1),
    ]
    face = Image.new("RGB", canvas.size, colour)
    face_draw = ImageDraw.Draw(face)
    face_pen = _Pen(face_draw)
    _MOTIFS[card.month](face_pen)
    if card.category == "ribbon" and card.ribbon is not None:
        _ribbon(face_pen, card.ribbon)
    elif card.category == "bright":
        _bright(face_pen, card)
    elif card.category == "animal":
        _animal(face_pen)
    elif card.id == "willow-chaff":
        _lightning(face_pen)

    band = _shade(colour, 0.55)
    face_pen.polygon([(0, 0), (TILE_W, 0), (TILE_W, _BAND_TOP), (0, _BAND_TOP)], band)
    face_pen.text((4, 13), str(card.month), 13, WHITE, stroke=1)
    number_w = _font(13 * _SCALE).getlength(str(card.month)) / _SCALE
    name_x = 4 + number_w + 3
    name = SHORT_NAMES[card.month]
    size = 10  # one point smaller when "12 Paulow" would touch the rim
    while size > 8 and _font(size * _SCALE).getlength(name) / _SCALE > TILE_W - _RIM - 2 - name_x:
        size -= 1
    face_pen.text((name_x, 12.5), name, size, WHITE)

    if card.category == "bright":
        kind_colour, word = GOLD, "Bright"
    elif card.category == "animal":
        kind_colour, word = CREAM, "Animal"
    elif card.category == "ribbon" and card.ribbon is not None:
        kind_colour, word = RIBBON_COLOURS[card.ribbon], RIBBON_WORDS[card.ribbon]
    else:
        kind_colour, word = band, "Chaff"
    top = TILE_H - _BAND_BOTTOM
    face_pen.polygon([(0, top), (TILE_W, top), (TILE_W, TILE_H), (0, TILE_H)], kind_colour)
    ink = INK if _light(kind_colour) else WHITE
    if card.category == "chaff":
        ink = _shade(colour, 1.55) if not _light(colour) else _shade(colour, 1.3)
    face_pen.text((5, TILE_H - 5), word, 10, ink)
    face_pen.text((TILE_W - 5, TILE_H - 5), str(card.points), 10, ink, anchor="rs")

    mask = Image.new("L", canvas.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=(_RADIUS - 1) * _SCALE, fill=255)
    canvas.paste(face, (0, 0), mask)
    return canvas.resize((TILE_W, TILE_H), Image.Resampling.LANCZOS)


def warm_tiles() -> None:
    """Draw every card's tile now (about a tenth of a second), e.g. when the cog loads."""
    for card_id in CARDS:
        tile(card_id)


# --- Images ----------------------------------------------------------------------------

PILE_SCALE = 0.6
"""A score pile's tiles are drawn smaller: two piles fit under the field."""
PILE_W = round(TILE_W * PILE_SCALE)
PILE_H = round(TILE_H * PILE_SCALE)
PILE_STEP = PILE_W + 3
"""A pile tile's step when the pile fits; a long pile fans out (tiles overlap)."""
PILE_MIN_STEP = 12
"""The narrowest fan: the tile's month colour and number stay visible."""
KIND_GAP = 14
"""Between two kinds (brights, animals, ribbons, chaff) of one pile."""
HEAD_H = 15
"""A kind's heading above its pile tiles."""
NOTE_H = 17
"""A pile's dekiyaku progress line under its label."""
MAX_W = MAX_PER_LINE * TILE_W + (MAX_PER_LINE - 1) * MONTH_GAP
"""The widest a line of tiles gets: a pile is fanned to fit within it."""
MARK = GOLD
MARK_W = 3
"""The frame round a card the moment is about (the card played, its two candidates)."""
DONE_COLOUR = GOLD
KINDS = (("bright", "Brights"), ("animal", "Animals"), ("ribbon", "Ribbons"), ("chaff", "Chaff"))


@dataclass(frozen=True)
class Row:
    """A labelled row of a picture. ``layout`` "months": full tiles grouped by month;
    "pile": a score pile's smaller tiles grouped by kind, with ``note`` (its dekiyaku
    progress) under the label. ``marked`` cards get a gold frame."""

    label: str
    cards: tuple[str, ...]
    layout: str = "months"
    marked: frozenset[str] = frozenset()
    note: tuple[tuple[str, bool], ...] = ()
    """The progress line's parts: (text, complete)."""


_FOUR = ("pine-bright", "cherry-bright", "susuki-bright", "paulownia-bright")
_FIVE = (*_FOUR, "willow-bright")
_POETRY = ("pine-ribbon", "plum-ribbon", "cherry-ribbon")
_BLUE = ("peony-ribbon", "chrysanthemum-ribbon", "maple-ribbon")
_RIBBONS = tuple(card.id for card in CARDS.values() if card.category == "ribbon")


def progress(pile: Sequence[str]) -> list[tuple[str, bool]]:
    """A pile's way toward each dekiyaku it has a card of (rules §12.1), and toward
    Sixteen Chaff (§13.2, Willow counts): ``("Poetry 2/3", False)``; True once complete.
    Boar-Deer-Butterflies is left out: the Boar is not in this deck."""
    held = set(pile)
    parts: list[tuple[str, bool]] = []

    def count(name: str, cards: Sequence[str]) -> None:
        have = sum(1 for card in cards if card in held)
        if have:
            parts.append((f"{name} {have}/{len(cards)}", have == len(cards)))

    if "willow-bright" in held:
        count("Five Brights", _FIVE)
    else:
        count("Four Brights", _FOUR)
    count("Poetry", _POETRY)
    count("Blue", _BLUE)
    count("Seven Ribbons", _RIBBONS)
    chaff = sum(1 for card in pile if CARDS[card].chaff_like)
    if chaff:
        parts.append((f"Chaff {chaff}/16", chaff >= 16))
    return parts


def by_kind(cards: Sequence[str]) -> list[tuple[str, list[str]]]:
    """A pile's cards by printed kind (brights, animals, ribbons, chaff; Willow cards keep
    theirs), each kind in deck order; kinds without a card left out."""
    ordered = sorted(cards, key=lambda card: card_of(card).index)
    groups = []
    for kind, word in KINDS:
        mine = [card for card in ordered if CARDS[card].category == kind]
        if mine:
            groups.append((word, mine))
    return groups


@functools.cache
def small_tile(card_id: str) -> Image.Image:
    """The card's tile at pile size (cached; paste it, never draw on it)."""
    return tile(card_id).resize((PILE_W, PILE_H), Image.Resampling.LANCZOS)


@functools.lru_cache(maxsize=2048)
def _width(text: str, size: int) -> int:
    return math.ceil(_font(size).getlength(text))


@functools.lru_cache(maxsize=1024)
def _text_image(text: str, size: int, colour: RGB) -> tuple[Image.Image, int, int]:
    """``text`` drawn once on the background, with its offset from the left end of its
    baseline: a picture pastes its labels (a FreeType render costs about half a
    millisecond, and the same labels return on every picture)."""
    font = _font(size)
    x0, y0, x1, y1 = (round(v) for v in font.getbbox(text, anchor="ls"))
    image = Image.new("RGB", (max(1, x1 - x0), max(1, y1 - y0)), BACKGROUND)
    ImageDraw.Draw(image).text((-x0, -y0), text, fill=colour, font=font, anchor="ls")
    return image, x0, y0


def _write(image: Image.Image, xy: tuple[int, int], text: str, size: int, colour: RGB) -> None:
    """``text`` with the left end of its baseline at ``xy``."""
    drawn, dx, dy = _text_image(text, size, colour)
    image.paste(drawn, (xy[0] + dx, xy[1] + dy))


def _lines(groups: list[tuple[int, list[str]]]) -> list[list[tuple[int, str]]]:
    """Months kept whole on one line where they fit: at most MAX_PER_LINE tiles a line."""
    lines: list[list[tuple[int, str]]] = [[]]
    for month, cards in groups:
        if lines[-1] and len(lines[-1]) + len(cards) > MAX_PER_LINE:
            lines.append([])
        for card_id in cards:
            if len(lines[-1]) == MAX_PER_LINE:
                lines.append([])
            lines[-1].append((month, card_id))
    return lines if lines[0] else []


def _positions(line: list[tuple[int, str]]) -> list[int]:
    """Each tile's x offset in its line: GAP within a month, MONTH_GAP between months."""
    xs: list[int] = []
    x = 0
    for i, (month, _card) in enumerate(line):
        if i:
            x += TILE_W + (GAP if line[i - 1][0] == month else MONTH_GAP)
        xs.append(x)
    return xs


def _pile_layout(groups: list[tuple[str, list[str]]]) -> list[tuple[int, int, int]]:
    """Each kind's x offset, tile step and width: the widest step (no overlap) with which
    the whole pile fits MAX_W on one line, down to PILE_MIN_STEP."""
    heads = [_width(f"{word} {len(cards)}", 11) for word, cards in groups]
    step = PILE_STEP
    while True:
        widths = [
            max(w, PILE_W + (len(cards) - 1) * step)
            for w, (_word, cards) in zip(heads, groups, strict=True)
        ]
        total = sum(widths) + KIND_GAP * (len(groups) - 1)
        if total <= MAX_W or step <= PILE_MIN_STEP:
            break
        step -= 1
    out = []
    x = 0
    for width in widths:
        out.append((x, step, width))
        x += width + KIND_GAP
    return out


NOTE_SEP = "   "


def _row_size(row: Row) -> tuple[int, int]:
    """A row's width (of its widest part) and height, label included."""
    width = _width(row.label, 14)
    if row.layout == "pile":
        note = NOTE_SEP.join(text for text, _done in row.note)
        width = max(width, _width(note, 12))
        groups = by_kind(row.cards)
        if not groups:
            return width, LABEL_H + (NOTE_H if row.note else 0) + EMPTY_H
        x, _step, w = _pile_layout(groups)[-1]
        return max(width, x + w), LABEL_H + (NOTE_H if row.note else 0) + HEAD_H + PILE_H
    lines = _lines(month_groups(row.cards))
    for line in lines:
        width = max(width, _positions(line)[-1] + TILE_W)
    body = len(lines) * TILE_H + (len(lines) - 1) * LINE_GAP if lines else EMPTY_H
    return width, LABEL_H + body


def _frame(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int) -> None:
    draw.rounded_rectangle(
        [(x - MARK_W, y - MARK_W), (x + w + MARK_W - 1, y + h + MARK_W - 1)],
        radius=_RADIUS + MARK_W,
        outline=MARK,
        width=MARK_W,
    )


def _draw_row(image: Image.Image, draw: ImageDraw.ImageDraw, row: Row, y: int) -> None:
    _write(image, (MARGIN, y + LABEL_H - 6), row.label, 14, LABEL_COLOUR)
    y += LABEL_H
    if row.layout == "pile" and row.note:
        x = MARGIN
        for text, done in row.note:
            _write(image, (x, y + NOTE_H - 5), text, 12, DONE_COLOUR if done else MUTED_COLOUR)
            x += _width(text + NOTE_SEP, 12)
        y += NOTE_H
    if row.layout == "pile":
        groups = by_kind(row.cards)
        if not groups:
            _write(image, (MARGIN, y + EMPTY_H - 8), "(no captures yet)", 13, MUTED_COLOUR)
            return
        for (word, cards), (x, step, _w) in zip(groups, _pile_layout(groups), strict=True):
            _write(image, (MARGIN + x, y + HEAD_H - 4), f"{word} {len(cards)}", 11, LABEL_COLOUR)
            for k, card_id in enumerate(cards):
                image.paste(small_tile(card_id), (MARGIN + x + k * step, y + HEAD_H))
        return
    lines = _lines(month_groups(row.cards))
    if not lines:
        _write(image, (MARGIN, y + EMPTY_H - 8), "(empty)", 13, MUTED_COLOUR)
        return
    for j, line in enumerate(lines):
        y += LINE_GAP if j else 0
        for x, (_month, card_id) in zip(_positions(line), line, strict=True):
            image.paste(tile(card_id), (MARGIN + x, y))
            if card_id in row.marked:
                _frame(draw, MARGIN + x, y, TILE_W, TILE_H)
        y += TILE_H


def _alt(rows: Sequence[Row]) -> str:
    parts = []
    for row in rows:
        if row.layout == "pile":
            head = row.label
            if row.note:
                head += " (" + ", ".join(text for text, _done in row.note) + ")"
            groups = by_kind(row.cards)
            if not groups:
                parts.append(f"{head}: no captures yet")
                continue
            kinds = "; ".join(
                f"{word.lower()} — " + ", ".join(CARDS[card].name for card in cards)
                for word, cards in groups
            )
            parts.append(f"{head}: {kinds}")
            continue
        groups_m = month_groups(row.cards)
        if not groups_m:
            parts.append(f"{row.label}: empty")
            continue
        months = "; ".join(
            f"{MONTHS[month].name} — "
            + ", ".join(
                CARDS[card].name + (" (marked)" if card in row.marked else "") for card in cards
            )
            for month, cards in groups_m
        )
        parts.append(f"{row.label}: {months}")
    text = ". ".join(parts)
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + "…"


@functools.lru_cache(maxsize=256)
def _render(rows: tuple[Row, ...], filename: str) -> RenderedImage:
    sizes = [_row_size(row) for row in rows]
    width = max((w for w, _h in sizes), default=0) + 2 * MARGIN
    height = 2 * MARGIN + sum(h for _w, h in sizes) + ROW_GAP * max(0, len(rows) - 1)
    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    for row, (_w, h) in zip(rows, sizes, strict=True):
        _draw_row(image, draw, row, y)
        y += h + ROW_GAP
    buffer = io.BytesIO()
    # A 256-colour palette: the tiles are flat colours, so nothing visible is lost, and
    # the PNG is a third of the RGB one (~35 KB), quicker to save and to upload.
    palette = image.quantize(256, method=Image.Quantize.FASTOCTREE)
    palette.save(buffer, "PNG", optimize=False, compress_level=1)
    # No card ids in the log: a hand is secret, and logs are read by more people.
    log.debug("rendered %d rows into %d×%d px, %d bytes", len(rows), width, height, buffer.tell())
    return RenderedImage(png=buffer.getvalue(), filename=filename, alt=_alt(rows))


def render_rows(rows: Sequence[Row], *, filename: str = "cards.png") -> RenderedImage:
    """One PNG of :class:`Row` s (see :func:`render_cards`); the same rows give the same
    cached object. An unknown card id raises ``KeyError``."""
    for row in rows:
        for card_id in row.cards:
            card_of(card_id)
    return _render(tuple(rows), filename)


def render_cards(
    groups: Sequence[tuple[str, Sequence[str]]], *, filename: str = "cards.png"
) -> RenderedImage:
    """One PNG of labelled rows of card tiles, e.g. ``[("Field", field), ("Your hand",
    hand)]``. Every row is grouped by month (months ascending; a month's cards in deck
    order); an empty row shows "(empty)". The same rows give the same cached object.

    ``filename`` is the caller's fixed name and must not be derived from the cards (see
    the module docstring). An unknown card id raises ``KeyError``."""
    return render_rows(
        [Row(str(label), tuple(cards)) for label, cards in groups], filename=filename
    )


def cache_clear() -> None:
    """Forget every composed image (the tiles stay): for benchmarks and tests."""
    _render.cache_clear()


def replay_tile(card_id: str, height: int) -> bytes:
    """A card's tile ``height`` pixels high, as the replay page shows it."""
    image = tile(card_id)
    width = round(image.width * height / image.height)
    small = image.resize((width, height))
    buffer = io.BytesIO()
    small.convert("RGB").save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def picture(rows: Sequence[tuple[str, list[str]] | Row], filename: str) -> Picture:
    """The rows as a message's picture; its key names what it shows (labels, cards, marks
    and notes), so an unchanged picture is not uploaded again."""
    made = [row if isinstance(row, Row) else Row(row[0], tuple(row[1])) for row in rows]
    image = render_rows(made, filename=filename)
    key = "|".join(
        f"{row.label}:{row.layout}:{','.join(sorted(row.cards))}:{','.join(sorted(row.marked))}"
        for row in made
    )
    return Picture(key=key, png=image.png, filename=image.filename, description=image.alt)
