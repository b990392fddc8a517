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

The parts, each depending only on those above it:

- :mod:`.terms` — :class:`Actor`, :func:`~.terms.permit` (who may do what),
  :class:`LogKind`, the dice, :data:`saved_writes`;
- :mod:`.money` — reconciliation as a pure function: nets in, ordered coin moves out;
- :mod:`.snapshots` — :class:`TableSnapshot`, :class:`Outcome`, reading a snapshot;
- :mod:`.steps` — what every part does inside a transaction (log, bump, move coins the
  way :mod:`.money` says, refund, mirror the deadline);
- :mod:`.acting` — an action through the engine, the shortfall retry, the cover checks;
- :mod:`.lifecycle` — open, join, leave, accept, start, cancel, withdraw;
- :mod:`.deadlines` — re-arming at start, a due deadline, abandonment, the retry;
- :mod:`.verify` — :class:`VerifyReport` and the replay (pure);
- :mod:`.facade` — :class:`TableService`: the public methods, the per-table locks and
  the unit of work (one lock, one transaction) around every change.

Composition, not mixins: each part is an object given the few collaborators it uses
(``Play(steps)``, ``Lifecycle(steps, play)``...), and the facade builds them once. With
mixins every part would be a slice of one class reaching its siblings' methods through
``self``: mypy --strict cannot check such a call without a protocol or stub base per
mixin, the order of the bases would matter, and "which part needs which" would be
written nowhere. Here it is in each constructor, and the arrows only point one way. The
cost is a line of delegation per public method in the facade. No part opens a
transaction or takes a lock of its own (only the facade does), so a lifecycle step that
turns into play (a Hazard join mid-game, a moderator's end) runs in the caller's
transaction with no re-entrant locking.
"""

from __future__ import annotations

from bot.fairness import new_seed
from bot.service.facade import TableService
from bot.service.lifecycle import MAX_OPEN_LOBBIES, parse_rules
from bot.service.money import CoinMove, ReconcileError, Settlement, reconcile
from bot.service.snapshots import RECENT_LOG_ROWS, Outcome, OutcomeKind, TableSnapshot
from bot.service.terms import (
    GAME_DEADLINE,
    LOBBY_DEADLINE,
    Actor,
    DiceFactory,
    LogKind,
    TableAlreadyOpen,
    fair_dice,
    saved_writes,
)
from bot.service.verify import VerifyReport
from bot.storage.table_queries import TableStatus

__all__ = [
    "GAME_DEADLINE",
    "LOBBY_DEADLINE",
    "MAX_OPEN_LOBBIES",
    "RECENT_LOG_ROWS",
    "Actor",
    "CoinMove",
    "DiceFactory",
    "LogKind",
    "Outcome",
    "OutcomeKind",
    "ReconcileError",
    "Settlement",
    "TableAlreadyOpen",
    "TableService",
    "TableSnapshot",
    "TableStatus",
    "VerifyReport",
    "fair_dice",
    "new_seed",
    "parse_rules",
    "reconcile",
    "saved_writes",
]
