"""Who reads a message, and so in which language it is built.

Two audiences (issue 29): what the whole table or channel sees is in the SERVER's
language — the one a moderator chose with ``/config language``, else the server's Discord
language; what one member alone sees (an ephemeral answer, a DM, a form) is in THAT
member's Discord language. An interaction carries both (``locale``, ``guild_locale``):
they are remembered here, so what the bot sends later outside any interaction (a turn
notice, a Watch DM, a panel redrawn after someone else's move) still reaches each member
in their language. A member's language is written to the database only when it changes
(never once per click); the servers' choices are few and read once at start. Beside the
economy rather than in ``bot/i18n``: it keeps a store (``bot/storage/languages.py``), and
the catalogs stay a leaf that knows no database.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

from bot.i18n import SOURCE_LOCALE, available_locales, normalize
from bot.storage import Database
from bot.storage import languages as q

log = logging.getLogger(__name__)

DiscordLocaleOf = Callable[[int], str | None]
"""A server's Discord language as the gateway last told it (``None``: not known)."""
Spawn = Callable[[Coroutine[Any, Any, None], str], object]


class Languages:
    def __init__(
        self,
        db: Database,
        *,
        discord_locale_of: DiscordLocaleOf = lambda guild_id: None,
        spawn: Spawn | None = None,
        changed: Callable[[int], None] = lambda guild_id: None,
    ) -> None:
        self._db = db
        self._discord_locale_of = discord_locale_of
        self._spawn = spawn
        self._changed = changed
        """Told of a server whose language changed (its cached currency name follows)."""
        self._chosen: dict[int, str] = {}
        """Servers whose moderators chose a language (``/config language``)."""
        self._guild_locales: dict[int, str] = {}
        """Each server's Discord language, as its interactions last carried it."""
        self._members: dict[int, str] = {}
        """Each member's Discord language as last seen (and as stored)."""
        self._writing: dict[int, str] = {}
        self.writes = 0
        """Member languages written (a test counts them: one per change, never per click)."""

    async def load(self) -> None:
        async with self._db.transaction() as tx:
            self._chosen = await q.guild_languages(tx)

    # -- servers ------------------------------------------------------------------------------

    def chosen(self, guild_id: int) -> str | None:
        """The language a moderator chose for the server, if any."""
        return self._chosen.get(guild_id)

    def discord_language(self, guild_id: int) -> str:
        """The server's Discord language, as one of ours (English if not known)."""
        # The gateway's guild first (kept current by its updates), else what the server's
        # last interaction said (a guild not in the cache yet, or another shard's).
        raw = self._discord_locale_of(guild_id) or self._guild_locales.get(guild_id)
        return normalize(raw) if raw else SOURCE_LOCALE

    def server(self, guild_id: int | None) -> str:
        """What everyone at the server reads: the chosen language, else its Discord one."""
        if guild_id is None:
            return SOURCE_LOCALE
        return self._chosen.get(guild_id) or self.discord_language(guild_id)

    async def choose(self, guild_id: int, language: str | None) -> None:
        """``None``: follow the server's Discord language again."""
        if language is not None and language not in available_locales():
            raise ValueError(f"no catalog for {language!r}")
        async with self._db.transaction() as tx:
            await q.set_guild_language(tx, guild_id, language)
        self._set_chosen(guild_id, language)

    def _set_chosen(self, guild_id: int, language: str | None) -> None:
        if language is None:
            self._chosen.pop(guild_id, None)
        else:
            self._chosen[guild_id] = language
        self._changed(guild_id)

    def on_signal(self, payload: str) -> None:
        """Another process changed a server's language (``guild_id``): read it again."""
        guild_id = int(payload)
        if self._spawn is not None:
            self._spawn(self._reload(guild_id), f"tanzaku-language-{guild_id}")

    async def _reload(self, guild_id: int) -> None:
        async with self._db.reading() as tx:
            language = await q.guild_language(tx, guild_id)
        if language != self._chosen.get(guild_id):
            self._set_chosen(guild_id, language)

    # -- members ------------------------------------------------------------------------------

    def seen(
        self,
        user_id: int,
        locale: str | None,
        guild_id: int | None = None,
        guild_locale: str | None = None,
    ) -> None:
        """An interaction came in: remember the member's (and server's) language; the
        member's is stored in the background, and only when it changed."""
        if guild_id is not None and guild_locale:
            self._guild_locales[guild_id] = guild_locale
        if not locale:
            return
        language = normalize(locale)
        if self._members.get(user_id) == language:
            return
        self._members[user_id] = language
        if self._spawn is not None and self._writing.get(user_id) != language:
            self._writing[user_id] = language
            self._spawn(self._store(user_id, language), f"tanzaku-locale-{user_id}")

    async def _store(self, user_id: int, language: str) -> None:
        try:
            async with self._db.transaction() as tx:
                if await q.member_locale(tx, user_id) != language:
                    await q.set_member_locale(tx, user_id, language)
                    self.writes += 1
        except Exception:
            log.warning("could not store a member's language", exc_info=True)
        finally:
            if self._writing.get(user_id) == language:
                del self._writing[user_id]

    async def member(self, user_id: int, *, fallback: str = SOURCE_LOCALE) -> str:
        """The member's language as last seen (stored across restarts); ``fallback`` for a
        member never seen (the server's language, usually)."""
        known = self._members.get(user_id)
        if known is not None:
            return known
        try:
            async with self._db.reading() as tx:
                stored = await q.member_locale(tx, user_id)
        except Exception:
            log.warning("could not read a member's language", exc_info=True)
            stored = None
        if stored is None:
            return fallback
        language = normalize(stored)
        self._members.setdefault(user_id, language)
        return language
