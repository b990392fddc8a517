"""/stats after scripted tables: played, won, net, best win, longest streak, and the chart
of the running net over the member's last tables (attached, described in its footer)."""

from __future__ import annotations

import re

from tests.support.sim import answered, make_world


async def play(world, dice, winner: str) -> None:
    """One coin-flip table, alice calling first; the dice make `winner` win."""
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "coinflip open", stake=10)).response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    if winner == "alice":
        dice.extend([1])  # heads: her call wins
        answered(await alice.click(world.channel.last_message, label="Heads"))
    else:
        dice.extend([2, 1])  # tails: bob calls next, heads, and wins
        answered(await alice.click(world.channel.last_message, label="Heads"))
        answered(await bob.click(world.channel.last_message, label="Heads"))


def field_of(result) -> dict[str, int]:
    (field,) = result.response.embeds[0].fields
    # Coins carry the currency (net signed): "net: **+10 ryō**"; counts are bare.
    found = re.findall(r"^(.+): \*\*([-+]?[\d,]+)(?: ryō)?\*\*$", field.value, re.MULTILINE)
    return {stat: int(value.replace(",", "")) for stat, value in found}


async def test_records_and_chart_after_three_tables(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    for winner in ("alice", "alice", "bob"):
        await play(world, dice, winner)

    mine = answered(await alice.slash(world.channel, "stats"), ephemeral=True)
    assert field_of(mine) == {
        "played": 3,
        "won": 2,
        "net": 10,
        "best win": 10,
        "longest streak": 2,
    }
    lines = mine.response.embeds[0].fields[0].value.splitlines()
    assert "net: **+10 ryō**" in lines and "best win: **10 ryō**" in lines
    assert "played: **3**" in lines, "a count is no amount of coins"
    (chart,) = mine.response.attachments
    assert chart.filename == "stats.png"
    embed = mine.response.embeds[0]
    assert embed.image.url == "attachment://stats.png"
    # The footer describes the chart: +10, +20, then +10.
    assert "over the last 3 tables" in embed.footer.text
    assert "+10 ryō at the lowest to +20 ryō at the highest; now +10 ryō" in embed.footer.text

    theirs = answered(await alice.slash(world.channel, "stats", member=bob), ephemeral=True)
    assert field_of(theirs)["best win"] == 10 and field_of(theirs)["longest streak"] == 1
    assert (
        "from -20 ryō at the lowest to -10 ryō at the highest; now -10 ryō"
        in theirs.response.embeds[0].footer.text
    )

    other_game = answered(await alice.slash(world.channel, "stats", game="hazard"), ephemeral=True)
    assert other_game.response.embeds[0].description == "No finished games yet."
    assert not other_game.response.attachments, "no chart without tables"
