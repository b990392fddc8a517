"""Issue 13's groundwork, "lean": the gateway asked only for the intents the bot uses,
ended tables leave nothing behind in memory, and guild settings are read once.

Through SimCord where the behaviour is Discord-facing (it drops every gateway event the
bot did not ask for, as Discord does); on a real SQLite file where it is the economy's.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterator
from typing import Any

import discord
import pytest
import simcord

from bot.app import gateway_intents
from bot.economy import Economy, GuildTerms
from bot.storage import SqliteDatabase
from bot.storage import money as mq
from cogs._ui.hub import TableHub
from cogs._ui.sync import MessageSync
from tests.support.sim import World, answered, close_dms, make_world, refusal

GUILD = 7

# -- intents ---------------------------------------------------------------------------------


def test_the_bot_asks_the_gateway_for_the_guilds_intent_only(bot_factory: Any) -> None:
    bot = bot_factory()
    assert bot.intents == gateway_intents() == discord.Intents(guilds=True)
    asked = {name for name, on in bot.intents if on}
    assert asked == {"guilds"}, "no message, DM, member, reaction or typing events"


def test_the_bot_keeps_no_message_cache(bot_factory: Any) -> None:
    bot = bot_factory()
    assert bot._connection.max_messages is None
    assert list(bot.cached_messages) == []


async def test_what_the_gateway_brings_before_ready_is_kept_out_of_collections(
    bot_factory: Any,
) -> None:
    """The servers, channels and roles of the first GUILD_CREATEs live as long as the bot:
    frozen at ready, as what setup_hook made is, no full collection walks them."""
    bot = bot_factory()
    env = simcord.Env(bot)
    guild = env.create_guild("before ready")
    guild.create_text_channel("tables")
    await env.start()
    try:
        cached = bot.get_guild(guild.id)
        assert cached is not None and cached.text_channels
        unfrozen = {id(o) for o in gc.get_objects()}
        assert id(cached) not in unfrozen
        assert id(cached.text_channels[0]) not in unfrozen
    finally:
        await env.shutdown()


def count_parsed(env: Any, events: tuple[str, ...]) -> dict[str, int]:
    """Counts every gateway event of these kinds that reaches the bot's own parsers."""
    parsers = env.bot._connection.parsers
    counts = dict.fromkeys(events, 0)
    for event in events:
        original = parsers[event]

        def counting(data: Any, event: str = event, original: Any = original) -> None:
            counts[event] += 1
            original(data)

        parsers[event] = counting
    return counts


async def test_a_game_by_clicks_and_dms_decodes_no_message_event(simcord_env: Any) -> None:
    """Every edit and message the bot makes would come back as a message event under the
    default intents; now the gateway does not send them, and nothing needs them: a
    Strength Duel played to its end by DM bids, commands naming a member, /stats."""
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    messages = ("MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE")
    parsed = count_parsed(simcord_env, messages)
    await play_duel(world, world.channel)
    assert (await simcord_env.bot.tables.snapshot(1)).state.finished
    answered(await alice.slash(world.channel, "stats", member=bob), ephemeral=True)
    answered(await alice.slash(world.channel, "wallet", member=bob))
    assert parsed == dict.fromkeys(messages, 0)
    dropped = [
        name
        for kind, name, _ in simcord_env.backend.transcript
        if kind == "DROPPED" and name in messages
    ]
    assert "MESSAGE_UPDATE" in dropped and "MESSAGE_CREATE" in dropped, (
        "the gateway had message events to send, and they were not asked for"
    )


async def test_a_moderator_is_known_without_the_guild_in_the_cache(simcord_env: Any) -> None:
    """Manage Server comes from the permissions Discord puts in the interaction, not from
    roles cached through the guilds intent (absent while a guild is unavailable)."""
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = await open_coinflip(world, world.channel)
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    simcord_env.bot._connection._guilds.pop(world.guild.id)
    assert "only a moderator" in refusal(await alice.slash(world.channel, "cancel", table=1))
    answered(await world.moderator.slash(world.channel, "cancel", table=1), ephemeral=True)
    assert (await simcord_env.bot.tables.snapshot(1)).status == "cancelled"


# -- ended tables leave nothing behind ----------------------------------------------------


