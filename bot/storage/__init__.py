"""Everything that speaks SQL. Nothing outside this package writes a query.

:func:`open_database` picks the backend from a URL: ``sqlite:///path`` (the embedded
default) or ``postgresql://…`` (the shared store for several processes).
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from bot.storage.base import DATABASE_ERRORS, Database, Transaction
from bot.storage.database import SqliteDatabase, Synchronous

__all__ = [
    "DATABASE_ERRORS",
    "Database",
    "SqliteDatabase",
    "Transaction",
    "database_for_url",
    "open_database",
    "sqlite_url",
]


def sqlite_url(path: Path | str) -> str:
    """The URL of a SQLite file: ``sqlite:///`` + the path (relative or absolute)."""
    return f"sqlite:///{path}"


def database_for_url(url: str, *, synchronous: Synchronous = "FULL") -> Database:
    """The backend for `url`, not yet opened (``await db.open()`` connects and migrates).

    ``sqlite:///relative/path``, ``sqlite:////absolute/path`` and ``sqlite:///:memory:``
    name SQLite files; ``postgresql://`` (or ``postgres://``) URLs are libpq's. The
    SQLite-only `synchronous` mode is ignored by PostgreSQL (its server decides).
    """
    scheme = urlsplit(url).scheme.lower()
    if scheme == "sqlite":
        if not url.lower().startswith("sqlite:///"):
            raise ValueError(f"a SQLite URL is sqlite:///path, not {url!r}")
        path = unquote(url[len("sqlite:///") :])
        if not path:
            raise ValueError("the SQLite URL names no file")
        return SqliteDatabase(path, synchronous=synchronous)
    if scheme in ("postgresql", "postgres"):
        from bot.storage.postgres import PostgresDatabase

        return PostgresDatabase(url)
    raise ValueError(f"unknown database URL scheme {scheme!r}: use sqlite:/// or postgresql://")


async def open_database(url: str, *, synchronous: Synchronous = "FULL") -> Database:
    """:func:`database_for_url`, opened (connected and migrated)."""
    db = database_for_url(url, synchronous=synchronous)
    await db.open()
    return db
