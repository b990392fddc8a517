"""One Japanese voice (issue 34): every Japanese text the bot shows uses the glossary's word.

``bot/i18n/locales/ja/glossary.toml`` lists each concept's one word and the variants it
forbids. Every msgstr of every ja catalog (command names and descriptions included) and
every line of the ja rules pages is checked against it; a failure names the entry (catalog,
line, English msgid) or the page and line, the variant found and the word to write.

A Japanese sentence that cites a slash command names the command as the member's client
shows it, the English in brackets: 「`/通知`（`/notify`）」. An English ``/command`` outside
such brackets fails.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.catalog import CATALOG, AnyGame
from bot.i18n.extract import locale_folder, po_entries
from bot.rules_text import rules_folder

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = locale_folder("ja").parent / "glossary.toml"


@dataclass(frozen=True)
class Text:
    stem: str
    """The catalog's or page's file stem (``platform``, ``hachihachi``): what an allowance's
    ``in`` names."""
    where: str
    text: str


@dataclass(frozen=True)
class Term:
    concept: str
    use: str
    forbid: tuple[str, ...]
    allowed_words: tuple[str, ...]
    allowed_in: frozenset[str]

    def offences(self, text: str) -> list[str]:
        """The forbidden variants in ``text`` once its allowed longer words are masked."""
        for word in sorted(self.allowed_words, key=len, reverse=True):
            text = text.replace(word, "\0" * len(word))
        return [variant for variant in self.forbid if variant in text]


def load_glossary(path: Path = GLOSSARY) -> list[Term]:
    with path.open("rb") as file:
        data = tomllib.load(file)
    terms = []
    for raw in data["term"]:
        allows = raw.get("allow", [])
        for allow in allows:
            assert allow.get("reason"), f"{raw['concept']}: an allowance without a reason"
        terms.append(
            Term(
                concept=raw["concept"],
                use=raw["use"],
                forbid=tuple(raw["forbid"]),
                allowed_words=tuple(a["word"] for a in allows if "word" in a),
                allowed_in=frozenset(stem for a in allows for stem in a.get("in", ())),
            )
        )
    return terms


def japanese_texts() -> Iterator[Text]:
    for entry in po_entries(locale_folder("ja")):
        file, _sep, _line = entry.where.partition(":")
        msgid = entry.message if isinstance(entry.message, str) else entry.message[0]
        shown = msgid if len(msgid) <= 70 else msgid[:69] + "…"
        for form in entry.translations:
            yield Text(Path(file).stem, f"{entry.where} msgid {shown!r}", form)
    for record in CATALOG:
        yield from rules_texts(record)


def rules_texts(record: AnyGame) -> Iterator[Text]:
    """Every line of a game's Japanese rules pages (where its record keeps them)."""
    if record.rules_file is None:
        return
    page = rules_folder(record.name).joinpath("ja", record.rules_file)
    stem = Path(record.rules_file).stem
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        yield Text(stem, f"rules_text/ja/{record.rules_file}:{number}", line)


def glossary_offences(terms: list[Term], texts: list[Text]) -> list[str]:
    found = []
    for text in texts:
        for term in terms:
            if text.stem in term.allowed_in:
                continue
            for variant in term.offences(text.text):
                found.append(f"{text.where}: {variant} — write {term.use} ({term.concept})")
    return found


ENGLISH_COMMAND = re.compile(r"(?<![\w/.:<])/[a-z][a-z0-9_-]*(?:[ _-][a-z][a-z0-9_-]*)*")
"""An English slash command (``/notify``, ``/config rule``); not ``on/off``, a URL or a
Discord mention."""
JAPANESE_NAME_BEFORE = re.compile(r"/[^\x00-\x7f`][^`（）]*`?（`?$")
"""What precedes an English command in brackets: its Japanese name (```/通知`（``)."""


def bare_commands(texts: list[Text]) -> list[str]:
    """English commands cited outside the bracket that follows the Japanese name."""
    found = []
    for text in texts:
        for match in ENGLISH_COMMAND.finditer(text.text):
            if JAPANESE_NAME_BEFORE.search(text.text[: match.start()]):
                continue
            found.append(f"{text.where}: {match.group()} — write `/日本語`（`{match.group()}`）")
    return found


@pytest.fixture(scope="module")
def terms() -> list[Term]:
    return load_glossary()


@pytest.fixture(scope="module")
def texts() -> list[Text]:
    return list(japanese_texts())


def without_a_catalog(names: Iterator[str] | tuple[str, ...]) -> set[str]:
    """The games, of ``names``, with no Japanese catalog of their own (their key's .po)."""
    stems = {Path(entry.where.partition(":")[0]).stem for entry in po_entries(locale_folder("ja"))}
    return set(names) - stems


