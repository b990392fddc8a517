"""Hazard's rules, actions, events and state (the models; the engine is in ``engine``)."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, TypeAlias, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.games.common import Abort, Deadline, Frozen, Join, Joined, Leave, Left, Permission
from bot.games.hazard.analysis import (
    BET_KINDS,
    MAINS,
    BetKind,
    min_against_commission,
    odds,
)
from bot.games.kit import bet_kind_union

LOSSES_TO_PASS = 3
"""Losses in succession after which the caster must pass the dice."""
ThrowOutcome: TypeAlias = Literal["nick", "out", "chance", "win", "lose", "again"]
PassReason: TypeAlias = Literal["three_losses", "absent", "voluntary", "left"]


# --------------------------------------------------------------------------- rules


class Rules(Frozen):
    """House rules of a Hazard table (defaults as in ``shared/rules/hazard.md``)."""

    model_config = ConfigDict(extra="forbid")

    odds_bets: bool = True
    odds_max_multiple: int = Field(default=1, ge=0)
    min_stake: int = Field(default=1, ge=1)
    max_stake: int = Field(default=1000, ge=1)
    throw_seconds: int = Field(default=60, ge=1)
    absent_rounds_to_lose_dice: int = Field(default=2, ge=0)
    max_players: int = Field(default=10, ge=1)
    idle_laps_to_close: int = Field(default=0, ge=0)
    against_bar: bool = True
    """A first throw of 2 pushes "against" bets (craps bars the 12 on its don't bets)."""
    against_commission: int = Field(default=0, ge=0, le=100)
    """Percent of "against" winnings the bank keeps, rounded up to whole coins."""
    bet_seconds: int = Field(default=20, ge=0, le=3600)
    """The betting window after the main is called; 0: no window."""

    @model_validator(mode="after")
    def _limits_are_ordered(self) -> Rules:
        if self.max_stake < self.min_stake:
            raise ValueError("max_stake must be at least min_stake")
        return self

    @model_validator(mode="after")
    def _bank_never_bets_at_a_loss(self) -> Rules:
        # Caster/with edges are fixed and positive, odds bets are fair before rounding
        # down: only "against" depends on the options.
        main = _against_loses_with(self.against_bar, self.against_commission)
        if main is not None:
            needed = min_against_commission(self.against_bar)
            raise ValueError(
                f"an 'against' bet would favour the player with main {main}: keep "
                f"against_bar on or take a commission of at least {needed}%"
            )
        return self


@cache
def _against_loses_with(against_bar: bool, against_commission: int) -> int | None:
    """The first main at which the bank would lose on "against" bets under these options,
    if any. Exact fractions for every main: worked out once per pair of options, not each
    time a table's state is read (every click)."""
    for main in MAINS:
        if odds(main, against_bar, against_commission).edge("against") < 0:
            return main
    return None


# ------------------------------------------------------------------------- actions
# Every action (and every event) is told apart by ``kind``. A Bet's ``kind`` is its bet
# kind (ENGINE_CONTRACT.md fixes ``Bet(kind, amount)``), so the action union reads any bet
# kind as "bet" (see :func:`bot.games.kit.bet_kind_union`).


class CallMain(Frozen):
    """The caster names the main for this round (5 to 9)."""

    kind: Literal["call_main"] = "call_main"
    main: int


class Bet(Frozen):
    """A bet against the bank; ``kind`` is the bet kind (and tells a Bet from the rest)."""

    kind: BetKind
    amount: int


class Throw(Frozen):
    """The caster throws the two dice."""

    kind: Literal["throw"] = "throw"


class PassDice(Frozen):
    """The caster hands the dice to the next seat (between rounds, after a win)."""

    kind: Literal["pass_dice"] = "pass_dice"


class Ready(Frozen):
    """A player other than the caster is done betting: the window need not wait for them."""

    kind: Literal["ready"] = "ready"


class Close(Frozen):
    """The table ends (between rounds, with no bets riding)."""

    kind: Literal["close"] = "close"


Action: TypeAlias = (
    CallMain | Bet | Throw | PassDice | Join | Leave | Close | Deadline | Ready | Abort
)
"""Everything ``act`` accepts (the shared :class:`Deadline` and :class:`Abort` included)."""

ACTIONS: tuple[type[BaseModel], ...] = get_args(Action)
"""The action models, in the order of :data:`Action` (derived from it, never repeated)."""

TAGGED_ACTIONS: Any = bet_kind_union(ACTIONS, bet=Bet, bet_kinds=BET_KINDS, legacy_key="action")
"""The union that parses a logged action: ``kind``, a bet kind naming :class:`Bet`. Tables
logged before actions carried ``kind`` name Hazard's own actions in ``action`` (``"bet"``
with the bet kind in ``kind``); those logs must still replay for /verify."""

PERMISSIONS: dict[type[BaseModel], Permission] = {Close: Permission.HOST_OR_MODERATOR}
"""Closing between rounds is the host's or a moderator's; the engine checks the moment."""


# -------------------------------------------------------------------------- events


class MainCalled(BaseModel):
    """The caster (or the table, for an absent caster) called the main."""

    kind: Literal["main_called"] = "main_called"
    caster: int
    main: int
    by_deadline: bool = False


class BetPlaced(BaseModel):
    """A bet went down; ``total`` is the player's whole bet of that kind this round."""

    kind: Literal["bet_placed"] = "bet_placed"
    player: int
    bet: BetKind
    amount: int
    total: int


class Thrown(BaseModel):
    """The dice were thrown. ``chance`` is the chance after this throw."""

    kind: Literal["thrown"] = "thrown"
    caster: int
    dice: tuple[int, int]
    total: int
    outcome: ThrowOutcome
    main: int
    chance: int | None
    by_deadline: bool = False


class BetSettled(BaseModel):
    """A bet was settled against the bank; ``net`` is the player's gain (negative: loss).

    ``push``: an "against" bet barred by a first throw of 2 (net 0). ``commission``: the
    coins the bank kept from a winning "against" bet."""

    kind: Literal["bet_settled"] = "bet_settled"
    player: int
    bet: BetKind
    amount: int
    won: bool
    net: int
    push: bool = False
    commission: int = 0


class BetValued(BaseModel):
    """An undecided bet settled at its exact value when the table was aborted.

    ``returned`` is the value rounded down (the bank keeps the fraction); ``net`` is
    ``returned - amount``."""

    kind: Literal["bet_valued"] = "bet_valued"
    player: int
    bet: BetKind
    amount: int
    returned: int
    net: int


class PlayerReady(BaseModel):
    """A player is done betting for this round."""

    kind: Literal["player_ready"] = "player_ready"
    player: int


class BettingClosed(BaseModel):
    """The betting window closed: everyone was ready, or its time ran out."""

    kind: Literal["betting_closed"] = "betting_closed"
    by_deadline: bool = False


class BetReturned(BaseModel):
    """A bet was handed back unplayed (its round never started)."""

    kind: Literal["bet_returned"] = "bet_returned"
    player: int
    bet: BetKind
    amount: int


class RoundEnded(BaseModel):
    """A round was decided; ``losses_in_a_row`` is the caster's streak after it."""

    kind: Literal["round_ended"] = "round_ended"
    round: int
    caster: int
    won: bool
    losses_in_a_row: int


class DicePassed(BaseModel):
    """The dice moved to another caster (``to_player`` may equal ``from_player`` alone)."""

    kind: Literal["dice_passed"] = "dice_passed"
    from_player: int
    to_player: int
    reason: PassReason


class Closed(BaseModel):
    """The table finished. ``by`` is who closed it (``None``: the table itself)."""

    kind: Literal["closed"] = "closed"
    by: int | None
    reason: Literal["closed", "empty", "idle"]


class Aborted(BaseModel):
    """A moderator ended the table; ``by`` is who the log names (``None``: the table)."""

    kind: Literal["aborted"] = "aborted"
    by: int | None


Event = Annotated[
    MainCalled
    | BetPlaced
    | Thrown
    | BetSettled
    | BetReturned
    | BetValued
    | PlayerReady
    | BettingClosed
    | RoundEnded
    | DicePassed
    | Joined
    | Left
    | Closed
    | Aborted,
    Field(discriminator="kind"),
]
"""Every event ``act`` emits. All are public: Hazard has no secrets."""


# --------------------------------------------------------------------------- state


class State(BaseModel):
    """The whole table. Round-trips through JSON exactly.

    ``bets[p][kind]`` is what ``p`` has riding on each bet kind this round (players with
    nothing riding have no entry); ``stakes[p]`` is the sum of those, kept for every
    player who ever sat (0 when nothing rides). ``payouts`` holds each player's net
    result so far and the bank's under ``HOUSE`` (0); it always sums to 0.
    """

    rules: Rules
    seats: list[int]
    caster: int
    main: int | None = None
    chance: int | None = None
    losses_in_a_row: int = 0
    round: int = 1
    throws: int = 0
    """Throws made this round; betting closes at the first."""
    last_throw: tuple[int, int] | None = None
    bets: dict[int, dict[BetKind, int]] = Field(default_factory=dict)
    stakes: dict[int, int]
    payouts: dict[int, int]
    ply: int = 0
    finished: bool = False
    caster_rounds: int = 0
    """Rounds the current caster has cast since receiving the dice."""
    absent_rounds: int = 0
    """Rounds in a row in which the deadline acted for the current caster."""
    deadline_acted: bool = False
    """Whether the deadline has acted for the caster in the current round."""
    idle_passes: int = 0
    """Dice passes through absence since any player last acted."""
    window_open: bool = False
    """The betting window after the main call is open: the caster cannot throw."""
    bets_closed: bool = False
    """The window has closed this round: no more caster/with/against bets."""
    ready: list[int] = Field(default_factory=list)
    """Players who said :class:`Ready` this round (no more bets from them)."""
    window_bettors: list[int] = Field(default_factory=list)
    """Players who bet with/against since the main was called."""
