"""/config: games switched off, the channels tables may open in, each game's stakes; every
setting shown back by /config show (defaults marked), every bad value refused with nothing
changed, and a table the settings do not allow refused politely."""

from __future__ import annotations

from tests.support.sim import answered, make_world, refusal


async def settings(world) -> dict[str, str]:
    shown = answered(await world.moderator.slash(world.channel, "config show"), ephemeral=True)
    return {field.name: field.value for field in shown.response.embeds[0].fields}


async def test_defaults_are_marked(simcord_env):
    world = await make_world(simcord_env, "alice")
    fields = await settings(world)
    assert "✅ Strength Duel *(default)*" in fields["Games"]
    assert fields["Tables open in"] == "any channel *(default)*"
    assert "Hazard: any stake *(default)*" in fields["Stakes"]
    economy = fields["Economy (/config economy)"]
    assert "currency: **ryō** *(default)*" in economy
    assert "can be given away after **7** days *(default)*" in economy
    assert "no account is let off the hold *(default)*" in economy
    assert "a member receives at most **1,000** in gifts a day *(default)*" in economy


async def test_a_game_switched_off_refuses_new_tables(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob, mod = world["alice"], world["bob"], world.moderator
    answered(await bob.slash(world.channel, "wallet"))
    off = await mod.slash(world.channel, "config game", game="strength_duel", enabled=False)
    assert "Strength Duel is off" in answered(off, ephemeral=True).response.content
    assert "❌ Strength Duel" in (await settings(world))["Games"]
    text = refusal(await alice.slash(world.channel, "duel challenge", member=bob, stake=10))
    assert "Strength Duel is switched off on this server" in text
    assert await simcord_env.bot.economy.balance(world.guild.id, alice.id) is not None
    answered(await mod.slash(world.channel, "config game", game="strength_duel", enabled=True))
    opened = await alice.slash(world.channel, "duel challenge", member=bob, stake=10)
    answered(opened, ephemeral=False)


async def test_tables_open_only_in_the_listed_channels(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice, mod = world["alice"], world.moderator
    other = world.guild.create_text_channel("elsewhere")
    answered(await mod.slash(world.channel, "config channel", channel=world.channel, allowed=True))
    assert (await settings(world))["Tables open in"] == world.channel.mention
    text = refusal(await alice.slash(other, "coinflip open", stake=10))
    assert f"Tables open only in {world.channel.mention}" in text
    answered(await alice.slash(world.channel, "coinflip open", stake=10), ephemeral=False)
    not_listed = refusal(
        await mod.slash(world.channel, "config channel", channel=other, allowed=False)
    )
    assert "not on the list: nothing changed" in not_listed
    answered(await mod.slash(world.channel, "config channel", channel=world.channel, allowed=False))
    assert (await settings(world))["Tables open in"] == "any channel *(default)*"


async def test_stake_limits_and_bad_values(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob, mod = world["alice"], world["bob"], world.moderator
    answered(await bob.slash(world.channel, "wallet"))
    answered(
        await mod.slash(
            world.channel, "config stakes", game="strength_duel", lowest=20, highest=100
        )
    )
    assert "Strength Duel: 20 to 100" in (await settings(world))["Stakes"]
    text = refusal(await alice.slash(world.channel, "duel challenge", member=bob, stake=10))
    assert "take a stake of 20 to 100, not 10" in text

    bad = refusal(
        await mod.slash(world.channel, "config stakes", game="strength_duel", lowest=50, highest=10)
    )
    assert "nothing changed" in bad
    assert "Strength Duel: 20 to 100" in (await settings(world))["Stakes"]
    answered(await alice.slash(world.channel, "duel challenge", member=bob, stake=50))

    # Lowest 0 and no highest: back to the default.
    answered(await mod.slash(world.channel, "config stakes", game="strength_duel", lowest=0))
    assert "Strength Duel: any stake *(default)*" in (await settings(world))["Stakes"]


async def test_a_stake_exactly_at_a_limit_is_taken_one_past_it_refused(simcord_env):
    world = await make_world(simcord_env, "alice", "bob", "carol")
    alice, bob, carol, mod = world["alice"], world["bob"], world["carol"], world.moderator
    answered(await bob.slash(world.channel, "wallet"))
    answered(await carol.slash(world.channel, "wallet"))
    answered(
        await mod.slash(
            world.channel, "config stakes", game="strength_duel", lowest=20, highest=100
        )
    )
    for outside in (19, 101):
        text = refusal(
            await alice.slash(world.channel, "duel challenge", member=bob, stake=outside)
        )
        assert f"take a stake of 20 to 100, not {outside}" in text
    answered(
        await alice.slash(world.channel, "duel challenge", member=bob, stake=100), ephemeral=False
    )
    other = world.guild.create_text_channel("elsewhere")  # one open table a channel
    answered(await carol.slash(other, "duel challenge", member=alice, stake=20), ephemeral=False)


def test_the_stake_check_takes_both_limits_and_refuses_one_past() -> None:
    import pytest

    from bot.errors import NotAllowed
    from bot.service.config import ServerConfig

    config = ServerConfig(stake_limits={"hazard": (20, 100), "nihakyu": (5, None)})
    for game, stake in (("hazard", 20), ("hazard", 100), ("nihakyu", 5), ("nihakyu", 10**9)):
        config.check_open(game, "Game", 1, stake)
    for game, stake in (("hazard", 19), ("hazard", 101), ("nihakyu", 4)):
        with pytest.raises(NotAllowed, match=f"not {stake:,}"):
            config.check_open(game, "Game", 1, stake)


async def test_only_a_moderator_changes_settings(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    assert not any(name.startswith("config") for name in alice.available_commands(world.channel))
    synced = await simcord_env.bot.tree.fetch_commands()
    config = next(command for command in synced if command.name == "config")
    world.guild.set_command_permissions(config, {alice: True})
    text = refusal(await alice.slash(world.channel, "config game", game="hazard", enabled=False))
    assert "Manage Server" in text
    assert "✅ Hazard" in (await settings(world))["Games"]


async def test_a_house_rule_default_applies_unless_the_opener_chooses(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob, mod = world["alice"], world["bob"], world.moderator
    answered(await bob.slash(world.channel, "wallet"))
    set_rule = await mod.slash(
        world.channel, "config rule", game="strength_duel", option="round_seconds", value="300"
    )
    assert "get `round_seconds` `300`" in answered(set_rule).response.content
    rules_field = "House rules (/config rule)"
    assert "Strength Duel: round_seconds = 300" in (await settings(world))[rules_field]
    answered(await alice.slash(world.channel, "duel challenge", member=bob, stake=10))
    assert (await simcord_env.bot.tables.snapshot(1)).rules.round_seconds == 300
    other = world.guild.create_text_channel("other")
    chosen = await alice.slash(other, "duel challenge", member=bob, stake=10, round_seconds=60)
    answered(chosen, ephemeral=False)
    assert (await simcord_env.bot.tables.snapshot(2)).rules.round_seconds == 60, "typed wins"

    # A deadline outside the option's range, or an option the game lacks: nothing changes.
    too_short = refusal(
        await mod.slash(
            world.channel, "config rule", game="strength_duel", option="round_seconds", value="5"
        )
    )
    assert "from 15 to 3600" in too_short
    unknown = refusal(
        await mod.slash(
            world.channel, "config rule", game="strength_duel", option="speed", value="9"
        )
    )
    assert "has no option `speed`" in unknown and "round_seconds" in unknown
    assert "round_seconds = 300" in (await settings(world))[rules_field]

    back = dict(game="strength_duel", option="round_seconds", value="default")
    answered(await mod.slash(world.channel, "config rule", **back))
    assert "each game's own defaults" in (await settings(world))[rules_field]


def test_a_long_channel_list_is_clipped_to_what_a_field_holds() -> None:
    from bot.economy import GuildTerms
    from bot.service.config import ServerConfig
    from cogs.server_config import config_embed

    many = ServerConfig(table_channels=frozenset(range(10**17, 10**17 + 200)))
    embed = config_embed(many, {"hazard": "Hazard"}, GuildTerms("ryō", 1000, 100))
    shown = {field.name: field.value for field in embed.fields}
    assert len(shown["Tables open in"]) <= 1024
    assert shown["Tables open in"].startswith(f"<#{10**17}>")


def a_valid_value(option) -> str:
    """A value `option` takes that is not left to chance: its highest, on, its last choice
    (a deadline within the server's ten seconds to an hour)."""
    if option.kind is bool:
        return "on"
    if option.choices:
        return option.choices[-1]
    if option.name.endswith("_seconds"):
        return str(max(10, min(option.high or 3600, 3600)))
    if option.kind is int:
        return str(option.high if option.high is not None else (option.low or 0) + 7)
    return "seven"


async def test_every_option_of_every_game_round_trips(simcord_env):
    world = await make_world(simcord_env, "alice")
    mod = world.moderator
    config_cog = simcord_env.bot.get_cog("ConfigCog")
    typed: dict[str, dict[str, str]] = {}
    for game in config_cog.playable():
        options = config_cog.options_of(game)
        assert options is not None, f"{game} declares its options"
        for option in (o for o in options.options if o.rule):
            value = a_valid_value(option)
            given = dict(game=game, option=option.name, value=value)
            answered(await mod.slash(world.channel, "config rule", **given), ephemeral=True)
            typed.setdefault(game, {})[option.name] = value
    assert len(typed) == len(config_cog.playable()) and sum(map(len, typed.values())) >= 20

    # Shown back by /config show, and stored as each option's own parser reads it.
    stored = (await simcord_env.bot.tables.server_config(world.guild.id)).rule_defaults
    shown = (await settings(world))["House rules (/config rule)"]
    for game, values in typed.items():
        options = config_cog.options_of(game)
        for name, value in values.items():
            parsed = options.option(name).parse(value)
            assert stored[game][name] == parsed, (game, name)
            assert f"{name} = {value}" in shown or len(shown) >= 1000, (game, name)

    # Back to the defaults one by one: nothing is left behind.
    for game, values in typed.items():
        for name in values:
            back = dict(game=game, option=name, value="default")
            answered(await mod.slash(world.channel, "config rule", **back))
    assert (await simcord_env.bot.tables.server_config(world.guild.id)).rule_defaults == {}


async def test_a_server_deadline_is_ten_seconds_to_an_hour(simcord_env):
    world = await make_world(simcord_env, "alice")
    mod = world.moderator
    # Fortunes and Winds lets an opener type a 5 s roll; a server may not impose it.
    short = dict(game="fortunes_winds", option="roll_seconds", value="5")
    assert "from 10 seconds to an hour" in refusal(
        await mod.slash(world.channel, "config rule", **short)
    )
    long = dict(game="nihakyu", option="round_seconds", value="3601")
    assert "3600" in refusal(await mod.slash(world.channel, "config rule", **long))
    assert (await simcord_env.bot.tables.server_config(world.guild.id)).rule_defaults == {}
    # A betting window of 0 is no window, not a deadline of 0 s.
    none = dict(game="fortunes_winds", option="bet_seconds", value="0")
    answered(await mod.slash(world.channel, "config rule", **none))
    edge = dict(game="fortunes_winds", option="roll_seconds", value="10")
    answered(await mod.slash(world.channel, "config rule", **edge))
    stored = (await simcord_env.bot.tables.server_config(world.guild.id)).rule_defaults
    assert stored == {"fortunes_winds": {"bet_seconds": 0, "roll_seconds": 10}}


def test_the_deadline_check_refuses_what_is_out_of_bounds() -> None:
    import pytest

    from bot.errors import NotAllowed
    from cogs.server_config import check_deadline_default

    for fine in (("round_seconds", 10), ("round_seconds", 3600), ("bet_seconds", 0), ("ante", 1)):
        check_deadline_default(*fine)
    for bad in (("round_seconds", 9), ("turn_seconds", 3601), ("bet_seconds", 1)):
        with pytest.raises(NotAllowed, match="Nothing changed"):
            check_deadline_default(*bad)


async def test_the_economy_settings_round_trip_through_config(simcord_env):
    world = await make_world(simcord_env, "alice")
    mod = world.moderator
    set_all = await mod.slash(
        world.channel,
        "config economy",
        currency="mon",
        emoji="🪙",
        starting_balance=500,
        daily_amount=25,
        gift_hold_days=3,
        gift_account_days=400,
        gift_cap=250,
    )
    note = answered(set_all, ephemeral=True).response.content
    assert "Currency **🪙 mon** · new wallets start with 500 · /daily gives 25" in note
    economy = (await settings(world))["Economy (/config economy)"]
    assert "currency: **🪙 mon**" in economy and "*(default)*" not in economy
    assert "starting balance: **500**" in economy and "daily amount: **25**" in economy
    assert "free coins (welcome, /daily) can be given away after **3** days" in economy
    assert "Discord accounts at least **400** days old give them at once" in economy
    assert "a member receives at most **250** in gifts a day" in economy
    answered(await world["alice"].slash(world.channel, "wallet"))
    assert (await simcord_env.bot.economy.balance(world.guild.id, world["alice"].id)).balance == 500

    bad = refusal(await mod.slash(world.channel, "config economy", emoji="not an emoji"))
    assert "nothing" in bad.lower()
    assert (await settings(world))["Economy (/config economy)"] == economy
    none = await mod.slash(world.channel, "config economy", gift_hold_days=0, gift_cap=0)
    economy = (await settings(world))["Economy (/config economy)"]
    answered(none)
    assert "free coins (welcome, /daily) can be given away at once" in economy
    assert "no cap on the gifts a member receives" in economy


async def test_stake_limits_apply_to_a_betting_games_bet_limits(simcord_env):
    """Hazard and Fortunes and Winds hold nothing on a seat: the server's stakes bound
    their tables' bet limits (before, every such table was refused as "not 0")."""
    world = await make_world(simcord_env, "alice")
    alice, mod = world["alice"], world.moderator
    for game in ("hazard", "fortunes_winds"):
        answered(await mod.slash(world.channel, "config stakes", game=game, lowest=10, highest=500))
    wide = refusal(await alice.slash(world.channel, "hazard open", min_stake=5, max_stake=500))
    assert "take bets of 10 to 500, not 5 to 500" in wide
    high = refusal(await alice.slash(world.channel, "fortunes open", min_stake=10, max_stake=501))
    assert "take bets of 10 to 500, not 10 to 501" in high
    opened = await alice.slash(world.channel, "hazard open", min_stake=10, max_stake=500)
    answered(opened, ephemeral=False)
    other = world.guild.create_text_channel("fortunes-here")
    opened = await alice.slash(other, "fortunes open", min_stake=10, max_stake=500)
    answered(opened, ephemeral=False)


async def test_turning_the_house_guard_off_says_members_can_then_beat_the_bank(simcord_env):
    from bot.games import fortunes_winds as fw

    world = await make_world(simcord_env, "alice")
    mod = world.moderator

    def edge(value: object) -> str:
        return f"**+{float(value) * 100:.1f}%**"  # type: ignore[arg-type]

    off = answered(
        await mod.slash(
            world.channel, "config rule", game="fortunes_winds", option="house_guard", value="off"
        )
    ).response.content
    assert "members can beat the bank" in off
    served = {kind: fw.served_edge(kind) for kind in ("against", "tea", "hungry", "daikoku")}
    # Computed by the odds, not copied: the shooter keeping dice for the bet.
    assert [edge(served[k]) for k in ("against", "tea", "hungry")] == [
        "**+56.3%**",
        "**+28.5%**",
        "**+8.5%**",
    ]
    for kind, name in (("against", "Against"), ("tea", "Lady Sun's Tea"),
                       ("hungry", "Hungry Moon"), ("daikoku", "Daikoku's Belly")):  # fmt: skip
        assert f"{name} {edge(served[kind])}" in off
    hungry_alone = -fw.turn_odds("best").edges["hungry"]
    assert f"for their own bet: Hungry Moon {edge(hungry_alone)}" in off  # +7.9%

    # Without bets against, Against is not offered, so not named; the guard back on: silence.
    no_against = answered(
        await mod.slash(
            world.channel, "config rule", game="fortunes_winds", option="against_bets", value="off"
        )
    ).response.content
    assert "members can beat the bank" in no_against and "Against" not in no_against
    on = answered(
        await mod.slash(
            world.channel, "config rule", game="fortunes_winds", option="house_guard", value="on"
        )
    ).response.content
    assert "beat the bank" not in on
