"""/history of a long table: 25 steps a page, the newest first shown, turned with buttons;
a live table's pages show what its message showed (a public raise, never the seed), an
ended table's its seed too; a secret choice only once revealed, never one replaced or
left unrevealed by a moderator's end (nor in /verify or the replay page)."""

from __future__ import annotations

import re

from tests.cogs.test_strength_duel_simcord import bid_by_dm, started_duel
from tests.platform.test_replay_page import attachment_text
from tests.support.replay import data_of
from tests.support.sim import answered, button_of, make_world


async def long_table(world, raises: int):
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "coinflip open", stake=10)).response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    for _ in range(raises):
        answered(await bob.click(world.channel.last_message, label="Raise 5"), ephemeral=False)


async def test_a_live_tables_pages_turn_and_keep_its_secrets(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    await long_table(world, 30)  # 33 steps: open, join, start, 30 raises
    seed = (await simcord_env.bot.tables.snapshot(1)).row.seed_hex
    shown = answered(await world["alice"].slash(world.channel, "history", table=1))
    last = shown.response
    assert last.embeds[0].footer.text == "Steps 26–33 of 33 · page 2 of 2"
    assert button_of(last, "Newer ▶")["disabled"] and not button_of(last, "◀ Older")["disabled"]
    older = answered(await world["alice"].click(last, label="◀ Older")).response
    assert older.embeds[0].footer.text == "Steps 1–25 of 33 · page 1 of 2"
    assert "opened the table" in older.embeds[0].description
    for page in (last, older):
        text = page.embeds[0].description
        assert "raise: amount 5" in text, "a raise is public: the table showed it"
        assert "raise(" not in text and "__" not in text, "words, not reprs"
        assert seed not in text and "Fairness seed" not in text


async def test_an_ended_table_shows_every_action_and_its_seed(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    await long_table(world, 3)
    answered(await world.moderator.slash(world.channel, "cancel", table=1))
    seed = (await simcord_env.bot.tables.snapshot(1)).row.seed_hex
    shown = answered(await world["bob"].slash(world.channel, "history", table=1)).response
    text = shown.embeds[0].description
    assert text.count("raise: amount 5") == 3
    assert f"Fairness seed: `{seed}`" in text
    assert not shown.components, "one page: no buttons"


# -- secret choices (issue 24) ------------------------------------------------------------


def embed_of(result) -> dict:
    return answered(result, ephemeral=True).response.embeds[0].to_dict()


async def secret_bid(member, amount: int) -> None:
    """A bid above the quick buttons, through the DM panel's form."""
    panel = member.user.dm_channel.last_message
    shown = answered(await member.user.click(panel, label="Other amount…"))
    answered(await member.user.submit_modal(shown, {"amount": str(amount)}))


async def test_a_live_duels_history_does_not_change_with_a_changed_bid(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await started_duel(world)
    await secret_bid(alice, 23)
    before = embed_of(await bob.slash(world.channel, "history", table=1))
    await secret_bid(alice, 21)
    after = embed_of(await bob.slash(world.channel, "history", table=1))
    assert after == before, "bob's /history told him that (and when) alice changed her bid"
    assert "bids" not in before["description"], before["description"]


async def test_a_bid_a_moderators_end_left_unrevealed_shows_nowhere(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await started_duel(world)
    await bid_by_dm(alice, 1)
    await bid_by_dm(bob, 0)  # round 1 is revealed: alice 24, bob 22
    await secret_bid(alice, 19)
    await secret_bid(alice, 17)  # changed, then never revealed
    answered(await world.moderator.slash(world.channel, "cancel", table=1))
    assert not (await simcord_env.bot.tables.snapshot(1)).row.live

    secret = re.compile(r"(amount\W{1,3}|bids )(19|17)\b")
    history = embed_of(await bob.slash(world.channel, "history", table=1))["description"]
    assert "bids 1 strength" in history and "bids 0 strength" in history, "revealed bids"
    assert not secret.search(history), history
    verified = answered(await bob.slash(world.channel, "verify", table=1), ephemeral=True)
    report = verified.response.embeds[0].description
    assert "✅ Every roll matches the seed." in report and not secret.search(report)
    assert "actions replayed: **4**" in report, report  # start, 2 bids, the end
    (attached,) = verified.response.attachments
    page = attachment_text(world, attached)
    assert not secret.search(page), "the replay page holds the unrevealed bid"
    said = [step["said"] for step in data_of(page)["steps"]]
    assert [s for s in said if s.startswith("bid")] == ["bids 1 strength", "bids 0 strength"]


def test_the_public_log_lists_a_revealed_choice_where_it_was_first_seen() -> None:
    """A bid changed before the reveal is listed once, where the table first said "has
    bid", with the amount the reveal showed; a bid pending at a moderator's end never."""
    import json

    from bot.games import strength_duel
    from bot.games.registry import GameSpec
    from bot.service.verify import public_log
    from bot.storage.table_queries import LogRow

    alice, bob = 11, 22

    def row(seq: int, actor: int | None, action: dict, *events: dict) -> LogRow:
        return LogRow(seq, actor, json.dumps(action), "[]", json.dumps(list(events)), seq)

    def bid(player: int) -> dict:
        return {"kind": "player_bid", "player": player, "round": 1}

    rows = [
        row(1, alice, {"kind": "__start__", "players": [alice, bob]}),
        row(2, alice, {"kind": "bid", "amount": 3}, bid(alice)),
        row(3, alice, {"kind": "bid", "amount": 5}, bid(alice)),
        row(
            4,
            bob,
            {"kind": "bid", "amount": 2},
            bid(bob),
            {"kind": "round_revealed", "bids": {str(alice): 5, str(bob): 2}},
        ),
        row(5, alice, {"kind": "bid", "amount": 4}, bid(alice)),
        row(6, 99, {"kind": "abort"}, {"kind": "aborted"}),
    ]
    spec = GameSpec(strength_duel.ENGINE, "Strength Duel")
    listed = [(step.row.seq, step.action.get("amount")) for step in public_log(spec, rows)]
    assert listed == [(1, None), (2, 5), (4, 2), (6, None)]


async def test_a_duels_reveal_is_on_its_own_line_not_the_bids(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    await started_duel(world)
    await bid_by_dm(alice, 3)
    await bid_by_dm(bob, 1)
    history = embed_of(await bob.slash(world.channel, "history", table=1))["description"]
    lines = history.splitlines()
    (bid,) = [number for number, line in enumerate(lines) if "bids 1 strength" in line]
    assert lines[bid].endswith("bids 1 strength"), lines[bid]
    assert lines[bid + 1].startswith("**Round 1 revealed:**"), history
