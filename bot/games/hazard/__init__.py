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

The package: ``analysis`` (the dice, the outcome table, the pays, the exact odds),
``models`` (rules, actions, events, state), ``engine`` (checks, moves, :data:`ENGINE`).
Everything public is re-exported here.
"""

from __future__ import annotations

from bot.games.common import (
    Abort,
    Deadline,
    Join,
    Joined,
    Leave,
    Left,
)
from bot.games.hazard.analysis import (
    BET_KINDS,
    MAINS,
    BetKind,
    FirstOutcome,
    MainOdds,
    commission,
    first_throw_outcome,
    min_against_commission,
    odds,
    odds_payout,
    odds_table,
    ways,
)
from bot.games.hazard.engine import (
    ENGINE,
    NICK_HONOUR,
    RULEBOOK,
    HazardEngine,
    abort_value,
    act,
    against_net,
    bank_exposure,
    betting_open,
    can_pass_dice,
    deadline_seconds,
    hold,
    odds_cap,
    parse_action,
    parse_event,
    seat_limits,
    start,
    waiting_on,
)
from bot.games.hazard.models import (
    ACTIONS,
    LOSSES_TO_PASS,
    PERMISSIONS,
    Aborted,
    Action,
    Bet,
    BetPlaced,
    BetReturned,
    BetSettled,
    BettingClosed,
    BetValued,
    CallMain,
    Close,
    Closed,
    DicePassed,
    Event,
    MainCalled,
    PassDice,
    PassReason,
    PlayerReady,
    Ready,
    RoundEnded,
    Rules,
    State,
    Throw,
    Thrown,
    ThrowOutcome,
)

__all__ = [
    "ACTIONS",
    "BET_KINDS",
    "ENGINE",
    "LOSSES_TO_PASS",
    "MAINS",
    "NICK_HONOUR",
    "PERMISSIONS",
    "RULEBOOK",
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
