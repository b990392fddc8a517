"""The 34 Hachi-hachi card tiles: each card drawn with its own traditional hanafuda picture.

A hanafuda player knows a card by its picture, not its words, so every card of the deck
has its own motif, drawn with Pillow primitives (no image files). The words in its bands are
in the locale in effect (the table's language for the table's picture, the member's for a
private hand), written in Noto Sans CJK JP (bot/fonts.py): a Japanese tile names its month
松, 梅… and its kind 光, タネ, 赤短, カス.

- Brights: the Crane under the red Sun in pine, the Curtain under cherry blossom, the Full
  Moon over the pampas hill, the Rain Man with his umbrella (and frog) under the willow,
  the Phoenix over paulownia.
- Animals: the bush warbler on plum, butterflies over the peony, geese over the pampas
  hill, the sake cup among chrysanthemums, the deer under maple, the swallow in willow.
- Ribbons: red poetry ribbons with writing (pine, plum, cherry), blue ribbons (peony,
  chrysanthemum, maple), the plain red ribbon (willow).
- Chaff: the month's plant alone (Susuki's chaff is the hill and its grass, no moon); a
  month's second chaff is the first one's mirror image, so no two tiles are alike.
  Lightning, the Willow chaff, is the thunder drum and its bolt in the storm.

Every tile also carries its month's colour as its ground, its month number and full name
in the top band (two lines when the name is too long for one), and its kind and points in
the bottom band. A tile is drawn once per locale at _SCALE times its size, scaled down and
cached.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont, ImageOps

from bot.fonts import noto
from bot.games.hachihachi.cards import CARDS, Card
from bot.i18n import N_, _, current_locale, use_locale

TILE_W = 60
TILE_H = 96
BACKGROUND = (43, 45, 49)
"""The image's ground, seen in a tile's rounded corners."""

_SCALE = 3
"""Tiles are drawn at 3× and scaled down once: smooth curves and text at no cost per image."""
BAND_TOP = 19
"""The top band: the month's number and full name."""
BAND_BOTTOM = 16
"""The bottom band: the card's kind and points."""
_RIM = 2
CORNER_RADIUS = 6
NUMBER_SIZE = 11
NAME_SIZES = (10, 9, 8)
"""The name's font sizes, largest first: the largest whose one line fits is used."""
TWO_LINE_SIZE = 8
"""A name too long for one line at the smallest size is written in two lines of this size."""
NAME_SPLITS: dict[str, tuple[str, str]] = {"Chrysanthemum": ("Chrysan-", "themum")}

RGB = tuple[int, int, int]
Point = tuple[float, float]

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

RIBBON_WORDS = {"poetry": N_("Poetry"), "blue": N_("Blue"), "plain": N_("Ribbon")}
KIND_WORDS = {"bright": N_("Bright"), "animal": N_("Animal"), "chaff": N_("Chaff")}
"""A tile's kind word: hanafuda's own in Japanese (光, タネ, 赤短, 青短, 短冊, カス)."""
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
RED = (211, 47, 47)
BARK = (78, 52, 46)
SKIN = (255, 214, 170)


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


def font(size: int) -> ImageFont.FreeTypeFont:
    """The pictures' font at ``size`` pixels: it has Latin letters, kana and kanji."""
    return noto(size)


def _oval(centre: Point, rx: float, ry: float, angle: float = 0.0, n: int = 20) -> list[Point]:
    """An ellipse as a polygon, turned by ``angle`` degrees: leaves, wings, feathers."""
    x, y = centre
    turn = math.radians(angle)
    cos, sin = math.cos(turn), math.sin(turn)
    points = []
    for i in range(n):
        t = 2 * math.pi * i / n
        px, py = rx * math.cos(t), ry * math.sin(t)
        points.append((x + px * cos - py * sin, y + px * sin + py * cos))
    return points


