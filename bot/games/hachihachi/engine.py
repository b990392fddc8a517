"""Nuki Hachi-hachi: the checks of every action, the legal moves, the deadline's default
and :data:`ENGINE`."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, ClassVar, TypeVar, cast

from pydantic import BaseModel

from bot.games.common import Abort, Deadline, Permission
from bot.games.contract import Engine
from bot.games.dice import Dice
from bot.games.errors import IllegalMove
from bot.games.hachihachi import match
from bot.games.hachihachi import round as rnd
from bot.games.hachihachi.cards import CARDS, MONTHS
from bot.games.hachihachi.models import (
    Action,
    Cancel,
    CaptureDrawn,
    ClaimTeyaku,
    Event,
    Forfeited,
    Mizuten,
    Participate,
    Play,
    Rules,
    Sage,
    Shoubu,
    State,
    Uncovered,
)
from bot.games.hachihachi.yaku import group_a
from bot.games.kit import (
    Move,
    Rulebook,
    build,
    only_the_table,
    seated_move,
    the_service_decides,
)
from bot.games.said import Said
from bot.i18n import N_

PERMISSIONS: dict[type[BaseModel], Permission] = {}
"""Every action is a seated player's (Abort is a moderator's, Deadline the table's: the
registry says so for every game)."""

# ------------------------------------------------------------------------ checks

_WAITING: dict[str, str] = {
    "mizuten": "The dealer is deciding on mizuten first.",
    "participate": "Players are still choosing to play or drop.",
    "claim": "The dealer's first draw waits for the teyaku claims.",
    "play": "A card from the hand is played now.",
    "capture_drawn": "The drawn card's capture is being chosen.",
    "call": "Sage or shoubu is being called.",
    "over": "This match is over.",
}


def _card(card: str, *, capitalized: bool = False) -> Said:
    """A card named in a refusal: "the Curtain" in English, the card's own name (桜に幕)
    in another language."""
    name = rnd.card_name(card)
    return Said(name.capitalize() if capitalized else name, CARDS[card].name)


def _need_turn(s: State, player: int, phase: str, doing: str) -> None:
    """Refuse unless ``player`` owes the decision of ``phase`` now."""
    if s.phase == phase and s.turn == player:
        return
    if s.active and player not in s.active and s.phase not in ("mizuten", "participate"):
        raise IllegalMove("You sat this round out: you play again next round.")
    if s.turn != player:
        raise IllegalMove("It isn't your turn to {doing}.", doing=Said(doing))
    if s.phase == "capture_drawn":
        raise IllegalMove("First choose which field card your drawn card captures.")
    if s.phase == "call":
        raise IllegalMove("First call sage (go on) or shoubu (end the round).")
    raise IllegalMove(
        "You can't {doing} now. {waiting}", doing=Said(doing), waiting=Said(_WAITING[s.phase])
    )


def _check_mizuten(s: State, player: int, action: Mizuten) -> None:
    _need_turn(s, player, "mizuten", "decide on mizuten")


def _check_participate(s: State, player: int, action: Participate) -> None:
    _need_turn(s, player, "participate", "play or drop")


def _check_claim(s: State, player: int, action: ClaimTeyaku) -> None:
    """A claim step is nobody's turn: any active player who has not taken theirs may,
    from the line-up until the dealer's first draw."""
    if s.active and player not in s.active:
        raise IllegalMove("You sat this round out: you play again next round.")
    if not s.claims_open:
        if s.rules.teyaku_claims == "auto":
            raise IllegalMove("Teyaku are claimed for everyone at this table.")
        if s.phase in ("mizuten", "participate"):
            raise IllegalMove(
                "Teyaku claims open after the line-up. {waiting}", waiting=Said(_WAITING[s.phase])
            )
        raise IllegalMove("Teyaku claims closed when the dealer drew their first card.")
    if player not in s.to_claim:
        raise IllegalMove("You have already taken your claim step this round.")
    groups = s.to_claim[player]
    if action.claim and not groups:
        raise IllegalMove("Your hand holds no teyaku: there is nothing to claim.")
    if action.group is not None and action.group not in groups:
        raise IllegalMove(
            "You have no Group {group} teyaku left to claim or decline.", group=action.group
        )
    if action.month is not None:
        found = group_a(s.claim_hands[player])
        months = found.triplet_months if found else ()
        if not action.claim or (action.group or "A") != "A" or "A" not in groups:
            raise IllegalMove("A month is named only when claiming a Group A triplet.")
        if action.month not in months:
            raise IllegalMove("Name the month of a triplet in your hand.")


