"""Fortunes and Winds: the checks and moves of every action, and :data:`ENGINE`."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

from bot.games.common import HOUSE, Abort, Deadline
from bot.games.contract import Engine
from bot.games.dice import Dice
from bot.games.errors import IllegalMove
from bot.games.fortunes_winds.keeping import (
    _current_distribution,
    _guard_refuses,
    _keeping_now,
    _max_payout,
    _window_members,
    banker_exposure,
    best_keep,
    betting_open,
    can_pass_dice,
    eligible_shooters,
    guard_limit,
    waiting_on,
    whole_pays_step,
)
from bot.games.fortunes_winds.models import (
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
    _BLANK,
    _BY_KEY,
    _ELEMENT,
    _LORD_MOON_KINDS,
    _OPPOSITE,
    _OUTCOME_INDEX,
    _WIND,
    BET_KINDS,
    COMBINATIONS,
    FACES,
    WHITE_DICE,
    BetKind,
    DieName,
    Result,
    WhiteDie,
    bet_payoff,
    outcome_net,
    stake_of,
)
from bot.games.kit import (
    NOT_SEATED_JOIN_FIRST,
    Move,
    Rulebook,
    build,
    check_join,
    check_ready,
    close_window,
    close_window_if_done,
    only_the_table,
    seated_move,
    the_service_decides,
)
from bot.games.said import Said, coins
from bot.i18n import N_, SOURCE_LOCALE, fill

# ----------------------------------------------------------------------- helpers


def _next_shooter(state: State, after: int) -> int:
    """The next seat after ``after`` who may shoot (``after`` itself if alone)."""
    seats = state.seats
    index = seats.index(after) if after in seats else 0
    for step in range(1, len(seats) + 1):
        candidate = seats[(index + step) % len(seats)]
        if candidate != state.banker:
            return candidate
    return after


_BET_NAMES: dict[str, str] = {
    "shooter": "the shooter's bet",
    "ride": "a ride",
    "daikoku": "Daikoku's Belly",
    "against": "against the shooter",
    "tea": "Lady Sun's Tea",
    "hungry": "Hungry Moon",
}


# ---------------------------------------------------------------------- checks


def _check_bet(state: State, player: int, bet: Bet) -> None:
    rules = state.rules
    if bet.amount <= 0:
        raise IllegalMove("A bet must be at least 1 coin.")
    if not betting_open(state):
        raise IllegalMove("Bets are closed: they open again before the next turn.")
    if player == state.banker:
        raise IllegalMove("The banker covers the bets and makes none.")
    if bet.kind == "shooter" and player != state.shooter:
        raise IllegalMove("Only the shooter makes the shooter's bet — ride the shooter instead.")
    if bet.kind != "shooter" and player == state.shooter:
        raise IllegalMove("The shooter may not make side bets or ride — bet as the shooter.")
    if bet.kind == "against" and not rules.allow_bet_against:
        raise IllegalMove("This house takes no bets against the shooter.")
    if player in state.ready:
        raise IllegalMove("You said you're ready — no more bets from you this turn.")
    _check_whole_pays(state, player, bet)
    held = state.bets.get(player, {})
    other = _OPPOSITE.get(bet.kind)
    if other is not None and held.get(other, 0):  # type: ignore[call-overload]
        raise IllegalMove(
            "You already hold {bet} this turn; you can't back both sides.",
            bet=Said(_BET_NAMES[other]),
        )
    total = held.get(bet.kind, 0) + bet.amount
    if total < rules.min_stake:
        raise IllegalMove("The table minimum is {amount} per bet.", amount=coins(rules.min_stake))
    if total > rules.max_stake:
        raise IllegalMove(
            "The table maximum is {amount} per bet; this would make {total}.",
            amount=coins(rules.max_stake),
            total=str(total),
        )
    # A shooter's bet or a ride loses on average under every keeping (shooter_ev() < 0),
    # so it can only lower the members' joint value, which every bet accepted this turn
    # kept <= 0: only the side bets need the dynamic programme. A house seat's own bet is
    # the house's coins against the house: nothing to guard.
    if (
        bet.kind not in _LORD_MOON_KINDS
        and rules.guarded
        and player not in rules.house_seats
        and _guard_refuses(state, bet, player)
    ):
        limit = guard_limit(state, player, bet.kind)
        held_now = held.get(bet.kind, 0)
        # Name only what can be placed: a limit under the table minimum takes nothing.
        limit = min(limit, rules.max_stake - held_now)
        placeable = limit > 0 and held_now + limit >= rules.min_stake
        raise GuardRefused(
            bet.kind,
            bet.amount,
            limit if placeable else 0,
            awaiting_shooter=not state.bets.get(state.shooter, {}).get("shooter"),
        )


class GuardRefused(IllegalMove):
    """The house guard refuses a side bet: ``limit`` is the most the bank would take on
    it now (0: none); ``awaiting_shooter`` when the shooter has not bet yet, so the room
    is not yet known. The words here count coins; a table's face names its currency."""

    def __init__(self, kind: str, amount: int, limit: int, *, awaiting_shooter: bool) -> None:
        self.bet_kind, self.amount, self.limit = kind, amount, limit
        self.awaiting_shooter = awaiting_shooter
        template, params = self.parts(coins)
        super().__init__(template, **params)

    def parts(self, amount_words: Callable[[int], object]) -> tuple[str, dict[str, object]]:
        """The refusal as a template and its values, amounts as ``amount_words`` says them
        (a table names its currency): for ``NotAllowed(template, **params)``."""
        params = {
            "bet": Said(_BET_NAMES[self.bet_kind]),
            "amount": amount_words(self.amount),
            "limit": amount_words(self.limit),
        }
        if self.limit:
            return (
                "The house guard refuses {bet} of {amount}: with it the table's bets together "
                "would beat the bank on average. The bank would take at most {limit} more on "
                "it now.",
                params,
            )
        del params["limit"]
        if self.awaiting_shooter:
            return (
                "The house guard refuses {bet} of {amount}: with it the table's bets together "
                "would beat the bank on average. Wait for the shooter's bet: what the bank "
                "takes beside it depends on it.",
                params,
            )
        return (
            "The house guard refuses {bet} of {amount}: with it the table's bets together "
            "would beat the bank on average. The bank takes no more on it this turn.",
            params,
        )

    def sentence(self, amount_words: Callable[[int], str]) -> str:
        """The refusal in English, with amounts as ``amount_words`` says them."""
        template, params = self.parts(amount_words)
        return fill(template, SOURCE_LOCALE, params)


