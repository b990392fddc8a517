"""Skill ratings through Discord, on the Strength Duel: a duel played to its end rates
both players (openskill's numbers exactly) and shows in /stats and on the game's rating
board; a moderator's end and a no-show's forfeit change nothing; the computer's rating
after a series of wins over a member; the provisional mark until the tenth game."""

from __future__ import annotations

from typing import Any

from bot import ratings
from bot.games import strength_duel as duel
from bot.games.common import COMPUTER_IDS, Ranking
from bot.storage import ratings as rq
from tests.support.computers import vary_computer
from tests.support.japanese import english_in, make_japanese_world, texts_of
from tests.support.sim import answered, make_world, refusal, the_bot

GAME = "strength_duel"
COMPUTER = COMPUTER_IDS[0]


async def bid(member: Any, amount: int) -> None:
    """``member`` bids from their DM panel: a quick button, or the form for a big bid."""
    panel = member.user.dm_channel.last_message
    assert panel is not None and "Pick your bid" in panel.content
    if amount <= 5:
        answered(await member.user.click(panel, label=str(amount)))
        return
    shown = answered(await member.user.click(panel, label="Other amount…"))
    answered(await member.user.submit_modal(shown, {"amount": str(amount)}))


async def challenged(world: Any, **options: Any) -> int:
    """alice challenges bob, who accepts: the duel's table id."""
    alice, bob = world["alice"], world["bob"]
    options.setdefault("stake", 10)
    result = answered(await alice.slash(world.channel, "duel challenge", member=bob, **options))
    answered(await bob.click(result.response.message, label="Accept"))
    return int((await world.env.bot.tables.live_tables(world.guild.id))[-1].id)


async def bob_wins_in_one_round(world: Any) -> None:
    # alice spends all 25 of her strength; bob, the lower bid, pays 3 and stands on 22
    # while alice is left on 0: she is out.
    table = await challenged(world)
    await bid(world["bob"], 0)
    await bid(world["alice"], 25)
    state = (await world.env.bot.tables.snapshot(table)).state
    assert state.finished and state.winner == world["bob"].id


def bids_one(state: duel.State, seat: int, dice: Any) -> duel.Bid | None:
    """A computer that bids 1 whenever it must bid."""
    return duel.Bid(amount=1) if seat in duel.waiting_for(state) else None


async def stored(world: Any, user: int) -> ratings.Skill | None:
    for rated in await world.env.bot.tables.ratings(world.guild.id, user):
        if rated.game == GAME:
            row = rated.rating
            return ratings.Skill(row.mu, row.sigma, row.games)
    return None


async def stats_field(world: Any, member: Any) -> str:
    result = answered(await member.slash(world.channel, "stats", game=GAME), ephemeral=True)
    (embed,) = result.response.embeds
    if not embed.fields:
        return embed.description or ""
    (field,) = embed.fields
    return str(field.value)


async def board(world: Any, member: Any) -> list[str]:
    result = answered(await member.slash(world.channel, "leaderboard", rating=GAME))
    (embed,) = result.response.embeds
    assert embed.title == "Leaderboard — skill rating · Strength Duel"
    return str(embed.description).splitlines()