def _check_play(s: State, player: int, action: Play) -> None:
    _need_turn(s, player, "play", "play a card")
    card = action.card
    if card not in CARDS:
        raise IllegalMove("There is no card called {card}.", card=repr(card))
    if card not in s.hands[player]:
        raise IllegalMove("You don't hold {card}.", card=_card(card))
    _check_capture(s.field, card, action.capture)


def _check_capture(field: list[str], card: str, capture: str | None) -> None:
    found = rnd.matches(field, card)
    if capture is None:
        if len(found) == 2:
            first, second = found
            raise IllegalMove(
                "Two field cards match {card}: choose {first} or {second}.",
                card=_card(card),
                first=_card(first),
                second=_card(second),
            )
        return
    if capture in found:
        return
    if capture not in field:
        raise IllegalMove("{card} isn't on the field.", card=_card(capture, capitalized=True))
    month = MONTHS[CARDS[card].month].name
    raise IllegalMove(
        "{card} ({month}) can't capture {capture}: only a card of its own month.",
        card=_card(card, capitalized=True),
        month=Said(month),
        capture=_card(capture),
    )


def _check_capture_drawn(s: State, player: int, action: CaptureDrawn) -> None:
    _need_turn(s, player, "capture_drawn", "choose a capture")
    assert s.drawn is not None
    _check_capture(s.field, s.drawn, action.capture)


def _check_call(s: State, player: int, action: Sage | Shoubu) -> None:
    if s.phase == "call" and s.turn == player:
        return
    if s.turn == player:
        if isinstance(action, Sage):
            raise IllegalMove(
                "Sage is called only right after your turn formed or improved a dekiyaku."
            )
        raise IllegalMove(
            "Shoubu is called only right after your turn formed or improved a dekiyaku."
        )
    _need_turn(s, player, "call", "call")


def _check_cancel(s: State, player: int, action: Cancel) -> None:
    _need_turn(s, player, "play", "cancel")
    if player not in s.sage_calls:
        raise IllegalMove("You can cancel only after you have called sage this round.")


# ------------------------------------------------------------------------ moves
# A decision's effect, shared by a player's own action, the deadline and a forfeiter's
# auto-play: ``(state copy, player, action, dice, by_deadline) -> events``.


def _decide(s: State, player: int, action: Any, dice: Dice, by_deadline: bool) -> list[Event]:
    kind = type(action)
    if kind is Play:
        events, end = rnd.play_card(s, player, action.card, action.capture, by_deadline)
    elif kind is CaptureDrawn:
        events, end = rnd.capture_drawn(s, player, action.capture, by_deadline)
    elif kind is Sage or kind is Shoubu:
        events, end = rnd.call(s, player, kind is Shoubu, by_deadline)
    elif kind is Cancel:
        events, end = rnd.cancel(s, player, by_deadline)
    elif kind is Participate:
        events, end = rnd.participate(s, player, action.play, dice, by_deadline)
    elif kind is Mizuten:
        events, end = rnd.decide_mizuten(s, player, action.declare, dice, by_deadline)
    elif kind is ClaimTeyaku:
        events, end = rnd.claim(s, player, action.claim, action.group, action.month, by_deadline)
    else:  # pragma: no cover - the rulebook only routes the actions above here
        raise AssertionError(kind)
    if end is not None:
        events.extend(match.end_round(s, end, dice))
    return events


