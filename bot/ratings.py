"""Skill ratings: one per member per game per server, from how each finished table placed
its players (a game's ``ranking``, read off its catalog record).

The arithmetic is openskill's Weng-Lin Plackett-Luce model with its published defaults
(μ 25, σ 25/3, β 25/6, τ 25/300), made for many players and teams: the three-player duel,
a 4-seat Hachi-hachi match and the tag teams are rated as the one match they are. Nothing
here changes its numbers; this module only decides who is rated as whom and how a rating
is shown.

- **The computer** is one player per game (:data:`COMPUTER`, the first computer seat's
  id): every computer seat plays the same strategy, so its strength is one thing to
  learn, and spreading it over three ids would show three guesses at it. A table where
  it sits more than once rates the members against it as usual but leaves its own
  rating alone: the computer would be playing itself, and one identity cannot take two
  places in one match.
- **Shown** as openskill's ordinal (μ − 3σ, the skill the player is 99.7% likely to be
  above) on the familiar scale of chess ratings: ``ordinal(alpha=ALPHA, target=1500)``,
  so a newcomer shows 1500, and ALPHA = 400 / (ln 10 · √2 · β) makes 400 points the
  10-to-1 odds they are in Elo between two settled players (whose win chance the model
  puts at the logistic of Δμ / (√2 β)).
- **Provisional** while a player has fewer than :data:`PROVISIONAL_GAMES` rated tables:
  σ shrinks too slowly against newcomers to serve as the mark (still 6.5 of 8.3 after
  ten games), and a count is what players can check for themselves.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.games.common import COMPUTER_IDS, Ranking, is_computer

MODEL = PlackettLuce()
"""openskill's Plackett-Luce model with its own defaults."""

COMPUTER = COMPUTER_IDS[0]
"""The id a game's computer is rated under, whichever of its seats it took."""

PROVISIONAL_GAMES = 10
"""Rated tables before a rating stops being marked provisional."""

TARGET = 1500
"""What a newcomer shows (their ordinal is 0)."""

ALPHA = 400 / (math.log(10) * math.sqrt(2) * MODEL.beta)
"""Points shown per unit of ordinal: 400 points are 10-to-1 odds, as in Elo."""


@dataclass(frozen=True)
class Skill:
    """A player's rating in one game: openskill's mean and deviation, and how many rated
    tables it comes from."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """openskill's ordinal (μ − 3σ): what boards sort by."""
        return float(MODEL.create_rating([self.mu, self.sigma]).ordinal())

    @property
    def shown(self) -> int:
        """The rating as players read it (1500 for a newcomer)."""
        return round(MODEL.create_rating([self.mu, self.sigma]).ordinal(alpha=ALPHA, target=TARGET))

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


NEW = Skill(MODEL.mu, MODEL.sigma)
"""Everyone's rating before their first rated table."""


def identity(player: int) -> int:
    """Whom a seat's result rates: the member, or the game's one computer."""
    return COMPUTER if is_computer(player) else player


def played_out(seats: Collection[int], movers: Collection[int]) -> bool:
    """Whether a finished table may change ratings: every seat made a move of its own
    (``movers``: who sent an action). A table won by forfeit from a player who never
    moved (a no-show) measures nobody's play."""
    return bool(seats) and all(seat in movers for seat in seats)


def rate(ranking: Ranking, before: Mapping[int, Skill]) -> dict[int, Skill]:
    """The new ratings of a table's players (keyed by :func:`identity`), from their
    ratings ``before`` (by identity; absent: :data:`NEW`). The computer's is included
    only when it held one seat; nothing when fewer than two sides were placed."""
    if len(ranking.teams) < 2:
        return {}
    teams = [
        [MODEL.create_rating(_pair(before.get(identity(p), NEW))) for p in team]
        for team in ranking.teams
    ]
    rated = MODEL.rate(teams, ranks=[float(place) for place in ranking.places])
    computer_seats = sum(1 for p in ranking.players if is_computer(p))
    after: dict[int, Skill] = {}
    for team, new_team in zip(ranking.teams, rated, strict=True):
        for player, new in zip(team, new_team, strict=True):
            if is_computer(player) and computer_seats > 1:
                continue
            who = identity(player)
            games = before.get(who, NEW).games + 1
            after[who] = Skill(float(new.mu), float(new.sigma), games)
    return after


def _pair(skill: Skill) -> list[float]:
    return [skill.mu, skill.sigma]
