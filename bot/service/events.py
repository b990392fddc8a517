"""Server events: tournaments the bot runs itself (issue 37).

A moderator opens an event for a game with its table options, a format (Swiss rounds or
an arena of a set time), an entry fee and an optional prize the house adds, split by
place. Members join (the fee is a stake: self-exclusion and loss limits guard it as a
seat's, and it waits in the event's escrow), the event starts, and from then on the bot
opens every table itself: each round's pairings (:mod:`bot.events`, the pure core) become
tables of the event's game with no stake (they play for event points), seated with the
paired members and started at once. When a table ends, its result is read from how it
ended (:mod:`.event_results`); when a round is complete the next is paired; after the
last the prize pool is paid by the split, each payment a ledger row.

Durable: the event, its entrants and its games are rows; whenever an event has something
to do (a table of it ended, an arena's time is up) its ``due_at`` is set and the table
service's own scheduler fires it (key ``-event_id``), re-armed at start like a table's
deadline. :meth:`EventService.advance` reads everything again from the database and does
what is due, so a restart, a second try or a second process finds nothing left to do;
with several processes on PostgreSQL the event's row is claimed (``SKIP LOCKED``) as a
deadline claims its table, so exactly one advances it.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel

from bot.clock import Clock, discord_clock
from bot.economy import HOUSE_ACCOUNT, event_account, wallet_account
from bot.errors import NotAllowed
from bot.events import (
    MAX_SEATS,
    MIN_SEATS,
    ArenaRow,
    Entrant,
    Format,
    StandingRow,
    TableResult,
    arena_pair,
    arena_points,
    arena_standings,
    bye_result,
    last_opponents,
    pair_round,
    split_prizes,
    standings,
)
from bot.i18n import Said
from bot.ratings import NEW, Skill
from bot.safe_log import log_failure
from bot.service.config import ServerConfig
from bot.service.event_results import table_result
from bot.service.facade import TableService
from bot.service.snapshots import Outcome
from bot.service.terms import Actor
from bot.signals import EVENT
from bot.storage import Transaction
from bot.storage import events as eq
from bot.storage import ratings as rq
from bot.storage import table_queries as tq
from bot.storage.events import EntrantRow, EventRow, EventStatus, GameRow

log = logging.getLogger(__name__)

MAX_ROUNDS = 15
ARENA_SECONDS = (60, 7 * 86_400)
"""An arena lasts from a minute to a week."""
MAX_PLACES_PAID = 10
BUSY_RETRY_SECONDS = 2.0
"""How soon an event another process was advancing is looked at again."""
FAILED_RETRY_SECONDS = 60.0


def event_key(event_id: int) -> int:
    """The event's key on the table service's scheduler: negative, no table's id."""
    return -event_id


class EventBusy(Exception):
    """Another process is advancing the event right now."""


@dataclass(frozen=True)
class EventView:
    """An event as its message shows it: entrants, games, standings, prizes."""

    row: EventRow
    entrants: tuple[EntrantRow, ...]
    games: tuple[GameRow, ...]
    results: tuple[TableResult, ...]
    swiss: tuple[StandingRow, ...]
    arena: tuple[ArenaRow, ...]
    seats: int
    prizes: dict[int, int] = field(default_factory=dict)
    """What each winner was paid (once finished)."""

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def members(self) -> list[int]:
        return [entrant.user_id for entrant in self.entrants]

    @property
    def live_games(self) -> list[GameRow]:
        return [game for game in self.games if game.result_json is None]

    @property
    def pool(self) -> int:
        """The prize pool: the fees in escrow and the house's prize."""
        return self.row.escrow if self.row.live else sum(self.prizes.values())

    def ranked(self) -> Sequence[StandingRow | ArenaRow]:
        return self.arena if self.row.format == Format.ARENA else self.swiss


@dataclass(frozen=True)
class EventChange:
    """What a change did: the event now, the tables it opened (to post), and whether it
    ended just now."""

    view: EventView
    opened: tuple[Outcome, ...] = ()
    ended: bool = False
    closed_tables: tuple[int, ...] = ()
    """Live tables of a cancelled event, to be ended."""