def _autoplay(s: State, dice: Dice, events: list[Event]) -> None:
    """A forfeiter's decisions are the table's, at once (the others still act); once a
    moderator ended the match, everyone's are."""
    forfeited = s.seats if s.aborted else s.forfeited
    if not forfeited:
        return
    for _ in range(1000):
        if s.finished or s.turn not in forfeited:
            return
        player = s.turn
        assert player is not None
        if s.phase == "claim":
            if not s.aborted:
                return  # a claim step is never the table's before the deadline
            more, end = rnd.close_claims(s)
            if end is not None:
                more.extend(match.end_round(s, end, dice))
            events.extend(more)
            continue
        events.extend(_decide(s, player, _default(s, player), dice, True))
    raise AssertionError("a forfeiter's round did not end")  # pragma: no cover


_A = TypeVar("_A", bound=BaseModel)


def _player_move(check: Callable[[State, int, _A], None]) -> Move[State, _A, Event]:
    def apply(s: State, player: int, action: _A, dice: Dice) -> list[Event]:
        events = _decide(s, player, action, dice, False)
        # A claim step nobody else sees (a decline, "nothing to claim") leaves the ply,
        # and so every button anyone holds, as it was: it must change nothing visible.
        silent = isinstance(action, ClaimTeyaku) and not events
        if not silent:
            s.ply += 1
        if s.idle.get(player):
            s.idle = {**s.idle, player: 0}
        _autoplay(s, dice, events)
        return events

    return seated_move(check, apply)


def _apply_deadline(s: State, player: int | None, action: Deadline, dice: Dice) -> list[Event]:
    """The decision in wait is played as its default (the first legal action) and counts
    as idle for its player; enough in a row forfeit (the round is played out at once)."""
    if s.phase == "claim":
        # The dealer's first draw waited for claim steps: untaken, they claim nothing
        # (silent, so no one's idleness either), and the draw happens.
        closed, end = rnd.close_claims(s)
        if end is not None:
            closed.extend(match.end_round(s, end, dice))
        s.ply += 1
        _autoplay(s, dice, closed)
        return closed
    who = s.turn
    assert who is not None
    idle = s.idle.get(who, 0) + 1
    events: list[Event] = []
    s.idle = {**s.idle, who: idle}
    if idle >= s.rules.afk_rounds_to_forfeit and who not in s.forfeited:
        # Marked before the decision so a round it completes is the match's last.
        s.forfeited = [*s.forfeited, who]
        events.append(build(Forfeited, player=who))
    events.extend(_decide(s, who, _default(s, who), dice, True))
    s.ply += 1
    _autoplay(s, dice, events)
    return events


def _check_deadline(s: State, player: int | None, action: Deadline) -> None:
    only_the_table(s, player, action)


def _check_uncovered(s: State, player: int | None, action: Uncovered) -> None:
    only_the_table(s, player, action)
    if action.player not in s.seats:
        raise IllegalMove("Only a seated player's cover can fall short.")
    if action.player in s.uncovered:
        raise IllegalMove("That player is already known not to cover another round.")


def _apply_uncovered(s: State, player: int | None, action: Uncovered, dice: Dice) -> list[Event]:
    # No ply: the note is applied in the same transaction as the scoring action it
    # precedes, which moves the ply itself.
    return match.uncovered(s, action.player)


def _apply_abort(s: State, player: int | None, action: Abort, dice: Dice) -> list[Event]:
    """A moderator ends the match. Settled rounds stand, and the round dealt is played out
    at once by the table's defaults and scored as played: voiding it would let a moderator
    undo a seated friend's loss in that round (its teyaku, a dekiyaku already made)."""
    events = match.abort(s, player)
    _autoplay(s, dice, events)
    s.ply += 1
    return events


