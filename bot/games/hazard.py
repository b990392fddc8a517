"""Hazard: the old English dice game of mains and chances, as a pure engine.

One seated player, the **caster**, holds the dice. Each round the caster calls a *main*
(5 to 9) and throws two dice: the first throw nicks (caster wins), throws out (caster
loses) or sets a *chance*; with a chance set the caster throws on until the chance (win)
or the main (loss) comes up. Everyone else bets with or against the caster; the caster
may stake on themselves; once a chance is set, the odds may be taken at fair odds. All
bets are against the bank (``payouts[HOUSE]``).

The authority is ``shared/rules/hazard.md``. Rulings of ours (also in the player rules,
``bot/rules_text/hazard.md``):

- Betting (caster's stake, with, against) is open from the end of the previous round,
  before the main is called too (harmless: every bet has a bank edge >= 0 whatever the
  main), until the betting window closes or, with no window, until the first throw. A
  further bet of a kind already held tops it up; the total of each bet must lie within
  the table limits. A player may not be with and against the caster in the same round.
- The betting window (``bet_seconds`` > 0 and someone besides the caster seated) opens
  when the main is called. It waits for every other seated player to bet with/against
  *after* the call or to say :class:`Ready` (bets placed before the call do not count: the
  main was not known yet), or for the deadline. While it is open the caster cannot throw;
  once it closes, the caster's stake and with/against bets are closed for the round.
  ``Ready`` means "no more bets from me this round".
- ``against_bar`` (default on): an "against" bet is a push when the round's first throw
  is a 2. ``against_commission`` (percent) is taken from "against" winnings, rounded up
  (in the bank's favour). :class:`Rules` refuses options that leave any bet with a
  negative edge for the bank.
- :class:`Abort` (a moderator's word; the service checks who) ends the table at once:
  settled rounds stand; before the round's first throw every bet goes back in full; with
  a chance set each bet is settled at its exact expected value at that moment (the player
  gets it rounded down, the bank keeps the fraction), so nobody gains by the timing.
- Odds bets are open while a chance is set, to the caster (holding a stake) and to
  players holding a with/against bet; the player's odds bets (both kinds together) may
  total at most ``odds_max_multiple`` times their original stake this round, and each
  odds bet's total is at least ``min_stake``. Fractional winnings round down.
- The caster may pass the dice voluntarily between rounds, after a win or before
  casting a first round; bets already placed for the coming round are returned.
- A player with bets riding cannot leave. A caster may leave between rounds (the main
  call, if any, lapses; others' bets for the round are returned) and the dice pass on,
  but not while a chance is set.
- ``Close`` is allowed between rounds with no bets riding. Who may close is the
  service's check (:data:`PERMISSIONS`: the host or a moderator, seated or not); the
  engine takes it from whoever the log names, or the table itself (``player=None``).
- A round in which the deadline acted for the caster is an *absent* round; after
  ``absent_rounds_to_lose_dice`` absent rounds in a row the dice pass (0 disables this).
  Optionally (``idle_laps_to_close``, off by default) the table closes itself once the
  dice have gone that many times round the table through absence with nobody acting.

Chance comes only from the ``dice`` argument: two ``dice.roll(6)`` per throw, the first
die then the second. ``act`` never mutates its input.

The engine is :data:`ENGINE` (bot/games/contract.py); ``start``, ``act`` and the other
module-level functions of the contract are its bound methods. Actions are dispatched
through a ``kit.Rulebook`` (check, then apply to a shallow copy that replaces containers,
never mutates them; see bot/games/kit.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Annotated, Any, Literal, TypeAlias, TypeVar, Union, get_args

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

from bot.games.common import HOUSE, Abort, Deadline, Join, Joined, Leave, Left, Permission
from bot.games.contract import Engine
from bot.games.dice import Dice
from bot.games.errors import IllegalMove
from bot.games.kit import Move, Rulebook, only_the_table, the_service_decides

__all__ = [
    "ACTIONS",
    "BET_KINDS",
    "ENGINE",
    "LOSSES_TO_PASS",
    "MAINS",
    "NICK_HONOUR",
    "Abort",
    "Aborted",
    "Action",
    "Bet",
    "BetKind",
    "BetPlaced",
    "BetReturned",
    "BetSettled",
    "BetValued",
    "BettingClosed",
    "CallMain",
    "Close",
    "Closed",
    "Deadline",
    "DicePassed",
    "Event",
    "FirstOutcome",
    "HazardEngine",
    "Join",
    "Joined",
    "Leave",
    "Left",
    "MainCalled",
    "MainOdds",
    "PassDice",
    "PassReason",
    "PlayerReady",
    "Ready",
    "RoundEnded",
    "Rules",
    "State",
    "Throw",
    "ThrowOutcome",
    "Thrown",
    "abort_value",
    "act",
    "against_net",
    "bank_exposure",
    "betting_open",
    "can_pass_dice",
    "commission",
    "deadline_seconds",
    "first_throw_outcome",
    "hold",
    "min_against_commission",
    "odds",
    "odds_cap",
    "odds_payout",
    "odds_table",
    "parse_action",
    "parse_event",
    "seat_limits",
    "start",
    "waiting_on",
    "ways",
]

MAINS: tuple[int, ...] = (5, 6, 7, 8, 9)
"""The numbers a caster may call as the main."""

LOSSES_TO_PASS = 3
"""Losses in succession after which the caster must pass the dice."""

BetKind: TypeAlias = Literal["caster", "with", "against", "odds_for", "odds_against"]
BET_KINDS: tuple[BetKind, ...] = ("caster", "with", "against", "odds_for", "odds_against")
_ODDS_KINDS: tuple[BetKind, ...] = ("odds_for", "odds_against")
_OPPOSITE: dict[BetKind, BetKind] = {"with": "against", "against": "with"}

FirstOutcome: TypeAlias = Literal["nick", "out", "chance"]
ThrowOutcome: TypeAlias = Literal["nick", "out", "chance", "win", "lose", "again"]
PassReason: TypeAlias = Literal["three_losses", "absent", "voluntary", "left"]

# The outcome table of shared/rules/hazard.md; every total not listed becomes the chance.
_NICKS: dict[int, frozenset[int]] = {
    5: frozenset({5}),
    6: frozenset({6, 12}),
    7: frozenset({7, 11}),
    8: frozenset({8, 12}),
    9: frozenset({9}),
}
_OUTS: dict[int, frozenset[int]] = {
    5: frozenset({2, 3, 11, 12}),
    6: frozenset({2, 3, 11}),
    7: frozenset({2, 3, 12}),
    8: frozenset({2, 3, 11}),
    9: frozenset({2, 3, 11, 12}),
}

_DEADLINE_MAIN = 7
"""The main the table calls for an absent caster: the caster's best main."""


