"""/stats and /leaderboard after a scripted table of Hazard, Nihakyu and Fortunes and Winds,
each played to its end through Discord: the records, the game's honour, the chart (its
pixels in the game's colour) and the game's boards. (Coin-flip, Strength Duel and Nuki
Hachi-hachi end in /stats in their own files.)"""

from __future__ import annotations

import io
import re
from typing import Any

from PIL import Image

from bot.games import fortunes_winds as fw
from bot.games import hazard, nihakyu
from cogs._ui.stats_chart import colour_of
from tests.cogs.test_fortunes_winds_simcord import FORTUNES, started
from tests.cogs.test_fortunes_winds_simcord import click as fw_click
from tests.cogs.test_hazard_simcord import call_main, ready, throw
from tests.cogs.test_nihakyu_simcord import choose
from tests.support.sim import answered, make_world, wallet

START = 1000
RECORDS = ("played", "won", "net", "best win", "longest streak")


def booked(result: Any, title: str) -> dict[str, int]:
    """The game's field of a /stats answer, one ``stat: **value**`` a line."""
    (embed,) = answered(result, ephemeral=True).response.embeds
    (field,) = [f for f in embed.fields if f.name == title]
    found = re.findall(r"^(.+): \*\*([-+]?[\d,]+)(?: ryō)?\*\*$", field.value, re.MULTILINE)
    return {stat: int(value.replace(",", "")) for stat, value in found}


def chart_colours(world: Any, result: Any) -> set[tuple[int, int, int]]:
    """Every colour of the chart attached to a /stats answer."""
    (chart,) = result.response.attachments
    assert chart.filename == "stats.png"
    data = world.env.backend.cdn.get(chart.url)
    assert data is not None, "the chart was uploaded"
    image = Image.open(io.BytesIO(data)).convert("RGB")
    return {colour for _, colour in image.getcolors(image.width * image.height)}


async def check_books(
    world: Any, game: str, title: str, winner: Any, loser: Any, honour: str | None
) -> None:
    """Both players' /stats for `game` and the game's boards, from their wallets."""
    won = await wallet(world, winner) - START
    lost = await wallet(world, loser) - START
    assert won > 0 > lost, (won, lost)
    mine = await winner.slash(world.channel, "stats", game=game)
    records = booked(mine, title)
    assert {k: records[k] for k in RECORDS} == {
        "played": 1,
        "won": 1,
        "net": won,
        "best win": won,
        "longest streak": 1,
    }
    assert {k for k in records if k not in RECORDS} == ({honour} if honour else set())
    if honour:
        assert records[honour] == 1
    footer = mine.response.embeds[0].footer.text
    assert f"over the last 1 tables, from {won:+,} ryō at the lowest" in footer
    assert colour_of(game) in chart_colours(world, mine), "the step is in the game's colour"

    theirs = booked(await winner.slash(world.channel, "stats", member=loser, game=game), title)
    assert theirs == {"played": 1, "net": lost, "best win": 0, "longest streak": 0}, theirs

    by_wins = answered(await loser.slash(world.channel, "leaderboard", game=game, by="wins"))
    assert by_wins.response.embeds[0].description.splitlines() == [
        f"**1.** {winner.mention} — 1 win"
    ]
    by_net = answered(await loser.slash(world.channel, "leaderboard", game=game, by="net"))
    first, second = by_net.response.embeds[0].description.splitlines()
    assert first.startswith(f"**1.** {winner.mention} — +{won:,} ")
    assert second.startswith(f"**2.** {loser.mention} — {lost:,} ")


async def test_hazard_a_nick_in_stats_and_on_the_boards(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "hazard open")).response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    answered(await alice.slash(world.channel, "hazard bet", kind="caster", amount=20))
    answered(await bob.slash(world.channel, "hazard bet", kind="against", amount=30))
    await call_main(world, alice, 7)
    await ready(world, bob)
    dice.extend([3, 4])  # 7 on the first throw: a nick
    await throw(world, alice)
    for member in (bob, alice):
        answered(await member.click(world.channel.last_message, label="Cash out"))
    assert (await simcord_env.bot.tables.snapshot(1)).state.finished
    await check_books(world, "hazard", "Hazard", alice, bob, hazard.NICK_HONOUR)


async def test_nihakyu_the_shinigamis_hand_in_stats_and_on_the_boards(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    opened = answered(
        await alice.slash(world.channel, "nihakyu open", ante=30, starting_stamina=20)
    )
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(opened.response.message, label="Start"))
    dice.extend([19, 20])  # alice survives at exactly 1 Stamina, bob falls
    await choose(world, alice)
    await choose(world, bob)
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.finished and snapshot.state.winner == alice.id
    await check_books(world, "nihakyu", "Nihakyu", alice, bob, nihakyu.SHINIGAMI)


async def test_fortunes_and_winds_rolled_in_stats_and_on_the_boards(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    answered(await alice.slash(world.channel, "fortunes bet", kind="shooter", amount=5))
    answered(await bob.slash(world.channel, "fortunes bet", kind="against", amount=6))
    # North, East, West and South with Fortunes on the black die.
    dice.extend([4, 4, 4, 4, FORTUNES])
    answered(await fw_click(world, alice, "Roll"))
    for member in (bob, alice):
        answered(await fw_click(world, member, "Cash out"))
    assert (await simcord_env.bot.tables.snapshot(1)).state.finished
    await check_books(
        world, "fortunes_winds", "Fortunes and Winds", alice, bob, fw.FORTUNES_AND_WINDS_HONOUR
    )
