"""The game catalog (bot/catalog.py): every game is defined once, and a table service built
from the catalog alone — no Discord, no cogs — hosts every game end to end."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import DEFAULT_EXTENSIONS, PLATFORM_EXTENSIONS
from bot.catalog import CATALOG, AnyGame, Catalog
from bot.errors import UserFacingError
from bot.fairness import FairDice
from bot.replay import page_html
from bot.rules_text import GAMES, rules_folder
from bot.service import Actor
from bot.service.verify import public_log, replay_steps
from cogs._ui.options import GAME_CHOICES
from cogs._ui.stats_chart import OTHER_GAME, colour_of
from tests.platform._helpers import Services, open_services
from tests.support.coinflip import COINFLIP, TEST_CATALOG
from tests.support.replay import data_of
from tests.support.sim import make_world

ROOT = Path(__file__).resolve().parents[2]
KEYS = frozenset(CATALOG.names())
GUILD, CHANNEL = 500, 600
MODERATOR = 999
PLAYERS = [1001, 1002, 1003, 1004]


# -- one definition --------------------------------------------------------------------------


def test_the_catalog_lists_the_five_games_once():
    assert {"hazard", "nihakyu", "strength_duel", "fortunes_winds", "hachihachi"} == KEYS
    with pytest.raises(ValueError, match="listed twice"):
        Catalog((*CATALOG.records, CATALOG.get("hazard")))


def test_everything_listing_games_derives_from_the_catalog():
    assert CATALOG.titles() == GAMES
    assert {choice.value: choice.name for choice in GAME_CHOICES} == CATALOG.titles()
    assert (*PLATFORM_EXTENSIONS, *CATALOG.extensions()) == DEFAULT_EXTENSIONS
    for game in CATALOG:
        check_listed(game)
    assert set(CATALOG.computers()) == KEYS, "every shipped game has a computer"


GAME_COMMANDS = {"stats", "leaderboard", "config game", "config rule", "config stakes"}
"""The commands that name any game by its choices."""
RATED_GAME_COMMANDS = {"event open"}
"""The commands that name a rated game by its choices (an event needs places to score)."""


def game_options(command: Any, path: str = "") -> dict[str, dict[str, str]]:
    """Each (sub)command's `game` choices in ``command`` as synced: path → value → name."""
    here = f"{path} {command.name}".strip()
    found: dict[str, dict[str, str]] = {}
    for option in command.options:
        if hasattr(option, "options"):  # a subcommand, or a group of them
            found |= game_options(option, here)
        elif option.name == "game" and option.choices:
            found[here] = {str(choice.value): choice.name for choice in option.choices}
    return found


async def offered_games(env: Any) -> dict[str, dict[str, str]]:
    """The games each command offers as its `game` choices, as Discord has them (synced):
    command → value → title."""
    found: dict[str, dict[str, str]] = {}
    for command in await env.bot.tree.fetch_commands():
        found |= game_options(command)
    return found


async def check_offered(env: Any, game: AnyGame) -> None:
    """Every command naming a game by its choices offers ``game``, by its title, as it
    offers every game the bot's catalog lists."""
    offered = await offered_games(env)
    assert set(offered) == GAME_COMMANDS | RATED_GAME_COMMANDS
    for command, games in offered.items():
        rated_only = command in RATED_GAME_COMMANDS
        if game.rated or not rated_only:
            assert games.get(game.name) == game.title, f"/{command} does not offer {game.name}"
        assert games == {
            record.name: record.title
            for record in env.bot.catalog
            if record.rules_file and (record.rated or not rated_only)
        }, command


async def test_the_commands_naming_a_game_offer_the_shipped_games(simcord_env):
    await make_world(simcord_env, "alice")  # the bot is up and its commands synced
    # As declared: the shipped games by their titles, in the catalog's order. (The tests'
    # bot also hosts the coin flip, which has no rules page: not offered, as /rules shows
    # it not.)
    shipped = {choice.value: choice.name for choice in GAME_CHOICES}
    assert list(shipped) == list(CATALOG.names())
    rated = {name: title for name, title in shipped.items() if name in CATALOG.rated()}
    assert list(rated) == ["nihakyu", "strength_duel", "hachihachi"]
    for command, games in (await offered_games(simcord_env)).items():
        expected = rated if command in RATED_GAME_COMMANDS else shipped
        assert list(games.items()) == list(expected.items()), command
    for game in CATALOG:
        await check_offered(simcord_env, game)


