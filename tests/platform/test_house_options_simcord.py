"""No table option lets a member change the house's edge.

Every Rules field of every game in the catalog is classified beside the game's options
(``house_edge`` of its cog's ``OPTIONS``): the opener's (it moves no coin to or from the
house on average), the server's (it can move the house's edge or exposure: only a
moderator's `/config rule` sets it), the server's while a server option is on (Nihakyu's
variants under Dealer's Blood, which then decide how long the players outlast the Dealer),
or fixed (no one sets it). A new Rules field fails the first test until it is classified
there; the open commands, the options form, `/config rule` and the rules pages are held
to the classification. Each server option is set by `/config rule` to a value its own
declaration offers (:func:`server_cases`), so a new game's are tried with no case written.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any

import pytest
from discord.ext import commands
from pydantic import BaseModel

from bot.catalog import CATALOG, AnyGame
from bot.errors import NotAllowed, UserFacingError
from bot.rules_text import GAMES, pages
from cogs._ui.options import FIXED, OPENER, SERVER, Option, Options, table
from tests.support.sim import answered, make_world, refusal


def cog(game: str) -> ModuleType:
    """The game's cog package (its record's extension), where its ``OPTIONS`` live: read
    from the catalog when asked, so a game enrolled for a test is found too."""
    return importlib.import_module(CATALOG.get(game).extension)


def options_of(game: str) -> Options:
    """The game's options, as its cog package declares them."""
    options: Options = cog(game).OPTIONS
    return options


OPTIONS: dict[str, Options] = {game: options_of(game) for game in CATALOG.names()}
"""Each game's options, as its cog package declares them: ``OPTIONS``."""
CLASSIFIED: dict[str, Mapping[str, str]] = {
    game: options.house_edge for game, options in OPTIONS.items()
}
"""Each game's Rules fields by who may set them, declared beside its options
(:attr:`cogs._ui.options.Options.house_edge`)."""
FIELD_OF = {("fortunes_winds", "banker"): "player_banker"}
"""Options whose value the cog turns into a Rules field of another name."""


def open_command(game: str) -> str:
    """The command that opens the game's table with every one of its ``OPTIONS`` (a duel's
    is its challenge): found on the game's cog, as Discord lists it."""
    wanted = {p.name for p in options_of(game).slash_parameters()}
    module = cog(game)
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, commands.Cog):
            if value.__module__ != module.__name__:
                continue
            for command in value.__cog_app_commands__:
                if {p.name for p in command.parameters} == wanted:
                    return f"{value.__cog_group_name__} {command.name}"
    raise LookupError(f"{game}: no command takes its OPTIONS")


def setting(game: str, field: str) -> list[Any]:
    """The rule options that set ``field`` of ``game``'s Rules."""
    return [
        option
        for option in options_of(game).options
        if option.rule and FIELD_OF.get((game, option.name), option.target) == field
    ]


def unclassified(game: str, options: Options) -> list[str]:
    """What the game's ``house_edge`` leaves out or names wrongly."""
    fields = set(options.rules_model.model_fields)
    classified = set(options.house_edge)
    problems = [
        f"{game}: classify {field} (opener, server or fixed)" for field in fields - classified
    ]
    problems += [f"{game}: stale classification of {field}" for field in classified - fields]
    problems += [
        f"{game}: {option.name} sets no Rules field"
        for option in options.options
        if option.rule and FIELD_OF.get((game, option.name), option.target) not in fields
    ]
    return sorted(problems)


def classification_problems(record: AnyGame) -> list[str]:
    """The house-edge check of one game: every field of its Rules classified, beside its
    options, as the opener's, the server's or fixed."""
    return unclassified(record.name, options_of(record.name))


def test_every_rules_field_of_every_game_is_classified() -> None:
    assert set(CLASSIFIED) == set(GAMES) == set(CATALOG.names())
    for record in CATALOG:
        assert classification_problems(record) == []


def test_a_game_whose_options_classify_nothing_is_caught() -> None:
    # The coin flip's options, as a new game's would be before its classification.
    from tests.support.coinflip_cog import CUSTOM

    assert not CUSTOM.house_edge
    assert unclassified("coinflip", CUSTOM) == [
        f"coinflip: classify {field} (opener, server or fixed)"
        for field in sorted(CUSTOM.rules_model.model_fields)
    ]


