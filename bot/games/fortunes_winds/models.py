"""Fortunes and Winds: the rules options, actions, events and state (pydantic models)."""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.games.common import Abort, Deadline, Frozen, Permission

# Shared with Hazard, re-exported here.
from bot.games.common import Join as Join
from bot.games.common import Joined as Joined
from bot.games.common import Leave as Leave
from bot.games.common import Left as Left
from bot.games.fortunes_winds.odds import (
    BET_KINDS,
    BetKind,
    DieName,
    Result,
    WhiteDie,
)
from bot.games.kit import bet_kind_union

# --------------------------------------------------------------------------- rules


class Rules(Frozen):
    """House rules of a Fortunes and Winds table (defaults as in the rules file)."""

    model_config = ConfigDict(extra="forbid")

    player_banker: bool = False
    """The richest seated player banks from their own wallet instead of the house (they
    take the first seat at the start: see ``FortunesWindsEngine.seat_order``)."""
    allow_bet_against: bool = True
    """Bets against the shooter are taken (many houses refuse them)."""
    house_guard: bool = True
    """Refuse bets that give the players together an edge over the bank (the house or a
    player banker)."""
    min_stake: int = Field(default=1, ge=1)
    max_stake: int = Field(default=100, ge=1)
    bet_seconds: int = Field(default=30, ge=0, le=3600)
    """The betting window after the shooter's bet, closed early once every other seated
    member has bet or said :class:`Ready`; 0: no window, bets are open until the first
    roll."""
    roll_seconds: int = Field(default=60, ge=5, le=3600)
    """How long the shooter has to roll (and to choose after a win)."""
    max_players: int = Field(default=8, ge=2, le=25)
    house_seats: list[int] = Field(default_factory=list)
    """Seated players whose stakes are the house's own coins (the computer seats; the table
    service sets them when the table starts): the guard counts only the other seats'
    bets, and judges a house seat's turn under its own keeping (:func:`best_keep`)."""

    @model_validator(mode="after")
    def _limits_are_ordered(self) -> Rules:
        if self.max_stake < self.min_stake:
            raise ValueError("max_stake must be at least min_stake")
        return self

    @property
    def guarded(self) -> bool:
        """Whether the guard applies: it protects a player banker as it protects the house
        (the rules file, turn 3)."""
        return self.house_guard


# ------------------------------------------------------------------------- actions
# Every action (and event) is told apart by ``kind``; a Bet's ``kind`` is its bet kind
# (ENGINE_CONTRACT.md fixes ``Bet(kind, amount)``), read as "bet" by the discriminator.


class Bet(Frozen):
    """A bet against the bank; ``kind`` is the bet kind (and tells a Bet from the rest)."""

    kind: BetKind
    amount: int


class Roll(Frozen):
    """The shooter rolls every die not set aside."""

    kind: Literal["roll"] = "roll"


class SetAside(Frozen):
    """The shooter sets white dice aside (never rolled again this turn)."""

    kind: Literal["set_aside"] = "set_aside"
    dice: list[WhiteDie]


class Ready(Frozen):
    """A seated member other than the shooter is done betting: the betting window need not
    wait for them (no more bets from them this turn)."""

    kind: Literal["ready"] = "ready"


class NewTurn(Frozen):
    """A winning shooter starts a new turn."""

    kind: Literal["new_turn"] = "new_turn"


class PassDice(Frozen):
    """The shooter hands the dice to the next seat (between turns)."""

    kind: Literal["pass_dice"] = "pass_dice"


Action: TypeAlias = (
    Bet | Roll | SetAside | NewTurn | PassDice | Ready | Join | Leave | Deadline | Abort
)
"""Everything ``act`` accepts (the shared :class:`Deadline` and :class:`Abort` included)."""

ACTIONS: tuple[type[BaseModel], ...] = get_args(Action)
"""The action models, in the order of :data:`Action`."""

TAGGED_ACTIONS: Any = bet_kind_union(ACTIONS, bet=Bet, bet_kinds=BET_KINDS)
"""The union that parses a logged action: ``kind``, a bet kind naming :class:`Bet`."""

PERMISSIONS: dict[type[BaseModel], Permission] = {}
"""Every action is a seated player's (Abort is a moderator's, in the registry)."""


# -------------------------------------------------------------------------- events

PassReason: TypeAlias = Literal["lost", "voluntary", "absent", "left"]
Phase: TypeAlias = Literal["betting", "rolling", "won"]


class BetPlaced(BaseModel):
    """A bet went down; ``total`` is the player's whole bet of that kind this turn and
    ``lord_moon`` the Lord Moon stake now beside it (shooter's bet and rides)."""

    kind: Literal["bet_placed"] = "bet_placed"
    player: int
    bet: BetKind
    amount: int
    total: int
    lord_moon: int = 0


class PlayerReady(BaseModel):
    """A member said :class:`Ready`: no more bets from them this turn."""

    kind: Literal["player_ready"] = "player_ready"
    player: int


class BettingClosed(BaseModel):
    """No more bets this turn: the first roll, or the betting window's end (everyone
    waited for bet or said Ready; ``by_deadline``: its time ran out)."""

    kind: Literal["betting_closed"] = "betting_closed"
    by_deadline: bool = False


