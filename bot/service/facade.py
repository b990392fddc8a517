"""The table service's one public face: :class:`TableService`.

Every call that changes a table takes the table's lock and one transaction here
(:meth:`TableService._write`), then hands the transaction to the part that knows the
step (:mod:`.lifecycle`, :mod:`.acting`, :mod:`.deadlines`); reads and the small
bookkeeping calls (notices, stats, the message id) are answered here directly.
"""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

from pydantic import BaseModel

from bot.clock import Clock, discord_clock
from bot.economy import Economy
from bot.errors import NotAllowed, StaleAction
from bot.fairness import Draw
from bot.games.common import is_computer
from bot.games.registry import GameRegistry
from bot.i18n import Said
from bot.meter import NO_METER, Meter
from bot.players import AnyComputer
from bot.ratings import NEW, Skill, identity
from bot.scheduler import Scheduler
from bot.service import config as config_names
from bot.service.acting import Play
from bot.service.computers import ComputerSeats, wants_computer
from bot.service.config import ServerConfig
from bot.service.deadlines import DeadlineBusy, Deadlines
from bot.service.lifecycle import Lifecycle
from bot.service.notices import TurnNotices
from bot.service.snapshots import Outcome, TableSnapshot
from bot.service.steps import Steps
from bot.service.terms import (
    Actor,
    DiceFactory,
    TableAlreadyOpen,
    count_saved_write,
    fair_dice,
)
from bot.service.verify import VerifyReport, verify_table
from bot.signals import DEADLINE, NOTICE, TERMS, SignalRouter
from bot.storage import Database, Transaction
from bot.storage import notify as nq
from bot.storage import ratings as rq
from bot.storage import table_queries as tq
from bot.storage.table_queries import TableStatus

log = logging.getLogger(__name__)

DEFAULT_TAKEOVER_SECONDS = 10.0
"""How late a process fires a deadline of a server whose shard another process runs (in
case that one died): long enough that a live owner has always fired it first."""


