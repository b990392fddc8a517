"""Helpers for the Japanese SimCord tests (issue 29): what a member reads, and what of it is
still English.

``texts_of`` collects every piece of text a member sees in what a SimCord test gets back (a
channel message, an interaction's answer, a modal, a sent payload). ``english_in`` names the
pieces that were left in English: a string that is still an English catalog message (its
Japanese entry exists but was not used), or an ASCII-only sentence of two or more words.

SimCord sends every interaction with ``locale`` and ``guild_locale`` ``en-US``;
``member_locales`` patches the payload builder so a test gives each member their own
Discord language and the interaction's ``guild_locale`` follows the guild's
``preferred_locale`` (``env.create_guild(..., preferred_locale="ja")``), as Discord does.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest
import simcord.interactions
from simcord import Env, InteractionResult, MemberActor
from simcord.results import ResponseMessage

from bot.i18n import catalog, placeholders
from tests.support.sim import World

# Kept in Latin letters in Japanese text on purpose: the bot's own name is a brand (its
# Japanese reading 短冊 is also a hanafuda card class, which would confuse), and Discord is
# a product name Japanese players write in Latin letters too. Game titles are NOT here:
# they have Japanese titles in the catalog.
PROPER_NOUNS: tuple[str, ...] = ("Tanzaku", "Discord")

# Text-bearing keys of a component payload (buttons, selects and their options, text
# inputs, labels, text displays). A select option's "value" is an id, never shown; a text
# input's "value" is what the box shows pre-filled.
_COMPONENT_TEXT_KEYS = ("label", "placeholder", "description", "content")
_TEXT_INPUT = 4


def texts_of(shown: Any) -> list[str]:
    """Every non-empty piece of text a member sees in ``shown``: a ``discord.Message``, a
    SimCord ``InteractionResult`` (its answer, follow-ups and modal), a ``ResponseMessage``,
    a raw payload dict (a message, an interaction callback's ``data``, a modal), a string,
    or a list of any of those."""
    found: list[str] = []
    _collect(shown, found)
    return [text for text in found if text and text.strip()]


def _collect(shown: Any, found: list[str]) -> None:
    if shown is None:
        return
    if isinstance(shown, str):
        found.append(shown)
    elif isinstance(shown, InteractionResult):
        _collect(shown.response, found)
        for followup in shown.followups:
            _collect(followup, found)
        _collect(shown.modal, found)
    elif isinstance(shown, ResponseMessage | discord.Message):
        found.append(shown.content or "")
        for embed in shown.embeds:
            _embed_texts(embed.to_dict(), found)
        for component in shown.components:
            _component_texts(
                component if isinstance(component, dict) else component.to_dict(), found
            )
    elif isinstance(shown, Mapping):
        _payload_texts(shown, found)
    elif isinstance(shown, Iterable):
        for item in shown:
            _collect(item, found)
    else:
        raise TypeError(f"texts_of does not know what a member sees in {type(shown)!r}")


def _payload_texts(payload: Mapping[str, Any], found: list[str]) -> None:
    # An interaction callback body nests the message (or modal) under "data".
    data = payload.get("data")
    if isinstance(data, Mapping) and "type" in payload and "content" not in payload:
        payload = data
    for key in ("content", "title"):
        if isinstance(payload.get(key), str):
            found.append(payload[key])
    for embed in payload.get("embeds") or ():
        _embed_texts(embed, found)
    for component in payload.get("components") or ():
        _component_texts(component, found)


def _embed_texts(embed: Mapping[str, Any], found: list[str]) -> None:
    for key in ("title", "description"):
        found.append(str(embed.get(key) or ""))
    for embed_field in embed.get("fields") or ():
        found.append(str(embed_field.get("name") or ""))
        found.append(str(embed_field.get("value") or ""))
    found.append(str((embed.get("footer") or {}).get("text") or ""))
    found.append(str((embed.get("author") or {}).get("name") or ""))


def _component_texts(component: Any, found: list[str]) -> None:
    if isinstance(component, list | tuple):
        for item in component:
            _component_texts(item, found)
        return
    if not isinstance(component, Mapping):
        return
    for key in _COMPONENT_TEXT_KEYS:
        if isinstance(component.get(key), str):
            found.append(component[key])
    if component.get("type") == _TEXT_INPUT and isinstance(component.get("value"), str):
        found.append(component["value"])
    for key in ("components", "component", "options", "accessory", "items"):
        _component_texts(component.get(key), found)


# What a member reads that is not words: mentions, channel/role links, custom emoji,
# timestamps, command mentions, URLs, code, emoji short codes, numbers.
_NOT_WORDS = re.compile(
    r"```.*?```"  # code blocks
    r"|`[^`]*`"  # code spans
    r"|<(?:@[!&]?|#)\d+>"  # member, role, channel mentions
    r"|<a?:\w+:\d+>"  # custom emoji
    r"|<t:-?\d+(?::\w)?>"  # timestamps
    r"|</[^>]+:\d+>"  # slash command mentions
    r"|<?https?://\S+>?"  # links
    r"|:\w+:"  # emoji short codes
    # A command a member types (/config rule): up to two sub-command words, where the
    # Japanese sentence resumes right after them (an English one would go on in ASCII).
    r"|(?<![\w/])/[a-z][\w-]*(?: [a-z][\w-]*){0,2}(?=[\s)]*(?:[^\x00-\x7f]|$))"
    r"|(?<![\w/])/[a-z][\w-]*"  # a command's name alone
    r"|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"  # an option's name (min_stake), typed as is
    r"|\d[\d,.]*",  # numbers
    re.DOTALL,
)
_ASCII_RUN = re.compile(r"[\x00-\x7f]+")
_WORD = re.compile(r"[A-Za-z][A-Za-z']*[A-Za-z]")
_MARKDOWN = " \t*_~>#|-"


def english_in(texts: Iterable[str], *, names: Iterable[str] = ()) -> list[str]:
    """The pieces of ``texts`` a Japanese member should not see in English.

    - a text, or one of its lines, that is an English catalog message whose Japanese
      entry differs (a template matches with anything in its placeholders);
    - an ASCII-only sentence: a run of ASCII characters with two or more words of letters,
      once mentions, links, emoji, timestamps, code, numbers, ``PROPER_NOUNS`` and
      ``names`` (the test members' names, which the bot shows as they are) are removed.
    """
    removable = [*PROPER_NOUNS, *names]
    names_pattern = (
        re.compile(
            "|".join(
                rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])"
                for name in sorted(removable, key=len, reverse=True)
            )
        )
        if removable
        else None
    )
    offending: list[str] = []
    for text in texts:
        key = _untranslated_key(text)
        if key is not None:
            offending.append(text)
            continue
        stripped = _NOT_WORDS.sub(" ", text)
        if names_pattern is not None:
            stripped = names_pattern.sub(" ", stripped)
        for run in _ASCII_RUN.findall(stripped):
            if len(_WORD.findall(run)) >= 2:
                offending.append(run.strip())
    return offending


@dataclass(frozen=True)
class _Template:
    msgid: str
    anchor: str  # the longest literal word: a cheap test before the regex
    pattern: re.Pattern[str]


@functools.cache
def _templates() -> tuple[frozenset[str], tuple[_Template, ...]]:
    """The Japanese catalog's English messages: those without placeholders as a set of
    exact strings, those with as patterns."""
    exact: set[str] = set()
    patterns: list[_Template] = []
    for key, translated in catalog("ja").items():
        sources = key if isinstance(key, tuple) else (key,)
        shown = translated if isinstance(translated, tuple) else (translated,)
        for source in sources:
            if source in shown:
                continue  # the same in Japanese (a symbol, a name): not a leftover
            if not placeholders(source):
                exact.add(source.strip())
                continue
            template = _as_pattern(source)
            if template is not None:
                patterns.append(template)
    return frozenset(exact), tuple(patterns)


def _as_pattern(source: str) -> _Template | None:
    parts = re.split(r"\{[^{}]*\}", source.replace("{{", "\x00").replace("}}", "\x01"))
    literal = "".join(parts)
    words = _WORD.findall(literal)
    if not words:
        return None  # only placeholders and punctuation: nothing English to see
    regex = "(?:.+?)".join(
        re.escape(part.replace("\x00", "{").replace("\x01", "}")) for part in parts
    )
    return _Template(source, max(words, key=len), re.compile(regex, re.DOTALL))


def _untranslated_key(text: str) -> str | None:
    exact, patterns = _templates()
    # A line may carry Markdown around the message (**Pot**, > quote, -# small print).
    candidates = [
        piece.strip(_MARKDOWN) for piece in (text, *text.splitlines()) if piece.strip(_MARKDOWN)
    ]
    for candidate in candidates:
        if candidate in exact:
            return candidate
    for template in patterns:
        if template.anchor not in text:
            continue
        if any(template.pattern.fullmatch(candidate) for candidate in candidates):
            return template.msgid
    return None


# --- giving SimCord members a Discord language -------------------------------------------


@dataclass
class MemberLocales:
    """Each member's Discord language, as their interactions carry it (``en-US`` when not
    set, like SimCord's own)."""

    by_user: dict[int, str] = field(default_factory=dict)

    def set(self, member: MemberActor | int, locale: str) -> None:
        self.by_user[member if isinstance(member, int) else member.id] = locale


def member_locales(monkeypatch: pytest.MonkeyPatch) -> MemberLocales:
    """Makes SimCord's interactions carry each member's language (``.set(member, "ja")``)
    and the guild's ``preferred_locale`` as ``guild_locale`` for the rest of the test."""
    locales = MemberLocales()
    original = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kwargs)
        locale = locales.by_user.get(kwargs["user_id"])
        if locale is not None:
            payload["locale"] = locale
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return locales


async def make_japanese_world(
    env: Env,
    monkeypatch: pytest.MonkeyPatch,
    *names: str,
    english: Iterable[str] = (),
    channel: str = "tables",
) -> tuple[World, MemberLocales]:
    """Like ``make_world``, at a guild whose Discord language is Japanese, every member
    (and the moderator) reading Japanese except those named in ``english``."""
    locales = member_locales(monkeypatch)
    await env.bot.tree.sync()
    guild = env.create_guild("tanzaku-test", preferred_locale="ja")
    text_channel = guild.create_text_channel(channel)
    members = {name: guild.add_member(env.create_user(name)) for name in names}
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    moderator = guild.add_member(env.create_user("mod"), roles=[mods])
    english_names = set(english)
    for name, member in members.items():
        locales.set(member, "en-US" if name in english_names else "ja")
    locales.set(moderator, "ja")
    return World(env, guild, text_channel, members, moderator), locales
