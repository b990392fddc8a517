"""What every engine shares with the table service.

Beyond ENGINE_CONTRACT.md, every engine module provides (the table service relies on it):

- ``seat_limits(rules) -> tuple[int, int]``: the fewest and most seats a table allows.
- ``hold(rules) -> int``: coins each member puts in escrow when taking a seat in the lobby
  (the ante or stake; 0 where money is placed later, as in Hazard's bets).
- ``State.stakes: dict[int, int]``: coins each player currently has at risk on the table.
  The table service keeps escrow equal to ``sum(stakes)`` and each player's wallet change
  at the table equal to ``payouts[p] - stakes[p]``; the house's is ``payouts.get(0, 0)``.
  An action that would make a player pay more than their wallet holds is refused.
- ``State.ply: int``: increases whenever a decision point passes. A button drawn at another
  ply is stale. Making or changing a secret choice inside a round does not move the ply.
- ``deadline_seconds(state) -> int | None``: how long the current decision point lasts
  before the table acts with :class:`Deadline`; ``None`` when nothing is waited for.
  The service re-arms the deadline whenever the ply changes.
- ``ACTIONS``: the action models (each with a ``kind`` literal) that ``act`` accepts,
  :class:`Deadline` included, so an action log can be replayed from JSON.
- Events are public unless they are a :class:`PrivateEvent`, whose ``private_to`` names
  the one player who may see it; a public event never carries a secret (a bid, a hand, a
  forbidden number, an unrevealed choice). The state itself holds secrets and is never shown raw.
- Events announcing an honour carry ``kind == "honour"``, ``player`` and ``name``; the
  service records them in the player's stats.
- :class:`Abort` ends a started table on a moderator's word (the service checks who may
  send it; the engine accepts it from whoever the log names). The engine returns a
  finished state whose ``stakes`` are all 0: what the game had settled stands in
  ``payouts``, what was still open goes back to its owner, and nobody gains by choosing
  the moment (an undecided bet whose odds have moved is settled at its exact value).

Optional hooks an engine module may define (the service uses them when present):

- ``bank_exposure(state) -> int``: the most the bank could have to pay out, net, on the
  bets now open, whatever happens. A bet that lifts it above the bank's balance is refused.
- ``pending_charge(state, player) -> int``: coins a player's secret choice will take at
  the reveal. Their wallet must cover it when they choose (the refusal is private), but
  no coin moves before the reveal.
- ``top_up(before, after, player) -> int``: coins ``player``'s wallet puts back into escrow
  beyond a rise of their stake (Hachi-hachi: a scored round's loss, put back to cover the
  next round). A stake of theirs: their wallet, self-exclusion and loss limit must allow
  it, whoever acted, or the table sends ``shortfall(before, player)`` and acts again.
- ``shortfall(state, player) -> action | None``: at a reveal, `player`'s wallet cannot
  pay what the reveal takes; the action (applied by the table, then the reveal retried)
  changes their choice to one they can pay, or ``None`` when the game has no way around it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict


class Frozen(BaseModel):
    """A model nobody changes once made (a table's rules, an action): assigning to a field
    raises, and equal ones hash alike. Its JSON and equality are a plain model's."""

    model_config = ConfigDict(frozen=True)


HOUSE = 0
"""The key of the house (the bank) in ``payouts``."""

COMPUTER_IDS: tuple[int, ...] = (1, 2, 3)
"""The computer seats' ids, in the order they are added to a table: small ids no Discord
user can have (a snowflake is far larger). A computer seat's money is the house's."""


def is_computer(user_id: int) -> bool:
    return user_id in COMPUTER_IDS


class Permission(StrEnum):
    """Who may send an action; the table service checks it inside the table's lock.

    Hosting is not moderating: a host runs the lobby, and only a moderator (Manage
    Server) ends a started table or sanctions a player — never at a table where they
    play, where they could end it whenever they were losing."""

    SEATED = "seated"
    """A player seated at the table (the default for every action)."""
    HOST_OR_MODERATOR = "host_or_moderator"
    """The table's host or a moderator (e.g. closing a Hazard table between rounds)."""
    MODERATOR_NOT_SEATED = "moderator_not_seated"
    """A moderator with no seat at the table (ejecting a player, ending a game)."""
    TABLE = "table"
    """Nobody: the table's own step (a deadline, a reveal's correction), which the table
    service takes itself and never from a member."""


class Deadline(Frozen):
    """The table itself acts: the current decision point's time is up."""

    kind: Literal["deadline"] = "deadline"


class Honour(BaseModel):
    """An honour a player earned; recorded in their stats."""

    kind: Literal["honour"] = "honour"
    player: int
    name: str


class Join(Frozen):
    """A member takes the next free seat of a game in play (at the end of seat order), in
    the games that seat newcomers mid-play (Hazard, Fortunes and Winds)."""

    kind: Literal["join"] = "join"


class Leave(Frozen):
    """A seated player cashes out and leaves such a game."""

    kind: Literal["leave"] = "leave"


class Joined(BaseModel):
    """A member took a seat at a game that seats newcomers mid-play (Hazard, Fortunes and
    Winds); ``seat`` is their 0-based position in seat order."""

    kind: Literal["joined"] = "joined"
    player: int
    seat: int


class Left(BaseModel):
    """A player cashed out of such a game; ``net`` is what they won (or lost) there."""

    kind: Literal["left"] = "left"
    player: int
    net: int


class Abort(Frozen):
    """A moderator ends a started table; see the module notes for what each game returns."""

    kind: Literal["abort"] = "abort"


class PrivateEvent(BaseModel):
    """An event only ``private_to`` may see (their own secret choice, confirmed to them).

    Privacy is a type, not a field looked up by name: the table service logs, replays and
    shows only events that are not ``PrivateEvent`` instances, so a misspelt field cannot
    make a secret public. Every engine's private event derives from this class (a test over
    every engine's event union checks it)."""

    private_to: int


def is_public(event: object) -> bool:
    """Whether ``event`` may be shown, logged or replayed for everyone."""
    return not isinstance(event, PrivateEvent)


@dataclass(frozen=True)
class Ranking:
    """How a finished game placed its players, for skill ratings (``bot/ratings.py``):
    its sides (a team, or one player alone) and each side's place, 1 the best; sides on
    equal places tied. A game's own ``ranking`` function reads it from the final state."""

    teams: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.teams) != len(self.places):
            raise ValueError("a ranking needs one place for each side")
        players = [player for team in self.teams for player in team]
        if len(set(players)) != len(players) or not all(self.teams):
            raise ValueError(f"a ranking's sides must be non-empty and apart: {self.teams}")

    @property
    def players(self) -> list[int]:
        return [player for team in self.teams for player in team]


def ranked_by(
    sides: Iterable[Collection[int]], better: Callable[[tuple[int, ...]], tuple[int, ...]]
) -> Ranking:
    """Place ``sides`` by ``better(side)`` (compared as tuples, larger is better): equal
    values share a place, the next place skipping as many (1, 1, 3: competition ranking)."""
    teams = [tuple(side) for side in sides]
    keys = [better(team) for team in teams]
    order = sorted(range(len(teams)), key=lambda n: keys[n], reverse=True)
    places = [0] * len(teams)
    for position, index in enumerate(order):
        previous = order[position - 1] if position else None
        if previous is not None and keys[previous] == keys[index]:
            places[index] = places[previous]
        else:
            places[index] = position + 1
    return Ranking(tuple(teams), tuple(places))


def ranked_alone(score: Mapping[int, tuple[int, ...]]) -> Ranking:
    """Each player a side of their own, placed by ``score`` (larger is better)."""
    return ranked_by(([player] for player in score), lambda side: score[side[0]])