def effective_split(split: Sequence[int], ranked: int) -> list[int]:
    """The split over the places that exist: with fewer players than paid places, what
    the missing places would have had goes to first place (the pool is paid out whole,
    never kept by the house)."""
    if ranked >= len(split) or ranked == 0:
        return list(split)
    kept = list(split[:ranked])
    kept[0] += sum(split[ranked:])
    return kept


def check_split(split: Sequence[int]) -> None:
    if not split or len(split) > MAX_PLACES_PAID or any(part <= 0 for part in split):
        raise NotAllowed(
            "The prize split is 1 to {most} percentages, each above 0 (like 50/30/20). "
            "Nothing was opened.",
            most=MAX_PLACES_PAID,
        )
    if sum(split) != 100:
        raise NotAllowed(
            "The prize split must add up to 100 (it adds up to {total}). Nothing was opened.",
            total=sum(split),
        )


def parse_split(text: str) -> list[int]:
    """``50/30/20`` (or with commas or spaces) as whole percentages."""
    parts = [part for part in text.replace(",", "/").replace(" ", "/").split("/") if part]
    try:
        split = [int(part) for part in parts]
    except ValueError:
        raise NotAllowed(
            "The prize split is whole percentages like 50/30/20, not “{typed}”. "
            "Nothing was opened.",
            typed=text[:30],
        ) from None
    check_split(split)
    return split


