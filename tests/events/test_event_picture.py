"""The README's event pictures are drawn from HTML (scripts/event_picture.py): the page shows
every line of the embed as Discord would, and a member's name is text, never markup."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from html.parser import HTMLParser

from scripts.event_picture import Button, Shown, embed_lines, message_html

NAMES = {11: "Aiko", 12: "<b>x</b>", 13: "Ben & Chiyo"}
EMBED = {
    "title": "🏆 Event #1 · Strength Duel · Swiss, 3 rounds",
    "description": "Round 3 of 3 is on: the tables below open by themselves. Prize pool 900 ryō.",
    "color": 0xF1C40F,
    "fields": [
        {"name": "Round 3", "value": "⏳ #7 <@11> · <@12>\n<@13>: bye (a win)", "inline": False},
        {
            "name": "Standings",
            "value": "1. <@12> **2** · Buchholz 2 · SB 2\n2. <@11> **1½** · Buchholz 0 · SB 0\n"
            "3. <@13> **0** · Buchholz 3 · SB 0 (dropped)",
            "inline": False,
        },
    ],
    "footer": {"text": "Event #1 · running · tables play for points, not coins"},
}
SHOWN = Shown(
    author="Tanzaku",
    sent_at=datetime(2026, 1, 1, 19, 30, tzinfo=UTC),
    embed=EMBED,
    buttons=[Button("Join", "success"), Button("Leave")],
    names=NAMES,
)


class _Visible(HTMLParser):
    """The text a browser shows of a page: its body's text, a line break per block."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "head"):
            self._hidden += 1
        elif tag in ("div", "article"):
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "head"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def visible(page: str) -> str:
    parser = _Visible()
    parser.feed(page)
    return "".join(parser.parts)


def as_read(line: str) -> str:
    """A line of the embed as a member reads it: bold marks gone, mentions as @name."""
    line = line.replace("**", "")
    return re.sub(r"<@(\d+)>", lambda m: "@" + NAMES[int(m[1])], line)


def test_a_members_name_is_shown_as_text_not_markup() -> None:
    page = message_html(SHOWN)
    assert "<b>x</b>" not in page
    assert '<span class="mention">@&lt;b&gt;x&lt;/b&gt;</span>' in page
    assert "@Ben &amp; Chiyo" in page
    # Markdown still becomes markup around the escaped text.
    assert "<strong>1½</strong>" in page


def test_every_line_of_the_embed_and_every_button_is_on_the_page() -> None:
    shown = visible(message_html(SHOWN))
    lines = list(embed_lines(EMBED))
    assert len(lines) == 10
    for line in lines:
        assert as_read(line) in shown, line
    assert "@<b>x</b>" in shown
    assert "Join" in shown and "Leave" in shown