async def test_a_duel_played_to_the_end_rates_both_players(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await bob_wins_in_one_round(world)
    expected = ratings.rate(Ranking(((alice.id,), (bob.id,)), (2, 1)), {})
    assert await stored(world, bob.id) == expected[bob.id]
    assert await stored(world, alice.id) == expected[alice.id]
    won, lost = expected[bob.id].shown, expected[alice.id].shown
    assert lost < 1500 < won

    mine = await stats_field(world, bob)
    assert f"rating: **{won}?** (provisional: 1 of 10 rated games) · rank **1** of 2" in mine
    theirs = await stats_field(world, alice)
    assert f"rating: **{lost}?** (provisional: 1 of 10 rated games) · rank **2** of 2" in theirs
    assert await board(world, alice) == [
        f"**1.** {bob.mention} — {won}?",
        f"**2.** {alice.mention} — {lost}?",
        "",
        "Ratings by openskill (Weng-Lin), 1500 to start; ? marks a provisional rating: "
        "fewer than 10 rated games.",
    ]

    # A second duel starts from the first's ratings.
    await bob_wins_in_one_round(world)
    again = ratings.rate(Ranking(((alice.id,), (bob.id,)), (2, 1)), expected)
    assert await stored(world, bob.id) == again[bob.id] and again[bob.id].games == 2


async def test_a_rating_board_names_one_rated_game_alone(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    empty = answered(await alice.slash(world.channel, "leaderboard", rating=GAME))
    assert empty.response.embeds[0].description == "No finished games to rank yet."
    both = await alice.slash(world.channel, "leaderboard", rating=GAME, by="wins")
    assert "choose the game under rating alone" in refusal(both)
    with_game = await alice.slash(world.channel, "leaderboard", rating=GAME, game="hazard")
    assert "choose the game under rating alone" in refusal(with_game)


async def test_a_duel_a_moderator_ended_changes_no_rating(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await challenged(world)
    await bid(alice, 2)
    await bid(bob, 1)
    answered(await world.moderator.slash(world.channel, "cancel", table=1))
    assert (await simcord_env.bot.tables.snapshot(1)).row.status == "cancelled"
    assert await stored(world, alice.id) is None and await stored(world, bob.id) is None
    assert await stats_field(world, alice) == "No finished games yet."


async def no_show(world: Any, moves_by_bob: int) -> None:
    """A duel where bob bids in his first ``moves_by_bob`` rounds, then never again:
    alice bids 0 every round, the deadline bids 0 for bob, and his third missed round in
    a row forfeits the game to alice."""
    alice, bob = world["alice"], world["bob"]
    table = await challenged(world, round_seconds=60)
    for round_no in range(1, 20):
        await bid(alice, 0)
        if round_no <= moves_by_bob:
            await bid(bob, 0)
        else:
            await world.env.advance_time(61)
        state = (await world.env.bot.tables.snapshot(table)).state
        if state.finished:
            break
    assert state.finished and state.winner == alice.id and bob.id in state.eliminated
    assert state.round == moves_by_bob + duel.Rules().afk_rounds_to_forfeit


async def test_a_forfeit_before_any_move_changes_no_rating(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await no_show(world, moves_by_bob=0)
    assert await stored(world, alice.id) is None and await stored(world, bob.id) is None
    field = await stats_field(world, alice)
    assert "won: **1**" in field, "the win still counts in the stats"
    assert "rating" not in field


async def test_a_forfeit_after_a_move_is_rated(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await no_show(world, moves_by_bob=1)
    expected = ratings.rate(Ranking(((alice.id,), (bob.id,)), (1, 2)), {})
    assert await stored(world, alice.id) == expected[alice.id]
    assert await stored(world, bob.id) == expected[bob.id]


async def test_the_computer_beating_a_member_again_and_again_rises_above_them(
    simcord_env, monkeypatch
):
    """The computer, bidding 1 every round against alice's 0, wins every duel (alice pays
    3 a round until she cannot); after each its rating is openskill's from the last."""
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    vary_computer(
        monkeypatch,
        simcord_env.bot,
        GAME,
        decide=bids_one,
        thinking_seconds=0.0,
    )
    expected: dict[int, ratings.Skill] = {}
    for _game in range(3):
        answered(await alice.slash(world.channel, "duel challenge", member=the_bot(world), stake=5))
        table = int((await simcord_env.bot.tables.live_tables(world.guild.id))[-1].id)
        while not (await simcord_env.bot.tables.snapshot(table)).state.finished:
            await bid(alice, 0)
            await simcord_env.bot.tables.computers.idle()
        assert (await simcord_env.bot.tables.snapshot(table)).state.winner == COMPUTER
        expected = ratings.rate(Ranking(((COMPUTER,), (alice.id,)), (1, 2)), expected)
        assert await stored(world, COMPUTER) == expected[COMPUTER]
        assert await stored(world, alice.id) == expected[alice.id]

    computer, member = expected[COMPUTER], expected[alice.id]
    assert computer.games == member.games == 3
    assert computer.mu > ratings.NEW.mu > member.mu
    assert computer.shown > ratings.NEW.shown > member.shown
    lines = await board(world, alice)
    assert lines[:2] == [
        f"**1.** 🤖 Computer — {computer.shown}?",
        f"**2.** {alice.mention} — {member.shown}?",
    ]


async def test_the_provisional_mark_goes_at_the_tenth_rated_game(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    for _game in range(ratings.PROVISIONAL_GAMES - 1):
        await bob_wins_in_one_round(world)
    skill = await stored(world, bob.id)
    assert skill is not None and skill.games == 9
    assert (
        f"rating: **{skill.shown}?** (provisional: 9 of 10 rated games) · rank **1** of 2"
        in await stats_field(world, bob)
    )

    await bob_wins_in_one_round(world)
    skill = await stored(world, bob.id)
    assert skill is not None and skill.games == 10
    field = await stats_field(world, bob)
    assert f"rating: **{skill.shown}** · rank **1** of 2" in field
    assert "provisional" not in field and "?" not in field
    assert (await board(world, alice))[0] == f"**1.** {bob.mention} — {skill.shown}"


async def test_ratings_read_in_japanese(simcord_env, monkeypatch):
    world, _locales = await make_japanese_world(simcord_env, monkeypatch, "alice")
    alice = world["alice"]
    vary_computer(monkeypatch, simcord_env.bot, GAME, decide=bids_one, thinking_seconds=0.0)
    answered(await alice.slash(world.channel, "duel challenge", member=the_bot(world), stake=5))
    while not (await simcord_env.bot.tables.snapshot(1)).state.finished:
        answered(await alice.user.click(alice.user.dm_channel.last_message, label="0"))
        await simcord_env.bot.tables.computers.idle()
    skill = await stored(world, alice.id)
    assert skill is not None
    stats = answered(await alice.slash(world.channel, "stats", game=GAME), ephemeral=True)
    (field,) = stats.response.embeds[0].fields
    line = f"レーティング：**{skill.shown}?**（暫定：対象の対局 1/10局）· 2人中 **2**位"
    assert line in field.value
    rating_board = answered(await alice.slash(world.channel, "leaderboard", rating=GAME))
    assert rating_board.response.embeds[0].title == "ランキング — レーティング · 力比べ"
    refused = await alice.slash(world.channel, "leaderboard", rating=GAME, by="wins")
    shown = texts_of([stats, rating_board, refused])
    assert english_in(shown, names=("alice",)) == []


async def test_a_long_rating_board_turns_its_pages(simcord_env):
    """Twelve rated players (their rows written as a table's end writes them): the board's
    second page starts at rank 11, the weakest last, and keeps the legend."""
    world = await make_world(simcord_env, "asker")
    asker = world["asker"]
    players = [10_000 + n for n in range(12)]
    async with simcord_env.bot.db.transaction() as tx:
        for n, player in enumerate(players):
            await rq.lock(tx, world.guild.id, GAME, [player], mu=25.0, sigma=8.0, now=1.0)
            row = rq.RatingRow(player, 20.0 + n, 2.0, 10)
            await rq.save(tx, world.guild.id, GAME, row, ordinal=row.mu - 3 * row.sigma, now=1.0)
    first = answered(await asker.slash(world.channel, "leaderboard", rating=GAME)).response
    assert first.embeds[0].footer.text == "Page 1 of 2"
    assert first.embeds[0].description.splitlines()[0].startswith(f"**1.** <@{players[-1]}> — ")
    turned = answered(await asker.click(first, label="Next")).response
    lines = turned.embeds[0].description.splitlines()
    assert turned.embeds[0].title == "Leaderboard — skill rating · Strength Duel"
    weakest = ratings.Skill(20.0, 2.0, 10).shown
    assert lines[:2] == [
        f"**11.** <@{players[1]}> — {ratings.Skill(21.0, 2.0, 10).shown}",
        f"**12.** <@{players[0]}> — {weakest}",
    ]
    assert lines[-1].startswith("Ratings by openskill")