class EventService:
    def __init__(self, tables: TableService, *, clock: Clock = discord_clock) -> None:
        self._tables = tables
        self._db = tables.database
        self._economy = tables.economy
        self.registry = tables.registry
        self._clock = clock
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.listeners: list[Callable[[EventChange], Any]] = []
        """Told (and awaited) of every change the scheduler made: the event's message is
        redrawn and the tables it opened are posted (the events cog)."""
        tables.event_deadlines = self._on_due
        tables.ended_hooks.append(self._on_table_ended)
        tables.signals.on(EVENT, self._on_signal)
        tables.signals.on_resync(self._resync)
        self._tasks: set[asyncio.Task[None]] = set()

    # -- reading ---------------------------------------------------------------------------

    async def view(self, event_id: int, guild_id: int | None = None) -> EventView:
        async with self._db.reading() as tx:
            return await self._view(tx, await self._row(tx, event_id, guild_id))

    async def live_in(self, channel_id: int) -> EventView | None:
        async with self._db.reading() as tx:
            row = await eq.live_event_in(tx, channel_id)
            return None if row is None else await self._view(tx, row)

    async def history(self, guild_id: int, limit: int = 10) -> list[EventView]:
        async with self._db.reading() as tx:
            return [await self._view(tx, row) for row in await eq.events_of(tx, guild_id, limit)]

    async def unposted(self) -> list[int]:
        """The tables of live events whose message was never posted (a stop, or Discord
        refusing, between opening them and posting them): posted again at start."""
        async with self._db.reading() as tx:
            return [
                table
                for row in await eq.live_events(tx)
                for table in await eq.unposted_tables(tx, row.id)
            ]

    async def event_of_table(self, table_id: int) -> int | None:
        async with self._db.reading() as tx:
            return await eq.event_of_table(tx, table_id)

    async def _row(self, tx: Transaction, event_id: int, guild_id: int | None = None) -> EventRow:
        row = await eq.event(tx, event_id)
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            raise NotAllowed("There is no event #{event} on this server.", event=str(event_id))
        return row

    async def _view(self, tx: Transaction, row: EventRow) -> EventView:
        entrants = tuple(await eq.entrants(tx, row.id))
        games = tuple(await eq.games(tx, row.id))
        results = tuple(
            TableResult.model_validate_json(game.result_json)
            for game in sorted(games, key=lambda g: (g.ended_at or 0.0, g.id))
            if game.result_json is not None
        )
        field_ = [Entrant(member=e.user_id, rating=0.0, dropped=e.dropped) for e in entrants]
        swiss: tuple[StandingRow, ...] = ()
        arena: tuple[ArenaRow, ...] = ()
        if row.status != EventStatus.OPEN:
            if row.format == Format.ARENA:
                arena = arena_standings(field_, results)
            else:
                swiss = standings(field_, results)
        prizes: dict[int, int] = {}
        if row.status == EventStatus.FINISHED:
            prizes = await eq.prizes_paid(tx, row.guild_id, row.id)
        return EventView(row, entrants, games, results, swiss, arena, self._seats(row), prizes)

    async def _field(
        self, tx: Transaction, row: EventRow, entrants: Sequence[EntrantRow]
    ) -> list[Entrant]:
        """The entrants as the core reads them, each with their skill rating in the game
        (the last tie break; a newcomer's for a member not rated yet)."""
        rated = await rq.ratings_in(tx, row.guild_id, row.game, (e.user_id for e in entrants))
        skills = {user: Skill(r.mu, r.sigma, r.games) for user, r in rated.items()}
        return [
            Entrant(
                member=e.user_id,
                rating=skills.get(e.user_id, NEW).ordinal,
                dropped=e.dropped,
            )
            for e in entrants
        ]

    def _seats(self, row: EventRow) -> int:
        spec = self.registry.get(row.game)
        rules = spec.engine.rules_model.model_validate_json(row.rules_json)
        # A table seats as many as the game's options let: a Nihakyu of `max_players`,
        # a Hachi-hachi of its `seats`, a duel of its mode's.
        return spec.engine.seat_limits(rules)[1]

    # -- a moderator opens, starts and cancels -----------------------------------------------

    async def open(
        self,
        *,
        guild_id: int,
        channel_id: int,
        actor: Actor,
        game: str,
        rules: BaseModel,
        format: Format,
        rounds: int,
        duration_seconds: int,
        entry_fee: int,
        house_prize: int,
        split: list[int],
    ) -> EventView:
        """Open an event for entries. Long because: every refusal of a bad event is named
        here, before anything is written, each with its own reason.
        """
        if not actor.is_moderator:
            raise NotAllowed("Only a member with Manage Server can open an event.")
        spec = self.registry.get(game)
        if spec.ranking is None:
            # Places are read from how a table ended: a game played against the bank
            # places nobody.
            raise NotAllowed(
                "{title} is played against the bank and places nobody: events are for the "
                "games players win against each other. Nothing was opened.",
                title=Said(spec.title),
            )
        if not MIN_SEATS <= spec.engine.seat_limits(rules)[1] <= MAX_SEATS:
            raise NotAllowed(
                "An event's tables seat {fewest} to {most} players: choose {title}'s "
                "number of seats in its options. Nothing was opened.",
                title=Said(spec.title),
                fewest=MIN_SEATS,
                most=MAX_SEATS,
            )
        if spec.engine.hold(rules) != 0:
            raise NotAllowed("An event's tables play for points: their stake must be 0.")
        if format == Format.SWISS and not 1 <= rounds <= MAX_ROUNDS:
            raise NotAllowed(
                "A Swiss event has 1 to {most} rounds. Nothing was opened.", most=MAX_ROUNDS
            )
        low, high = ARENA_SECONDS
        if format == Format.ARENA and not low <= duration_seconds <= high:
            raise NotAllowed(
                "An arena lasts from {low:duration} to {high:duration}. Nothing was opened.",
                low=low,
                high=high,
            )
        if entry_fee < 0 or house_prize < 0:
            raise NotAllowed("The entry fee and the prize are 0 or more. Nothing was opened.")
        check_split(split)
        async with self._db.transaction() as tx:
            await self._economy.terms(tx, guild_id)
            # The server's switches hold (a game switched off, the channels tables open
            # in); its stake limits are for coins at a table, and these play for points.
            config = ServerConfig.from_rows(await tq.guild_config(tx, guild_id))
            replace(config, stake_limits={}).check_open(game, spec.title, channel_id, 0)
            if await eq.live_event_in(tx, channel_id) is not None:
                raise NotAllowed(
                    "This channel already has an event; one at a time in a channel. "
                    "Nothing was opened."
                )
            await self._economy.check_house_covers(tx, guild_id, house_prize)
            event_id = await eq.insert_event(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                host_id=actor.user_id,
                game=game,
                rules_json=rules.model_dump_json(),
                format=format.value,
                rounds=rounds if format == Format.SWISS else 0,
                duration_seconds=duration_seconds if format == Format.ARENA else 0,
                entry_fee=entry_fee,
                house_prize=house_prize,
                split=split,
                now=self._clock(),
            )
            await self._move(
                tx,
                guild_id,
                event_id,
                HOUSE_ACCOUNT,
                event_account(event_id),
                house_prize,
                "event prize from the house",
            )
            return await self._view(tx, await self._row(tx, event_id))

    async def set_message(self, event_id: int, message_id: int) -> None:
        async with self._db.transaction() as tx:
            await eq.set_event_message(tx, event_id, message_id)

    async def start(self, event_id: int, actor: Actor) -> EventChange:
        """A moderator starts the event: the first round (or the arena) is paired and its
        tables open."""
        if not actor.is_moderator:
            raise NotAllowed("Only a member with Manage Server can start an event.")
        async with self._write(event_id) as tx:
            row = await self._row(tx, event_id)
            if row.status != EventStatus.OPEN:
                raise NotAllowed("This event has already started.")
            seats = self._seats(row)
            entrants = await eq.entrants(tx, event_id)
            if len(entrants) < max(2, seats):
                raise NotAllowed(
                    "An event needs at least {fewest} entrants to start; {count} so far.",
                    fewest=max(2, seats),
                    count=len(entrants),
                )
            now = self._clock()
            ends_at = now + row.duration_seconds if row.format == Format.ARENA else None
            await eq.update_event(
                tx, event_id, now=now, status=EventStatus.RUNNING, ends_at=ends_at
            )
            row = await self._row(tx, event_id)
            opened = await self._pair(tx, row)
            row = await self._row(tx, event_id)
            change = EventChange(await self._view(tx, row), tuple(opened))
        self._after(change)
        return change

    async def cancel(self, event_id: int, actor: Actor) -> EventChange:
        """A moderator cancels the event: every entry fee goes back, the house's prize to
        the house, and its live tables end (they play for nothing)."""
        if not actor.is_moderator:
            raise NotAllowed("Only a member with Manage Server can cancel an event.")
        async with self._write(event_id) as tx:
            row = await self._row(tx, event_id)
            if not row.live:
                raise NotAllowed("This event has already ended.")
            for entrant in await eq.entrants(tx, event_id):
                await self._move(
                    tx,
                    row.guild_id,
                    row.id,
                    event_account(row.id),
                    wallet_account(entrant.user_id),
                    entrant.fee_paid,
                    "event cancelled: entry fee back",
                )
            left = (await self._row(tx, event_id)).escrow
            await self._move(
                tx,
                row.guild_id,
                row.id,
                event_account(row.id),
                HOUSE_ACCOUNT,
                left,
                "event cancelled: prize back to the house",
            )
            await eq.update_event(
                tx, event_id, now=self._clock(), status=EventStatus.CANCELLED, clear_due=True
            )
            live = tuple(
                game.table_id
                for game in await eq.games(tx, event_id)
                if game.table_id is not None and game.result_json is None
            )
            change = EventChange(
                await self._view(tx, await self._row(tx, event_id)), ended=True, closed_tables=live
            )
        self._tables.scheduler.cancel(event_key(event_id))
        for table_id in change.closed_tables:
            try:
                await self._tables.end_for_event(table_id)
            except Exception as error:
                log_failure(log, "event %s: table %s did not end", event_id, table_id, error=error)
        return change

    # -- members enter, leave and drop -------------------------------------------------------

    async def join(self, event_id: int, user_id: int) -> EventChange:
        """Enter the event: the fee is staked (refused to a member who excluded themself or
        whose loss limit it would pass) into the event's escrow. An arena takes entrants
        while it runs, and pairs them at once."""
        async with self._write(event_id) as tx:
            row = await self._row(tx, event_id)
            arena_open = row.status == EventStatus.RUNNING and row.format == Format.ARENA
            if row.status != EventStatus.OPEN and not arena_open:
                raise NotAllowed("This event has started: entries are closed.")
            if row.ends_at is not None and self._clock() >= row.ends_at:
                raise NotAllowed("This arena's time is up: entries are closed.")
            if any(e.user_id == user_id for e in await eq.entrants(tx, event_id)):
                raise NotAllowed("You have already entered this event.")
            if row.entry_fee > 0:
                await self._economy.check_stake(tx, row.guild_id, user_id, row.entry_fee)
            await self._economy.ensure_wallet(tx, row.guild_id, user_id)
            await eq.add_entrant(tx, event_id, user_id, row.entry_fee, self._clock())
            await self._move(
                tx,
                row.guild_id,
                row.id,
                wallet_account(user_id),
                event_account(row.id),
                row.entry_fee,
                "event entry fee",
            )
            await eq.update_event(tx, event_id, now=self._clock())
            opened: list[Outcome] = []
            if arena_open:
                opened = await self._pair(tx, await self._row(tx, event_id))
            change = EventChange(await self._view(tx, await self._row(tx, event_id)), tuple(opened))
        self._after(change)
        return change

    async def leave(self, event_id: int, user_id: int) -> EventChange:
        """Leave before the start: the fee comes back."""
        async with self._write(event_id) as tx:
            row = await self._row(tx, event_id)
            if row.status != EventStatus.OPEN:
                raise NotAllowed(
                    "This event has started: use `/event drop` to be paired no more "
                    "(your entry fee stays in the prize pool)."
                )
            entrant = next(
                (e for e in await eq.entrants(tx, event_id) if e.user_id == user_id), None
            )
            if entrant is None:
                raise NotAllowed("You have not entered this event.")
            await eq.remove_entrant(tx, event_id, user_id)
            await self._move(
                tx,
                row.guild_id,
                row.id,
                event_account(row.id),
                wallet_account(user_id),
                entrant.fee_paid,
                "left the event: entry fee back",
            )
            await eq.update_event(tx, event_id, now=self._clock())
            return EventChange(await self._view(tx, await self._row(tx, event_id)))

    async def drop(self, event_id: int, user_id: int) -> EventChange:
        """Drop out of a running event: no further pairings (a table in play goes on, and
        the results so far stand)."""
        async with self._write(event_id) as tx:
            row = await self._row(tx, event_id)
            if row.status != EventStatus.RUNNING:
                raise NotAllowed("Only a running event can be dropped; before it starts, Leave.")
            entrant = next(
                (e for e in await eq.entrants(tx, event_id) if e.user_id == user_id), None
            )
            if entrant is None or entrant.dropped:
                raise NotAllowed("You are not playing in this event.")
            await eq.drop_entrant(tx, event_id, user_id)
            await eq.update_event(tx, event_id, now=self._clock())
            return EventChange(await self._view(tx, await self._row(tx, event_id)))

    # -- the scheduler runs the event -----------------------------------------------------

    def _on_table_ended(self, table_id: int) -> None:
        # Called inside the table service's step, after its commit: the event's own work
        # runs as a task of its own, kept until done.
        task = asyncio.create_task(
            self._table_ended_safely(table_id), name=f"tanzaku-event-{table_id}"
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settled(self) -> None:
        """Until the events of the tables that ended so far have been told (tests, and a
        stop that wants them told)."""
        while self._tasks:
            await asyncio.gather(*self._tasks)

    async def _table_ended_safely(self, table_id: int) -> None:
        try:
            await self.table_ended(table_id)
        except Exception as error:
            log_failure(log, "table %s: its event was not told it ended", table_id, error=error)

    async def table_ended(self, table_id: int) -> None:
        """A table has ended: if it is an event's, the event is due now."""
        async with self._db.transaction() as tx:
            event_id = await eq.event_of_table(tx, table_id)
            if event_id is None:
                return
            row = await self._row(tx, event_id)
            if row.status != EventStatus.RUNNING:
                return
            now = self._clock()
            await eq.update_event(tx, event_id, now=now, due_at=now)
        self._tables.scheduler.schedule(event_key(event_id), now, 0)

    def _on_signal(self, payload: str) -> None:
        """Another process (or this one) set an event due: arm it here too."""
        event_id, due_at = payload.split()
        self._tables.scheduler.schedule(event_key(int(event_id)), float(due_at), 0)

    async def _resync(self) -> None:
        await self.rearm()

    async def rearm(self) -> int:
        """Arm every event that has something due (at start); returns how many."""
        async with self._db.reading() as tx:
            due = await eq.due_events(tx)
        for event_id, due_at in due:
            self._tables.scheduler.schedule(event_key(event_id), due_at, 0)
        return len(due)

    async def _on_due(self, event_id: int, _token: int) -> None:
        try:
            change = await self.advance(event_id)
        except EventBusy:
            self._tables.scheduler.schedule(
                event_key(event_id), self._clock() + BUSY_RETRY_SECONDS, 0
            )
            return
        except Exception as error:
            log_failure(log, "event %s could not advance; retrying", event_id, error=error)
            self._tables.scheduler.schedule(
                event_key(event_id), self._clock() + FAILED_RETRY_SECONDS, 0
            )
            return
        if change is not None:
            await self.tell(change)

    async def tell(self, change: EventChange) -> None:
        """Tell the listeners (the events cog) of a change; a failure there is logged,
        never undoes the change."""
        for listener in list(self.listeners):
            try:
                result = listener(change)
                if asyncio.iscoroutine(result):
                    await result
            except Exception as error:
                log_failure(log, "event %s: a listener failed", change.view.id, error=error)

    async def advance(self, event_id: int) -> EventChange | None:
        """Do what the event has due: read the results of its tables that ended, pair the
        next round (or the free arena players) and open their tables, or end the event and
        pay its prizes. ``None`` when there was nothing to do. Raises :class:`EventBusy`
        when another process holds the event."""
        async with self._write(event_id, claim=True) as tx:
            row = await self._row(tx, event_id)
            if row.status != EventStatus.RUNNING:
                return None
            recorded = await self._record_results(tx, row)
            opened: list[Outcome] = []
            ended = False
            if self._over(row, await eq.games(tx, event_id), await eq.entrants(tx, event_id)):
                await self._finish(tx, row)
                ended = True
            else:
                opened = await self._pair(tx, row)
            row = await self._row(tx, event_id)
            if not ended:
                await eq.update_event(
                    tx,
                    event_id,
                    now=self._clock(),
                    due_at=row.ends_at,
                    clear_due=row.ends_at is None,
                )
            if not (recorded or opened or ended):
                return None
            change = EventChange(
                await self._view(tx, await self._row(tx, event_id)), tuple(opened), ended
            )
        self._after(change)
        return change

    def _after(self, change: EventChange) -> None:
        """After a commit: the tables opened join the table service's timers, and an arena's
        end is armed."""
        for outcome in change.opened:
            self._tables.opened_seated(outcome)
        row = change.view.row
        if row.status == EventStatus.RUNNING and row.ends_at is not None:
            self._tables.scheduler.schedule(event_key(row.id), row.ends_at, 0)

    async def _record_results(self, tx: Transaction, row: EventRow) -> int:
        """Read the result of every table of the event that ended; returns how many."""
        count = 0
        games = await eq.games(tx, row.id)
        ended_before = sum(1 for g in games if g.result_json is not None and not g.is_bye)
        spec = self.registry.get(row.game)
        for game in games:
            if game.table_id is None or game.result_json is not None:
                continue
            table = await tq.table(tx, game.table_id)
            if table is None or table.live:
                continue
            count += 1
            number = ended_before + count if row.format == Format.ARENA else game.round
            log_rows = await tq.action_log(tx, table.id)
            result = table_result(spec, table, list(game.players), log_rows, number)
            await eq.set_result(tx, game.id, result.model_dump_json(), self._clock())
        return count

    def _over(self, row: EventRow, games: list[GameRow], entrants: list[EntrantRow]) -> bool:
        if any(game.result_json is None for game in games):
            return False
        if row.format == Format.ARENA:
            return row.ends_at is not None and self._clock() >= row.ends_at
        playing = [e for e in entrants if not e.dropped]
        return row.round >= row.rounds or len(playing) < max(2, self._seats(row))

    async def _pair(self, tx: Transaction, row: EventRow) -> list[Outcome]:
        """Open the tables due now: the next Swiss round once the last is complete, or the
        arena's free players."""
        games = await eq.games(tx, row.id)
        entrants = await eq.entrants(tx, row.id)
        field_ = await self._field(tx, row, entrants)
        results = [
            TableResult.model_validate_json(g.result_json)
            for g in sorted(games, key=lambda g: (g.ended_at or 0.0, g.id))
            if g.result_json is not None
        ]
        seats = self._seats(row)
        if row.format == Format.ARENA:
            if row.ends_at is not None and self._clock() >= row.ends_at:
                return []
            busy = {p for g in games if g.result_json is None for p in g.players}
            free = [e.member for e in field_ if not e.dropped and e.member not in busy]
            arena = arena_pair(free, arena_points(results), last_opponents(results), seats=seats)
            return await self._open_tables(tx, row, row.round, arena.tables)
        if any(g.result_json is None for g in games):
            return []
        number = row.round + 1
        pairing = pair_round(field_, results, seats=seats, round=number)
        now = self._clock()
        for member in pairing.byes:
            bye = bye_result(member, number)
            await eq.insert_game(tx, row.id, number, None, [member], bye.model_dump_json(), now)
        await eq.update_event(tx, row.id, now=now, round=number)
        return await self._open_tables(tx, row, number, pairing.tables)

    async def _open_tables(
        self, tx: Transaction, row: EventRow, number: int, tables: Sequence[Sequence[int]]
    ) -> list[Outcome]:
        spec = self.registry.get(row.game)
        rules = spec.engine.rules_model.model_validate_json(row.rules_json)
        opened = []
        for players in tables:
            outcome = await self._tables.open_seated(
                tx,
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                game=row.game,
                players=list(players),
                rules=rules,
                event_id=row.id,
            )
            await eq.insert_game(tx, row.id, number, outcome.snapshot.id, list(players))
            opened.append(outcome)
        return opened

    async def _finish(self, tx: Transaction, row: EventRow) -> None:
        """The event is over: the pool is paid by the split, each prize a ledger row."""
        view = await self._view(tx, row)
        ranked = view.ranked()
        split = effective_split(row.split, len(ranked))
        pool = row.escrow
        prizes = split_prizes(pool, split, ranked)
        for member, amount in sorted(prizes.items()):
            await self._move(
                tx,
                row.guild_id,
                row.id,
                event_account(row.id),
                wallet_account(member),
                amount,
                eq.PRIZE_MEMO,
            )
        left = pool - sum(prizes.values())
        # Only when the core cannot place every share (never with the split above).
        await self._move(
            tx,
            row.guild_id,
            row.id,
            event_account(row.id),
            HOUSE_ACCOUNT,
            left,
            "event prize not awarded",
        )
        await eq.update_event(
            tx, row.id, now=self._clock(), status=EventStatus.FINISHED, clear_due=True
        )

    async def _move(
        self,
        tx: Transaction,
        guild_id: int,
        event_id: int,
        source: str,
        destination: str,
        amount: int,
        memo: str,
    ) -> None:
        """Every coin an event moves (fees, the house's prize, prizes, refunds): one ledger
        row of kind ``event``, marked with the event."""
        await self._economy.transfer(
            tx, guild_id, source, destination, amount, kind="event", event_id=event_id, memo=memo
        )

    # -- the unit of work ------------------------------------------------------------------

    @asynccontextmanager
    async def _write(self, event_id: int, *, claim: bool = False) -> AsyncIterator[Transaction]:
        """The event's lock and one transaction (as a table's, :meth:`TableService._write`);
        with `claim`, raise :class:`EventBusy` rather than wait for another process."""
        lock = self._locks.get(event_id)
        if lock is None:
            lock = self._locks[event_id] = asyncio.Lock()
        async with lock, self._db.transaction() as tx:
            if claim:
                if not await eq.claim_event(tx, event_id):
                    raise EventBusy(event_id)
            else:
                await eq.lock_event(tx, event_id)
            yield tx
