"""Fortunes and Winds through Discord: the seed's worked example at a three-player table,
the dice toggles, a restart between two rolls, strangers, bad input and a player banker."""

from __future__ import annotations

import inspect
import math
import re
from pathlib import Path
from typing import Any

from bot.games import fortunes_winds as fw
from cogs.fortunes_winds import words
from tests.support.discord_limits import command_problems, payload_problems
from tests.support.gifts import world_gifts_unheld
from tests.support.sim import (
    answered,
    button_of,
    labels,
    make_world,
    refusal,
    sent_payloads,
    wallet,
)

# Face positions (rules file order) of the faces the tests roll.
EARTH, NORTH, BIRD = 1, 4, 6
WATER, EAST = 1, 4
FIRE, WEST = 1, 4
AIR, SOUTH = 1, 4
VOID, FORTUNES, SUN, MOON = 1, 3, 5, 6


async def table_message(world: Any) -> Any:
    """The table message (result lines are posted after it in the channel)."""
    snapshot = await world.env.bot.tables.snapshot(1)
    for message in world.channel.history():
        if message.id == snapshot.row.message_id:
            return message
    raise AssertionError("no table message")


async def click(world: Any, member: Any, label: str, **kw: Any) -> Any:
    return await member.click(await table_message(world), label=label, **kw)


async def bet_by_form(world: Any, member: Any, button: str, amount: int) -> None:
    picker = answered(await click(world, member, button), ephemeral=True)
    assert "how much" in picker.response.content
    shown = answered(await member.click(picker.response.message, label="Other amount…"))
    answered(await member.submit_modal(shown, {"amount": str(amount)}))


async def bet(world: Any, member: Any, kind: str, amount: int) -> Any:
    return await member.slash(world.channel, "fortunes bet", kind=kind, amount=amount)


async def state(world: Any) -> Any:
    return (await world.env.bot.tables.snapshot(1)).state


async def started(
    env: Any, *names: str, server: dict[str, str] | None = None, **options: Any
) -> Any:
    """A running table, with no betting window unless asked (the window has its tests);
    ``server``: options only a moderator sets (/config rule) first."""
    options.setdefault("bet_seconds", 0)
    world = await make_world(env, *names)
    host = world[names[0]]
    for option, value in (server or {}).items():
        rule = dict(game="fortunes_winds", option=option, value=value)
        answered(await world.moderator.slash(world.channel, "config rule", **rule))
    opened = answered(await host.slash(world.channel, "fortunes open", **options))
    for name in names[1:]:
        answered(await world[name].click(opened.response.message, label="Join"))
    answered(await host.click(opened.response.message, label="Start"))
    return world


def description(message: Any) -> str:
    return str(message.embeds[0].description)