def held_tables(hub: TableHub, tables: set[int]) -> dict[str, set[int]]:
    """Where the hub, the game UIs and whatever they hold (the hand and panel keepers)
    still keep one of ``tables``: attribute path → table ids. Any dict or set attribute
    is looked at (a key, or a tuple key's first item, that is one of the tables), so a
    map added later is checked without this test knowing its name."""
    found: dict[str, set[int]] = {}
    seen: set[int] = set()

    def ids_in(value: Any) -> set[int]:
        if isinstance(value, dict):
            keys: Any = value.keys()
        elif isinstance(value, set | frozenset):
            keys = value
        else:
            return set()
        ids = set()
        for key in keys:
            first = key[0] if isinstance(key, tuple) and key else key
            if isinstance(first, int) and not isinstance(first, bool) and first in tables:
                ids.add(first)
        return ids

    def ours(value: Any) -> bool:
        module = type(value).__module__
        return hasattr(value, "__dict__") and module.startswith(("cogs.", "bot.panels"))

    def walk(thing: Any, path: str) -> None:
        if id(thing) in seen:
            return
        seen.add(id(thing))
        for name, value in vars(thing).items():
            if ids := ids_in(value):
                found[f"{path}.{name}"] = ids
            if ours(value):
                walk(value, f"{path}.{name}")

    walk(hub, "hub")
    for game, ui in hub.games.items():
        walk(ui, f"hub.games[{game!r}]")
    return found


async def open_coinflip(world: World, channel: Any, host: str = "alice") -> Any:
    result = answered(await world[host].slash(channel, "coinflip open", stake=10))
    return result.response.message


SAMPLE_DUEL = [(3, 2), (3, 4), (5, 0), (0, 2), (1, 1), (2, 1), (3, 3), (1, 3)]


async def play_duel(world: World, channel: Any) -> None:
    alice, bob = world["alice"], world["bob"]
    challenge = answered(await alice.slash(channel, "duel challenge", member=bob, stake=10))
    answered(await bob.click(challenge.response.message, label="Accept"))
    for a_bid, b_bid in SAMPLE_DUEL:
        for member, bid in ((alice, a_bid), (bob, b_bid)):
            panel = member.user.dm_channel.last_message
            answered(await member.user.click(panel, label=str(bid)))


async def hands_shown_then_cancelled(world: World, channel: Any) -> int:
    """A Hachi-hachi table whose players hold kept hand answers, ended by a moderator."""
    alice, bob = world["alice"], world["bob"]
    opened = answered(
        await alice.slash(channel, "hanafuda open", stake_per_kan=1, turn_seconds=3600, rounds=2)
    )
    table = opened.response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    table_id = await world.env.bot.tables.live_table_in(channel.id, "hachihachi")
    shown = last_in(channel)
    for member in (alice, bob):
        answered(await member.click(shown, label="My hand"), ephemeral=True)
    ui = world.env.bot.table_hub.games["hachihachi"]
    assert sorted(ui.hands.holders(table_id)) == sorted([alice.id, bob.id])
    answered(await world.moderator.slash(channel, "cancel", table=table_id), ephemeral=True)
    return table_id


def last_in(channel: Any) -> Any:
    message = channel.last_message
    assert message is not None
    return message


