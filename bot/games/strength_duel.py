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
- Money: the pot (every stake) goes to the winner, or is split evenly between the winning
  team or the ninjas who drew (the remainder one coin at a time in seat order). When
  everyone draws that is a refund. In three-player play a ninja eliminated earlier is not
  part of a later draw and loses their stake.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.games.common import HOUSE, Abort, Deadline
from bot.games.dice import Dice
from bot.games.errors import IllegalMove

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


class Rules(BaseModel):
    """Variant and table settings."""

    model_config = ConfigDict(frozen=True)

    mode: Mode = "duel"
    stake: int = Field(default=10, ge=0)
    round_seconds: int = Field(default=120, ge=1)
    afk_rounds_to_forfeit: int = Field(default=3, ge=1)
    max_rounds: int = Field(default=100, ge=1)


def seat_limits(rules: Rules) -> tuple[int, int]:
    """The fewest and most seats: two for duel/forbidden, three, or four for tag."""
    n = {"duel": 2, "forbidden": 2, "three": 3, "tag": 4}[rules.mode]
    return n, n


def hold(rules: Rules) -> int:
    """Coins each member puts in escrow on taking a seat: the stake."""
    return rules.stake


# --------------------------------------------------------------------------- actions


class Bid(BaseModel):
    """Spend ``amount`` strength this round; in tag mode optionally ask to tag out."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["bid"] = "bid"
    amount: int
    tag_out: bool = False


class Forbid(BaseModel):
    """Choose one's forbidden number (forbidden-number variant, before round 1)."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["forbid"] = "forbid"
    number: int


Action = Annotated[Bid | Forbid | Deadline | Abort, Field(discriminator="kind")]
ACTIONS: tuple[type[BaseModel], ...] = (Bid, Forbid, Deadline, Abort)


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


class BidConfirmed(BaseModel):
    """Private to the bidder: the bid the engine holds for them."""

    kind: Literal["bid_confirmed"] = "bid_confirmed"
    private_to: int
    round: int
    amount: int
    tag_out: bool
    changed: bool


class ForbidChosen(BaseModel):
    """Public: a ninja has chosen their forbidden number (never which)."""

    kind: Literal["forbid_chosen"] = "forbid_chosen"
    player: int


class ForbidConfirmed(BaseModel):
    """Private: the ninja's forbidden number; ``assigned`` when the deadline gave it."""

    kind: Literal["forbid_confirmed"] = "forbid_confirmed"
    private_to: int
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


