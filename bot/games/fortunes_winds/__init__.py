"""Fortunes and Winds: Rokugan's five-dice banker game, as a pure engine.

One seated player, the **shooter**, bets B (and B more "for Lord Moon") and rolls four
white dice and the black Moon die up to three times, setting white dice aside between
rolls, to make one of six combinations. Everyone else (but a player banker) may ride the
shooter or make side bets. Every bet is against the bank: the house (``payouts[HOUSE]``)
or, with ``player_banker``, a seated player's wallet.

The authority is ``shared/rules/fortunes-and-winds.md``. Rulings of ours (also for the
player rules, ``bot/rules_text/fortunes_winds.md``):

- Phases. ``betting``: bets are open until the shooter's first roll. Once the shooter's
  bet is down, a betting window (``bet_seconds`` > 0, and a seated member besides the
  shooter, a player banker and the house seats) stays open until every such member has
  bet this turn or said :class:`Ready`, or its time runs out; the shooter cannot roll
  before, and no bets are taken after it (the shooter then has ``roll_seconds``).
  ``rolling``: after roll 1 or 2 of a turn still in play, the shooter sets dice aside
  (any number of :class:`SetAside` actions, at most three white dice over the turn) and
  rolls again. ``won``: the shooter just won; :class:`NewTurn` (betting opens again with
  the same shooter) or :class:`PassDice`. After a loss the dice pass to the next seat and
  betting opens at once. ``roll_number`` is the roll of the turn in play (0 between
  turns); ``faces`` keep showing the last roll until the next one.
- The shooter must place the shooter's bet before the first roll. A further bet of a kind
  already held tops it up; each kind's total is within ``min_stake``..``max_stake`` (the
  Lord Moon stake is on top). A player may not hold both Daikoku and "against", nor both
  Tea and Hungry Moon. The shooter makes no other bet; a player banker makes none.
- Whole pays: a Daikoku bet is staked in multiples of 2 (wins ``amount * 3 // 2``), an
  "against" bet in multiples of 3 (wins ``amount * 2 // 3``), so no win is rounded; any
  other amount is refused naming the nearest allowed (:func:`whole_pays_step`).
- ``house_guard`` (for any bank, the house or a player banker): a bet is accepted only if
  the members' joint expected value — every open bet of the turn but the house seats'
  (``house_seats``: computer seats, whose stakes are the house's own coins) — stays <= 0
  (:func:`joint_ev`): a member shooting keeps to maximise that sum, a house seat by
  :func:`best_keep`. The refusal names the most the bank would take on that bet
  (:func:`guard_limit`; with whole pays every multiple up to it is taken, none above).
  ``start`` refuses a house seat at a house-banked table whose guard is off.
- Deadlines: the betting window's end closes betting; otherwise the shooter has
  ``roll_seconds``: a shooter who has not bet by then cannot play the turn (bets go back
  and the dice pass, ``absent``); an idle shooter's roll is made for them with the best
  keep (:func:`best_keep`); a turn in which the deadline rolled for the shooter is idle,
  and after two idle turns in a row the dice pass. A winner who does not choose starts a
  new turn (idle).
- ``player_banker``: the richest seated player banks. The engine cannot read wallets, so
  the table service asks :meth:`FortunesWindsEngine.seat_order` with every player's
  balance at the start, which seats the richest first; the first seat banks. The banker
  never shoots or bets; the dice go round the other seats. The banker's most possible
  loss on the open bets is kept as the banker's own ``stakes`` entry
  (:func:`banker_exposure`), so the table service's wallet check (escrow equals the sum
  of stakes) refuses, before the roll, a bet the banker's wallet cannot cover. The guard
  protects the banker's wallet as it protects the house.
- :class:`Abort`: settled turns stand; before the turn's first roll every open bet goes
  back; in a turn in play each bet is settled at its exact expected value under the
  shooter's best keeping from that moment, rounded down for the player.
- Ties in the keeping (two keeps worth exactly the same) go to setting aside fewer dice,
  then to the earlier die in the order Earth, Water, Fire, Air.

Chance comes only from the ``dice`` argument: one ``dice.roll(6)`` per die not set aside,
in the order Earth, Water, Fire, Air, Moon; the value is the face's position in the rules
file's table. ``act`` never mutates its input.

Exact odds: a white die shows its element (1/2), its Wind (1/3) or a blank (1/6), alike
for all four, so a position is the roll count and how many elements, Winds and blanks
are set aside. A dynamic programme over those positions (integer weights over 6**15,
cached) gives, for any objective over the turn's 22 outcomes (which roll it ended on and
how), the best keeping's value and the outcome probabilities under it.

The package: ``odds`` (the dice, the pays, the exact odds), ``models`` (rules, actions,
events, state), ``keeping`` (exposure, the guard and the best keep at a table position),
``engine`` (checks, moves, :data:`ENGINE`). Everything public is re-exported here.
"""