class _Pen:
    """Draws in tile coordinates (60 × 96) on a canvas _SCALE times larger."""

    def __init__(self, draw: ImageDraw.ImageDraw) -> None:
        self.draw = draw

    @staticmethod
    def _xy(points: Sequence[Point]) -> list[tuple[float, float]]:
        return [(x * _SCALE, y * _SCALE) for x, y in points]

    def line(self, points: Sequence[Point], colour: RGB, width: float) -> None:
        self.draw.line(
            self._xy(points), fill=colour, width=max(1, round(width * _SCALE)), joint="curve"
        )

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

    def ellipse(self, centre: Point, rx: float, ry: float, colour: RGB, angle: float = 0) -> None:
        if angle:
            self.polygon(_oval(centre, rx, ry, angle), colour)
            return
        x, y = centre
        self.draw.ellipse(self._xy([(x - rx, y - ry), (x + rx, y + ry)]), fill=colour)

    def pieslice(self, centre: Point, radius: float, start: float, end: float, colour: RGB) -> None:
        x, y = centre
        box = self._xy([(x - radius, y - radius), (x + radius, y + radius)])
        self.draw.pieslice(box, start, end, fill=colour)

    def text(
        self, xy: Point, text: str, size: float, colour: RGB, anchor: str = "ls", stroke: int = 0
    ) -> None:
        self.draw.text(
            (xy[0] * _SCALE, xy[1] * _SCALE),
            text,
            fill=colour,
            font=font(round(size * _SCALE)),
            anchor=anchor,
            stroke_width=stroke,
            stroke_fill=colour,
        )


# --- Plants: each month's picture, which every card of the month shows ---------------------


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


def _pine_clump(pen: _Pen, cx: float, cy: float, size: float = 1.0) -> None:
    pen.ellipse((cx, cy), 10 * size, 5.5 * size, (124, 179, 66))
    for i in range(9):  # a fan of needles over the clump
        angle = math.pi + math.pi * i / 8
        pen.line(
            [
                (cx, cy + 3 * size),
                (cx + 11 * size * math.cos(angle), cy + (3 + 9 * math.sin(angle)) * size),
            ],
            (20, 70, 28),
            0.9,
        )


def _pine(pen: _Pen) -> None:
    pen.line([(8, 82), (18, 68), (28, 58), (36, 46), (48, 36)], BARK, 3.5)
    pen.line([(28, 58), (14, 48)], BARK, 2)
    for cx, cy in ((14, 46), (30, 36), (46, 32), (38, 60), (18, 68)):
        _pine_clump(pen, cx, cy)


PLUM_RED = (200, 30, 45)
"""紅梅: the red blossoms of the plum, drawn among the white ones (白梅) as on the
printed cards."""
PLUM_WHITE = (255, 244, 246)


def _plum_branch(pen: _Pen, blossoms: Sequence[Point]) -> None:
    pen.line([(2, 72), (18, 62), (26, 46), (40, 40), (58, 28)], (62, 39, 35), 3)
    pen.line([(26, 46), (22, 28)], (62, 39, 35), 2)
    for i, centre in enumerate(blossoms):
        # Red and white in turn: a red blossom has a pale heart, a white one a red heart.
        petal, heart = (PLUM_RED, (255, 214, 90)) if i % 2 == 0 else (PLUM_WHITE, PLUM_RED)
        _flower(pen, centre, 6.5, petal, heart)


def _plum(pen: _Pen) -> None:
    _plum_branch(pen, ((18, 60), (24, 30), (40, 42), (52, 28), (10, 70)))


def _cherry(pen: _Pen) -> None:
    pen.line([(0, 30), (20, 36), (40, 50), (60, 52)], (93, 64, 55), 2.5)
    for centre, radius in (((16, 36), 9.0), ((42, 50), 11.0), ((22, 66), 8.0), ((50, 28), 7.0)):
        _flower(pen, centre, radius, (255, 250, 252), (216, 27, 96))
    for x, y in ((34, 26), (36, 74), (8, 52), (54, 70)):  # falling petals
        pen.ellipse((x, y), 2.2, 1.4, (216, 27, 96))


def _peony_flower(pen: _Pen, cx: float, cy: float, r: float) -> None:
    pen.circle((cx, cy), r, (229, 57, 53))
    for i in range(8):  # a ring of outer petals
        angle = 2 * math.pi * i / 8
        pen.circle(
            (cx + 0.8 * r * math.cos(angle), cy + 0.8 * r * math.sin(angle)), r / 3, (239, 83, 80)
        )
    pen.circle((cx, cy), 0.6 * r, (244, 143, 177))
    pen.circle((cx, cy), 0.23 * r, (255, 214, 0))


def _peony(pen: _Pen, cy: float = 50, r: float = 15) -> None:
    for points in (
        [(6, 80), (18, cy + 12), (24, 80)],
        [(36, 80), (44, cy + 10), (56, 78)],
        [(14, cy + 2), (4, cy - 12), (22, cy - 6)],
    ):
        pen.polygon(points, (67, 160, 71))
    _peony_flower(pen, 32, cy, r)