MEMBER, COMPUTER, DEADLINE_SOURCE = "member", "computer", "deadline"
"""Who caused a saved change (the metrics' ``source``): a member's click or command, a
computer seat (its move, or ending a table only computers are left at), a deadline."""


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
        owns_guild: Callable[[int], bool] = lambda _guild_id: True,
        takeover_seconds: float = DEFAULT_TAKEOVER_SECONDS,
        computers: Mapping[str, AnyComputer] | None = None,
        meter: Meter = NO_METER,
    ) -> None:
        """Long because: the table service's composition root, its parts (steps, play,
        lifecycle, deadlines, computer seats, signals) built and wired in one place."""
        self._db = db
        self.meter = meter
        """Told of every change saved (:meth:`_saved`), deadline fired and computer move."""
        self._economy = economy
        self.registry = registry
        self._clock = clock
        self.lobby_timeout_seconds = lobby_timeout_seconds
        # A lock lives while someone holds or awaits it: a click on a table id that does
        # not exist leaves nothing behind.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._pending_notices: set[tuple[int, int]] = set()
        self.scheduler = Scheduler(self._on_deadline, clock=clock)
        self.event_deadlines: Callable[[int, int], Awaitable[None]] | None = None
        """Fired for a negative key on the scheduler: an event's (``-event_id``) due moment
        (:mod:`bot.service.events`), which shares the one timer loop and its re-arming."""
        self.ended_hooks: list[Callable[[int], None]] = []
        """Called with the id of every table that has just ended here, however it ended (a
        click, a deadline, a computer's move, a moderator): an event reads its result."""
        self.deadline_listeners: list[Callable[[Outcome], Any]] = []
        """Called (and awaited if a coroutine) with each outcome a deadline produced."""
        self._steps = Steps(
            economy=economy,
            registry=registry,
            clock=clock,
            dice_factory=dice_factory,
            scheduler=self.scheduler,
            owns_guild=owns_guild,
            takeover_seconds=takeover_seconds,
            computers=computers,
        )
        self.signals = SignalRouter()
        """What other processes sharing the database changed (PostgreSQL): deadlines,
        notices, settings; the cogs add their own topics (what a table message shows)."""
        self.signals.on(DEADLINE, self._on_deadline_signal)
        self.signals.on(NOTICE, self._on_notice_signal)
        self.signals.on(TERMS, lambda payload: economy.changed_elsewhere(int(payload)))
        self.signals.on_resync(self._resync)
        self.turn_notices = TurnNotices(
            db,
            self.signals,
            clock=clock,
            owns_guild=owns_guild,
            takeover_seconds=takeover_seconds,
        )
        """Who is to be told that a table waits for them, and when (cogs/_ui/notify.py)."""
        self._play = Play(self._steps)
        self._lifecycle = Lifecycle(self._steps, self._play)
        self._deadlines = Deadlines(
            db,
            self._steps,
            self._lifecycle,
            self._play,
            # Through the public method, looked up when a deadline fires, so a deadline
            # always takes the lock and whatever stands in for `fire_deadline` is used.
            fire=lambda table_id, ply: self.fire_deadline(table_id, ply),
            listeners=self.deadline_listeners,
            meter=meter,
        )
        self.computers = ComputerSeats(
            read=self.snapshot,
            act=self.act_as_computer,
            end_unattended=self.end_unattended,
            dice_factory=lambda: self._steps.dice_factory,
            # A computer's move reaches the table message as a deadline's does: no click
            # to answer, the message and the private panels are redrawn.
            listeners=self.deadline_listeners,
            computers=self._steps.computers,
            meter=meter,
        )

    @property
    def dice_factory(self) -> DiceFactory:
        return self._steps.dice_factory

    @dice_factory.setter
    def dice_factory(self, factory: DiceFactory) -> None:
        self._steps.dice_factory = factory

    # -- reading -----------------------------------------------------------------------------

    async def snapshot(self, table_id: int, guild_id: int | None = None) -> TableSnapshot[Any, Any]:
        async with self._db.reading() as tx:
            row = await self._steps.row(tx, table_id, guild_id)
            return await self._steps.snapshot(tx, row)

    def forget_ended(self, table_id: int) -> None:
        """Another process ended the table: drop what this one keeps of it in memory, as
        if it had ended here. (A notice still waiting stays deliverable, here as there: a
        DM that could not be sent may matter after the end too.)"""
        self._steps.forget_table(table_id)

    async def version_of(self, table_id: int) -> int | None:
        """The table's version now (`None` if there is no such table): one small read."""
        async with self._db.reading() as tx:
            return await tq.table_version(tx, table_id)

    def has_computer(self, game: str) -> bool:
        """Whether the game has a computer player a host may seat."""
        return game in self._steps.computers

    async def live_table_in(self, channel_id: int, game: str) -> int:
        """The open table of `game` in a channel, for commands that act on "this table"."""
        async with self._db.reading() as tx:
            row = await tq.open_table_in_channel(tx, channel_id, game)
        if row is None:
            title = self.registry.get(game).title
            raise NotAllowed("There is no open {title} table in this channel.", title=Said(title))
        return row.id

    async def game_of(self, table_id: int) -> str:
        """The game a table plays; cached, because every button click needs it."""
        game = self._steps.games.get(table_id)
        if game is None:
            async with self._db.reading() as tx:
                row = await self._steps.row(tx, table_id)
            game = row.game
            self._steps.remember_game(table_id, game)
        return game

    async def history(
        self, table_id: int, guild_id: int
    ) -> tuple[TableSnapshot[Any, Any], list[tq.LogRow]]:
        async with self._db.reading() as tx:
            row = await self._steps.row(tx, table_id, guild_id)
            return await self._steps.snapshot(tx, row), await tq.action_log(tx, table_id)

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

    async def live_tables(self, guild_id: int) -> list[tq.LiveTable]:
        async with self._db.reading() as tx:
            return await tq.live_tables_of(tx, guild_id)

    async def live_table_counts(self) -> dict[tuple[str, str], int]:
        """Open and running tables by (game, status), in the whole database (metrics)."""
        async with self._db.reading() as tx:
            return await tq.live_table_counts(tx)

    async def stat_board(
        self, guild_id: int, stat: str, game: str | None, limit: int, offset: int
    ) -> tuple[list[tuple[int, int]], int]:
        async with self._db.reading() as tx:
            return await tq.stat_board(tx, guild_id, stat, game, limit, offset)

    async def ratings(self, guild_id: int, user_id: int) -> list[rq.RankedRating]:
        """A player's skill ratings, a game each, with their rank on the server's board."""
        async with self._db.reading() as tx:
            return await rq.ratings_of(tx, guild_id, user_id)

    async def skills(self, guild_id: int, game: str, user_ids: Collection[int]) -> dict[int, Skill]:
        """Each player's rating in one game (a newcomer's for one without): for pairings
        and tie breaks. The computer's seats all read the game's one computer rating."""
        async with self._db.reading() as tx:
            rows = await rq.ratings_in(tx, guild_id, game, map(identity, user_ids))
        found = {user: Skill(r.mu, r.sigma, r.games) for user, r in rows.items()}
        return {user: found.get(identity(user), NEW) for user in user_ids}

    async def rating_board(
        self, guild_id: int, game: str, limit: int, offset: int
    ) -> tuple[list[tuple[int, rq.RatingRow]], int]:
        """One page of a game's rating board (rank, rating), and how many it holds."""
        async with self._db.reading() as tx:
            return await rq.board(tx, guild_id, game, limit, offset)

    async def notify_mode(self, guild_id: int, user_id: int) -> str | None:
        """How the member wants to hear that a table waits for them (/notify): ``"on"``,
        ``"off"`` or ``"dm"``; ``None`` when they never said."""
        async with self._db.reading() as tx:
            return await nq.notify_mode(tx, guild_id, user_id)

    async def set_notify_mode(self, guild_id: int, user_id: int, mode: str) -> None:
        async with self._db.transaction() as tx:
            await nq.set_notify_mode(tx, guild_id, user_id, mode)

    async def toggle_watch(self, table_id: int, user_id: int) -> bool:
        """Watch a live table (one DM when it ends), or stop watching it; True when the
        member now watches it."""
        async with self._db.transaction() as tx:
            # Locked as an action locks it: a watch either comes before the action that
            # ends the table (and is told) or sees it ended, never lands after the telling.
            await tq.lock_table(tx, table_id)
            row = await self._steps.row(tx, table_id)
            if not row.live:
                raise NotAllowed("Table #{table_id} has already ended.", table_id=str(table_id))
            return await tq.toggle_watch(tx, table_id, user_id)

    async def take_watchers(self, table_id: int) -> list[int]:
        async with self._db.transaction() as tx:
            return await tq.take_watchers(tx, table_id)

    async def results(
        self, guild_id: int, user_id: int, game: str | None = None
    ) -> list[tq.ResultRow]:
        async with self._db.reading() as tx:
            return await tq.results_of(tx, guild_id, user_id, game)

    # -- a server's table settings (/config) ----------------------------------------------

    async def server_config(self, guild_id: int) -> ServerConfig:
        async with self._db.reading() as tx:
            return ServerConfig.from_rows(await tq.guild_config(tx, guild_id))

    async def _change_config(
        self, guild_id: int, name: str, change: Callable[[ServerConfig], object]
    ) -> ServerConfig:
        """Read the server's settings, store `name` as `change` makes it (JSON), and return
        the settings as they now are; all in one transaction."""
        async with self._db.transaction() as tx:
            config = ServerConfig.from_rows(await tq.guild_config(tx, guild_id))
            value = json.dumps(change(config), sort_keys=True)
            await tq.set_guild_config(tx, guild_id, name, value)
            return ServerConfig.from_rows(await tq.guild_config(tx, guild_id))

    async def configure_game(self, guild_id: int, game: str, enabled: bool) -> ServerConfig:
        self.registry.get(game)  # refuses a game this bot does not run

        def change(config: ServerConfig) -> object:
            disabled = set(config.disabled_games)
            if enabled:
                disabled.discard(game)
            else:
                disabled.add(game)
            return sorted(disabled)

        return await self._change_config(guild_id, config_names.DISABLED_GAMES, change)

    async def configure_channel(
        self, guild_id: int, channel_id: int, allowed: bool
    ) -> ServerConfig:
        def change(config: ServerConfig) -> object:
            channels = set(config.table_channels)
            if allowed:
                channels.add(channel_id)
            elif channel_id in channels:
                channels.discard(channel_id)
            else:
                raise NotAllowed("That channel is not on the list: nothing changed.")
            return sorted(channels)

        return await self._change_config(guild_id, config_names.TABLE_CHANNELS, change)

    async def configure_stakes(
        self, guild_id: int, game: str, lowest: int, highest: int | None
    ) -> ServerConfig:
        self.registry.get(game)
        if lowest < 0 or (highest is not None and highest < lowest):
            raise NotAllowed(
                "The lowest stake must be 0 or more, and the highest at least the lowest: "
                "nothing changed."
            )

        def change(config: ServerConfig) -> object:
            limits = {g: [low, high] for g, (low, high) in config.stake_limits.items()}
            if lowest == 0 and highest is None:
                limits.pop(game, None)  # no limit: the default
            else:
                limits[game] = [lowest, highest]
            return limits

        return await self._change_config(guild_id, config_names.STAKE_LIMITS, change)

    async def configure_rule(
        self, guild_id: int, game: str, option: str, value: object | None
    ) -> ServerConfig:
        """A server's default for one of a game's options (`value` None: the game's own
        default again). The value was checked against the option by the caller."""
        self.registry.get(game)

        def change(config: ServerConfig) -> object:
            defaults = {g: dict(values) for g, values in config.rule_defaults.items()}
            chosen = defaults.setdefault(game, {})
            if value is None:
                chosen.pop(option, None)
            else:
                chosen[option] = value
            if not chosen:
                defaults.pop(game)
            return defaults

        return await self._change_config(guild_id, config_names.RULE_DEFAULTS, change)

    async def stats(self, guild_id: int, user_id: int) -> dict[tuple[str, str], int]:
        async with self._db.reading() as tx:
            return await tq.stats(tx, guild_id, user_id)

    async def verify(self, table_id: int, guild_id: int) -> VerifyReport:
        """Re-derive a finished table's every roll from its revealed seed and replay it."""
        async with self._db.reading() as tx:
            row = await self._steps.row(tx, table_id, guild_id)
            log_rows = await tq.action_log(tx, table_id)
        return verify_table(row, log_rows, self.registry)

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
        against_computer: bool = False,
    ) -> Outcome:
        """Open a lobby with the host seated; with `invitee_id` it is a challenge that only
        that member may accept (or decline); `against_computer`: the computer takes the
        other seat and the game starts at once."""
        # No lock: the table does not exist until this transaction commits.
        try:
            async with self._db.transaction() as tx:
                outcome = await self._lifecycle.open(
                    tx,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    game=game,
                    host_id=host_id,
                    rules=rules,
                    invitee_id=invitee_id,
                    lobby_seconds=(
                        lobby_seconds if lobby_seconds is not None else self.lobby_timeout_seconds
                    ),
                    against_computer=against_computer,
                )
        except tq.DuplicateOpenTable:
            # Another process opened one here between our check and our insert (the check
            # sees only committed tables); its table is there now. Read after the failed
            # transaction: PostgreSQL refuses anything more inside it.
            async with self._db.reading() as tx:
                existing = await tq.open_table_in_channel(tx, channel_id, game)
            if existing is None:
                raise NotAllowed(
                    "Another table was opened here at the same moment. Try again."
                ) from None
            raise TableAlreadyOpen(existing, self._steps.registry.get(game).title) from None
        count_saved_write()
        self._saved(outcome, MEMBER)
        self._steps.remember_game(outcome.snapshot.id, game)
        self._steps.sync_scheduler(outcome.snapshot)
        # A game against the computer has started, but its computer waits for the table
        # message (see `set_message`): its move must edit that message, not post another.
        return outcome

    async def open_seated(
        self,
        tx: Transaction,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        players: list[int],
        rules: BaseModel,
        event_id: int,
    ) -> Outcome:
        """An event's table, opened and started for `players` inside the caller's
        transaction (the event's round is saved with its tables, or neither is). Call
        :meth:`opened_seated` with the outcome once that transaction has committed."""
        return await self._lifecycle.open_seated(
            tx,
            guild_id=guild_id,
            channel_id=channel_id,
            game=game,
            players=players,
            rules=rules,
            event_id=event_id,
        )

    def opened_seated(self, outcome: Outcome) -> None:
        """What :meth:`open` does after its commit, for a table :meth:`open_seated` made."""
        count_saved_write()
        self._saved(outcome, DEADLINE_SOURCE)
        self._steps.remember_game(outcome.snapshot.id, outcome.snapshot.spec.name)
        self._steps.sync_scheduler(outcome.snapshot)

    @property
    def database(self) -> Database:
        """The store the tables live in (an event's service shares its transactions)."""
        return self._db

    @property
    def economy(self) -> Economy:
        return self._economy

    async def join(self, table_id: int, actor: Actor) -> Outcome:
        async with self._write(table_id) as tx:
            outcome = await self._lifecycle.join(tx, table_id, actor)
        return self._kick(self._saved(outcome, MEMBER))

    async def add_computer(self, table_id: int, actor: Actor) -> Outcome:
        """The host fills a lobby's seat with the computer."""
        async with self._write(table_id) as tx:
            outcome = await self._lifecycle.add_computer(tx, table_id, actor)
        return self._saved(outcome, MEMBER)

    async def remove_computer(self, table_id: int, actor: Actor) -> Outcome:
        """The host takes the computer seated last out of a lobby (its stake goes back to
        the house bank)."""
        async with self._write(table_id) as tx:
            outcome = await self._lifecycle.remove_computer(tx, table_id, actor)
        self._steps.sync_scheduler(outcome.snapshot)
        return self._saved(outcome, MEMBER)

    async def leave(self, table_id: int, actor: Actor) -> Outcome:
        async with self._write(table_id) as tx:
            outcome = await self._lifecycle.leave(tx, table_id, actor)
        # After the commit: a lobby that failed to save keeps its deadline armed.
        self._steps.sync_scheduler(outcome.snapshot)
        return self._kick(self._saved(outcome, MEMBER))

    async def accept(self, table_id: int, actor: Actor) -> Outcome:
        """The invitee accepts a challenge: takes the seat and the game starts, at once."""
        async with self._write(table_id) as tx:
            outcome = await self._lifecycle.accept(tx, table_id, actor)
        return self._kick(self._saved(outcome, MEMBER))

    async def start(self, table_id: int, actor: Actor) -> Outcome:
        async with self._write(table_id) as tx:
            outcome = await self._lifecycle.start(tx, table_id, actor)
        return self._kick(self._saved(outcome, MEMBER))

    async def cancel(self, table_id: int, actor: Actor) -> Outcome:
        """End a table early: a lobby by its host, invitee or a moderator; a started table
        only by a moderator not seated there (see :meth:`Lifecycle.cancel`)."""
        async with self._write(table_id) as tx:
            outcome = await self._lifecycle.cancel(tx, table_id, actor)
        return self._saved(outcome, MEMBER)

    async def withdraw(self, table_id: int) -> Outcome:
        """Cancel a lobby whose table message could not be posted: nobody could see or
        join it, so every stake goes back at once."""
        async with self._write(table_id) as tx:
            outcome = await self._lifecycle.withdraw(tx, table_id)
        self._steps.sync_scheduler(outcome.snapshot)
        return self._saved(outcome, MEMBER)

    async def set_message(self, table_id: int, message_id: int) -> None:
        async with self._db.transaction() as tx:
            await tq.set_message(tx, table_id, message_id)
            row = await self._steps.row(tx, table_id)
            snapshot = (
                await self._steps.snapshot(tx, row) if row.status == TableStatus.RUNNING else None
            )
        if snapshot is not None:
            self._kick(Outcome(snapshot))

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
        return await self.act_in_turn(table_id, actor, [action], expected_ply=expected_ply)

    async def act_in_turn(
        self,
        table_id: int,
        actor: Actor,
        actions: Sequence[BaseModel] | Callable[[Any], Sequence[BaseModel]],
        *,
        expected_ply: int | None = None,
    ) -> Outcome:
        """A member's actions one after the other, each through the engine as
        :meth:`act` takes it, in one transaction: one click that is several moves of the
        game (Fortunes' "Roll with best keep": set dice aside, then roll) is saved whole
        or not at all, with one commit. `expected_ply` is checked before the first. The
        outcome is the last one's, with every action's events.

        `actions` may be a function of the engine's state giving them: it is called in
        the transaction, on the state the actions are then played on (a move decided from
        the table, like the best keep, needs no read of its own before). The log holds the
        actions it gave, as if they had been sent: replay and /verify see no difference."""
        events: list[BaseModel] = []
        async with self._write(table_id) as tx:
            if callable(actions):
                actions = actions(await self._state_at(tx, table_id, expected_ply))
            assert actions, "at least one action"
            ply = expected_ply
            for action in actions:
                outcome = await self._play.act(tx, table_id, actor, action, ply)
                events.extend(outcome.events)
                ply = None
            # Its turn notices in the same commit: one transaction a click, not two.
            notices = await self.turn_notices.within(tx, outcome.snapshot, actor.user_id)
        if len(actions) > 1:
            outcome = replace(outcome, events=events)
        if notices is not None:
            gone = self.turn_notices.settled(notices, table_id)
            outcome = replace(outcome, notices_gone=tuple(gone))
        return self._kick(self._saved(outcome, MEMBER))

    async def _state_at(self, tx: Transaction, table_id: int, expected_ply: int | None) -> Any:
        """The engine's state of a running table in the caller's transaction, at
        `expected_ply` (a stale click is refused before anything is decided from it)."""
        row = await self._steps.row(tx, table_id)
        if row.state_json is None:
            raise NotAllowed("The game has not started yet.")
        state = self._steps.registry.get(row.game).engine.state_model.model_validate_json(
            row.state_json
        )
        if expected_ply is not None and int(state.ply) != expected_ply:
            raise StaleAction()
        return state

    async def act_as_computer(
        self,
        table_id: int,
        seat: int,
        action: BaseModel,
        expected_ply: int,
        decided_with: Sequence[Draw],
    ) -> Outcome:
        """A computer seat's decision, made at `expected_ply` with `decided_with` drawn
        from the table's dice (:class:`ComputerSeats` calls this; nobody else may)."""
        async with self._write(table_id) as tx:
            row = await self._steps.row(tx, table_id)
            seats = await tq.seats(tx, table_id)
            if seat not in {s.user_id for s in seats}:
                raise NotAllowed("That computer has no seat at this table.")
            outcome = await self._play.act_locked(
                tx, row, seat, action, expected_ply, seats, decided_with=decided_with
            )
        return self._saved(outcome, COMPUTER)

    async def end_unattended(self, table_id: int) -> Outcome | None:
        """End a running table where only computers are left (every member cashed out
        or was removed): what was settled stands, the rest goes back."""
        async with self._write(table_id) as tx:
            row = await self._steps.row(tx, table_id)
            if row.status != TableStatus.RUNNING:
                return None
            seats = await tq.seats(tx, table_id)
            state = await self._steps.snapshot(tx, row)
            if any(not is_computer(seat) for seat in state.seats):
                return None
            outcome = await self._lifecycle.end_early(tx, row, None, seats)
        return self._saved(outcome, COMPUTER)

    async def end_for_event(self, table_id: int) -> Outcome | None:
        """End a live table of an event that was cancelled (it plays for nothing now):
        through its engine as a moderator's end, with nobody's click."""
        async with self._write(table_id) as tx:
            row = await self._steps.row(tx, table_id)
            if not row.live:
                return None
            outcome = await self._lifecycle.end_early(tx, row, None)
        self._steps.sync_scheduler(outcome.snapshot)
        return self._saved(outcome, MEMBER)

    def _saved(self, outcome: Outcome, source: str) -> Outcome:
        """A change to the table is committed: counted for the metrics by game and source;
        a table that ended is told to :attr:`ended_hooks`."""
        self.meter.acted(outcome.snapshot.spec.name, source)
        if not outcome.snapshot.row.live:
            for hook in self.ended_hooks:
                hook(outcome.snapshot.id)
        return outcome

    def _kick(self, outcome: Outcome) -> Outcome:
        """After a change is saved: a computer seat may now have something to do."""
        if wants_computer(outcome.snapshot):
            self.computers.kick(outcome.snapshot)
        return outcome

    # -- deadlines ---------------------------------------------------------------------------

    async def rearm(self) -> int:
        """Load every stored deadline into the scheduler (at start); returns how many.

        On a shared database the process first starts hearing the others' signals, so
        that a deadline another process sets while this one loads is not missed.
        """
        await self._db.listen(self.signals)
        count = await self._deadlines.rearm(self._pending_notices)
        # A computer's turn a stop interrupted is taken now.
        for table_id in await self._computer_tables():
            self._kick(Outcome(await self.snapshot(table_id), [], kind="acted"))
        return count

    async def _computer_tables(self) -> list[int]:
        async with self._db.reading() as tx:
            return await tq.tables_with_computers(tx)

    async def _resync(self) -> None:
        # The signals of a lost connection are lost: read everything kept in memory again.
        self._economy.changed_elsewhere(None)
        count = await self._deadlines.rearm(self._pending_notices)
        log.info("resynced after reconnecting: %d deadlines armed", count)

    def _on_deadline_signal(self, payload: str) -> None:
        fields = payload.split()
        table_id = int(fields[0])
        if len(fields) == 1:
            self.scheduler.cancel(table_id)
            return
        ply, due_at, guild_id = int(fields[1]), float(fields[2]), int(fields[3])
        self._steps.arm(table_id, guild_id, due_at, ply)

    def _on_notice_signal(self, payload: str) -> None:
        user_id, table_id = (int(field) for field in payload.split())
        self._pending_notices.add((user_id, table_id))

    async def _on_deadline(self, table_id: int, ply: int) -> None:
        if table_id < 0:
            if self.event_deadlines is not None:
                await self.event_deadlines(-table_id, ply)
            return
        await self._deadlines.on_deadline(table_id, ply)

    async def fire_deadline(self, table_id: int, ply: int) -> Outcome | None:
        """Act for the table when its deadline is due; `None` when the deadline went stale
        (a click moved the table on first, or the deadline was moved). Raises
        :class:`DeadlineBusy` when another process holds the table at this moment."""
        async with self._write(table_id, claim=True) as tx:
            outcome = await self._deadlines.fire_locked(tx, table_id, ply)
        return None if outcome is None else self._kick(self._saved(outcome, DEADLINE_SOURCE))

    # -- the unit of work --------------------------------------------------------------------

    @asynccontextmanager
    async def _write(self, table_id: int, *, claim: bool = False) -> AsyncIterator[Transaction]:
        """The table's lock and one transaction; counted in :data:`saved_writes` once it
        has committed. With `claim`, raise :class:`DeadlineBusy` rather than wait for
        another process's hold on the table."""
        async with self._lock(table_id), self._db.transaction() as tx:
            # The asyncio lock serialises this process's actions on the table; the row
            # lock serialises them with other processes sharing a PostgreSQL database.
            if claim:
                if not await tq.claim_table(tx, table_id):
                    raise DeadlineBusy(table_id)
            else:
                await tq.lock_table(tx, table_id)
            yield tx
        count_saved_write()

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock
