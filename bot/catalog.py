"""Every game the bot hosts, listed once: one typed record per game.

A record names what the rest of the bot derives from it: the engine (``bot/games/``), the
title players see, its rules pages (``bot/rules_text/<file>``), its colour in /stats, the
cog extension that gives it buttons (``cogs/<game>/``) and its computer player
(``bot/players/``). The table service's registry, ``/rules``, every command's game choice,
the default extensions, the computer seats and the stats colours are all read from
:data:`CATALOG`; adding a game is an engine package, one record here and one cog package.

The table service itself imports no catalog: ``bot/app.py`` hands it
:meth:`Catalog.registry` and :meth:`Catalog.computers`, so a process that is not the Discord
bot (a verify or replay worker, a test) builds the same service from the catalog alone.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic

from bot.games import fortunes_winds, hachihachi, hazard, nihakyu, strength_duel
from bot.games.contract import ActionT, Engine, EventT, RulesT, StateT
from bot.games.registry import GameRegistry, GameSpec, HouseEnd, RankingOf
from bot.i18n import N_
from bot.players import AnyComputer, Computer
from bot.players import fortunes_winds as fortunes_winds_player
from bot.players import hachihachi as hachihachi_player
from bot.players import hazard as hazard_player
from bot.players import nihakyu as nihakyu_player
from bot.players import strength_duel as strength_duel_player

Colour = tuple[int, int, int]


_FROM_KEY = "\0from the key"
"""A default derived from the game's key in :meth:`Game.__post_init__`."""


@dataclass(frozen=True, kw_only=True)
class Game(Generic[RulesT, StateT, ActionT, EventT]):
    """One game: everything the bot needs to host it, typed in the engine's own models.

    The key is the engine's own (:attr:`name`); the rules file and the cog extension
    follow from it unless a record says otherwise."""

    engine: Engine[RulesT, StateT, ActionT, EventT]
    title: str
    colour: Colour
    """Its steps' colour in the /stats chart."""
    rules_file: str | None = _FROM_KEY
    """Its player-facing rules, a Markdown file in ``bot/rules_text/`` (/rules):
    ``<key>.md`` by default; ``None`` for a game without rules pages (a test's game)."""
    rules_package: str = "bot.rules_text"
    """The package whose folder holds the rules file (its translations in a folder per
    locale beside it): the bot's own unless the game's rules live with the game (a
    test's game, in ``tests/support``)."""
    extension: str = _FROM_KEY
    """The cog extension loaded by default, which attaches its UI: ``cogs.<key>`` by
    default."""
    computer: Computer[RulesT, StateT, ActionT] | None = None
    """Its computer player, or ``None`` for a game without one."""
    house_end: HouseEnd[StateT, ActionT] | None = None
    """How a moderator's end settles a game in which the house stakes the computer's seat,
    where that is not the plain Abort (:attr:`bot.games.registry.GameSpec.house_end`)."""
    ranking: RankingOf[StateT] | None = None
    """How a finished table placed its players (the game's own pure ``ranking``): a game
    with one is rated (``bot/ratings.py``); ``None`` for a game played against a bank."""

    def __post_init__(self) -> None:
        # Frozen: the defaults are filled in once, as the record is made.
        if self.rules_file == _FROM_KEY:
            object.__setattr__(self, "rules_file", f"{self.name}.md")
        if self.extension == _FROM_KEY:
            object.__setattr__(self, "extension", f"cogs.{self.name}")

    @property
    def name(self) -> str:
        """The game's key: the engine's name, as stored with every table."""
        return self.engine.name

    @property
    def rated(self) -> bool:
        """Whether its members (and its computer) have a skill rating."""
        return self.ranking is not None


AnyGame = Game[Any, Any, Any, Any]
"""A record of any game: the catalog holds games of different engines side by side."""