def test_the_catalogs_and_rules_pages_are_read(texts: list[Text]) -> None:
    stems = {text.stem for text in texts}
    # The platform's catalogs and each game's own (its key's .po file).
    assert {"platform", "core", *CATALOG.names()} <= stems
    assert without_a_catalog(CATALOG.names()) == set()
    assert sum(1 for text in texts if text.where.startswith("rules_text/")) > 500


def test_every_japanese_text_uses_the_glossary_words(terms: list[Term], texts: list[Text]) -> None:
    problems = glossary_offences(terms, texts)
    shown = "\n".join(problems[:80])
    assert not problems, f"{len(problems)} texts use a word the glossary forbids:\n{shown}"


@pytest.mark.parametrize("term", load_glossary(), ids=lambda t: t.use)
def test_the_check_fails_on_each_forbidden_variant(term: Term) -> None:
    """A sentence holding any forbidden variant is named, in a file where it is not
    allowed; the word to use passes."""
    for variant in term.forbid:
        bad = Text("platform", "platform.po:1 msgid 'x'", f"この{variant}はだめです。")
        assert glossary_offences([term], [bad]) == [
            f"platform.po:1 msgid 'x': {variant} — write {term.use} ({term.concept})"
        ]
    assert term.offences(f"この{term.use}は正しいです。") == [] or term.allowed_in


def test_the_table_word_fails_the_check(terms: list[Term]) -> None:
    """The case issue 34 names: テーブル is refused and 卓 asked for."""
    sample = [Text("platform", "platform.po:9 msgid 'The table's number'", "テーブルの番号")]
    assert glossary_offences(terms, sample) == [
        "platform.po:9 msgid 'The table's number': テーブル — write 卓 "
        "(table (a game opened in a channel))"
    ]


def test_an_allowed_longer_word_passes(terms: list[Term]) -> None:
    sample = [
        Text("platform", "x", "サイコロのサイズ、アルファベット"),
        Text("hachihachi", "y", "打ち切り"),
    ]
    assert glossary_offences(terms, sample) == []


def test_japanese_texts_cite_commands_by_their_japanese_name(texts: list[Text]) -> None:
    problems = bare_commands(texts)
    shown = "\n".join(problems[:80])
    assert not problems, f"{len(problems)} texts cite an English command bare:\n{shown}"


def test_the_command_check_fails_on_a_bare_english_command() -> None:
    bad = Text("core", "core.po:1", "知らせ方は `/notify` で変えられます")
    good = Text("core", "core.po:2", "知らせ方は `/通知`（`/notify`）で変えられます、on/off")
    link = Text("core", "core.po:3", "https://discord.com/channels/1 </通知:123>")
    aside = Text("core", "core.po:4", "モデレーターが決めます（`/config rule`）")
    assert bare_commands([bad, good, link, aside]) == [
        "core.po:1: /notify — write `/日本語`（`/notify`）",
        "core.po:4: /config rule — write `/日本語`（`/config rule`）",
    ]


ECHO = re.compile(r"([^\s（）]+)（([^（）`]+)）")
"""A name followed by its kind in brackets: 松に赤短（短冊）."""


def echoed_kinds(texts: list[Text]) -> list[str]:
    """Names whose bracketed kind only repeats the name's end: 芒のカス（カス）."""
    return [
        f"{text.where}: {match.group()} — write {match.group(1)}"
        for text in texts
        for match in ECHO.finditer(text.text)
        if match.group(1).endswith(match.group(2))
    ]


def test_no_card_name_echoes_its_kind(texts: list[Text]) -> None:
    problems = echoed_kinds(texts)
    assert not problems, "\n".join(problems)


def test_the_echo_check_fails_on_an_echo() -> None:
    echo = Text("hachihachi", "hachihachi.po:1", "芒のカス（カス）を取る")
    kept = Text("hachihachi", "hachihachi.po:2", "松に赤短（短冊）を取る")
    assert echoed_kinds([echo, kept]) == ["hachihachi.po:1: 芒のカス（カス） — write 芒のカス"]


def spaced_currencies(texts: list[Text]) -> list[str]:
    """Amounts whose currency is set apart by a space (``50 両``): a Japanese amount reads
    ``50両``, which ``{currency:unit}`` writes (and keeps a Latin name's space)."""
    return [f"{text.where}: {text.text}" for text in texts if "} {currency}" in text.text]


def test_japanese_amounts_glue_their_currency(texts: list[Text]) -> None:
    assert spaced_currencies(texts) == []


def test_the_currency_check_fails_on_a_spaced_amount() -> None:
    spaced = Text(stem="platform", where="platform.po:1", text="最大{most} {currency}です")
    assert spaced_currencies([spaced]) == [f"{spaced.where}: {spaced.text}"]
