"""Strength Duel: ninjas secretly bid strength; the lower bid pays to roll away.

The authoritative rules are ``shared/rules/strength-duel.md``; this module implements
them for four modes (``duel``, ``forbidden``, ``three``, ``tag``) and settles the gaps
below. Every ruling is also explained to players in ``bot/rules_text/strength_duel.md``.

Rulings made here (beyond those in the rules file):

- A ninja who cannot pay a round's extra loss keeps the strength left after their bid
  (the seed's sample ends "A: 1 left, cannot pay 3") and is out: in two-player play they
  lose, in three-player play they are eliminated, in tag mode they die.
- Zero strength: after a round, a ninja left at 0 while another contender still has
  strength is out at once (they could only ever bid 0 and never pay the extra). If every
  remaining contender is at 0 together, it is a draw between them. In tag mode an
  in-ninja left at 0 dies, for the same reason; their partner must come in.
- Forbidden number not chosen by the forbid deadline: the ninja is given 0. It is the
  costliest choice (0 is the cheapest bid), so waiting never pays; it also counts as one
  missed round towards the AFK forfeit.
- Missing bid: the lowest number the ninja may bid, i.e. 0, or 1 when 0 is their
  forbidden number (a ninja who must bid always has at least 1 strength, so 1 is legal).
- AFK: ``afk_rounds_to_forfeit`` missed rounds in a row forfeit. The round in which the
  limit is reached is played first (with the default bid); if it does not already end the
  game, the player is out. In tag mode the AFK ninja dies (their partner must come in)
  rather than forfeiting for the whole team, so a present partner can still win. If every
  remaining contender forfeits at once, it is a draw between them.
- A tag request is refused when the partner is dead (nobody could come in).
- Round limit: games can otherwise run forever (two ninjas bidding 0, or tag teams trading
  1s while the bench recovers). After ``max_rounds`` rounds without a result the game ends:
  the most strength wins (tag: the team's total over living ninjas); a tie is a draw
  between the tied.
- Abort (a moderator ends a started table): nothing is settled before the game ends, so
  every stake goes back to its owner; the game is over with no winner and no draw
  (``aborted`` is set). Unrevealed bids stay secret; forbidden numbers are revealed, as
  at any end.
- Ended early where the house stakes the computer's seat (the rules' "Ended early"): a
  returned stake would let a member have every losing game ended (+49.9% of the stake at
  best play), so the moderator's end sends :class:`SettleAtValue` instead of Abort and the
  pot is settled at the position's exact value: the member receives the pot times their
  equilibrium chance of winning from the current strengths, rounded down, the house seat
  the rest (``settled``). The chance comes with the action (:func:`at_value` builds it
  from the table the computer plays by, handed in by the caller), so the log and a replay
  say what was paid and why. A duel between members ended by a moderator still returns
  every stake.
- Money: the pot (every stake) goes to the winner, or is split evenly between the winning
  team or the ninjas who drew (the remainder one coin at a time in seat order). When
  everyone draws that is a refund. In three-player play a ninja eliminated earlier is not
  part of a later draw and loses their stake.

How the module is built (``bot/games/kit.py`` explains the shared pieces): one
:class:`StrengthDuelEngine`, exported as ``ENGINE``; the module-level ``start``, ``act``,
``seat_limits``, ``hold``, ``deadline_seconds`` and ``legal_actions`` are its bound
methods, so the surface in ENGINE_CONTRACT.md and the typed contract are the same code.
``act`` dispatches through a :class:`~bot.games.kit.Rulebook`: each action's ``_check_*``
refuses with a reason and touches nothing, then its ``_apply_*`` builds the next state on
a shallow copy by replacing fields and containers, never changing one the previous state
still holds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping, Sequence
from fractions import Fraction
from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import BaseModel, Field

from bot.games.common import (
    HOUSE,
    Abort,
    Deadline,
    Frozen,
    Permission,
    PrivateEvent,
    Ranking,
    ranked_alone,
    ranked_by,
)
from bot.games.contract import Engine
from bot.games.dice import Dice
from bot.games.errors import IllegalMove
from bot.games.kit import Move, Rulebook, only_the_table, split_evenly, the_service_decides
from bot.i18n import N_

Mode = Literal["duel", "forbidden", "three", "tag"]

STARTING_STRENGTH: dict[str, int] = {"duel": 25, "forbidden": 50, "three": 50, "tag": 25}
"""Strength each ninja starts with, by mode."""

ROLL_AWAY = 3
"""What the lower bidder of a two-ninja round pays on top of their bid."""

TAG_CAP = 25
"""A benched tag-team ninja recovers 1 a round up to this."""

FORBID_RANGE = range(0, 6)
"""Numbers a ninja may forbid themselves in the forbidden-number variant."""

TIMEOUT_FORBIDDEN = 0
"""The forbidden number given to a ninja who did not choose one in time."""


# --------------------------------------------------------------------------- rules


class Rules(Frozen):
    """Variant and table settings."""

    mode: Mode = "duel"
    stake: int = Field(default=10, ge=0)
    round_seconds: int = Field(default=120, ge=1)
    afk_rounds_to_forfeit: int = Field(default=3, ge=1)
    max_rounds: int = Field(default=100, ge=1)


SEATS: dict[Mode, int] = {"duel": 2, "forbidden": 2, "three": 3, "tag": 4}
"""Seats a table has, by mode (exactly that many)."""


# --------------------------------------------------------------------------- actions


class Bid(Frozen):
    """Spend ``amount`` strength this round; in tag mode optionally ask to tag out."""

    kind: Literal["bid"] = "bid"
    amount: int
    tag_out: bool = False


class Forbid(Frozen):
    """Choose one's forbidden number (forbidden-number variant, before round 1)."""

    kind: Literal["forbid"] = "forbid"
    number: int


