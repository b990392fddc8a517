"""An online copy of the SQLite database, safe while the bot runs.

The database is in WAL mode: recently committed pages live in ``tanzaku.db-wal`` until a
checkpoint folds them back, so copying the ``.db`` file alone while the bot runs can miss
them (or catch a page half written). SQLite's online backup API reads one consistent
snapshot through the WAL instead, and as a reader it never blocks the bot's writer.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path


class BackupProblem(Exception):
    """The backup was not made; the message is one line for the operator."""


@dataclass(frozen=True)
class BackupReport:
    target: Path
    bytes: int
    schema_version: int
    seconds: float


def backup_sqlite(source: Path, target: Path) -> BackupReport:
    """Copy `source` into the new file `target` as one consistent snapshot and check the
    copy (integrity and schema version) before it takes its name: a backup that exists is
    a good one. An existing `target` is never overwritten."""
    if not source.is_file():
        raise BackupProblem(f"there is no database file at {source}")
    if target.exists():
        raise BackupProblem(f"{target} exists already: name a new file")
    if not target.parent.is_dir():
        raise BackupProblem(f"the folder {target.parent} does not exist")
    started = time.perf_counter()
    partial = target.with_name(target.name + ".partial")
    try:
        # Read-write but never written: a read-only connection cannot read a WAL database
        # whose shared-memory file the running bot has not made yet.
        reader = sqlite3.connect(source, timeout=10)
        try:
            writer = sqlite3.connect(partial)
            try:
                reader.backup(writer)
                # The copy is a plain file: no -wal beside it to lose when it is moved.
                writer.execute("PRAGMA journal_mode=DELETE")
                (integrity,) = writer.execute("PRAGMA integrity_check").fetchone()
                (version,) = writer.execute("PRAGMA user_version").fetchone()
            finally:
                writer.close()
        finally:
            reader.close()
        if integrity != "ok":
            raise BackupProblem(f"the copy failed its integrity check: {integrity}")
        os.replace(partial, target)
    except sqlite3.Error as error:
        raise BackupProblem(f"{type(error).__name__}: {error}") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return BackupReport(
        target=target,
        bytes=target.stat().st_size,
        schema_version=int(version),
        seconds=time.perf_counter() - started,
    )
