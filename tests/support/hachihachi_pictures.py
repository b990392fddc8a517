"""The Hachi-hachi picture composer as it was before issue 36, kept as the reference the
new one must match pixel for pixel: every row drawn on the one image, then reduced to a
palette and saved; and the alt text written row by row in one loop.

The new composer (cogs/hachihachi/art.py) pastes cached strips, one a row, and caches each
row's alt sentence; tests/cogs/test_hachihachi_pictures_same.py plays whole matches and
compares every picture with this one's."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.games.hachihachi.cards import MONTHS
from bot.i18n import _
from cogs.hachihachi.art import (
    ALT_LIMIT,
    BACKGROUND,
    MARGIN,
    ROW_GAP,
    Row,
    _draw_row,
    _row_size,
    by_kind,
    card_name,
    month_groups,
)


def compose(rows: Sequence[Row]) -> bytes:
    """The PNG of ``rows``, every row drawn on the one image (in the locale in effect)."""
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
    palette = image.quantize(256, method=Image.Quantize.FASTOCTREE)
    palette.save(buffer, "PNG", optimize=False, compress_level=1)
    return buffer.getvalue()


def alt(rows: Sequence[Row]) -> str:
    """The picture's description, all rows in one loop (in the locale in effect).

    Long because: it is the old function kept whole, the reference for the new one."""
    parts = []
    comma = _(", ")
    for row in rows:
        if row.layout == "header":
            parts.append(row.label)
            continue
        if row.layout == "pile":
            head = row.label
            if row.note:
                notes = comma.join(text for text, _done in row.note)
                head = _("{label} ({notes})", label=head, notes=notes)
            groups = by_kind(row.cards)
            if not groups:
                parts.append(_("{label}: no captures yet", label=head))
                continue
            kinds = _("; ").join(
                _(
                    "{kind} — {cards}",
                    kind=word.lower(),
                    cards=comma.join(card_name(card) for card in cards),
                )
                for word, cards in groups
            )
            parts.append(_("{label}: {cards}", label=head, cards=kinds))
            continue
        groups_m = month_groups(row.cards)
        if not groups_m:
            parts.append(_("{label}: empty", label=row.label))
            continue
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
        parts.append(_("{label}: {cards}", label=row.label, cards=months))
    text = _(". ").join(parts)
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + "…"