_HILL = [(0, 80), (0, 62), (14, 56), (30, 54), (46, 58), (60, 66), (60, 80)]


def _susuki(pen: _Pen) -> None:
    """The black hill and its pampas grass: no moon (that is the Bright's)."""
    pen.polygon(_HILL, (12, 12, 16))
    pen.line(_HILL[1:-1], (90, 100, 140), 1.2)  # the hill's ridge, seen against the night
    for x in range(4, 60, 6):
        top = 44 + (x * 7) % 12
        pen.line([(x, 80), (x + 2, 66), (x + 6, top)], (224, 192, 104), 0.9)
        pen.ellipse((x + 6, top + 2), 1.2, 3, (240, 220, 150))


def _chrysanthemum_flower(pen: _Pen, cx: float, cy: float, radius: float) -> None:
    for i in range(16):
        angle = 2 * math.pi * i / 16
        pen.line(
            [(cx, cy), (cx + radius * math.cos(angle), cy + radius * math.sin(angle))],
            (198, 40, 40),
            2.2 if radius > 10 else 1.4,
        )
    pen.circle((cx, cy), radius * 0.3, (255, 241, 118))


def _chrysanthemum(pen: _Pen) -> None:
    pen.line([(30, 80), (30, 60)], (51, 105, 30), 2.5)
    pen.polygon([(30, 70), (16, 62), (24, 74)], (51, 105, 30))
    pen.polygon([(30, 66), (46, 58), (38, 72)], (51, 105, 30))
    for (cx, cy), radius in (((30, 44), 15.0), ((12, 30), 7.0), ((50, 30), 7.0)):
        _chrysanthemum_flower(pen, cx, cy, radius)


def _maple_leaf(pen: _Pen, centre: Point, radius: float, leaf: RGB) -> None:
    x, y = centre
    points = []
    for i in range(14):  # seven lobes: alternate long and short radii
        angle = 2 * math.pi * i / 14 - math.pi / 2
        r = radius if i % 2 == 0 else radius * 0.45
        points.append((x + r * math.cos(angle), y + r * math.sin(angle)))
    pen.polygon(points, leaf)
    pen.line([(x, y), (x, y + radius * 1.1)], (93, 64, 55), 1.2)


_MAPLE_LEAVES: tuple[tuple[Point, float, RGB], ...] = (
    ((14, 46), 9.0, (255, 193, 7)),
    ((42, 42), 10.0, (255, 143, 0)),
    ((28, 66), 10.0, (255, 213, 79)),
    ((50, 68), 7.0, (255, 143, 0)),
)


def _maple(pen: _Pen, leaves: Sequence[tuple[Point, float, RGB]] = _MAPLE_LEAVES) -> None:
    pen.line([(2, 32), (30, 42), (58, 30)], (93, 64, 55), 2)
    for centre, radius, leaf in leaves:
        _maple_leaf(pen, centre, radius, leaf)


def _willow(pen: _Pen, strands: Sequence[float] = (6, 16, 26, 36, 46, 56)) -> None:
    for x in strands:
        sway = 5 if round(x) % 20 == 6 else -5
        strand = [(x, 18.0), (x + sway * 0.5, 40.0), (x + sway, 62.0), (x + sway * 0.6, 78.0)]
        pen.line(strand, (56, 94, 46), 1.4)
        for sx, sy in strand[1:]:
            pen.ellipse((sx + 1.5, sy - 4), 1.4, 3.2, (156, 204, 101))


def _leaf(centre: Point, rx: float, ry: float) -> list[Point]:
    """A broad leaf with a pointed tip upwards: an oval drawn out at its top."""
    y = centre[1]
    points = _oval(centre, rx, ry, n=24)
    return [(px, py - ry * 0.5) if py < y - ry * 0.9 else (px, py) for px, py in points]


def _paulownia_leaves(pen: _Pen, cy: float = 66) -> None:
    for centre, rx, ry in (
        ((16, cy - 2), 12.0, 9.0),
        ((44, cy - 2), 12.0, 9.0),
        ((30, cy + 5), 10.0, 7.5),
    ):
        pen.polygon(_leaf(centre, rx, ry), (51, 105, 30))
        pen.line([centre, (centre[0], centre[1] - ry + 2)], (139, 195, 74), 1)