# --------------------------------------------------------------------------- rules


class Rules(BaseModel):
    """House rules of a Hazard table (defaults as in ``shared/rules/hazard.md``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

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
        for main in MAINS:
            if odds(main, self.against_bar, self.against_commission).edge("against") < 0:
                needed = min_against_commission(self.against_bar)
                raise ValueError(
                    f"an 'against' bet would favour the player with main {main}: keep "
                    f"against_bar on or take a commission of at least {needed}%"
                )
        return self


# ------------------------------------------------------------------------- actions
# Every action (and every event) is told apart by ``kind``. A Bet's ``kind`` is its bet
# kind (ENGINE_CONTRACT.md fixes ``Bet(kind, amount)``), so the action union discriminates
# with a function that reads any bet kind as "bet" (see :func:`_action_tag`).


class CallMain(BaseModel):
    """The caster names the main for this round (5 to 9)."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["call_main"] = "call_main"
    main: int


class Bet(BaseModel):
    """A bet against the bank; ``kind`` is the bet kind (and tells a Bet from the rest)."""

    model_config = ConfigDict(frozen=True)
    kind: BetKind
    amount: int


class Throw(BaseModel):
    """The caster throws the two dice."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["throw"] = "throw"


class PassDice(BaseModel):
    """The caster hands the dice to the next seat (between rounds, after a win)."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["pass_dice"] = "pass_dice"


class Ready(BaseModel):
    """A player other than the caster is done betting: the window need not wait for them."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["ready"] = "ready"


class Close(BaseModel):
    """The table ends (between rounds, with no bets riding)."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["close"] = "close"


Action: TypeAlias = (
    CallMain | Bet | Throw | PassDice | Join | Leave | Close | Deadline | Ready | Abort
)
"""Everything ``act`` accepts (the shared :class:`Deadline` and :class:`Abort` included)."""

ACTIONS: tuple[type[BaseModel], ...] = get_args(Action)
"""The action models, in the order of :data:`Action` (derived from it, never repeated)."""

_BET_TAG = "bet"


def _action_tag(data: Any) -> str | None:
    """Which action a logged dict (or an action model) is, for the action union.

    ``kind`` names the action, except that a bet kind names :class:`Bet`. Tables logged
    before actions carried ``kind`` name Hazard's own actions in ``action`` (``"bet"``
    with the bet kind in ``kind``); those logs must still replay for /verify, so an
    ``action`` is read when ``kind`` is absent. The old key is ignored once the model is
    picked (the models ignore unknown keys).
    """
    if isinstance(data, Mapping):
        tag = data.get("kind", data.get("action"))
    else:
        tag = getattr(data, "kind", None)
    if not isinstance(tag, str):
        return None
    return _BET_TAG if tag in BET_KINDS else tag


def _tag_of(model: type[BaseModel]) -> str:
    if model is Bet:
        return _BET_TAG
    tag = model.model_fields["kind"].default
    assert isinstance(tag, str), model  # every other action has a fixed kind
    return tag


# ``Union[...]`` because the members come from ACTIONS (``X | Y`` needs them written out).
_TAGGED_ACTIONS: Any = Annotated[
    Union[tuple(Annotated[model, Tag(_tag_of(model))] for model in ACTIONS)],  # noqa: UP007
    Discriminator(_action_tag),
]
"""The union that parses a logged action (see :func:`_action_tag`)."""

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


# ------------------------------------------------------------- table conventions
# seat_limits, hold, deadline_seconds and bank_exposure are ENGINE's (see the end).


def waiting_on(state: State) -> list[int]:
    """The players the open betting window still waits for (seat order)."""
    if not state.window_open:
        return []
    done = set(state.ready) | set(state.window_bettors)
    return [p for p in state.seats if p != state.caster and p not in done]


