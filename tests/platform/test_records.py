"""A member's records from their results (bot/records.py) and the /stats chart drawn from
them: best win, longest streak, the running net of the last hundred tables."""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from bot.records import CHART_TABLES, records, records_by_game, running_net
from cogs._ui.stats_chart import HEIGHT, WIDTH, colour_of, draw_running_net


@dataclass(frozen=True)
class R:
    game: str
    net: int
    won: bool


@pytest.mark.parametrize(
    ("outcomes", "best", "streak"),
    [
        ([], 0, 0),
        ([(-10, False)], 0, 0),
        ([(5, True), (7, True), (-3, False), (2, True)], 7, 2),
        ([(-1, False), (0, True), (0, True), (0, True)], 0, 3),  # a shared win worth no coin
        ([(40, True), (-5, False), (1, True), (1, True), (1, True)], 40, 3),
    ],
)
def test_best_win_and_longest_streak(outcomes, best, streak) -> None:
    found = records([R("hazard", net, won) for net, won in outcomes])
    assert (found.best_win, found.longest_streak) == (best, streak)


@given(st.lists(st.tuples(st.integers(-500, 500), st.booleans()), max_size=60))
def test_records_agree_with_a_second_reckoning(outcomes) -> None:
    results = [R("nihakyu", net, won) for net, won in outcomes]
    found = records(results)
    marks = "".join("W" if won else "L" for _, won in outcomes)
    assert found.longest_streak == max((len(run) for run in marks.split("L")), default=0)
    assert found.best_win == max([0, *(net for net, _ in outcomes)])


def test_records_are_kept_per_game() -> None:
    results = [R("hazard", 10, True), R("nihakyu", -5, False), R("hazard", 30, True)]
    per_game = records_by_game(results)
    assert per_game["hazard"].longest_streak == 2 and per_game["hazard"].best_win == 30
    assert per_game["nihakyu"].best_win == 0


@given(st.lists(st.integers(-100, 100), max_size=250))
def test_running_net_sums_the_last_hundred_tables(nets) -> None:
    points = running_net([R("hazard", net, net > 0) for net in nets])
    recent = nets[-CHART_TABLES:]
    assert len(points) == len(recent)
    assert [value for _, value in points] == [sum(recent[: n + 1]) for n in range(len(recent))]


def test_the_chart_draws_each_games_steps_in_its_colour() -> None:
    points = running_net(
        [R("hazard", 50, True), R("hazard", -20, False), R("strength_duel", 70, True)]
    )
    png = draw_running_net(points, {"hazard": "Hazard", "strength_duel": "Strength Duel"})
    image = Image.open(io.BytesIO(png)).convert("RGB")
    assert image.size == (WIDTH, HEIGHT)
    colours = {colour for _, colour in image.getcolors(WIDTH * HEIGHT)}
    assert colour_of("hazard") in colours and colour_of("strength_duel") in colours
    assert colour_of("nihakyu") not in colours, "no step of a game not played"


def test_a_flat_chart_still_draws() -> None:
    png = draw_running_net(running_net([R("hazard", 0, False)]), {})
    assert Image.open(io.BytesIO(png)).size == (WIDTH, HEIGHT)


async def test_tables_finished_before_the_results_table_are_counted_once(tmp_path) -> None:
    """Migration 0007 fills `player_results` from tables already finished (their seats'
    nets; ahead counts as won), and nothing twice."""
    import sqlite3

    from bot.storage import open_database, sqlite_url
    from bot.storage.base import migrations
    from bot.storage.database import _split_sql

    path = tmp_path / "old.db"
    connection = sqlite3.connect(path, isolation_level=None)
    for number, _name, sql in migrations("sqlite"):
        if number >= 7:
            break
        for statement in _split_sql(sql):
            connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {number}")
    connection.execute(
        "INSERT INTO game_tables (id, guild_id, channel_id, game, status, host_id, rules_json,"
        " schema_version, version, escrow, house_net, seed_hex, commitment, dice_counter,"
        " created_at, updated_at) VALUES"
        " (1, 9, 8, 'hazard', 'finished', 5, '{}', 1, 3, 0, 0, '', '', 0, 10.0, 20.0),"
        " (2, 9, 8, 'hazard', 'running', 5, '{}', 1, 3, 20, 0, '', '', 0, 30.0, 40.0)"
    )
    connection.execute(
        "INSERT INTO table_seats (table_id, user_id, seat_no, wallet_net) VALUES"
        " (1, 5, 1, 25), (1, 6, 2, -25), (2, 5, 1, -10), (2, 6, 2, -10)"
    )
    connection.close()
    db = await open_database(sqlite_url(path))
    try:
        async with db.reading() as tx:
            rows = await tx.fetchall(
                "SELECT table_id, user_id, game, net, won, at FROM player_results ORDER BY user_id"
            )
    finally:
        await db.close()
    assert [tuple(row) for row in rows] == [
        (1, 5, "hazard", 25, 1, 20.0),
        (1, 6, "hazard", -25, 0, 20.0),
    ], "the running table is not counted"
