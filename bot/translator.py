"""Slash commands in every language we have a catalog for.

discord.py asks the tree's translator for every Discord locale when it syncs; Discord then
shows a member the command in their client's language. The translation is each string's
entry in the catalog (:mod:`bot.i18n.commands` holds the rules Discord holds it to). It
lives outside ``bot/i18n`` because it is discord.py's hook: the catalogs know no Discord.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import available_locales, catalog, fill, normalize
from bot.i18n.commands import CHOICE_NAME_LIMIT, DESCRIPTION_LIMIT, valid_name

NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


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