def betting_open(state: State) -> bool:
    """Whether caster's stakes and with/against bets are taken right now."""
    return not state.finished and state.throws == 0 and not state.bets_closed


def abort_value(state: State, kind: BetKind, amount: int) -> Fraction:
    """What a bet of ``amount`` on ``kind`` is worth now, stake included.

    Before the round's first throw a bet is returned in full. With a chance set it is
    worth its exact expectation: the chance of winning the race between chance and main
    times what a win pays back (stake, winnings after rounding and any commission).
    """
    if state.chance is None or state.main is None:
        return Fraction(amount)
    chance_first = Fraction(ways(state.chance), ways(state.chance) + ways(state.main))
    wins_with_caster = kind in ("caster", "with", "odds_for")
    p_win = chance_first if wins_with_caster else 1 - chance_first
    net, _ = _settle_net(
        state.rules, kind, amount, state.main, state.chance, wins_with_caster, False
    )
    return p_win * (amount + net)


# ---------------------------------------------------------------------- the dice


def ways(total: int) -> int:
    """The number of ways two six-sided dice make ``total`` (0 when impossible)."""
    if not 2 <= total <= 12:
        return 0
    return 6 - abs(total - 7)


def first_throw_outcome(main: int, total: int) -> FirstOutcome:
    """What the first throw of a round means for a given main."""
    if main not in MAINS:
        raise ValueError(f"main must be one of {MAINS}, not {main}")
    if total in _NICKS[main]:
        return "nick"
    if total in _OUTS[main]:
        return "out"
    return "chance"


def odds_payout(kind: BetKind, amount: int, main: int, chance: int) -> int:
    """Whole coins a winning bet of ``amount`` wins (the stake comes back besides).

    Even-money bets win their amount. Odds bets are paid at fair odds: on the chance
    ``ways(main):ways(chance)``, against it the inverse, rounded down to whole coins
    (the rounding is the bank's only gain on the odds).
    """
    if kind == "odds_for":
        return amount * ways(main) // ways(chance)
    if kind == "odds_against":
        return amount * ways(chance) // ways(main)
    return amount