from __future__ import annotations

from bot.games.common import Abort, Deadline
from bot.games.fortunes_winds.engine import (
    ENGINE,
    FORTUNES_AND_WINDS_HONOUR,
    RULEBOOK,
    FortunesWindsEngine,
    GuardRefused,
    act,
    bank_exposure,
    deadline_seconds,
    hold,
    house_seat_refusal,
    legal_actions,
    parse_action,
    parse_event,
    seat_limits,
    start,
)
from bot.games.fortunes_winds.keeping import (
    KeepAdvice,
    banker_exposure,
    best_keep,
    betting_open,
    can_pass_dice,
    eligible_shooters,
    guard_limit,
    joint_ev,
    keep_advice,
    waiting_on,
    whole_pays_step,
)
from bot.games.fortunes_winds.models import (
    ACTIONS,
    PERMISSIONS,
    Aborted,
    Action,
    Bet,
    BetPlaced,
    BetReturned,
    BetSettled,
    BettingClosed,
    BetValued,
    Closed,
    DicePassed,
    DiceSetAside,
    Event,
    Join,
    Joined,
    Leave,
    Left,
    NewTurn,
    NewTurnStarted,
    PassDice,
    PassReason,
    Phase,
    PlayerReady,
    Ready,
    Roll,
    Rolled,
    Rules,
    SetAside,
    State,
    TurnEnded,
)
from bot.games.fortunes_winds.odds import (
    BET_KINDS,
    COMBINATIONS,
    DIE_NAMES,
    FACES,
    KANJI,
    OUTCOMES,
    RESULTS,
    SIDE_BETS,
    WHITE_DICE,
    BetKind,
    Combination,
    DieName,
    KeepingName,
    Outcome,
    Result,
    TurnOdds,
    WhiteDie,
    bet_payoff,
    combination_of,
    outcome_net,
    roll_odds,
    served_edge,
    shooter_ev,
    stake_of,
    turn_odds,
)

__all__ = [
    "ACTIONS",
    "BET_KINDS",
    "COMBINATIONS",
    "DIE_NAMES",
    "ENGINE",
    "FACES",
    "FORTUNES_AND_WINDS_HONOUR",
    "KANJI",
    "OUTCOMES",
    "PERMISSIONS",
    "RESULTS",
    "RULEBOOK",
    "SIDE_BETS",
    "WHITE_DICE",
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
    "Closed",
    "Combination",
    "Deadline",
    "DicePassed",
    "DiceSetAside",
    "DieName",
    "Event",
    "FortunesWindsEngine",
    "GuardRefused",
    "Join",
    "Joined",
    "KeepAdvice",
    "KeepingName",
    "Leave",
    "Left",
    "NewTurn",
    "NewTurnStarted",
    "Outcome",
    "PassDice",
    "PassReason",
    "Phase",
    "PlayerReady",
    "Ready",
    "Result",
    "Roll",
    "Rolled",
    "Rules",
    "SetAside",
    "State",
    "TurnEnded",
    "TurnOdds",
    "WhiteDie",
    "act",
    "bank_exposure",
    "banker_exposure",
    "best_keep",
    "bet_payoff",
    "betting_open",
    "can_pass_dice",
    "combination_of",
    "deadline_seconds",
    "eligible_shooters",
    "guard_limit",
    "hold",
    "house_seat_refusal",
    "joint_ev",
    "keep_advice",
    "legal_actions",
    "outcome_net",
    "parse_action",
    "parse_event",
    "roll_odds",
    "seat_limits",
    "served_edge",
    "shooter_ev",
    "stake_of",
    "start",
    "turn_odds",
    "waiting_on",
    "whole_pays_step",
]
