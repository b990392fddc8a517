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
  draws of a computer's decision first), ``computer_draws`` (optional: the indexes in
  ``draws`` of a computer's own randomness, the draws its decision took, not the game's
  chance), ``shown`` (the table message after the step, as text; only what it showed, so
  secrets appear only once revealed) and, for a card game, ``cards`` (label → card ids
  shown as tiles);
- ``tiles`` (optional): card id → a ``data:`` PNG of its tile.

A reader must ignore keys it does not know; a change that old readers would misread gets
a new ``version``.

The page's own words (not the table's: those are in the data, in the language they were
written in) are in the language in effect when it is built: the member who asked for it
(/verify) or the server's (the page attached to the ended table). They are not part of
the data: the same table's page in two languages holds the same data.
"""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any

from bot.i18n import N_, _, current_locale

FORMAT = "tanzaku-replay"
FORMAT_VERSION = 1
MAX_BYTES = 8 * 1024 * 1024
"""Discord's attachment limit for a bot without boosts: the page must stay within it."""


WORDS: dict[str, str] = {
    # In the page as it loads (HTML).
    "page_title": N_("Tanzaku replay"),
    "checking_seed": N_("Checking the seed…"),
    "re_deriving": N_("Re-deriving every roll…"),
    "prev": N_("◀ Prev"),
    "next": N_("Next ▶"),
    "step_label": N_("Replay step"),
    "draws_heading": N_("Every roll and shuffle, in the order drawn"),
    # One message for the row: a lone "Roll" would be the games' button's translation.
    "columns": N_("Check · Step · Whose · Roll · From the seed"),
    "computed_here": N_(
        "Everything above was computed in this browser from the data in this file: "
        "SHA-256 and HMAC-SHA256 by the browser's own Web Crypto. Nothing is fetched."
    ),
    # Filled in by the page's script ({names} are its values).
    "document_title": N_("{title} — table #{table} — replay"),
    "heading": N_("{title} — table #{table}"),
    "where": N_("Step {number} of {steps} · #{seq} · {when} UTC · {actor}: {said}"),
    # Only the card games shuffle: a shuffle is always of the deck.
    "shuffle": N_("Fair shuffle of {size} cards"),
    "die": N_("d{sides}: {value}"),
    "computer_draw": N_("The computer's randomness: {value} (of {sides}, from the seed)"),
    "seed_matches": N_("✅ The revealed seed matches the commitment in this file."),
    "seed_differs": N_(
        "❌ The revealed seed does NOT match the commitment in this file: the rolls below "
        "could have been chosen after the fact."
    ),
    "commitment_in_file": N_("Commitment in this file (the table opened {opened} UTC): "),
    "hash_here": N_("SHA-256 of the revealed seed, computed here: "),
    "check_that_matters": N_("The one check that matters: "),
    "compare_commitments": N_(
        "compare the commitment above with the one the table's message showed before play "
        "began (its footer: “Fair dice — commitment SHA-256 …”). This page checks itself "
        "against this file only; that comparison ties it to the table you saw. If they "
        "differ, the seed was not the one promised."
    ),
    "the_same": N_("the same"),
    "all_re_derive": N_("✅ All {count} rolls and shuffles re-derive from the revealed seed."),
    "outcome_differs": N_(
        "❌ Outcome {number} (step #{step}) does not match: the log says {logged}, the seed "
        "gives {derived}."
    ),
    "proves_nothing": N_(
        "❌ But the seed is not the committed one (see above), so the rolls prove nothing."
    ),
    "could_not_check": N_("Could not check: {error}"),
}
"""The page's words, by the key its HTML (``{{key}}``) and script (``say(key)``) use."""

_MARK = re.compile(r"\{\{(\w+)\}\}")


def _inline(value: Any) -> str:
    """JSON to put inside a <script> element: "</" would end it early, "<!--" would open
    a comment."""
    return (
        json.dumps(value, separators=(",", ":")).replace("</", "<\\/").replace("<!--", "\\u003c!--")
    )


def page_html(data: dict[str, Any]) -> str:
    """The self-contained page for one table's replay data, its words in the language
    in effect."""
    files = resources.files("bot.replay")
    template = files.joinpath("page.html").read_text(encoding="utf-8")
    script = files.joinpath("fairdice.js").read_text(encoding="utf-8")
    # The templates as they are: the page's script fills their {names} in.
    words = {key: _(text) for key, text in WORDS.items()}
    marks = {key: html.escape(text) for key, text in words.items()}
    marks["lang"] = html.escape(current_locale())
    marks["columns"] = "".join(
        f"<th>{html.escape(column.strip())}</th>" for column in words["columns"].split("·")
    )
    # The words go in before the data, so nothing in the data is ever read as a mark.
    page = _MARK.sub(lambda found: marks[found.group(1)], template)
    page = page.replace("/*WORDS*/", _inline(words)).replace("/*FAIRDICE*/", script)
    payload = _inline({"format": FORMAT, "version": FORMAT_VERSION, **data})
    return page.replace("/*DATA*/", payload)
