"""Refusals shown to the member who caused them, always ephemerally, always saying why."""

from __future__ import annotations

from bot.games.errors import IllegalMove, UserFacingError
from bot.i18n import _

__all__ = [
    "IllegalMove",
    "InsufficientFunds",
    "LossLimitReached",
    "NotAllowed",
    "NotSeated",
    "SelfExcluded",
    "StaleAction",
    "TableNotFound",
    "UserFacingError",
    "explain",
]


class InsufficientFunds(UserFacingError):
    def __init__(
        self, needed: int, balance: int, currency: str, *, user_id: int | None = None
    ) -> None:
        super().__init__(
            f"That needs {needed:,} {currency} but your wallet holds {balance:,} {currency}."
        )
        self.needed = needed
        self.balance = balance
        self.currency = currency
        self.user_id = user_id
        """Whose wallet fell short, so the table can tell a player's own refusal from a
        reveal that someone else's click or a deadline triggered."""


class NotSeated(UserFacingError):
    def __init__(self) -> None:
        super().__init__("You are not seated at this table, so its buttons are not yours to press.")


class StaleAction(UserFacingError):
    def __init__(self) -> None:
        super().__init__("That moment has passed: the table has moved on since those buttons.")


class TableNotFound(UserFacingError):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"There is no table #{table_id} on this server.")


class NotAllowed(UserFacingError):
    """The member may not do this (not the host, not a moderator, wrong phase...)."""


class SelfExcluded(UserFacingError):
    """The member barred themself from staking on this server (``/selfexclude``)."""

    def __init__(self, until: float) -> None:
        moment = int(until)
        super().__init__(
            f"You excluded yourself from staking here until <t:{moment}:f> (<t:{moment}:R>): "
            "no table, bet, challenge or gift until then. A member with Manage Server can "
            "lift it earlier if you ask them."
        )
        self.until = until


class LossLimitReached(UserFacingError):
    """A stake that would take the member's losses today past their daily loss limit."""

    def __init__(
        self,
        limit: int,
        lost: int,
        stake: int,
        resets_at: float,
        currency: str,
        *,
        what: str = "stake",
    ) -> None:
        moment = int(resets_at)
        super().__init__(
            f"That {what} of {stake:,} {currency} would take your losses today to "
            f"{lost + stake:,} {currency}, past this server's daily loss limit of "
            f"{limit:,} {currency}. It starts again at <t:{moment}:t> (<t:{moment}:R>)."
        )
        self.limit = limit
        self.lost = lost
        self.stake = stake


def explain(error: UserFacingError) -> str:
    """A refusal in the locale in effect (``bot.i18n.use_locale``)."""
    return _(error.template, **error.params)
