"""Rules written for players, one Markdown file per game, split into pages by `---` lines.

English is the source (``<game>.md`` here); a translation is the same file name in a
folder named for its locale (``ja/<game>.md``), with the same pages in the same order, so
a page number means the same page in every language. A locale without a translation of a
game shows the English.

A translation writes commands and options as they are typed in English (`/hazard open`,
`min_stake`); shown, each gets the name a member of that language sees in Discord beside
it (the command strings' entries in the catalog: ``bot.i18n.commands``), since Discord
shows a Japanese member ``/ハザード 開く``, while `/config rule` takes the English option.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

from bot.catalog import CATALOG
from bot.i18n import SOURCE_LOCALE, catalog, normalize
from bot.i18n.commands import valid_name


class _Titles(Mapping[str, str]):
    """The games /rules shows, by name: their titles, read from the catalog each time
    (no copy of it kept here, so a game enrolled in it is shown at once)."""

    def __getitem__(self, game: str) -> str:
        if game in CATALOG and CATALOG.get(game).rules_file is not None:
            return CATALOG.get(game).title
        raise KeyError(game)

    def __iter__(self) -> Iterator[str]:
        return (game.name for game in CATALOG if game.rules_file is not None)

    def __len__(self) -> int:
        return sum(1 for _game in self)


GAMES: Mapping[str, str] = _Titles()
"""The games /rules shows, by name: their titles (bot/catalog.py)."""

EMBED_DESCRIPTION_MAX = 4096
TITLE_ROOM = 200
"""A page's own title goes after the game's in the embed title: it keeps this little."""

Pages = tuple[tuple[str, str], ...]


def pages(game: str, locale: str = SOURCE_LOCALE) -> Pages:
    """(title, body) of each page of a game's rules, in ``locale`` if translated."""
    if game not in GAMES:
        raise KeyError(game)
    return _pages(game, normalize(locale))


@cache
def _pages(game: str, locale: str) -> Pages:
    rules_file = CATALOG.get(game).rules_file
    assert rules_file is not None  # GAMES lists only games with one
    folder = rules_folder(game)
    path = folder.joinpath(locale, rules_file)
    if locale == SOURCE_LOCALE or not path.is_file():
        return split(folder.joinpath(rules_file).read_text(encoding="utf-8"), GAMES[game])
    text = with_local_names(path.read_text(encoding="utf-8"), catalog(locale))
    return split(text, GAMES[game])


Names = Mapping[str | tuple[str, str], str | tuple[str, ...]]
"""A catalog (``bot.i18n.catalog``): English message → its translation."""
CODE_SPAN = re.compile(r"`([^`\n]+)`")
IDENTIFIER = re.compile(r"[a-z][a-z0-9_-]*")


def with_local_names(text: str, names: Names) -> str:
    """``text`` with its commands and options (code spans: `/hazard open`, `min_stake`,
    `banker:player`) followed by the names ``names`` (a catalog) gives them, where Discord
    would show those: `/ハザード 開く`（`/hazard open`）. A word without a name Discord
    would take stays in English, as Discord shows it."""

    def local(word: str) -> str | None:
        found = names.get(word) if IDENTIFIER.fullmatch(word) else None
        return found if isinstance(found, str) and found != word and valid_name(found) else None

    def shown(span: re.Match[str]) -> str:
        code = span.group(1)
        command = code.startswith("/")
        words = []
        for word in (code[1:] if command else code).split(" "):
            name, colon, value = word.partition(":")
            value_name = local(value) if value else None
            words.append((local(name) or name) + colon + (value_name or value))
        local_code = ("/" if command else "") + " ".join(words)
        return span.group(0) if local_code == code else f"`{local_code}`（{span.group(0)}）"

    return CODE_SPAN.sub(shown, text)


def split(text: str, game_title: str) -> Pages:
    """A rules file's pages: each ``---``-separated chunk, titled by its first heading."""
    result = []
    for chunk in text.split("\n---\n"):
        lines = chunk.strip().splitlines()
        if not lines:
            continue
        title = lines[0].lstrip("# ").strip() if lines[0].startswith("#") else game_title
        body = "\n".join(lines[1:] if lines[0].startswith("#") else lines).strip()
        result.append((title, body))
    return tuple(result)


def rules_folder(game: str) -> Traversable:
    """Where a game's rules file and its translations are (its record's package)."""
    return resources.files(CATALOG.get(game).rules_package)


def translations(game: str) -> dict[str, Pages]:
    """Every translated page set of a game, by locale (English not included)."""
    rules_file = CATALOG.get(game).rules_file
    folder = rules_folder(game)
    found = {}
    for entry in folder.iterdir():
        if entry.is_dir() and entry.joinpath(str(rules_file)).is_file():
            found[entry.name] = pages(game, entry.name)
    return found


def problems(source: Pages, translated: Pages) -> list[str]:
    """What makes a translated page set unfit to show in place of the source: another
    number of pages (page buttons would lead elsewhere), an empty page, a page past
    Discord's embed limits, and on a page, a code block, a figure or a `name` (a command,
    an option) of the source's that it lacks: a translation changes words, never rules."""
    found = []
    if len(translated) != len(source):
        found.append(f"{len(translated)} pages where the source has {len(source)}")
    for number, (title, body) in enumerate(translated, start=1):
        if not title.strip() or not body.strip():
            found.append(f"page {number} is empty")
        if len(title) > TITLE_ROOM:
            found.append(f"page {number}'s title has {len(title)} characters (most {TITLE_ROOM})")
        if len(body) > EMBED_DESCRIPTION_MAX:
            found.append(
                f"page {number} has {len(body)} characters (an embed holds {EMBED_DESCRIPTION_MAX})"
            )
    pairs = zip(source, translated, strict=False)
    for number, ((_, theirs), (_, ours)) in enumerate(pairs, start=1):
        if theirs.count("```") != ours.count("```"):
            found.append(f"page {number} has another number of code blocks than the source")
        for kind, pattern in (("figures", FIGURE), ("names", CODE_SPAN)):
            lost = sorted(set(pattern.findall(theirs)) - set(pattern.findall(ours)))
            if lost:
                found.append(f"page {number} lacks the source's {kind}: {', '.join(lost)}")
    return found


FIGURE = re.compile(r"\d+(?:[.,/]\d+)*")
"""A number as the rules write it: 49.3, 1,000, 244/495."""


def page_sets(game: str) -> Sequence[tuple[str, Pages]]:
    """The English page set and every translation of a game."""
    return [(SOURCE_LOCALE, pages(game)), *translations(game).items()]
