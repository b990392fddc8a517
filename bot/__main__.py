"""`python -m bot` runs Tanzaku; `--check` validates the setup (no token needed); `--sync`
publishes the slash commands and exits; `--backup FILE` copies the SQLite database while the
bot runs; `--migrate-sqlite-to URL` copies the SQLite database to an empty PostgreSQL one."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import discord
from pydantic import ValidationError

from bot.app import DatabaseUnavailable, MetricsUnavailable, TanzakuBot, create_bot
from bot.config import Settings, database_label
from bot.safe_log import redact_tokens_in_logs
from bot.storage import DATABASE_ERRORS, SqliteDatabase, database_for_url
from bot.storage.backup import BackupProblem, backup_sqlite
from bot.storage.copy import CopyProblem, copy_sqlite_to_postgres
from bot.storage.database import quiet_driver_loggers

log = logging.getLogger("bot")

# Marker lines an operator (and the SIGTERM test) can look for in the log.
STOPPED_CLEANLY = "stopped cleanly: database closed"


NO_TOKEN_NEEDED = "not-needed-offline"
"""The token of a command that never connects to Discord (the check, the copy), when none
is set."""


def _load_settings(*, need_token: bool = True) -> Settings | None:
    try:
        try:
            return Settings()
        except ValidationError as error:
            missing = any(item["loc"] == ("token",) for item in error.errors())
            if need_token or not missing:
                raise
        # The check and the copy never log in, so asking for a token would only be in the
        # way of an operator checking a set-up or moving the data on a machine without one.
        # Only a missing token is forgiven; every other setting is validated as usual (and
        # reported from here).
        return Settings(token=NO_TOKEN_NEEDED)
    except ValidationError as error:
        missing_token = any(item["loc"] == ("token",) for item in error.errors())
        if missing_token:
            sys.stderr.write(
                "tanzaku: no Discord token. Set TANZAKU_TOKEN in the environment or in .env "
                "(copy .env.example) and run again.\n"
            )
        else:
            problems = "; ".join(
                f"TANZAKU_{'_'.join(str(p) for p in item['loc']).upper()}: {item['msg']}"
                for item in error.errors()
            )
            sys.stderr.write(f"tanzaku: invalid settings: {problems}\n")
        return None


def setup_logging(level: str) -> None:
    discord.utils.setup_logging(level=getattr(logging, level), root=True)
    # At DEBUG the database driver logs every statement with its parameters (fairness
    # seeds included), discord.py's HTTP client every request body (private answers, a
    # bid in a DM) and its gateway every event received (a bid button's custom id, a bid
    # typed in a form), and its webhook client every interaction answer's URL (the
    # interaction's token: 15 minutes of answering as the bot). Those stay quiet whatever
    # the level; the token is also redacted from anything they log above it.
    quiet_driver_loggers()
    for name in ("discord.http", "discord.gateway", "discord.webhook"):
        logging.getLogger(name).setLevel(max(logging.INFO, logging.getLogger().level))
    redact_tokens_in_logs()


class DatabaseProblem(Exception):
    """The database cannot be used; the message is one line for the operator."""


def _describe(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return f"{type(error).__name__}: {text}"


async def check_database(settings: Settings) -> int:
    """Open (migrating if needed) and prove a write can be made; returns the schema version.

    Raises DatabaseProblem with one clear line when the file is corrupt, unreadable or
    read-only: this is the Docker health check, so "it opened" is not enough.
    """
    db = database_for_url(settings.database_url, synchronous=settings.database_synchronous)
    try:
        await db.open()
        integrity = await db.integrity_check()
        if integrity != "ok":
            raise DatabaseProblem(f"the integrity check failed: {integrity}")
        await db.probe_write()
        return await db.schema_version()
    except DatabaseProblem:
        raise
    except DATABASE_ERRORS as error:
        raise DatabaseProblem(_describe(error)) from None
    finally:
        # Always: an open connection is a thread that keeps the process from exiting.
        await db.close()


async def _check(settings: Settings) -> None:
    version = await check_database(settings)
    log.info(
        "settings valid; database %s at schema version %d and writable",
        settings.database_label,
        version,
    )
    if settings.token.get_secret_value() == NO_TOKEN_NEEDED:
        log.warning("no TANZAKU_TOKEN set: `python -m bot` needs one to log in to Discord")


class StopOnSignal:
    """SIGTERM / SIGINT → one `bot.close()`, kept here and not in `bot.background_tasks`:
    `close()` waits for those, and a close waiting for itself never finishes."""

    def __init__(self, bot: TanzakuBot) -> None:
        self.bot = bot
        self.task: asyncio.Task[None] | None = None
        self.requested = asyncio.Event()

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        for name in ("SIGTERM", "SIGINT"):
            if hasattr(signal, name):
                loop.add_signal_handler(getattr(signal, name), self.stop, name)

    def stop(self, name: str = "stop") -> None:
        if self.task is not None:
            log.info("%s again: already stopping", name)
            return
        log.info("%s: stopping, finishing the action in flight", name)
        self.task = asyncio.get_running_loop().create_task(
            self.bot.close(), name="tanzaku-shutdown"
        )
        self.requested.set()

    async def wait(self) -> None:
        """Until a stop was asked for and the bot is closed, its database included."""
        await self.requested.wait()
        assert self.task is not None
        await self.task


async def serve(
    bot: TanzakuBot,
    connect: Callable[[], Awaitable[None]],
    stopper: StopOnSignal | None = None,
) -> None:
    """Run `bot` until it is closed; SIGTERM and SIGINT close it cleanly.

    `connect` logs in and returns when the connection has ended (`bot.start` does); the
    SIGTERM test passes one that runs the bot on SimCord instead of Discord and returns
    once `stopper.requested` is set.
    """
    stopper = stopper or StopOnSignal(bot)
    stopper.install()
    async with bot:
        await connect()
    if stopper.task is not None:
        # `bot.start` returns once the gateway is closed, before `close()` has finished
        # with the database; leaving now would let asyncio.run cancel that.
        await stopper.task
    log.info(STOPPED_CLEANLY)


async def _publish(settings: Settings) -> None:
    """Log in, publish the slash commands globally (setup_hook does, when asked to) and
    close: the bot never connects to the gateway, so no table runs from this command."""
    bot = create_bot(settings, sync_globally=True)
    async with bot:
        try:
            await bot.login(settings.token.get_secret_value())
        except discord.LoginFailure:
            log.error("Discord refused the token: check TANZAKU_TOKEN")
            raise SystemExit(1) from None
        except DatabaseUnavailable as unavailable:
            raise DatabaseProblem(_describe(unavailable.error)) from None
    log.info("commands published; start the bot with `python -m bot`")


async def _run(settings: Settings) -> None:
    bot = create_bot(settings)

    async def connect() -> None:
        try:
            await bot.start(settings.token.get_secret_value())
        except discord.LoginFailure:
            log.error("Discord refused the token: check TANZAKU_TOKEN")
            raise SystemExit(1) from None
        except DatabaseUnavailable as unavailable:
            # The database did not open in setup_hook (a corrupt file, a PostgreSQL server
            # that refuses or is not there): one line, not a traceback.
            raise DatabaseProblem(_describe(unavailable.error)) from None
        except MetricsUnavailable as unavailable:
            log.error(
                "cannot serve metrics on %s:%s: %s",
                settings.metrics_host,
                settings.metrics_port,
                _describe(unavailable.error),
            )
            raise SystemExit(1) from None

    await serve(bot, connect)


async def _migrate(settings: Settings, target_url: str) -> None:
    source = database_for_url(settings.database_url)
    if not isinstance(source, SqliteDatabase):
        raise CopyProblem(
            f"the copy reads the configured SQLite database, but TANZAKU_DATABASE_URL is"
            f" {settings.database_label}: point it (or TANZAKU_DATABASE_PATH) at the SQLite file"
        )
    log.info("copying %s to %s", settings.database_label, database_label(target_url))
    report = await copy_sqlite_to_postgres(source.path, target_url)
    for table, count in report.rows.items():
        log.info("  %-16s %d rows", table, count)
    log.info(
        "copied %d rows of %d tables; money verified for %d servers (totals, ledger and"
        " wallets + escrow + house = minted equal on both sides) in %.1f s",
        sum(report.rows.values()),
        len(report.rows),
        report.guilds,
        report.seconds,
    )
    log.info("now set TANZAKU_DATABASE_URL=%s and start the bot", database_label(target_url))


def _backup(settings: Settings, target: str) -> None:
    source = database_for_url(settings.database_url)
    if not isinstance(source, SqliteDatabase):
        raise BackupProblem(
            f"the database is {settings.database_label}: back PostgreSQL up with its own"
            " pg_dump (pg_dump --format=custom --file=tanzaku.dump URL)"
        )
    report = backup_sqlite(source.path, Path(target))
    log.info(
        "backed up %s to %s: %d bytes, schema version %d, integrity ok, in %.1f s",
        settings.database_label,
        report.target,
        report.bytes,
        report.schema_version,
        report.seconds,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "--check",
        action="store_true",
        help="validate settings, migrate the database, prove it can be written, exit",
    )
    parser.add_argument(
        "--sync",
        action="store_true",
        help="publish the slash commands globally, exit (then run the bot without it)",
    )
    parser.add_argument(
        "--backup",
        metavar="FILE",
        help=(
            "copy the SQLite database into the new FILE as one consistent snapshot (safe"
            " while the bot runs), check the copy, exit"
        ),
    )
    parser.add_argument(
        "--migrate-sqlite-to",
        metavar="URL",
        help=(
            "copy the configured SQLite database into the empty PostgreSQL database at URL"
            " (postgresql://user:password@host/db), verify it, exit; stop the bot first"
        ),
    )
    args = parser.parse_args(argv)
    offline = args.check or args.backup is not None or args.migrate_sqlite_to is not None
    settings = _load_settings(need_token=not offline)
    if settings is None:
        return 2
    setup_logging(settings.log_level)
    if args.backup is not None:
        try:
            _backup(settings, args.backup)
        except BackupProblem as problem:
            sys.stderr.write(f"tanzaku: backup not made: {problem}\n")
            return 1
        return 0
    if args.migrate_sqlite_to is not None:
        try:
            asyncio.run(_migrate(settings, args.migrate_sqlite_to))
        except CopyProblem as problem:
            sys.stderr.write(f"tanzaku: copy not made: {problem}\n")
            return 1
        return 0
    try:
        if args.check:
            asyncio.run(_check(settings))
        elif args.sync:
            asyncio.run(_publish(settings))
        else:
            asyncio.run(_run(settings))
    except DatabaseProblem as problem:
        sys.stderr.write(f"tanzaku: database {settings.database_label} unusable: {problem}\n")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
