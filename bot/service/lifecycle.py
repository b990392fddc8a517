"""A table's life outside play: open, join, leave, accept a challenge, start, cancel, and
the withdrawal of a lobby nobody could see. Who may do each is decided here, inside the
table's lock (the facade holds it), never from a snapshot a cog read earlier."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.errors import NotAllowed, NotSeated, UserFacingError
from bot.fairness import RecordingDice, commitment
from bot.games.common import COMPUTER_IDS, Abort, Permission, is_computer
from bot.games.registry import AnySpec
from bot.i18n import Said
from bot.players import computer_refusal
from bot.safe_log import log_failure
from bot.service.acting import Play
from bot.service.computers import with_house_seats
from bot.service.config import ServerConfig
from bot.service.snapshots import Outcome, OutcomeKind
from bot.service.steps import PLAY_MEMO, SETTLED_AT_VALUE_MEMO, Steps, require_lobby
from bot.service.terms import (
    END_A_GAME,
    LOBBY_DEADLINE,
    Actor,
    LogKind,
    TableAlreadyOpen,
    permit,
)
from bot.storage import Transaction
from bot.storage import table_queries as tq
from bot.storage.table_queries import TableStatus

log = logging.getLogger(__name__)

MAX_OPEN_LOBBIES = 3
"""Lobbies one member may host at once in a server: enough for a game in a few channels,
too few to fill a server with tables nobody will start."""

MAX_COMPUTER_TABLES = 3
"""Live tables with a computer seat (lobbies and games) one member may host at once in a
server. Each game against the computer costs the bot work on every turn (Hachi-hachi's
search, hundreds of milliseconds), all of it driven by the one member: 30 such tables
slowed every other member's commands to a second."""


def _new_seed() -> bytes:
    # Looked up through the package on every call: `bot.service.new_seed` is where a test
    # fixes the seed a table opens with (tests/platform/test_fairness.py).
    import bot.service

    return bot.service.new_seed()


def parse_rules(spec: AnySpec, options: Mapping[str, Any]) -> BaseModel:
    """Build a table's rules from command options, refusing bad ones with a reason."""
    try:
        rules: BaseModel = spec.engine.rules_model.model_validate(dict(options))
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in item['loc']) or 'rules'}: {item['msg']}"
            for item in error.errors()
        )
        raise UserFacingError(
            "Those table options do not work: {problems}.", problems=problems
        ) from error
    return rules


async def _check_lobbies_hosted(tx: Transaction, guild_id: int, host_id: int) -> None:
    """Refuse a host who already holds the most open lobbies one member may."""
    hosted = await tq.lobbies_hosted(tx, guild_id, host_id)
    if len(hosted) >= MAX_OPEN_LOBBIES:
        listed = ", ".join(f"#{table}" for table in hosted)
        raise NotAllowed(
            "You already host {count} open lobbies ({listed}), the most one "
            "member may host at once. Start or cancel one of them first.",
            count=len(hosted),
            listed=listed,
        )


async def _check_computer_tables(tx: Transaction, guild_id: int, host_id: int) -> None:
    hosted = await tq.computer_tables_hosted(tx, guild_id, host_id)
    if len(hosted) >= MAX_COMPUTER_TABLES:
        listed = ", ".join(f"#{table}" for table in hosted)
        raise NotAllowed(
            "You already host {count} tables with the computer ({listed}); one "
            "member may host at most {most} at once. Finish one of those "
            "games, or remove the computer from one of those lobbies, first. Nothing changed.",
            count=len(hosted),
            listed=listed,
            most=MAX_COMPUTER_TABLES,
        )