class SettleAtValue(Frozen):
    """A moderator ends a duel in which the house stakes the seat ``house`` (a computer's):
    the pot is settled at the position's value instead of going back. ``chance``: the other
    seat's equilibrium chance of winning from the current strengths (a draw counts half),
    read from the table the computer plays by (:func:`at_value`); that seat receives the
    pot times it, rounded down, and the house seat the rest. Only the table service sends
    it, in place of :class:`Abort`, and only a moderator not seated may have it sent."""

    kind: Literal["settle_at_value"] = "settle_at_value"
    house: int
    chance: float = Field(ge=0.0, le=1.0)


Action = Annotated[Bid | Forbid | Deadline | Abort | SettleAtValue, Field(discriminator="kind")]
ACTIONS: tuple[type[BaseModel], ...] = get_args(get_args(Action)[0])
"""The action models ``act`` accepts, read off the ``Action`` union (one list, not two)."""


# --------------------------------------------------------------------------- events


class Elimination(BaseModel):
    """A ninja who went out in a round, and why."""

    player: int
    reason: Literal["could_not_pay", "no_strength", "forfeit"]


class RoundRecord(BaseModel):
    """A revealed round, as kept in ``State.history`` and shown in the reveal."""

    round: int
    bids: dict[int, int]
    defaulted: list[int] = Field(default_factory=list)
    """Ninjas whose bid was set by the deadline."""
    tag_requests: list[int] = Field(default_factory=list)
    lost_round: list[int] = Field(default_factory=list)
    """Ninjas who owed an extra loss (the lower bidder(s))."""
    extra: dict[int, int] = Field(default_factory=dict)
    """Extra loss actually paid by each ninja who could pay it."""
    eliminated: list[Elimination] = Field(default_factory=list)
    recovered: list[int] = Field(default_factory=list)
    """Tag mode: benched ninjas who regained 1 strength."""
    strength: dict[int, int]
    """Everyone's strength after the round."""
    in_play: list[int] = Field(default_factory=list)
    """Tag mode: the in-ninjas for the next round, after tags."""


class PlayerBid(BaseModel):
    """Public: a ninja has bid (never how much, whether it changed, or a tag request)."""

    kind: Literal["player_bid"] = "player_bid"
    player: int
    round: int


class BidConfirmed(PrivateEvent):
    """Private to the bidder: the bid the engine holds for them."""

    kind: Literal["bid_confirmed"] = "bid_confirmed"
    round: int
    amount: int
    tag_out: bool
    changed: bool


class ForbidChosen(BaseModel):
    """Public: a ninja has chosen their forbidden number (never which)."""

    kind: Literal["forbid_chosen"] = "forbid_chosen"
    player: int


class ForbidConfirmed(PrivateEvent):
    """Private: the ninja's forbidden number; ``assigned`` when the deadline gave it."""

    kind: Literal["forbid_confirmed"] = "forbid_confirmed"
    number: int
    assigned: bool = False


class ForbidClosed(BaseModel):
    """Public: the forbid phase ended by deadline; who timed out and who forfeited."""

    kind: Literal["forbid_closed"] = "forbid_closed"
    timed_out: list[int]
    forfeited: list[int]


class RoundOpened(BaseModel):
    """Public: a new round of bidding starts."""

    kind: Literal["round_opened"] = "round_opened"
    round: int
    must_bid: list[int]
    in_play: list[int] = Field(default_factory=list)


class RoundRevealed(RoundRecord):
    """Public: every bid of the round at once, and what followed."""

    kind: Literal["round_revealed"] = "round_revealed"


class GameOver(BaseModel):
    """Public: the result, the money, and every forbidden number revealed."""

    kind: Literal["game_over"] = "game_over"
    winner: int | None
    draw: bool
    pot_to: list[int]
    reason: Literal["round", "forfeit", "round_limit"]
    strength: dict[int, int]
    forbidden: dict[int, int]
    payouts: dict[int, int]


class Aborted(BaseModel):
    """Public: a moderator ended the game; every stake went back to its owner."""

    kind: Literal["aborted"] = "aborted"
    by: int | None
    round: int
    strength: dict[int, int]
    forbidden: dict[int, int]


