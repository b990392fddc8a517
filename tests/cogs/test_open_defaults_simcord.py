"""Every game's `/… open` with no options: two new wallets open and start it, inside the
server's `/config stakes` limits too; a wallet too short for the seat is told the largest
stake that covers it. Iterates the catalog, so a new game cannot slip past."""

from __future__ import annotations

from typing import Any

import pytest

from bot.catalog import CATALOG
from tests.support.sim import answered, make_world, refusal, wallet

GAMES = CATALOG.names()


def group_of(bot: Any, game: str) -> str:
    """The slash group of the game's cog (`/hanafuda`, `/duel`, …)."""
    for cog in bot.cogs.values():
        if getattr(getattr(cog, "ui", None), "game", None) == game:
            return str(cog.__cog_group_name__)
    raise AssertionError(f"no cog for {game}")


async def open_and_start(world: Any, game: str) -> Any:
    alice, bob = world["alice"], world["bob"]
    bot = world.env.bot
    opened = answered(await alice.slash(world.channel, f"{group_of(bot, game)} open"))
    assert not opened.ephemeral, refusal(opened)
    table = opened.response.message
    joined = answered(await bob.click(table, label="Join"))
    assert not joined.ephemeral, refusal(joined)
    snapshot = await bot.tables.snapshot(1)
    if snapshot.state is None:  # a lobby: the host starts it
        started = answered(await alice.click(table, label="Start"))
        assert not started.ephemeral, refusal(started)
        snapshot = await bot.tables.snapshot(1)
    assert snapshot.state is not None, f"{game}: the table did not start"
    assert set(snapshot.seats) == {alice.id, bob.id}
    return snapshot


@pytest.mark.parametrize("game", GAMES)
async def test_open_with_no_options_starts_with_two_new_wallets(simcord_env, game):
    world = await make_world(simcord_env, "alice", "bob")
    await open_and_start(world, game)
    # New wallets of the default welcome coins paid the defaults' seats.
    assert await wallet(world, world["alice"]) <= 1000


@pytest.mark.parametrize("game", GAMES)
async def test_defaults_move_inside_the_servers_stake_limits(simcord_env, game):
    await check_defaults_inside_limits(await make_world(simcord_env, "alice", "bob"), game)


async def check_defaults_inside_limits(world: Any, game: str) -> None:
    """A moderator limits the game's stakes (`/config stakes`, which offers every game
    of the bot's catalog); its table opened with no options starts inside them."""
    limits = dict(game=game, lowest=200, highest=500)
    answered(await world.moderator.slash(world.channel, "config stakes", **limits))
    snapshot = await open_and_start(world, game)
    engine = world.env.bot.registry.get(game).engine
    least, most = engine.stake_range(snapshot.rules)
    assert 200 <= least <= most <= 500, (least, most)


@pytest.mark.parametrize(
    ("command", "options", "fit"),
    [
        # 8 a kan escrows 1,009 (one round's worst case); 7 escrows 883.
        ("hanafuda open", {"stake_per_kan": 8}, "The largest `stake_per_kan` it covers is **7**"),
        ("nihakyu open", {"ante": 1200}, "the largest `ante` it covers is **1,000**"),
        ("duel open", {"stake": 1001}, "the largest `stake` it covers is **1,000**"),
    ],
)
async def test_a_short_wallet_is_told_the_largest_stake_it_covers(
    simcord_env, command, options, fit
):
    world = await make_world(simcord_env, "alice", "bob")
    text = refusal(await world["alice"].slash(world.channel, command, **options))
    assert fit in text, text
    assert await wallet(world, world["alice"]) == 1000, "nothing was staked"


async def test_a_challengers_short_wallet_is_told_the_largest_stake_it_covers(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await simcord_env.bot.economy.grant(world.guild.id, bob.id, 5000, "test")
    text = refusal(await alice.slash(world.channel, "duel challenge", member=bob, stake=1500))
    assert "the largest `stake` it covers is **1,000**" in text, text


def test_betting_limits_left_out_move_to_the_nearest_within_the_servers() -> None:
    from cogs.hazard import OPTIONS

    def stake_range(values: dict[str, Any]) -> tuple[int, int]:
        return values["min_stake"], values["max_stake"]

    values = OPTIONS.values({})
    assert OPTIONS.fit_stakes(values, set(), (2000, 5000), stake_range)["max_stake"] == 2000
    fitted = OPTIONS.fit_stakes(values, set(), (5, 500), stake_range)
    assert (fitted["min_stake"], fitted["max_stake"]) == (5, 500)
    typed = OPTIONS.values({"max_stake": 800})
    assert OPTIONS.fit_stakes(typed, {"max_stake"}, (5, 500), stake_range)["max_stake"] == 800


async def test_a_bet_past_the_wallet_is_told_the_most_it_can_add(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    opened = answered(
        await alice.slash(world.channel, "fortunes open", max_stake=1000, bet_seconds=0)
    )
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    state = (await simcord_env.bot.tables.snapshot(1)).state
    shooter = alice if state.shooter == alice.id else bob
    # A shooter's bet stakes as much again for Lord Moon: 600 needs 1,200 of 1,000.
    text = refusal(await shooter.slash(world.channel, "fortunes bet", kind="shooter", amount=600))
    assert "the most you can add to your bet" in text and "is **500**" in text, text
    assert await wallet(world, shooter) == 1000


async def test_a_challenge_with_no_one_named_points_to_duel_open(simcord_env):
    world = await make_world(simcord_env, "alice")
    text = refusal(await world["alice"].slash(world.channel, "duel challenge"))
    assert "`/duel open` opens a table anyone can join" in text, text
