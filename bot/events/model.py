"""The records the tournament core reads and returns: entrants, table results, pairings and
standings rows. All frozen; the event service stores them (or what they are made from)."""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from typing import Protocol

from pydantic import Field, model_validator

from bot.games.common import Frozen

MIN_SEATS = 2
MAX_SEATS = 4


class Format(StrEnum):
    """How an event pairs its players.

    - ``swiss``: a fixed number of rounds; every round pairs the whole field at once by score.
    - ``arena``: for a set time; a player whose table ends is paired again with a free player of
      near score (the length and the clock are the event service's business)."""

    SWISS = "swiss"
    ARENA = "arena"


class Entrant(Frozen):
    """A member in an event.

    ``rating`` orders players of equal score (the higher first) and is the last tie break;
    the service passes the member's skill rating for the event's game (0 when unrated).
    A ``dropped`` entrant keeps their results (they stay in the standings) but is paired no more."""

    member: int
    rating: float = 0.0
    dropped: bool = False


class TableResult(Frozen):
    """How one table of an event ended, read from the table, never reported by hand.

    ``players`` in seat order (Swiss pairing gives the first seat to whoever had it less
    often), ``players[i]`` finished in ``places[i]``: 1 is first, equal places are a draw (a tie).
    A table of one player is a bye: ``players == (p,)``, ``places == (1,)``, worth a win
    (:func:`bye_result` makes one). ``forfeit_losers`` are players who lost without playing
    (they did not show by the table's deadline): their places are already the worst, so points
    follow the places as usual, but the game counts as unplayed for the tie breaks of the
    players it touches (see :mod:`bot.events.scoring`).

    ``round`` is the Swiss round (1-based); in an arena it is the order tables ended in
    (results are read in that order for streaks)."""

    table_id: int
    round: int = Field(ge=1)
    players: tuple[int, ...] = Field(min_length=1, max_length=MAX_SEATS)
    places: tuple[int, ...] = Field(min_length=1, max_length=MAX_SEATS)
    forfeit_losers: tuple[int, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> TableResult:
        if len(self.places) != len(self.players):
            raise ValueError("one place per player")
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player sits once at a table")
        if any(place < 1 or place > len(self.players) for place in self.places):
            raise ValueError("places run from 1 to the number of players")
        if not set(self.forfeit_losers) <= set(self.players):
            raise ValueError("a forfeit loser sat at the table")
        return self

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1


def bye_result(member: int, round: int, table_id: int = 0) -> TableResult:
    """The record of a bye: a table of one, won."""
    return TableResult(table_id=table_id, round=round, players=(member,), places=(1,))


class Pairing(Frozen):
    """One Swiss round: the tables to open (member ids, in seat order) and the byes."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


class ArenaPairing(Frozen):
    """Arena tables to open now, and the free players left waiting for the next one to end."""

    tables: tuple[tuple[int, ...], ...]
    waiting: tuple[int, ...] = ()


class Ranked(Protocol):
    """Anything with a member and a shared rank (1 = first): what :func:`split_prizes` reads."""

    @property
    def member(self) -> int: ...

    @property
    def rank(self) -> int: ...


class StandingRow(Frozen):
    """One line of Swiss standings. ``rank`` is shared by players equal on every key
    (points, Buchholz, Sonneborn-Berger, rating). Points and tie breaks are exact fractions
    (a 3-seat table scores halves and quarters, a 4-seat one thirds)."""

    rank: int
    member: int
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    rating: float
    games: int
    byes: int
    dropped: bool


class ArenaRow(Frozen):
    """One line of arena standings: ``points`` as Lichess scores them; ``on_streak`` when the
    member's next win will count double; ranked by points, then rating (shared when equal)."""

    rank: int
    member: int
    points: int
    games: int
    wins: int
    on_streak: bool
    rating: float
    dropped: bool
