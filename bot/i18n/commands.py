"""Slash command strings: the rules Discord holds a translation of them to.

discord.py wraps each command's and option's name and description, and each choice's
name, in a ``locale_str``; the English string is the message id, and its entry in the
locale's catalog (the ``# commands`` sections of the ``.po`` files) is the translation,
handed to Discord by :class:`bot.translator.CatalogTranslator`. Names must satisfy
Discord's rule for names (``NAME_RULE``: lowercase, 1-32 letters, digits, ``-`` or ``_``;
Japanese characters are letters), descriptions 1-100 characters.
"""

from __future__ import annotations

import re

NAME_RULE = re.compile(r"^[-_\w]{1,32}$")
"""Discord's rule for a localized command, group or option name (Unicode letters)."""
DESCRIPTION_LIMIT = 100
CHOICE_NAME_LIMIT = 100


def valid_name(name: str) -> bool:
    return bool(NAME_RULE.match(name)) and name == name.lower()