class DiceSetAside(BaseModel):
    """White dice were set aside; ``set_aside`` is every die aside this turn."""

    kind: Literal["dice_set_aside"] = "dice_set_aside"
    shooter: int
    dice: list[WhiteDie]
    set_aside: list[WhiteDie]
    by_deadline: bool = False


class Rolled(BaseModel):
    """The shooter rolled. ``faces`` shows all five dice, ``rolled`` the dice that were
    thrown; ``result`` is ``None`` while the turn goes on."""

    kind: Literal["rolled"] = "rolled"
    shooter: int
    roll: int
    faces: dict[DieName, str]
    rolled: list[DieName]
    set_aside: list[WhiteDie]
    result: Result | None
    by_deadline: bool = False


class BetSettled(BaseModel):
    """A bet was settled; ``net`` is the player's gain (negative: loss), Lord Moon
    included. ``push``: a Hungry Moon bet on Fortunes and Winds at roll 1 or 2."""

    kind: Literal["bet_settled"] = "bet_settled"
    player: int
    bet: BetKind
    amount: int
    won: bool
    net: int
    push: bool = False


class BetReturned(BaseModel):
    """A bet was handed back unplayed (its turn never started)."""

    kind: Literal["bet_returned"] = "bet_returned"
    player: int
    bet: BetKind
    amount: int


class BetValued(BaseModel):
    """An open bet settled at its exact value when the table was aborted mid-turn;
    ``returned`` is that value rounded down (the bank keeps the fraction)."""

    kind: Literal["bet_valued"] = "bet_valued"
    player: int
    bet: BetKind
    amount: int
    returned: int
    net: int


class TurnEnded(BaseModel):
    """A turn was decided: ``result`` on roll ``rolls``; ``won`` for a combination."""

    kind: Literal["turn_ended"] = "turn_ended"
    turn: int
    shooter: int
    rolls: int
    result: Result
    won: bool
    combination: str | None = None


class NewTurnStarted(BaseModel):
    """A winning shooter goes again: betting is open for the new turn."""

    kind: Literal["new_turn_started"] = "new_turn_started"
    shooter: int
    by_deadline: bool = False


class DicePassed(BaseModel):
    """The dice moved to the next shooter."""

    kind: Literal["dice_passed"] = "dice_passed"
    from_player: int
    to_player: int
    reason: PassReason


class Closed(BaseModel):
    """The table finished by itself: everyone gone (``empty``), the banker left
    (``banker_left``), or, with a player banker still seated, nobody left who may shoot
    against them (``no_shooter``); open bets went back first."""

    kind: Literal["closed"] = "closed"
    reason: Literal["empty", "banker_left", "no_shooter"]


class Aborted(BaseModel):
    """A moderator ended the table; ``by`` is who the log names."""

    kind: Literal["aborted"] = "aborted"
    by: int | None


Event = Annotated[
    BetPlaced
    | PlayerReady
    | BettingClosed
    | DiceSetAside
    | Rolled
    | BetSettled
    | BetReturned
    | BetValued
    | TurnEnded
    | NewTurnStarted
    | DicePassed
    | Joined
    | Left
    | Closed
    | Aborted,
    Field(discriminator="kind"),
]
"""Every event ``act`` emits. All are public: the game has no secrets."""


# --------------------------------------------------------------------------- state


class State(BaseModel):
    """The whole table. Round-trips through JSON exactly.

    ``bets[p][kind]`` is what ``p`` has on each bet kind this turn (the Lord Moon stake
    beside a shooter's bet or ride is the same amount again, not listed). ``stakes[p]`` is
    the coins ``p`` has at risk: their bets with Lord Moon stakes, and for a player banker
    the most the open bets could cost them. ``payouts`` holds each player's net result so
    far and the house's under ``HOUSE``; it always sums to 0.
    """

    rules: Rules
    seats: list[int]
    banker: int | None = None
    """The seated player who banks (``player_banker``), else ``None`` (the house)."""
    shooter: int
    phase: Phase = "betting"
    roll_number: int = 0
    """The roll of the turn in play (1..3); 0 between turns."""
    faces: dict[str, str] = Field(default_factory=dict)
    """The dice as they lie: die name → face name (empty before any roll)."""
    set_aside: list[str] = Field(default_factory=list)
    """White dice set aside this turn, in the order they were set aside."""
    bets: dict[int, dict[BetKind, int]] = Field(default_factory=dict)
    bets_closed: bool = False
    """The betting window has closed before the first roll."""
    window_open: bool = False
    """The betting window after the shooter's bet is open: the shooter cannot roll."""
    ready: list[int] = Field(default_factory=list)
    """Members who said :class:`Ready` this turn (no more bets from them)."""
    turn: int = 1
    stakes: dict[int, int]
    payouts: dict[int, int]
    ply: int = 0
    finished: bool = False
    idle_turns: int = 0
    """Turns in a row in which the deadline acted for the current shooter."""
    deadline_acted: bool = False
    """Whether the deadline has acted for the shooter in the turn in play."""
    last_result: Result | None = None
    """How the last decided turn ended."""
