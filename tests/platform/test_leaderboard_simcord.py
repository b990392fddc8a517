"""/leaderboard [game] [by]: the richest wallets, most wins or best net, one game's or all
games', ten a page, paged by the member who asked."""

from __future__ import annotations

from bot.storage import table_queries as tq
from tests.support.sim import answered, button_of, labels, make_world, refusal


async def seed_stats(env, guild_id: int, rows: list[tuple[int, str, str, int]]) -> None:
    """Finished games' stats as the table service records them (one bump per row)."""
    async with env.bot.db.transaction() as tx:
        for user_id, game, stat, value in rows:
            await tq.bump_stat(tx, guild_id, user_id, game, stat, value)


def ranked(result) -> list[str]:
    return result.response.embeds[0].description.splitlines()


async def test_wins_and_net_per_game_and_over_all_games(simcord_env):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    await seed_stats(
        simcord_env,
        world.guild.id,
        [
            (alice.id, "hazard", "won", 3),
            (alice.id, "hazard", "net", 120),
            (bob.id, "hazard", "won", 5),
            (bob.id, "hazard", "net", -40),
            (carol.id, "strength_duel", "won", 7),
            (carol.id, "strength_duel", "net", 300),
            (alice.id, "strength_duel", "won", 1),
        ],
    )
    asked = await alice.slash(world.channel, "leaderboard", game="hazard", by="wins")
    hazard_wins = answered(asked)
    assert hazard_wins.response.embeds[0].title == "Leaderboard — most wins · Hazard"
    lines = ranked(hazard_wins)
    assert bob.mention in lines[0] and "5 wins" in lines[0]
    assert alice.mention in lines[1] and "3 wins" in lines[1] and len(lines) == 2

    # A game without `by` ranks its net coins; a loss shows as one.
    hazard_net = ranked(await alice.slash(world.channel, "leaderboard", game="hazard"))
    assert "+120 ryō" in hazard_net[0] and "-40 ryō" in hazard_net[1]

    everything = answered(await alice.slash(world.channel, "leaderboard", by="wins"))
    assert "all games" in everything.response.embeds[0].title
    lines = ranked(everything)
    assert [line.split(" — ")[1] for line in lines] == ["7 wins", "5 wins", "4 wins"]
    assert alice.mention in lines[2], "her wins of both games add up"

    empty = ranked(await alice.slash(world.channel, "leaderboard", game="nihakyu"))
    assert empty == ["No finished games to rank yet."]
    text = refusal(await alice.slash(world.channel, "leaderboard", game="hazard", by="coins"))
    assert "not in one game" in text


async def test_a_long_board_is_paged_by_the_member_who_asked(simcord_env):
    names = [f"p{n:02d}" for n in range(12)]
    world = await make_world(simcord_env, *names)
    economy = simcord_env.bot.economy
    for n, name in enumerate(names):
        await economy.grant(world.guild.id, world[name].id, 100 * (n + 1), "test")
    asker, other = world["p00"], world["p01"]
    board = answered(await asker.slash(world.channel, "leaderboard"), ephemeral=False)
    first = board.response
    assert first.embeds[0].footer.text == "Page 1 of 2"
    assert len(ranked(board)) == 10 and world["p11"].mention in ranked(board)[0]
    assert labels(first) == ["Previous", "Next"]
    assert button_of(first, "Previous")["disabled"]

    assert "Run /leaderboard yourself" in refusal(await other.click(first, label="Next"))
    turned = answered(await asker.click(first, label="Next")).response
    lines = turned.embeds[0].description.splitlines()
    assert turned.embeds[0].footer.text == "Page 2 of 2"
    assert lines[0].startswith("**11.**") and lines[1].startswith("**12.**")
    assert world["p00"].mention in lines[1], "the poorest last"
