"""The one translation layer: gettext catalogs (``.po`` files, read with Babel) and
per-locale number formatting.

Source strings are English and are their own message ids. A string shown to players is
written ``_("You bid {amount}.", amount=n)``: it is looked up in the catalog of the
locale in effect, then its ``{placeholders}`` are filled in, numbers formatted the
locale's way. ``N_`` marks a string for extraction where it is defined (an engine's
refusal template, a table of titles) and is translated where it is shown.

The locale in effect is a context variable: the code that decides the audience of a
message (the table, which everyone sees in the server's language, or one member's private
answer in their own) sets it with ``use_locale`` around building that message. Asyncio
tasks copy it when created, so a task started while rendering keeps its audience.

Every ``bot/i18n/locales/<locale>/LC_MESSAGES/*.po`` file is one domain of the same
catalog (one per area of the bot, so translators and changes do not collide); adding a
language is adding a folder of ``.po`` files.
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import logging
import re
import string
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from datetime import timedelta
from enum import Enum
from pathlib import Path
from typing import Any, Literal

from babel.dates import format_timedelta
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, get_group_symbol

log = logging.getLogger(__name__)

SOURCE_LOCALE = "en"
LOCALES_FOLDER = Path(__file__).resolve().parent / "locales"

_current: ContextVar[str] = ContextVar("tanzaku_locale", default=SOURCE_LOCALE)


@functools.cache
def available_locales() -> tuple[str, ...]:
    """English (the source) and every locale with a catalog folder (read once: every
    message built and every interaction asks)."""
    found = sorted(p.name for p in LOCALES_FOLDER.iterdir() if (p / "LC_MESSAGES").is_dir())
    return (SOURCE_LOCALE, *(name for name in found if name != SOURCE_LOCALE))


def normalize(discord_locale: object) -> str:
    """A Discord locale (``discord.Locale`` or its value: ``ja``, ``en-US``…) as one of
    ours; anything we have no catalog for is English."""
    value = str(
        (discord_locale.value if isinstance(discord_locale, Enum) else discord_locale) or ""
    )
    language = value.replace("_", "-").split("-")[0].lower()
    return language if language in available_locales() else SOURCE_LOCALE


@functools.cache
def catalog(locale: str) -> Mapping[str | tuple[str, str], str | tuple[str, ...]]:
    """Every translated entry of a locale's ``.po`` files (untranslated and fuzzy entries
    left out: the English shows instead, and the catalog test names them)."""
    entries: dict[str | tuple[str, str], str | tuple[str, ...]] = {}
    folder = LOCALES_FOLDER / locale / "LC_MESSAGES"
    if locale == SOURCE_LOCALE or not folder.is_dir():
        return entries
    for path in sorted(folder.glob("*.po")):
        with path.open("rb") as file:
            parsed = read_po(file, locale=locale)
        for message in parsed:
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, tuple | list):
                forms = tuple(message.string or ())
                if all(forms):
                    entries[(message.id[0], message.id[1])] = forms
            elif message.string:
                entries[message.id] = str(message.string)
    return entries


def current_locale() -> str:
    return _current.get()


@contextlib.contextmanager
def use_locale(locale: str) -> Iterator[str]:
    """Build what is inside for an audience reading ``locale``."""
    token = _current.set(normalize(locale))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def N_(message: str) -> str:
    """Marks ``message`` for extraction; translated later, where it is shown."""
    return message


def _(message: str, /, **params: Any) -> str:
    """``message`` in the locale in effect, its placeholders filled in."""
    # The context variable read here, not through current_locale(): a table message asks
    # this some forty times a render.
    return translate(message, _current.get(), **params)


def translate(message: str, locale: str, /, **params: Any) -> str:
    if not params:
        return _looked_up(message, locale)
    if _PLAIN.issuperset(map(type, params.values())):
        return _filled(message, locale, tuple(params.items()))
    return fill(_looked_up(message, locale), locale, params)


_PLAIN = frozenset((str, int))
"""Placeholder values whose text depends on the locale alone (not a :class:`Said`, a
``str`` subclass translated where it is filled in; nor a ``bool`` or a ``float``, equal
as keys to an ``int``): a message filled with them is cached."""


@functools.lru_cache(maxsize=4096)
def _looked_up(message: str, locale: str) -> str:
    """The catalog's text for ``message``, or the English. Cached: a render looks up the
    same few hundred texts on every click (a Hachi-hachi move about 470)."""
    found = catalog(locale).get(message)
    return found if isinstance(found, str) else message


@functools.lru_cache(maxsize=4096)
def _filled(message: str, locale: str, params: tuple[tuple[str, str | int], ...]) -> str:
    """``message`` translated and filled with plain ``params`` (see :data:`_PLAIN`)."""
    return fill(_looked_up(message, locale), locale, dict(params))


def ngettext(singular: str, plural: str, count: int, /, **params: Any) -> str:
    """The form of a message for ``count`` (``{count}`` is filled in too)."""
    return translate_plural(singular, plural, count, current_locale(), **params)


def translate_plural(singular: str, plural: str, count: int, locale: str, /, **params: Any) -> str:
    forms = catalog(locale).get((singular, plural))
    if isinstance(forms, tuple):
        text = forms[min(_plural_index(locale)(count), len(forms) - 1)]
    else:
        text = singular if count == 1 else plural
    return fill(text, locale, {"count": count, **params})


@functools.cache
def _plural_index(locale: str) -> Callable[[int], int]:
    """The gettext plural expression Babel writes in a locale's .po header, as a
    function (the order of a translation's forms)."""
    return gettext.c2py(get_plural(locale).plural_expr)


def number(value: int | float, locale: str | None = None) -> str:
    """A number the locale's way (digit grouping)."""
    locale = locale or current_locale()
    if isinstance(value, int):
        # Whole numbers are most of what a table shows: Python's grouping with the locale's
        # separator, without Babel's pattern machinery on every render.
        return f"{value:,}".replace(",", _group_symbol(locale))
    return format_decimal(value, locale=locale)


@functools.cache
def _group_symbol(locale: str) -> str:
    return get_group_symbol(locale)


GLUED_UNITS = frozenset({"ja"})
"""Locales that write a unit right after its number: 1,000両, 1時間30分 (not 1,000 両)."""

_CURRENCY_MARK = re.compile(r"^(<a?:\w{2,32}:\d{15,21}>|[^\w\s]+) (.+)$")
"""A currency shown as ``<emoji> <name>`` (:class:`bot.economy.GuildTerms`): a server
emoji or a pictograph, then the name."""


def money(amount: int, currency: str, locale: str | None = None, *, signed: bool = False) -> str:
    """An amount of a server's currency the locale's way: ``1,000 ryō`` in English,
    ``1,000両`` in Japanese, where a Japanese name is glued to the number like any counter
    (an emoji before the name goes before the amount: ``🪙 1,000両``). ``signed``: a gain
    or loss (``+50``, ``-20``)."""
    locale = locale or current_locale()
    shown = number(amount, locale)
    if signed and amount > 0:
        shown = f"+{shown}"
    marked = _CURRENCY_MARK.match(currency)
    mark, name = (marked.group(1), marked.group(2)) if marked is not None else ("", currency)
    # A name in the locale's own script is a counter (1,000両, 500コイン); a Latin one
    # ("gold") stays a separate word even in Japanese.
    if locale not in GLUED_UNITS or name[:1].isascii():
        return f"{shown} {currency}"
    return f"{mark} {shown}{name}" if mark else f"{shown}{name}"


def unit(name: str) -> str:
    """A unit's name as written right after a number in a glued locale's sentence
    (``{amount}{currency:unit}``): a name in the locale's own script is glued (``50両``),
    any other (``ryō``, ``🪙 両``) keeps its space (``50 ryō``)."""
    first = name[:1]
    return name if first.isalpha() and not first.isascii() else f" {name}"


_TimeUnit = Literal["day", "hour", "minute", "second"]
_DURATION_UNITS: tuple[tuple[_TimeUnit, int], ...] = (
    ("day", 86_400),
    ("hour", 3_600),
    ("minute", 60),
    ("second", 1),
)


def duration(seconds: int, locale: str | None = None) -> str:
    """A span of time exactly, in its largest units: ``1 hour 30 minutes``; Japanese
    ``1時間30分``, ``20秒`` (never ``3,600秒``). Each unit's word is Babel's (CLDR); the
    parts are never rounded, as Babel's own single-unit rendering would."""
    locale = locale or current_locale()
    left = max(0, int(seconds))
    parts = []
    for unit, size in _DURATION_UNITS:
        count, left = divmod(left, size)
        if count:
            parts.append(_unit_of_time(count, unit, locale))
    if not parts:
        parts.append(_unit_of_time(0, "second", locale))
    if locale in GLUED_UNITS:
        return "".join(part.replace(" ", "").replace("\u00a0", "") for part in parts)
    return " ".join(parts)


def _unit_of_time(count: int, unit: _TimeUnit, locale: str) -> str:
    size = dict(_DURATION_UNITS)[unit]
    # threshold=1: a whole count of one unit is said in that unit (Babel otherwise turns
    # 90 minutes into "2 hours").
    return format_timedelta(
        timedelta(seconds=count * size), granularity=unit, threshold=1, locale=locale
    )


class Said(str):
    """A word filled into a message that is itself a message to translate: a game's
    title, a card, a die, what a member tried to do. It reads as its English (so a
    refusal's ``str(error)`` and the logs stay English) and is translated wherever it is
    filled into a message for another locale (:func:`fill`). ``msgid``: its catalog entry
    when that is not the English itself (a template of ``params``); with ``plural``, the
    form for ``params["count"]``. Mark a literal's English with ``N_`` where it is
    written."""

    msgid: str
    plural: str | None
    params: dict[str, Any]

    def __new__(
        cls, english: str, msgid: str | None = None, plural: str | None = None, **params: Any
    ) -> Said:
        word = super().__new__(cls, english)
        word.msgid = english if msgid is None else msgid
        word.plural = plural
        word.params = params
        return word

    def in_locale(self, locale: str) -> str:
        if locale == SOURCE_LOCALE:
            return str(self)
        if self.plural is not None:
            count = int(self.params["count"])
            return translate_plural(self.msgid, self.plural, count, locale, **self.params)
        return translate(self.msgid, locale, **self.params)


def fill(text: str, locale: str, params: Mapping[str, Any]) -> str:
    if not params:
        return text
    shown = {key: _shown(value, locale) for key, value in params.items()}
    try:
        return text.format_map(shown)
    except ValueError:
        # A translation's own format specs on text: ``:duration`` given the seconds as
        # text (``str(rules.x)``), ``:unit`` on a currency's name. Anything else is shown
        # as it came rather than failing.
        return _Lenient(locale).vformat(text, (), shown)


class _Lenient(string.Formatter):
    def __init__(self, locale: str) -> None:
        self.locale = locale

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "duration" and str(value).isdigit():
            return duration(int(str(value)), self.locale)
        if format_spec == "unit":
            return unit(str(value))
        try:
            return str(super().format_field(value, format_spec))
        except ValueError:
            return str(value)


def _shown(value: Any, locale: str) -> Any:
    if isinstance(value, Said):
        return value.in_locale(locale)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _Number(value, locale)
    return value


class _Number:
    """A number filled into a message: grouped the locale's way, or with ``:duration`` (a
    count of seconds) as a span of time, so a translation can say ``{seconds:duration}``
    (1時間) where the English says ``{seconds} s``."""

    __slots__ = ("locale", "value")

    def __init__(self, value: int | float, locale: str) -> None:
        self.value, self.locale = value, locale

    def __format__(self, spec: str) -> str:
        if spec == "duration":
            return duration(int(self.value), self.locale)
        if spec:
            return format(self.value, spec)
        return number(self.value, self.locale)


def placeholders(text: str) -> frozenset[str]:
    """The ``{names}`` a message fills in (the catalog test compares them across
    languages)."""
    return frozenset(
        name.split(".")[0].split("[")[0]
        for _literal, name, _spec, _conversion in string.Formatter().parse(text)
        if name
    )
