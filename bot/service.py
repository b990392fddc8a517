"""The table service: the one path from "member M did A at table T" to saved state.

Clicks, slash commands and deadlines all come through here. Each action takes the
table's lock, loads it, asks the engine, and then saves the new state, the action log
row, every coin movement and the next deadline in **one** SQLite transaction. If any
step refuses (an illegal move, a wallet that cannot pay, a stale button), the
transaction rolls back and nothing has changed.

Money: the engine says what each player has at risk (``state.stakes``) and what they
have won or lost so far (``state.payouts``). The service keeps every player's wallet
change at the table equal to ``payouts[p] - stakes[p]`` and the table's escrow equal to
``sum(stakes)``, moving coins through the economy so each movement has a ledger row.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.clock import Clock, discord_clock
from bot.economy import HOUSE_ACCOUNT, Economy, escrow_account, wallet_account
from bot.errors import (
    InsufficientFunds,
    NotAllowed,
    NotSeated,
    StaleAction,
    TableNotFound,
    UserFacingError,
)
from bot.fairness import Draw, FairDice, RecordingDice, commitment, new_seed, verify_draws
from bot.games.common import HOUSE, Abort, Deadline, Permission
from bot.games.dice import Dice
from bot.games.registry import GameRegistry, GameSpec
from bot.safe_log import log_failure
from bot.scheduler import Scheduler
from bot.storage import Database, Transaction
from bot.storage import money as mq
from bot.storage import table_queries as tq

log = logging.getLogger(__name__)

DiceFactory = Callable[[tq.TableRow], Dice]
"""Makes the dice for one action at a table (production: the table's fair dice)."""

RECENT_LOG_ROWS = 8
"""How many of the latest actions' public events a table message recalls."""
LOBBY_DEADLINE = "lobby"
GAME_DEADLINE = "game"
MAX_OPEN_LOBBIES = 3
"""Lobbies one member may host at once in a server: enough for a game in a few channels,
too few to fill a server with tables nobody will start."""
GAME_CACHE_LIMIT = 20_000
"""Table → game names kept in memory; the oldest is dropped past this (a click on an
old message then costs one read)."""
DEADLINE_RETRY_SECONDS = 60
"""A deadline that failed for a reason outside the game (the database, say) tries again."""


saved_writes: ContextVar[int] = ContextVar("tanzaku_saved_writes", default=0)
"""How many table transactions committed in the current task. An interaction handler
reads it when something fails, to tell "nothing was changed" from "saved, but showing it
failed"."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts at a table: a member, and whether they may moderate the server (Manage
    Server). Every lobby step and action carries one; the service checks it inside the
    table's lock, once."""

    user_id: int
    is_moderator: bool = False


class LogKind(StrEnum):
    """The table's own steps in the action log (a game's actions log their own ``kind``)."""

    OPEN = "__open__"
    JOIN = "__join__"
    LEAVE = "__leave__"
    START = "__start__"
    CANCEL = "__cancel__"
    EXPIRE = "__expire__"
    WITHDRAW = "__withdraw__"
    ABANDON = "__abandon__"

    @staticmethod
    def is_table_step(kind: object) -> bool:
        return isinstance(kind, str) and kind.startswith("__")


def fair_dice(row: tq.TableRow) -> Dice:
    return FairDice(bytes.fromhex(row.seed_hex), row.dice_counter)


class TableAlreadyOpen(UserFacingError):
    def __init__(self, existing: tq.TableRow, title: str) -> None:
        where = (
            f"https://discord.com/channels/{existing.guild_id}/{existing.channel_id}/"
            f"{existing.message_id}"
            if existing.message_id
            else "this channel"
        )
        super().__init__(
            f"This channel already has an open {title} table (#{existing.id}): {where}. "
            "Join that one, or wait for it to finish."
        )
        self.existing = existing


@dataclass(frozen=True)
class TableSnapshot:
    """A table as it stands after an action: what the cogs render."""

    row: tq.TableRow
    spec: GameSpec
    rules: Any
    state: Any
    seats: list[int]
    currency: str
    deadline: tq.DeadlineRow | None
    recent_events: list[BaseModel] = field(default_factory=list)
    """Public events of the last few actions, oldest first: what the message shows."""

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def status(self) -> str:
        return self.row.status

    @property
    def ply(self) -> int:
        return int(self.state.ply) if self.state is not None else 0

    @property
    def seed_revealed(self) -> bool:
        return not self.row.live

    @property
    def hold(self) -> int:
        return self.spec.hold(self.rules)


@dataclass(frozen=True)
class Outcome:
    """What an action did: the table after it and the engine's events."""

    snapshot: TableSnapshot
    events: list[BaseModel] = field(default_factory=list)
    kind: str = "acted"
    actor: int | None = None


@dataclass(frozen=True)
class VerifyReport:
    table_id: int
    matched: bool
    draws_checked: int
    actions_replayed: int
    reason: str
    seed_hex: str
    commitment: str


def _dump_events(events: Iterable[BaseModel]) -> str:
    public = [
        event.model_dump(mode="json")
        for event in events
        if getattr(event, "private_to", None) is None
    ]
    return json.dumps(public, separators=(",", ":"))


class TableService:
    def __init__(
        self,
        db: Database,
        economy: Economy,
        registry: GameRegistry,
        *,
        clock: Clock = discord_clock,
        dice_factory: DiceFactory = fair_dice,
        lobby_timeout_seconds: int = 900,
    ) -> None:
        self._db = db
        self._economy = economy
        self.registry = registry
        self._clock = clock
        self.dice_factory = dice_factory
        self.lobby_timeout_seconds = lobby_timeout_seconds
        # A lock lives while someone holds or awaits it: a click on a table id that does
        # not exist leaves nothing behind.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._games: dict[int, str] = {}
        self._pending_notices: set[tuple[int, int]] = set()
        self.scheduler = Scheduler(self._on_deadline, clock=clock)
        self.deadline_listeners: list[Callable[[Outcome], Any]] = []
        """Called (and awaited if a coroutine) with each outcome a deadline produced."""

    # -- reading -----------------------------------------------------------------------------

    async def snapshot(self, table_id: int, guild_id: int | None = None) -> TableSnapshot:
        async with self._db.reading() as tx:
            row = await self._row(tx, table_id, guild_id)
            return await self._snapshot(tx, row)

    async def live_table_in(self, channel_id: int, game: str) -> int:
        """The open table of `game` in a channel, for commands that act on "this table"."""
        async with self._db.reading() as tx:
            row = await tq.open_table_in_channel(tx, channel_id, game)
        if row is None:
            title = self.registry.get(game).title
            raise NotAllowed(f"There is no open {title} table in this channel.")
        return row.id

    async def game_of(self, table_id: int) -> str:
        """The game a table plays; cached, because every button click needs it."""
        game = self._games.get(table_id)
        if game is None:
            async with self._db.reading() as tx:
                row = await self._row(tx, table_id)
            game = row.game
            self._remember_game(table_id, game)
        return game

    def _remember_game(self, table_id: int, game: str) -> None:
        if len(self._games) >= GAME_CACHE_LIMIT:
            self._games.pop(next(iter(self._games)))
        self._games[table_id] = game

    async def history(self, table_id: int, guild_id: int) -> tuple[TableSnapshot, list[tq.LogRow]]:
        async with self._db.reading() as tx:
            row = await self._row(tx, table_id, guild_id)
            return await self._snapshot(tx, row), await tq.action_log(tx, table_id)

    async def take_notice(self, user_id: int, table_id: int) -> str | None:
        # Asked on every click: the in-memory set answers "none" without a transaction.
        if (user_id, table_id) not in self._pending_notices:
            return None
        async with self._db.transaction() as tx:
            notice = await tq.take_notice(tx, user_id, table_id)
        self._pending_notices.discard((user_id, table_id))
        return notice

    async def put_notice(self, user_id: int, table_id: int, content: str) -> None:
        async with self._db.transaction() as tx:
            await tq.put_notice(tx, user_id, table_id, content)
        self._pending_notices.add((user_id, table_id))

    async def stats(self, guild_id: int, user_id: int) -> dict[tuple[str, str], int]:
        async with self._db.reading() as tx:
            return await tq.stats(tx, guild_id, user_id)

    # -- the lobby ---------------------------------------------------------------------------

    async def open(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        rules: BaseModel,
        invitee_id: int | None = None,
        lobby_seconds: int | None = None,
    ) -> Outcome:
        """Open a lobby with the host seated; with `invitee_id` it is a challenge that only
        that member may accept (or decline)."""
        if invitee_id == host_id:
            raise NotAllowed("You cannot challenge yourself.")
        spec = self.registry.get(game)
        seed = new_seed()
        now = self._clock()
        async with self._db.transaction() as tx:
            await self._economy.ensure_guild(tx, guild_id)
            existing = await tq.open_table_in_channel(tx, channel_id, game)
            if existing is not None:
                raise TableAlreadyOpen(existing, spec.title)
            hosted = await tq.lobbies_hosted(tx, guild_id, host_id)
            if len(hosted) >= MAX_OPEN_LOBBIES:
                listed = ", ".join(f"#{table}" for table in hosted)
                raise NotAllowed(
                    f"You already host {len(hosted)} open lobbies ({listed}), the most one "
                    f"member may host at once. Start or cancel one of them first."
                )
            table_id = await tq.insert_table(
                tx,
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                host_id=host_id,
                rules_json=rules.model_dump_json(),
                seed_hex=seed.hex(),
                commitment=commitment(seed),
                now=now,
                invitee_id=invitee_id,
            )
            row = await self._row(tx, table_id)
            await self._seat(tx, row, spec, rules, host_id)
            await self._log(tx, row.id, 1, host_id, {"kind": LogKind.OPEN}, [], [])
            lobby_for = lobby_seconds if lobby_seconds is not None else self.lobby_timeout_seconds
            await tq.set_deadline(tx, table_id, now + lobby_for, 0, LOBBY_DEADLINE)
            row = await self._bump(tx, row)
            snapshot = await self._snapshot(tx, row)
        saved_writes.set(saved_writes.get() + 1)
        self._remember_game(table_id, game)
        self._sync_scheduler(snapshot)
        return Outcome(snapshot, kind="opened", actor=host_id)

    async def join(self, table_id: int, actor: Actor) -> Outcome:
        user_id = actor.user_id
        async with self._write(table_id) as tx:
            row = await self._row(tx, table_id)
            spec = self.registry.get(row.game)
            if row.status == "running" and spec.join_action is not None:
                return await self._act_locked(tx, row, user_id, spec.join_action(), None)
            self._require_lobby(row)
            if row.invitee_id is not None and user_id != row.invitee_id:
                raise NotAllowed(f"This challenge is for <@{row.invitee_id}> only.")
            seated = [seat.user_id for seat in await tq.seats(tx, table_id)]
            if user_id in seated:
                raise NotAllowed("You already have a seat at this table.")
            rules = spec.rules_model.model_validate_json(row.rules_json)
            _, most = spec.seat_limits(rules)
            if len(seated) >= most:
                raise NotAllowed(f"This table is full: {spec.title} seats at most {most}.")
            await self._seat(tx, row, spec, rules, user_id)
            await self._log(tx, row.id, row.version + 1, user_id, {"kind": LogKind.JOIN}, [], [])
            row = await self._bump(tx, row)
            snapshot = await self._snapshot(tx, row)
        return Outcome(snapshot, kind="joined", actor=user_id)

    async def leave(self, table_id: int, actor: Actor) -> Outcome:
        user_id = actor.user_id
        async with self._write(table_id) as tx:
            row = await self._row(tx, table_id)
            spec = self.registry.get(row.game)
            if row.status == "running" and spec.leave_action is not None:
                return await self._act_locked(tx, row, user_id, spec.leave_action(), None)
            self._require_lobby(row)
            seats = await tq.seats(tx, table_id)
            seat = next((seat for seat in seats if seat.user_id == user_id), None)
            if seat is None:
                raise NotSeated()
            await self._settle_seat(tx, row, user_id, seat.wallet_net, 0, memo="left the lobby")
            await tq.remove_seat(tx, table_id, user_id)
            remaining = [s.user_id for s in seats if s.user_id != user_id]
            await self._log(tx, row.id, row.version + 1, user_id, {"kind": LogKind.LEAVE}, [], [])
            if not remaining:
                row = await self._finish_without_play(tx, row, "cancelled")
                kind = "cancelled"
            else:
                if row.host_id == user_id:
                    # The next seat takes over as host rather than the lobby dying with
                    # players still in it.
                    await tq.set_host(tx, table_id, remaining[0])
                row = await self._bump(tx, row)
                kind = "left"
            snapshot = await self._snapshot(tx, row)
        self._sync_scheduler(snapshot)
        return Outcome(snapshot, kind=kind, actor=user_id)

    async def accept(self, table_id: int, actor: Actor) -> Outcome:
        """The invitee accepts a challenge: takes the seat and the game starts, at once."""
        user_id = actor.user_id
        async with self._write(table_id) as tx:
            row = await self._row(tx, table_id)
            self._require_lobby(row)
            if row.invitee_id is None:
                raise NotAllowed("This table is not a challenge; use Join.")
            if user_id != row.invitee_id:
                raise NotAllowed(f"This challenge is for <@{row.invitee_id}> only.")
            spec = self.registry.get(row.game)
            rules = spec.rules_model.model_validate_json(row.rules_json)
            await self._seat(tx, row, spec, rules, user_id)
            await self._log(tx, row.id, row.version + 1, user_id, {"kind": LogKind.JOIN}, [], [])
            row = await self._bump(tx, row)
            return await self._start_locked(tx, row, row.host_id)

    async def start(self, table_id: int, actor: Actor) -> Outcome:
        async with self._write(table_id) as tx:
            row = await self._row(tx, table_id)
            return await self._start_locked(tx, row, actor.user_id)

    async def _start_locked(self, tx: Transaction, row: tq.TableRow, user_id: int) -> Outcome:
        self._require_lobby(row)
        if user_id != row.host_id:
            raise NotAllowed("Only the host who opened this table can start it.")
        spec = self.registry.get(row.game)
        rules = spec.rules_model.model_validate_json(row.rules_json)
        players = [seat.user_id for seat in await tq.seats(tx, row.id)]
        fewest, most = spec.seat_limits(rules)
        if not fewest <= len(players) <= most:
            need = f"exactly {fewest}" if fewest == most else f"{fewest} to {most}"
            raise NotAllowed(f"{spec.title} needs {need} players; {len(players)} seated so far.")
        dice = RecordingDice(self.dice_factory(row))
        state = spec.start(rules, players, dice)
        seq = row.version + 1
        await self._log(
            tx, row.id, seq, user_id, {"kind": LogKind.START, "players": players}, dice.draws, []
        )
        row = await self._save(tx, row, spec, state, dice, seq)
        snapshot = await self._snapshot(tx, row)
        self._sync_scheduler(snapshot)
        return Outcome(snapshot, kind="started", actor=user_id)

    async def cancel(self, table_id: int, actor: Actor) -> Outcome:
        """End a table early.

        A lobby: its host, a challenge's invitee (declining) or a moderator may cancel it,
        and every stake goes back. A started table: only a moderator who is not seated
        there may end it — hosting is not moderating, and a host who could cancel would
        cancel whenever losing. The game's engine then settles it (:class:`Abort`): what
        was decided stands, what was still open goes back.
        """
        user_id, moderator = actor.user_id, actor.is_moderator
        async with self._write(table_id) as tx:
            row = await self._row(tx, table_id)
            if not row.live:
                raise NotAllowed("This table has already ended.")
            if row.status == "lobby":
                declining = user_id == row.invitee_id
                if user_id != row.host_id and not moderator and not declining:
                    raise NotAllowed("Only the table's host or a moderator can cancel this lobby.")
                await self._log(
                    tx, row.id, row.version + 1, user_id, {"kind": LogKind.CANCEL}, [], []
                )
                row = await self._cancel(tx, row)
                snapshot = await self._snapshot(tx, row)
                self._sync_scheduler(snapshot)
                return Outcome(snapshot, kind="cancelled", actor=user_id)
            seats = await tq.seats(tx, table_id)
            self._permit(Permission.MODERATOR_NOT_SEATED, actor, row, seats, "end it")
            outcome = await self._end_early(tx, row, user_id, seats)
        return outcome

    async def _end_early(
        self,
        tx: Transaction,
        row: tq.TableRow,
        actor: int | None,
        seats: list[tq.SeatRow] | None = None,
    ) -> Outcome:
        """Abort a running table through its engine; if the engine cannot, return every
        coin still at stake and let settled results stand."""
        try:
            async with tx.savepoint("abort"):
                outcome = await self._act_locked(
                    tx, row, actor, Abort(), None, seats, final_status="cancelled"
                )
            return replace(outcome, kind="cancelled")
        except Exception as error:
            log_failure(
                log, "table %s: its game could not abort; refunding stakes", row.id, error=error
            )
        await self._log(tx, row.id, row.version + 1, actor, {"kind": LogKind.CANCEL}, [], [])
        row = await self._cancel(tx, row)
        snapshot = await self._snapshot(tx, row)
        self._sync_scheduler(snapshot)
        return Outcome(snapshot, kind="cancelled", actor=actor)

    async def withdraw(self, table_id: int) -> Outcome:
        """Cancel a lobby whose table message could not be posted: nobody could see or
        join it, so every stake goes back at once."""
        async with self._write(table_id) as tx:
            row = await self._row(tx, table_id)
            self._require_lobby(row)
            await self._log(tx, row.id, row.version + 1, None, {"kind": LogKind.WITHDRAW}, [], [])
            row = await self._cancel(tx, row)
            snapshot = await self._snapshot(tx, row)
        self._sync_scheduler(snapshot)
        return Outcome(snapshot, kind="cancelled")

    async def set_message(self, table_id: int, message_id: int) -> None:
        async with self._db.transaction() as tx:
            await tq.set_message(tx, table_id, message_id)

    # -- playing -----------------------------------------------------------------------------

    async def act(
        self,
        table_id: int,
        actor: Actor,
        action: BaseModel,
        *,
        expected_ply: int | None = None,
    ) -> Outcome:
        """Apply one action. `expected_ply` is the ply the member's button was drawn at.
        Who may send it is the game's :class:`Permission` for that action (a seated
        player unless the engine says otherwise), checked here, inside the lock."""
        async with self._write(table_id) as tx:
            row = await self._row(tx, table_id)
            seats = await tq.seats(tx, table_id)
            spec = self.registry.get(row.game)
            self._permit(spec.permission(action), actor, row, seats, "do that")
            return await self._act_locked(tx, row, actor.user_id, action, expected_ply, seats)

    @staticmethod
    def _permit(
        permission: Permission,
        actor: Actor,
        row: tq.TableRow,
        seats: list[tq.SeatRow],
        what: str,
    ) -> None:
        """The one place a table decides who may do what. Hosting is not moderating: a
        host runs the lobby; only a moderator may end or sanction, and not at a table
        where they play."""
        seated = actor.user_id in {seat.user_id for seat in seats}
        if permission is Permission.SEATED:
            if not seated:
                raise NotSeated()
        elif permission is Permission.HOST_OR_MODERATOR:
            if actor.user_id != row.host_id and not actor.is_moderator:
                raise NotAllowed(f"Only the table's host or a moderator can {what}.")
        elif not actor.is_moderator:
            if row.status == "running":
                raise NotAllowed(
                    f"This game has started: only a moderator (Manage Server) can {what} now."
                    " Play it out, or ask a moderator."
                )
            raise NotAllowed(f"Only a moderator (Manage Server) can {what}.")
        elif seated:
            raise NotAllowed(
                f"You have a seat at this table, so it is not yours to {what}: "
                "another moderator can."
            )

    async def _act_locked(
        self,
        tx: Transaction,
        row: tq.TableRow,
        user_id: int | None,
        action: BaseModel,
        expected_ply: int | None,
        seats: list[tq.SeatRow] | None = None,
        *,
        final_status: str = "finished",
    ) -> Outcome:
        if row.status == "lobby":
            raise NotAllowed("The game has not started yet.")
        if row.status != "running":
            raise NotAllowed("This table has already ended.")
        spec = self.registry.get(row.game)
        assert row.state_json is not None
        state: Any = spec.state_model.model_validate_json(row.state_json)
        if expected_ply is not None and int(state.ply) != expected_ply:
            raise StaleAction()
        if spec.shortfall is None:
            return await self._apply(tx, row, spec, state, user_id, action, seats, final_status)
        # A reveal may take coins from a player whose wallet has since run short (a secret
        # choice that costs more at the reveal). The engine turns that player's choice into
        # one they can pay, the table logs it, and the reveal is tried again.
        table_events: list[BaseModel] = []
        for _ in range(len(state.seats) + 1):
            try:
                async with tx.savepoint("reveal"):
                    outcome = await self._apply(
                        tx, row, spec, state, user_id, action, seats, final_status
                    )
            except InsufficientFunds as short:
                fix = None
                if short.user_id is not None and short.user_id != user_id:
                    fix = spec.shortfall(state, short.user_id)
                if fix is None:
                    raise
                fixed = await self._apply(tx, row, spec, state, None, fix, None, final_status)
                row, state, seats = fixed.snapshot.row, fixed.snapshot.state, None
                table_events.extend(fixed.events)
                continue
            if table_events:
                outcome = replace(outcome, events=[*table_events, *outcome.events])
            return outcome
        raise RuntimeError(f"table {row.id}: a reveal kept falling short")

    async def _apply(
        self,
        tx: Transaction,
        row: tq.TableRow,
        spec: GameSpec,
        state: Any,
        user_id: int | None,
        action: BaseModel,
        seats: list[tq.SeatRow] | None,
        final_status: str,
    ) -> Outcome:
        dice = RecordingDice(self.dice_factory(row))
        new_state, events = spec.act(state, user_id, action, dice)
        seq = row.version + 1
        await self._log(
            tx, row.id, seq, user_id, action.model_dump(mode="json"), dice.draws, events
        )
        new_row = await self._save(tx, row, spec, new_state, dice, seq, seats, final_status)
        await self._check_cover(tx, row, spec, state, new_state, user_id)
        snapshot = await self._snapshot(tx, new_row)
        self._sync_scheduler(snapshot)
        return Outcome(snapshot, events, kind="acted", actor=user_id)

    async def _check_cover(
        self,
        tx: Transaction,
        row: tq.TableRow,
        spec: GameSpec,
        before: Any,
        after: Any,
        user_id: int | None,
    ) -> None:
        """Refuse what the money could not honour later: a secret choice the chooser's
        wallet cannot pay at the reveal, or a bet the bank could not pay out."""
        if user_id is not None and spec.pending_charge is not None:
            charge = spec.pending_charge(after, user_id)
            if charge > 0:
                wallet = await mq.wallet(tx, row.guild_id, user_id)
                balance = wallet.balance if wallet is not None else 0
                if balance < charge:
                    settings = await self._economy.ensure_guild(tx, row.guild_id)
                    raise InsufficientFunds(
                        charge, balance, settings.currency_name, user_id=user_id
                    )
        if spec.bank_exposure is not None:
            exposure = spec.bank_exposure(after)
            if exposure > spec.bank_exposure(before):
                settings = await self._economy.ensure_guild(tx, row.guild_id)
                if settings.house_balance < exposure:
                    currency = settings.currency_name
                    raise NotAllowed(
                        f"The bank holds {settings.house_balance:,} {currency} and could not "
                        f"pay out the {exposure:,} {currency} this table could then win from "
                        "it. Bet less, or ask a moderator to fund the bank."
                    )

    # -- deadlines ---------------------------------------------------------------------------

    async def rearm(self) -> int:
        """Load every stored deadline into the scheduler (at start); returns how many."""
        async with self._db.reading() as tx:
            rows = await tq.all_deadlines(tx)
            # One query now spares every live table's first click a look-up of its own.
            self._games.update(await tq.live_games(tx))
            self._pending_notices.update(await tq.notice_keys(tx))
        for deadline in rows:
            self.scheduler.schedule(deadline.table_id, deadline.due_at, deadline.ply)
        self.scheduler.start()
        return len(rows)

    async def _on_deadline(self, table_id: int, ply: int) -> None:
        try:
            outcome = await self.fire_deadline(table_id, ply)
        except Exception as error:
            # Nothing was saved; try again later rather than leave the table waiting
            # forever with coins held.
            log_failure(
                log,
                "deadline of table %s failed; retrying in %d s",
                table_id,
                DEADLINE_RETRY_SECONDS,
                error=error,
            )
            self.scheduler.schedule(table_id, self._clock() + DEADLINE_RETRY_SECONDS, ply)
            return
        if outcome is None:
            return
        for listener in list(self.deadline_listeners):
            try:
                result = listener(outcome)
                if asyncio.iscoroutine(result):
                    await result
            except Exception:
                log.exception("a deadline listener failed for table %s", table_id)

    async def fire_deadline(self, table_id: int, ply: int) -> Outcome | None:
        """Act for the table when its deadline is due; `None` when the deadline went stale
        (a click moved the table on first, or the deadline was moved)."""
        async with self._write(table_id) as tx:
            deadline = await tq.deadline(tx, table_id)
            if deadline is None or deadline.ply != ply or deadline.due_at > self._clock() + 0.001:
                return None
            row = await self._row(tx, table_id)
            if row.status == "lobby" and deadline.kind == LOBBY_DEADLINE:
                await self._log(tx, row.id, row.version + 1, None, {"kind": LogKind.EXPIRE}, [], [])
                row = await self._cancel(tx, row)
                snapshot = await self._snapshot(tx, row)
                self._sync_scheduler(snapshot)
                return Outcome(snapshot, kind="expired")
            if row.status != "running":
                await tq.clear_deadline(tx, table_id)
                return None
            # A savepoint, so that a refusal undoes what the attempt wrote (its log row,
            # coin movements) and the table can still be ended in this transaction.
            try:
                async with tx.savepoint("deadline"):
                    return await self._act_locked(tx, row, None, Deadline(), ply)
            except Exception as error:
                # A game that cannot take its own timeout would wait forever with coins
                # held: end it, with what was settled standing and the rest refunded.
                log_failure(
                    log, "table %s could not take its deadline; ending it", table_id, error=error
                )
            await self._log(tx, row.id, row.version + 1, None, {"kind": LogKind.ABANDON}, [], [])
            row = await self._bump(tx, row)
            return await self._end_early(tx, row, None)

    # -- verification ------------------------------------------------------------------------

    async def verify(self, table_id: int, guild_id: int) -> VerifyReport:
        """Re-derive a finished table's every roll from its revealed seed and replay it."""
        async with self._db.reading() as tx:
            row = await self._row(tx, table_id, guild_id)
            log_rows = await tq.action_log(tx, table_id)
        if row.live:
            raise NotAllowed(
                "This table is still being played; its seed is revealed when it ends. "
                f"Its commitment is `{row.commitment}`."
            )
        seed = bytes.fromhex(row.seed_hex)

        def report(matched: bool, checked: int, replayed: int, reason: str) -> VerifyReport:
            return VerifyReport(
                table_id, matched, checked, replayed, reason, row.seed_hex, row.commitment
            )

        if commitment(seed) != row.commitment:
            return report(False, 0, 0, "the revealed seed does not hash to the commitment")
        logged = [[Draw.from_json(draw) for draw in json.loads(r.draws_json)] for r in log_rows]
        matched, checked = verify_draws(seed, logged)
        if not matched:
            return report(False, checked, 0, f"outcome #{checked + 1} differs from the seed")
        spec = self.registry.get(row.game)
        rules = spec.rules_model.model_validate_json(row.rules_json)
        dice = FairDice(seed)
        state: Any = None
        replayed = 0
        for log_row in log_rows:
            data = json.loads(log_row.action_json)
            if data.get("kind") == LogKind.START:
                state = spec.start(rules, list(data["players"]), dice)
            elif LogKind.is_table_step(data.get("kind")):
                continue
            elif state is not None:
                state, _ = spec.act(state, log_row.actor_id, spec.parse_action(data), dice)
            replayed += 1
        if row.state_json is not None and state is not None:
            try:
                stored = spec.state_model.model_validate_json(row.state_json)
            except ValidationError:
                return report(False, checked, replayed, "the stored result cannot be read")
            if stored != state:
                return report(False, checked, replayed, "replaying the log gives another result")
        return report(True, checked, replayed, "every roll re-derives from the seed")

    # -- internals ---------------------------------------------------------------------------

    @asynccontextmanager
    async def _write(self, table_id: int) -> AsyncIterator[Transaction]:
        """The table's lock and one transaction; counted in :data:`saved_writes` once it
        has committed."""
        async with self._lock(table_id), self._db.transaction() as tx:
            yield tx
        saved_writes.set(saved_writes.get() + 1)

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    async def _row(
        self, tx: Transaction, table_id: int, guild_id: int | None = None
    ) -> tq.TableRow:
        row = await tq.table(tx, table_id)
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            raise TableNotFound(table_id)
        return row

    @staticmethod
    def _require_lobby(row: tq.TableRow) -> None:
        if row.status == "running":
            raise NotAllowed("The game has already started.")
        if row.status != "lobby":
            raise NotAllowed("This table has already ended.")

    async def _snapshot(self, tx: Transaction, row: tq.TableRow) -> TableSnapshot:
        spec = self.registry.get(row.game)
        rules = spec.rules_model.model_validate_json(row.rules_json)
        state: Any = (
            spec.state_model.model_validate_json(row.state_json) if row.state_json else None
        )
        seats = (
            list(state.seats)
            if state is not None
            else [seat.user_id for seat in await tq.seats(tx, row.id)]
        )
        settings = await self._economy.ensure_guild(tx, row.guild_id)
        deadline = await tq.deadline(tx, row.id)
        recent: list[BaseModel] = []
        if spec.event_adapter is not None and state is not None:
            for events_json in await tq.recent_events(tx, row.id, RECENT_LOG_ROWS):
                for data in json.loads(events_json):
                    try:
                        recent.append(spec.event_adapter.validate_python(data))
                    except ValidationError:
                        log.warning("table %s logged an event it cannot read: %s", row.id, data)
        return TableSnapshot(
            row, spec, rules, state, seats, settings.currency_name, deadline, recent
        )

    async def _seat(
        self, tx: Transaction, row: tq.TableRow, spec: GameSpec, rules: Any, user_id: int
    ) -> None:
        await self._economy.ensure_wallet(tx, row.guild_id, user_id)
        await tq.add_seat(tx, row.id, user_id)
        hold = spec.hold(rules)
        await self._settle_seat(tx, row, user_id, 0, -hold, memo="seat at the table")

    async def _settle_seat(
        self,
        tx: Transaction,
        row: tq.TableRow,
        user_id: int,
        current: int,
        target: int,
        *,
        memo: str,
    ) -> None:
        """Move coins so the player's wallet change at this table becomes `target`."""
        delta = target - current
        await self._economy.transfer(
            tx,
            row.guild_id,
            escrow_account(row.id),
            wallet_account(user_id),
            delta,
            kind="table",
            table_id=row.id,
            action_seq=row.version + 1,
            memo=memo,
        )
        await tq.set_wallet_net(tx, row.id, user_id, target)

    async def _reconcile(
        self,
        tx: Transaction,
        row: tq.TableRow,
        stakes: Mapping[int, int],
        payouts: Mapping[int, int],
        seat_rows: list[tq.SeatRow] | None = None,
    ) -> int:
        """Bring wallets, escrow and the house in line with the engine; returns house net.
        A player the engine names who has no seat row yet (joined mid-game) gets one."""
        if seat_rows is None:
            seat_rows = await tq.seats(tx, row.id)
        seats = {seat.user_id: seat.wallet_net for seat in seat_rows}
        players = set(seats) | set(stakes) | set(payouts)
        players.discard(HOUSE)
        # (coins flowing into escrow, player or None for the house, target net)
        moves: list[tuple[int, int | None, int]] = []
        for player in players:
            if player not in seats:
                await tq.add_seat(tx, row.id, player)
                seats[player] = 0
            target = payouts.get(player, 0) - stakes.get(player, 0)
            if target != seats[player]:
                moves.append((seats[player] - target, player, target))
        house_target = payouts.get(HOUSE, 0)
        if house_target != row.house_net:
            moves.append((row.house_net - house_target, None, house_target))
        # Every inflow before any outflow, so escrow never dips below zero on the way.
        for into_escrow, mover, target in sorted(moves, key=lambda move: -move[0]):
            if mover is not None:
                await self._settle_seat(tx, row, mover, seats[mover], target, memo="play")
            else:
                await self._economy.transfer(
                    tx,
                    row.guild_id,
                    HOUSE_ACCOUNT,
                    escrow_account(row.id),
                    into_escrow,
                    kind="table",
                    table_id=row.id,
                    action_seq=row.version + 1,
                    memo="bank",
                )
        return house_target

    async def _save(
        self,
        tx: Transaction,
        row: tq.TableRow,
        spec: GameSpec,
        state: Any,
        dice: RecordingDice,
        seq: int,
        seats: list[tq.SeatRow] | None = None,
        final_status: str = "finished",
    ) -> tq.TableRow:
        house_net = await self._reconcile(tx, row, state.stakes, state.payouts, seats)
        inner = dice.inner
        counter = inner.word_index if isinstance(inner, FairDice) else row.dice_counter
        status = final_status if state.finished else "running"
        new_row = await tq.update_table(
            tx,
            row,
            status=status,
            state_json=state.model_dump_json(),
            dice_counter=counter,
            house_net=house_net,
            now=self._clock(),
        )
        if new_row is None:
            raise StaleAction()
        if new_row.escrow != sum(state.stakes.values()):
            raise RuntimeError(
                f"table {row.id}: escrow {new_row.escrow} != stakes {sum(state.stakes.values())}"
            )
        if state.finished:
            await tq.clear_deadline(tx, row.id)
            if status == "finished":
                # An aborted game was not played out: it counts in nobody's stats.
                await self._record_stats(tx, new_row, spec, state, seq)
        else:
            old_ply = None
            if row.state_json is not None:
                old_ply = json.loads(row.state_json).get("ply")
            seconds = spec.deadline_seconds(state)
            if seconds is None:
                await tq.clear_deadline(tx, row.id)
            elif old_ply != state.ply or row.status != "running":
                await tq.set_deadline(tx, row.id, self._clock() + seconds, state.ply, GAME_DEADLINE)
        return new_row

    async def _record_stats(
        self, tx: Transaction, row: tq.TableRow, spec: GameSpec, state: Any, seq: int
    ) -> None:
        for seat in await tq.seats(tx, row.id):
            net = seat.wallet_net
            await tq.bump_stat(tx, row.guild_id, seat.user_id, spec.name, "played", 1)
            await tq.bump_stat(tx, row.guild_id, seat.user_id, spec.name, "net", net)
            if getattr(state, "winner", None) == seat.user_id or net > 0:
                await tq.bump_stat(tx, row.guild_id, seat.user_id, spec.name, "won", 1)
        for log_row in await tq.action_log(tx, row.id):
            for event in json.loads(log_row.events_json):
                if event.get("kind") == "honour":
                    await tq.bump_stat(
                        tx, row.guild_id, int(event["player"]), spec.name, event["name"], 1
                    )

    async def _cancel(self, tx: Transaction, row: tq.TableRow) -> tq.TableRow:
        spec = self.registry.get(row.game)
        payouts: Mapping[int, int] = {}
        if row.state_json is not None:
            stored: Any = spec.state_model.model_validate_json(row.state_json)
            payouts = stored.payouts
        house_net = await self._reconcile(tx, row, {}, payouts)
        saved = await tq.update_table(
            tx,
            row,
            status="cancelled",
            state_json=row.state_json,
            dice_counter=row.dice_counter,
            house_net=house_net,
            now=self._clock(),
        )
        if saved is None:
            raise StaleAction()
        await tq.clear_deadline(tx, row.id)
        return saved

    async def _finish_without_play(
        self, tx: Transaction, row: tq.TableRow, status: str
    ) -> tq.TableRow:
        saved = await tq.update_table(
            tx,
            row,
            status=status,
            state_json=None,
            dice_counter=row.dice_counter,
            house_net=row.house_net,
            now=self._clock(),
        )
        if saved is None:
            raise StaleAction()
        await tq.clear_deadline(tx, row.id)
        return saved

    async def _bump(self, tx: Transaction, row: tq.TableRow) -> tq.TableRow:
        """Count a lobby change as a new version, so the log's sequence numbers stay unique."""
        saved = await tq.update_table(
            tx,
            row,
            status=row.status,
            state_json=row.state_json,
            dice_counter=row.dice_counter,
            house_net=row.house_net,
            now=self._clock(),
        )
        if saved is None:
            raise StaleAction()
        return saved

    async def _log(
        self,
        tx: Transaction,
        table_id: int,
        seq: int,
        actor_id: int | None,
        action: Mapping[str, Any],
        draws: list[Draw],
        events: Iterable[BaseModel],
    ) -> None:
        await tq.append_log(
            tx,
            table_id=table_id,
            seq=seq,
            actor_id=actor_id,
            action_json=json.dumps(action, separators=(",", ":")),
            draws_json=json.dumps([draw.to_json() for draw in draws], separators=(",", ":")),
            events_json=_dump_events(events),
            at=self._clock(),
        )

    def _sync_scheduler(self, snapshot: TableSnapshot) -> None:
        # Runs while the transaction is still open but after every step that can refuse;
        # if COMMIT itself failed, the stale in-memory deadline would only fire, find no
        # matching row and do nothing.
        deadline = snapshot.deadline
        if deadline is None or not snapshot.row.live:
            self.scheduler.cancel(snapshot.id)
            if not snapshot.row.live:
                self._games.pop(snapshot.id, None)
        else:
            self.scheduler.schedule(snapshot.id, deadline.due_at, deadline.ply)


def parse_rules(spec: GameSpec, options: Mapping[str, Any]) -> BaseModel:
    """Build a table's rules from command options, refusing bad ones with a reason."""
    try:
        rules: BaseModel = spec.rules_model.model_validate(dict(options))
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in item['loc']) or 'rules'}: {item['msg']}"
            for item in error.errors()
        )
        raise UserFacingError(f"Those table options do not work: {problems}.") from error
    return rules
