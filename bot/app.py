"""The bot itself: services wired together, extensions loaded, deadlines re-armed."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Coroutine, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.catalog import CATALOG, Catalog
from bot.clock import Clock, discord_clock
from bot.config import Settings
from bot.economy import Economy
from bot.i18n import use_locale
from bot.interactions import (
    GuardedTree,
    take_interaction,
)
from bot.languages import Languages
from bot.meter import NO_METER, Meter
from bot.safe_log import quiet_routine_failures, redact_tokens_in_logs
from bot.service import DiceFactory, TableService, fair_dice
from bot.service.events import EventService
from bot.signals import LANGUAGE
from bot.storage import DATABASE_ERRORS, database_for_url
from bot.translator import CatalogTranslator

if TYPE_CHECKING:
    from bot.metrics import MetricsServer

log = logging.getLogger(__name__)

PLATFORM_EXTENSIONS = (
    "cogs.core",
    "cogs.economy",
    "cogs.table_tools",
    "cogs.server_config",
    "cogs.notify",
    "cogs.events",
)
"""The cogs every bot loads whatever games it hosts."""

DEFAULT_EXTENSIONS = (*PLATFORM_EXTENSIONS, *CATALOG.extensions())
"""The platform's cogs, then each shipped game's (bot/catalog.py)."""


def gateway_intents() -> discord.Intents:
    """What the bot asks the gateway for: the guilds intent, nothing else.

    Everything the bot does arrives as an interaction (commands, buttons, selects, forms,
    in a server or a DM), and interactions need no intent; everything it sends or edits
    goes over REST. So it asks for none of the message intents (``Intents.default()``
    had the gateway send, and discord.py decode, a MESSAGE_UPDATE for every table edit
    the bot made and a MESSAGE_CREATE for every message in every channel it can see),
    reactions, typing, voice, invites, emojis, webhooks, integrations, moderation,
    scheduled events, polls or auto-moderation, and none of the privileged ones: a member
    named in a command (``/stats member``, a challenge) comes resolved inside the
    interaction, and Manage Server is read from the permissions Discord puts in it.

    ``guilds`` stays: discord.py builds its guild, channel and role objects from it and
    warns of "state related issues" without it. It costs events per guild, channel, role
    or thread change, none per message.
    """
    return discord.Intents(guilds=True)


class DatabaseUnavailable(Exception):
    """The database could not be opened at start; `error` says why."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


