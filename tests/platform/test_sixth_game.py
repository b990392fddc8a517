"""A sixth game, added as a contributor adds one, is seen by every per-game check.

High Card (tests/support/highcard: engine, computer, record, options, UI, cog, rules in
English and Japanese) is enrolled in the catalog for a test (:func:`enrolled`) and held to
the very checks each shipped game is held to, called as the per-game test files call them:
the contract's random playouts, the privacy check, the house-edge classification of its
options, what lists games, the rules pages in both languages, a table service built from
the catalog alone. Without its privacy base, or with a Rules field its options leave
unclassified, those checks fail. Then it is played end to end through the real bot.
"""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, create_model

from bot import rules_text
from bot.catalog import CATALOG, Catalog
from bot.games.common import COMPUTER_IDS, is_public
from bot.games.dice import ScriptedDice
from bot.i18n import extract as extractor
from bot.i18n.extract import locale_folder, missing, po_entries
from cogs._ui.options import OPENER, SERVER
from cogs._ui.stats_chart import OTHER_GAME, colour_of
from tests.cogs.test_open_defaults_simcord import check_defaults_inside_limits
from tests.cogs.test_stats_each_game_simcord import booked, chart_colours
from tests.cogs.test_turn_line_simcord import check_turn_line
from tests.games.test_contract import (
    cases,
    logged_actions_parse_back,
    play_out,
    record_cases,
    unplayed,
)
from tests.games.test_private_events import every_model, privacy_problems
from tests.platform._helpers import open_services
from tests.platform.test_catalog import (
    CHANNEL,
    GUILD,
    _play,
    _service_parts,
    check_listed,
    check_offered,
)
from tests.platform.test_cog_layout import check_game_package, cog_package
from tests.platform.test_glossary_ja import (
    glossary_offences,
    japanese_texts,
    load_glossary,
    rules_texts,
    without_a_catalog,
)
from tests.platform.test_house_options_simcord import (
    ServerCase,
    check_open_command,
    check_rules_name_server_options,
    check_server_option,
    check_setters,
    classification_problems,
    server_case_problems,
    server_cases,
)
from tests.platform.test_one_way import ABOVE_THE_HUB, all_offences
from tests.platform.test_rules_text_locales import (
    check_japanese_moderators_block,
    check_japanese_pages,
    check_pages_fit,
)
from tests.platform.test_stats_rules import names_winners, winners_problems
from tests.support.coinflip import TEST_CATALOG
from tests.support.enrol import enrolled
from tests.support.highcard import HIGHCARD
from tests.support.highcard import engine as highcard_engine
from tests.support.highcard.engine import NOT_DRAWING
from tests.support.sim import answered, labels, make_world, message_text, refusal, wallet

KEY = HIGHCARD.name
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def enrolled_highcard() -> Iterator[Catalog]:
    """The catalog with High Card listed last, for this test only."""
    with enrolled(HIGHCARD) as catalog:
        yield catalog


def cog_of_highcard() -> Any:
    return importlib.import_module(HIGHCARD.extension)


# -- enrolment -----------------------------------------------------------------------------


def test_enrolment_lists_the_game_for_the_test_alone() -> None:
    shipped = CATALOG.names()
    assert KEY not in CATALOG and KEY not in rules_text.GAMES
    with enrolled(HIGHCARD):
        assert CATALOG.names() == (*shipped, KEY)
        assert CATALOG.get(KEY) is HIGHCARD
        # What lists games reads the catalog when asked: it lists the game at once.
        assert rules_text.GAMES[KEY] == HIGHCARD.title
        assert colour_of(KEY) == HIGHCARD.colour
        assert KEY in CATALOG.registry().names()
        assert rules_text.pages(KEY)
    assert CATALOG.names() == shipped
    assert KEY not in rules_text.GAMES and colour_of(KEY) == OTHER_GAME
    with pytest.raises(KeyError):
        rules_text.pages(KEY)  # not from a cache of the enrolled game's
    # A game listed twice is refused, as in any catalog, and the catalog is left as it was.
    with pytest.raises(ValueError, match="listed twice"), enrolled(CATALOG.get("hazard")):
        pass
    assert CATALOG.names() == shipped


