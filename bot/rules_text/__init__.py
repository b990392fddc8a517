"""Rules written for players, one Markdown file per game, split into pages by `---` lines."""

from __future__ import annotations

from functools import cache
from importlib import resources

GAMES = {
    "nihakyu": "Nihakyu",
    "fortunes_winds": "Fortunes and Winds",
    "strength_duel": "Strength Duel",
    "hachihachi": "Nuki Hachi-hachi",
    "hazard": "Hazard",
}


@cache
def pages(game: str) -> tuple[tuple[str, str], ...]:
    """(title, body) of each page of a game's rules."""
    if game not in GAMES:
        raise KeyError(game)
    text = resources.files(__name__).joinpath(f"{game}.md").read_text(encoding="utf-8")
    result = []
    for chunk in text.split("\n---\n"):
        lines = chunk.strip().splitlines()
        if not lines:
            continue
        title = lines[0].lstrip("# ").strip() if lines[0].startswith("#") else GAMES[game]
        body = "\n".join(lines[1:] if lines[0].startswith("#") else lines).strip()
        result.append((title, body))
    return tuple(result)
