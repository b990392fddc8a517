"""Playing: one action through the engine, saved with its coins and the next deadline.

A reveal that finds a wallet short is retried after the engine changes that player's
choice (``shortfall``); what the money could not honour later is refused now (a secret
choice the chooser's wallet cannot pay at the reveal, a bet the bank could not pay out).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from pydantic import BaseModel

from bot.errors import InsufficientFunds, NotAllowed, StaleAction
from bot.fairness import Draw, FairDice, RecordingDice
from bot.games.common import Abort, Deadline, Permission, is_computer
from bot.games.registry import AnySpec
from bot.service.rating import rate_table
from bot.service.snapshots import UNREAD, Outcome, Unread
from bot.service.steps import PLAY_MEMO, Steps
from bot.service.terms import DECIDED_WITH, DO_THAT, GAME_DEADLINE, Actor, permit
from bot.storage import Transaction
from bot.storage import money as mq
from bot.storage import table_queries as tq
from bot.storage.table_queries import TableStatus


def counts_as_won(named: Sequence[int], player: int, net: int) -> bool:
    """Whether a finished game counts as won for ``player`` in /stats: the game names them
    among its winners (``Engine.winners``: one, or shared, as in a match on points whose
    lead rounds to no coin), or they came out ahead in coins."""
    return player in named or net > 0


def permission_of(spec: AnySpec, action: BaseModel) -> Permission:
    """Who may send ``action`` at a table of this game."""
    if isinstance(action, Abort):
        # Ending a started game is a moderator's word in every game, whatever the engine
        # declares (the service's cancel sends it; a player never may).
        return Permission.MODERATOR_NOT_SEATED
    if isinstance(action, Deadline):
        return Permission.TABLE
    return spec.engine.permissions.get(type(action), Permission.SEATED)


def stake_increase(spec: AnySpec, before: Any, after: Any, player: int) -> int:
    """How many more of the player's coins their own action put at stake: more in the pot,
    and more to pay at a reveal (a secret bet)."""
    more = int(after.stakes.get(player, 0)) - int(before.stakes.get(player, 0))
    return (
        more
        + spec.engine.pending_charge(after, player)
        - spec.engine.pending_charge(before, player)
    )


def retake(dice: RecordingDice, draws: Sequence[Draw]) -> None:
    """Take again from the table's dice the draws a decision made outside the transaction
    took from the same position, so the log holds them in order. Fair dice must give the
    same outcomes (the table has not moved: the ply was checked); other dice (a test's
    script) were consumed by the decision itself and are only recorded."""
    inner = dice.inner
    for draw in draws:
        if not isinstance(inner, FairDice):
            dice.draws.append(draw)
            continue
        again = (
            Draw(draw.sides, order=inner.shuffle_order(draw.sides))
            if draw.order is not None
            else Draw(draw.sides, value=inner.roll(draw.sides))
        )
        if again != draw:
            raise StaleAction()
        dice.draws.append(again)


class CannotCover(Exception):
    """A settled loss cannot be put back into escrow from the player's wallet
    (``Engine.top_up``): their balance, self-exclusion or loss limit refuses it. The
    engine's ``shortfall`` settles them from what is held, whoever acted."""

    def __init__(self, user_id: int) -> None:
        super().__init__(f"player {user_id} cannot cover the next round")
        self.user_id = user_id