def _paulownia_spike(pen: _Pen, x: float, top: float, size: float = 1.0) -> None:
    pen.line([(x, top), (x, top + 20 * size)], (74, 20, 140), 1.5)
    for i, (dx, dy) in enumerate(((0, 0), (-5, 6), (5, 6), (-6, 13), (6, 13), (0, 18))):
        pen.circle(
            (x + dx * size, top + dy * size),
            3.2 * size,
            (149, 117, 205) if i % 2 else (179, 157, 219),
        )


def _paulownia(pen: _Pen) -> None:
    for x, top in ((30, 22), (14, 30), (46, 30)):
        _paulownia_spike(pen, x, top, 0.8 if x != 30 else 1.0)
    _paulownia_leaves(pen)


# --- The cards' own figures -------------------------------------------------------------------


def _ribbon(pen: _Pen, kind: str) -> None:
    colour = RIBBON_COLOURS[kind]
    band = [(14, 24), (28, 22), (40, 76), (26, 78)]  # a tanzaku slanted across the picture
    pen.polygon(band, colour, outline=WHITE)
    if kind == "poetry":
        for i in range(4):  # the poem's writing down the ribbon
            t = 0.16 + 0.2 * i
            x = 21 + (33 - 21) * t
            y = 23 + (77 - 23) * t
            pen.line([(x - 2, y - 2.5), (x + 1.5, y - 1), (x - 0.5, y + 2.5)], INK, 1.3)


def _crane_with_sun(pen: _Pen) -> None:
    pen.circle((40, 36), 14, (220, 30, 40))  # the red sun
    pen.line([(2, 80), (14, 72), (24, 74)], BARK, 3)  # a low pine under the crane
    _pine_clump(pen, 10, 72, 0.9)
    _pine_clump(pen, 50, 74, 0.8)
    pen.polygon([(10, 56), (2, 62), (6, 66), (16, 62)], INK)  # black tail feathers
    pen.ellipse((20, 58), 11, 7, WHITE, angle=-15)  # the body
    pen.line([(28, 54), (31, 44), (30, 34)], INK, 2.6)  # the neck, black in front
    pen.line([(27.5, 54), (30, 44), (29, 34)], WHITE, 1.4)
    pen.circle((30, 32), 3, WHITE)
    pen.circle((30, 30.5), 1.6, (220, 30, 40))  # the red crown
    pen.polygon([(32, 31), (39, 34), (32, 33.5)], (90, 90, 90))  # the beak
    pen.line([(18, 64), (17, 78)], INK, 1.2)
    pen.line([(23, 64), (25, 78)], INK, 1.2)


def _curtain(pen: _Pen) -> None:
    pen.line([(0, 48), (60, 48)], (120, 70, 40), 1.6)  # the rope
    top, bottom = 48.0, 80.0
    points: list[Point] = [(0, top), (60, top), (60, bottom)]
    for i in range(6, -1, -1):  # a scalloped hem of hanging folds
        points.append((i * 10, bottom - (4 if i % 2 else 0)))
    pen.polygon(points, (160, 30, 70))
    for x in (10, 30, 50):  # white stripes down the folds
        pen.polygon(
            [(x - 2.5, top), (x + 2.5, top), (x + 2.5, bottom - 2), (x - 2.5, bottom - 2)], WHITE
        )
    for cx in (20, 40):  # the family crest: a ring of three dots
        cy = 63.0
        pen.circle((cx, cy), 5, WHITE)
        pen.circle((cx, cy), 3.8, (160, 30, 70))
        for k in range(3):
            angle = 2 * math.pi * k / 3 - math.pi / 2
            pen.circle((cx + 1.8 * math.cos(angle), cy + 1.8 * math.sin(angle)), 1.1, WHITE)
    for x in (4, 56):  # red ties at the ends of the rope
        pen.line([(x, top), (x - 2, top + 9)], RED, 1.6)


def _cherry_bright(pen: _Pen) -> None:
    pen.line([(0, 26), (24, 34), (60, 28)], (93, 64, 55), 2.5)
    for centre, radius in (((12, 30), 9.0), ((32, 36), 10.0), ((52, 26), 8.0)):
        _flower(pen, centre, radius, (255, 250, 252), (216, 27, 96))
    _curtain(pen)