async def test_ended_tables_leave_nothing_in_the_hub_the_uis_or_the_keepers(
    simcord_env: Any,
) -> None:
    env = simcord_env
    world = await make_world(env, "alice", "bob", "carol")
    alice, bob = world["alice"], world["bob"]
    hub: TableHub = env.bot.table_hub
    ended: set[int] = set()

    # Played to its end by clicks on the table message.
    played = world.guild.create_text_channel("played")
    table = await open_coinflip(world, played)
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    for _ in range(60):
        snapshot = await env.bot.tables.snapshot(1)
        if snapshot.state.finished:
            break
        turn = snapshot.state.seats[snapshot.state.turn]
        caller = next(m for m in world.members.values() if m.id == turn)
        answered(await caller.click(last_in(played), label="Heads"))
    assert (await env.bot.tables.snapshot(1)).state.finished
    ended.add(1)

    # A lobby its host cancels.
    lobby = world.guild.create_text_channel("lobby")
    answered(await alice.click(await open_coinflip(world, lobby), label="Cancel"))
    ended.add(2)

    # A running table a moderator ends.
    ended_by_mod = world.guild.create_text_channel("moderated")
    table = await open_coinflip(world, ended_by_mod)
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    answered(await world.moderator.slash(ended_by_mod, "cancel", table=3), ephemeral=True)
    ended.add(3)

    # Strength Duel by DM bids (private panels) to its end.
    await play_duel(world, world.guild.create_text_channel("duel"))
    assert (await env.bot.tables.snapshot(4)).state.finished
    ended.add(4)

    # Hachi-hachi with kept private hands, ended by a moderator.
    ended.add(await hands_shown_then_cancelled(world, world.guild.create_text_channel("hana")))

    # Strength Duel with a player whose DMs are closed (the panel keeper marks them),
    # ended by a moderator.
    closed = world.guild.create_text_channel("closed-dm")
    carol = world["carol"]
    close_dms(env, carol)
    challenge = answered(await alice.slash(closed, "duel challenge", member=carol, stake=10))
    answered(await carol.click(challenge.response.message, label="Accept"))
    closed_id = await env.bot.tables.live_table_in(closed.id, "strength_duel")
    assert carol.id in hub.games["strength_duel"].panels.closed(closed_id)
    answered(await world.moderator.slash(closed, "cancel", table=closed_id), ephemeral=True)
    ended.add(closed_id)

    # A lobby left to expire: its deadline ends it.
    expiring = world.guild.create_text_channel("expiring")
    answered(await bob.click(await open_coinflip(world, expiring, host="carol"), label="Join"))
    expired_id = await env.bot.tables.live_table_in(expiring.id, "coinflip")
    await env.advance_time(901)
    assert not (await env.bot.tables.snapshot(expired_id)).row.live
    ended.add(expired_id)

    # A table still in play keeps what it needs (so the scan can see a table at all).
    live = world.guild.create_text_channel("live")
    table = await open_coinflip(world, live, host="carol")
    answered(await alice.click(table, label="Join"))
    answered(await world["carol"].click(table, label="Start"))
    live_id = await env.bot.tables.live_table_in(live.id, "coinflip")
    await settle(env)

    assert ended == set(range(1, 8)) and live_id == 8
    assert held_tables(hub, ended) == {}
    assert not hub.sync.tables_held() & ended
    for ui in hub.games.values():
        hands = getattr(ui, "hands", None)
        if hands is not None:
            assert not hands.tables() & ended
    assert held_tables(hub, {live_id}).get("hub.sync._last_sent") == {live_id}


async def settle(env: Any) -> None:
    """Let the background refreshes the last steps scheduled finish."""
    for _ in range(5):
        pending = [task for task in env.bot.background_tasks if not task.done()]
        if not pending:
            return
        await asyncio.wait(pending, timeout=5)


def sabotage_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    from cogs._ui.hands import HandKeeper

    monkeypatch.setattr(HandKeeper, "forget", lambda self, table: None)


def sabotage_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hub as it was: what a message shows noted whatever the table's state, never
    forgotten (its UIs still forget theirs)."""

    def shown(self: MessageSync, snapshot: Any, payload: Any, fingerprint: Any = None) -> None:
        self._last_sent[snapshot.id] = fingerprint or payload.fingerprint()
        self._pictures[snapshot.id] = payload.picture_key

    def forget(self: MessageSync, table_id: int, game: str) -> None:
        self.forget_game(table_id, game)

    monkeypatch.setattr(MessageSync, "_shown", shown)
    monkeypatch.setattr(MessageSync, "forget", forget)


def sabotage_hand_locks(monkeypatch: pytest.MonkeyPatch) -> None:
    from cogs._ui.game import Game

    def forget_hands_only(self: Any, table_id: int) -> None:
        if self.hands is not None:
            self.hands.forget(table_id)

    monkeypatch.setattr(Game, "forget", forget_hands_only)


@pytest.mark.parametrize(
    ("sabotage", "where"),
    [
        (sabotage_hands, ".hands._kept"),
        (sabotage_hub, "hub.sync._pictures"),
        (sabotage_hub, "hub.sync._last_sent"),
        (sabotage_hand_locks, "._hand_locks"),
    ],
)
async def test_the_scan_finds_a_table_a_map_kept(
    simcord_env: Any,
    monkeypatch: pytest.MonkeyPatch,
    sabotage: Callable[[pytest.MonkeyPatch], None],
    where: str,
) -> None:
    """The test above can fail: with one forgetting step undone, the scan names the map
    still holding the ended table."""
    world = await make_world(simcord_env, "alice", "bob")
    sabotage(monkeypatch)
    ended = {await hands_shown_then_cancelled(world, world.channel)}
    await settle(simcord_env)
    leftovers = held_tables(simcord_env.bot.table_hub, ended)
    assert any(path.endswith(where) for path in leftovers), leftovers


# -- guild settings cached -----------------------------------------------------------------


@pytest.fixture
async def economy(tmp_path: Any) -> Any:
    db = SqliteDatabase(tmp_path / "economy.db")
    await db.open()
    yield Economy(db, house_float=1000)
    await db.close()


@pytest.fixture
def settings_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every read of a guild's settings row, by guild."""
    reads: list[int] = []
    original = mq.guild_settings

    async def counted(tx: Any, guild_id: int) -> Any:
        reads.append(guild_id)
        return await original(tx, guild_id)

    monkeypatch.setattr(mq, "guild_settings", counted)
    yield reads