def commission(amount: int, percent: int) -> int:
    """The bank's commission on a win of ``amount``: ``percent`` of it, rounded up."""
    return -(-amount * percent // 100)


def against_net(rules: Rules, amount: int) -> int:
    """What a winning "against" bet of ``amount`` wins after the commission."""
    return amount - commission(amount, rules.against_commission)


def _settle_net(
    rules: Rules,
    kind: BetKind,
    amount: int,
    main: int,
    chance: int | None,
    caster_won: bool,
    barred: bool,
) -> tuple[int, int]:
    """(the player's net, the commission kept) for a bet in a decided round.

    ``barred``: the round ended on a first throw of 2.
    """
    if kind == "against" and barred and rules.against_bar:
        return 0, 0
    if not _bet_wins(kind, caster_won):
        return -amount, 0
    if kind == "against":
        kept = commission(amount, rules.against_commission)
        return amount - kept, kept
    # An odds bet always has a chance set; the even-money kinds ignore it.
    return odds_payout(kind, amount, main, chance or main), 0


# -------------------------------------------------------------------------- odds


@dataclass(frozen=True)
class MainOdds:
    """Exact figures for one main, from the outcome table (no simulation)."""

    main: int
    nick: Fraction
    """Probability that the first throw wins."""
    out: Fraction
    """Probability that the first throw loses."""
    chance: Fraction
    """Probability that the first throw sets a chance."""
    caster_wins: Fraction
    """Probability that the caster wins the round."""
    expected_throws: Fraction
    """Expected number of throws in a round."""
    against_bar: bool = True
    """Whether a first throw of 2 pushes "against" bets."""
    against_commission: int = 0
    """Percent the bank keeps of "against" winnings."""

    @property
    def caster_loses(self) -> Fraction:
        """Probability that the caster loses the round."""
        return 1 - self.caster_wins

    @property
    def against_push(self) -> Fraction:
        """Probability that an "against" bet is pushed (a first throw of 2, barred)."""
        return Fraction(ways(2), 36) if self.against_bar else Fraction(0)

    def edge(self, kind: BetKind) -> Fraction:
        """The bank's expected gain per coin bet on ``kind``, before any rounding.

        Every main gives the caster less than an even chance, so an even-money "against"
        bet would favour the player; the bar (or a commission) turns it round. Odds bets
        are fair (0) before fractional wins are rounded down, and rounding down (like
        rounding the commission up) only adds to the bank's edge.
        """
        p = self.caster_wins
        if kind in ("caster", "with"):
            return 1 - 2 * p
        if kind == "against":
            keep = 1 - Fraction(self.against_commission, 100)
            return p - (self.caster_loses - self.against_push) * keep
        return Fraction(0)

    @property
    def edges(self) -> dict[BetKind, Fraction]:
        """The bank's edge on every bet kind."""
        return {kind: self.edge(kind) for kind in BET_KINDS}


@cache
def odds(main: int, against_bar: bool = True, against_commission: int = 0) -> MainOdds:
    """Exact odds of a round with the given main (5 to 9) and "against" options."""
    if main not in MAINS:
        raise ValueError(f"main must be one of {MAINS}, not {main}")
    nick = out = chance = Fraction(0)
    win = Fraction(0)
    throws = Fraction(1)
    for total in range(2, 13):
        p = Fraction(ways(total), 36)
        outcome = first_throw_outcome(main, total)
        if outcome == "nick":
            nick += p
            win += p
        elif outcome == "out":
            out += p
        else:
            chance += p
            decisive = ways(total) + ways(main)
            # Later throws repeat until chance or main: a race won with these odds,
            # lasting a geometric number of throws with success chance decisive/36.
            win += p * Fraction(ways(total), decisive)
            throws += p * Fraction(36, decisive)
    return MainOdds(
        main=main,
        nick=nick,
        out=out,
        chance=chance,
        caster_wins=win,
        expected_throws=throws,
        against_bar=against_bar,
        against_commission=against_commission,
    )


def odds_table(against_bar: bool = True, against_commission: int = 0) -> dict[int, MainOdds]:
    """Exact odds for every main, 5 to 9."""
    return {main: odds(main, against_bar, against_commission) for main in MAINS}


@cache
def min_against_commission(against_bar: bool) -> int:
    """The least whole-percent commission keeping "against" in the bank's favour."""
    for percent in range(101):
        if all(odds(main, against_bar, percent).edge("against") >= 0 for main in MAINS):
            return percent
    raise AssertionError("a 100% commission always favours the bank")


# ----------------------------------------------------------------------- helpers


def can_pass_dice(state: State) -> bool:
    """Whether the caster may pass the dice voluntarily right now."""
    return (
        not state.finished
        and state.throws == 0
        and len(state.seats) > 1
        and (state.caster_rounds == 0 or state.losses_in_a_row == 0)
    )


def _original_stake(state: State, player: int) -> int:
    """The even-money bet an odds bet is capped against (caster's stake, with or against)."""
    held = state.bets.get(player, {})
    if player == state.caster:
        return held.get("caster", 0)
    return held.get("with", 0) + held.get("against", 0)


def odds_cap(state: State, player: int) -> int:
    """The most a player's odds bets may total this round."""
    return state.rules.odds_max_multiple * _original_stake(state, player)


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _next_seat(seats: list[int], player: int) -> int:
    return seats[(seats.index(player) + 1) % len(seats)]


# ---------------------------------------------------------------------- checks
# Each refuses with a reason fit for the player and touches nothing (kit.Rulebook runs
# the check before it copies the state).


def _seated(state: State, player: int | None) -> int:
    """The acting player, who must be seated (the table itself only calls time or closes)."""
    if player is None:
        raise IllegalMove("The table itself can only call time or close.")
    if player not in state.seats:
        raise IllegalMove("You aren't seated at this Hazard table — join it first.")
    return player


def _check_call_main(state: State, player: int, action: CallMain) -> None:
    if player != state.caster:
        raise IllegalMove("Only the caster calls the main.")
    if state.main is not None:
        raise IllegalMove(f"The main is already called for this round: {state.main}.")
    if action.main not in MAINS:
        raise IllegalMove("The main must be a number from 5 to 9.")


def _check_bet(state: State, player: int, bet: Bet) -> None:
    if bet.amount <= 0:
        raise IllegalMove("A bet must be at least 1 coin.")
    if bet.kind in _ODDS_KINDS:
        _check_odds_bet(state, player, bet)
    else:
        _check_even_bet(state, player, bet)


def _check_odds_bet(state: State, player: int, bet: Bet) -> None:
    rules = state.rules
    if not rules.odds_bets:
        raise IllegalMove("Odds bets are switched off at this table.")
    if state.chance is None:
        raise IllegalMove("Odds bets open once the first throw sets a chance.")
    if _original_stake(state, player) == 0:
        raise IllegalMove(
            "Only the caster (with a stake) or a player who bet with or against "
            "the caster this round can take the odds."
        )
    held = state.bets.get(player, {})
    cap = odds_cap(state, player)
    odds_total = sum(held.get(kind, 0) for kind in _ODDS_KINDS) + bet.amount
    if odds_total > cap:
        raise IllegalMove(
            f"Your odds bets can total at most {_coins(cap)} this round "
            f"({rules.odds_max_multiple}× your stake); this would make {odds_total}."
        )
    if held.get(bet.kind, 0) + bet.amount < rules.min_stake:
        raise IllegalMove(f"The table minimum is {_coins(rules.min_stake)} per bet.")


def _check_even_bet(state: State, player: int, bet: Bet) -> None:
    """The caster's stake, with and against: open until the window closes or the throw."""
    rules = state.rules
    if state.throws > 0:
        raise IllegalMove("Bets are closed: the dice have been thrown this round.")
    if state.bets_closed:
        raise IllegalMove("Bets are closed for this round: the betting window has ended.")
    if player in state.ready:
        raise IllegalMove("You said you're ready — no more bets from you this round.")
    if bet.kind == "caster" and player != state.caster:
        raise IllegalMove("Only the caster can stake on their own throw — bet with or against.")
    if bet.kind != "caster" and player == state.caster:
        raise IllegalMove("The caster can't bet with or against themselves — stake instead.")
    held = state.bets.get(player, {})
    other: BetKind | None = _OPPOSITE.get(bet.kind)
    if other is not None and held.get(other, 0) > 0:
        raise IllegalMove(f"You already bet {other} the caster this round; you can't back both.")
    total = held.get(bet.kind, 0) + bet.amount
    if total < rules.min_stake:
        raise IllegalMove(f"The table minimum is {_coins(rules.min_stake)} per bet.")
    if total > rules.max_stake:
        raise IllegalMove(
            f"The table maximum is {_coins(rules.max_stake)} per bet; this would make {total}."
        )


def _check_throw(state: State, player: int, action: Throw) -> None:
    if player != state.caster:
        raise IllegalMove("Only the caster throws the dice.")
    if state.main is None:
        raise IllegalMove("Call a main (5 to 9) before throwing.")
    if state.window_open:
        raise IllegalMove(
            "Bets are still open — you can throw once everyone has bet or is ready, "
            "or when the countdown ends."
        )


def _check_ready(state: State, player: int, action: Ready) -> None:
    if player == state.caster:
        raise IllegalMove("The betting window waits for the other players, not the caster.")
    if not state.window_open:
        raise IllegalMove("No betting window is open right now.")
    if player in state.ready:
        raise IllegalMove("You already said you're ready.")


def _check_pass(state: State, player: int, action: PassDice) -> None:
    if player != state.caster:
        raise IllegalMove("Only the caster can pass the dice.")
    if state.throws > 0:
        raise IllegalMove("You can't pass the dice in the middle of a round.")
    if len(state.seats) < 2:
        raise IllegalMove("There's nobody else at the table to pass the dice to.")
    if not can_pass_dice(state):
        raise IllegalMove(
            "You can pass the dice only after a win (or before your first round); "
            "after a loss you keep casting until a win or three losses in a row."
        )


def _check_join(state: State, player: int | None, action: Join) -> None:
    if player is None:
        raise IllegalMove("The table itself can only call time or close.")
    if player == HOUSE:
        raise IllegalMove("That player id is reserved for the bank.")
    if player in state.seats:
        raise IllegalMove("You're already seated at this table.")
    if len(state.seats) >= state.rules.max_players:
        raise IllegalMove(f"This table is full ({state.rules.max_players} seats).")


def _check_leave(state: State, player: int, action: Leave) -> None:
    if state.stakes.get(player, 0) > 0:
        raise IllegalMove("You have bets riding — wait until they're settled before leaving.")
    if player == state.caster and state.throws > 0:
        raise IllegalMove("You're in the middle of a round — throw until it's decided first.")


def _check_close(state: State, player: int | None, action: Close) -> None:
    # Who may close is not the engine's business: the table itself, or whoever the
    # service let through (the host or a moderator, seated or not: see PERMISSIONS).
    if state.throws > 0:
        raise IllegalMove("A round is in play — the table can close once it's decided.")
    if any(state.stakes.values()):
        raise IllegalMove("Bets are riding — the table can close once they're settled.")


# ------------------------------------------------------------------------ moves
# Each ``_apply_*`` works on the fresh shallow copy kit.Rulebook made after the check
# passed. It replaces the state's containers, never mutates them (they are shared with
# the state ``act`` was given; see bot/games/kit.py): ``s.seats = [*s.seats, p]``.

_A = TypeVar("_A", bound=BaseModel)


def _player_move(
    check: Callable[[State, int, _A], None], apply: Callable[[State, int, _A, Dice], list[Event]]
) -> Move[State, _A, Event]:
    """A move a seated player makes (never the table); any such move ends idleness."""

    def checked(state: State, player: int | None, action: _A) -> None:
        check(state, _seated(state, player), action)

    def applied(s: State, player: int | None, action: _A, dice: Dice) -> list[Event]:
        assert player is not None  # the check refused the table
        events = apply(s, player, action, dice)
        s.idle_passes = 0
        return events

    return Move(checked, applied)


def _apply_call_main(s: State, player: int, action: CallMain, dice: Dice) -> list[Event]:
    s.main = action.main
    s.ply += 1
    _open_window(s)
    return [MainCalled(caster=player, main=action.main)]


def _apply_bet(s: State, player: int, bet: Bet, dice: Dice) -> list[Event]:
    events: list[Event] = [_place_bet(s, player, bet)]
    if s.window_open and bet.kind in _OPPOSITE:
        if player not in s.window_bettors:
            s.window_bettors = [*s.window_bettors, player]
        events.extend(_close_window_if_done(s))
    return events


def _apply_ready(s: State, player: int, action: Ready, dice: Dice) -> list[Event]:
    s.ready = [*s.ready, player]
    events: list[Event] = [PlayerReady(player=player)]
    events.extend(_close_window_if_done(s))
    return events


def _apply_throw(s: State, player: int, action: Throw, dice: Dice) -> list[Event]:
    return _throw(s, dice, by_deadline=False)


def _apply_pass(s: State, player: int, action: PassDice, dice: Dice) -> list[Event]:
    events: list[Event] = [*_return_bets(s)]
    events.append(_pass_dice(s, "voluntary"))
    return events


def _apply_join(s: State, player: int | None, action: Join, dice: Dice) -> list[Event]:
    assert player is not None  # the check refused the table
    s.seats = [*s.seats, player]
    # A player who sat here before keeps their record.
    if player not in s.stakes:
        s.stakes = {**s.stakes, player: 0}
    if player not in s.payouts:
        s.payouts = {**s.payouts, player: 0}
    s.ply += 1
    s.idle_passes = 0
    return [Joined(player=player, seat=len(s.seats) - 1)]


def _apply_leave(s: State, player: int, action: Leave, dice: Dice) -> list[Event]:
    return _leave(s, player)


def _apply_close(s: State, player: int | None, action: Close, dice: Dice) -> list[Event]:
    events = _close(s, player, "closed")
    if player in s.seats:
        s.idle_passes = 0
    return events


def _apply_deadline(s: State, player: int | None, action: Deadline, dice: Dice) -> list[Event]:
    return _deadline(s, dice)


def _apply_abort(s: State, player: int | None, action: Abort, dice: Dice) -> list[Event]:
    return _abort(s, player)


_RULEBOOK: Rulebook[State, Action, Event] = Rulebook(
    {
        CallMain: _player_move(_check_call_main, _apply_call_main),
        Bet: _player_move(_check_bet, _apply_bet),
        Throw: _player_move(_check_throw, _apply_throw),
        PassDice: _player_move(_check_pass, _apply_pass),
        Join: Move(_check_join, _apply_join),
        Leave: _player_move(_check_leave, _apply_leave),
        Close: Move(_check_close, _apply_close),
        Deadline: Move(only_the_table, _apply_deadline),
        Ready: _player_move(_check_ready, _apply_ready),
        Abort: Move(the_service_decides, _apply_abort),
    },
    game="Hazard",
    finished="This Hazard table has closed.",
)


# -------------------------------------------------------------------- mutations
# The steps the moves share; same discipline: replace containers, never mutate them.


def _place_bet(s: State, player: int, bet: Bet) -> BetPlaced:
    held = dict(s.bets.get(player, {}))
    held[bet.kind] = held.get(bet.kind, 0) + bet.amount
    s.bets = {**s.bets, player: held}
    s.stakes = {**s.stakes, player: s.stakes.get(player, 0) + bet.amount}
    return BetPlaced(player=player, bet=bet.kind, amount=bet.amount, total=held[bet.kind])


def _return_bets(s: State) -> list[BetReturned]:
    events: list[BetReturned] = []
    stakes = dict(s.stakes)
    for player, held in s.bets.items():
        for kind in BET_KINDS:
            amount = held.get(kind, 0)
            if amount:
                stakes[player] -= amount
                events.append(BetReturned(player=player, bet=kind, amount=amount))
    s.stakes = stakes
    s.bets = {}
    return events


def _deadline(s: State, dice: Dice) -> list[Event]:
    if s.window_open:
        # The window's time is up; the caster was not waited for, so this is no absence.
        return [_close_window(s, by_deadline=True)]
    s.deadline_acted = True
    events: list[Event] = []
    if s.main is None:
        s.main = _DEADLINE_MAIN
        s.ply += 1
        events.append(MainCalled(caster=s.caster, main=_DEADLINE_MAIN, by_deadline=True))
        if _open_window(s):
            # The others get their window on the table's main too.
            return events
    events.extend(_throw(s, dice, by_deadline=True))
    return events


def _open_window(s: State) -> bool:
    """Open the betting window after a main call, if the table has one; say whether."""
    s.ready = []
    s.window_bettors = []
    s.window_open = s.rules.bet_seconds > 0 and any(p != s.caster for p in s.seats)
    return s.window_open


def _close_window(s: State, *, by_deadline: bool) -> BettingClosed:
    s.window_open = False
    s.bets_closed = True
    s.ply += 1
    return BettingClosed(by_deadline=by_deadline)


def _close_window_if_done(s: State) -> list[Event]:
    if s.window_open and not waiting_on(s):
        return [_close_window(s, by_deadline=False)]
    return []


def _reset_betting(s: State) -> None:
    """A new round (or a new caster): bets open again, no window yet."""
    s.window_open = False
    s.bets_closed = False
    s.ready = []
    s.window_bettors = []


def _throw(s: State, dice: Dice, *, by_deadline: bool) -> list[Event]:
    assert s.main is not None  # guaranteed by the checks / the deadline's call
    first = dice.roll(6)
    second = dice.roll(6)
    total = first + second
    s.throws += 1
    s.ply += 1
    s.last_throw = (first, second)
    first_throw = s.chance is None
    outcome = _throw_outcome(s, total)
    events: list[Event] = [
        Thrown(
            caster=s.caster,
            dice=(first, second),
            total=total,
            outcome=outcome,
            main=s.main,
            chance=s.chance,
            by_deadline=by_deadline,
        )
    ]
    if outcome in ("nick", "win"):
        events.extend(_end_round(s, caster_won=True))
    elif outcome in ("out", "lose"):
        # A round that ends on a first throw of 2 bars "against" bets (see Rules).
        events.extend(_end_round(s, caster_won=False, barred=first_throw and total == 2))
    return events


def _throw_outcome(s: State, total: int) -> ThrowOutcome:
    """What a throw of ``total`` means now; a first throw may set the chance."""
    assert s.main is not None
    if s.chance is None:
        outcome = first_throw_outcome(s.main, total)
        if outcome == "chance":
            s.chance = total
        return outcome
    if total == s.chance:
        return "win"
    if total == s.main:
        return "lose"
    return "again"


def _bet_wins(kind: BetKind, caster_won: bool) -> bool:
    # Odds bets exist only with a chance set, where the caster wins exactly when the
    # chance comes before the main.
    return caster_won if kind in ("caster", "with", "odds_for") else not caster_won


def _end_round(s: State, *, caster_won: bool, barred: bool = False) -> list[Event]:
    """Settle the round, start the next, and pass the dice if that is due.

    ``barred``: the round ended on a first throw of 2."""
    events: list[Event] = [*_settle_bets(s, caster_won=caster_won, barred=barred)]
    events.append(_next_round(s, caster_won=caster_won))
    events.extend(_pass_if_due(s))
    return events


def _settle_bets(s: State, *, caster_won: bool, barred: bool) -> list[BetSettled]:
    """Pay every bet of the decided round against the bank, in seat order."""
    assert s.main is not None
    payouts = dict(s.payouts)
    stakes = dict(s.stakes)
    events: list[BetSettled] = []
    for player in s.seats:
        held = s.bets.get(player, {})
        for kind in BET_KINDS:
            amount = held.get(kind, 0)
            if not amount:
                continue
            net, kept = _settle_net(s.rules, kind, amount, s.main, s.chance, caster_won, barred)
            push = kind == "against" and barred and s.rules.against_bar
            won = _bet_wins(kind, caster_won) and not push
            payouts[player] = payouts.get(player, 0) + net
            payouts[HOUSE] -= net
            stakes[player] -= amount
            events.append(
                BetSettled(
                    player=player,
                    bet=kind,
                    amount=amount,
                    won=won,
                    net=net,
                    push=push,
                    commission=kept,
                )
            )
    s.payouts = payouts
    s.stakes = stakes
    s.bets = {}
    return events


def _next_round(s: State, *, caster_won: bool) -> RoundEnded:
    """Count the round into the caster's streaks and clear the table for the next."""
    _reset_betting(s)
    s.losses_in_a_row = 0 if caster_won else s.losses_in_a_row + 1
    s.caster_rounds += 1
    s.absent_rounds = s.absent_rounds + 1 if s.deadline_acted else 0
    ended = RoundEnded(
        round=s.round, caster=s.caster, won=caster_won, losses_in_a_row=s.losses_in_a_row
    )
    s.round += 1
    s.main = None
    s.chance = None
    s.throws = 0
    s.deadline_acted = False
    return ended


def _pass_if_due(s: State) -> list[Event]:
    """Three losses in a row, or too many absent rounds, pass the dice; enough passes
    through absence close an idle table (when the table asks for that)."""
    reason: PassReason | None = None
    if s.losses_in_a_row >= LOSSES_TO_PASS:
        reason = "three_losses"
    elif 0 < s.rules.absent_rounds_to_lose_dice <= s.absent_rounds:
        reason = "absent"
    if reason is None:
        return []
    events: list[Event] = [_pass_dice(s, reason)]
    if reason == "absent":
        s.idle_passes += 1
        laps = s.rules.idle_laps_to_close
        if laps and s.idle_passes >= laps * len(s.seats):
            events.extend(_close(s, None, "idle"))
    return events


def _new_caster(s: State, caster: int) -> None:
    """Hand the dice to ``caster``: a fresh start, with no main and no streaks."""
    s.caster = caster
    s.main = None
    _reset_betting(s)
    s.losses_in_a_row = 0
    s.caster_rounds = 0
    s.absent_rounds = 0
    # The last caster's absence is theirs: the new caster's first round starts clean.
    s.deadline_acted = False


def _pass_dice(s: State, reason: PassReason) -> DicePassed:
    giver = s.caster
    _new_caster(s, _next_seat(s.seats, giver))
    s.ply += 1
    return DicePassed(from_player=giver, to_player=s.caster, reason=reason)


def _leave(s: State, player: int) -> list[Event]:
    events: list[Event] = []
    was_caster = player == s.caster
    if was_caster:
        # The leaving caster's round never starts: bets placed on it go back.
        events.extend(_return_bets(s))
    index = s.seats.index(player)
    s.seats = [p for p in s.seats if p != player]
    s.ply += 1
    events.append(Left(player=player, net=s.payouts.get(player, 0)))
    s.ready = [p for p in s.ready if p != player]
    s.window_bettors = [p for p in s.window_bettors if p != player]
    if not s.seats:
        events.extend(_close(s, None, "empty"))
    elif was_caster:
        _new_caster(s, s.seats[index % len(s.seats)])
        s.deadline_acted = False
        events.append(DicePassed(from_player=player, to_player=s.caster, reason="left"))
    else:
        # The window may have been waiting only for the player who left.
        events.extend(_close_window_if_done(s))
    return events


def _close(s: State, by: int | None, reason: Literal["closed", "empty", "idle"]) -> list[Event]:
    s.finished = True
    s.main = None
    _reset_betting(s)
    s.ply += 1
    return [Closed(by=by, reason=reason)]


def _abort(s: State, by: int | None) -> list[Event]:
    """End the table now: open bets go back (before the first throw) or are settled at
    their exact value (chance set); what earlier rounds settled stands."""
    events: list[Event] = []
    if s.throws == 0:
        events.extend(_return_bets(s))
    else:
        events.extend(_value_bets(s))
    s.finished = True
    s.main = None
    s.chance = None
    s.throws = 0
    _reset_betting(s)
    s.ply += 1
    events.append(Aborted(by=by))
    return events


def _value_bets(s: State) -> list[BetValued]:
    """Settle every open bet at its exact value now (see :func:`abort_value`)."""
    payouts = dict(s.payouts)
    stakes = dict(s.stakes)
    events: list[BetValued] = []
    for player, held in s.bets.items():
        for kind in BET_KINDS:
            amount = held.get(kind, 0)
            if not amount:
                continue
            # floor: the bank keeps the fraction, so the payout never exceeds the value.
            returned = math.floor(abort_value(s, kind, amount))
            net = returned - amount
            payouts[player] = payouts.get(player, 0) + net
            payouts[HOUSE] -= net
            stakes[player] -= amount
            events.append(
                BetValued(player=player, bet=kind, amount=amount, returned=returned, net=net)
            )
    s.payouts = payouts
    s.stakes = stakes
    s.bets = {}
    return events


# ---------------------------------------------------------------------- the engine


NICK_HONOUR = "Nick on the first throw"


class HazardEngine(Engine[Rules, State, Action, Event]):
    """Hazard as the table service drives it (bot/games/contract.py)."""

    name = "hazard"

    def honours_at_end(
        self, state: State, events: Sequence[Mapping[str, Any]]
    ) -> list[tuple[int, str]]:
        """A nick (the main thrown on the first throw) earns its caster an honour."""
        return [
            (int(event["caster"]), NICK_HONOUR)
            for event in events
            if event.get("kind") == "thrown" and event.get("outcome") == "nick"
        ]

    join_action = Join
    leave_action = Leave
    permissions = PERMISSIONS

    def start(self, rules: Rules, players: list[int], dice: Dice) -> State:
        """Seat the players in the given order; the first seat casts first.

        No dice are used. Raises :class:`IllegalMove` for a bad seating.
        """
        low, high = self.seat_limits(rules)
        if not low <= len(players) <= high:
            raise IllegalMove(f"A Hazard table seats {low} to {high} players.")
        if len(set(players)) != len(players):
            raise IllegalMove("Each player can take only one seat.")
        if HOUSE in players:
            raise IllegalMove("That player id is reserved for the bank.")
        return State(
            rules=rules,
            seats=list(players),
            caster=players[0],
            stakes={p: 0 for p in players},
            payouts={HOUSE: 0} | {p: 0 for p in players},
        )

    def act(
        self, state: State, player: int | None, action: Action, dice: Dice
    ) -> tuple[State, list[Event]]:
        """Apply one action by ``player`` (``None``: the table itself) to a copy of ``state``.

        Returns the new state and the events to show. Raises :class:`IllegalMove`, with a
        reason fit for the player, for anything the rules forbid; ``state`` is never changed.
        """
        return _RULEBOOK.act(state, player, action, dice)

    def seat_limits(self, rules: Rules) -> tuple[int, int]:
        """The fewest and most seats a Hazard table allows."""
        return (1, rules.max_players)

    def hold(self, rules: Rules) -> int:
        """Coins held in escrow on taking a seat: none, since money goes down as bets."""
        return 0

    def stake_range(self, rules: Rules) -> tuple[int, int]:
        """The table's bet limits: a seat holds nothing, every coin goes down as a bet."""
        return (rules.min_stake, rules.max_stake)

    def deadline_seconds(self, state: State) -> int | None:
        """Seconds until the table acts: the betting window's length while it is open, else
        the time the caster has before the table throws for them."""
        if state.finished:
            return None
        return state.rules.bet_seconds if state.window_open else state.rules.throw_seconds

    def bank_exposure(self, state: State) -> int:
        """The most the bank could pay out, net, on the bets now open, over every outcome.

        Before the first throw the outcomes are: the caster wins, loses, or loses with a
        first throw of 2 (which pushes "against" under the bar); with a chance set, the
        caster wins or loses. Never negative (0 when the bank wins whatever happens).
        """
        if not state.bets:
            return 0
        main = state.main or _DEADLINE_MAIN
        scenarios = [(True, False), (False, False)]
        if state.chance is None and state.rules.against_bar:
            scenarios.append((False, True))
        worst = 0
        for caster_won, barred in scenarios:
            paid = 0
            for held in state.bets.values():
                for kind, amount in held.items():
                    paid += _settle_net(
                        state.rules, kind, amount, main, state.chance, caster_won, barred
                    )[0]
            worst = max(worst, paid)
        return worst


ENGINE = HazardEngine(
    rules_model=Rules, state_model=State, action_type=_TAGGED_ACTIONS, event_type=Event
)
"""Hazard's engine; the module-level functions below are its bound methods."""

start = ENGINE.start
act = ENGINE.act
seat_limits = ENGINE.seat_limits
hold = ENGINE.hold
deadline_seconds = ENGINE.deadline_seconds
bank_exposure = ENGINE.bank_exposure
parse_action = ENGINE.parse_action
"""An action back from its logged JSON (``kind``; older logs' ``action`` too)."""
parse_event = ENGINE.parse_event
