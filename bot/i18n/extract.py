"""Finding every message to translate, and what a locale's catalog lacks.

``python -m bot.i18n.extract`` writes ``bot/i18n/messages.pot``: every message of bot/ and
cogs/ (Babel's Python extractor), that is the first argument of ``_()`` and ``N_()``, both
of ``ngettext()``, the template of every refusal (a ``UserFacingError`` subclass,
raised or passed up by its own ``__init__``), and every name, description, option and
choice of the slash commands (``bot.command_strings``, beside ``bot.translator``: reading
them takes discord.py, which the catalogs themselves never import; only this developer's
tool does). ``python -m bot.i18n.extract --missing ja`` prints, as ``.po`` entries ready
to paste into a domain file and translate, the messages that locale's catalog lacks. The
catalog test
(tests/platform/test_translations.py) runs the same checks.

The refusal classes are found by reading the source (a class whose base is one, by name),
not by importing it: bot/ never imports cogs/.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.command_strings import command_strings
from bot.i18n import LOCALES_FOLDER, placeholders

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("bot", "cogs")
POT = Path(__file__).resolve().parent / "messages.pot"
BASE_REFUSAL = "UserFacingError"
PLAIN_KEYWORDS: dict[str, tuple[int, ...] | None] = {"_": None, "N_": None, "ngettext": (1, 2)}

Message = str | tuple[str, str]


@dataclass(frozen=True)
class Found:
    message: Message
    where: str
    """``path:line``, for the report."""


@dataclass(frozen=True)
class _ClassSpan:
    path: Path
    first: int
    last: int


def _python_files(root: Path) -> Iterator[Path]:
    for source in SOURCES:
        yield from sorted((root / source).rglob("*.py"))


def refusal_classes(root: Path = ROOT) -> dict[str, list[_ClassSpan]]:
    """Every ``UserFacingError`` subclass of the sources (by name) and where it is
    written: a class is one when one of its bases is (``ast``, to a fixed point)."""
    bases: dict[str, set[str]] = {}
    spans: dict[str, list[_ClassSpan]] = {}
    for path in _python_files(root):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            names = {
                base.id if isinstance(base, ast.Name) else base.attr
                for base in node.bases
                if isinstance(base, ast.Name | ast.Attribute)
            }
            bases.setdefault(node.name, set()).update(names)
            spans.setdefault(node.name, []).append(
                _ClassSpan(path, node.lineno, node.end_lineno or node.lineno)
            )
    found = {BASE_REFUSAL}
    while True:
        more = {name for name, parents in bases.items() if parents & found} - found
        if not more:
            break
        found |= more
    return {name: spans.get(name, []) for name in sorted(found)}


def _source_folder(path: str) -> bool:
    name = Path(path).name
    return not name.startswith(".") and name != "__pycache__"


def extract(root: Path = ROOT) -> list[Found]:
    """Every message of the sources, in file order."""
    classes = refusal_classes(root)
    inside = [span for spans in classes.values() for span in spans]
    found = _extract(root, {**PLAIN_KEYWORDS, **dict.fromkeys(classes)})
    # ``super().__init__("…")``: a refusal's own template, only inside a refusal. A pass of
    # its own: Babel reads no keyword call nested in another, so with ``__init__`` among
    # the others a ``_()`` inside any ``__init__(…)`` call would be lost.
    for item in _extract(root, {"__init__": None}):
        path, _sep, line = item.where.rpartition(":")
        if any(
            str(span.path.relative_to(root)) == path and span.first <= int(line) <= span.last
            for span in inside
        ):
            found.append(item)
    return found


def commands_found(root: Path = ROOT) -> list[Found]:
    """Every string of the slash commands (their names, descriptions, options, choices)."""
    return [Found(item.message, item.where) for item in command_strings(root)]


def _extract(root: Path, keywords: Mapping[str, tuple[int, ...] | None]) -> list[Found]:
    found: list[Found] = []
    for source in SOURCES:
        folder = root / source
        for filename, line, message, _comments, _context in extract_from_dir(
            str(folder),
            method_map=[("**.py", "python")],
            keywords=dict(keywords),
            comment_tags=(),
            strip_comment_tags=True,
            # Babel skips folders starting with "_" by default: cogs/_ui is one.
            directory_filter=_source_folder,
        ):
            if isinstance(message, tuple | list):
                if any(part is None for part in message):
                    continue
                key: Message = (str(message[0]), str(message[1]))
            elif not message:
                continue
            else:
                key = str(message)
            found.append(Found(key, f"{(folder / filename).relative_to(root)}:{line}"))
    return found


# -- checks (the catalog test's, and --missing's) ---------------------------------------------


@dataclass(frozen=True)
class Entry:
    message: Message
    translations: tuple[str, ...]
    fuzzy: bool
    where: str


def po_entries(folder: Path) -> list[Entry]:
    """Every entry of a locale's ``.po`` files (``LC_MESSAGES``)."""
    entries: list[Entry] = []
    for path in sorted(folder.glob("*.po")):
        with path.open("rb") as file:
            parsed = read_po(file)
        for message in parsed:
            if not message.id:
                continue
            if isinstance(message.id, tuple | list):
                key: Message = (str(message.id[0]), str(message.id[1]))
                forms = tuple(str(form or "") for form in (message.string or ()))
            else:
                key = str(message.id)
                forms = (str(message.string or ""),)
            entries.append(Entry(key, forms, message.fuzzy, f"{path.name}:{message.lineno}"))
    return entries