RULEBOOK: Rulebook[State, Action, Event] = Rulebook(
    {
        Mizuten: _player_move(_check_mizuten),
        Participate: _player_move(_check_participate),
        ClaimTeyaku: _player_move(_check_claim),
        Play: _player_move(_check_play),
        CaptureDrawn: _player_move(_check_capture_drawn),
        Sage: _player_move(_check_call),
        Shoubu: _player_move(_check_call),
        Cancel: _player_move(_check_cancel),
        Uncovered: Move(_check_uncovered, _apply_uncovered),
        Deadline: Move(_check_deadline, _apply_deadline),
        Abort: Move(the_service_decides, _apply_abort),
    },
    finished=N_("This Hachi-hachi match is over."),
)


# ------------------------------------------------------------------ legal moves
# Built unvalidated (kit.build): a playout lists them at every decision. The first one
# is the deadline's default (rulings in the package notes).

_NO_MIZUTEN = build(Mizuten, declare=False)
_MIZUTEN = build(Mizuten, declare=True)
_DROP = build(Participate, play=False)
_PLAY = build(Participate, play=True)
_SHOUBU = build(Shoubu)
_SAGE = build(Sage)
_CANCEL = build(Cancel)
_PLAYS: dict[tuple[str, str | None], Play] = {}


def _play(card: str, capture: str | None) -> Play:
    key = (card, capture)
    found = _PLAYS.get(key)
    if found is None:
        found = _PLAYS[key] = build(Play, card=card, capture=capture)
    return found


def _moves(s: State, player: int) -> list[Any]:
    if s.finished:
        return []
    # A claim step is nobody's turn; it comes after a turn's own moves (the deadline's
    # default is the turn's, and an untaken step claims nothing).
    steps = _claim_moves(s, player) if s.claims_open and player in s.to_claim else []
    if s.turn != player or s.phase == "claim":
        return steps
    return [*_turn_moves(s, player), *steps]


def _turn_moves(s: State, player: int) -> list[Any]:
    phase = s.phase
    if phase == "play":
        field = s.field
        month = rnd.MONTH
        moves: list[Any] = []
        for card in s.hands[player]:
            m = month[card]
            found = [other for other in field if month[other] == m]
            if len(found) == 2:
                moves.append(_play(card, found[0]))
                moves.append(_play(card, found[1]))
            else:
                moves.append(_play(card, None))
        if player in s.sage_calls:
            moves.append(_CANCEL)
        return moves
    if phase == "capture_drawn":
        assert s.drawn is not None
        return [build(CaptureDrawn, capture=other) for other in rnd.matches(s.field, s.drawn)]
    if phase == "call":
        return [_SHOUBU, _SAGE]
    if phase == "mizuten":
        return [_NO_MIZUTEN, _MIZUTEN]
    if phase == "participate":
        return [_DROP, _PLAY]
    return []


def _claim_moves(s: State, player: int) -> list[Any]:
    """A claim step: declining (or "nothing to claim") first, then each claim."""
    groups = s.to_claim.get(player, [])
    if not groups:
        return [build(ClaimTeyaku, claim=False)]
    moves: list[Any] = [build(ClaimTeyaku, claim=False), build(ClaimTeyaku, claim=True)]
    found = group_a(s.claim_hands[player]) if "A" in groups else None
    months = found.triplet_months if found is not None and len(found.triplet_months) > 1 else ()
    moves.extend(build(ClaimTeyaku, claim=True, month=month) for month in months)
    if len(groups) > 1:
        for group in groups:
            moves.append(build(ClaimTeyaku, claim=True, group=group))
            moves.append(build(ClaimTeyaku, claim=False, group=group))
            if group == "A":
                moves.extend(
                    build(ClaimTeyaku, claim=True, group="A", month=month) for month in months
                )
    return moves


def _default(s: State, player: int) -> Any:
    """The deadline's choice: the first legal action (a turn plays the hand's first card
    with its first capture; never a cancel)."""
    return _moves(s, player)[0]


# ---------------------------------------------------------------------- the engine