async def test_the_seeds_worked_example(simcord_env, dice):
    # Every member bets each turn: the betting window closes at once, the shooter rolls.
    world = await started(
        simcord_env, "ginawa", "sanzo", "ujikeme", server={"house_guard": "off"}, bet_seconds=30
    )
    ginawa, sanzo, ujikeme = (world[n] for n in ("ginawa", "sanzo", "ujikeme"))
    house_before = (await simcord_env.bot.economy.settings(world.guild.id)).house_balance

    # Turn 1: Ginawa shoots 1 (+1 Lord Moon); Sanzo rides 1; Ujikeme bets 3 against.
    assert description(await table_message(world)).startswith(
        f"▶️ <@{ginawa.id}> — the shooter's bet (none by then: bets go back, the dice pass)"
    )
    answered(await bet(world, ginawa, "shooter", 1))
    assert "none by then" not in description(await table_message(world))
    await bet_by_form(world, sanzo, "Ride", 1)
    picker = answered(await click(world, ujikeme, "Against"), ephemeral=True)
    assert "multiples of 3" in picker.response.content, "the bet screen says so first"
    shown = answered(await ujikeme.click(picker.response.message, label="Other amount…"))
    answered(await ujikeme.submit_modal(shown, {"amount": "3"}))
    seats = (await table_message(world)).embeds[0].fields[0].value
    assert "as the shooter 1 ryō (+1 ryō Lord Moon)" in seats
    assert "against the shooter 3 ryō" in seats
    assert await wallet(world, ginawa) == 998

    dice.extend([NORTH, EAST, FIRE, BIRD, VOID])
    answered(await click(world, ginawa, "Roll"))
    message = await table_message(world)
    assert "北 North" in description(message) and "⚫ **空 Void** (black)" in description(message)
    assert "roll **1/3**" in description(message)
    assert not any(label == "Ride" for label in labels(message)), "bets closed at the roll"
    answered(await click(world, ginawa, "北 North"))
    answered(await click(world, ginawa, "東 East"))
    assert button_of(await table_message(world), "東 East").style.name == "success"
    dice.extend([WEST, AIR, SUN])
    answered(await click(world, ginawa, "Roll again"))
    message = await table_message(world)
    assert button_of(message, "🔒 北 North").disabled and button_of(message, "🔒 東 East").disabled
    assert "🔒**北 North**" in description(message) and "roll **2/3**" in description(message)
    answered(await click(world, ginawa, "西 West"))
    dice.extend([AIR, FORTUNES])
    answered(await click(world, ginawa, "Roll again"))
    message = await table_message(world)
    assert "nothing in three rolls" in description(message)
    assert "wins against the shooter: +2" in description(message)
    assert "🎲 Turn 1" in world.channel.last_message.content, "one public line per turn"
    assert (await state(world)).shooter == sanzo.id

    # Turn 2: Sanzo shoots 2; Ginawa 1 on Lady Sun's Tea; Ujikeme 1 on Hungry Moon.
    answered(await bet(world, sanzo, "shooter", 2))
    answered(await bet(world, ginawa, "tea", 1))
    answered(await bet(world, ujikeme, "hungry", 1))
    dice.extend([EARTH, WATER, FIRE, AIR, SUN])
    answered(await click(world, sanzo, "Roll"))
    message = await table_message(world)
    assert "The Lady's Tears" in description(message) and "+8" in description(message)
    answered(await click(world, sanzo, "Pass the dice"))
    assert (await state(world)).shooter == ujikeme.id

    # Turn 3: Ujikeme shoots 1; Ginawa 2 and Sanzo 1 on Hungry Moon; Moon on roll 1.
    answered(await bet(world, ujikeme, "shooter", 1))
    answered(await bet(world, ginawa, "hungry", 2))
    answered(await bet(world, sanzo, "hungry", 1))
    dice.extend([EARTH, WATER, FIRE, SOUTH, MOON])
    answered(await click(world, ujikeme, "Roll"))
    assert "**Moon**" in description(await table_message(world))

    assert await wallet(world, ginawa) == 1000  # -1 (Lord Moon kept), -1, +2
    assert await wallet(world, sanzo) == 1008  # -1, +8, +1
    assert await wallet(world, ujikeme) == 1001  # +2, +1, -2 (bet and Lord Moon)
    house = (await simcord_env.bot.economy.settings(world.guild.id)).house_balance
    assert house == house_before - 9
    totals = await simcord_env.bot.economy.totals(world.guild.id)
    assert totals.wallets + totals.escrow + totals.house == totals.minted
    assert dice.remaining == 0


async def test_strangers_and_bystanders_cannot_play_the_dice(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob", "carol")
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    answered(await bet(world, alice, "shooter", 5))
    assert "only the shooter" in refusal(await click(world, bob, "Roll")).lower()
    dave = world.guild.add_member(world.env.create_user("dave"))
    assert "not seated" in refusal(await click(world, dave, "Roll")).lower()
    dice.extend([NORTH, EAST, FIRE, BIRD, VOID])
    answered(await click(world, alice, "Roll"))
    assert "only the shooter" in refusal(await click(world, carol, "北 North")).lower()
    assert "not seated" in refusal(await click(world, dave, "Roll again")).lower()
    assert (await state(world)).set_aside == [] and dice.remaining == 0
    # Best keep is advice from public dice: anyone may ask, privately.
    advice = answered(await click(world, carol, "Best keep"), ephemeral=True)
    assert "Best keep" in advice.response.content and "%" in advice.response.content


async def test_a_restart_between_two_rolls_keeps_a_half_made_choice(simcord_env, bot_factory, dice):
    world = await started(simcord_env, "alice", "bob")
    alice = world["alice"]
    answered(await bet(world, alice, "shooter", 10))
    dice.extend([NORTH, EAST, FIRE, BIRD, VOID])
    answered(await click(world, alice, "Roll"))
    answered(await click(world, alice, "北 North"))  # picked, not yet set aside

    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory(dice_factory=lambda row: dice))
    answered(await click(world, alice, "東 East"))
    dice.extend([WEST, SOUTH, FORTUNES])  # Fortunes and Winds on roll 2: 10 × 4
    answered(await click(world, alice, "Roll again"))
    assert (await state(world)).last_result == "fortunes_and_winds"
    assert await wallet(world, alice) == 1040