def spelled(folder: Path) -> list[str]:
    """Every string the code of ``folder`` writes (docstrings aside)."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        found += [
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ]
    return found


def test_its_key_and_its_title_are_each_written_once() -> None:
    """The engine writes the key (its ``name``), the record the title; the UI, the cog
    and the computer read both from the record."""
    strings = spelled(ROOT / "tests" / "support" / "highcard")
    assert [text for text in strings if text == KEY] == [KEY]
    assert [text for text in strings if HIGHCARD.title in text] == [HIGHCARD.title]


# -- the engine contract ---------------------------------------------------------------------


def test_the_contract_playouts_cover_it(enrolled_highcard: Catalog) -> None:
    assert unplayed(HIGHCARD) == []
    played = {case.id for case in record_cases(HIGHCARD)}
    assert played == {f"{KEY}-{index}" for index in range(len(highcard_engine.PLAYOUT_VARIANTS))}
    assert played <= {case.id for case in cases(CATALOG)}


@pytest.mark.parametrize(("engine", "rules", "maker"), record_cases(HIGHCARD))
@pytest.mark.parametrize("seed", range(6))
def test_its_random_playouts_keep_the_contract(
    engine: Any, rules: BaseModel, maker: Any, seed: int
) -> None:
    play_out(engine, rules, maker, seed)


@pytest.mark.parametrize(("engine", "rules", "maker"), record_cases(HIGHCARD))
def test_its_logged_actions_parse_back(engine: Any, rules: BaseModel, maker: Any) -> None:
    logged_actions_parse_back(engine, rules, maker)


def test_without_its_playout_variants_the_playouts_would_skip_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(highcard_engine, "PLAYOUT_VARIANTS")
    assert record_cases(HIGHCARD) == []
    assert unplayed(HIGHCARD) == [f"{KEY}: declare PLAYOUT_VARIANTS"]


# -- privacy -----------------------------------------------------------------------------------


def test_the_privacy_check_searches_it(enrolled_highcard: Catalog) -> None:
    assert privacy_problems(HIGHCARD) == []
    # Its secret draw is among the models the check reads, and it is private.
    assert highcard_engine.Drawn in every_model(CATALOG)
    assert not is_public(highcard_engine.Drawn(private_to=1, player=1, value=20))


def test_without_its_privacy_base_the_privacy_check_fails(
    monkeypatch: pytest.MonkeyPatch, enrolled_highcard: Catalog
) -> None:
    drawn = highcard_engine.Drawn
    # The same event, every field kept (``private_to`` too), on a plain model.
    public_twin = create_model(
        drawn.__name__,
        __module__=drawn.__module__,
        **{name: (field.annotation, field) for name, field in drawn.model_fields.items()},
    )
    assert "private_to" in public_twin.model_fields and not issubclass(
        public_twin, highcard_engine.PrivateEvent
    )
    assert is_public(public_twin(private_to=1, player=1, value=20)), "the table would show it"
    monkeypatch.setattr(highcard_engine, "Drawn", public_twin)
    assert privacy_problems(HIGHCARD) == [
        f"{KEY}: tests.support.highcard.engine.Drawn has private_to but is not a "
        "PrivateEvent: the table would show it to everyone"
    ]


# -- the house's edge: every Rules field classified beside the options -------------------------


def test_its_options_classify_every_rules_field(enrolled_highcard: Catalog) -> None:
    assert classification_problems(HIGHCARD) == []
    check_setters(HIGHCARD)
    check_rules_name_server_options(HIGHCARD)


def test_without_an_options_classification_the_check_fails(
    monkeypatch: pytest.MonkeyPatch, enrolled_highcard: Catalog
) -> None:
    cog = cog_of_highcard()
    unclassified = {field: who for field, who in cog.OPTIONS.house_edge.items() if field != "rake"}
    monkeypatch.setattr(cog, "OPTIONS", replace(cog.OPTIONS, house_edge=unclassified))
    assert classification_problems(HIGHCARD) == [f"{KEY}: classify rake (opener, server or fixed)"]


def test_an_option_classified_against_who_sets_it_fails_the_check(
    monkeypatch: pytest.MonkeyPatch, enrolled_highcard: Catalog
) -> None:
    cog = cog_of_highcard()
    # The rake is the house's cut; called the opener's, while only the server sets it.
    wrong = {**cog.OPTIONS.house_edge, "rake": OPENER}
    monkeypatch.setattr(cog, "OPTIONS", replace(cog.OPTIONS, house_edge=wrong))
    assert classification_problems(HIGHCARD) == []
    with pytest.raises(AssertionError, match=f"{KEY}.rake is opener"):
        check_setters(HIGHCARD)
    assert cog_of_highcard().OPTIONS.house_edge["rake"] == OPENER
    monkeypatch.undo()
    assert cog_of_highcard().OPTIONS.house_edge["rake"] == SERVER


# -- what /stats books as a win --------------------------------------------------------------


def test_what_it_names_as_its_winners_is_checked(enrolled_highcard: Catalog) -> None:
    assert names_winners(HIGHCARD)
    assert winners_problems(HIGHCARD) == []


def test_naming_a_winner_who_came_out_behind_fails_the_check(
    monkeypatch: pytest.MonkeyPatch, enrolled_highcard: Catalog
) -> None:
    engine = type(HIGHCARD.engine)
    first_seat = lambda self, state: [] if state.winner is None else [state.seats[0]]  # noqa: E731
    monkeypatch.setattr(engine, "winners", first_seat)  # whoever took the pot
    problems = winners_problems(HIGHCARD)
    assert problems and all("came out further ahead" in problem for problem in problems)
    monkeypatch.setattr(engine, "winners", lambda self, state: [])
    assert winners_problems(HIGHCARD) == [f"{KEY}: no playout finished naming a winner"]


# -- what lists games, the rules pages, a service from the catalog alone -------------------------


def test_what_lists_games_lists_it(enrolled_highcard: Catalog) -> None:
    check_listed(HIGHCARD)


def test_its_cog_package_has_the_layout_of_a_games(enrolled_highcard: Catalog) -> None:
    check_game_package(cog_package(HIGHCARD))


def test_its_ui_and_cog_call_the_hub_by_no_way_up(enrolled_highcard: Catalog) -> None:
    # Held as every game's package is (tests/platform/test_one_way.py): its UI returns
    # what the hub answers, its cog hands a command's to GameCog; neither names the hub.
    files = sorted(cog_package(HIGHCARD).rglob("*.py"))
    assert {path.name for path in files} == {"__init__.py", "ui.py", "words.py"}
    assert all_offences(files, above=ABOVE_THE_HUB - {"cog"} | {"hub"}) == []


def test_its_rules_pages_pass_the_rules_checks(enrolled_highcard: Catalog) -> None:
    check_japanese_pages(KEY)
    check_pages_fit(KEY)
    check_japanese_moderators_block(KEY)
    assert len(rules_text.pages(KEY)) == 2


async def test_a_service_from_the_catalog_alone_hosts_it(
    tmp_path: Path, enrolled_highcard: Catalog
) -> None:
    services = await open_services(tmp_path / "t.db", **_service_parts(CATALOG))
    try:
        assert services.tables.has_computer(KEY)
        table = await _play(services, HIGHCARD, CHANNEL)
        ended = await services.tables.snapshot(table)
        assert not ended.row.live and ended.row.escrow == 0
        report = await services.tables.verify(table, GUILD)
        assert report.matched, report.reason
    finally:
        await services.db.close()


def test_the_translation_check_sees_its_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its words go through the i18n layer, so the catalog check reads them once its
    folder is among the sources (a game under cogs/ is): they lack Japanese entries (a
    game under tests/ has no catalog of its own), which for a game under cogs/ fails
    tests/platform/test_translations.py until it is translated."""
    monkeypatch.setattr(extractor, "SOURCES", ("tests/support/highcard",))
    found = extractor.extract()
    words = {str(item.message) for item in found}
    assert {"Draw", "draw a card", "{player:@} draws a card face down."} <= words
    assert NOT_DRAWING in words, "its engine's refusals too"
    lacking = {str(item.message) for item in missing(found, po_entries(locale_folder("ja")))}
    assert "{player:@} takes the pot of {pot:c}." in lacking