def check_listed(game: AnyGame) -> None:
    """What lists games reads the game from the catalog: /rules' title, the chart's
    colour, its rules file where its record says."""
    assert GAMES[game.name] == game.title
    assert colour_of(game.name) == game.colour != OTHER_GAME
    assert game.rules_file is not None
    assert rules_folder(game.name).joinpath(game.rules_file).is_file()


def _string_literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def _own_parts(path: Path) -> bool:
    """bot/catalog.py, and a game's own engine and computer (which name their game)."""
    parts = path.relative_to(ROOT / "bot").parts
    if parts == ("catalog.py",):
        return True
    if parts[0] in ("games", "players") and len(parts) > 1:
        own = parts[1].removesuffix(".py")
        return own in KEYS or any(own.startswith(f"{key}_") for key in KEYS)
    return False


def test_bot_names_no_game_outside_the_catalog_and_the_games_own_packages():
    found = [
        f"{path.relative_to(ROOT)}:{line}: {value!r}"
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if not _own_parts(path)
        for line, value in _string_literals(path)
        if value in KEYS
    ]
    assert found == [], "a list of game names outside bot/catalog.py"


# -- no getattr over a game's data ----------------------------------------------------------

ALLOWED_GETATTR: dict[tuple[str, str], str] = {
    # Not a game's data: the platform's own objects.
    ("bot/__main__.py", "getattr(logging, level)"): "a log level named in the settings",
    ("bot/__main__.py", "getattr(signal, name)"): "SIGTERM/SIGINT by name",
    ("bot/app.py", "getattr(self, '_tanzaku_closing', None)"): "set on the first close()",
    ("bot/interactions.py", "getattr(getattr(interaction, 'client', None), 'meter', NO_METER)"): (
        "the metrics of a client that may not be a TanzakuBot"
    ),
    ("bot/interactions.py", "getattr(interaction, 'client', None)"): "the same, its client",
    ("cogs/_ui/hands.py", "getattr(interaction, 'locale', None)"): (
        "a kept answer's member language (an interaction from before may carry none)"
    ),
    ("cogs/_ui/primitives.py", "getattr(interaction.client, 'languages', None)"): (
        "the server languages of a client that may not be a TanzakuBot"
    ),
    ("bot/storage/database.py", "getattr(connection, '_thread', None)"): "aiosqlite's thread",
    ("bot/interactions.py", "getattr(item, 'custom_id', None)"): "a discord component",
    ("cogs/_ui/errors.py", "getattr(error, 'original', error)"): "discord.py's wrapped error",
    ("cogs/_ui/render.py", "getattr(item, 'label', '')"): "a discord component",
    ("cogs/_ui/primitives.py", "getattr(item, 'custom_id', '')"): "a discord component",
    (
        "cogs/_ui/primitives.py",
        "getattr(interaction, 'permissions', None)",
    ): "a discord interaction",
    ("cogs/_ui/controls.py", "getattr(discord.ButtonStyle, self.style)"): "a style by name",
    ("cogs/_ui/hands.py", "getattr(sent, 'message_id', None)"): "discord's webhook message",
    ("cogs/_ui/options.py", "getattr(refused, 'errors', None)"): "pydantic's error",
    ("cogs/_ui/options.py", "getattr(rules, option.target)"): "an option names its field",
    ("cogs/_ui/options.py", "getattr(getattr(cog, 'ui', None), 'game', None)"): "a command's cog",
    ("cogs/_ui/options.py", "getattr(cog, 'ui', None)"): "a command's cog, perhaps no game's",
    ("bot/players/strength_duel.py", "getattr(rules, name)"): "the duel's own option names",
    ("bot/players/strength_duel.py", "getattr(SOLVED_RULES, name)"): "the same, solved",
    ("cogs/_ui/frame.py", "getattr(event, name)"): "an event's own declared fields",
    # The kit's pydantic discriminator for bets: a raw dict or a model, before parsing.
    ("bot/games/kit.py", "getattr(data, 'kind', None)"): "a union's discriminator",
    ("bot/command_strings.py", "getattr(command, 'callback', None)"): "a discord.py command",
}


def _getattr_calls() -> set[tuple[str, str]]:
    found = set()
    for tree_root in ("bot", "cogs"):
        for path in sorted((ROOT / tree_root).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "getattr"
                ):
                    found.add((str(path.relative_to(ROOT)), ast.unparse(node)))
    return found