async def test_a_second_read_of_the_settings_does_not_touch_the_database(
    economy: Economy, settings_reads: list[int]
) -> None:
    await economy.settings(GUILD)  # the server's row exists (made by an earlier process)
    economy = Economy(economy._db, house_float=1000)
    settings_reads.clear()
    assert await economy.currency(GUILD) == "ryō"
    assert settings_reads == [GUILD], "read once"
    assert await economy.currency(GUILD) == "ryō"
    assert (await economy.balance(GUILD, 1)).currency == "ryō"  # a new wallet: welcome coins
    assert (await economy.balance(GUILD, 1)).balance == 1000
    assert (await economy.daily(GUILD, 1)).amount == 100
    assert (await economy.grant(GUILD, 2, 5, "test")).balance == 1005
    # A grant is no free coin: the server's hold on welcome coins leaves it to give.
    assert (await economy.give(GUILD, 2, 1, 5)).balance == 1000
    assert (await economy.peek(GUILD, 1)) is not None
    async with economy._db.transaction() as tx:
        assert await economy.terms(tx, GUILD) == GuildTerms("ryō", 1000, 100)
    assert settings_reads == [GUILD], "every later use came from memory"
    # The house balance moves with every bet: whoever asks for it reads it.
    assert (await economy.settings(GUILD)).house_balance == 1000
    assert settings_reads == [GUILD, GUILD]


async def test_a_new_server_is_read_once_more_after_its_row_is_made(
    economy: Economy, settings_reads: list[int]
) -> None:
    """The row a transaction made is not cached from it (it could roll back): the next
    use reads it once, committed, and the uses after come from memory."""
    assert await economy.currency(GUILD) == "ryō"
    made = len(settings_reads)
    assert await economy.currency(GUILD) == "ryō"
    assert await economy.currency(GUILD) == "ryō"
    assert len(settings_reads) == made + 1


async def test_economy_config_is_seen_at_once_and_after_a_restart(
    economy: Economy, settings_reads: list[int]
) -> None:
    assert (await economy.balance(GUILD, 1)).balance == 1000
    await economy.configure(GUILD, currency_name="mon", starting_balance=250, daily_amount=7)
    assert await economy.currency(GUILD) == "mon"
    assert (await economy.balance(GUILD, 2)).balance == 250, "the new starting balance"
    assert (await economy.daily(GUILD, 2)).amount == 7
    reads = len(settings_reads)
    assert await economy.currency(GUILD) == "mon"
    assert len(settings_reads) == reads, "read again once after the change, then cached"
    # A restart: a new process's economy starts empty and reads what was saved.
    fresh = Economy(economy._db, house_float=1000)
    assert fresh.cached_terms(GUILD) is None
    assert await fresh.currency(GUILD) == "mon"
    assert fresh.cached_terms(GUILD) == GuildTerms("mon", 250, 7)


async def test_a_rolled_back_first_use_leaves_no_cached_server(economy: Economy) -> None:
    """A server's row made by a transaction that then fails must not stay cached: its
    next wallet refers to that row (the first action of a new server can be refused)."""
    with pytest.raises(RuntimeError):
        async with economy._db.transaction() as tx:
            await economy.ensure_guild(tx, GUILD)
            await economy.terms(tx, GUILD)
            await economy.ensure_wallet(tx, GUILD, 1)
            raise RuntimeError("refused")
    assert (await economy.balance(GUILD, 2)).balance == 1000, "its row is made again"
    assert await economy.currency(GUILD) == "ryō"
    assert economy.cached_terms(GUILD) == GuildTerms("ryō", 1000, 100), "now committed"
    totals = await economy.totals(GUILD)
    assert totals.wallets + totals.escrow + totals.house == totals.minted


