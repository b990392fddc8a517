"""A finished table as one self-contained HTML page that re-derives every roll in the
player's own browser: no server, no network, no script from elsewhere.

The page (``page.html``) inlines ``fairdice.js`` — the fair dice of ``bot/fairness.py``
written again for Web Crypto — and the table as JSON in the format below. Opened in a
browser it recomputes SHA-256 of the revealed seed against the commitment shown when the
table opened, re-derives every logged roll and shuffle from the seed (✅ each, or the
first that differs), and replays the table step by step (prev/next and a slider) as its
message showed it. It reads nothing but that JSON, so it works for any game.

The format (``"format": "tanzaku-replay"``, ``"version": 1``), one object:

- ``table`` (int), ``game`` (the engine's name), ``title`` (the game's), ``commitment``
  (SHA-256 hex of the seed), ``committed_at`` (Unix seconds: when the table opened and
  showed it), ``seed`` (hex, revealed at the end);
- ``steps``: one per logged step, in order: ``seq``, ``at`` (Unix seconds), ``actor``
  (a display name), ``said`` (what the step was), ``draws`` (the step's outcomes in the
  order drawn: ``[sides, value]`` for a die, ``[size, [order…]]`` for a shuffle, the
  draws of a computer's decision first), ``shown`` (the table message after the step, as
  text; only what it showed, so secrets appear only once revealed) and, for a card game,
  ``cards`` (label → card ids shown as tiles);
- ``tiles`` (optional): card id → a ``data:`` PNG of its tile.

A reader must ignore keys it does not know; a change that old readers would misread gets
a new ``version``.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

FORMAT = "tanzaku-replay"
FORMAT_VERSION = 1
MAX_BYTES = 8 * 1024 * 1024
"""Discord's attachment limit for a bot without boosts: the page must stay within it."""


def page_html(data: dict[str, Any]) -> str:
    """The self-contained page for one table's replay data."""
    files = resources.files("bot.replay")
    template = files.joinpath("page.html").read_text(encoding="utf-8")
    script = files.joinpath("fairdice.js").read_text(encoding="utf-8")
    payload = json.dumps(
        {"format": FORMAT, "version": FORMAT_VERSION, **data}, separators=(",", ":")
    )
    # Inside a <script> element: "</" would end it early, "<!--" would open a comment.
    payload = payload.replace("</", "<\\/").replace("<!--", "\\u003c!--")
    return template.replace("/*FAIRDICE*/", script).replace("/*DATA*/", payload)


def data_of(page: str) -> dict[str, Any]:
    """The replay data a page holds (for tests and tools)."""
    start = page.index('<script type="application/json" id="replay-data">') + len(
        '<script type="application/json" id="replay-data">'
    )
    end = page.index("</script>", start)
    loaded: dict[str, Any] = json.loads(page[start:end])
    return loaded
