"""The service's vocabulary: who acts at a table and what they may do there, the table's
own steps in the action log, the dice a table rolls, and the count of committed writes."""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from enum import StrEnum

from bot.errors import NotAllowed, NotSeated, UserFacingError
from bot.fairness import FairDice
from bot.games.common import Permission
from bot.games.dice import Dice
from bot.i18n import N_, Said
from bot.storage import table_queries as tq
from bot.storage.table_queries import TableStatus

DiceFactory = Callable[[tq.TableRow], Dice]
"""Makes the dice for one action at a table (production: the table's fair dice)."""

DECIDED_WITH = "decided_with"
"""In a computer's logged action: how many of its row's draws the decision took."""

LOBBY_DEADLINE = "lobby"
GAME_DEADLINE = "game"

saved_writes: ContextVar[int] = ContextVar("tanzaku_saved_writes", default=0)
"""How many table transactions committed in the current task. An interaction handler
reads it when something fails, to tell "nothing was changed" from "saved, but showing it
failed"."""


def count_saved_write() -> None:
    saved_writes.set(saved_writes.get() + 1)


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
            else Said(N_("this channel"))
        )
        super().__init__(
            "This channel already has an open {title} table (#{table_id}): {where}. "
            "Join that one, or wait for it to finish.",
            title=Said(title),
            table_id=str(existing.id),
            where=where,
        )
        self.existing = existing


END_A_GAME = Said(N_("end it"))
"""What :meth:`cancel` asks permission for (its refusal explains more)."""
DO_THAT = Said(N_("do that"))
"""What a game's action asks permission for."""


def permit(
    permission: Permission,
    actor: Actor,
    row: tq.TableRow,
    seats: list[tq.SeatRow],
    what: Said,
) -> None:
    """The one place a table decides who may do what. Hosting is not moderating: a host
    runs the lobby; only a moderator may end or sanction, and not at a table where they
    play. Callers hold the table's lock, so the seats it reads are the seats that count."""
    seated = actor.user_id in {seat.user_id for seat in seats}
    if permission is Permission.TABLE:
        raise NotAllowed("That is the table's own step: no member can take it.")
    if permission is Permission.SEATED:
        if not seated:
            raise NotSeated()
    elif permission is Permission.HOST_OR_MODERATOR:
        if actor.user_id != row.host_id and not actor.is_moderator:
            raise NotAllowed("Only the table's host or a moderator can {what}.", what=what)
    elif not actor.is_moderator:
        if row.status == TableStatus.RUNNING and what == END_A_GAME:
            raise NotAllowed(
                "This game has started: only a moderator (Manage Server) can {what} now."
                " Play it out, or ask a moderator.",
                what=what,
            )
        raise NotAllowed(
            "Only a moderator (Manage Server) who is not playing at this table can {what}.",
            what=what,
        )
    elif seated:
        raise NotAllowed(
            "You have a seat at this table, so it is not yours to {what}: another moderator can.",
            what=what,
        )