async def test_a_read_overtaken_by_a_config_change_is_not_kept(
    economy: Economy, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read that began before /economy config finished (possible once reads and writes
    overlap, as on PostgreSQL) saw the old settings: it must not be cached."""
    assert await economy.currency(GUILD) == "ryō"
    economy.invalidate(GUILD)
    old = await economy.settings(GUILD)
    economy.invalidate(GUILD)
    release = asyncio.Event()

    async def slow_read(tx: Any, guild_id: int) -> Any:
        await release.wait()
        return old

    class Overlapping:  # a transaction of another connection: the write does not wait
        pass

    monkeypatch.setattr(mq, "guild_settings", slow_read)
    reading = asyncio.create_task(economy.ensure_guild(Overlapping(), GUILD))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    monkeypatch.undo()
    await economy.configure(GUILD, currency_name="mon")
    release.set()
    assert (await reading).currency_name == "ryō", "the old read, as it was"
    assert economy.cached_terms(GUILD) in (None, GuildTerms("mon", 1000, 100))
    assert await economy.currency(GUILD) == "mon"


async def test_economy_config_through_discord_changes_the_currency_at_once(
    simcord_env: Any, bot_factory: Any
) -> None:
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    shown = answered(await alice.slash(world.channel, "wallet"))
    assert "ryō" in wallet_text(shown)
    answered(
        await world.moderator.slash(world.channel, "config economy", currency="mon"),
        ephemeral=True,
    )
    assert "mon" in wallet_text(answered(await alice.slash(world.channel, "wallet")))
    table = await open_coinflip(world, world.channel)
    assert "mon" in str(table.embeds[0].to_dict()), "a table shows the new currency"
    await simcord_env.bot.close()
    await simcord_env.restart_bot(bot_factory())
    assert "mon" in wallet_text(answered(await alice.slash(world.channel, "wallet")))


def wallet_text(result: Any) -> str:
    message = result.response.message
    parts = [message.content or ""]
    parts.extend(str(embed.to_dict()) for embed in message.embeds)
    return "\n".join(parts)


async def test_a_click_answered_while_a_refresh_is_in_flight_is_not_overwritten(
    simcord_env: Any, dice: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refresh drawn from an earlier read can land after a click's own edit of the
    table message: it then edits once more, so the message ends on the table as it is."""
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    hub: TableHub = simcord_env.bot.table_hub
    table = await open_coinflip(world, world.channel)
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    original = MessageSync._edit
    reads: list[int] = []
    gate = asyncio.Event()

    async def held_edit(self: MessageSync, snapshot: Any) -> None:
        reads.append(snapshot.ply)
        if len(reads) == 1:
            await gate.wait()  # the first refresh's edit is slow to land
        await original(self, snapshot)

    monkeypatch.setattr(MessageSync, "_edit", held_edit)
    hub.sync.schedule_refresh(1, force=True)
    await asyncio.sleep(0)
    assert reads == [0], "the refresh read the table before the click"
    dice.extend([2])  # alice calls heads, lands tails: bob to call, ply 1
    clicking = asyncio.create_task(alice.click(table, label="Heads"))
    give_up = asyncio.get_running_loop().time() + 10.0
    while (await simcord_env.bot.tables.snapshot(1)).ply != 1:  # the click's action is saved
        assert asyncio.get_running_loop().time() < give_up, "the click was never applied"
        await asyncio.sleep(0.01)
    gate.set()
    answered(await clicking)
    await settle(simcord_env)
    assert reads == [0, 1], "one more edit, from a fresh read"
    shown = world.channel.last_message.embeds[0].description
    assert f"To call: <@{bob.id}>" in shown


async def test_edits_of_a_table_message_and_panels_parse_no_message(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round of DM bids refreshes the table message and redraws both panels, and none
    of these edits goes through ``PartialMessage.edit``, which parses Discord's copy of
    the edited message into a ``discord.Message`` that nothing reads (issue 36)."""
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    challenge = answered(await alice.slash(world.channel, "duel challenge", member=bob, stake=10))
    answered(await bob.click(challenge.response.message, label="Accept"))
    parsed: list[int] = []
    edit = discord.PartialMessage.edit

    async def noted(self: discord.PartialMessage, **fields: Any) -> discord.Message:
        parsed.append(self.id)
        return await edit(self, **fields)

    monkeypatch.setattr(discord.PartialMessage, "edit", noted)
    sync = simcord_env.bot.table_hub.sync
    edits = sync.edits_sent
    for member, bid in ((alice, 3), (bob, 2)):
        panel = member.user.dm_channel.last_message
        answered(await member.user.click(panel, label=str(bid)))
    assert sync.edits_sent > edits, "the table message was refreshed"
    for member in (alice, bob):
        assert "round 2" in (member.user.dm_channel.last_message.content or ""), "panel redrawn"
    assert parsed == []