class SettledAtValue(BaseModel):
    """Public: a moderator ended a duel the house stakes; the pot was settled at the
    position's value: ``shares`` is what each seat received of the ``pot`` (the member's
    ``chance`` of it, rounded down; the house seat the rest)."""

    kind: Literal["settled_at_value"] = "settled_at_value"
    by: int | None
    round: int
    strength: dict[int, int]
    forbidden: dict[int, int]
    member: int
    house: int
    chance: float
    pot: int
    shares: dict[int, int]


Event = Annotated[
    PlayerBid
    | BidConfirmed
    | ForbidChosen
    | ForbidConfirmed
    | ForbidClosed
    | RoundOpened
    | RoundRevealed
    | GameOver
    | Aborted
    | SettledAtValue,
    Field(discriminator="kind"),
]


# --------------------------------------------------------------------------- state


class State(BaseModel):
    """The whole game. Holds secrets (``bids``, ``tag_requests``, ``forbidden``): never
    show it raw."""

    rules: Rules
    seats: list[int]
    phase: Literal["forbid", "bid", "over"]
    round: int
    """The round being bid (0 in the forbid phase); after the end, the last one played."""
    ply: int = 0
    strength: dict[int, int]
    stakes: dict[int, int]
    payouts: dict[int, int]
    finished: bool = False
    winner: int | None = None
    """The winner; in tag mode the winning team's first-seated player."""
    draw: bool = False
    aborted: bool = False
    """Ended by a moderator: no winner, no draw; every stake returned, or, in a duel the
    house stakes, the pot settled at the position's value (``settled``)."""
    settled: dict[int, int] = Field(default_factory=dict)
    """What each seat received of the pot when a moderator's end settled it at the
    position's value (:class:`SettleAtValue`); empty otherwise."""
    pot_to: list[int] = Field(default_factory=list)
    """Who shared the pot: the winner, the winning team, or those who drew."""
    must_bid: list[int]
    """Who must act at this decision point (forbid phase: choose a number)."""
    bids: dict[int, int] = Field(default_factory=dict)
    """Secret: this round's bids so far."""
    tag_requests: list[int] = Field(default_factory=list)
    """Secret: in-ninjas who asked to tag out with this round's bid."""
    forbidden: dict[int, int] = Field(default_factory=dict)
    """Secret until the end: forbidden numbers."""
    teams: list[list[int]] = Field(default_factory=list)
    """Tag mode: ``[[seat1, seat2], [seat3, seat4]]``."""
    in_play: list[int] = Field(default_factory=list)
    """Tag mode: the in-ninja of each team, team order."""
    eliminated: list[int] = Field(default_factory=list)
    """Ninjas out of the game (lost, eliminated, dead or forfeited), in order."""
    missed: dict[int, int]
    """Decision points missed in a row by each player."""
    history: list[RoundRecord] = Field(default_factory=list)


# --------------------------------------------------------------------------- helpers


def team_of(state: State, player: int) -> list[int]:
    """Tag mode: the player's team (two ids); empty in other modes."""
    for team in state.teams:
        if player in team:
            return list(team)
    return []


def partner_of(state: State, player: int) -> int | None:
    """Tag mode: the player's partner; ``None`` in other modes."""
    others = [p for p in team_of(state, player) if p != player]
    return others[0] if others else None


def legal_bids(state: State, player: int) -> list[int]:
    """Amounts the player may bid now (empty when they have nothing to bid)."""
    if state.finished or state.phase != "bid" or player not in state.must_bid:
        return []
    banned = state.forbidden.get(player)
    return [n for n in range(state.strength[player] + 1) if n != banned]


def waiting_for(state: State) -> list[int]:
    """Players whose choice the current decision point still awaits, in seat order."""
    if state.finished:
        return []
    done = state.forbidden if state.phase == "forbid" else state.bids
    return [p for p in state.must_bid if p not in done]


def _in_seat_order(state: State, players: set[int] | list[int]) -> list[int]:
    return [p for p in state.seats if p in players]


def _alive(s: State) -> list[int]:
    return [p for p in s.seats if p not in s.eliminated]


# --------------------------------------------------------------------------- checks
# Each check refuses with the reason shown to the player and changes nothing.


_WRONG_COUNT: dict[str, str] = {
    # One whole sentence per mode: the mode's name sits inside the sentence.
    "duel": N_("Strength Duel (duel) needs exactly {count} players."),
    "forbidden": N_("Strength Duel (forbidden) needs exactly {count} players."),
    "three": N_("Strength Duel (three) needs exactly {count} players."),
    "tag": N_("Strength Duel (tag) needs exactly {count} players."),
}


def _check_seated(state: State, player: int | None) -> None:
    if player is None or player not in state.seats:
        raise IllegalMove("You're not playing in this game.")