class Play:
    def __init__(self, steps: Steps) -> None:
        self._steps = steps

    async def act(
        self,
        tx: Transaction,
        table_id: int,
        actor: Actor,
        action: BaseModel,
        expected_ply: int | None,
    ) -> Outcome:
        """A member's action: the game's :class:`Permission` for it, then the engine."""
        row = await self._steps.row(tx, table_id)
        seats = await tq.seats(tx, table_id)
        spec = self._steps.registry.get(row.game)
        permit(permission_of(spec, action), actor, row, seats, DO_THAT)
        return await self.act_locked(tx, row, actor.user_id, action, expected_ply, seats)

    async def act_locked(
        self,
        tx: Transaction,
        row: tq.TableRow,
        user_id: int | None,
        action: BaseModel,
        expected_ply: int | None,
        seats: list[tq.SeatRow] | None = None,
        *,
        final_status: str = TableStatus.FINISHED,
        decided_with: Sequence[Draw] = (),
        memo: str = PLAY_MEMO,
    ) -> Outcome:
        """Apply an action at a running table whose lock the caller holds (who may send
        it was checked already: `user_id` is only what the log names). `decided_with`:
        the draws a computer's decision took from the table's dice, taken again here so
        they are logged (and checked by /verify) before the action's own. `memo`: what
        the ledger says of the seats' coin movements (an early end's settlement)."""
        if row.status == TableStatus.LOBBY:
            raise NotAllowed("The game has not started yet.")
        if row.status != TableStatus.RUNNING:
            raise NotAllowed("This table has already ended.")
        spec = self._steps.registry.get(row.game)
        assert row.state_json is not None
        state: Any = spec.engine.state_model.model_validate_json(row.state_json)
        if expected_ply is not None and int(state.ply) != expected_ply:
            raise StaleAction()
        if not spec.engine.charges_at_reveal:
            # Spares every action the savepoint the retry needs: its reveals never charge.
            return await self._apply(
                tx, row, spec, state, user_id, action, seats, final_status, decided_with, memo
            )
        return await self._apply_covering_shortfalls(
            tx, row, spec, state, user_id, action, seats, final_status, decided_with, memo
        )

    async def _apply_covering_shortfalls(
        self,
        tx: Transaction,
        row: tq.TableRow,
        spec: AnySpec,
        state: Any,
        user_id: int | None,
        action: BaseModel,
        seats: list[tq.SeatRow] | None,
        final_status: str,
        decided_with: Sequence[Draw],
        memo: str,
    ) -> Outcome:
        # A reveal may take coins from a player whose wallet has since run short (a secret
        # choice that costs more at the reveal). The engine turns that player's choice into
        # one they can pay, the table logs it, and the reveal is tried again.
        table_events: list[BaseModel] = []
        for _ in range(len(state.seats) + 1):
            try:
                async with tx.savepoint("reveal"):
                    outcome = await self._apply(
                        tx,
                        row,
                        spec,
                        state,
                        user_id,
                        action,
                        seats,
                        final_status,
                        decided_with,
                        memo,
                    )
            except (InsufficientFunds, CannotCover) as short:
                fix = None
                own = isinstance(short, InsufficientFunds) and short.user_id == user_id
                if short.user_id is not None and not own:
                    fix = spec.engine.shortfall(state, short.user_id)
                if fix is None:
                    if isinstance(short, CannotCover):
                        raise NotAllowed("A wallet at this table cannot cover that now.") from short
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
        spec: AnySpec,
        state: Any,
        user_id: int | None,
        action: BaseModel,
        seats: list[tq.SeatRow] | None,
        final_status: str,
        decided_with: Sequence[Draw] = (),
        memo: str = PLAY_MEMO,
    ) -> Outcome:
        dice = RecordingDice(self._steps.dice_factory(row))
        retake(dice, decided_with)
        new_state, events = spec.engine.act(state, user_id, action, dice)
        await self._check_stakes(tx, row, spec, state, new_state, user_id)
        await self._check_top_ups(tx, row, spec, state, new_state)
        seq = row.version + 1
        logged = action.model_dump(mode="json")
        if decided_with:
            # How many of the row's draws the computer's decision took before the action
            # (a replay takes them again before replaying the action).
            logged[DECIDED_WITH] = len(decided_with)
        await self._steps.log(tx, row.id, seq, user_id, logged, dice.draws, events)
        new_row, deadline = await self.save(
            tx, row, spec, new_state, dice, seq, seats, final_status, before=state, memo=memo
        )
        await self._check_charge(tx, row, spec, new_state, user_id)
        await self._check_bank(tx, row, spec, state, new_state)
        snapshot = await self._steps.snapshot_after(tx, new_row, spec, new_state, events, deadline)
        self._steps.sync_scheduler(snapshot)
        return Outcome(snapshot, events, kind="acted", actor=user_id)

    async def save(
        self,
        tx: Transaction,
        row: tq.TableRow,
        spec: AnySpec,
        state: Any,
        dice: RecordingDice,
        seq: int,
        seats: list[tq.SeatRow] | None = None,
        final_status: str = TableStatus.FINISHED,
        *,
        before: Any = None,
        memo: str = PLAY_MEMO,
    ) -> tuple[tq.TableRow, tq.DeadlineRow | Unread | None]:
        """Save the engine's new state: coins reconciled, the row, then the deadline (or,
        once finished, the stats). Returns the row and the deadline it left (`UNREAD`:
        the one stored before, untouched). `before`: the state the row held, when the
        caller has it parsed already (else its ply is read from the row)."""
        house_net = await self._steps.reconcile(
            tx, row, state.stakes, state.payouts, seats, memo=memo
        )
        inner = dice.inner
        counter = inner.word_index if isinstance(inner, FairDice) else row.dice_counter
        status = final_status if state.finished else TableStatus.RUNNING
        new_row = await tq.update_table(
            tx,
            row,
            status=status,
            state_json=state.model_dump_json(),
            dice_counter=counter,
            house_net=house_net,
            now=self._steps.clock(),
        )
        if new_row is None:
            raise StaleAction()
        if new_row.escrow != sum(state.stakes.values()):
            raise RuntimeError(
                f"table {row.id}: escrow {new_row.escrow} != stakes {sum(state.stakes.values())}"
            )
        if not state.finished:
            return new_row, await self._next_deadline(tx, row, spec, state, before)
        await tq.clear_deadline(tx, row.id)
        if status == TableStatus.FINISHED:
            # An aborted game was not played out: it counts in nobody's stats.
            await self._record_stats(tx, new_row, spec, state)
        return new_row, None

    async def _next_deadline(
        self, tx: Transaction, row: tq.TableRow, spec: AnySpec, state: Any, before: Any = None
    ) -> tq.DeadlineRow | Unread | None:
        """Re-arm the deadline when the decision point moved on (or the game just began);
        a choice made inside the same decision point keeps the clock running."""
        old_ply = None
        if before is not None:
            # Not the row's JSON parsed again: a Hachi-hachi state is kilobytes.
            old_ply = before.ply
        elif row.state_json is not None:
            old_ply = json.loads(row.state_json).get("ply")
        seconds = spec.engine.deadline_seconds(state)
        if seconds is None:
            await tq.clear_deadline(tx, row.id)
            return None
        if old_ply != state.ply or row.status != TableStatus.RUNNING:
            due_at = self._steps.clock() + seconds
            await tq.set_deadline(tx, row.id, due_at, state.ply, GAME_DEADLINE)
            return tq.DeadlineRow(row.id, due_at, state.ply, GAME_DEADLINE)
        return UNREAD

    async def _record_stats(
        self, tx: Transaction, row: tq.TableRow, spec: AnySpec, state: Any
    ) -> None:
        now = self._steps.clock()
        bumps: list[tuple[int, str, int]] = []
        named = spec.engine.winners(state)
        for seat in await tq.seats(tx, row.id):
            if is_computer(seat.user_id):
                continue  # the house bank's coins: in nobody's stats
            net = seat.wallet_net
            won = counts_as_won(named, seat.user_id, net)
            bumps += [(seat.user_id, "played", 1), (seat.user_id, "net", net)]
            if won:
                bumps.append((seat.user_id, "won", 1))
            await tq.record_result(tx, row.guild_id, seat.user_id, row.id, spec.name, net, won, now)
        events: list[dict[str, Any]] = []
        log = await tq.action_log(tx, row.id)
        for log_row in log:
            events.extend(json.loads(log_row.events_json))
        await rate_table(tx, row, spec, state, log, events, now)
        honours = [(int(e["player"]), str(e["name"])) for e in events if e.get("kind") == "honour"]
        honours.extend(spec.engine.honours_at_end(state, events))
        bumps += [(player, name, 1) for player, name in honours if not is_computer(player)]
        # One order for every table (member, then stat): two tables ending at once with
        # the same players must not lock their stats rows in opposite orders (PostgreSQL
        # would end one of them as a deadlock).
        for user_id, stat, delta in sorted(bumps, key=lambda bump: (bump[0], bump[1])):
            await tq.bump_stat(tx, row.guild_id, user_id, spec.name, stat, delta)

    # -- what the money could not honour later -------------------------------------------

    async def _check_stakes(
        self,
        tx: Transaction,
        row: tq.TableRow,
        spec: AnySpec,
        before: Any,
        after: Any,
        user_id: int | None,
    ) -> None:
        """Every coin of a member's that an action puts at stake is a stake of theirs,
        whoever acts: the actor's own bet or raise, and another member's stake the action
        raises (a player banker's cover growing with a bet on their bank). The actor is
        told why their own is refused; another's exclusion or loss limit is theirs, so a
        bet they cannot take is refused without saying why."""
        economy = self._steps.economy
        if user_id is not None and not is_computer(user_id):
            staked = stake_increase(spec, before, after, user_id)
            if staked > 0:
                await economy.check_stake(tx, row.guild_id, user_id, staked)
        for player in after.stakes:
            if player == user_id or is_computer(player):
                continue
            staked = stake_increase(spec, before, after, player)
            if staked > 0 and not await economy.may_stake(tx, row.guild_id, player, staked):
                raise NotAllowed(
                    "The banker {banker} cannot cover that bet now. Bet less, or wait "
                    "for the bets on the table to settle. Nothing was changed.",
                    banker=f"<@{player}>",
                )

    async def _check_top_ups(
        self, tx: Transaction, row: tq.TableRow, spec: AnySpec, before: Any, after: Any
    ) -> None:
        """A settled loss put back into escrow to cover what comes next (``top_up``) is a
        stake of the loser's, whoever acted: their wallet, self-exclusion and loss limit
        must allow it (a computer's coins are the house's, which may run a deficit)."""
        economy = self._steps.economy
        for player in after.stakes:
            if is_computer(player):
                continue
            amount = spec.engine.top_up(before, after, player)
            if amount <= 0:
                continue
            wallet = await mq.wallet(tx, row.guild_id, player)
            balance = wallet.balance if wallet is not None else 0
            if balance < amount or not await economy.may_stake(tx, row.guild_id, player, amount):
                raise CannotCover(player)

    async def _check_charge(
        self, tx: Transaction, row: tq.TableRow, spec: AnySpec, after: Any, user_id: int | None
    ) -> None:
        """Refuse a secret choice the chooser's wallet cannot pay at the reveal."""
        if user_id is None or spec.engine.pending_charge is None or is_computer(user_id):
            return
        charge = spec.engine.pending_charge(after, user_id)
        if charge <= 0:
            return
        wallet = await mq.wallet(tx, row.guild_id, user_id)
        balance = wallet.balance if wallet is not None else 0
        if balance < charge:
            terms = await self._steps.economy.terms(tx, row.guild_id)
            raise InsufficientFunds(charge, balance, terms.currency_name, user_id=user_id)

    async def _check_bank(
        self, tx: Transaction, row: tq.TableRow, spec: AnySpec, before: Any, after: Any
    ) -> None:
        """Refuse a bet that lifts what the bank could have to pay above what it holds."""
        if spec.engine.bank_exposure is None:
            return
        exposure = spec.engine.bank_exposure(after)
        if exposure <= spec.engine.bank_exposure(before):
            return
        settings = await self._steps.economy.ensure_guild(tx, row.guild_id)
        if settings.house_balance < exposure:
            currency = settings.currency_name
            raise NotAllowed(
                "The bank holds {house} {currency} and could not "
                "pay out the {exposure} {currency} this table could then win from "
                "it. Bet less, or ask a moderator to fund the bank.",
                house=settings.house_balance,
                exposure=exposure,
                currency=currency,
            )