def _check_whole_pays(state: State, player: int, bet: Bet) -> None:
    """Whole pays, no rounding: an amount off the kind's multiple is refused, naming the
    nearest amounts the player may bet on it now: within the table's limits (with what
    they already hold on it) and the house guard's limit."""
    step = whole_pays_step(bet.kind)
    if bet.amount % step == 0:
        return
    rules = state.rules
    held = state.bets.get(player, {}).get(bet.kind, 0)
    least = -(-max(1, rules.min_stake - held) // step) * step
    room = rules.max_stake - held
    if bet.kind not in _LORD_MOON_KINDS and rules.guarded and player not in rules.house_seats:
        room = min(room, guard_limit(state, player, bet.kind))
    most = room - room % step
    nearest_below = min(bet.amount - bet.amount % step, most)
    nearest_above = max(bet.amount - bet.amount % step + step, least)
    fits = [n for n in (nearest_below, nearest_above) if least <= n <= most]
    if not fits:
        if bet.kind == "daikoku":
            raise IllegalMove(
                "Daikoku's Belly is bet in multiples of 2 (bet 2 to win 3), so every win is "
                "whole coins, and no multiple of 2 fits the table's limits and the house "
                "guard for you now."
            )
        raise IllegalMove(
            "A bet against the shooter is in multiples of 3 (bet 3 to win 2), so every win "
            "is whole coins, and no multiple of 3 fits the table's limits and the house "
            "guard for you now."
        )
    below, above = (0, fits[0]) if len(fits) == 1 else (fits[0], fits[1])
    if bet.kind == "daikoku":
        if below:
            raise IllegalMove(
                "Daikoku's Belly is bet in multiples of 2 (bet 2 to win 3), so every win is "
                "whole coins: bet {below} or {above}, not {amount}.",
                below=below,
                above=above,
                amount=bet.amount,
            )
        raise IllegalMove(
            "Daikoku's Belly is bet in multiples of 2 (bet 2 to win 3), so every win is "
            "whole coins: bet {above}, not {amount}.",
            above=above,
            amount=bet.amount,
        )
    if below:
        raise IllegalMove(
            "A bet against the shooter is in multiples of 3 (bet 3 to win 2), so every win "
            "is whole coins: bet {below} or {above}, not {amount}.",
            below=below,
            above=above,
            amount=bet.amount,
        )
    raise IllegalMove(
        "A bet against the shooter is in multiples of 3 (bet 3 to win 2), so every win is "
        "whole coins: bet {above}, not {amount}.",
        above=above,
        amount=bet.amount,
    )


def _check_roll(state: State, player: int, action: Roll) -> None:
    if player != state.shooter:
        raise IllegalMove("Only the shooter rolls the dice.")
    if state.phase == "won":
        raise IllegalMove("Your turn is won — start a new turn or pass the dice.")
    if state.roll_number == 0 and not state.bets.get(player, {}).get("shooter"):
        raise IllegalMove("Place your bet (and the same again for Lord Moon) before rolling.")
    if state.window_open:
        raise IllegalMove(
            "Bets are still open — you can roll once everyone has bet or is ready, "
            "or when the countdown ends."
        )


def _check_ready(state: State, player: int, action: Ready) -> None:
    if player == state.shooter:
        raise IllegalMove("The betting window waits for the other players, not the shooter.")
    if player == state.banker:
        raise IllegalMove("The banker covers the bets and makes none.")
    check_ready(state, player)


def _check_set_aside(state: State, player: int, action: SetAside) -> None:
    if player != state.shooter:
        raise IllegalMove("Only the shooter sets dice aside.")
    if state.phase != "rolling" or state.roll_number == 0:
        raise IllegalMove("Dice are set aside between the rolls of a turn.")
    if not action.dice:
        raise IllegalMove("Name at least one white die to set aside.")
    if len(set(action.dice)) != len(action.dice):
        raise IllegalMove("Name each die once.")
    for die in action.dice:
        if die not in WHITE_DICE:
            raise IllegalMove("Only white dice are set aside; the black die is always rolled.")
        if die in state.set_aside:
            raise IllegalMove("The {die} die is already set aside.", die=Said(die.capitalize()))
    if len(state.set_aside) + len(action.dice) > 3:
        raise IllegalMove(
            "At most three white dice may be set aside in a turn; {count} already are.",
            count=len(state.set_aside),
        )


def _check_new_turn(state: State, player: int, action: NewTurn) -> None:
    if player != state.shooter:
        raise IllegalMove("Only the shooter starts a new turn.")
    if state.phase != "won":
        raise IllegalMove("A new turn is the winner's choice after a winning turn.")


def _check_pass(state: State, player: int, action: PassDice) -> None:
    if player != state.shooter:
        raise IllegalMove("Only the shooter can pass the dice.")
    if state.roll_number > 0:
        raise IllegalMove("You can't pass the dice in the middle of a turn.")
    if not can_pass_dice(state):
        raise IllegalMove("There's nobody else at the table to pass the dice to.")


def _check_join(state: State, player: int | None, action: Join) -> None:
    check_join(state, player, state.rules.max_players)


def _check_leave(state: State, player: int, action: Leave) -> None:
    if player == state.banker:
        if any(state.bets.values()):
            raise IllegalMove("You bank bets that are riding — wait until they're settled.")
        return
    if state.bets.get(player):
        raise IllegalMove("You have bets riding — wait until they're settled before leaving.")
    if player == state.shooter and state.roll_number > 0:
        raise IllegalMove("You're in the middle of a turn — roll until it's decided first.")


# ------------------------------------------------------------------------ moves

_A = TypeVar("_A", bound=BaseModel)


def _player_move(
    check: Callable[[State, int, _A], None], apply: Callable[[State, int, _A, Dice], list[Event]]
) -> Move[State, _A, Event]:
    return seated_move(check, apply, outsider=NOT_SEATED_JOIN_FIRST)


def _apply_bet(s: State, player: int, bet: Bet, dice: Dice) -> list[Event]:
    held = dict(s.bets.get(player, ()))
    total = held[bet.kind] = held.get(bet.kind, 0) + bet.amount
    bets = {**s.bets, player: held}
    stakes = {**s.stakes, player: s.stakes.get(player, 0) + stake_of(bet.kind, bet.amount)}
    if s.banker is not None:
        stakes[s.banker] = _max_payout(bets)
    s.bets = bets
    s.stakes = stakes
    events: list[Event] = [
        build(
            BetPlaced,
            player=player,
            bet=bet.kind,
            amount=bet.amount,
            total=total,
            lord_moon=total if bet.kind in _LORD_MOON_KINDS else 0,
        )
    ]
    # The shooter's bet is down: the others get their window on this turn (none for a
    # table alone with its shooter, or with only computers besides).
    if (
        bet.kind == "shooter"
        and not s.window_open
        and s.rules.bet_seconds > 0
        and _window_members(s)
    ):
        s.window_open = True
        s.ply += 1
    events.extend(_close_window_if_done(s))
    return events


def _apply_ready(s: State, player: int, action: Ready, dice: Dice) -> list[Event]:
    s.ready = [*s.ready, player]
    return [PlayerReady(player=player), *_close_window_if_done(s)]


def _apply_roll(s: State, player: int, action: Roll, dice: Dice) -> list[Event]:
    if s.roll_number == 0:
        s.deadline_acted = False
    return _roll(s, dice, by_deadline=False)


def _apply_set_aside(s: State, player: int, action: SetAside, dice: Dice) -> list[Event]:
    s.set_aside = [*s.set_aside, *action.dice]
    return [
        build(
            DiceSetAside,
            shooter=player,
            dice=list(action.dice),
            set_aside=list(s.set_aside),
        )
    ]


def _apply_new_turn(s: State, player: int, action: NewTurn, dice: Dice) -> list[Event]:
    _open_turn(s)
    s.ply += 1
    return [build(NewTurnStarted, shooter=player)]


def _apply_pass(s: State, player: int, action: PassDice, dice: Dice) -> list[Event]:
    events: list[Event] = [*_return_bets(s)]
    events.append(_pass_dice(s, "voluntary"))
    return events


def _apply_join(s: State, player: int | None, action: Join, dice: Dice) -> list[Event]:
    assert player is not None
    s.seats = [*s.seats, player]
    if player not in s.stakes:
        s.stakes = {**s.stakes, player: 0}
    if player not in s.payouts:
        s.payouts = {**s.payouts, player: 0}
    s.ply += 1
    return [Joined(player=player, seat=len(s.seats) - 1)]


def _apply_leave(s: State, player: int, action: Leave, dice: Dice) -> list[Event]:
    events: list[Event] = []
    if player == s.banker:
        s.seats = [p for p in s.seats if p != player]
        s.ply += 1
        events.append(Left(player=player, net=s.payouts.get(player, 0)))
        events.extend(_return_bets(s))
        events.extend(_close(s, "banker_left"))
        return events
    was_shooter = player == s.shooter
    if was_shooter:
        events.extend(_return_bets(s))
        successor = _next_shooter(s, player)
    s.seats = [p for p in s.seats if p != player]
    s.ready = [p for p in s.ready if p != player]
    s.ply += 1
    events.append(Left(player=player, net=s.payouts.get(player, 0)))
    if not eligible_shooters(s):
        events.extend(_return_bets(s))
        # A player banker may still sit there, with nobody left to shoot against them.
        events.extend(_close(s, "empty" if not s.seats else "no_shooter"))
    elif was_shooter:
        _new_shooter(s, successor if successor != player else eligible_shooters(s)[0])
        events.append(DicePassed(from_player=player, to_player=s.shooter, reason="left"))
    else:
        # The window may have been waiting only for the member who left.
        events.extend(_close_window_if_done(s))
    return events


def _apply_deadline(s: State, player: int | None, action: Deadline, dice: Dice) -> list[Event]:
    if s.phase == "won":
        s.deadline_acted = True
        _open_turn(s, keep_idle=True)
        s.ply += 1
        return [NewTurnStarted(shooter=s.shooter, by_deadline=True)]
    if s.phase == "betting":
        if not s.bets.get(s.shooter, {}).get("shooter"):
            # The turn cannot be played without the shooter's bet: bets go back.
            events: list[Event] = [*_return_bets(s)]
            if len(eligible_shooters(s)) > 1:
                events.append(_pass_dice(s, "absent"))
            else:
                _open_turn(s)
                s.ply += 1
            return events
        if s.window_open:
            # The window's time is up; the shooter was not waited for: no idleness.
            return [_close_window(s, by_deadline=True)]
        s.deadline_acted = True
        return _roll(s, dice, by_deadline=True)
    # rolling: keep as the best keeping would, then roll.
    s.deadline_acted = True
    events = []
    keep = best_keep(s)
    if keep:
        s.set_aside = [*s.set_aside, *keep]
        events.append(
            build(
                DiceSetAside,
                shooter=s.shooter,
                dice=list(keep),
                set_aside=list(s.set_aside),
                by_deadline=True,
            )
        )
    events.extend(_roll(s, dice, by_deadline=True))
    return events


def _apply_abort(s: State, player: int | None, action: Abort, dice: Dice) -> list[Event]:
    events: list[Event] = []
    if s.roll_number == 0:
        events.extend(_return_bets(s))
    else:
        events.extend(_value_bets(s))
    s.finished = True
    s.window_open = False
    s.phase = "betting"
    s.roll_number = 0
    s.ply += 1
    events.append(Aborted(by=player))
    return events


RULEBOOK: Rulebook[State, Action, Event] = Rulebook(
    {
        Bet: _player_move(_check_bet, _apply_bet),
        Roll: _player_move(_check_roll, _apply_roll),
        SetAside: _player_move(_check_set_aside, _apply_set_aside),
        NewTurn: _player_move(_check_new_turn, _apply_new_turn),
        PassDice: _player_move(_check_pass, _apply_pass),
        Ready: _player_move(_check_ready, _apply_ready),
        Join: Move(_check_join, _apply_join),
        Leave: _player_move(_check_leave, _apply_leave),
        Deadline: Move(only_the_table, _apply_deadline),
        Abort: Move(the_service_decides, _apply_abort),
    },
    finished=N_("This Fortunes and Winds table has closed."),
)


# -------------------------------------------------------------------- mutations
# Replace containers, never mutate them (kit.evolve shares them with the old state).


def _cover(s: State) -> None:
    """Keep a player banker's stake at the most the open bets could cost them."""
    if s.banker is not None:
        s.stakes = {**s.stakes, s.banker: _max_payout(s.bets)}


def _return_bets(s: State) -> list[Event]:
    events: list[Event] = []
    stakes = dict(s.stakes)
    for player, held in s.bets.items():
        for kind in BET_KINDS:
            amount = held.get(kind, 0)
            if amount:
                stakes[player] -= stake_of(kind, amount)
                events.append(BetReturned(player=player, bet=kind, amount=amount))
    s.stakes = stakes
    s.bets = {}
    _cover(s)
    return events


def _bank_key(s: State) -> int:
    return HOUSE if s.banker is None else s.banker


# What a roll of 1..6 shows on each white die: (face, class); 1-3 the element, 4-5 the
# Wind, 6 a blank. Looked up rather than worked out: a turn rolls up to twelve white dice.
_WHITE_ROLLS: tuple[tuple[WhiteDie, tuple[tuple[str, int], ...]], ...] = tuple(
    (die, tuple(zip(FACES[die], (_ELEMENT, _ELEMENT, _ELEMENT, _WIND, _WIND, _BLANK), strict=True)))
    for die in WHITE_DICE
)
_CLASS_OF_FACE: dict[tuple[str, str], int] = {
    (die, face): face_class for die, by_roll in _WHITE_ROLLS for face, face_class in by_roll
}
"""(white die, face) → the face's class, as :func:`_face_class` says (a blank otherwise)."""
_BLACK_FACES = FACES["moon"]
_RESULT_OF: dict[tuple[int, str], Result] = {
    (_WIND if c.whites == "winds" else _ELEMENT, c.black): c.key for c in COMBINATIONS
}


def _roll(s: State, dice: Dice, *, by_deadline: bool) -> list[Event]:
    events: list[Event] = []
    roll_number = s.roll_number + 1
    if roll_number == 1:
        set_aside: list[str] = []
        if not s.bets_closed:
            events.append(build(BettingClosed, by_deadline=by_deadline))
        old_faces: dict[str, str] = {}
    else:
        set_aside = s.set_aside
        old_faces = s.faces
    roll = dice.roll
    faces: dict[str, str] = {}
    rolled: list[DieName] = []
    classes: set[int] = set()
    for die, by_roll in _WHITE_ROLLS:
        if die in set_aside:
            face = faces[die] = old_faces[die]
            classes.add(_CLASS_OF_FACE.get((die, face), _BLANK))
        else:
            face, face_class = by_roll[roll(6) - 1]
            faces[die] = face
            classes.add(face_class)
            rolled.append(die)
    black = faces["moon"] = _BLACK_FACES[roll(6) - 1]
    rolled.append("moon")
    result: Result | None = None
    if black == "Moon":
        result = "moon"
    elif len(classes) == 1:
        result = _RESULT_OF.get((classes.pop(), black))
    if result is None and roll_number == 3:
        result = "nothing"
    s.phase = "rolling"
    s.set_aside = set_aside
    s.bets_closed = True
    s.roll_number = roll_number
    s.ply += 1
    s.faces = faces
    events.append(
        build(
            Rolled,
            shooter=s.shooter,
            roll=roll_number,
            faces=faces,
            rolled=rolled,
            set_aside=set_aside,
            result=result,
            by_deadline=by_deadline,
        )
    )
    if result is not None:
        events.extend(_end_turn(s, result))
    return events


def _end_turn(s: State, result: Result) -> list[Event]:
    roll_number = s.roll_number
    # Each bet's net is read from its cached payoff over the outcomes (outcome_net's).
    outcome = _OUTCOME_INDEX[(roll_number, result)]
    combination = _BY_KEY.get(result)
    events: list[Event] = []
    payouts = dict(s.payouts)
    stakes = dict(s.stakes)
    _settle_bets(s, outcome, payouts, stakes, events)
    if s.banker is not None:
        stakes[s.banker] = 0
    shooter = s.shooter
    events.append(
        build(
            TurnEnded,
            turn=s.turn,
            shooter=shooter,
            rolls=roll_number,
            result=result,
            won=combination is not None,
            combination=combination.name if combination else None,
        )
    )
    idle_turns = s.idle_turns + 1 if s.deadline_acted else 0
    s.payouts = payouts
    s.stakes = stakes
    s.bets = {}
    s.last_result = result
    s.turn += 1
    s.idle_turns = idle_turns
    s.roll_number = 0
    s.set_aside = []
    if combination is None:
        events.append(_pass_dice(s, "lost"))
    elif idle_turns >= 2 and len(eligible_shooters(s)) > 1:
        events.append(_pass_dice(s, "absent"))
    else:
        s.phase = "won"
        s.deadline_acted = False
    return events


def _settle_bets(
    s: State, outcome: int, payouts: dict[int, int], stakes: dict[int, int], events: list[Event]
) -> None:
    """Pay every bet of the turn against the bank, in `payouts`, and free its stake."""
    bank = _bank_key(s)
    bets = s.bets
    # Seat order (a bettor who left mid-turn cannot exist: Leave waits for their bets).
    for player in s.seats:
        held = bets.get(player)
        if not held:
            continue
        for kind in held if len(held) == 1 else sorted(held, key=_KIND_ORDER.__getitem__):
            amount = held[kind]
            net = bet_payoff(kind, amount)[outcome]
            payouts[player] += net
            payouts[bank] -= net
            stakes[player] -= stake_of(kind, amount)
            events.append(
                build(
                    BetSettled,
                    player=player,
                    bet=kind,
                    amount=amount,
                    won=net > 0,
                    net=net,
                    push=kind == "hungry" and net == 0,
                )
            )


_KIND_ORDER: dict[str, int] = {kind: index for index, kind in enumerate(BET_KINDS)}


def _open_turn(s: State, *, keep_idle: bool = False) -> None:
    """Betting opens for a new turn of the current shooter (no window until their bet)."""
    deadline_acted = s.deadline_acted if keep_idle else False
    s.phase = "betting"
    s.roll_number = 0
    s.set_aside = []
    s.bets_closed = False
    s.window_open = False
    s.ready = []
    s.deadline_acted = deadline_acted


def _close_window(s: State, *, by_deadline: bool) -> BettingClosed:
    return close_window(s, BettingClosed, by_deadline=by_deadline)


def _close_window_if_done(s: State) -> list[BettingClosed]:
    return close_window_if_done(s, waiting_on, BettingClosed)


def _new_shooter(s: State, shooter: int) -> None:
    s.shooter = shooter
    s.idle_turns = 0
    _open_turn(s)


def _pass_dice(s: State, reason: PassReason) -> DicePassed:
    giver = s.shooter
    _new_shooter(s, _next_shooter(s, giver))
    s.ply += 1
    return build(DicePassed, from_player=giver, to_player=s.shooter, reason=reason)


def _close(s: State, reason: Literal["empty", "banker_left", "no_shooter"]) -> list[Event]:
    s.finished = True
    s.window_open = False
    s.phase = "betting"
    s.roll_number = 0
    s.ply += 1
    return [Closed(reason=reason)]


def _value_bets(s: State) -> list[Event]:
    """Settle every open bet at its exact value under the shooter's best keeping from
    now, rounded down for the player."""
    distribution = _current_distribution(s)
    payouts = dict(s.payouts)
    stakes = dict(s.stakes)
    bank = _bank_key(s)
    events: list[Event] = []
    for player, held in s.bets.items():
        for kind in BET_KINDS:
            amount = held.get(kind, 0)
            if not amount:
                continue
            value = sum(
                (p * outcome_net(kind, amount, outcome) for outcome, p in distribution.items()),
                Fraction(0),
            )
            net = math.floor(value)
            staked = stake_of(kind, amount)
            payouts[player] = payouts.get(player, 0) + net
            payouts[bank] = payouts.get(bank, 0) - net
            stakes[player] -= staked
            events.append(
                BetValued(player=player, bet=kind, amount=amount, returned=staked + net, net=net)
            )
    s.payouts = payouts
    s.stakes = stakes
    s.bets = {}
    _cover(s)
    return events


# ---------------------------------------------------------------------- the engine


FORTUNES_AND_WINDS_HONOUR = "Fortunes and Winds"


def house_seat_refusal(rules: Rules) -> str | None:
    """Why a house seat (a computer) may not sit at a table with these rules, or ``None``.
    Its stakes are the house's: an unguarded house-banked table would let members farm the
    house bank through it (the rules file, turn 3)."""
    if not rules.player_banker and not rules.house_guard:
        return (
            "The computer never sits at a house-banked table whose house guard is off "
            "(this server's moderators switched it off with /config rule)."
        )
    return None


class FortunesWindsEngine(Engine[Rules, State, Action, Event]):
    """Fortunes and Winds as the table service drives it (bot/games/contract.py)."""

    def ply(self, state: State) -> int:
        return state.ply

    def waiting_on(self, state: State) -> list[int]:
        """The shooter, to bet, roll or choose after a win (the betting window only delays
        their roll, so a shooter who has just bet is not told again when it closes)."""
        return [] if state.finished else [state.shooter]

    name = "fortunes_winds"

    def honours_at_end(
        self, state: State, events: Sequence[Mapping[str, Any]]
    ) -> list[tuple[int, str]]:
        """Rolling Fortunes and Winds earns the shooter an honour."""
        return [
            (int(event["shooter"]), FORTUNES_AND_WINDS_HONOUR)
            for event in events
            if event.get("kind") == "rolled" and event.get("result") == "fortunes_and_winds"
        ]

    join_action = Join
    leave_action = Leave
    permissions = PERMISSIONS
    seats_by_wallet = True

    def seat_order(
        self, rules: Rules, players: list[int], balances: Mapping[int, int]
    ) -> list[int]:
        """With a player banker the richest seated player banks (the rules file): they take
        the first seat, the rest keep their order; a tie goes to whoever sat down first."""
        if not rules.player_banker or not players:
            return list(players)
        richest = max(players, key=lambda p: (balances.get(p, 0), -players.index(p)))
        return [richest, *(p for p in players if p != richest)]

    def start(self, rules: Rules, players: list[int], dice: Dice) -> State:
        """Seat the players in the order given (see :meth:`seat_order`); the first seat
        shoots first (with a player banker, the first seat banks and the second shoots).
        No dice are used."""
        low, high = self.seat_limits(rules)
        if not low <= len(players) <= high:
            raise IllegalMove(
                "A Fortunes and Winds table seats {low} to {high} players.", low=low, high=high
            )
        if len(set(players)) != len(players):
            raise IllegalMove("Each player can take only one seat.")
        if HOUSE in players:
            raise IllegalMove("That player id is reserved for the bank.")
        refusal = house_seat_refusal(rules)
        if refusal is not None and any(player in rules.house_seats for player in players):
            # house_seat_refusal has one sentence: the template says it whole.
            raise IllegalMove(
                "The computer never sits at a house-banked table whose house guard is off "
                "(this server's moderators switched it off with /config rule). Remove the "
                "computer, or play with the guard on."
            )
        banker = players[0] if rules.player_banker else None
        shooter = players[1] if rules.player_banker else players[0]
        return State(
            rules=rules,
            seats=list(players),
            banker=banker,
            shooter=shooter,
            stakes={p: 0 for p in players},
            payouts={HOUSE: 0} | {p: 0 for p in players},
        )

    def act(
        self, state: State, player: int | None, action: Action, dice: Dice
    ) -> tuple[State, list[Event]]:
        """Apply one action by ``player`` (``None``: the table) to a copy of ``state``."""
        return RULEBOOK.act(state, player, action, dice)

    def seat_limits(self, rules: Rules) -> tuple[int, int]:
        """One player at least (two with a player banker: one banks, one shoots)."""
        return (2 if rules.player_banker else 1, rules.max_players)

    def hold(self, rules: Rules) -> int:
        """Coins held on taking a seat: none, money goes down as bets."""
        return 0

    def player_banker(self, state: State) -> int | None:
        """The richest eligible member banks with the player_banker rule; else the house."""
        return state.banker

    def stake_range(self, rules: Rules) -> tuple[int, int]:
        """The table's bet limits: a seat holds nothing, every coin goes down as a bet."""
        return (rules.min_stake, rules.max_stake)

    def deadline_seconds(self, state: State) -> int | None:
        """The betting window while it is open, else the shooter's time to act (to bet,
        to roll, to choose after a win)."""
        if state.finished:
            return None
        if state.window_open:
            return state.rules.bet_seconds
        return state.rules.roll_seconds

    def legal_actions(self, state: State, player: int) -> list[Action]:
        """Every move ``player`` may make now (bets at the table minimum)."""
        candidates: list[Action] = [
            Roll(),
            NewTurn(),
            PassDice(),
            Ready(),
            *(Bet(kind=kind, amount=_least_bet(state.rules.min_stake, kind)) for kind in BET_KINDS),
        ]
        if _keeping_now(state):
            free = [die for die in WHITE_DICE if die not in state.set_aside]
            room = 3 - len(state.set_aside)
            for size in range(1, room + 1):
                for combo in _subsets(free, size):
                    candidates.append(SetAside(dice=combo))
        return RULEBOOK.legal_actions(state, player, candidates)

    def bank_exposure(self, state: State) -> int:
        """The most the house could pay out on the open bets (0 with a player banker,
        whose own wallet covers them through their stake)."""
        if state.banker is not None:
            return 0
        return banker_exposure(state)


def _least_bet(min_stake: int, kind: BetKind) -> int:
    """The table minimum rounded up to the kind's whole-pays multiple."""
    step = whole_pays_step(kind)
    return -(-min_stake // step) * step


def _subsets(items: Sequence[WhiteDie], size: int) -> Iterable[list[WhiteDie]]:
    if size == 0:
        yield []
        return
    for index, item in enumerate(items):
        for rest in _subsets(items[index + 1 :], size - 1):
            yield [item, *rest]


ENGINE = FortunesWindsEngine(
    rules_model=Rules, state_model=State, action_type=TAGGED_ACTIONS, event_type=Event
)


PLAYOUT_VARIANTS: tuple[Rules, ...] = (
    Rules(),
    Rules(player_banker=True, house_guard=False, bet_seconds=0),
)
"""The rules the contract's random playouts cover (tests/games/test_contract.py): the
house's bank, and a player's bank with no betting window."""
"""Fortunes and Winds' engine; the module-level functions below are its bound methods
(``act`` is the rulebook's, which ``ENGINE.act`` calls: one call less on every action)."""

start = ENGINE.start
act = RULEBOOK.act
seat_limits = ENGINE.seat_limits
hold = ENGINE.hold
deadline_seconds = ENGINE.deadline_seconds
bank_exposure = ENGINE.bank_exposure
legal_actions = ENGINE.legal_actions
parse_action = ENGINE.parse_action
parse_event = ENGINE.parse_event
