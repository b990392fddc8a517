"""The computer seats: the table service plays them when their turn or round comes.

After any change to a running table with a computer seat, :meth:`ComputerSeats.kick`
starts (or re-runs) one task for that table. The task reads the table, asks each computer
seat's player (the game's ``Computer``, handed to the service) what it does now, and
sends the first decision through the table service like any action, with the ply it was
decided at: a decision the table moved past is dropped and decided again. Nothing is a
fake click: the action is logged under the computer's seat, its coins are the house
bank's, and the draws the decision took from the table's dice are logged before the
action's own, so /verify covers them.

The decision is computed outside the table's transaction (the card game's search, which
takes up to a few hundred milliseconds, in a worker thread), from dice at the table's current
position; the transaction takes the same draws again and applies the action only if the
table has not moved (see :func:`bot.service.acting.retake`). A restart kicks every running
table with a computer seat (:meth:`TableService.rearm`), so a turn a crash interrupted is
taken again; if none can be, the game's own deadline acts for the computer as for anyone.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from pydantic import BaseModel

from bot.errors import StaleAction, UserFacingError
from bot.fairness import Draw, RecordingDice
from bot.games.common import is_computer
from bot.games.errors import IllegalMove
from bot.meter import NO_METER, Meter
from bot.players import AnyComputer
from bot.service.snapshots import Outcome, OutcomeListener, TableSnapshot, tell_listeners
from bot.service.terms import DiceFactory
from bot.storage.table_queries import TableStatus

log = logging.getLogger(__name__)

MOVES_PER_KICK = 500
"""A bound on the actions one kick takes, so a strategy that never stops (a bug) cannot
hold a task forever; a longer stretch of computer turns continues on the next kick."""

ReadTable = Callable[[int], Awaitable[TableSnapshot[Any, Any]]]
ComputerAct = Callable[[int, int, BaseModel, int, Sequence[Draw]], Awaitable[Outcome]]
EndUnattended = Callable[[int], Awaitable[Outcome | None]]


def with_house_seats(rules: BaseModel, players: Sequence[int]) -> BaseModel:
    """The rules a table starts with: a game whose rules take ``house_seats`` (Fortunes and
    Winds) learns which seats are computers, whose stakes are the house's own coins. The
    start and its replay (/verify) both pass through here, so they agree."""
    if "house_seats" not in type(rules).model_fields:
        return rules
    return rules.model_copy(
        update={"house_seats": [player for player in players if is_computer(player)]}
    )


def wants_computer(snapshot: TableSnapshot[Any, Any]) -> bool:
    """A running game with a computer seat."""
    return (
        snapshot.row.status == TableStatus.RUNNING
        and snapshot.state is not None
        and not snapshot.state.finished
        and any(is_computer(seat) for seat in snapshot.seats)
    )


def landing_wait(thinking: float, took: float) -> float:
    """How long a decision that took ``took`` seconds waits before its move lands: to
    ``thinking`` seconds after the decision began, or, had it taken longer (a machine
    slowed by other work), to the next whole multiple of ``thinking``. Either way the
    move lands at a moment that is a multiple of ``thinking``, never at one the decision's
    own length picks."""
    beats = max(1, math.ceil(took / thinking))
    return beats * thinking - took


class ComputerSeats:
    def __init__(
        self,
        *,
        read: ReadTable,
        act: ComputerAct,
        end_unattended: EndUnattended,
        dice_factory: Callable[[], DiceFactory],
        listeners: list[OutcomeListener],
        computers: dict[str, AnyComputer],
        meter: Meter = NO_METER,
    ) -> None:
        self._read = read
        self._meter = meter
        self.players = computers
        """Each game's computer player, by game name: the table service's own mapping
        (tests swap one for a variant)."""
        self._act = act
        self._end_unattended = end_unattended
        self._dice_factory = dice_factory
        self._listeners = listeners
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self.pause: Callable[[float], Awaitable[None]] = asyncio.sleep
        """How the computer waits out the rest of its thinking time (tests record it)."""
        self.clock: Callable[[], float] = time.monotonic
        """What times a decision (tests give it a virtual clock)."""

    def kick(self, snapshot: TableSnapshot[Any, Any]) -> None:
        """The table changed: let its computers act, if any has something to do."""
        if not wants_computer(snapshot):
            return
        table_id = snapshot.id
        running = self._tasks.get(table_id)
        if running is not None and not running.done():
            self._again.add(table_id)  # it looks once more before it stops
            return
        task = asyncio.get_running_loop().create_task(
            self._play(table_id), name=f"tanzaku-computer-{table_id}"
        )
        self._tasks[table_id] = task
        task.add_done_callback(lambda _task: self._tasks.pop(table_id, None))

    async def idle(self) -> None:
        """Wait until no computer is thinking or acting (for a clean stop and tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def _play(self, table_id: int) -> None:
        try:
            for _ in range(MOVES_PER_KICK):
                if not await self._one_move(table_id):
                    if table_id not in self._again:
                        return
                    self._again.discard(table_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            # The game's deadline still acts for the computer; nothing is left half done
            # (each move is one transaction).
            log.exception("table %s: a computer move failed", table_id)

    async def _one_move(self, table_id: int) -> bool:
        """Take the first computer decision the table now asks for; False when none."""
        snapshot = await self._read(table_id)
        if not wants_computer(snapshot):
            return False
        state = snapshot.state
        assert state is not None  # a running game has one
        if not any(not is_computer(seat) for seat in snapshot.seats):
            # Only computers are left: nobody to play for; end the table as a moderator's
            # end would (what was settled stands, the rest goes back).
            outcome = await self._end_unattended(table_id)
            if outcome is not None:
                await self._tell(outcome)
            return False
        computer = self.players.get(snapshot.spec.name)
        if computer is None:
            return False
        for seat in snapshot.seats:
            if not is_computer(seat):
                continue
            dice = RecordingDice(self._dice_factory()(snapshot.row))
            started = self.clock()
            if computer.searches:
                action = await asyncio.to_thread(computer.decide, state, seat, dice)
            else:
                action = computer.decide(state, seat, dice)
            if action is None:
                continue
            took = self.clock() - started
            thinking = computer.thinking_seconds
            if thinking > 0:
                # When the move lands must not depend on how long the hidden hand made
                # the decision take (see ``Computer``). Nothing is logged of it.
                await self.pause(landing_wait(thinking, took))
            try:
                outcome = await self._act(table_id, seat, action, int(state.ply), dice.draws)
            except StaleAction:
                return True  # the table moved on while it thought: decide again
            except (IllegalMove, UserFacingError) as refused:
                # A strategy's bug, not the table's: leave the seat to the deadline. The
                # refusal's words are not logged: they may name a secret choice.
                log.warning(
                    "table %s: the computer's %s was refused (%s)",
                    table_id,
                    type(action).__name__,
                    type(refused).__name__,
                )
                return False
            # Only now that the move has landed: how long it took to decide must not move
            # anything an operator sees before the move does.
            self._meter.computer_decided(snapshot.spec.name, took)
            await self._tell(outcome)
            return True
        return False

    async def _tell(self, outcome: Outcome) -> None:
        await tell_listeners(self._listeners, outcome)