class Lifecycle:
    def __init__(self, steps: Steps, play: Play) -> None:
        self._steps = steps
        self._play = play

    async def open(
        self,
        tx: Transaction,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        rules: BaseModel,
        invitee_id: int | None,
        lobby_seconds: int,
        against_computer: bool = False,
    ) -> Outcome:
        """A lobby with the host seated; with `invitee_id` a challenge only that member
        may accept (or decline); `against_computer`: the computer takes the other seat and
        the game starts at once."""
        if invitee_id == host_id:
            raise NotAllowed("You cannot challenge yourself.")
        steps = self._steps
        spec = steps.registry.get(game)
        now = steps.clock()
        await steps.economy.terms(tx, guild_id)
        config = ServerConfig.from_rows(await tq.guild_config(tx, guild_id))
        config.check_open(game, spec.title, channel_id, *spec.engine.stake_range(rules))
        existing = await tq.open_table_in_channel(tx, channel_id, game)
        if existing is not None:
            raise TableAlreadyOpen(existing, spec.title)
        await _check_lobbies_hosted(tx, guild_id, host_id)
        if against_computer:
            await _check_computer_tables(tx, guild_id, host_id)
        row = await self._insert_hosted(
            tx, guild_id, channel_id, spec, rules, host_id, now, invitee_id=invitee_id
        )
        await tq.set_deadline(tx, row.id, now + lobby_seconds, 0, LOBBY_DEADLINE)
        row = await steps.bump(tx, row)
        if against_computer:
            await self._seat_computer(tx, row, spec, rules, [host_id])
            row = await steps.bump(tx, await steps.row(tx, row.id))
            return await self._start(tx, row, host_id)
        return Outcome(await steps.snapshot(tx, row), kind="opened", actor=host_id)

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
        """An event's table: `players` seated in that order and the game started, with
        nobody's click (the event paired them). The first player hosts it on paper; the
        log reads as if each had joined, so the table replays and verifies as any other."""
        steps = self._steps
        spec = steps.registry.get(game)
        host_id = players[0]
        row = await self._insert_hosted(
            tx, guild_id, channel_id, spec, rules, host_id, steps.clock(), event_id=event_id
        )
        row = await steps.bump(tx, row)
        for player in players[1:]:
            await steps.seat(tx, row, spec, rules, player)
            await steps.log(tx, row.id, row.version + 1, player, {"kind": LogKind.JOIN}, [], [])
            row = await steps.bump(tx, row)
        return await self._start(tx, row, host_id)

    async def _insert_hosted(
        self,
        tx: Transaction,
        guild_id: int,
        channel_id: int,
        spec: AnySpec,
        rules: BaseModel,
        host_id: int,
        now: float,
        *,
        invitee_id: int | None = None,
        event_id: int | None = None,
    ) -> tq.TableRow:
        """A new table with its fairness seed committed and its host seated (the log's
        first row): the start of a lobby and of an event's table alike."""
        steps = self._steps
        seed = _new_seed()
        table_id = await tq.insert_table(
            tx,
            guild_id=guild_id,
            channel_id=channel_id,
            game=spec.name,
            host_id=host_id,
            rules_json=rules.model_dump_json(),
            seed_hex=seed.hex(),
            commitment=commitment(seed),
            now=now,
            invitee_id=invitee_id,
            event_id=event_id,
        )
        row = await steps.row(tx, table_id)
        await steps.seat(tx, row, spec, rules, host_id)
        await steps.log(tx, row.id, 1, host_id, {"kind": LogKind.OPEN}, [], [])
        return row

    async def add_computer(self, tx: Transaction, table_id: int, actor: Actor) -> Outcome:
        """The host fills a lobby's seat with the computer (its stake from the house bank,
        where the house may stake it)."""
        steps = self._steps
        row = await steps.row(tx, table_id)
        require_lobby(row)
        if actor.user_id != row.host_id:
            raise NotAllowed("Only the table's host can add the computer.")
        if row.invitee_id is not None:
            raise NotAllowed("A challenge is for the member challenged; open a table instead.")
        spec = steps.registry.get(row.game)
        rules = spec.engine.rules_model.model_validate_json(row.rules_json)
        seated = [seat.user_id for seat in await tq.seats(tx, table_id)]
        _, most = spec.engine.seat_limits(rules)
        if len(seated) >= most:
            raise NotAllowed(
                "This table is full: {title} seats at most {most}.",
                title=Said(spec.title),
                most=most,
            )
        if not any(is_computer(seat) for seat in seated):
            # A second computer at a table already counted adds no table.
            await _check_computer_tables(tx, row.guild_id, row.host_id)
        computer = await self._seat_computer(tx, row, spec, rules, seated)
        row = await steps.bump(tx, await steps.row(tx, table_id))
        return Outcome(await steps.snapshot(tx, row), kind="joined", actor=computer)

    async def remove_computer(self, tx: Transaction, table_id: int, actor: Actor) -> Outcome:
        row = await self._steps.row(tx, table_id)
        require_lobby(row)
        if actor.user_id != row.host_id:
            raise NotAllowed("Only the table's host can remove the computer.")
        computers = [s.user_id for s in await tq.seats(tx, table_id) if is_computer(s.user_id)]
        if not computers:
            raise NotAllowed("No computer sits at this table.")
        return await self.leave(tx, table_id, Actor(computers[-1], False))

    async def _seat_computer(
        self,
        tx: Transaction,
        row: tq.TableRow,
        spec: AnySpec,
        rules: BaseModel,
        seated: list[int],
    ) -> int:
        refusal = computer_refusal(
            self._steps.computers.get(spec.name), spec.title, rules, spec.engine.hold(rules)
        )
        if refusal is not None:
            raise NotAllowed(refusal)
        free = [computer for computer in COMPUTER_IDS if computer not in seated]
        if not free:
            raise NotAllowed("A table seats at most {most} computers.", most=len(COMPUTER_IDS))
        computer = free[0]
        await self._steps.seat(tx, row, spec, rules, computer)
        await self._steps.log(tx, row.id, row.version + 1, computer, {"kind": LogKind.JOIN}, [], [])
        return computer

    async def join(self, tx: Transaction, table_id: int, actor: Actor) -> Outcome:
        user_id, steps = actor.user_id, self._steps
        row = await steps.row(tx, table_id)
        spec = steps.registry.get(row.game)
        if row.status == TableStatus.RUNNING and spec.engine.join_action is not None:
            return await self._play.act_locked(tx, row, user_id, spec.engine.join_action(), None)
        require_lobby(row)
        if row.invitee_id is not None:
            if user_id != row.invitee_id:
                raise NotAllowed(
                    "This challenge is for {member} only.", member=f"<@{row.invitee_id}>"
                )
            # Joining would seat the invitee without starting; Accept seats and starts.
            raise NotAllowed("This is your challenge: use Accept (or Decline).")
        seated = [seat.user_id for seat in await tq.seats(tx, table_id)]
        if user_id in seated:
            raise NotAllowed("You already have a seat at this table.")
        rules = spec.engine.rules_model.model_validate_json(row.rules_json)
        _, most = spec.engine.seat_limits(rules)
        if len(seated) >= most:
            raise NotAllowed(
                "This table is full: {title} seats at most {most}.",
                title=Said(spec.title),
                most=most,
            )
        await steps.seat(tx, row, spec, rules, user_id)
        await steps.log(tx, row.id, row.version + 1, user_id, {"kind": LogKind.JOIN}, [], [])
        row = await steps.bump(tx, row)
        return Outcome(await steps.snapshot(tx, row), kind="joined", actor=user_id)

    async def leave(self, tx: Transaction, table_id: int, actor: Actor) -> Outcome:
        """Leave a lobby (the stake goes back; the next seat hosts; the last one out
        closes it), or a running game that lets players leave."""
        user_id, steps = actor.user_id, self._steps
        row = await steps.row(tx, table_id)
        spec = steps.registry.get(row.game)
        if row.status == TableStatus.RUNNING and spec.engine.leave_action is not None:
            return await self._play.act_locked(tx, row, user_id, spec.engine.leave_action(), None)
        require_lobby(row)
        seats = await tq.seats(tx, table_id)
        seat = next((seat for seat in seats if seat.user_id == user_id), None)
        if seat is None:
            raise NotSeated()
        await steps.settle_seat(tx, row, user_id, seat.wallet_net, 0, memo="left the lobby")
        await tq.remove_seat(tx, table_id, user_id)
        remaining = [s.user_id for s in seats if s.user_id != user_id]
        members = [user for user in remaining if not is_computer(user)]
        await steps.log(tx, row.id, row.version + 1, user_id, {"kind": LogKind.LEAVE}, [], [])
        if not members:
            # Nobody left to play the computer: its stake goes back to the house bank.
            return await self.refunded(tx, row, "cancelled", user_id)
        if row.host_id == user_id:
            # The next member takes over as host rather than the lobby dying with players
            # still in it.
            await tq.set_host(tx, table_id, members[0])
        row = await steps.bump(tx, row)
        return Outcome(await steps.snapshot(tx, row), kind="left", actor=user_id)

    async def accept(self, tx: Transaction, table_id: int, actor: Actor) -> Outcome:
        """The invitee accepts a challenge: takes the seat and the game starts, at once."""
        user_id, steps = actor.user_id, self._steps
        row = await steps.row(tx, table_id)
        require_lobby(row)
        if row.invitee_id is None:
            raise NotAllowed("This table is not a challenge; use Join.")
        if user_id != row.invitee_id:
            raise NotAllowed("This challenge is for {member} only.", member=f"<@{row.invitee_id}>")
        if user_id in {seat.user_id for seat in await tq.seats(tx, table_id)}:
            raise NotAllowed("You already have a seat at this table.")
        spec = steps.registry.get(row.game)
        rules = spec.engine.rules_model.model_validate_json(row.rules_json)
        await steps.seat(tx, row, spec, rules, user_id)
        await steps.log(tx, row.id, row.version + 1, user_id, {"kind": LogKind.JOIN}, [], [])
        row = await steps.bump(tx, row)
        return await self._start(tx, row, row.host_id)

    async def start(self, tx: Transaction, table_id: int, actor: Actor) -> Outcome:
        row = await self._steps.row(tx, table_id)
        return await self._start(tx, row, actor.user_id)

    async def _start(self, tx: Transaction, row: tq.TableRow, user_id: int) -> Outcome:
        require_lobby(row)
        if user_id != row.host_id:
            raise NotAllowed("Only the host who opened this table can start it.")
        steps = self._steps
        spec = steps.registry.get(row.game)
        rules = spec.engine.rules_model.model_validate_json(row.rules_json)
        players = [seat.user_id for seat in await tq.seats(tx, row.id)]
        fewest, most = spec.engine.seat_limits(rules)
        if not fewest <= len(players) <= most:
            if fewest == most:
                raise NotAllowed(
                    "{title} needs exactly {fewest} players; {seated} seated so far.",
                    title=Said(spec.title),
                    fewest=fewest,
                    seated=len(players),
                )
            raise NotAllowed(
                "{title} needs {fewest} to {most} players; {seated} seated so far.",
                title=Said(spec.title),
                fewest=fewest,
                most=most,
                seated=len(players),
            )
        if spec.engine.seats_by_wallet:
            players = await self._by_wallet(tx, row, spec, rules, players)
        dice = RecordingDice(steps.dice_factory(row))
        state = spec.engine.start(with_house_seats(rules, players), players, dice)
        banker = spec.engine.player_banker(state)
        if banker is not None and (
            is_computer(banker) or not await steps.economy.may_stake(tx, row.guild_id, banker, 1)
        ):
            # Whose exclusion or limit it is stays theirs: the refusal names nobody.
            raise NotAllowed(
                "Nobody seated here can bank this table: the banker stakes their own coins "
                "on every bet, and no member at this table may stake now. Wait for another "
                "member to join, or open the table with the house as banker. Nothing was "
                "changed."
            )
        seq = row.version + 1
        await steps.log(
            tx, row.id, seq, user_id, {"kind": LogKind.START, "players": players}, dice.draws, []
        )
        row, _deadline = await self._play.save(tx, row, spec, state, dice, seq)
        snapshot = await steps.snapshot(tx, row)
        steps.sync_scheduler(snapshot)
        return Outcome(snapshot, kind="started", actor=user_id)

    async def _by_wallet(
        self, tx: Transaction, row: tq.TableRow, spec: AnySpec, rules: Any, players: list[int]
    ) -> list[int]:
        """The seat order a game that seats by wallet starts with (a richest-player
        banker). Banking is staking: a member who excluded themself, or whose loss limit
        leaves no room, ranks below every member who may stake, and a computer below them
        all, so it never banks from the house's coins. The richest member who may stake
        banks; the caller refuses the start if the engine still seats someone else at the
        bank (no member may)."""
        economy = self._steps.economy
        balances: dict[int, int] = {}
        may_bank: set[int] = set()
        for player in players:
            if is_computer(player):
                continue
            balances[player] = (await economy.ensure_wallet(tx, row.guild_id, player)).balance
            if await economy.may_stake(tx, row.guild_id, player, 1):
                may_bank.add(player)
        floor = min(balances.values(), default=0)
        barred = floor - 1
        balances.update({player: barred for player in balances if player not in may_bank})
        balances.update({player: barred - 1 for player in players if is_computer(player)})
        return spec.engine.seat_order(rules, players, balances)

    async def cancel(self, tx: Transaction, table_id: int, actor: Actor) -> Outcome:
        """End a table early.

        A lobby: its host, a challenge's invitee (declining) or a moderator may cancel it,
        and every stake goes back. A started table: only a moderator who is not seated
        there may end it — hosting is not moderating, and a host who could cancel would
        cancel whenever losing. The game's engine then settles it (:class:`Abort`): what
        was decided stands, what was still open goes back.
        """
        user_id, steps = actor.user_id, self._steps
        row = await steps.row(tx, table_id)
        if not row.live:
            raise NotAllowed("This table has already ended.")
        if row.status == TableStatus.LOBBY:
            declining = user_id == row.invitee_id
            if user_id != row.host_id and not actor.is_moderator and not declining:
                raise NotAllowed("Only the table's host or a moderator can cancel this lobby.")
            await steps.log(tx, row.id, row.version + 1, user_id, {"kind": LogKind.CANCEL}, [], [])
            return await self.refunded(tx, row, "cancelled", user_id)
        seats = await tq.seats(tx, table_id)
        permit(Permission.MODERATOR_NOT_SEATED, actor, row, seats, END_A_GAME)
        return await self.end_early(tx, row, user_id, seats)

    async def end_early(
        self,
        tx: Transaction,
        row: tq.TableRow,
        actor: int | None,
        seats: list[tq.SeatRow] | None = None,
    ) -> Outcome:
        """Abort a running table through its engine; if the engine cannot, return every
        coin still at stake and let settled results stand. Where the house stakes a
        computer's seat the game may settle otherwise (``GameSpec.house_end``: the Strength
        Duel's pot at the position's value), so an end is never worth asking for."""
        try:
            async with tx.savepoint("abort"):
                ending = self._ending(row)
                outcome = await self._play.act_locked(
                    tx,
                    row,
                    actor,
                    ending,
                    None,
                    seats,
                    final_status=TableStatus.CANCELLED,
                    memo=PLAY_MEMO if isinstance(ending, Abort) else SETTLED_AT_VALUE_MEMO,
                )
            return replace(outcome, kind="cancelled")
        except Exception as error:
            log_failure(
                log, "table %s: its game could not abort; refunding stakes", row.id, error=error
            )
        await self._steps.log(tx, row.id, row.version + 1, actor, {"kind": LogKind.CANCEL}, [], [])
        return await self.refunded(tx, row, "cancelled", actor)

    def _ending(self, row: tq.TableRow) -> BaseModel:
        """The action that ends this running table early: the game's own for a table the
        house stakes a computer's seat at, else :class:`Abort`."""
        spec = self._steps.registry.get(row.game)
        if spec.house_end is None or row.state_json is None:
            return Abort()
        state: Any = spec.engine.state_model.model_validate_json(row.state_json)
        houses = frozenset(seat for seat in state.seats if is_computer(seat))
        settled = spec.house_end(state, houses) if houses else None
        return Abort() if settled is None else settled

    async def withdraw(self, tx: Transaction, table_id: int) -> Outcome:
        """Cancel a lobby whose table message could not be posted: nobody could see or
        join it, so every stake goes back at once."""
        steps = self._steps
        row = await steps.row(tx, table_id)
        if row.status == TableStatus.RUNNING:
            # A game against the computer starts as it opens: end it through its engine.
            return await self.end_early(tx, row, None)
        require_lobby(row)
        await steps.log(tx, row.id, row.version + 1, None, {"kind": LogKind.WITHDRAW}, [], [])
        row = await steps.refund(tx, row)
        return Outcome(await steps.snapshot(tx, row), kind="cancelled")

    async def refunded(
        self, tx: Transaction, row: tq.TableRow, kind: OutcomeKind, actor: int | None
    ) -> Outcome:
        """Cancel the table with every stake back (the log row is the caller's), and
        mirror its end in the scheduler."""
        row = await self._steps.refund(tx, row)
        snapshot = await self._steps.snapshot(tx, row)
        self._steps.sync_scheduler(snapshot)
        return Outcome(snapshot, kind=kind, actor=actor)