def translated(entries: Iterable[Entry]) -> set[Message]:
    return {e.message for e in entries if not e.fuzzy and all(e.translations)}


def missing(found: Iterable[Found], entries: Iterable[Entry]) -> list[Found]:
    """The messages with no (usable) entry, each once."""
    have = translated(entries)
    seen: set[Message] = set()
    lacking = []
    for item in found:
        if item.message not in have and item.message not in seen:
            seen.add(item.message)
            lacking.append(item)
    return lacking


def unusable(entries: Iterable[Entry]) -> list[str]:
    """Fuzzy or empty entries (the English would show)."""
    return [
        f"{e.where}: {'fuzzy' if e.fuzzy else 'empty'} {e.message!r}"
        for e in entries
        if e.fuzzy or not all(e.translations)
    ]


def placeholder_mismatches(entries: Iterable[Entry]) -> list[str]:
    """Entries whose translation fills other ``{placeholders}`` than the English."""
    wrong = []
    for e in entries:
        english = placeholders(e.message[1] if isinstance(e.message, tuple) else e.message)
        for form in e.translations:
            if form and placeholders(form) != english:
                wrong.append(
                    f"{e.where}: {e.message!r} fills {sorted(english)}, "
                    f"its translation {sorted(placeholders(form))}"
                )
    return wrong


def disagreements(entries: Iterable[Entry]) -> list[str]:
    """One message translated differently in two domain files (one would win silently)."""
    first: dict[Message, Entry] = {}
    clashes = []
    for e in entries:
        if e.fuzzy or not all(e.translations):
            continue
        earlier = first.setdefault(e.message, e)
        if earlier is not e and earlier.translations != e.translations:
            clashes.append(f"{e.message!r}: {earlier.where} and {e.where} differ")
    return clashes


def locale_folder(locale: str) -> Path:
    return LOCALES_FOLDER / locale / "LC_MESSAGES"


def _catalog_of(found: Iterable[Found]) -> Catalog:
    pot = Catalog(project="tanzaku", charset="utf-8")
    for item in found:
        path, _sep, line = item.where.rpartition(":")
        pot.add(item.message, locations=[(path, int(line))])
    return pot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n.extract", description=__doc__)
    parser.add_argument("--missing", metavar="LOCALE", help="print what LOCALE's catalog lacks")
    args = parser.parse_args(argv)
    found = [*extract(), *commands_found()]
    if args.missing:
        lacking = missing(found, po_entries(locale_folder(args.missing)))
        if lacking:
            write_po(sys.stdout.buffer, _catalog_of(lacking), omit_header=True, width=96)
        sys.stderr.write(f"# {len(lacking)} messages to translate\n")
        return 1 if lacking else 0
    with POT.open("wb") as file:
        write_po(file, _catalog_of(found), width=96)
    sys.stdout.write(f"wrote {POT.relative_to(ROOT)}: {len({f.message for f in found})} messages\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