Event = Annotated[
    PlayerBid
    | BidConfirmed
    | ForbidChosen
    | ForbidConfirmed
    | ForbidClosed
    | RoundOpened
    | RoundRevealed
    | GameOver
    | Aborted,
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
    """Ended by a moderator: no winner, no draw, every stake returned."""
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


def deadline_seconds(state: State) -> int | None:
    """Seconds the current decision point lasts; ``None`` once the game is over."""
    return None if state.finished else state.rules.round_seconds


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


# --------------------------------------------------------------------------- start


def start(rules: Rules, players: list[int], dice: Dice) -> State:
    """Seat ``players`` in the given order and open round 1 (or the forbid phase)."""
    low, high = seat_limits(rules)
    if not low <= len(players) <= high:
        raise IllegalMove(f"Strength Duel ({rules.mode}) needs exactly {low} players.")
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


# --------------------------------------------------------------------------- act


def act(state: State, player: int | None, action: Action, dice: Dice) -> tuple[State, list[Event]]:
    """Apply ``action`` by ``player`` (``None``: the table). Never mutates ``state``.

    Raises :class:`IllegalMove` with the reason when the action is not allowed now.
    """
    if state.finished:
        raise IllegalMove("This game is already over.")
    if isinstance(action, Deadline):
        if player is not None:
            raise IllegalMove("Only the table can call time.")
        return _deadline(state)
    if isinstance(action, Abort):
        # The table service decides who may abort (a moderator not seated); the engine
        # takes it from whoever the log names.
        return _abort(state, player)
    if player is None or player not in state.seats:
        raise IllegalMove("You're not playing in this game.")
    if isinstance(action, Forbid):
        return _forbid(state, player, action)
    if isinstance(action, Bid):
        return _bid(state, player, action)
    raise IllegalMove("That isn't a move in Strength Duel.")


def _forbid(state: State, player: int, action: Forbid) -> tuple[State, list[Event]]:
    if state.rules.mode != "forbidden":
        raise IllegalMove("There are no forbidden numbers in this mode.")
    if state.phase != "forbid":
        raise IllegalMove("Forbidden numbers are chosen before round 1; it's too late now.")
    if player in state.forbidden:
        raise IllegalMove("You've already chosen your forbidden number; it can't be changed.")
    if action.number not in FORBID_RANGE:
        raise IllegalMove("Your forbidden number must be a whole number from 0 to 5.")
    s = state.model_copy(deep=True)
    s.forbidden[player] = action.number
    events: list[Event] = [
        ForbidConfirmed(private_to=player, number=action.number),
        ForbidChosen(player=player),
    ]
    if not waiting_for(s):
        for p in s.seats:
            s.missed[p] = 0
        s.ply += 1
        events.append(_open_first_round(s))
    return s, events


def _abort(state: State, by: int | None) -> tuple[State, list[Event]]:
    """End the game at once: nothing was settled yet, so every stake is returned."""
    s = state.model_copy(deep=True)
    for p in s.seats:
        s.stakes[p] = 0
        s.payouts[p] = 0
    s.payouts[HOUSE] = 0
    # Bids and tag requests of the open round are dropped unrevealed.
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
    event = Aborted(by=by, round=s.round, strength=dict(s.strength), forbidden=dict(s.forbidden))
    return s, [event]


def _open_first_round(s: State) -> RoundOpened:
    s.phase = "bid"
    s.round = 1
    s.must_bid = [p for p in s.seats if p not in s.eliminated]
    return RoundOpened(round=s.round, must_bid=list(s.must_bid))


def _bid(state: State, player: int, action: Bid) -> tuple[State, list[Event]]:
    rules = state.rules
    if state.phase == "forbid":
        if player in state.forbidden:
            raise IllegalMove("Round 1 starts once everyone has chosen a forbidden number.")
        raise IllegalMove("Choose your forbidden number (0 to 5) before round 1.")
    if player in state.eliminated:
        if rules.mode == "tag":
            raise IllegalMove("Your ninja is dead, so you can't bid any more.")
        raise IllegalMove("You're out of this game, so you can't bid any more.")
    if player not in state.must_bid:
        raise IllegalMove(
            "You're sitting out this round: only the ninja who is in bids. "
            "You'll come in when your partner tags out."
        )
    if action.tag_out and rules.mode != "tag":
        raise IllegalMove("Tagging out only exists in the tag-team mode.")
    if action.amount < 0:
        raise IllegalMove("A bid can't be negative.")
    have = state.strength[player]
    if action.amount > have:
        raise IllegalMove(f"You have only {have} strength, so you can't bid {action.amount}.")
    if action.amount == state.forbidden.get(player):
        raise IllegalMove(f"{action.amount} is your forbidden number: you can never bid it.")
    if action.tag_out:
        partner = partner_of(state, player)
        if partner is None or partner in state.eliminated:
            raise IllegalMove("Your partner is dead, so nobody can come in: you can't tag out.")

    s = state.model_copy(deep=True)
    changed = player in s.bids
    s.bids[player] = action.amount
    # Each bid replaces the earlier one whole, tag request included.
    s.tag_requests = [p for p in s.tag_requests if p != player]
    if action.tag_out:
        s.tag_requests.append(player)
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
    return s, events


def _deadline(state: State) -> tuple[State, list[Event]]:
    s = state.model_copy(deep=True)
    events: list[Event] = []
    if s.phase == "forbid":
        late = waiting_for(s)
        for p in s.seats:
            s.missed[p] = s.missed[p] + 1 if p in late else 0
        for p in late:
            s.forbidden[p] = TIMEOUT_FORBIDDEN
            events.append(ForbidConfirmed(private_to=p, number=TIMEOUT_FORBIDDEN, assigned=True))
        afk = [p for p in s.seats if s.missed[p] >= s.rules.afk_rounds_to_forfeit]
        s.eliminated.extend(afk)
        events.append(ForbidClosed(timed_out=late, forfeited=afk))
        s.ply += 1
        left = [p for p in s.seats if p not in s.eliminated]
        if len(left) == 1:
            events.append(_finish(s, pot_to=left, winner=left[0], reason="forfeit"))
        elif not left:
            events.append(_finish(s, pot_to=afk, winner=None, reason="forfeit"))
        else:
            events.append(_open_first_round(s))
        return s, events
    late = waiting_for(s)
    for p in late:
        s.bids[p] = min(legal_bids(s, p), default=0)
    events.extend(_resolve_round(s, defaulted=late))
    return s, events


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


def _resolve_round(s: State, defaulted: list[int]) -> list[Event]:
    """Reveal and settle the round whose bids are all in ``s.bids`` (mutates ``s``)."""
    bidders = list(s.must_bid)
    bids = {p: s.bids[p] for p in bidders}
    for p in bidders:
        s.missed[p] = s.missed[p] + 1 if p in defaulted else 0
    for p, amount in bids.items():
        s.strength[p] -= amount

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
        if s.strength[p] < owed[p]:
            out.append(Elimination(player=p, reason="could_not_pay"))
        else:
            s.strength[p] -= owed[p]
            record.extra[p] = owed[p]

    if s.rules.mode == "tag":
        result = _settle_tag(s, bidders, out, record)
    else:
        result = _settle_contenders(s, bidders, out)
    record.eliminated = out
    s.eliminated.extend(e.player for e in out)
    record.strength = dict(s.strength)
    record.in_play = list(s.in_play)
    s.history.append(record)
    s.bids = {}
    s.tag_requests = []
    s.ply += 1

    events: list[Event] = [RoundRevealed(**record.model_dump())]
    if result is None and s.round >= s.rules.max_rounds:
        result = _round_limit_result(s)
    if result is not None:
        pot_to, winner, reason = result
        events.append(_finish(s, pot_to=pot_to, winner=winner, reason=reason))
        return events
    s.round += 1
    s.must_bid = list(s.in_play) if s.rules.mode == "tag" else _alive(s)
    events.append(RoundOpened(round=s.round, must_bid=list(s.must_bid), in_play=list(s.in_play)))
    return events


Result = tuple[list[int], int | None, Literal["round", "forfeit", "round_limit"]]
"""Who shares the pot, the winner (``None`` for a draw), and why the game ended."""


def _alive(s: State) -> list[int]:
    return [p for p in s.seats if p not in s.eliminated]


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
    for p in s.seats:
        if p not in bidders and p not in dead and s.strength[p] < TAG_CAP:
            s.strength[p] += 1
            record.recovered.append(p)

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

    for i, team in enumerate(s.teams):
        current = s.in_play[i]
        partner = team[1] if team[0] == current else team[0]
        if partner in dead:
            continue
        if current in dead or current in s.tag_requests:
            s.in_play[i] = partner
    return None


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
    pot = sum(s.stakes.values())
    share, remainder = divmod(pot, len(sharers))
    for p in s.seats:
        gain = 0
        if p in sharers:
            gain = share + (1 if sharers.index(p) < remainder else 0)
        s.payouts[p] = s.payouts.get(p, 0) + gain - s.stakes[p]
        s.stakes[p] = 0
    s.payouts[HOUSE] = s.payouts.get(HOUSE, 0)
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
