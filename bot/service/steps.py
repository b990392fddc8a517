"""The small steps every part of the service takes inside a table's transaction: read the
table, write a log row, count a version, move coins, refund, mirror the deadline.

One :class:`Steps` is shared by the lifecycle, play and deadline parts; it holds what they
all need (the economy, the registry, the clock, the dice, the scheduler, the table → game
cache) and never opens a transaction or takes a lock itself: the facade does, once per call.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pydantic import BaseModel

from bot.clock import Clock
from bot.economy import HOUSE_ACCOUNT, Economy, escrow_account, wallet_account
from bot.errors import NotAllowed, StaleAction, TableNotFound
from bot.fairness import Draw
from bot.games.common import is_computer, is_public
from bot.games.registry import AnySpec, GameRegistry
from bot.players import AnyComputer
from bot.scheduler import Scheduler
from bot.service import money
from bot.service.snapshots import (
    RECENT_LOG_ROWS,
    TableSnapshot,
    Unread,
    read_recent_events,
    read_snapshot,
)
from bot.service.terms import DiceFactory
from bot.storage import Transaction
from bot.storage import table_queries as tq
from bot.storage.table_queries import TableStatus

PLAY_MEMO = "play"
"""The ledger's memo of a seat's coins moving with the game."""
SETTLED_AT_VALUE_MEMO = "settled at value"
"""The ledger's memo of a seat's coins when a moderator's end settled a game the house
stakes at the position's value (``GameSpec.house_end``)."""
GAME_CACHE_LIMIT = 20_000
"""Table → game names kept in memory; the oldest is dropped past this (a click on an
old message then costs one read)."""


def dump_events(events: Iterable[BaseModel]) -> str:
    """The public events, as the log keeps them (a private one is its owner's alone)."""
    public = [event.model_dump(mode="json") for event in events if is_public(event)]
    return json.dumps(public, separators=(",", ":"))


def require_lobby(row: tq.TableRow) -> None:
    if row.status == TableStatus.RUNNING:
        raise NotAllowed("The game has already started.")
    if row.status != TableStatus.LOBBY:
        raise NotAllowed("This table has already ended.")