@pytest.mark.parametrize("game", sorted(CLASSIFIED))
def test_each_option_is_set_by_whom_it_is_classified(game: str) -> None:
    check_setters(CATALOG.get(game))


def check_setters(record: AnyGame) -> None:
    """Each Rules field is set only as classified: the opener's by an option the opener
    has, the server's by server options alone, a fixed one by none; the open command
    offers no server option."""
    game = record.name
    options = options_of(game)
    shaped = {name for names in options.server_while.values() for name in names}
    for field, whose in options.house_edge.items():
        setters = setting(game, field)
        where = f"{game}.{field} is {whose}"
        if whose == OPENER:
            assert setters and not any(o.server or o.name in shaped for o in setters), where
        elif whose == SERVER:
            assert all(o.server for o in setters), where  # or no option at all
        elif whose.startswith("server while "):
            switch = whose.removeprefix("server while ")
            by_switch = set(options.server_while.get(switch, ()))
            assert setters and all(not o.server and o.name in by_switch for o in setters), where
        else:
            assert whose == FIXED, where
            assert not setters, where
    server = {o.name for o in options.options if o.server}
    params = {p.name for p in options.slash_parameters()}
    assert not server & params, f"{game}'s open command offers {server & params}"


async def nothing_opened(env: Any) -> None:
    with pytest.raises(UserFacingError):
        await env.bot.tables.snapshot(1)


async def open_options(env: Any, game: str) -> set[str]:
    """The option names of the game's open command as Discord has it (synced)."""
    group, sub = open_command(game).split()
    synced = await env.bot.tree.fetch_commands()
    command = next(c for c in synced if c.name == group)
    return {o.name for o in next(o for o in command.options if o.name == sub).options}


@pytest.mark.parametrize("game", sorted(CLASSIFIED))
async def test_no_open_command_offers_an_option_that_moves_the_house_edge(simcord_env, game):
    await make_world(simcord_env, "alice")  # the bot is up and its commands synced
    await check_open_command(simcord_env, CATALOG.get(game))


async def check_open_command(env: Any, record: AnyGame) -> None:
    """The game's open command, as Discord has it (synced), offers every option its
    opener sets inline and none of the server's or fixed ones."""
    game = record.name
    offered = await open_options(env, game)
    options = options_of(game)
    for option in options.options:
        field = FIELD_OF.get((game, option.name), option.target)
        whose = options.house_edge.get(field)
        if option.rule and whose in (SERVER, FIXED):
            assert option.name not in offered, f"{open_command(game)} offers {option.name}"
        elif option.rule:
            assert option.name in offered or not option.inline, option.name


