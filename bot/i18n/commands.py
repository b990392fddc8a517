"""Slash commands in every language we have a catalog for.

discord.py wraps each command's and option's name and description, and each choice's
name, in a ``locale_str`` and asks the tree's translator for every Discord locale when
it syncs; Discord then shows a member the command in their client's language. The
English string is the message id: its entry in the locale's catalog (the ``# commands``
sections of the ``.po`` files) is the translation. Names must satisfy Discord's rule for
names (``NAME_RULE``: lowercase, 1-32 letters, digits, ``-`` or ``_``; Japanese
characters are letters), descriptions 1-100 characters.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.i18n import available_locales, catalog, fill, normalize

NAME_RULE = re.compile(r"^[-_\w]{1,32}$")
"""Discord's rule for a localized command, group or option name (Unicode letters)."""
DESCRIPTION_LIMIT = 100
CHOICE_NAME_LIMIT = 100

NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


def valid_name(name: str) -> bool:
    return bool(NAME_RULE.match(name)) and name == name.lower()


class CatalogTranslator(app_commands.Translator):
    """Each command string's entry in the catalog of the member's language; ``None``
    (Discord shows the English) for a language we have no catalog for, a string without
    an entry, or a name Discord would refuse (a sync must never fail on a translation)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = normalize(locale)
        if language not in available_locales()[1:]:
            return None
        # Only the language itself (ja): en-GB and en-US are the English source.
        if locale.value.split("-")[0] != language:
            return None
        # A string made from a template (``locale_str(text, template=…, params=…)``): the
        # template is the message, its values filled in.
        template = string.extras.get("template")
        found = catalog(language).get(template if isinstance(template, str) else string.message)
        if not isinstance(found, str) or not found:
            return None
        if isinstance(template, str):
            found = fill(found, language, string.extras.get("params") or {})
        if context.location in NAMES and not valid_name(found):
            return None
        limit = (
            CHOICE_NAME_LIMIT
            if context.location is app_commands.TranslationContextLocation.choice_name
            else DESCRIPTION_LIMIT
        )
        if len(found) > limit:
            return None
        return found