class Steps:
    def __init__(
        self,
        *,
        economy: Economy,
        registry: GameRegistry,
        clock: Clock,
        dice_factory: DiceFactory,
        scheduler: Scheduler,
        owns_guild: Callable[[int], bool] = lambda _guild_id: True,
        takeover_seconds: float = 0.0,
        computers: Mapping[str, AnyComputer] | None = None,
    ) -> None:
        self.economy = economy
        self.registry = registry
        self.computers: dict[str, AnyComputer] = dict(computers or {})
        """Each game's computer player, by game name (a game without one is absent)."""
        self.clock = clock
        self.dice_factory = dice_factory
        self.scheduler = scheduler
        self.owns_guild = owns_guild
        """Whether this process runs the shard of a server: it then fires the deadlines of
        that server's tables on time."""
        self.takeover_seconds = takeover_seconds
        """How late this process fires a deadline of a server it does not run, in case the
        process that runs it has died (it is a no-op if that one fired it already)."""
        self.games: dict[int, str] = {}
        self._rules: dict[int, tuple[str, Any]] = {}
        """Live table → its rules (the text they were parsed from, and the model)."""
        self._recent: dict[int, tuple[int, list[list[BaseModel]]]] = {}
        """Live table → (its version, the public events of its last actions)."""
        """Table → game, because every button click needs it (see GAME_CACHE_LIMIT)."""

    # -- reading ---------------------------------------------------------------------------

    async def row(self, tx: Transaction, table_id: int, guild_id: int | None = None) -> tq.TableRow:
        row = await tq.table(tx, table_id)
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            raise TableNotFound(table_id)
        return row

    async def snapshot(self, tx: Transaction, row: tq.TableRow) -> TableSnapshot[Any, Any]:
        """The table as stored (its rules and recent events from memory when known)."""
        spec = self.registry.get(row.game)
        snapshot, by_action = await read_snapshot(
            tx, row, spec, self.economy, rules=self._rules_of(row, spec)
        )
        self._remember_recent(row, by_action)
        return snapshot

    async def snapshot_after(
        self,
        tx: Transaction,
        row: tq.TableRow,
        spec: AnySpec,
        state: Any,
        events: list[BaseModel],
        deadline: tq.DeadlineRow | Unread | None,
    ) -> TableSnapshot[Any, Any]:
        """The table just after an action this transaction saved, built from what is in
        memory: the engine's state (not parsed back from the row just written), the
        deadline just set, the recent events with the action's own appended. What the
        action did not touch is still read if it is not known (another process acted
        last: the recent events it logged)."""
        if isinstance(deadline, Unread):
            deadline = await tq.deadline(tx, row.id)
        recent = self._recent.get(row.id)
        if spec.engine.events is None:
            by_action: list[list[BaseModel]] | None = None
        elif recent is not None and recent[0] == row.version - 1:
            # As the log keeps them: a private event is its owner's alone.
            public = [event for event in events if is_public(event)]
            by_action = [*recent[1][1 - RECENT_LOG_ROWS :], public]
        else:
            by_action = await read_recent_events(tx, row, spec)
        self._remember_recent(row, by_action)
        settings = await self.economy.terms(tx, row.guild_id)
        return TableSnapshot(
            row,
            spec,
            self._rules_of(row, spec),
            state,
            list(state.seats),
            settings.currency_name,
            deadline,
            [event for action_events in by_action or () for event in action_events],
        )

    def _rules_of(self, row: tq.TableRow, spec: AnySpec) -> Any:
        # A live table's rules are parsed once; the text is compared, because a lobby's
        # options may still change.
        known = self._rules.get(row.id)
        if known is not None and known[0] == row.rules_json:
            return known[1]
        rules = spec.engine.rules_model.model_validate_json(row.rules_json)
        if row.live:
            self._rules[row.id] = (row.rules_json, rules)
        return rules

    def _remember_recent(self, row: tq.TableRow, by_action: list[list[BaseModel]] | None) -> None:
        if by_action is None or not row.live:
            self._recent.pop(row.id, None)
        else:
            self._recent[row.id] = (row.version, by_action)

    def forget_table(self, table_id: int) -> None:
        """A table ended: nothing of it stays in memory."""
        self.games.pop(table_id, None)
        self._rules.pop(table_id, None)
        self._recent.pop(table_id, None)

    def remember_game(self, table_id: int, game: str) -> None:
        if len(self.games) >= GAME_CACHE_LIMIT:
            self.games.pop(next(iter(self.games)))
        self.games[table_id] = game

    # -- writing the table -----------------------------------------------------------------

    async def log(
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
            events_json=dump_events(events),
            at=self.clock(),
        )

    async def bump(self, tx: Transaction, row: tq.TableRow) -> tq.TableRow:
        """Count a lobby change as a new version, so the log's sequence numbers stay unique."""
        return await self._update(tx, row, row.status, row.state_json, row.house_net)

    async def refund(self, tx: Transaction, row: tq.TableRow) -> tq.TableRow:
        """Cancel the table: every stake goes back, what the game had settled stands."""
        spec = self.registry.get(row.game)
        payouts: Mapping[int, int] = {}
        if row.state_json is not None:
            stored: Any = spec.engine.state_model.model_validate_json(row.state_json)
            payouts = stored.payouts
        house_net = await self.reconcile(tx, row, {}, payouts)
        saved = await self._update(tx, row, TableStatus.CANCELLED, row.state_json, house_net)
        await tq.clear_deadline(tx, row.id)
        return saved

    async def _update(
        self, tx: Transaction, row: tq.TableRow, status: str, state_json: str | None, house: int
    ) -> tq.TableRow:
        saved = await tq.update_table(
            tx,
            row,
            status=status,
            state_json=state_json,
            dice_counter=row.dice_counter,
            house_net=house,
            now=self.clock(),
        )
        if saved is None:
            raise StaleAction()
        return saved

    # -- money -----------------------------------------------------------------------------

    async def seat(
        self, tx: Transaction, row: tq.TableRow, spec: AnySpec, rules: Any, user_id: int
    ) -> None:
        hold = spec.engine.hold(rules)
        if is_computer(user_id):
            await self.economy.check_house_covers(tx, row.guild_id, hold)
        else:
            if hold > 0:
                await self.economy.check_stake(tx, row.guild_id, user_id, hold)
            await self.economy.ensure_wallet(tx, row.guild_id, user_id)
        await tq.add_seat(tx, row.id, user_id)
        await self.settle_seat(tx, row, user_id, 0, -hold, memo="seat at the table")

    async def settle_seat(
        self,
        tx: Transaction,
        row: tq.TableRow,
        user_id: int,
        current: int,
        target: int,
        *,
        memo: str,
    ) -> None:
        """Move coins so the player's wallet change at this table becomes `target` (a
        computer's coins are the house bank's)."""
        await self.economy.transfer(
            tx,
            row.guild_id,
            escrow_account(row.id),
            HOUSE_ACCOUNT if is_computer(user_id) else wallet_account(user_id),
            target - current,
            kind="table",
            table_id=row.id,
            action_seq=row.version + 1,
            memo=memo,
        )
        await tq.set_wallet_net(tx, row.id, user_id, target)

    async def reconcile(
        self,
        tx: Transaction,
        row: tq.TableRow,
        stakes: Mapping[int, int],
        payouts: Mapping[int, int],
        seat_rows: list[tq.SeatRow] | None = None,
        *,
        memo: str = PLAY_MEMO,
    ) -> int:
        """Bring wallets, escrow and the house in line with the engine (the moves are
        :func:`money.reconcile`'s); returns the house's net. A player the engine names who
        has no seat row yet (joined mid-game) gets one. `memo`: what the ledger says of
        the seats' movements."""
        if seat_rows is None:
            seat_rows = await tq.seats(tx, row.id)
        nets = {seat.user_id: seat.wallet_net for seat in seat_rows}
        settlement = money.reconcile(nets, row.house_net, stakes, payouts)
        for player in settlement.new_seats:
            await tq.add_seat(tx, row.id, player)
        for move in settlement.moves:
            if move.player is not None:
                await self.settle_seat(tx, row, move.player, move.current, move.target, memo=memo)
                continue
            await self.economy.transfer(
                tx,
                row.guild_id,
                HOUSE_ACCOUNT,
                escrow_account(row.id),
                move.into_escrow,
                kind="table",
                table_id=row.id,
                action_seq=row.version + 1,
                memo="bank",
            )
        return settlement.house_net

    # -- the deadline's mirror -------------------------------------------------------------

    def sync_scheduler(self, snapshot: TableSnapshot[Any, Any]) -> None:
        # Runs while the transaction is still open but after every step that can refuse;
        # if COMMIT itself failed, the stale in-memory deadline would only fire, find no
        # matching row and do nothing.
        deadline = snapshot.deadline
        if deadline is None or not snapshot.row.live:
            self.scheduler.cancel(snapshot.id)
            if not snapshot.row.live:
                self.forget_table(snapshot.id)
        else:
            self.arm(snapshot.id, snapshot.row.guild_id, deadline.due_at, deadline.ply)

    def arm(self, table_id: int, guild_id: int, due_at: float, ply: int) -> None:
        """Mirror a stored deadline: on time if this process runs the server's shard, a
        takeover delay later otherwise."""
        if not self.owns_guild(guild_id):
            due_at += self.takeover_seconds
        self.scheduler.schedule(table_id, due_at, ply)