def _check_forbid(state: State, player: int | None, action: Forbid) -> None:
    _check_seated(state, player)
    if state.rules.mode != "forbidden":
        raise IllegalMove("There are no forbidden numbers in this mode.")
    if state.phase != "forbid":
        raise IllegalMove("Forbidden numbers are chosen before round 1; it's too late now.")
    if player in state.forbidden:
        raise IllegalMove("You've already chosen your forbidden number; it can't be changed.")
    if action.number not in FORBID_RANGE:
        raise IllegalMove("Your forbidden number must be a whole number from 0 to 5.")


def _check_bid(state: State, player: int | None, action: Bid) -> None:
    _check_seated(state, player)
    assert player is not None  # _check_seated refused the table
    _check_may_bid_now(state, player)
    if action.tag_out and state.rules.mode != "tag":
        raise IllegalMove("Tagging out only exists in the tag-team mode.")
    if action.amount < 0:
        raise IllegalMove("A bid can't be negative.")
    have = state.strength[player]
    if action.amount > have:
        raise IllegalMove(
            "You have only {have} strength, so you can't bid {amount}.",
            have=str(have),
            amount=str(action.amount),
        )
    if action.amount == state.forbidden.get(player):
        raise IllegalMove(
            "{amount} is your forbidden number: you can never bid it.", amount=str(action.amount)
        )
    if action.tag_out:
        partner = partner_of(state, player)
        if partner is None or partner in state.eliminated:
            raise IllegalMove("Your partner is dead, so nobody can come in: you can't tag out.")


def _check_may_bid_now(state: State, player: int) -> None:
    """Whether it is the player's turn to bid at all, whatever the amount."""
    if state.phase == "forbid":
        if player in state.forbidden:
            raise IllegalMove("Round 1 starts once everyone has chosen a forbidden number.")
        raise IllegalMove("Choose your forbidden number (0 to 5) before round 1.")
    if player in state.eliminated:
        if state.rules.mode == "tag":
            raise IllegalMove("Your ninja is dead, so you can't bid any more.")
        raise IllegalMove("You're out of this game, so you can't bid any more.")
    if player not in state.must_bid:
        raise IllegalMove(
            "You're sitting out this round: only the ninja who is in bids. "
            "You'll come in when your partner tags out."
        )


# --------------------------------------------------------------------------- moves
# Each apply gets the handler's fresh shallow copy ``s`` (kit.evolve) and replaces the
# fields it changes: the containers it receives are still the previous state's.


def _apply_forbid(s: State, player: int | None, action: Forbid, dice: Dice) -> list[Event]:
    assert player is not None  # _check_forbid refused the table
    s.forbidden = {**s.forbidden, player: action.number}
    events: list[Event] = [
        ForbidConfirmed(private_to=player, number=action.number),
        ForbidChosen(player=player),
    ]
    if not waiting_for(s):
        s.missed = {**s.missed, **dict.fromkeys(s.seats, 0)}
        s.ply += 1
        events.append(_open_first_round(s))
    return events


def _apply_bid(s: State, player: int | None, action: Bid, dice: Dice) -> list[Event]:
    assert player is not None  # _check_bid refused the table
    changed = player in s.bids
    s.bids = {**s.bids, player: action.amount}
    # Each bid replaces the earlier one whole, tag request included.
    requests = [p for p in s.tag_requests if p != player]
    s.tag_requests = [*requests, player] if action.tag_out else requests
    events: list[Event] = [
        BidConfirmed(
            private_to=player,
            round=s.round,
            amount=action.amount,
            tag_out=action.tag_out,
            changed=changed,
        ),
        PlayerBid(player=player, round=s.round),
    ]
    if not waiting_for(s):
        events.extend(_resolve_round(s, defaulted=[]))
    return events


def _apply_deadline(s: State, player: int | None, action: Deadline, dice: Dice) -> list[Event]:
    if s.phase == "forbid":
        return _close_forbid_phase(s)
    late = waiting_for(s)
    # The missing bid is the lowest the ninja may make (see the rulings above).
    s.bids = {**s.bids, **{p: min(legal_bids(s, p), default=0) for p in late}}
    return _resolve_round(s, defaulted=late)


def _apply_abort(s: State, by: int | None, action: Abort, dice: Dice) -> list[Event]:
    """End the game at once: nothing was settled yet, so every stake is returned."""
    s.stakes = {**s.stakes, **dict.fromkeys(s.seats, 0)}
    s.payouts = {**s.payouts, **dict.fromkeys(s.seats, 0), HOUSE: 0}
    _end_early(s)
    return [Aborted(by=by, round=s.round, strength=dict(s.strength), forbidden=dict(s.forbidden))]


def _end_early(s: State) -> None:
    """A game ended before its result (a moderator's end, or its settlement at value):
    the open round's bids and tag requests are dropped unrevealed, and nobody wins."""
    s.bids = {}
    s.tag_requests = []
    s.finished = True
    s.aborted = True
    s.phase = "over"
    s.must_bid = []
    s.winner = None
    s.draw = False
    s.pot_to = []
    s.ply += 1