async def test_bad_input_is_refused_privately_and_changes_nothing(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob", max_stake=600)
    alice, bob = world["alice"], world["bob"]
    assert "side bets" in refusal(await bet(world, alice, "tea", 5))
    assert "maximum" in refusal(await bet(world, bob, "tea", 601))
    assert "before rolling" in refusal(await click(world, alice, "Roll"))
    answered(await bet(world, alice, "shooter", 5))
    # A ride of 600 needs 600 more for Lord Moon: 1,200 from a wallet of 1,000.
    assert "wallet holds 1,000" in refusal(await bet(world, bob, "ride", 600))
    shown = answered(await click(world, bob, "Lady Sun's Tea"))
    shown = answered(await bob.click(shown.response.message, label="Other amount…"))
    assert "whole number" in refusal(await bob.submit_modal(shown, {"amount": "1²"}))
    dice.extend([NORTH, EAST, WEST, BIRD, VOID])
    answered(await click(world, alice, "Roll"))
    assert "closed" in refusal(await bet(world, bob, "tea", 5))
    for die in ("北 North", "東 East", "西 West"):
        answered(await click(world, alice, die))
    assert "at most three" in refusal(await click(world, alice, "鳥 Bird")).lower()
    dice.extend([SOUTH, SUN])  # the Air die alone, and the black die: The Lady's Breath
    answered(await click(world, alice, "Roll again"))
    assert (await state(world)).set_aside == []
    assert (await state(world)).last_result == "ladys_breath"
    assert await wallet(world, alice) == 1000 + 20
    assert await wallet(world, bob) == 1000


async def test_set_aside_dice_are_locked_and_the_black_die_has_no_toggle(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob")
    alice = world["alice"]
    answered(await bet(world, alice, "shooter", 5))
    dice.extend([NORTH, EAST, FIRE, BIRD, VOID])
    answered(await click(world, alice, "Roll"))
    answered(await click(world, alice, "北 North"))
    dice.extend([EAST, FIRE, BIRD, VOID])
    answered(await click(world, alice, "Roll again"))
    message = await table_message(world)
    assert button_of(message, "🔒 北 North").disabled, "a die set aside cannot be picked again"
    toggles = [label for label in labels(message) if label[:1] in "土北米水東魚火西木風南鳥🔒"]
    assert len(toggles) == 4, "one toggle per white die; the black die is always rolled"
    assert (await state(world)).set_aside == ["earth"]


async def test_a_player_banker_refuses_a_bet_they_cannot_cover(simcord_env, dice):
    world = await started(simcord_env, "bank", "alice", "bob", banker="player", max_stake=500)
    bank, alice, bob = world["bank"], world["alice"], world["bob"]
    assert (await state(world)).banker == bank.id
    # 200 on the shooter could cost the banker 200 × 4 × 2 = 1,600: more than they hold.
    text = refusal(await bet(world, alice, "shooter", 200))
    assert "banker" in text and "cannot cover" in text
    assert await wallet(world, alice) == 1000 and (await state(world)).bets == {}
    answered(await bet(world, alice, "shooter", 100))  # 800 at most: covered
    assert "cannot cover" in refusal(await bet(world, bob, "ride", 50))
    assert "banker" in refusal(await bet(world, bank, "tea", 5))
    dice.extend([EARTH, WATER, FIRE, AIR, FORTUNES])  # Seven Thunders on roll 1: 1 × 2
    answered(await click(world, alice, "Roll"))
    assert await wallet(world, alice) == 1200 and await wallet(world, bank) == 800


async def test_the_odds_screen_is_exact_and_explains_the_guard(simcord_env):
    world = await make_world(simcord_env, "alice")
    result = answered(await world["alice"].slash(world.channel, "fortunes odds"), ephemeral=True)
    embed = result.response.embeds[0]
    fields = {f.name: f.value for f in embed.fields}
    assert "House guard" in embed.description
    assert "Hungry Moon: **-7.93%**" in fields["Bank edge per bet"]
    assert "39.69% of the time" in fields["Shooter"] and "10.88%" in fields["Shooter"]
    assert "Moon: 16.667%" in fields["Each outcome on roll 1 · 2 · 3"]


async def test_the_house_guard_names_the_most_the_bank_takes(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    answered(await bet(world, alice, "shooter", 10))
    text = refusal(await bet(world, bob, "hungry", 50))
    assert "house guard" in text and "at most" in text
    picker = answered(await click(world, bob, "Hungry Moon"), ephemeral=True)
    assert "at most now" in picker.response.content
    assert (await state(world)).bets == {alice.id: {"shooter": 10}}


async def test_an_idle_shooter_is_rolled_for_with_the_best_keep(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob", bet_seconds=0, roll_seconds=60)
    alice, bob = world["alice"], world["bob"]
    answered(await bet(world, alice, "shooter", 5))
    dice.extend([NORTH, EAST, FIRE, BIRD, VOID])
    await simcord_env.advance_time(61)  # the table rolls for alice
    after_one = await state(world)
    assert after_one.roll_number == 1 and "rolled by the table" in description(
        await table_message(world)
    )
    keep = fw.best_keep(after_one)
    assert keep, "North and East are worth keeping"
    dice.extend([1] * (4 - len(keep)) + [MOON])  # roll 2: Moon ends the turn
    await simcord_env.advance_time(61)  # the table keeps as the best keeping would, and rolls
    message = await table_message(world)
    assert "Set aside by the table" in description(message)
    assert (await state(world)).shooter == bob.id and await wallet(world, alice) == 990
    assert dice.remaining == 0


async def test_players_join_between_turns_and_a_table_everyone_left_closes(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    carol = world.guild.add_member(world.env.create_user("carol"))
    answered(await click(world, carol, "Join"))
    assert carol.id in (await state(world)).seats
    answered(await bet(world, alice, "shooter", 3))
    answered(await bet(world, carol, "daikoku", 2))
    assert (await state(world)).bets[carol.id] == {"daikoku": 2}
    assert "bets riding" in refusal(await click(world, carol, "Cash out"))
    dice.extend([EARTH, WATER, FIRE, AIR, VOID])  # Shinsei's Blessing on roll 1
    answered(await click(world, alice, "Roll"))
    assert await wallet(world, carol) == 1003 and await wallet(world, alice) == 1012
    for member in (carol, bob, alice):
        answered(await click(world, member, "Cash out"))
    final = await state(world)
    assert final.finished and set(final.stakes.values()) <= {0}
    totals = await simcord_env.bot.economy.totals(world.guild.id)
    assert totals.escrow == 0


def test_the_rules_screen_promises_only_options_that_exist():
    from cogs.fortunes_winds import FortunesCog

    text = (Path(__file__).resolve().parents[2] / "bot/rules_text/fortunes_winds.md").read_text()
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
    offered = set(inspect.signature(FortunesCog.open.callback).parameters) - {
        "self",
        "interaction",
    }
    assert promised, "the House Options page lists the options"
    assert promised == offered, promised ^ offered
    assert listed(servers) == {o.name for o in FortunesCog.options.options if o.server}


async def test_fair_dice_turns_verify_and_every_payload_fits_discord(simcord_env):
    world = await started(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    for _ in range(2):  # two turns with the production fair dice, always the best keep
        shooter = alice if (await state(world)).shooter == alice.id else bob
        answered(await bet(world, shooter, "shooter", 1))
        answered(await click(world, shooter, "Roll"))
        while (s := await state(world)).roll_number:
            advice = answered(await click(world, shooter, "Best keep"), ephemeral=True)
            assert "Best keep" in advice.response.content
            for die in fw.best_keep(s):
                answered(await click(world, shooter, words.face(s.faces[die])))
            answered(await click(world, shooter, "Roll again"))
        if (await state(world)).phase == "won":
            answered(await click(world, shooter, "Pass the dice"))
    answered(await alice.slash(world.channel, "fortunes odds"))
    for member in (alice, bob):
        answered(await click(world, member, "Cash out"))
    report = answered(await bob.slash(world.channel, "verify", table=1), ephemeral=True)
    assert "✅" in report.response.embeds[0].description
    for payload in sent_payloads(simcord_env):
        assert payload_problems(payload) == [], payload


async def test_the_command_tree_fits_discord(simcord_env):
    tree = simcord_env.bot.tree
    fortunes = next(c for c in tree.get_commands() if c.name == "fortunes")
    assert command_problems(fortunes.to_dict(tree)) == []
    assert {c.name for c in fortunes.commands} == {"open", "bet", "odds"}


async def test_the_betting_window_and_a_winner_going_again(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob", "carol", bet_seconds=30, roll_seconds=60)
    alice, bob, carol = world["alice"], world["bob"], world["carol"]
    # Alice's bet opens the window: she cannot roll until bob and carol bet or are ready.
    answered(await bet(world, alice, "shooter", 4))
    assert "still open" in refusal(await click(world, alice, "Roll"))
    assert "Ready" in labels(await table_message(world))
    answered(await bet(world, bob, "daikoku", 2))
    assert "still open" in refusal(await click(world, alice, "Roll"))
    assert "not the shooter" in refusal(await click(world, alice, "Ready"))
    answered(await click(world, carol, "Ready"))
    message = await table_message(world)
    assert "is ready" in description(message) and "Bets are closed" in description(message)
    assert "closed" in refusal(await bet(world, carol, "tea", 2))
    assert "Ride" not in labels(message) and "Ready" not in labels(message)
    dice.extend([EARTH, WATER, FIRE, AIR, FORTUNES])  # Seven Thunders on roll 1
    answered(await click(world, alice, "Roll"))
    assert "Roll" not in labels(await table_message(world)), "won: go again or pass"
    answered(await click(world, alice, "New turn"))
    now = await state(world)
    assert now.shooter == alice.id and fw.betting_open(now)
    assert await wallet(world, alice) == 1008 and await wallet(world, bob) == 1003
    # The next turn nobody else moves: the window's time closes it, then alice rolls.
    answered(await bet(world, alice, "shooter", 1))
    assert "still open" in refusal(await click(world, alice, "Roll"))
    await simcord_env.advance_time(31)
    assert "Time is up" in description(await table_message(world))
    dice.extend([EARTH, WATER, FIRE, AIR, FORTUNES])
    answered(await click(world, alice, "Roll"))
    assert await wallet(world, alice) == 1010
    answered(await click(world, alice, "Pass the dice"))
    # Bob never bets: after his time to act, bets go back and the dice pass.
    await simcord_env.advance_time(61)
    assert (await state(world)).shooter == carol.id
    assert "the shooter was idle" in description(await table_message(world))


async def test_a_moderator_ending_a_turn_in_play_settles_bets_at_their_value(simcord_env, dice):
    world = await started(simcord_env, "alice", "bob")
    alice = world["alice"]
    answered(await bet(world, alice, "shooter", 10))
    dice.extend([NORTH, EAST, WEST, BIRD, VOID])  # three Winds: worth more than the bet now
    answered(await click(world, alice, "Roll"))
    advice = fw.keep_advice(await state(world))
    assert advice is not None
    worth = sum(
        p * fw.outcome_net("shooter", 10, outcome) for outcome, p in advice.outcomes.items()
    )
    answered(await world.moderator.slash(world.channel, "cancel", table=1))
    final = await state(world)
    assert final.finished and set(final.stakes.values()) <= {0}
    assert "exact value" in description(await table_message(world))
    assert await wallet(world, alice) == 1000 + math.floor(worth) > 1000
    totals = await simcord_env.bot.economy.totals(world.guild.id)
    assert totals.escrow == 0 and totals.wallets + totals.house == totals.minted


async def test_the_richest_seated_player_banks(simcord_env):
    """The rules file: with a player banker, the richest seated player banks — not the
    host as such."""
    world = await make_world(simcord_env, "host", "alice", "bob")
    await world_gifts_unheld(world)
    host, alice, bob = world["host"], world["alice"], world["bob"]
    opened = answered(await host.slash(world.channel, "fortunes open", banker="player"))
    for member in (alice, bob):
        answered(await member.click(opened.response.message, label="Join"))
    answered(await host.slash(world.channel, "give", member=bob, amount=300))
    answered(await host.click(opened.response.message, label="Start"))
    table = await state(world)
    assert table.banker == bob.id, "bob holds 1,300, the most"
    assert table.seats[0] == bob.id and table.shooter == host.id
    _, rows = await simcord_env.bot.tables.history(1, world.guild.id)
    started_row = next(r for r in rows if '"__start__"' in r.action_json)
    assert str(bob.id) in started_row.action_json.split("players")[1][:40], (
        "the log seats him first"
    )