def _full_moon(pen: _Pen) -> None:
    pen.circle((30, 40), 17, (255, 243, 196))
    pen.circle((30, 40), 17, None, outline=(255, 220, 120), width=1)
    _susuki(pen)


def _rain_man(pen: _Pen) -> None:
    _willow(pen, (6, 52))
    pen.line([(4, 36), (10, 44)], (150, 180, 200), 0.8)  # rain
    pen.line([(48, 22), (54, 30)], (150, 180, 200), 0.8)
    # The yellow umbrella: a dome on its ribs, its handle in the man's hand.
    dome = [
        (28 + 19 * math.cos(math.radians(t)), 46 - 12 * math.sin(math.radians(t)))
        for t in range(0, 181, 15)
    ]
    pen.polygon(dome, (240, 190, 60))
    for t in (30, 60, 90, 120, 150):
        rad = math.radians(t)
        pen.line(
            [(28, 34), (28 + 19 * math.cos(rad), 46 - 12 * math.sin(rad))], (170, 120, 30), 0.7
        )
    pen.line([(9, 46), (47, 46)], (170, 120, 30), 1)
    pen.line([(28, 34), (28, 31)], BARK, 1.2)
    pen.line([(28, 46), (30, 60)], BARK, 1.2)
    # The man under it: head, black hat, robe.
    pen.circle((32, 51), 3.2, SKIN)
    pen.polygon([(28.5, 49.5), (35.5, 49.5), (32, 46.5)], INK)
    pen.polygon([(28, 55), (37, 55), (41, 78), (24, 78)], (40, 60, 140))
    pen.polygon([(29, 55), (33, 55), (31, 78), (26, 78)], WHITE)
    # The frog leaping at the willow, bottom left.
    pen.ellipse((12, 72), 5, 3.5, (120, 200, 60))
    pen.circle((9.5, 69.5), 1.5, (120, 200, 60))
    pen.circle((9.5, 69.5), 0.7, INK)
    pen.line([(15, 73), (19, 77)], (120, 200, 60), 1.2)
    # The stream.
    pen.line([(44, 78), (50, 74), (60, 76)], (120, 170, 220), 1.5)


def _phoenix(pen: _Pen) -> None:
    _paulownia_leaves(pen, 70)
    _paulownia_spike(pen, 10, 22, 0.6)
    # The fanned tail: long feathers, each with an eye.
    feathers = ((150, (46, 125, 50)), (168, (30, 90, 168)), (186, (229, 57, 53)), (204, GOLD))
    for angle, colour in feathers:
        rad = math.radians(angle)
        end = (32 + 24 * math.cos(rad), 48 - 24 * math.sin(rad))
        pen.line([(32, 48), end], colour, 2.6)
        pen.circle(end, 2.8, GOLD)
        pen.circle(end, 1.3, (30, 90, 168))
    # The body, wing and head with its crest.
    pen.ellipse((32, 46), 9, 6, (229, 57, 53), angle=-30)
    pen.polygon([(26, 44), (36, 30), (40, 44)], (255, 160, 0))  # the raised wing
    pen.polygon([(30, 42), (37, 34), (38, 44)], (46, 125, 50))
    pen.line([(38, 42), (44, 32)], (229, 57, 53), 2.2)  # the neck
    pen.circle((45, 30), 3, (229, 57, 53))
    pen.polygon([(47, 29), (52, 31), (47, 31.5)], GOLD)
    pen.line([(44, 28), (42, 22)], GOLD, 1)
    pen.line([(45.5, 28), (46, 22)], GOLD, 1)
    pen.circle((45.5, 29.5), 0.8, WHITE)


def _bush_warbler(pen: _Pen) -> None:
    _plum_branch(pen, ((18, 60), (10, 70), (54, 33), (21, 25)))
    olive = (140, 150, 50)
    pen.polygon([(22, 38), (5, 33), (8, 42)], _shade(olive, 0.7))  # the tail
    pen.ellipse((30, 37), 13, 8, olive, angle=-15)
    pen.ellipse((32, 40), 8, 4, (205, 205, 130), angle=-15)  # pale belly
    pen.ellipse((27, 35), 8, 4, _shade(olive, 0.8), angle=-25)  # folded wing
    pen.circle((42, 28), 6.5, olive)
    pen.polygon([(47.5, 26.5), (54, 28.5), (47.5, 30)], (90, 70, 40))  # the beak
    pen.circle((44, 27), 1.8, WHITE)
    pen.circle((44.3, 27), 0.9, INK)
    pen.line([(28, 44), (27, 47)], (90, 70, 40), 1)  # feet on the branch
    pen.line([(33, 43), (33, 45.5)], (90, 70, 40), 1)