def _check_settle(state: State, player: int | None, action: SettleAtValue) -> None:
    """The table service decides who may end a game (as for an abort); the engine checks
    that the game is one the house stakes a seat of, as the action says."""
    if state.rules.mode != "duel" or len(state.seats) != 2 or action.house not in state.seats:
        raise IllegalMove("Only a two-player duel the house stakes is settled at its value.")


def _apply_settle(s: State, by: int | None, action: SettleAtValue, dice: Dice) -> list[Event]:
    """End the game at once with the pot shared at the position's value."""
    (member,) = [p for p in s.seats if p != action.house]
    pot = sum(s.stakes.values())
    share = value_share(pot, action.chance)
    shares = {member: share, action.house: pot - share}
    s.payouts = {
        **s.payouts,
        **{p: s.payouts.get(p, 0) + shares[p] - s.stakes[p] for p in s.seats},
        HOUSE: s.payouts.get(HOUSE, 0),
    }
    s.stakes = {**s.stakes, **dict.fromkeys(s.seats, 0)}
    s.settled = shares
    _end_early(s)
    return [
        SettledAtValue(
            by=by,
            round=s.round,
            strength=dict(s.strength),
            forbidden=dict(s.forbidden),
            member=member,
            house=action.house,
            chance=action.chance,
            pot=pot,
            shares=shares,
        )
    ]


def value_share(pot: int, chance: float) -> int:
    """The member's share of a ``pot`` settled at a position whose value to them is
    ``chance``: the pot times it, rounded down, computed exactly (the float's own value,
    never a product rounded up to the next coin)."""
    return math.floor(pot * Fraction(chance))


def at_value(
    state: State, house_seats: Collection[int], value: Callable[[int, int], float]
) -> SettleAtValue | None:
    """What a moderator's end sends at this table in place of :class:`Abort`: the pot
    settled at the position's value where the house stakes one seat of a running duel;
    ``None`` where every stake simply goes back (members only, no coins at stake, another
    mode). ``value(own, other)``: the equilibrium chance that the player holding ``own``
    strength against ``other`` wins (the computer's table). Equal strengths are worth
    exactly one half by symmetry, whatever rounding the table holds."""
    if state.finished or state.rules.mode != "duel" or len(state.seats) != 2:
        return None
    house = [p for p in state.seats if p in house_seats]
    if len(house) != 1 or not sum(state.stakes.values()):
        return None
    (member,) = [p for p in state.seats if p != house[0]]
    own, other = state.strength[member], state.strength[house[0]]
    chance = 0.5 if own == other else value(own, other)
    return SettleAtValue(house=house[0], chance=chance)


def _close_forbid_phase(s: State) -> list[Event]:
    """The forbid deadline: latecomers get 0, the AFK forfeit, round 1 opens."""
    late = waiting_for(s)
    s.missed = {**s.missed, **{p: s.missed[p] + 1 if p in late else 0 for p in s.seats}}
    s.forbidden = {**s.forbidden, **dict.fromkeys(late, TIMEOUT_FORBIDDEN)}
    events: list[Event] = [
        ForbidConfirmed(private_to=p, number=TIMEOUT_FORBIDDEN, assigned=True) for p in late
    ]
    afk = [p for p in s.seats if s.missed[p] >= s.rules.afk_rounds_to_forfeit]
    s.eliminated = [*s.eliminated, *afk]
    events.append(ForbidClosed(timed_out=late, forfeited=afk))
    s.ply += 1
    left = _alive(s)
    if len(left) == 1:
        events.append(_finish(s, pot_to=left, winner=left[0], reason="forfeit"))
    elif not left:
        events.append(_finish(s, pot_to=afk, winner=None, reason="forfeit"))
    else:
        events.append(_open_first_round(s))
    return events


def _open_first_round(s: State) -> RoundOpened:
    s.phase = "bid"
    s.round = 1
    s.must_bid = _alive(s)
    return RoundOpened(round=s.round, must_bid=list(s.must_bid))


# --------------------------------------------------------------------------- rounds


def extra_losses(bids: dict[int, int]) -> dict[int, int]:
    """Extra loss owed by each bidder (only those who owe one appear).

    Two bidders: the lower pays 3. Three: all equal none; all different middle 3 and
    lowest 5; one high and two tied low 4 each; two tied high and one low 6.
    """
    values = sorted(set(bids.values()))
    if len(values) == 1:
        return {}
    if len(bids) == 2:
        return {p: ROLL_AWAY for p, b in bids.items() if b == values[0]}
    if len(bids) != 3:
        raise ValueError("a round has two or three bidders")
    if len(values) == 3:
        owed = {values[0]: 5, values[1]: 3}
        return {p: owed[b] for p, b in bids.items() if b in owed}
    low_count = sum(1 for b in bids.values() if b == values[0])
    each = 4 if low_count == 2 else 6
    return {p: each for p, b in bids.items() if b == values[0]}