class HachihachiEngine(Engine[Rules, State, Action, Event]):
    """Nuki Hachi-hachi as the table service drives it (bot/games/contract.py)."""

    def ply(self, state: State) -> int:
        return state.ply

    def waiting_on(self, state: State) -> list[int]:
        """The player whose decision the table waits for."""
        return [] if state.finished or state.turn is None else [state.turn]

    def winners(self, state: State) -> list[int]:
        return list(state.winners)

    name = "hachihachi"
    permissions = PERMISSIONS
    charges_at_reveal = True
    """A scored round's loss is put back into escrow from the wallet before the next round
    (:meth:`top_up`); when it cannot be, :meth:`shortfall` ends the match after it."""
    secret_choices: ClassVar[Mapping[str, str]] = {"claim_teyaku": "claim"}

    def reveals(self, event: Mapping[str, Any]) -> Mapping[str, Collection[int] | None]:
        """A claim is announced as it is made; a decline (or "nothing to claim") never is."""
        if event.get("kind") == "teyaku_claimed":
            return {"claim": {int(event["player"])}}
        return {}

    def start(self, rules: Rules, players: list[int], dice: Dice) -> State:
        """Seat the players in the order given, draw the first dealer (§4, or seat 0 with
        ``first_dealer="first_seat"``) and deal the first round."""
        return match.new_match(rules, players, dice)

    def act(
        self, state: State, player: int | None, action: Action, dice: Dice
    ) -> tuple[State, list[Event]]:
        return RULEBOOK.act(state, player, action, dice)

    def seat_limits(self, rules: Rules) -> tuple[int, int]:
        """The lobby seats exactly ``seated_players``."""
        return (rules.seated_players, rules.seated_players)

    def hold(self, rules: Rules) -> int:
        """The match's worst-case loss in coins (see :mod:`bot.games.hachihachi.match`)."""
        return match.hold(rules)

    def top_up(self, before: State, after: State, player: int) -> int:
        """Coins ``player``'s wallet puts back into escrow after a scored round (a stake:
        see :mod:`bot.games.hachihachi.match`)."""
        return match.top_up(before, after, player)

    def shortfall(self, state: State, player: int) -> Uncovered | None:
        """``player`` cannot put back what the round about to be scored takes: the table's
        note that ends the match after it (``None`` once noted, or for a non-player)."""
        if state.finished or player not in state.seats or player in state.uncovered:
            return None
        return build(Uncovered, player=player)

    def deadline_seconds(self, state: State) -> int | None:
        if state.finished:
            return None
        return state.rules.turn_seconds

    def legal_actions(self, state: State, player: int) -> list[Action]:
        """Every action ``player`` may send now (empty when no decision is theirs); the
        first is what the deadline plays."""
        return cast(list[Action], list(_moves(state, player)))


ENGINE = HachihachiEngine(
    rules_model=Rules, state_model=State, action_type=Action, event_type=Event
)


PLAYOUT_VARIANTS: tuple[Rules, ...] = (
    Rules(rounds=2),
    Rules(
        seated_players=3,
        rounds=1,
        teyaku_claims="manual",
        dropout_penalties=True,
        forced_out_compensation=True,
    ),
    Rules(seated_players=4, rounds=1, field_multiplier_mode="stack"),
)
"""The rules the contract's random playouts cover (tests/games/test_contract.py)."""
"""Nuki Hachi-hachi's engine; the module-level functions below are its bound methods
(``act`` is the rulebook's, which ``ENGINE.act`` calls: one call less on every action)."""

start = ENGINE.start
act = RULEBOOK.act
seat_limits = ENGINE.seat_limits
hold = ENGINE.hold
top_up = ENGINE.top_up
shortfall = ENGINE.shortfall
deadline_seconds = ENGINE.deadline_seconds
legal_actions = ENGINE.legal_actions
parse_action = ENGINE.parse_action
parse_event = ENGINE.parse_event