def _butterfly(pen: _Pen, cx: float, cy: float, wing: RGB, tilt: float, k: float) -> None:
    """A butterfly seen from above, ``k`` times its smallest size."""
    hind = _shade(wing, 0.75)
    pen.ellipse((cx - 4 * k, cy - 3 * k), 5 * k, 3.8 * k, wing, angle=tilt - 30)
    pen.ellipse((cx + 4 * k, cy - 3 * k), 5 * k, 3.8 * k, wing, angle=tilt + 30)
    pen.ellipse((cx - 3 * k, cy + 3 * k), 3.2 * k, 2.6 * k, hind, angle=tilt + 20)
    pen.ellipse((cx + 3 * k, cy + 3 * k), 3.2 * k, 2.6 * k, hind, angle=tilt - 20)
    pen.circle((cx - 4 * k, cy - 3 * k), 1.1 * k, INK)
    pen.circle((cx + 4 * k, cy - 3 * k), 1.1 * k, INK)
    pen.ellipse((cx, cy), 1 * k, 5 * k, INK, angle=tilt)
    pen.line([(cx, cy - 5 * k), (cx - 3 * k, cy - 9 * k)], INK, 0.7)
    pen.line([(cx, cy - 5 * k), (cx + 3 * k, cy - 9 * k)], INK, 0.7)


def _butterflies(pen: _Pen) -> None:
    _peony(pen, cy=62, r=11)
    _butterfly(pen, 16, 36, (100, 180, 240), -15, 1.4)
    _butterfly(pen, 44, 42, (255, 214, 0), 20, 1.3)


def _goose(pen: _Pen, cx: float, cy: float, size: float) -> None:
    colour = (20, 20, 24)
    pen.polygon([(cx - 8 * size, cy - 4 * size), (cx, cy), (cx - 3 * size, cy + 1 * size)], colour)
    pen.polygon([(cx + 8 * size, cy - 5 * size), (cx, cy), (cx + 3 * size, cy + 1 * size)], colour)
    pen.ellipse((cx, cy + 0.5 * size), 3.5 * size, 1.6 * size, colour, angle=-20)
    pen.circle((cx + 3.5 * size, cy - 1 * size), 1.2 * size, colour)


def _geese(pen: _Pen) -> None:
    # The traditional red evening sky, the geese black against it, over the hill's grass.
    sky = [(0, 0), (60, 0), (60, 50), (44, 54), (28, 52), (12, 56), (0, 54)]
    pen.polygon(sky, (205, 55, 45))
    _susuki(pen)
    _goose(pen, 14, 27, 1.5)
    _goose(pen, 40, 30, 1.6)
    _goose(pen, 26, 46, 1.7)


def _sake_cup(pen: _Pen) -> None:
    for (cx, cy), radius in (((10, 28), 7.0), ((50, 28), 7.0), ((8, 72), 6.0), ((52, 72), 6.0)):
        _chrysanthemum_flower(pen, cx, cy, radius)
    pen.polygon([(24, 60), (36, 60), (38, 70), (22, 70)], (150, 20, 20))  # the foot
    pen.ellipse((30, 70), 9, 2.5, (120, 15, 15))
    pen.pieslice((30, 44), 18, 0, 180, (200, 25, 30))  # the lacquered bowl
    pen.ellipse((30, 44), 18, 5, GOLD)  # its gold rim
    pen.ellipse((30, 44), 16, 3.8, (200, 25, 30))
    # 寿 (kotobuki, long life) in gold on the bowl, as the printed cup bears it: written
    # with the font (strokes drawn by hand read as 王).
    pen.text((30, 53), "寿", 11, GOLD, anchor="mm")