def test_the_japanese_checks_read_it(enrolled_highcard: Catalog) -> None:
    texts = list(rules_texts(HIGHCARD))
    assert len(texts) > 10 and glossary_offences(load_glossary(), texts) == []
    assert set(texts) <= set(japanese_texts()), "read with every catalogued game's pages"
    # A game under tests/ has no Japanese catalog of its own: the check names it.
    assert without_a_catalog(CATALOG.names()) == {KEY}


# -- end to end, through the real bot -------------------------------------------------------------


@pytest.fixture
def scripted() -> ScriptedDice:
    return ScriptedDice()


@pytest.fixture
def simcord_bot(bot_factory: Any, scripted: ScriptedDice) -> Any:
    """The tests' bot hosting High Card too: one more record in the catalog it is built
    from (its cog is loaded as the record's extension)."""
    catalog = Catalog((*TEST_CATALOG.records, HIGHCARD))
    return bot_factory(catalog=catalog, dice_factory=lambda row: scripted)


async def test_its_open_command_offers_no_server_option(
    simcord_env: Any, enrolled_highcard: Catalog
) -> None:
    await make_world(simcord_env, "alice")
    await check_open_command(simcord_env, HIGHCARD)


def test_its_server_options_are_read_from_its_options(enrolled_highcard: Catalog) -> None:
    assert server_case_problems(HIGHCARD) == []
    # The rake, the one server option, at the far end of its own range: a case no one wrote.
    assert server_cases(HIGHCARD) == [ServerCase(KEY, "rake", 10, (), {"rake": 10})]


with enrolled(HIGHCARD):  # read from its options, where the catalog says they are
    SERVER_CASES = server_cases(HIGHCARD)