Result = tuple[list[int], int | None, Literal["round", "forfeit", "round_limit"]]
"""Who shares the pot, the winner (``None`` for a draw), and why the game ended."""


def _resolve_round(s: State, defaulted: list[int]) -> list[Event]:
    """Reveal and settle the round whose bids are all in ``s.bids``, then end the game or
    open the next round (``s`` is the handler's fresh copy)."""
    bidders = list(s.must_bid)
    bids = {p: s.bids[p] for p in bidders}
    s.missed = {**s.missed, **{p: s.missed[p] + 1 if p in defaulted else 0 for p in bidders}}
    record, out = _pay_round(s, bids, defaulted)
    if s.rules.mode == "tag":
        result = _settle_tag(s, bidders, out, record)
    else:
        result = _settle_contenders(s, bidders, out)
    _close_round(s, record, out)

    events: list[Event] = [RoundRevealed(**record.model_dump())]
    if result is None and s.round >= s.rules.max_rounds:
        result = _round_limit_result(s)
    if result is not None:
        pot_to, winner, reason = result
        events.append(_finish(s, pot_to=pot_to, winner=winner, reason=reason))
    else:
        events.append(_open_next_round(s))
    return events


def _pay_round(
    s: State, bids: dict[int, int], defaulted: list[int]
) -> tuple[RoundRecord, list[Elimination]]:
    """Take every bid, then each extra loss owed; a ninja who cannot pay it is out."""
    strength = {p: have - bids.get(p, 0) for p, have in s.strength.items()}
    owed = extra_losses(bids)
    record = RoundRecord(
        round=s.round,
        bids=bids,
        defaulted=_in_seat_order(s, defaulted),
        tag_requests=_in_seat_order(s, s.tag_requests),
        lost_round=_in_seat_order(s, set(owed)),
        strength={},
    )
    out: list[Elimination] = []
    for p in record.lost_round:
        if strength[p] < owed[p]:
            out.append(Elimination(player=p, reason="could_not_pay"))
        else:
            strength[p] -= owed[p]
            record.extra[p] = owed[p]
    s.strength = strength
    return record, out


def _close_round(s: State, record: RoundRecord, out: list[Elimination]) -> None:
    """Record the settled round in the history and clear its secrets."""
    record.eliminated = out
    s.eliminated = [*s.eliminated, *(e.player for e in out)]
    record.strength = dict(s.strength)
    record.in_play = list(s.in_play)
    s.history = [*s.history, record]
    s.bids = {}
    s.tag_requests = []
    s.ply += 1


def _open_next_round(s: State) -> RoundOpened:
    s.round += 1
    s.must_bid = list(s.in_play) if s.rules.mode == "tag" else _alive(s)
    return RoundOpened(round=s.round, must_bid=list(s.must_bid), in_play=list(s.in_play))


def _settle_contenders(s: State, bidders: list[int], out: list[Elimination]) -> Result | None:
    """Duel, forbidden and three-player modes: everyone still in is a contender."""
    gone = {e.player for e in out}
    survivors = [p for p in bidders if p not in gone]
    if len(survivors) == 1:
        return [survivors[0]], survivors[0], "round"
    if not survivors:  # the highest bid never owes, so this is only a safety net
        return list(bidders), None, "round"
    broke = [p for p in survivors if s.strength[p] == 0]
    if len(broke) == len(survivors):
        return survivors, None, "round"
    out.extend(Elimination(player=p, reason="no_strength") for p in broke)
    survivors = [p for p in survivors if p not in broke]
    if len(survivors) == 1:
        return [survivors[0]], survivors[0], "round"
    # The round's own result comes first; only an undecided game ends by forfeit.
    afk = [p for p in survivors if s.missed[p] >= s.rules.afk_rounds_to_forfeit]
    out.extend(Elimination(player=p, reason="forfeit") for p in afk)
    remaining = [p for p in survivors if p not in afk]
    if len(remaining) == 1:
        return [remaining[0]], remaining[0], "forfeit"
    if not remaining:
        return afk, None, "forfeit"
    return None


def _settle_tag(
    s: State, bidders: list[int], out: list[Elimination], record: RoundRecord
) -> Result | None:
    """Tag mode: deaths, bench recovery, team defeat, then tags for the next round."""
    for p in bidders:
        if s.strength[p] == 0 and p not in {e.player for e in out}:
            out.append(Elimination(player=p, reason="no_strength"))
    dead = set(s.eliminated) | {e.player for e in out}
    record.recovered = [
        p for p in s.seats if p not in bidders and p not in dead and s.strength[p] < TAG_CAP
    ]
    s.strength = {p: have + 1 if p in record.recovered else have for p, have in s.strength.items()}

    result = _team_result(s, dead, "round")
    if result is not None:
        return result
    # A ninja present in the round's result is judged on it first; AFK deaths follow.
    afk = [p for p in bidders if s.missed[p] >= s.rules.afk_rounds_to_forfeit]
    out.extend(Elimination(player=p, reason="forfeit") for p in afk)
    dead |= set(afk)
    result = _team_result(s, dead, "forfeit")
    if result is not None:
        return result
    s.in_play = [
        _next_in(team, current, dead, s.tag_requests)
        for team, current in zip(s.teams, s.in_play, strict=True)
    ]
    return None