def _deer(pen: _Pen) -> None:
    _maple(
        pen,
        (
            ((12, 34), 8.0, (255, 193, 7)),
            ((46, 28), 9.0, (255, 143, 0)),
            ((30, 30), 6.0, (255, 213, 79)),
        ),
    )
    brown = (150, 95, 45)
    pen.ellipse((28, 60), 13, 7, brown)  # the body
    for x0, x1 in ((18, 17), (22, 23), (34, 35), (38, 40)):  # legs
        pen.line([(x0, 64), (x1, 79)], brown, 2)
    pen.line([(38, 58), (44, 46)], brown, 3.5)  # the neck, turned back
    pen.ellipse((44, 44), 4.5, 3, brown, angle=-20)
    pen.polygon([(47, 45), (52, 48), (47, 47)], _shade(brown, 0.6))  # muzzle
    pen.polygon([(41, 41), (37, 37), (42, 43)], brown)  # ear
    pen.line([(45, 41), (46, 34), (50, 31)], (90, 60, 30), 1)  # antlers
    pen.line([(46, 35), (42, 31)], (90, 60, 30), 1)
    pen.circle((45, 43.5), 0.8, INK)
    pen.polygon([(15, 58), (12, 55), (16, 56)], brown)  # tail
    for x, y in ((22, 58), (27, 56), (32, 58), (26, 61), (20, 62)):  # white spots
        pen.circle((x, y), 1.1, (250, 240, 220))


def _swallow(pen: _Pen) -> None:
    _willow(pen, (6, 26, 46, 56))
    body = (25, 30, 60)
    pen.polygon([(30, 48), (6, 40), (22, 52)], body)  # the far wing
    pen.polygon([(32, 48), (54, 30), (40, 52)], body)  # the near wing, raised
    pen.ellipse((32, 52), 8, 4, body, angle=20)
    pen.ellipse((33, 54), 5, 2, (240, 240, 235), angle=20)  # white belly
    pen.polygon([(26, 49), (14, 60), (24, 52), (18, 64), (28, 53)], body)  # the forked tail
    pen.circle((39, 56), 3.2, body)
    pen.circle((40.5, 57.5), 1.4, (220, 40, 40))  # the red throat
    pen.polygon([(41.5, 55), (45, 56.5), (41.5, 57)], INK)


def _lightning(pen: _Pen) -> None:
    pen.polygon([(0, 18), (60, 18), (60, 40), (44, 46), (28, 40), (12, 46), (0, 40)], (40, 42, 50))
    _willow(pen, (10, 30))
    pen.circle((44, 66), 9, (190, 30, 30))  # the thunder drum
    pen.circle((44, 66), 9, None, outline=INK, width=1.2)
    pen.circle((44, 66), 3.5, INK)
    bolt = [(36, 22), (50, 22), (42, 36), (52, 36), (24, 66), (34, 44), (26, 44)]
    pen.polygon(bolt, (255, 213, 79), outline=(190, 30, 30))


_Draw = Callable[[_Pen], None]

