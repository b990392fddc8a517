"""Every string of the slash commands the cogs declare, for the extractor's ``--missing``.

A command's names, descriptions, options and choices are messages too (their catalog entry
is their translation: ``bot.i18n.commands``), but no ``_()`` marks them: discord.py asks
its translator for each when it syncs. So they are found the same way: each cog class's
commands (declared in its class body, options and choices included) are turned into
Discord's payload with a translator that only notes what it is asked.

This is a developer's tool reading cogs/ as the extractor reads their source: it imports
the modules of cogs/ by name (the bot itself never imports cogs/ but loads them by name,
as this does).
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

COMMANDS_PACKAGE = "cogs"


@dataclass(frozen=True)
class CommandString:
    message: str
    where: str
    """``path:line`` of the command (or cog) that declares it."""


class _Noting(app_commands.Translator):
    """Translates nothing; notes every string discord.py asks about (the template of one
    made from a template, as ``CatalogTranslator`` looks up)."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        template = string.extras.get("template")
        self.asked.append(template if isinstance(template, str) else string.message)
        return None


def _modules(root: Path) -> Iterator[str]:
    folder = root / COMMANDS_PACKAGE
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if "__pycache__" in parts:
            continue
        yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _cogs(root: Path) -> Iterator[type[commands.Cog]]:
    seen: set[type[commands.Cog]] = set()
    for name in _modules(root):
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, commands.Cog)
                and value.__module__ == module.__name__
                and value not in seen
            ):
                seen.add(value)
                yield value


def _where(root: Path, thing: Any) -> str:
    try:
        path = Path(inspect.getfile(thing)).resolve().relative_to(root)
        line = inspect.getsourcelines(thing)[1]
    except (TypeError, OSError, ValueError):
        return f"{COMMANDS_PACKAGE}:0"
    return f"{path}:{line}"


async def _strings(root: Path) -> list[CommandString]:
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )
    found: list[CommandString] = []
    for cog in _cogs(root):
        cog_where = _where(root, cog)
        if cog.__cog_is_app_commands_group__:
            for text in (cog.__cog_group_name__, cog.__cog_group_description__):
                message = text.message if isinstance(text, app_commands.locale_str) else text
                found.append(CommandString(str(message), cog_where))
        for command in cog.__cog_app_commands__:
            noting = _Noting()
            await command.get_translated_payload(tree, noting)
            # The command's own line, when the cog's file declares it (not a command built
            # by a shared helper, such as a game's /open from its options).
            callback = getattr(command, "callback", None)
            where = _where(root, callback) if callback is not None else cog_where
            if where.partition(":")[0] != cog_where.partition(":")[0]:
                where = cog_where
            found.extend(CommandString(message, where) for message in dict.fromkeys(noting.asked))
    return found


def command_strings(root: Path) -> list[CommandString]:
    """Every name, description, option and choice of the commands of ``root``'s cogs/,
    in declaration order (a string may repeat, from another command)."""
    return asyncio.run(_strings(root))