def test_no_getattr_reads_a_games_data():
    """Only the listed reads, each of a discord, logging or pydantic object or a name the
    code itself declares: a game's data is read through its typed engine and record."""
    unexpected = sorted(_getattr_calls() - set(ALLOWED_GETATTR))
    assert unexpected == [], "a getattr not on the justified list"


# -- a table service from the catalog alone ---------------------------------------------------


def _service_parts(catalog: Catalog) -> dict[str, Any]:
    return {"registry": catalog.registry(), "computers": catalog.computers()}


async def _play(services: Services, game: AnyGame, channel: int) -> int:
    """Open a table with the game's default rules, seat the fewest players it takes, play
    random legal actions (a deadline when nobody has one) and end it, by itself or by a
    moderator after a while; returns its id."""
    service, clock, engine = services.tables, services.clock, game.engine
    rules = engine.rules_model()
    fewest, _ = engine.seat_limits(rules)
    players = PLAYERS[: max(fewest, 2)]
    for player in players:
        await services.economy.grant(GUILD, player, 100_000, "test funds")
    opened = await service.open(
        guild_id=GUILD, channel_id=channel, game=game.name, host_id=players[0], rules=rules
    )
    table = opened.snapshot.id
    for player in players[1:]:
        await service.join(table, Actor(player, False))
    await service.start(table, Actor(players[0], False))
    rng = random.Random(game.name)
    for _ in range(200):
        snapshot = await service.snapshot(table)
        if not snapshot.row.live:
            break
        moves = [
            (player, action)
            for player in snapshot.seats
            for action in engine.legal_actions(snapshot.state, player)
        ]
        for player, action in rng.sample(moves, len(moves)):
            try:
                await service.act(table, Actor(player, False), action)
            except UserFacingError:
                continue
            break
        else:
            deadline = snapshot.deadline
            assert deadline is not None, f"{game.name}: nobody can act and no deadline waits"
            clock.now = max(clock.now, deadline.due_at + 1)
            await service.fire_deadline(table, deadline.ply)
    if (await service.snapshot(table)).row.live:
        await service.cancel(table, Actor(MODERATOR, True))
    return table


@pytest.mark.parametrize("name", sorted(KEYS))
async def test_a_service_from_the_catalog_alone_hosts_every_game(tmp_path, name):
    services = await open_services(
        tmp_path / "t.db", house_float=100_000, **_service_parts(CATALOG)
    )
    try:
        service = services.tables
        for game in CATALOG:
            assert service.has_computer(game.name)
        game = CATALOG.get(name)
        table = await _play(services, game, CHANNEL)
        ended = await service.snapshot(table)
        assert not ended.row.live and ended.row.escrow == 0, "settled: nothing left in the pot"
        report = await service.verify(table, GUILD)
        assert report.matched, report.reason
        assert report.actions_replayed > 0
        snapshot, rows = await service.history(table, GUILD)
        replayed = list(
            replay_steps(
                snapshot.spec, snapshot.row, rows, FairDice(bytes.fromhex(report.seed_hex))
            )
        )
        final = next(step.state for step in reversed(replayed) if step.state is not None)
        assert final == snapshot.state, "the log replays from the seed to the stored state"
        steps = [
            {"seq": number, "said": json.dumps(public.action)}
            for number, public in enumerate(public_log(snapshot.spec, rows), start=1)
        ]
        data = data_of(
            page_html({"table": table, "game": name, "title": game.title, "steps": steps})
        )
        assert data["title"] == game.title and len(data["steps"]) == len(steps) > 0
    finally:
        await services.db.close()


async def test_a_test_catalog_adds_a_game_with_one_record(tmp_path):
    assert TEST_CATALOG.names() == (*CATALOG.names(), "coinflip")
    assert TEST_CATALOG.get("coinflip") is COINFLIP
    services = await open_services(tmp_path / "t.db", **_service_parts(TEST_CATALOG))
    try:
        table = await _play(services, COINFLIP, CHANNEL)
        assert (await services.tables.verify(table, GUILD)).matched
    finally:
        await services.db.close()


async def test_a_cog_for_a_game_the_catalog_lacks_is_refused_at_start(bot_factory):
    from discord.ext import commands

    bot = bot_factory(catalog=CATALOG, extensions=(*DEFAULT_EXTENSIONS, COINFLIP.extension))
    with pytest.raises(commands.ExtensionFailed, match=r"'coinflip'.*does not list"):
        await bot.setup_hook()