_PLANTS: dict[int, _Draw] = {
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
"""Each month's plant alone: its chaff, and the ground under its ribbon."""

_FIGURES: dict[str, _Draw] = {
    "pine-bright": _crane_with_sun,
    "plum-animal": _bush_warbler,
    "cherry-bright": _cherry_bright,
    "peony-animal": _butterflies,
    "susuki-bright": _full_moon,
    "susuki-animal": _geese,
    "chrysanthemum-animal": _sake_cup,
    "maple-animal": _deer,
    "willow-bright": _rain_man,
    "willow-animal": _swallow,
    "willow-chaff": _lightning,
    "paulownia-bright": _phoenix,
}
"""The cards with a picture of their own (brights, animals, Lightning)."""


def _picture(pen: _Pen, card: Card) -> None:
    figure = _FIGURES.get(card.id)
    if figure is not None:
        figure(pen)
        return
    _PLANTS[card.month](pen)
    if card.category == "ribbon" and card.ribbon is not None:
        _ribbon(pen, card.ribbon)


# --- Labels -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Label:
    """One text of a tile's bands, in tile pixels: where it is written and the box it must
    stay inside (the band, less the rim)."""

    xy: Point
    text: str
    size: float
    anchor: str
    box: tuple[float, float, float, float]


def labels(card_id: str) -> list[Label]:
    """The texts written on the card's tile, in the locale in effect: its month number and
    full name in the top band (the name in two lines when one line would not fit), its kind
    and points below."""
    card = CARDS[card_id]
    left, right = _RIM + 1, TILE_W - _RIM - 1
    top_box = (left, _RIM, right, BAND_TOP)
    bottom_box = (left, TILE_H - BAND_BOTTOM, right, TILE_H - _RIM)
    number = str(card.month)
    found = [Label((3.5, 14), number, NUMBER_SIZE, "ls", top_box)]
    name_x = 3.5 + font(NUMBER_SIZE * _SCALE).getlength(number) / _SCALE + 2
    room = right - name_x
    name = _(card.month_name)
    size = next((s for s in NAME_SIZES if font(s * _SCALE).getlength(name) / _SCALE <= room), None)
    if size is None and name not in NAME_SPLITS:
        size = NAME_SIZES[-1]  # a translation too long for the band: the tests catch it
    if size is not None:
        found.append(Label((name_x, 14), name, size, "ls", top_box))
    else:
        first, second = NAME_SPLITS[name]
        found.append(Label((name_x, 8.7), first, TWO_LINE_SIZE, "ls", top_box))
        found.append(Label((name_x, 17), second, TWO_LINE_SIZE, "ls", top_box))
    found.append(Label((5, TILE_H - 5), _kind_word(card), 10, "ls", bottom_box))
    found.append(Label((TILE_W - 5, TILE_H - 5), str(card.points), 10, "rs", bottom_box))
    return found


def _kind_word(card: Card) -> str:
    if card.category == "ribbon" and card.ribbon is not None:
        return _(RIBBON_WORDS[card.ribbon])
    return _(KIND_WORDS[card.category])


def _kind_colour(card: Card, band: RGB) -> RGB:
    if card.category == "bright":
        return GOLD
    if card.category == "animal":
        return CREAM
    if card.category == "ribbon" and card.ribbon is not None:
        return RIBBON_COLOURS[card.ribbon]
    return band


# --- The tile ---------------------------------------------------------------------------------


def tile(card_id: str) -> Image.Image:
    """The card's tile (TILE_W × TILE_H, RGB, on the image background) with its words in
    the locale in effect, drawn once per locale.

    The cached image is shared: paste it, never draw on it. An unknown id raises KeyError."""
    return _tile(card_id, current_locale())


@functools.cache
def _tile(card_id: str, locale: str) -> Image.Image:
    try:
        card = CARDS[card_id]
    except (KeyError, TypeError):
        raise KeyError(f"unknown hanafuda card {card_id!r}") from None
    with use_locale(locale):
        return _draw_tile(card)


def _draw_tile(card: Card) -> Image.Image:
    colour = MONTH_COLOURS[card.month]
    canvas = Image.new("RGB", (TILE_W * _SCALE, TILE_H * _SCALE), BACKGROUND)
    draw = ImageDraw.Draw(canvas)
    outer = [(0, 0), (TILE_W * _SCALE - 1, TILE_H * _SCALE - 1)]
    draw.rounded_rectangle(outer, radius=CORNER_RADIUS * _SCALE, fill=RIM_COLOUR)
    inner = [
        (_RIM * _SCALE, _RIM * _SCALE),
        ((TILE_W - _RIM) * _SCALE - 1, (TILE_H - _RIM) * _SCALE - 1),
    ]
    face = Image.new("RGB", canvas.size, colour)
    _picture(_Pen(ImageDraw.Draw(face)), card)
    if card.id.endswith("-chaff-2"):  # the month's other chaff: the same plant, mirrored
        face = ImageOps.mirror(face)
    pen = _Pen(ImageDraw.Draw(face))

    band = _shade(colour, 0.55)
    kind_colour = _kind_colour(card, band)
    pen.polygon([(0, 0), (TILE_W, 0), (TILE_W, BAND_TOP), (0, BAND_TOP)], band)
    pen.polygon(
        [(0, TILE_H - BAND_BOTTOM), (TILE_W, TILE_H - BAND_BOTTOM), (TILE_W, TILE_H), (0, TILE_H)],
        kind_colour,
    )
    ink = INK if _light(kind_colour) else WHITE
    if card.category == "chaff":
        ink = _shade(colour, 1.55) if not _light(colour) else _shade(colour, 1.3)
    texts = labels(card.id)
    pen.text(texts[0].xy, texts[0].text, texts[0].size, WHITE, stroke=1)
    for label in texts[1:-2]:
        pen.text(label.xy, label.text, label.size, WHITE)
    for label in texts[-2:]:
        pen.text(label.xy, label.text, label.size, ink, anchor=label.anchor)

    mask = Image.new("L", canvas.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=(CORNER_RADIUS - 1) * _SCALE, fill=255)
    canvas.paste(face, (0, 0), mask)
    return canvas.resize((TILE_W, TILE_H), Image.Resampling.LANCZOS)