class MetricsUnavailable(Exception):
    """The metrics port could not be listened on; `error` says why."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


class TanzakuBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        dice_factory: DiceFactory = fair_dice,
        clock: Clock = discord_clock,
        catalog: Catalog = CATALOG,
        extensions: Sequence[str] | None = None,
        sync_globally: bool = False,
        **client_options: Any,
    ) -> None:
        """Long because: the composition root, every part of the bot built and wired
        in one place with the reason for each choice beside it (split, the order of
        construction would hide across helpers)."""
        super().__init__(
            **client_options,
            command_prefix=commands.when_mentioned,
            intents=gateway_intents(),
            help_command=None,
            tree_cls=GuardedTree,
            # No message cache: the bot never reads one (an interaction carries its
            # message, every edit goes over REST), and a thousand cached messages are only
            # more for each full garbage collection to walk.
            max_messages=None,
            # Every command is about a server's wallets and tables: none works in DMs.
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=False, private_channel=False
            ),
        )
        # Whoever configured logging (or not), no record carries an interaction token, and
        # a routine refusal of Discord's that discord.py reports is one WARNING line.
        redact_tokens_in_logs()
        quiet_routine_failures()
        self.settings = settings
        self.clock = clock
        self.db = database_for_url(settings.database_url, synchronous=settings.database_synchronous)
        self.meter: Meter = NO_METER
        """Where the bot's metrics go: nowhere unless `TANZAKU_METRICS_PORT` is set."""
        self.metrics: MetricsServer | None = None
        """The metrics server (``bot.metrics.MetricsServer``) while one listens."""
        if settings.metrics_port is not None:
            # Imported only when asked for: a bot without metrics loads none of it.
            from bot.metrics import PrometheusMeter

            self.meter = PrometheusMeter(catalog.names())
        self.db.meter = self.meter
        self.economy = Economy(self.db, house_float=settings.house_float, clock=clock)
        self.catalog = catalog
        """The games this bot hosts; the table service's engines and computers come from
        it here, and each game cog only attaches its UI to one of them."""
        self.registry = catalog.registry()
        self.tables = TableService(
            self.db,
            self.economy,
            self.registry,
            computers=catalog.computers(),
            clock=clock,
            dice_factory=dice_factory,
            lobby_timeout_seconds=settings.lobby_timeout_seconds,
            owns_guild=settings.owns_guild,
            takeover_seconds=settings.deadline_takeover_seconds,
            meter=self.meter,
        )
        self.events = EventService(self.tables, clock=clock)
        """Tournaments (:mod:`bot.service.events`): run on the table service's scheduler."""
        self.background_tasks: set[asyncio.Task[Any]] = set()
        self.languages = Languages(
            self.db,
            discord_locale_of=self._discord_locale_of,
            spawn=self._spawn_background,
            changed=self.economy.changed_elsewhere,
        )
        """The server's language for what everyone sees, each member's for what they alone
        see (:mod:`bot.languages`)."""
        # Other processes sharing the database change servers' languages too.
        self.tables.signals.on(LANGUAGE, self.languages.on_signal)
        self.tables.signals.on_resync(self.languages.load)
        self.economy.default_currency = self._default_currency
        self._build_interactions_in_members_language()
        self.table_hub: object | None = None
        """The Discord layer's hub of table messages (``cogs._ui.hub.TableHub.of``): held
        here, typed by the layer that knows it, since bot/ never imports cogs/."""
        self.dynamic_item_types: list[type[discord.ui.DynamicItem[Any]]] = []
        # By default the platform's cogs and each catalog game's (a test's catalog with an
        # extra game loads that game's cog too).
        self._extensions = (
            tuple(extensions)
            if extensions is not None
            else (*PLATFORM_EXTENSIONS, *catalog.extensions())
        )
        self._sync_globally = sync_globally
        self.rearmed_deadlines = 0

    async def setup_hook(self) -> None:
        try:
            await self.db.open()
        except DATABASE_ERRORS as error:
            # Named here, where it is known to be the database's: an OSError alone could
            # as well be the network to Discord (a refused PostgreSQL connection is one).
            raise DatabaseUnavailable(error) from error
        await self._serve_metrics()
        log.info(
            "database %s open%s",
            self.db.dialect,
            f"; running shards {self.settings.shard_ids or 'all'} of {self.settings.shard_count}"
            if self.settings.shard_count is not None
            else "",
        )
        await self.languages.load()
        # Slash commands carry their names and descriptions in every catalog's language.
        await self.tree.set_translator(CatalogTranslator())
        # The extensions register everything Discord-facing themselves (cogs.core: the
        # table components and the command error handler): bot/ never imports cogs/.
        for extension in self._extensions:
            await self.load_extension(extension)
        self.rearmed_deadlines = await self.tables.rearm()
        log.info("re-armed %d deadlines", self.rearmed_deadlines)
        log.info("re-armed %d events", await self.events.rearm())
        notices = await self.tables.turn_notices.start()
        log.info("re-armed %d turn notices", notices)
        if self._sync_globally:
            synced = await self.tree.sync()
            log.info("synced %d global commands (may take up to an hour to appear)", len(synced))
        for guild_id in self.settings.dev_guild_ids:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to dev guild %s", len(synced), guild_id)
        # What exists now lives as long as the bot: keep it out of every later full
        # collection, whose pauses would otherwise land inside clicks.
        gc.freeze()

    def _discord_locale_of(self, guild_id: int) -> str | None:
        guild = self.get_guild(guild_id)
        return str(guild.preferred_locale) if guild is not None else None

    def _default_currency(self, guild_id: int) -> str | None:
        """The currency's name for a server whose moderators never named it: 両 where the
        server reads Japanese (``None``: the stored default, ryō)."""
        return "両" if self.languages.server(guild_id) == "ja" else None

    def _spawn_background(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self.background_tasks.add(task)
        task.add_done_callback(self.background_tasks.discard)

    def _build_interactions_in_members_language(self) -> None:
        """Every interaction is handled in its member's language: discord.py starts each
        of its handlers (the command, the component's item, the form, every
        ``on_interaction`` listener) as a task while parsing the event, and a task copies
        the context it is started in. So the one boundary for what a member alone sees is
        here; what everyone sees (the table message, a channel line) is built inside
        ``use_locale(bot.languages.server(guild_id))`` where it is drawn."""
        parsers = self._connection.parsers
        parse = parsers["INTERACTION_CREATE"]
        languages = self.languages

        def parse_in_language(data: Any) -> None:
            user = (data.get("member") or {}).get("user") or data.get("user") or {}
            guild_id = int(data["guild_id"]) if data.get("guild_id") else None
            locale = data.get("locale")
            try:
                languages.seen(int(user["id"]), locale, guild_id, data.get("guild_locale"))
            except (KeyError, TypeError, ValueError):
                log.debug("an interaction without a user id")
            with use_locale(locale or ""):
                parse(data)

        parsers["INTERACTION_CREATE"] = parse_in_language

    async def _serve_metrics(self) -> None:
        port = self.settings.metrics_port
        if port is None:
            return
        from bot.metrics import MetricsServer, PrometheusMeter

        assert isinstance(self.meter, PrometheusMeter)
        token = self.settings.metrics_token
        server = MetricsServer(
            self.meter,
            self.settings.metrics_host,
            port,
            live_tables=self.tables.live_table_counts,
            token=token.get_secret_value() if token is not None else None,
        )
        try:
            await server.start()
        except OSError as error:
            # The operator asked for metrics: a port already taken stops the start.
            raise MetricsUnavailable(error) from error
        self.metrics = server

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction":
            # Called as the interaction arrives, after discord.py has scheduled its
            # handlers but before any of them ran: every handler answers through the one
            # response given here, and the answer is timed from here.
            take_interaction(args[0], self.meter)
        super().dispatch(event_name, *args, **kwargs)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self.dynamic_item_types.extend(items)

    async def on_ready(self) -> None:
        # The gateway has now filled discord.py's caches (every guild, channel and role):
        # as long-lived as what `setup_hook` froze, so out of later full collections too.
        gc.freeze()
        log.info(
            "ready: %d servers; %d objects kept out of garbage collection",
            len(self.guilds),
            gc.get_freeze_count(),
        )

    async def close(self) -> None:
        """Stop cleanly: no more deadlines, the work in flight finishes (for a few seconds
        at most), then the connection to Discord and the database close.

        Safe from any task, including one the bot is tracking (the SIGTERM handler's):
        the task running `close()` is never among those it waits for, or it would wait
        for itself. Concurrent calls wait for the first one.
        """
        running: asyncio.Event | None = getattr(self, "_tanzaku_closing", None)
        if running is not None:
            await running.wait()
            return
        done = asyncio.Event()
        self._tanzaku_closing: asyncio.Event | None = done
        try:
            await self.tables.scheduler.stop()
            await self.tables.turn_notices.stop()
            # Inside `docker stop`'s 10 s before its SIGKILL, with time left to close.
            grace_seconds = 8.0
            # discord.py names the tasks that run a click's, a form's or a command's
            # handler; with the bot's own background work (table message refreshes) and the
            # computers' moves they are the actions in flight.
            handler_prefixes = (
                "discord-ui-view-dispatch",
                "discord-ui-dynamic-item",
                "discord-ui-modal-dispatch",
                "CommandTree-invoker",
                "discord.py: on_interaction",  # a click or a table form (TableHub)
                "tanzaku-computer-",  # a computer's move (bot/service/computers.py)
                "tanzaku-event-",  # an event told its table ended (bot/service/events.py)
            )
            loop = asyncio.get_running_loop()
            give_up_at = loop.time() + grace_seconds
            this_task = asyncio.current_task()
            while True:
                in_flight = {task for task in self.background_tasks if not task.done()}
                in_flight.update(
                    task
                    for task in asyncio.all_tasks()
                    if task.get_name().startswith(handler_prefixes) and not task.done()
                )
                in_flight.discard(this_task)
                if not in_flight:
                    break
                remaining = give_up_at - loop.time()
                if remaining <= 0:
                    log.warning("closing with %d actions still in flight", len(in_flight))
                    break
                # Looping, not one wait: a handler may start a refresh as it finishes.
                await asyncio.wait(in_flight, timeout=remaining)
            await super().close()
            if self.metrics is not None:
                await self.metrics.stop()
                self.metrics = None
            # Closing waits for the transaction in flight, so an action is never cut in half.
            await self.db.close()
        finally:
            self._tanzaku_closing = None
            done.set()


class ShardedTanzakuBot(TanzakuBot, commands.AutoShardedBot):
    """The same bot over several gateway connections (`TANZAKU_SHARD_COUNT`), running the
    shards of `TANZAKU_SHARD_IDS` (all by default).

    Nothing else changes: everything the bot sends or edits goes over REST, whichever
    shard a server is on, and every table lives in the shared database, so a click that
    arrives on this process (a direct message always comes on shard 0) works on a table
    whose server another process runs.
    """

    def __init__(self, settings: Settings, **options: Any) -> None:
        super().__init__(
            settings, shard_count=settings.shard_count, shard_ids=settings.shard_ids, **options
        )


def create_bot(settings: Settings, **options: Any) -> TanzakuBot:
    """The bot the settings ask for: sharded when `TANZAKU_SHARD_COUNT` is set."""
    if settings.shard_count is not None:
        return ShardedTanzakuBot(settings, **options)
    return TanzakuBot(settings, **options)