@pytest.mark.parametrize("case", SERVER_CASES, ids=[case.id for case in SERVER_CASES])
async def test_a_member_cannot_set_its_server_option_a_moderator_can_and_tables_take_it(
    simcord_env: Any, enrolled_highcard: Catalog, case: ServerCase
) -> None:
    await check_server_option(simcord_env, case)


async def test_every_command_naming_a_game_offers_it(
    simcord_env: Any, enrolled_highcard: Catalog
) -> None:
    await make_world(simcord_env, "alice")
    await check_offered(simcord_env, HIGHCARD)


async def test_its_defaults_move_inside_the_servers_stake_limits(
    simcord_env: Any, enrolled_highcard: Catalog
) -> None:
    await check_defaults_inside_limits(await make_world(simcord_env, "alice", "bob"), KEY)


async def test_its_table_opens_with_its_defaults_and_leads_with_its_turn_line(
    simcord_env: Any, enrolled_highcard: Catalog
) -> None:
    world = await make_world(simcord_env, "alice", "bob")
    line = await check_turn_line(world, HIGHCARD)
    assert line.startswith("▶️ Everyone — draw a card · <t:")
    # The open-defaults check's own path: two new wallets paid the default seats.
    assert await wallet(world, world["alice"]) == 990


async def test_high_card_is_played_end_to_end_against_the_computer(
    simcord_env: Any, scripted: ScriptedDice, enrolled_highcard: Catalog
) -> None:
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    bot = simcord_env.bot
    answered(await alice.slash(world.channel, "wallet"))
    bank = (await bot.economy.settings(world.guild.id)).house_balance

    opened = answered(await alice.slash(world.channel, f"{KEY} open", stake=10), ephemeral=False)
    answered(await bob.click(opened.response.message, label="Join"))
    answered(await alice.click(world.channel.last_message, label="Add computer"))
    lobby = world.channel.last_message
    assert "🤖 Computer" in lobby.embeds[0].fields[0].value
    # The computer draws as the game starts (15), then Alice (15) and Bob (3): Alice and
    # the computer tie, and draw again: the computer at once (20), then Alice (7).
    scripted.extend([15, 15, 3, 20, 7])
    answered(await alice.click(lobby, label="Start"))
    await bot.tables.computers.idle()
    assert "Draw" in labels(world.channel.last_message)

    drawn = answered(await alice.click(world.channel.last_message, label="Draw"))
    private = [m.content for m in [drawn.response, *drawn.followups] if m and m.ephemeral]
    assert any("**15**" in text for text in private), "her card, to her alone"
    public = message_text(world.channel.last_message)
    # (As a number of its own: ids, times and the dice's commitment hold digits too.)
    assert not re.search(r"\b15\b", public), "nothing of a card shows before the reveal"
    assert "already" in refusal(await alice.click(world.channel.last_message, label="Draw"))

    answered(await bob.click(world.channel.last_message, label="Draw"))
    await bot.tables.computers.idle()
    state = (await bot.tables.snapshot(1)).state
    assert state.round == 2 and state.drawing == [alice.id, COMPUTER_IDS[0]], "the tied, in seats"
    assert "tie on **15**" in message_text(world.channel.last_message)
    assert "not in this draw" in refusal(await bob.click(world.channel.last_message, label="Draw"))

    answered(await alice.click(world.channel.last_message, label="Draw"))
    await bot.tables.computers.idle()
    snapshot = await bot.tables.snapshot(1)
    assert snapshot.state.finished and snapshot.state.winner == COMPUTER_IDS[0]
    assert scripted.remaining == 0
    assert not snapshot.row.live and snapshot.row.escrow == 0
    assert "takes the pot" in message_text(world.channel.last_message)
    assert await wallet(world, alice) == 990 and await wallet(world, bob) == 990
    house = (await bot.economy.settings(world.guild.id)).house_balance
    assert house == bank + 20, "the computer's winnings are the house's"
    totals = await bot.economy.totals(world.guild.id)
    assert totals.wallets + totals.escrow + totals.house == totals.minted

    # /stats books it under its title, its step in its colour; /rules shows its pages.
    mine = await alice.slash(world.channel, "stats")
    assert booked(mine, HIGHCARD.title) == {
        "played": 1,
        "net": -10,
        "best win": 0,
        "longest streak": 0,
    }
    assert HIGHCARD.colour in chart_colours(world, mine)
    rules = answered(await bob.slash(world.channel, "rules", game=KEY), ephemeral=True)
    assert rules.response.embeds[0].title == f"{HIGHCARD.title} — How to Play"
    assert rules.response.embeds[0].footer.text == "Page 1 of 2"
    page_two = answered(await bob.click(rules.response, label="Next ▶"))
    assert page_two.response.embeds[0].title == f"{HIGHCARD.title} — Options"
