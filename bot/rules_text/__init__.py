"""Rules written for players, one Markdown file per game, split into pages by `---` lines."""

from __future__ import annotations

from functools import cache
from importlib import resources

from bot.catalog import CATALOG

GAMES = {game.name: game.title for game in CATALOG if game.rules_file is not None}
"""The games /rules shows, by name: their titles (bot/catalog.py)."""


@cache
def pages(game: str) -> tuple[tuple[str, str], ...]:
    """(title, body) of each page of a game's rules."""
    if game not in GAMES:
        raise KeyError(game)
    rules_file = CATALOG.get(game).rules_file
    assert rules_file is not None  # GAMES lists only games with one
    text = resources.files(__name__).joinpath(rules_file).read_text(encoding="utf-8")
    result = []
    for chunk in text.split("\n---\n"):
        lines = chunk.strip().splitlines()
        if not lines:
            continue
        title = lines[0].lstrip("# ").strip() if lines[0].startswith("#") else GAMES[game]
        body = "\n".join(lines[1:] if lines[0].startswith("#") else lines).strip()
        result.append((title, body))
    return tuple(result)
