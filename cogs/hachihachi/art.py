"""Pictures of hanafuda cards for Nuki Hachi-hachi: one PNG of labelled rows of card tiles.

Players recognise hanafuda by sight, so the field and a hand are attached to the messages
as one image; the cog keeps the text list beside it (:func:`card_label`,
:func:`month_groups`) and the image carries an accessible description (``alt``).

Every card's tile, with its own traditional picture, is drawn once and cached in
:mod:`cogs.hachihachi.tiles`; each row is drawn once from the tiles into a cached strip,
and an image is pasted from its rows' strips and cached per exact set of rows (its PNG
shared by the table and a hand showing the same rows). Most of a picture's time is then
Pillow's reduction to the picture's own 256-colour palette and the PNG's compression,
which no caching of rows can share: the palette is each picture's, and its pixels are
kept exactly (tests/cogs/test_hachihachi_pictures_same.py).

Secrecy: an image's file name never depends on its cards (a hand is at most 7 of 34
cards, so any digest of it in a name could be inverted by trying every hand); the caller
names the file.
"""

from __future__ import annotations

import functools
import io
import logging
import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.fonts import drawable
from bot.games.hachihachi.cards import CARDS, MONTHS, Card
from bot.i18n import N_, _, current_locale, use_locale
from cogs._ui.primitives import Picture
from cogs.hachihachi.tiles import BACKGROUND, CORNER_RADIUS, GOLD, RGB, TILE_H, TILE_W, tile
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

HEADER_SIZE = 18
HEADER_H = 26
"""The turn line heading the table picture: larger than a row's label."""
HEADER_COLOUR = (255, 255, 255)
LABEL_COLOUR = (220, 221, 222)
MUTED_COLOUR = (140, 144, 150)
ALT_LIMIT = 1024
"""Discord's limit on an attachment's description."""

KIND_WORDS = {
    "bright": N_("Bright"),
    "animal": N_("Animal"),
    "ribbon": N_("Ribbon"),
    "chaff": N_("Chaff"),
}


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
    """ "Crane with Sun (Pine · Bright)": the card's name, month and kind, for text lists.

    Translated whole, card by card (the catalog holds each card's label: a Japanese
    player says 松に鶴（光）, the month already in the name)."""
    card = card_of(card_id)
    label = f"{card.name} ({card.month_name} · {KIND_WORDS[card.category]})"
    return _(label)


def drawn_name(name: str) -> str | None:
    """What a picture can write of a member's name: the characters the font draws
    (``🌸さくら`` → ``さくら``), or ``None`` when nothing legible is left."""
    kept = drawable(name).strip()
    legible = any(not c.isspace() and unicodedata.category(c) not in _INVISIBLE for c in kept)
    return kept if legible else None


_INVISIBLE = frozenset(("Cf", "Mn", "Me", "Zs", "Zl", "Zp", "Cc"))
"""Format characters (zero-width joiners), lone combining marks and spaces: a name of
these alone draws nothing."""


def card_name(card_id: str) -> str:
    """The card's name alone in the locale in effect (松に鶴 in Japanese)."""
    return _(card_of(card_id).name)


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
KINDS = (
    ("bright", N_("Brights")),
    ("animal", N_("Animals")),
    ("ribbon", N_("Ribbons")),
    ("chaff", N_("Chaff")),
)


@dataclass(frozen=True)
class Row:
    """A labelled row of a picture. ``layout`` "months": full tiles grouped by month;
    "pile": a score pile's smaller tiles grouped by kind, with ``note`` (its dekiyaku
    progress) under the label; "header": the label alone, larger (the turn line heading
    the table picture). ``marked`` cards get a gold frame."""

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
    return list(_progress(frozenset(pile), current_locale()))


@functools.lru_cache(maxsize=256)
def _progress(held: frozenset[str], locale: str) -> tuple[tuple[str, bool], ...]:
    """:func:`progress` of a pile's cards (a pile holds a card once), cached: the table's
    picture and every hand write each pile's progress on every move."""
    with use_locale(locale):
        return tuple(_progress_parts(held))


