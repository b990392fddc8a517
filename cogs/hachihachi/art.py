"""Pictures of hanafuda cards for Nuki Hachi-hachi: one PNG of labelled rows of card tiles.

Players recognise hanafuda by sight, so the field and a hand are attached to the messages
as one image; the cog keeps the text list beside it (:func:`card_label`,
:func:`month_groups`) and the image carries an accessible description (``alt``).

Every card's tile, with its own traditional picture, is drawn once and cached in
:mod:`cogs.hachihachi.tiles`; an image is composed from the cached tiles and cached per
exact set of rows.

Secrecy: an image's file name never depends on its cards (a hand is at most 7 of 34
cards, so any digest of it in a name could be inverted by trying every hand); the caller
names the file.
"""

from __future__ import annotations

import functools
import io
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.games.hachihachi.cards import CARDS, MONTHS, Card
from cogs._ui.primitives import Picture
from cogs.hachihachi.tiles import BACKGROUND, TILE_H, TILE_W, tile
from cogs.hachihachi.tiles import font as _font

log = logging.getLogger(__name__)

# Layout, in pixels of the final image. A line holds at most 7 tiles (a full hand), so an
# image stays within 500 px wide and Discord shows it at about its own size.
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

LABEL_COLOUR = (220, 221, 222)
MUTED_COLOUR = (140, 144, 150)
ALT_LIMIT = 1024
"""Discord's limit on an attachment's description."""

KIND_WORDS = {"bright": "Bright", "animal": "Animal", "ribbon": "Ribbon", "chaff": "Chaff"}


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


# --- Images ----------------------------------------------------------------------------


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


def _alt(rows: list[tuple[str, list[tuple[int, list[str]]]]]) -> str:
    parts = []
    for label, groups in rows:
        if not groups:
            parts.append(f"{label}: empty")
            continue
        months = "; ".join(
            f"{MONTHS[month].name} — " + ", ".join(CARDS[card].name for card in cards)
            for month, cards in groups
        )
        parts.append(f"{label}: {months}")
    text = ". ".join(parts)
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + "…"


@functools.lru_cache(maxsize=256)
def _render(rows: tuple[tuple[str, tuple[str, ...]], ...], filename: str) -> RenderedImage:
    grouped = [(label, month_groups(cards)) for label, cards in rows]
    laid_out = [(label, _lines(groups)) for label, groups in grouped]
    label_font = _font(14)
    width = 0
    height = MARGIN
    for i, (label, lines) in enumerate(laid_out):
        width = max(width, math.ceil(label_font.getlength(label)))
        for line in lines:
            width = max(width, _positions(line)[-1] + TILE_W)
        body = len(lines) * TILE_H + (len(lines) - 1) * LINE_GAP if lines else EMPTY_H
        height += (ROW_GAP if i else 0) + LABEL_H + body
    width += 2 * MARGIN
    height += MARGIN

    image = Image.new("RGB", (width, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    y = MARGIN
    for i, (label, lines) in enumerate(laid_out):
        y += ROW_GAP if i else 0
        draw.text((MARGIN, y + LABEL_H - 6), label, fill=LABEL_COLOUR, font=label_font, anchor="ls")
        y += LABEL_H
        if not lines:
            draw.text(
                (MARGIN, y + EMPTY_H - 8), "(empty)", fill=MUTED_COLOUR, font=_font(13), anchor="ls"
            )
            y += EMPTY_H
            continue
        for j, line in enumerate(lines):
            y += LINE_GAP if j else 0
            for x, (_month, card_id) in zip(_positions(line), line, strict=True):
                image.paste(tile(card_id), (MARGIN + x, y))
            y += TILE_H
    buffer = io.BytesIO()
    # A 256-colour palette: the tiles are flat colours, so nothing visible is lost, and
    # the PNG is a third of the RGB one (~35 KB), quicker to save and to upload.
    palette = image.quantize(256, method=Image.Quantize.FASTOCTREE)
    palette.save(buffer, "PNG", optimize=False, compress_level=1)
    # No card ids in the log: a hand is secret, and logs are read by more people.
    log.debug("rendered %d rows into %d×%d px, %d bytes", len(rows), width, height, buffer.tell())
    return RenderedImage(png=buffer.getvalue(), filename=filename, alt=_alt(grouped))


def render_cards(
    groups: Sequence[tuple[str, Sequence[str]]], *, filename: str = "cards.png"
) -> RenderedImage:
    """One PNG of labelled rows of card tiles, e.g. ``[("Field", field), ("Your hand",
    hand)]``. Every row is grouped by month (months ascending; a month's cards in deck
    order); an empty row shows "(empty)". The same rows give the same cached object.

    ``filename`` is the caller's fixed name and must not be derived from the cards (see
    the module docstring). An unknown card id raises ``KeyError``."""
    rows = tuple((str(label), tuple(cards)) for label, cards in groups)
    for _label, cards in rows:
        for card_id in cards:
            card_of(card_id)
    return _render(rows, filename)


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


def picture(rows: list[tuple[str, list[str]]], filename: str) -> Picture:
    image = render_cards(rows, filename=filename)
    key = "|".join(f"{label}:{','.join(sorted(cards))}" for label, cards in rows)
    return Picture(key=key, png=image.png, filename=image.filename, description=image.alt)
