"""Money reconciliation as a pure function: from where a table's money stands to the coin
moves that bring it where the engine says it should be.

The engine says what each player has at risk (``stakes``) and has won or lost so far
(``payouts``, the house under :data:`~bot.games.common.HOUSE`, summing to 0). Each
player's wallet change at the table must become ``payouts[p] - stakes[p]``, the house's
``payouts[HOUSE]``, and the table's escrow then holds ``sum(stakes)``. :func:`reconcile`
says which moves do that; the service carries them out, one ledger row each.

The escrow can never go below zero (the database refuses it), so every move into escrow
comes before any move out of it: the escrow only rises, then only falls, to a final
``sum(stakes) >= 0``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.games.common import HOUSE


class ReconcileError(ValueError):
    """The engine's money does not add up; nothing may move (an engine bug)."""


@dataclass(frozen=True, slots=True)
class CoinMove:
    """One movement between the table's escrow and a wallet or the bank."""

    player: int | None
    """Whose wallet moves; ``None``: the house (the bank)."""
    current: int
    """The mover's net at the table before the move."""
    target: int
    """The mover's net at the table after it."""

    @property
    def into_escrow(self) -> int:
        """Coins the move puts into escrow (negative: takes out of it)."""
        return self.current - self.target


@dataclass(frozen=True, slots=True)
class Settlement:
    moves: tuple[CoinMove, ...]
    """Every move into escrow before any move out of it."""
    house_net: int
    """The house's net at the table once the moves are made."""
    new_seats: tuple[int, ...]
    """Players the engine names who hold no seat row yet (joined mid-game)."""


def reconcile(
    seat_nets: Mapping[int, int],
    house_net: int,
    stakes: Mapping[int, int],
    payouts: Mapping[int, int],
) -> Settlement:
    """The coin moves that take the table from `seat_nets` (each seated player's wallet
    change so far) and `house_net` to what `stakes` and `payouts` say."""
    check_engine_money(stakes, payouts)
    players = sorted((set(seat_nets) | set(stakes) | set(payouts)) - {HOUSE})
    moves = [
        CoinMove(player, seat_nets.get(player, 0), payouts.get(player, 0) - stakes.get(player, 0))
        for player in players
    ]
    house_target = payouts.get(HOUSE, 0)
    moves.append(CoinMove(None, house_net, house_target))
    # Largest inflow first; the sort is stable, so ties keep players in id order and the
    # house last, which keeps the ledger's order the same from one run to the next.
    ordered = sorted((move for move in moves if move.into_escrow), key=lambda m: -m.into_escrow)
    new_seats = tuple(player for player in players if player not in seat_nets)
    return Settlement(tuple(ordered), house_target, new_seats)


def check_engine_money(stakes: Mapping[int, int], payouts: Mapping[int, int]) -> None:
    """Refuse money that breaks the engines' contract (bot/games/common.py): it could
    only strand coins in escrow or take escrow below zero."""
    if HOUSE in stakes:
        raise ReconcileError(f"the house cannot have a stake: {dict(stakes)}")
    negative = {player: stake for player, stake in stakes.items() if stake < 0}
    if negative:
        raise ReconcileError(f"stakes cannot be negative: {negative}")
    if sum(payouts.values()) != 0:
        raise ReconcileError(f"payouts must sum to 0 with the house: {dict(payouts)}")
