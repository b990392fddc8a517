"""Hazard's engine: the checks, the moves, and :data:`ENGINE` (the rules are in the
package's docstring)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

from bot.games.common import HOUSE, Abort, Deadline, Join, Joined, Leave, Left
from bot.games.contract import Engine
from bot.games.dice import Dice
from bot.games.errors import IllegalMove
from bot.games.hazard.analysis import (
    BET_KINDS,
    MAINS,
    BetKind,
    commission,
    first_throw_outcome,
    odds_payout,
    ways,
)
from bot.games.hazard.models import (
    LOSSES_TO_PASS,
    PERMISSIONS,
    TAGGED_ACTIONS,
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
from bot.games.kit import (
    NOT_SEATED_JOIN_FIRST,
    Move,
    Rulebook,
    check_join,
    check_ready,
    close_window,
    close_window_if_done,
    only_the_table,
    seated_move,
    the_service_decides,
)
from bot.i18n import N_

_ODDS_KINDS: tuple[BetKind, ...] = ("odds_for", "odds_against")
_OPPOSITE: dict[BetKind, BetKind] = {"with": "against", "against": "with"}

_DEADLINE_MAIN = 7
"""The main the table calls for an absent caster: the caster's best main."""

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


def _below_minimum(minimum: int) -> IllegalMove:
    # Whole templates per number (the English reads "1 coin"/"n coins"); numbers passed as
    # text so the English stays ungrouped, as the engine always wrote it.
    if minimum == 1:
        return IllegalMove("The table minimum is 1 coin per bet.")
    return IllegalMove("The table minimum is {amount} coins per bet.", amount=str(minimum))


def _next_seat(seats: list[int], player: int) -> int:
    return seats[(seats.index(player) + 1) % len(seats)]


# ---------------------------------------------------------------------- checks
# Each refuses with a reason fit for the player and touches nothing (kit.Rulebook runs
# the check before it copies the state).


_TABLE_ONLY = N_("The table itself can only call time or close.")
"""The refusal of a player's move sent by the table itself (``player=None``)."""


def _check_call_main(state: State, player: int, action: CallMain) -> None:
    if player != state.caster:
        raise IllegalMove("Only the caster calls the main.")
    if state.main is not None:
        raise IllegalMove(
            "The main is already called for this round: {main}.", main=str(state.main)
        )
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
        raise (
            IllegalMove(
                "Your odds bets can total at most 1 coin this round "
                "({multiple}× your stake); this would make {total}.",
                multiple=str(rules.odds_max_multiple),
                total=str(odds_total),
            )
            if cap == 1
            else IllegalMove(
                "Your odds bets can total at most {cap} coins this round "
                "({multiple}× your stake); this would make {total}.",
                cap=str(cap),
                multiple=str(rules.odds_max_multiple),
                total=str(odds_total),
            )
        )
    if held.get(bet.kind, 0) + bet.amount < rules.min_stake:
        raise _below_minimum(rules.min_stake)


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
        raise (
            IllegalMove("You already bet with the caster this round; you can't back both.")
            if other == "with"
            else IllegalMove("You already bet against the caster this round; you can't back both.")
        )
    total = held.get(bet.kind, 0) + bet.amount
    if total < rules.min_stake:
        raise _below_minimum(rules.min_stake)
    if total > rules.max_stake:
        raise (
            IllegalMove(
                "The table maximum is 1 coin per bet; this would make {total}.", total=str(total)
            )
            if rules.max_stake == 1
            else IllegalMove(
                "The table maximum is {amount} coins per bet; this would make {total}.",
                amount=str(rules.max_stake),
                total=str(total),
            )
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
    check_ready(state, player)


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
    check_join(state, player, state.rules.max_players, table_only=_TABLE_ONLY)


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

    def applied(s: State, player: int, action: _A, dice: Dice) -> list[Event]:
        events = apply(s, player, action, dice)
        s.idle_passes = 0
        return events

    return seated_move(check, applied, outsider=NOT_SEATED_JOIN_FIRST, table_only=_TABLE_ONLY)


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


RULEBOOK: Rulebook[State, Action, Event] = Rulebook(
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
    finished=N_("This Hazard table has closed."),
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
    return close_window(s, BettingClosed, by_deadline=by_deadline)


def _close_window_if_done(s: State) -> list[BettingClosed]:
    return close_window_if_done(s, waiting_on, BettingClosed)


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

    def ply(self, state: State) -> int:
        return state.ply

    def waiting_on(self, state: State) -> list[int]:
        """The caster: the next move is theirs (the betting window only delays it, so a
        caster who has just called the main is not told again when it closes)."""
        return [] if state.finished else [state.caster]

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
            raise IllegalMove(
                "A Hazard table seats {low} to {high} players.", low=str(low), high=str(high)
            )
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
        return RULEBOOK.act(state, player, action, dice)

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
    rules_model=Rules, state_model=State, action_type=TAGGED_ACTIONS, event_type=Event
)


PLAYOUT_VARIANTS: tuple[Rules, ...] = (Rules(), Rules(odds_max_multiple=3))
"""The rules the contract's random playouts cover (tests/games/test_contract.py)."""
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
