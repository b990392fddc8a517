"""Hazard through Discord, issue 9: the betting window with its live countdown, the
quick-amount picker, no cashing out of a riding bet, the table options and the odds."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from cogs.hazard import HazardCog
from tests.support.sim import answered, button_of, labels, make_world, refusal, select_id, wallet


async def started(simcord_env, *names: str, **options):
    world = await make_world(simcord_env, *names)
    host = world[names[0]]
    table = answered(await host.slash(world.channel, "hazard open", **options)).response.message
    for name in names[1:]:
        answered(await world[name].click(table, label="Join"))
    answered(await host.click(table, label="Start"))
    return world


async def call_main(world, member, main: int):
    table = world.channel.last_message
    return answered(await member.select(table, [str(main)], custom_id=select_id(table, "main")))


def description(world) -> str:
    return world.channel.last_message.embeds[0].description


async def test_the_betting_window(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob", "carol", bet_seconds=20)
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    await call_main(world, alice, 6)

    # Open: a live countdown, first, naming who it waits for; no Throw yet, Ready offered.
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.window_open
    countdown = f"<t:{int(snapshot.deadline.due_at)}:R>"
    turn = description(world).split("\n")[0]
    assert turn.startswith("▶️") and "press **Ready**" in turn and countdown in turn, turn
    assert f"<@{bob.id}>" in turn and f"<@{carol.id}>" in turn, "it names who it waits for"
    assert "Throw" not in labels(world.channel.last_message), "only what can be used now"
    assert not button_of(world.channel.last_message, "Ready").disabled
    assert "not the caster" in refusal(await alice.click(world.channel.last_message, label="Ready"))

    # Bob bets during the window with a quick button; the throw is still refused.
    picker = answered(
        await bob.click(world.channel.last_message, label="Bet against"), ephemeral=True
    )
    answered(await bob.click(picker.response.message, label="50"))
    assert await wallet(world, bob) == 950
    # No Throw button to click; the engine refuses the throw too
    # (tests/games/test_hazard_rulings.py).
    assert "Throw" not in labels(world.channel.last_message)
    turn = description(world).split("\n")[0]
    assert f"<@{bob.id}>" not in turn and f"<@{carol.id}>" in turn, "bob has bet"
    assert (await simcord_env.bot.tables.snapshot(1)).state.window_open, "still waiting on carol"

    # Carol never answers: the deadline closes the window, then the caster may throw.
    await simcord_env.advance_time(21)
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert not snapshot.state.window_open and snapshot.state.throws == 0
    assert "Time is up" in description(world)
    assert not button_of(world.channel.last_message, "Throw").disabled
    assert "Bet with" not in labels(world.channel.last_message), "bets are closed"
    assert description(world).startswith(f"▶️ <@{alice.id}> — throw ·")
    assert (
        "closed"
        in refusal(await carol.slash(world.channel, "hazard bet", kind="with", amount=5)).lower()
    )
    dice.extend([3, 3])  # 6: the main nicks
    answered(await alice.click(world.channel.last_message, label="Throw"))
    assert await wallet(world, bob) == 950
    assert await wallet(world, carol) == 1000


async def test_ready_closes_the_window_early(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    await call_main(world, alice, 7)
    answered(await bob.slash(world.channel, "hazard bet", kind="with", amount=10))
    assert (await simcord_env.bot.tables.snapshot(1)).state.window_open
    answered(await carol.click(world.channel.last_message, label="Ready"))
    assert "Everyone is ready" in description(world)
    dice.extend([5, 6])  # 11: nicks on 7
    answered(await alice.click(world.channel.last_message, label="Throw"))
    assert await wallet(world, bob) == 1010


async def test_quick_amount_buttons_respect_limits_and_the_wallet(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob", min_stake=20, max_stake=500)
    bob = world["bob"]
    picker = answered(await bob.click(world.channel.last_message, label="Bet with"), ephemeral=True)
    message = picker.response.message
    assert labels(message) == ["20", "50", "100", "Max (500)", "Other amount…"]
    # Every quick id follows the one custom-id grammar.
    for row in message.components:
        for child in row.children:
            assert re.fullmatch(r"tz:\d+:\d+:[a-z_]{1,24}(:[A-Za-z0-9_\-]{1,40})?", child.custom_id)
    clicked = answered(await bob.click(message, label="50"))
    assert "Your bet is on: 50" in clicked.response.message.content
    assert labels(clicked.response.message)[3] == "Max (450)"
    answered(await bob.click(clicked.response.message, label="Max (450)"))
    assert (await simcord_env.bot.tables.snapshot(1)).state.bets[bob.id] == {"with": 500}
    assert await wallet(world, bob) == 500
    full = answered(await bob.click(world.channel.last_message, label="Bet with"))
    assert labels(full.response.message) == ["10", "50", "100", "Max (0)", "Other amount…"]
    assert all(button_of(full.response.message, label).disabled for label in ("10", "Max (0)"))

    # The wallet caps Max too.
    other = await started(simcord_env, "carol", "dave", max_stake=5000)
    dave = other["dave"]
    picker = answered(await dave.click(other.channel.last_message, label="Bet against"))
    assert "Max (1,000)" in labels(picker.response.message)
    answered(await dave.click(picker.response.message, label="Max (1,000)"))
    assert await wallet(other, dave) == 0


async def test_no_cashing_out_with_a_bet_riding(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob", bet_seconds=0)
    alice, bob = world["alice"], world["bob"]
    answered(await bob.slash(world.channel, "hazard bet", kind="against", amount=40))
    assert "bets riding" in refusal(await bob.click(world.channel.last_message, label="Cash out"))
    await call_main(world, alice, 7)
    dice.extend([2, 2])  # 4: a chance, and the round is undecided
    answered(await alice.click(world.channel.last_message, label="Throw"))
    assert "bets riding" in refusal(await bob.click(world.channel.last_message, label="Cash out"))
    assert bob.id in (await simcord_env.bot.tables.snapshot(1)).state.seats
    assert await wallet(world, bob) == 960
    dice.extend([3, 4])  # 7: the main comes, the caster loses, "against" wins
    answered(await alice.click(world.channel.last_message, label="Throw"))
    answered(await bob.click(world.channel.last_message, label="Cash out"))
    assert await wallet(world, bob) == 1040


async def test_table_options_and_their_odds(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice, mod = world["alice"], world.moderator
    # The "against" terms are the server's (they move the bank's edge): a moderator's.
    rule = dict(game="hazard", option="against_commission")
    answered(await mod.slash(world.channel, "config rule", **rule, value="4"))
    bar_off = dict(game="hazard", option="against_bar", value="off")
    assert "at least 5%" in refusal(await mod.slash(world.channel, "config rule", **bar_off))
    answered(await mod.slash(world.channel, "config rule", **rule, value="5"))
    answered(await mod.slash(world.channel, "config rule", **bar_off))
    opened = answered(
        await alice.slash(
            world.channel,
            "hazard open",
            bet_seconds=0,
            absent_rounds=0,
            seats=3,
            max_stake=20_000,
        )
    )
    snapshot = await simcord_env.bot.tables.snapshot(1)
    rules = snapshot.rules
    assert (rules.against_bar, rules.against_commission, rules.bet_seconds) == (False, 5, 0)
    assert (rules.absent_rounds_to_lose_dice, rules.max_players) == (0, 3)
    lobby = opened.response.message.embeds[0].to_dict()
    assert "20,000" in str(lobby), "numbers carry thousands separators"
    assert "5% commission" in str(lobby)
    result = answered(await alice.slash(world.channel, "hazard odds", main=6), ephemeral=True)
    field = result.response.embeds[0].fields[0].value
    assert "against 0.22%" in field  # (6961 - 0.95 · 7295) / 14256, the table's terms


def test_the_rules_screen_promises_only_options_that_exist():
    text = (Path(__file__).resolve().parents[2] / "bot/rules_text/hazard.md").read_text()
    house = text.split("\n---\n")[-1]
    # The opener's options, then (after this line) the ones only moderators set.
    openers, _, servers = house.partition("**Set by the server's moderators**")

    def listed(part: str) -> set[str]:
        return {
            name
            for line in part.splitlines()
            if line.startswith("- `")
            for name in re.findall(r"`([a-z_]+)`", line.split(" – ")[0])
        }

    promised = listed(openers)
    offered = set(inspect.signature(HazardCog.open.callback).parameters) - {"self", "interaction"}
    assert promised, "the House Options page lists the options"
    assert promised <= offered, promised - offered
    assert offered <= promised, offered - promised
    assert listed(servers) == {o.name for o in HazardCog.options.options if o.server}


async def test_a_moderator_ending_the_table_mid_chance_pays_exact_values(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob", "carol", bet_seconds=0)
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    answered(await bob.slash(world.channel, "hazard bet", kind="with", amount=30))
    answered(await carol.slash(world.channel, "hazard bet", kind="against", amount=31))
    await call_main(world, alice, 7)
    dice.extend([1, 3])  # 4: the chance; it comes before the 7 one time in three
    answered(await alice.click(world.channel.last_message, label="Throw"))
    # The host cannot walk away from a chance that drags on; a moderator can end it.
    assert "moderator" in refusal(await alice.slash(world.channel, "cancel", table=1))
    answered(await world.moderator.slash(world.channel, "cancel", table=1))
    snapshot = await simcord_env.bot.tables.snapshot(1)
    assert snapshot.state.finished and set(snapshot.state.stakes.values()) == {0}
    assert await wallet(world, bob) == 1000 - 30 + 20  # worth 60 × 1/3
    assert await wallet(world, carol) == 1000 - 31 + 41  # worth 62 × 2/3 = 41⅓, rounded down
    assert "exact value" in description(world)