def _next_in(team: list[int], current: int, dead: set[int], tag_requests: list[int]) -> int:
    """Tag mode: who of ``team`` is in next round; a dead or tagging ninja's living
    partner comes in."""
    partner = team[1] if team[0] == current else team[0]
    if partner not in dead and (current in dead or current in tag_requests):
        return partner
    return current


def _team_result(s: State, dead: set[int], reason: Literal["round", "forfeit"]) -> Result | None:
    standing = [team for team in s.teams if any(p not in dead and s.strength[p] > 0 for p in team)]
    if len(standing) == 2:
        return None
    if not standing:
        return list(s.seats), None, reason
    return list(standing[0]), standing[0][0], reason


def _round_limit_result(s: State) -> Result:
    """The most strength wins when the round limit is reached; a tie is a draw."""
    if s.rules.mode == "tag":
        totals = [sum(s.strength[p] for p in team if p not in s.eliminated) for team in s.teams]
        if totals[0] == totals[1]:
            return list(s.seats), None, "round_limit"
        best = s.teams[0] if totals[0] > totals[1] else s.teams[1]
        return list(best), best[0], "round_limit"
    alive = _alive(s)
    top = max(s.strength[p] for p in alive)
    leaders = [p for p in alive if s.strength[p] == top]
    return leaders, (leaders[0] if len(leaders) == 1 else None), "round_limit"


def _finish(
    s: State,
    pot_to: list[int],
    winner: int | None,
    reason: Literal["round", "forfeit", "round_limit"],
) -> GameOver:
    """End the game: share the pot, zero the stakes, reveal the forbidden numbers."""
    sharers = _in_seat_order(s, pot_to)
    # The remainder goes one coin at a time in seat order.
    gains = split_evenly(sum(s.stakes.values()), sharers)
    settled = {p: s.payouts.get(p, 0) + gains.get(p, 0) - s.stakes[p] for p in s.seats}
    s.payouts = {**s.payouts, **settled, HOUSE: s.payouts.get(HOUSE, 0)}
    s.stakes = {**s.stakes, **dict.fromkeys(s.seats, 0)}
    s.finished = True
    s.phase = "over"
    s.must_bid = []
    s.winner = winner
    s.draw = winner is None
    s.pot_to = sharers
    return GameOver(
        winner=winner,
        draw=s.draw,
        pot_to=list(sharers),
        reason=reason,
        strength=dict(s.strength),
        forbidden=dict(s.forbidden),
        payouts=dict(s.payouts),
    )


def ranking(state: State, events: Sequence[Mapping[str, Any]] = ()) -> Ranking | None:
    """How a finished game placed its ninjas, for skill ratings (``None``: not played out,
    a moderator ended it). Tag mode: the two teams, the winning one first, a draw a tie.
    Otherwise each ninja alone: those who shared the pot first, then any still standing
    at the round limit by strength, then the ninjas who went out, the later the better
    (out in the same round: tied)."""
    if not state.finished or state.aborted:
        return None
    if state.rules.mode == "tag":
        winner = state.winner
        return ranked_by(state.teams, lambda team: (int(winner in team),))
    out_round = {p: 0 for p in state.eliminated}  # the forbid phase's forfeits: round 0
    for record in state.history:
        out_round.update({e.player: record.round for e in record.eliminated})
    places: dict[int, tuple[int, ...]] = {}
    for player in state.seats:
        if player in state.pot_to:
            places[player] = (2, 0)
        elif player in out_round:
            places[player] = (0, out_round[player])
        else:
            places[player] = (1, state.strength[player])
    return ranked_alone(places)


# --------------------------------------------------------------------------- the engine

RULEBOOK: Rulebook[State, Action, Event] = Rulebook(
    {
        Bid: Move(_check_bid, _apply_bid),
        Forbid: Move(_check_forbid, _apply_forbid),
        Deadline: Move(only_the_table, _apply_deadline),
        Abort: Move(the_service_decides, _apply_abort),
        SettleAtValue: Move(_check_settle, _apply_settle),
    },
)


EMPTY_HANDED_HONOUR = "Won with no strength left"