@dataclass(frozen=True)
class Catalog:
    """The games one bot hosts, in the order they are listed (and their cogs load)."""

    records: tuple[AnyGame, ...]

    def __post_init__(self) -> None:
        names = [record.name for record in self.records]
        if len(set(names)) != len(names):
            raise ValueError(f"a game is listed twice in the catalog: {names}")

    def __iter__(self) -> Iterator[AnyGame]:
        return iter(self.records)

    def __contains__(self, name: object) -> bool:
        return any(record.name == name for record in self.records)

    def get(self, name: str) -> AnyGame:
        for record in self.records:
            if record.name == name:
                return record
        raise KeyError(name)

    def names(self) -> tuple[str, ...]:
        return tuple(record.name for record in self.records)

    def titles(self) -> dict[str, str]:
        return {record.name: record.title for record in self.records}

    def extensions(self) -> tuple[str, ...]:
        return tuple(record.extension for record in self.records)

    def rated(self) -> tuple[str, ...]:
        """The games with skill ratings, in catalog order (/leaderboard's rating boards)."""
        return tuple(record.name for record in self.records if record.rated)

    def computers(self) -> Mapping[str, AnyComputer]:
        """Each game's computer, for the table service (games without one are absent)."""
        return {r.name: r.computer for r in self.records if r.computer is not None}

    def registry(self) -> GameRegistry:
        """The engines the table service hosts, by name."""
        registry = GameRegistry()
        for record in self.records:
            registry.add(GameSpec(record.engine, record.title, record.house_end, record.ranking))
        return registry


HAZARD = Game(
    engine=hazard.ENGINE,
    title=N_("Hazard"),
    colour=(237, 66, 69),
    # Its moves are public (no landing moment to hide), but a whole round of throws
    # landing within milliseconds cannot be followed: a second between its moves, as a
    # caster at a real table would take. Members' own clicks never wait on it.
    computer=Computer[hazard.Rules, hazard.State, hazard.Action](
        hazard_player.decide, thinking_seconds=1.0
    ),
)

NIHAKYU = Game(
    engine=nihakyu.ENGINE,
    title=N_("Nihakyu"),
    colour=(155, 89, 182),
    computer=Computer[nihakyu.Rules, nihakyu.State, nihakyu.Action](
        nihakyu_player.decide, searches=True, thinking_seconds=0.5
    ),
    ranking=nihakyu.ranking,
)


def _duel_at_value(
    state: strength_duel.State, house_seats: Collection[int]
) -> strength_duel.SettleAtValue | None:
    # The pot of a house-staked duel is settled at the value of the table its computer
    # plays by (the rules' "Ended early"), not simply returned.
    return strength_duel.at_value(state, house_seats, strength_duel_player.value)


STRENGTH_DUEL = Game(
    engine=strength_duel.ENGINE,
    title=N_("Strength Duel"),
    colour=(230, 126, 34),
    computer=Computer[strength_duel.Rules, strength_duel.State, strength_duel.Action](
        strength_duel_player.decide,
        thinking_seconds=0.2,
        house_stakes=strength_duel_player.house_refusal,
    ),
    house_end=_duel_at_value,
    ranking=strength_duel.ranking,
)

FORTUNES_WINDS = Game(
    engine=fortunes_winds.ENGINE,
    title=N_("Fortunes and Winds"),
    colour=(26, 188, 156),
    computer=Computer[fortunes_winds.Rules, fortunes_winds.State, fortunes_winds.Action](
        fortunes_winds_player.decide, seat_refusal=fortunes_winds.house_seat_refusal
    ),
)

HACHIHACHI = Game(
    engine=hachihachi.ENGINE,
    title=N_("Nuki Hachi-hachi"),
    colour=(87, 242, 135),
    computer=Computer[hachihachi.Rules, hachihachi.State, hachihachi.Action](
        hachihachi_player.decide, searches=True, thinking_seconds=1.0
    ),
    ranking=hachihachi.ranking,
)

CATALOG = Catalog((HAZARD, NIHAKYU, STRENGTH_DUEL, FORTUNES_WINDS, HACHIHACHI))
"""The games the bot ships."""