def _progress_parts(held: frozenset[str]) -> list[tuple[str, bool]]:
    parts: list[tuple[str, bool]] = []

    def count(name: str, cards: Sequence[str]) -> None:
        have = sum(1 for card in cards if card in held)
        if have:
            text = _("{name} {have}/{total}", name=_(name), have=str(have), total=str(len(cards)))
            parts.append((text, have == len(cards)))

    if "willow-bright" in held:
        count(N_("Five Brights"), _FIVE)
    else:
        count(N_("Four Brights"), _FOUR)
    count(N_("Poetry"), _POETRY)
    count(N_("Blue"), _BLUE)
    count(N_("Seven Ribbons"), _RIBBONS)
    chaff = sum(1 for card in held if CARDS[card].chaff_like)
    if chaff:
        parts.append((_("Chaff {count}/16", count=str(chaff)), chaff >= 16))
    return parts


def by_kind(cards: Sequence[str]) -> list[tuple[str, list[str]]]:
    """A pile's cards by printed kind (brights, animals, ribbons, chaff; Willow cards keep
    theirs), each kind in deck order; kinds without a card left out."""
    ordered = sorted(cards, key=lambda card: card_of(card).index)
    groups = []
    for kind, word in KINDS:
        mine = [card for card in ordered if CARDS[card].category == kind]
        if mine:
            groups.append((_(word), mine))
    return groups


def small_tile(card_id: str) -> Image.Image:
    """The card's tile at pile size, words in the locale in effect (cached; paste it,
    never draw on it)."""
    return _small_tile(card_id, current_locale())


@functools.cache
def _small_tile(card_id: str, locale: str) -> Image.Image:
    with use_locale(locale):
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
    if row.layout == "header":
        return _width(row.label, HEADER_SIZE), HEADER_H
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
        radius=CORNER_RADIUS + MARK_W,
        outline=MARK,
        width=MARK_W,
    )


def _draw_row(image: Image.Image, draw: ImageDraw.ImageDraw, row: Row, y: int) -> None:
    if row.layout == "header":
        _write(image, (MARGIN, y + HEADER_H - 7), row.label, HEADER_SIZE, HEADER_COLOUR)
        return
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
            _write(image, (MARGIN, y + EMPTY_H - 8), _("(no captures yet)"), 13, MUTED_COLOUR)
            return
        for (word, cards), (x, step, _w) in zip(groups, _pile_layout(groups), strict=True):
            _write(image, (MARGIN + x, y + HEAD_H - 4), f"{word} {len(cards)}", 11, LABEL_COLOUR)
            for k, card_id in enumerate(cards):
                image.paste(small_tile(card_id), (MARGIN + x + k * step, y + HEAD_H))
        return
    lines = _lines(month_groups(row.cards))
    if not lines:
        _write(image, (MARGIN, y + EMPTY_H - 8), _("(empty)"), 13, MUTED_COLOUR)
        return
    for j, line in enumerate(lines):
        y += LINE_GAP if j else 0
        for x, (_month, card_id) in zip(_positions(line), line, strict=True):
            image.paste(tile(card_id), (MARGIN + x, y))
            if card_id in row.marked:
                _frame(draw, MARGIN + x, y, TILE_W, TILE_H)
        y += TILE_H


def _alt(rows: Sequence[Row]) -> str:
    text = _(". ").join(_alt_part(row, current_locale()) for row in rows)
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + "…"


@functools.lru_cache(maxsize=512)
def _alt_part(row: Row, locale: str) -> str:
    """A row's sentence of the alt text (the same row returns on picture after picture)."""
    with use_locale(locale):
        return _alt_row(row)


def _alt_row(row: Row) -> str:
    comma = _(", ")
    if row.layout == "header":
        return row.label
    if row.layout == "pile":
        head = row.label
        if row.note:
            notes = comma.join(text for text, _done in row.note)
            head = _("{label} ({notes})", label=head, notes=notes)
        groups = by_kind(row.cards)
        if not groups:
            return _("{label}: no captures yet", label=head)
        kinds = _("; ").join(
            _(
                "{kind} — {cards}",
                kind=word.lower(),
                cards=comma.join(card_name(card) for card in cards),
            )
            for word, cards in groups
        )
        return _("{label}: {cards}", label=head, cards=kinds)
    groups_m = month_groups(row.cards)
    if not groups_m:
        return _("{label}: empty", label=row.label)
    months = _("; ").join(
        _(
            "{kind} — {cards}",
            kind=_(MONTHS[month].name),
            cards=comma.join(
                _("{card} (marked)", card=card_name(card))
                if card in row.marked
                else card_name(card)
                for card in cards
            ),
        )
        for month, cards in groups_m
    )
    return _("{label}: {cards}", label=row.label, cards=months)


@functools.lru_cache(maxsize=256)
def _render(rows: tuple[Row, ...], filename: str, locale: str) -> RenderedImage:
    png, alt = _picture(rows, locale)
    return RenderedImage(png=png, filename=filename, alt=alt)


