"""`python -m bot` runs Tanzaku; `--check` validates the setup; `--sync` publishes commands."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

import discord
from pydantic import ValidationError

from bot.app import create_bot
from bot.config import Settings
from bot.storage import Database

log = logging.getLogger("bot")


def _load_settings() -> Settings | None:
    try:
        return Settings()
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


async def _check(settings: Settings) -> None:
    db = Database(settings.database_path)
    await db.open()
    version = await db.schema_version()
    await db.close()
    log.info("settings valid; database %s at schema version %d", settings.database_path, version)


async def _run(settings: Settings, *, sync: bool) -> None:
    bot = create_bot(settings, sync_globally=sync)
    loop = asyncio.get_running_loop()

    def stop() -> None:
        log.info("stopping: finishing the action in flight")
        task = loop.create_task(bot.close())
        bot.background_tasks.add(task)

    for name in ("SIGTERM", "SIGINT"):
        if hasattr(signal, name):
            loop.add_signal_handler(getattr(signal, name), stop)
    async with bot:
        try:
            await bot.start(settings.token.get_secret_value())
        except discord.LoginFailure:
            log.error("Discord refused the token: check TANZAKU_TOKEN")
            raise SystemExit(1) from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "--check", action="store_true", help="validate settings, migrate the database, exit"
    )
    parser.add_argument(
        "--sync", action="store_true", help="publish slash commands globally at start"
    )
    args = parser.parse_args(argv)
    settings = _load_settings()
    if settings is None:
        return 2
    discord.utils.setup_logging(level=getattr(logging, settings.log_level), root=True)
    if args.check:
        asyncio.run(_check(settings))
        return 0
    asyncio.run(_run(settings, sync=args.sync))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
