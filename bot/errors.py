"""Refusals shown to the member who caused them, always ephemerally, always saying why."""

from __future__ import annotations

from bot.games.errors import IllegalMove, UserFacingError
from bot.i18n import N_, _

__all__ = [
    "GiftLimited",
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
            "That needs {needed} {currency} but your wallet holds {balance} {currency}.",
            needed=needed,
            balance=balance,
            currency=currency,
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
        # The id as text: a table number is a name, never grouped like an amount.
        super().__init__("There is no table #{table_id} on this server.", table_id=str(table_id))


class NotAllowed(UserFacingError):
    """The member may not do this (not the host, not a moderator, wrong phase...)."""


class SelfExcluded(UserFacingError):
    """The member barred themself from staking on this server (``/selfexclude``)."""

    def __init__(self, until: float) -> None:
        moment = str(int(until))
        super().__init__(
            "You excluded yourself from staking here until <t:{moment}:f> (<t:{moment}:R>): "
            "no table, bet, challenge or gift until then. A member with Manage Server can "
            "lift it earlier if you ask them.",
            moment=moment,
        )
        self.until = until


LOSS_LIMIT_TEMPLATES = {
    # One whole sentence per kind of stake: the word for it changes the sentence around it
    # in other languages.
    "stake": N_(
        "That stake of {stake} {currency} would take your losses today to "
        "{total} {currency}, past this server's daily loss limit of "
        "{limit} {currency}. It starts again at <t:{moment}:t> (<t:{moment}:R>)."
    ),
    "gift": N_(
        "That gift of {stake} {currency} would take your losses today to "
        "{total} {currency}, past this server's daily loss limit of "
        "{limit} {currency}. It starts again at <t:{moment}:t> (<t:{moment}:R>)."
    ),
}


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
        super().__init__(
            LOSS_LIMIT_TEMPLATES.get(what, LOSS_LIMIT_TEMPLATES["stake"]),
            stake=stake,
            total=lost + stake,
            limit=limit,
            currency=currency,
            moment=str(int(resets_at)),
        )
        self.limit = limit
        self.lost = lost
        self.stake = stake


GIFT_TEMPLATES = {
    # One whole sentence per case (a held gift, a full receiver, both): translated whole.
    "held": N_(
        "You can give at most {most} {currency} now: {held} {currency} of your wallet came "
        "free (welcome coins and /daily), and this server lets free coins be given away only "
        "after a while; all of yours from <t:{until}:f> (<t:{until}:R>)."
    ),
    "capped": N_(
        "You can give {member} at most {most} {currency} now: they can receive only {left} "
        "{currency} more in gifts today, this server's cap being {cap} {currency} a day. It "
        "starts again at <t:{moment}:t> (<t:{moment}:R>)."
    ),
    "both": N_(
        "You can give {member} at most {most} {currency} now: {held} {currency} of your "
        "wallet came free (welcome coins and /daily), and this server lets free coins be "
        "given away only after a while (all of yours from <t:{until}:f>); and {member} can "
        "receive {left} {currency} more in gifts today, this server's cap being {cap} "
        "{currency} a day (it starts again <t:{moment}:R>)."
    ),
}


class GiftLimited(UserFacingError):
    """A gift of free coins the server still holds (welcome coins and /daily can be given
    only after a while: spare accounts cannot funnel them), or past what the receiver may
    still receive in gifts today. Says how much can be given now, and why."""

    def __init__(
        self,
        *,
        most: int,
        member: str,
        currency: str,
        held: int,
        until: float | None,
        left: int | None,
        cap: int,
        resets_at: float,
    ) -> None:
        case = "capped" if not held else "held" if left is None else "both"
        super().__init__(
            GIFT_TEMPLATES[case],
            most=most,
            member=member,
            currency=currency,
            held=held,
            until=str(int(until or 0)),
            left=left or 0,
            cap=cap,
            moment=str(int(resets_at)),
        )
        self.most = most


def explain(error: UserFacingError) -> str:
    """A refusal in the locale in effect (``bot.i18n.use_locale``); its :class:`Said`
    words are translated with it."""
    return _(error.template, **error.params)
