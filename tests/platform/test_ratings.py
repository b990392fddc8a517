"""Skill ratings (bot/ratings.py, bot/storage/ratings.py, bot/service/rating.py): openskill's
own published example, who is rated as whom (the computer one player per game), which
tables count, the rows on both backends, and every rated game through the table service
built from the catalog."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot import ratings
from bot.catalog import CATALOG
from bot.errors import UserFacingError
from bot.fairness import FairDice
from bot.games import strength_duel
from bot.games.common import COMPUTER_IDS, Ranking
from bot.service import Actor
from bot.storage import Database, database_for_url
from bot.storage import ratings as rq
from bot.storage.base import migrations
from tests.platform._helpers import Services, open_services

GUILD, OTHER_GUILD, CHANNEL = 500, 501, 600
MODERATOR = 999
ALICE, BOB, CAROL, DAVE = 1001, 1002, 1003, 1004
COMPUTER = COMPUTER_IDS[0]


# -- the arithmetic is openskill's ------------------------------------------------------------


def test_openskills_published_example() -> None:
    """openskill.py's README and manual (6.x): four newcomers, two teams of two, the first
    team wins: each winner 26.964294621803063 ± 8.177962604389991, each loser
    23.035705378196937 ± the same, ordinals 2.4304068086330872 and -1.4981824349730388."""
    after = ratings.rate(Ranking(((ALICE, BOB), (CAROL, DAVE)), (1, 2)), {})
    for winner in (ALICE, BOB):
        assert after[winner].mu == pytest.approx(26.964294621803063, rel=1e-12)
        assert after[winner].sigma == pytest.approx(8.177962604389991, rel=1e-12)
        assert after[winner].ordinal == pytest.approx(2.4304068086330872, rel=1e-12)
    for loser in (CAROL, DAVE):
        assert after[loser].mu == pytest.approx(23.035705378196937, rel=1e-12)
        assert after[loser].sigma == pytest.approx(8.177962604389991, rel=1e-12)
        assert after[loser].ordinal == pytest.approx(-1.4981824349730388, rel=1e-12)
    assert {skill.games for skill in after.values()} == {1}


def test_a_newcomer_shows_1500_and_is_provisional_for_ten_games() -> None:
    assert ratings.NEW.shown == 1500 and ratings.NEW.ordinal == pytest.approx(0, abs=1e-12)
    assert ratings.PROVISIONAL_GAMES == 10
    assert ratings.Skill(25.0, 5.0, games=9).provisional
    assert not ratings.Skill(25.0, 5.0, games=10).provisional
    # The scale: ALPHA (about 29.48) points a unit of ordinal, on 1500: an ordinal of 25
    # (31 - 3 * 2) shows 25 * 29.48... + 1500.
    assert round(ratings.ALPHA, 6) == 29.480887
    assert ratings.Skill(31.0, 2.0, games=10).shown == 2237


def test_the_computer_is_one_player_whichever_seat_it_took() -> None:
    second_seat = COMPUTER_IDS[1]
    after = ratings.rate(Ranking(((second_seat,), (ALICE,)), (1, 2)), {})
    assert set(after) == {COMPUTER, ALICE}, "rated under the first computer seat's id"
    assert ratings.identity(second_seat) == ratings.identity(COMPUTER) == COMPUTER


def test_a_computer_seated_twice_rates_the_members_but_not_itself() -> None:
    strong = ratings.Skill(35.0, 3.0, games=40)
    table = Ranking(((COMPUTER,), (ALICE,), (COMPUTER_IDS[1],)), (1, 2, 3))
    after = ratings.rate(table, {COMPUTER: strong})
    assert set(after) == {ALICE}
    # Alice was rated against the computer's rating in both its seats.
    alone = ratings.rate(Ranking(((COMPUTER,), (ALICE,), (CAROL,)), (1, 2, 3)), {COMPUTER: strong})
    assert after[ALICE] != alone[ALICE]
    assert after[ALICE].games == 1


def test_a_table_where_a_player_never_moved_is_not_played_out() -> None:
    assert ratings.played_out([ALICE, BOB], {ALICE, BOB, MODERATOR})
    assert not ratings.played_out([ALICE, BOB], {ALICE})
    assert not ratings.played_out([ALICE, BOB], set())


def test_one_side_alone_is_not_rated() -> None:
    assert ratings.rate(Ranking(((ALICE, BOB),), (1,)), {}) == {}


# -- the rows, on both backends ----------------------------------------------------------------


@pytest.fixture
async def any_db(database_url: str) -> AsyncIterator[Database]:
    database = database_for_url(database_url)
    await database.open()
    yield database
    await database.close()


async def test_the_migration_makes_the_ratings_table(any_db: Database) -> None:
    assert await any_db.schema_version() == len(migrations(any_db.dialect))
    assert migrations(any_db.dialect)[16][1].startswith("0017_ratings")
    async with any_db.reading() as tx:
        rows = await tx.fetchall(
            "SELECT guild_id, game, user_id, mu, sigma, ordinal, games, updated_at FROM ratings"
        )
    assert rows == []


async def held(db: Database, game: str, *users: int) -> dict[int, rq.RatingRow]:
    async with db.transaction() as tx:
        return await rq.lock(tx, GUILD, game, users, mu=25.0, sigma=25 / 3, now=1.0)


async def put(db: Database, user: int, mu: float, sigma: float, games: int, **where: Any) -> None:
    guild, game = where.get("guild", GUILD), where.get("game", "nihakyu")
    async with db.transaction() as tx:
        await rq.lock(tx, guild, game, [user], mu=25.0, sigma=25 / 3, now=1.0)
        row = rq.RatingRow(user, mu, sigma, games)
        await rq.save(tx, guild, game, row, ordinal=mu - 3 * sigma, now=2.0)


async def test_ratings_are_kept_per_player_game_and_server(any_db: Database) -> None:
    snowflake = 1_234_567_890_123_456_789  # beyond a float: kept exactly
    found = await held(any_db, "nihakyu", snowflake, ALICE)
    assert found == {
        ALICE: rq.RatingRow(ALICE, 25.0, 25 / 3, 0),
        snowflake: rq.RatingRow(snowflake, 25.0, 25 / 3, 0),
    }
    async with any_db.reading() as tx:
        assert await rq.board(tx, GUILD, "nihakyu", 10, 0) == ([], 0), "0 games: on no board"
        assert await rq.ratings_of(tx, GUILD, ALICE) == []
    await put(any_db, snowflake, 30.5, 4.25, 3)
    await put(any_db, ALICE, 27.0, 6.0, 12)
    await put(any_db, BOB, 30.5, 4.25, 1)  # the same ordinal as the snowflake: a shared rank
    await put(any_db, CAROL, 40.0, 2.0, 20, game="hachihachi")
    await put(any_db, DAVE, 40.0, 2.0, 20, guild=OTHER_GUILD)
    async with any_db.reading() as tx:
        board, total = await rq.board(tx, GUILD, "nihakyu", 10, 0)
        page_two = await rq.board(tx, GUILD, "nihakyu", 2, 2)
        mine = await rq.ratings_of(tx, GUILD, ALICE)
        theirs = await rq.ratings_of(tx, GUILD, snowflake)
    assert total == 3
    assert board == [
        (1, rq.RatingRow(BOB, 30.5, 4.25, 1)),
        (1, rq.RatingRow(snowflake, 30.5, 4.25, 3)),
        (3, rq.RatingRow(ALICE, 27.0, 6.0, 12)),
    ]
    assert page_two == ([(3, rq.RatingRow(ALICE, 27.0, 6.0, 12))], 3)
    assert mine == [rq.RankedRating("nihakyu", rq.RatingRow(ALICE, 27.0, 6.0, 12), 3, 3)]
    assert [(r.rank, r.of) for r in theirs] == [(1, 3)]
    async with any_db.reading() as tx:
        some = await rq.ratings_in(tx, GUILD, "nihakyu", [ALICE, CAROL, snowflake])
    assert some == {
        ALICE: rq.RatingRow(ALICE, 27.0, 6.0, 12),
        snowflake: rq.RatingRow(snowflake, 30.5, 4.25, 3),
    }, "Carol's rating is in another game"
    again = await held(any_db, "nihakyu", ALICE)
    assert again == {ALICE: rq.RatingRow(ALICE, 27.0, 6.0, 12)}, "an existing row is read"


# -- through the table service, for every rated game ---------------------------------------

QUICK_RULES: dict[str, dict[str, Any]] = {
    "strength_duel": {},
    "nihakyu": {"starting_stamina": 20},
    "hachihachi": {"rounds": 1},
}


def seeded(row: Any) -> FairDice:
    # Deterministic dice for each table, so the playout is the same every run.
    return FairDice(hashlib.sha256(f"ratings {row.id}".encode()).digest(), row.dice_counter)


async def services(tmp_path: Any) -> Services:
    return await open_services(
        tmp_path / "t.db",
        house_float=100_000,
        registry=CATALOG.registry(),
        computers=CATALOG.computers(),
        dice_factory=seeded,
    )


async def open_table(s: Services, game: str, players: list[int]) -> int:
    rules = CATALOG.get(game).engine.rules_model(**QUICK_RULES[game])
    for player in players:
        await s.economy.grant(GUILD, player, 100_000, "test funds")
    opened = await s.tables.open(
        guild_id=GUILD, channel_id=CHANNEL, game=game, host_id=players[0], rules=rules
    )
    table = int(opened.snapshot.id)
    for player in players[1:]:
        await s.tables.join(table, Actor(player, False))
    await s.tables.start(table, Actor(players[0], False))
    return table


async def play_out(s: Services, table: int, moves: int = 3_000) -> None:
    """Random legal moves by the seats (the deadline when nobody has one) until it ends."""
    engine = (await s.tables.snapshot(table)).spec.engine
    rng = random.Random(table)
    for _ in range(moves):
        snapshot = await s.tables.snapshot(table)
        if not snapshot.row.live:
            return
        legal = [(p, a) for p in snapshot.seats for a in engine.legal_actions(snapshot.state, p)]
        for player, action in rng.sample(legal, len(legal)):
            try:
                await s.tables.act(table, Actor(player, False), action)
            except UserFacingError:
                continue
            break
        else:
            assert snapshot.deadline is not None
            s.clock.now = max(s.clock.now, snapshot.deadline.due_at + 1)
            await s.tables.fire_deadline(table, snapshot.deadline.ply)
    raise AssertionError(f"table {table} did not end in {moves} moves")


async def stored(s: Services, *players: int) -> dict[int, ratings.Skill]:
    found: dict[int, ratings.Skill] = {}
    for player in players:
        for rated in await s.tables.ratings(GUILD, player):
            row = rated.rating
            found[player] = ratings.Skill(row.mu, row.sigma, row.games)
    return found


@pytest.mark.parametrize("name", CATALOG.rated())
async def test_a_rated_game_played_out_rates_its_players_by_its_ranking(tmp_path, name):
    s = await services(tmp_path)
    try:
        players = [ALICE, BOB]
        table = await open_table(s, name, players)
        await play_out(s, table)
        snapshot, rows = await s.tables.history(table, GUILD)
        assert snapshot.row.status == "finished"
        events = [event for row in rows for event in json.loads(row.events_json)]
        ranking = CATALOG.get(name).ranking(snapshot.state, events)  # type: ignore[misc]
        assert ranking is not None and set(ranking.players) == set(players)
        expected = ratings.rate(ranking, {})
        assert await stored(s, *players) == expected
        assert len({skill.mu for skill in expected.values()}) == 2 or len(set(ranking.places)) == 1

        # A second table between them starts from the ratings the first left.
        second = await open_table(s, name, players)
        await play_out(s, second)
        snapshot, rows = await s.tables.history(second, GUILD)
        events = [event for row in rows for event in json.loads(row.events_json)]
        ranking = CATALOG.get(name).ranking(snapshot.state, events)  # type: ignore[misc]
        assert ranking is not None
        assert await stored(s, *players) == ratings.rate(ranking, expected)
        assert {skill.games for skill in (await stored(s, *players)).values()} == {2}
    finally:
        await s.tables.scheduler.stop()
        await s.db.close()


@pytest.mark.parametrize("name", CATALOG.rated())
async def test_a_table_a_moderator_ended_changes_no_rating(tmp_path, name):
    s = await services(tmp_path)
    try:
        table = await open_table(s, name, [ALICE, BOB])
        await s.tables.cancel(table, Actor(MODERATOR, True))
        assert (await s.tables.snapshot(table)).row.status == "cancelled"
        assert await stored(s, ALICE, BOB) == {}
    finally:
        await s.tables.scheduler.stop()
        await s.db.close()


async def test_tables_ending_at_once_each_move_the_ratings(database_url: str) -> None:
    """Several duels between the same two players end at the same moment (on PostgreSQL,
    concurrent transactions): each one's update lands on the last, none is lost. For no
    stake, as an event's tables play: no wallet row then orders the transactions."""
    s = await open_services(
        database_url, house_float=100_000, registry=CATALOG.registry(), dice_factory=seeded
    )
    try:
        tables = []
        for channel in range(7):
            rules = CATALOG.get("strength_duel").engine.rules_model(stake=0)
            opened = await s.tables.open(
                guild_id=GUILD,
                channel_id=CHANNEL + channel,
                game="strength_duel",
                host_id=ALICE,
                rules=rules,
            )
            table = int(opened.snapshot.id)
            await s.tables.join(table, Actor(BOB, False))
            await s.tables.start(table, Actor(ALICE, False))
            # Alice spends all her strength: Bob's bid of 0 will end the duel, his win.
            await s.tables.act(table, Actor(ALICE, False), duel_bid(25))
            tables.append(table)
        await s.tables.act(tables[0], Actor(BOB, False), duel_bid(0))  # the rows exist now
        await asyncio.gather(
            *(s.tables.act(table, Actor(BOB, False), duel_bid(0)) for table in tables[1:])
        )
        found = await stored(s, ALICE, BOB)
        skills = await s.tables.skills(GUILD, "strength_duel", [ALICE, BOB, CAROL, COMPUTER_IDS[1]])
        assert skills == {**found, CAROL: ratings.NEW, COMPUTER_IDS[1]: ratings.NEW}
        assert {player: skill.games for player, skill in found.items()} == {ALICE: 7, BOB: 7}
        expected: dict[int, ratings.Skill] = {}
        for _table in tables:  # every duel the same result: the order does not matter
            expected = ratings.rate(Ranking(((ALICE,), (BOB,)), (2, 1)), expected)
        assert found == expected
    finally:
        await s.tables.scheduler.stop()
        await s.db.close()


def duel_bid(amount: int) -> strength_duel.Bid:
    return strength_duel.Bid(amount=amount)