def typed(value: Any) -> str:
    """A value as a moderator types it in `/config rule`."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def other_values(options: Options, option: Option) -> list[Any]:
    """Values of ``option`` other than its default, from its own declaration: the other
    side of a switch, its other choices, the ends of its range."""
    default = options.default(option)
    if option.kind is bool:
        return [not default]
    if option.choices:
        return [choice for choice in option.choices if choice != default]
    ends = [end for end in (option.high, option.low) if end is not None]
    return [end for end in dict.fromkeys(ends) if end != default]


@dataclass(frozen=True)
class ServerCase:
    """A server option of a game set to a value other than its default by `/config rule`,
    after any other server values it needs beside it (``first``: Hazard's bar off needs a
    commission), and the Rules fields every new table then has (``expected``)."""

    game: str
    option: str
    value: Any
    first: tuple[tuple[str, Any], ...]
    expected: Mapping[str, Any]

    @property
    def id(self) -> str:
        return f"{self.game}-{self.option}"


def server_case(record: AnyGame, option: Option) -> ServerCase | None:
    """The first value other than its default that the server may set ``option`` to,
    alone, or else beside one other server option's value (found by the check `/config
    rule` makes, :meth:`Options.server_check`); ``None`` if none is."""
    options = options_of(record.name)
    pairs: list[tuple[tuple[str, Any], ...]] = [()]
    pairs += [
        ((other.name, value),)
        for other in options.options
        if other.server and other is not option
        for value in other_values(options, other)
    ]
    for first in pairs:
        for value in other_values(options, option):
            server = {**dict(first), option.name: value}
            if options.server_check(dict(first)) or options.server_check(server):
                continue
            # The fields the values set, by the declaration alone (not by the path that
            # takes the server's values, which the test is to hold).
            before, after = options.rules({}), options.rules(server)
            expected = {field: v for field, v in after.items() if before.get(field) != v}
            return ServerCase(record.name, option.name, value, first, expected)
    return None


def server_cases(record: AnyGame) -> list[ServerCase]:
    """A case for each server option of the game, read from its options."""
    options = options_of(record.name)
    found = [server_case(record, option) for option in options.options if option.server]
    return [case for case in found if case is not None]


def server_case_problems(record: AnyGame) -> list[str]:
    """Server options no value of which, other than the default, the server may set."""
    options = options_of(record.name)
    cased = {case.option for case in server_cases(record)}
    return [
        f"{record.name}: no value of {option.name} but its default can be set"
        for option in options.options
        if option.server and option.name not in cased
    ]


SERVER_CASES = [case for record in CATALOG for case in server_cases(record)]


def test_every_server_option_of_every_game_is_exercised() -> None:
    for record in CATALOG:
        assert server_case_problems(record) == []
    assert {case.id for case in SERVER_CASES} >= {
        "hazard-against_commission",
        "fortunes_winds-against_bets",
        "nihakyu-dealers_blood",
    }
    bar = next(case for case in SERVER_CASES if case.id == "hazard-against_bar")
    assert (bar.value, bar.first) == (False, (("against_commission", 50),))
    against = next(case for case in SERVER_CASES if case.id == "fortunes_winds-against_bets")
    assert against.expected == {"allow_bet_against": False}, "the field it sets, by its name"


@pytest.mark.parametrize("case", SERVER_CASES, ids=[case.id for case in SERVER_CASES])
async def test_a_member_cannot_set_it_a_moderator_can_and_new_tables_take_it(simcord_env, case):
    await check_server_option(simcord_env, case)


async def check_server_option(env: Any, case: ServerCase) -> None:
    """A member can neither open a table with the server option nor set it by `/config
    rule` (even given the command); a moderator can, and every new table takes it."""
    world = await make_world(env, "alice")
    alice, mod = world["alice"], world.moderator
    game, option = case.game, case.option
    command = open_command(game)

    # The member's command has no such option: Discord (SimCord) refuses to send it, and
    # nothing opens.
    assert option not in await open_options(env, game)
    with pytest.raises(Exception, match=option):
        await alice.slash(world.channel, command, **{option: case.value})
    await nothing_opened(env)

    # A member given the /config command by a server's override is still refused.
    synced = await env.bot.tree.fetch_commands()
    config = next(c for c in synced if c.name == "config")
    world.guild.set_command_permissions(config, {alice: True})
    rule = dict(game=game, option=option, value=typed(case.value))
    assert "Manage Server" in refusal(await alice.slash(world.channel, "config rule", **rule))
    assert (await env.bot.tables.server_config(world.guild.id)).rule_defaults == {}

    # The moderator's rule: said to be the moderators' alone, and every new table has it.
    for name, value in case.first:
        first = dict(game=game, option=name, value=typed(value))
        answered(await mod.slash(world.channel, "config rule", **first), ephemeral=True)
    note = answered(await mod.slash(world.channel, "config rule", **rule), ephemeral=True)
    assert "Only moderators set it" in note.response.content
    answered(await alice.slash(world.channel, command), ephemeral=False)
    snapshot = await env.bot.tables.snapshot(1)
    assert case.expected, f"{case.id}: sets no Rules field"
    assert {field: getattr(snapshot.rules, field) for field in case.expected} == case.expected


async def test_dealers_blood_makes_the_variants_the_servers_too(simcord_env):
    world = await make_world(simcord_env, "alice")
    alice, mod = world["alice"], world.moderator
    # Without Dealer's Blood the variants are the opener's.
    answered(await alice.slash(world.channel, "nihakyu open", ante=10, shadow_step=True))
    assert (await simcord_env.bot.tables.snapshot(1)).rules.shadow_step

    on = dict(game="nihakyu", option="dealers_blood", value="on")
    answered(await mod.slash(world.channel, "config rule", **on))
    other = world.guild.create_text_channel("second")
    for typed in ({"shadow_step": True}, {"starting_stamina": 20}, {"sleight_bonus": 10}):
        text = refusal(await alice.slash(other, "nihakyu open", ante=10, **typed))
        (name,) = typed
        assert f"`{name}`" in text and "/config rule" in text and "Nothing was opened" in text
        with pytest.raises(UserFacingError):
            await simcord_env.bot.tables.snapshot(2)  # only the first table exists

    stamina = dict(game="nihakyu", option="starting_stamina", value="30")
    note = answered(await mod.slash(world.channel, "config rule", **stamina)).response.content
    assert "except while `dealers_blood` is on here" in note
    answered(await alice.slash(other, "nihakyu open", ante=10), ephemeral=False)
    rules = (await simcord_env.bot.tables.snapshot(2)).rules
    assert (rules.dealers_blood, rules.starting_stamina, rules.shadow_step) == (True, 30, False)


async def test_a_server_set_no_table_could_open_with_is_refused(simcord_env):
    world = await make_world(simcord_env, "alice")
    mod = world.moderator
    bar_off = dict(game="hazard", option="against_bar", value="off")
    text = refusal(await mod.slash(world.channel, "config rule", **bar_off))
    assert "at least 5%" in text and "Nothing changed" in text
    assert (await simcord_env.bot.tables.server_config(world.guild.id)).rule_defaults == {}


# -- the options form (past Discord's 25 options) is the opener's too ---------------------


class FormRules(BaseModel):
    stake: int = 1
    rake: int = 0
    bonus: int = 0
    lucky: bool = False


def form_options() -> Options:
    declared = table("""
stake  1..100  Coins
rake   0..10  server  The house's cut
bonus  0..10  A bonus the players pay each other
lucky  bool   server  A switch the house's share depends on
""")
    # Everything past `stake` goes to the form, as past Discord's 25 options.
    return Options(
        FormRules,
        [declared[0], *(replace(option, inline=False) for option in declared[1:])],
        server_while={"lucky": ("bonus",)},
    )


def test_the_form_neither_shows_nor_takes_a_server_option() -> None:
    options = form_options()
    values = options.values({"stake": 5}, {"rake": 3})
    assert values["rake"] == 3, "the server's value"
    assert "rake" not in options.form_text(values) and "bonus = 0" in options.form_text(values)
    with pytest.raises(NotAllowed, match="only the server's moderators set it"):
        options.parse_form("rake = 0", values)
    assert options.parse_form("bonus = 4", values)["bonus"] == 4
    # With `lucky` on (the server's), `bonus` is the server's too: not shown, not taken.
    locked = options.values({"stake": 5}, {"lucky": True, "bonus": 2})
    assert locked["bonus"] == 2 and "bonus" not in options.form_text(locked)
    with pytest.raises(NotAllowed, match="`lucky` is on"):
        options.parse_form("bonus = 4", locked)


def test_a_preset_may_not_set_a_server_option() -> None:
    with pytest.raises(ValueError, match="preset"):
        Options(FormRules, table("rake  0..10  server  The cut"), presets={"x": {"rake": 1}})


# -- the rules pages say who sets which option -------------------------------------------


@pytest.mark.parametrize("game", sorted(CLASSIFIED))
def test_the_rules_pages_name_every_option_the_server_sets(game: str) -> None:
    check_rules_name_server_options(CATALOG.get(game))


def check_rules_name_server_options(record: AnyGame) -> None:
    """The game's rules pages list, under the moderators' block, exactly the options the
    server sets, and name those the server sets while a switch is on."""
    game = record.name
    text = "\n".join(body for _title, body in pages(game))
    head = "**Set by the server's moderators**"
    assert head in text, f"{game}'s rules say who sets what"
    after = text.split(head, 1)[1]
    listed = set()
    for line in after.splitlines()[1:]:
        if not line.startswith("- `"):
            break
        listed.add(re.match(r"- `([a-z_]+)`", line).group(1))  # type: ignore[union-attr]
    options = options_of(game)
    assert listed == {o.name for o in options.options if o.server}
    for names in options.server_while.values():
        for name in names:
            assert f"`{name}`" in after, f"{game}'s rules name {name} as the server's too"