class StrengthDuelEngine(Engine[Rules, State, Action, Event]):
    """Strength Duel as the table service drives it. Of the optional hooks only the
    honour applies: there is no bank, a bid costs strength rather than coins, and nobody
    joins a running game."""

    def ply(self, state: State) -> int:
        return state.ply

    def waiting_on(self, state: State) -> list[int]:
        """Once a ninja has bid (or chosen a forbidden number): those still to, as the
        table's ⏳ marks show them."""
        left = waiting_for(state)
        return left if len(left) < len(state.must_bid) else []

    def winners(self, state: State) -> list[int]:
        return [] if state.winner is None else [state.winner]

    name = "strength_duel"
    permissions: ClassVar[Mapping[type[BaseModel], Permission]] = {
        # Ending a game is a moderator's word, settled at its value or not.
        SettleAtValue: Permission.MODERATOR_NOT_SEATED,
    }
    secret_choices: ClassVar[Mapping[str, str]] = {"bid": "bid", "forbid": "forbid"}

    def reveals(self, event: Mapping[str, Any]) -> Mapping[str, Collection[int] | None]:
        """A round's reveal shows the bids it settled (a bid pending when a moderator ends
        the game is never shown); the end shows every forbidden number."""
        kind = event.get("kind")
        if kind == "round_revealed":
            return {"bid": {int(player) for player in event.get("bids", {})}}
        if kind in ("game_over", "aborted", "settled_at_value"):
            return {"forbid": None}
        return {}

    def honours_at_end(
        self, state: State, events: Sequence[Mapping[str, Any]]
    ) -> list[tuple[int, str]]:
        """Winning with no strength left earns an honour (each such winner of a team)."""
        if state.winner is None or state.draw or state.aborted:
            return []
        return [
            (player, EMPTY_HANDED_HONOUR)
            for player in (state.pot_to or [state.winner])
            if state.strength.get(player) == 0
        ]

    def start(self, rules: Rules, players: list[int], dice: Dice) -> State:
        """Seat ``players`` in the given order and open round 1 (or the forbid phase)."""
        low, high = self.seat_limits(rules)
        if not low <= len(players) <= high:
            raise IllegalMove(_WRONG_COUNT[rules.mode], count=str(low))
        if len(set(players)) != len(players):
            raise IllegalMove("Each player can take only one seat.")
        if HOUSE in players:
            raise IllegalMove("Player id 0 is reserved for the house.")
        strength = STARTING_STRENGTH[rules.mode]
        teams = [players[0:2], players[2:4]] if rules.mode == "tag" else []
        in_play = [team[0] for team in teams]
        forbid_first = rules.mode == "forbidden"
        # In the forbid phase everyone must choose, so only tag mode starts with fewer.
        must_bid = list(in_play) if rules.mode == "tag" else list(players)
        return State(
            rules=rules,
            seats=list(players),
            phase="forbid" if forbid_first else "bid",
            round=0 if forbid_first else 1,
            strength={p: strength for p in players},
            stakes={p: rules.stake for p in players},
            payouts={HOUSE: 0} | {p: 0 for p in players},
            must_bid=must_bid,
            teams=teams,
            in_play=in_play,
            missed={p: 0 for p in players},
        )

    def act(
        self, state: State, player: int | None, action: Action, dice: Dice
    ) -> tuple[State, list[Event]]:
        """Apply ``action`` by ``player`` (``None``: the table). Never mutates ``state``.

        Raises :class:`IllegalMove` with the reason when the action is not allowed now.
        """
        return RULEBOOK.act(state, player, action, dice)

    def seat_limits(self, rules: Rules) -> tuple[int, int]:
        """The fewest and most seats: two for duel/forbidden, three, or four for tag."""
        n = SEATS[rules.mode]
        return n, n

    def hold(self, rules: Rules) -> int:
        """Coins each member puts in escrow on taking a seat: the stake."""
        return rules.stake

    def deadline_seconds(self, state: State) -> int | None:
        """Seconds the current decision point lasts; ``None`` once the game is over."""
        return None if state.finished else state.rules.round_seconds

    def legal_actions(self, state: State, player: int) -> list[Action]:
        """Every move ``player`` may make now, as :meth:`act` would accept it (empty when
        nothing is theirs to do). Not :class:`Deadline` or :class:`Abort`, which the table
        and a moderator send."""
        strength = state.strength.get(player, 0)
        candidates: list[Action] = [Forbid(number=n) for n in FORBID_RANGE]
        for tag_out in (False, True) if state.rules.mode == "tag" else (False,):
            candidates.extend(Bid(amount=n, tag_out=tag_out) for n in range(strength + 1))
        return RULEBOOK.legal_actions(state, player, candidates)


ENGINE = StrengthDuelEngine(
    rules_model=Rules, state_model=State, action_type=Action, event_type=Event
)


PLAYOUT_VARIANTS: tuple[Rules, ...] = tuple(
    Rules(mode=mode) for mode in ("duel", "forbidden", "three", "tag")
)
"""The rules the contract's random playouts cover (tests/games/test_contract.py): every
mode."""
"""Strength Duel's engine; the functions below are its bound methods (the surface
ENGINE_CONTRACT.md and bot/games/common.py name)."""

start = ENGINE.start
act = ENGINE.act
seat_limits = ENGINE.seat_limits
hold = ENGINE.hold
deadline_seconds = ENGINE.deadline_seconds
legal_actions = ENGINE.legal_actions