@functools.lru_cache(maxsize=256)
def _picture(rows: tuple[Row, ...], locale: str) -> tuple[bytes, str]:
    """The PNG and alt text of ``rows``, whatever the file is called: the table's picture
    and a hand's share it when they show the same rows."""
    with use_locale(locale):
        return _compose(rows), _alt(rows)


STRIPS = 64
"""Rows kept drawn: a strip is about 200 KB (500 px wide, RGB), so at most about 13 MB.
A move draws about four new rows and reuses as many of its table's last move; 64 keep
that for 8 tables moving at once, and a row missed is only drawn again."""


def _compose(rows: tuple[Row, ...]) -> bytes:
    """The rows' strips (each drawn once, :func:`_strip`) pasted one under the other, then
    reduced to a palette and saved as PNG: the same pixels as drawing every row on the
    one image (tests/support/hachihachi_pictures.py keeps that composer to compare)."""
    sizes = [_row_size(row) for row in rows]
    width = max((w for w, _h in sizes), default=0) + 2 * MARGIN
    height = 2 * MARGIN + sum(h for _w, h in sizes) + ROW_GAP * max(0, len(rows) - 1)
    image = Image.new("RGB", (width, height), BACKGROUND)
    y = MARGIN
    locale = current_locale()
    for row, (_w, h) in zip(rows, sizes, strict=True):
        image.paste(_strip(row, locale), (0, y))
        y += h + ROW_GAP
    buffer = io.BytesIO()
    # A 256-colour palette: the tiles are flat colours, so nothing visible is lost, and
    # the PNG is a third of the RGB one (~35 KB), quicker to save and to upload. (zlib's
    # level 1 is also its quickest here: level 0 saves 1.3 ms a picture for five times
    # the bytes, and the other strategies are no quicker.)
    palette = image.quantize(256, method=Image.Quantize.FASTOCTREE)
    palette.save(buffer, "PNG", optimize=False, compress_level=1)
    # No card ids in the log: a hand is secret, and logs are read by more people.
    log.debug("rendered %d rows into %d×%d px, %d bytes", len(rows), width, height, buffer.tell())
    return buffer.getvalue()


@functools.lru_cache(maxsize=STRIPS)
def _strip(row: Row, locale: str) -> Image.Image:
    """``row`` drawn alone from its top, as high as it is plus the gap under it (a marked
    tile's frame reaches into that gap), and as wide as the widest line of tiles or its
    own width, plus the margins: what a row writes beyond its width ("(empty)" under a
    short label) shows in a picture that other rows make wider. A row draws nothing above
    its top, so pasting the strips (clipped to the picture) is drawing the rows on one
    image. Most rows return from picture to picture (the field in the table's picture and
    both hands, the piles, a hand between its owner's turns): each is drawn once. The
    cached image is shared: paste it, never draw on it."""
    with use_locale(locale):
        width, height = _row_size(row)
        width = max(width, MAX_W) + 2 * MARGIN
        image = Image.new("RGB", (width, height + ROW_GAP), BACKGROUND)
        _draw_row(image, ImageDraw.Draw(image), row, 0)
        return image


def render_rows(rows: Sequence[Row], *, filename: str = "cards.png") -> RenderedImage:
    """One PNG of :class:`Row` s (see :func:`render_cards`); the same rows give the same
    cached object. An unknown card id raises ``KeyError``."""
    for row in rows:
        for card_id in row.cards:
            card_of(card_id)
    return _render(tuple(rows), filename, current_locale())


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
    """Forget every composed image and row (the tiles stay): for benchmarks and tests."""
    _render.cache_clear()
    _picture.cache_clear()
    _strip.cache_clear()
    _alt_part.cache_clear()
    _progress.cache_clear()


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
    and notes), so an unchanged picture is not uploaded again, nor even composed: the
    image is made when the picture is first uploaded (a hand redrawn only to find it
    unchanged, a table message whose picture stayed, never compose one)."""
    made = tuple(row if isinstance(row, Row) else Row(row[0], tuple(row[1])) for row in rows)
    for row in made:
        for card_id in row.cards:
            card_of(card_id)
    locale = current_locale()
    key = locale + "|".join(
        f"{row.label}:{row.layout}:{','.join(sorted(row.cards))}:{','.join(sorted(row.marked))}"
        for row in made
    )
    return Picture(key=key, filename=filename, draw=functools.partial(_picture, made, locale))
