"""The dice games' words in Japanese: Hazard, Nihakyu and Strength Duel played out by
their engines, every table message, event sentence, private word, refusal and command
string rendered under ``use_locale("ja")`` — Japanese, within Discord's limits — and the
same words under ``"en"`` as they always read."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator, Sequence
from types import SimpleNamespace
from typing import Any, TypeVar

import discord
import pytest
from discord import app_commands
from pydantic import BaseModel

from bot.errors import explain
from bot.games import hazard, nihakyu
from bot.games import strength_duel as duel
from bot.games.common import Deadline, Honour
from bot.games.errors import IllegalMove
from bot.i18n import catalog, use_locale
from cogs._ui.frame import frame_of
from cogs.hazard import HazardCog
from cogs.hazard.ui import HazardUI
from cogs.hazard.words import action_text as hazard_action
from cogs.hazard.words import odds_embed
from cogs.nihakyu import NihakyuCog
from cogs.nihakyu.ui import NihakyuUI
from cogs.nihakyu.words import action_text as nihakyu_action
from cogs.strength_duel import MEMBER_NEEDED, NO_MEMBER_IN, DuelCog
from cogs.strength_duel.ui import DuelUI
from cogs.strength_duel.words import action_text as duel_action
from cogs.strength_duel.words import bid_review, panel_text
from tests.support.japanese import english_in

T = TypeVar("T")
A, B, C, D = 101, 202, 303, 404
CURRENCY = "両"


class CyclingDice:
    """Deterministic dice for playouts: a seeded generator (no global random)."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def roll(self, sides: int) -> int:
        return self.random.randint(1, sides)

    def shuffle(self, items: Sequence[T]) -> list[T]:
        shuffled = list(items)
        self.random.shuffle(shuffled)
        return shuffled


def snapshot(state: Any, recent: Sequence[BaseModel] = (), status: str = "playing") -> Any:
    """What the words read of a table (the service's TableSnapshot, duck-typed)."""
    return SimpleNamespace(
        id=7,
        state=state,
        game=state,
        rules=state.rules,
        seats=list(state.seats),
        currency=CURRENCY,
        deadline=SimpleNamespace(due_at=1_900_000_000),
        recent_events=list(recent),
        status=status,
        ply=state.ply,
        row=SimpleNamespace(id=7, live=True, guild_id=1, channel_id=2),
    )


def embed_texts(embed: discord.Embed) -> list[str]:
    texts = [embed.title or "", embed.description or ""]
    for field in embed.fields:
        texts += [field.name or "", field.value or ""]
    return [t for t in texts if t]


def view_texts(view: discord.ui.View | None) -> list[str]:
    texts: list[str] = []
    for item in view.children if view is not None else []:
        if isinstance(item, discord.ui.Button) and item.label:
            assert len(item.label) <= 80, item.label
            texts.append(item.label)
        if isinstance(item, discord.ui.Select):
            assert len(item.placeholder or "") <= 150
            texts.append(item.placeholder or "")
            for option in item.options:
                assert len(option.label) <= 100 and len(option.description or "") <= 100
                texts += [option.label, option.description or ""]
    return [t for t in texts if t]


def table_texts(ui: Any, snap: Any, events: Sequence[BaseModel]) -> list[str]:
    """Every word of the table message (the game's part: title aside, the frame's)."""
    frame = frame_of(ui, snap, events)
    embed = frame.embed()
    for field in embed.fields:
        assert len(field.value or "") <= 1024 and len(field.name or "") <= 256
    texts = [*frame.status, *([frame.turn] if frame.turn else []), *frame.events]
    texts += frame.seats + [value for pair in frame.extra_fields for value in pair]
    texts += view_texts(ui.controls(snap)) if not frame.finished else []
    texts += ui.describe_rules(snap)
    return [t for t in texts if t]


def hub() -> Any:
    """Just enough of the table hub to build a game's UI (no database is read)."""
    signals = SimpleNamespace(on=lambda *args: None, on_resync=lambda *args: None)
    return SimpleNamespace(bot=SimpleNamespace(db=None, tables=SimpleNamespace(signals=signals)))


# --------------------------------------------------------------------- playouts


def hazard_session() -> list[tuple[Any, list[BaseModel]]]:
    """Three players: stakes, bets with/against, a main, odds bets, throws to the end of
    rounds, the dice passed, a cash-out and the close."""
    rules = hazard.Rules(against_commission=5, odds_max_multiple=2)
    dice = CyclingDice(3)
    state = hazard.ENGINE.start(rules, [A, B, C], dice)
    steps: list[tuple[Any, list[BaseModel]]] = []

    def act(player: int | None, action: Any) -> None:
        nonlocal state
        state, events = hazard.ENGINE.act(state, player, action, dice)
        steps.append((state, events))

    for _ in range(4):
        caster = state.caster
        others = [p for p in state.seats if p != caster]
        act(caster, hazard.Bet(kind="caster", amount=20))
        act(others[0], hazard.Bet(kind="with", amount=30))
        act(others[1], hazard.Bet(kind="against", amount=40))
        act(caster, hazard.CallMain(main=6))
        for player in others:
            if state.window_open:
                act(player, hazard.Ready())
        while state.main is not None:
            if state.chance is not None and not state.bets.get(caster, {}).get("odds_for"):
                act(caster, hazard.Bet(kind="odds_for", amount=10))
                act(others[1], hazard.Bet(kind="odds_against", amount=10))
            act(caster, hazard.Throw())
        if hazard.can_pass_dice(state):
            act(state.caster, hazard.PassDice())
    act(C if state.caster != C else B, hazard.Leave())
    act(None, hazard.Close())
    return steps


def nihakyu_session() -> list[tuple[Any, list[BaseModel]]]:
    """Every variant on, with the Dealer: choices, Sleight of Hand, eliminations to the
    end."""
    rules = nihakyu.Rules(
        ante=10, kage_endurance=True, shadow_step=True, shadow_step_uses=2,
        dealers_blood=True, shinobi_interference=True, caught_on_natural_one=True,
        starting_stamina=30,
    )  # fmt: skip
    dice = CyclingDice(5)
    state = nihakyu.ENGINE.start(rules, [A, B, C], dice)
    steps: list[tuple[Any, list[BaseModel]]] = []
    choices = itertools.cycle(
        [nihakyu.KageEndurance(), nihakyu.ShadowStep(), nihakyu.Roll(), nihakyu.Roll()]
    )
    sleights = itertools.cycle(
        [nihakyu.Sleight(adjust=1), nihakyu.SkipSleight(), nihakyu.Sleight(adjust=-1)]
    )
    for _ in range(60):
        if state.finished:
            break
        acted = False
        for player in state.seats:
            decided = state.sleights if state.phase == "sleight" else state.choices
            legal = nihakyu.ENGINE.legal_actions(state, player)
            if not legal or player in decided:
                continue
            wanted = next(sleights) if state.phase == "sleight" else next(choices)
            action = wanted if wanted in legal else legal[0]
            state, events = nihakyu.ENGINE.act(state, player, action, dice)
            steps.append((state, events))
            acted = True
            break
        if not acted:
            state, events = nihakyu.ENGINE.act(state, None, Deadline(), dice)
            steps.append((state, events))
    assert state.finished
    return steps


def duel_session(mode: str, players: list[int]) -> list[tuple[Any, list[BaseModel]]]:
    rules = duel.Rules(stake=10, mode=mode)  # type: ignore[arg-type]
    dice = CyclingDice(9)
    state = duel.ENGINE.start(rules, players, dice)
    steps: list[tuple[Any, list[BaseModel]]] = []
    pick = random.Random(4)
    for _ in range(200):
        if state.finished:
            break
        waiting = list(duel.waiting_for(state))
        if not waiting:
            state, events = duel.ENGINE.act(state, None, Deadline(), dice)
        else:
            player = waiting[0]
            legal = duel.ENGINE.legal_actions(state, player)
            action = pick.choice(legal) if legal else Deadline()
            state, events = duel.ENGINE.act(state, player, action, dice)
        steps.append((state, events))
    assert state.finished
    return steps


# ----------------------------------------------------------------------- tables


def every_text(ui: Any, steps: list[tuple[Any, list[BaseModel]]]) -> list[str]:
    texts: list[str] = []
    for state, events in steps:
        snap = snapshot(state, events)
        texts += table_texts(ui, snap, events)
        for event in events:
            private = ui.confirmations(event, snap)
            if private:
                texts.append(private)
    return texts


@pytest.mark.parametrize(
    ("ui_class", "session"),
    [
        (HazardUI, hazard_session),
        (NihakyuUI, nihakyu_session),
        (DuelUI, lambda: duel_session("duel", [A, B])),
        (DuelUI, lambda: duel_session("forbidden", [A, B])),
        (DuelUI, lambda: duel_session("three", [A, B, C])),
        (DuelUI, lambda: duel_session("tag", [A, B, C, D])),
    ],
    ids=["hazard", "nihakyu", "duel", "forbidden", "three", "tag"],
)
def test_a_whole_table_reads_in_japanese(ui_class: Any, session: Any) -> None:
    steps = session()
    ui = ui_class(hub())
    with use_locale("ja"):
        texts = every_text(ui, steps)
    assert len(texts) > 20
    assert english_in(texts) == []
    with use_locale("en"):
        english = every_text(ui, steps)
    assert english_in(english), "the same table in English reads in English"


def test_hazard_words_under_english_are_unchanged() -> None:
    settled = hazard.BetSettled(player=A, bet="against", amount=10, won=True, net=9, commission=1)
    thrown = hazard.Thrown(caster=A, dice=(1, 3), total=4, outcome="chance", main=7, chance=4,
                           by_deadline=True)  # fmt: skip
    state = hazard.ENGINE.start(hazard.Rules(), [A, B], CyclingDice(1))
    snap = snapshot(state)
    with use_locale("en"):
        ui = HazardUI(hub())
        assert (
            ui.sentences(settled, snap)
            == f"<@{A}> wins the bet against the caster: +9 両 after 1 両 commission."
        )
        assert ui.sentences(thrown, snap) == "⚀ ⚂ = 4 — sets the **chance** (thrown by the table)."
        assert ui.status_lines(snap)[0] == f"Round 1 · caster <@{A}> (losses in a row: 0/3)"
        assert (
            hazard_action({"kind": "with", "amount": 1500}, "coins")
            == "bets 1,500 coins with the caster"
        )
    with use_locale("ja"):
        assert (
            ui.sentences(settled, snap)
            == f"<@{A}>は逆張りの賭けに勝ちました：手数料1両を引いて+9両。"
        )
        assert (
            ui.sentences(thrown, snap)
            == "⚀ ⚂ = 4 — **チャンス**が決まりました（卓が代わりに振りました）。"
        )
        assert hazard_action({"kind": "with", "amount": 1500}, "両") == "振り手側に1,500両賭ける"


def test_the_odds_table_in_japanese_fits_an_embed() -> None:
    with use_locale("ja"):
        embed = odds_embed(None, hazard.Rules(against_bar=False, against_commission=5))
    texts = embed_texts(embed)
    assert english_in(texts) == []
    assert "ハザード" in (embed.title or "") and "手数料" in (embed.description or "")
    assert all(len(field.value or "") <= 1024 for field in embed.fields)
    assert len(embed) <= 6000


def test_the_bet_picker_names_the_bet_in_the_readers_language() -> None:
    ui = HazardUI(hub())
    outcome = SimpleNamespace(snapshot=SimpleNamespace(currency=CURRENCY))
    with use_locale("ja"):
        assert "振り手側" in ui.bets.confirmation(30, "with", outcome)  # type: ignore[arg-type]
    with use_locale("en"):
        assert ui.bets.confirmation(30, "with", outcome) == (  # type: ignore[arg-type]
            "Your bet is on: 30 両 with the caster."
        )


def test_duel_private_panels_and_review_in_japanese() -> None:
    steps = duel_session("forbidden", [A, B])
    texts: list[str] = []
    with use_locale("ja"):
        for state, events in steps:
            snap = snapshot(state, events)
            for player in state.seats:
                text, _ = panel_text(snap, player)
                assert len(text) <= 2000
                texts.append(text)
        texts += [duel_action({"kind": "bid", "amount": 3, "tag_out": True}, CURRENCY)]
        texts += [duel_action({"kind": "forbid", "number": 2}, CURRENCY)]
    assert english_in(texts) == []
    assert any("禁じ数" in text for text in texts)


def test_the_computer_duel_lines_in_japanese() -> None:
    from bot.games.common import COMPUTER_IDS

    computer = COMPUTER_IDS[0]
    steps = duel_session("duel", [A, computer])
    final = steps[-1][0]
    ui = DuelUI(hub())
    with use_locale("ja"):
        texts = every_text(ui, steps[:3])
        review = bid_review(final)
    assert review is not None and len(review) <= 1024
    assert english_in([*texts, review]) == []
    assert "均衡" in " ".join(texts)


def test_nihakyu_logged_actions_and_honours_in_japanese() -> None:
    state = nihakyu.ENGINE.start(nihakyu.Rules(ante=5), [A, B], CyclingDice(2))
    snap = snapshot(state)
    with use_locale("ja"):
        texts = [
            nihakyu_action({"kind": kind, "adjust": 1, "target": A, "player": B}, CURRENCY) or ""
            for kind in ("sleight", "eject", "kage_unpaid", "roll", "shadow_step",
                         "kage_endurance", "skip_sleight")
        ]  # fmt: skip
        honour = NihakyuUI(hub()).sentences(Honour(player=A, name=nihakyu.SHINIGAMI), snap)
    assert honour is not None and "死神" in honour
    assert english_in([*texts, honour]) == []


# --------------------------------------------------------------------- refusals


def refusals() -> list[IllegalMove]:
    """One refusal of each kind the dice engines give, raised for real."""
    found: list[IllegalMove] = []

    def refused(engine: Any, state: Any, player: int | None, action: Any) -> None:
        with pytest.raises(IllegalMove) as caught:
            engine.act(state, player, action, CyclingDice(1))
        found.append(caught.value)

    h = hazard.ENGINE.start(hazard.Rules(min_stake=5, max_stake=50), [A, B, C], CyclingDice(1))
    refused(hazard.ENGINE, h, A, hazard.Bet(kind="caster", amount=2))  # the minimum
    refused(hazard.ENGINE, h, A, hazard.Bet(kind="caster", amount=60))  # the maximum
    refused(hazard.ENGINE, h, B, hazard.Throw())
    h2, _ = hazard.ENGINE.act(h, B, hazard.Bet(kind="with", amount=10), CyclingDice(1))
    refused(hazard.ENGINE, h2, B, hazard.Bet(kind="against", amount=10))
    n = nihakyu.ENGINE.start(nihakyu.Rules(ante=1, shadow_step=True, shadow_step_uses=0),
                             [A, B], CyclingDice(1))  # fmt: skip
    refused(nihakyu.ENGINE, n, A, nihakyu.ShadowStep())
    refused(nihakyu.ENGINE, n, A, nihakyu.KageEndurance())
    s = duel.ENGINE.start(duel.Rules(stake=1), [A, B], CyclingDice(1))
    refused(duel.ENGINE, s, A, duel.Bid(amount=99, tag_out=False))
    refused(duel.ENGINE, s, A, duel.Bid(amount=1, tag_out=True))
    with pytest.raises(IllegalMove) as caught:
        duel.ENGINE.start(duel.Rules(stake=1, mode="tag"), [A, B], CyclingDice(1))
    found.append(caught.value)
    return found


def test_engine_refusals_keep_their_english_and_read_in_japanese() -> None:
    found = refusals()
    english = [str(error) for error in found]
    assert english[:2] == [
        "The table minimum is 5 coins per bet.",
        "The table maximum is 50 coins per bet; this would make 60.",
    ]
    assert "You already bet with the caster this round; you can't back both." in english
    assert "You have only 25 strength, so you can't bid 99." in english
    assert "Strength Duel (tag) needs exactly 4 players." in english
    with use_locale("en"):
        assert [explain(error) for error in found] == english
    with use_locale("ja"):
        shown = [explain(error) for error in found]
    assert english_in(shown) == []
    assert "力が25しかないので、99は入札できません。" in shown


def test_the_challenge_refusals_in_japanese() -> None:
    with use_locale("ja"):
        shown = [explain(IllegalMove(t)) for t in [*NO_MEMBER_IN.values(), *MEMBER_NEEDED.values()]]
    assert english_in(shown) == []


# --------------------------------------------------------------------- commands


def command_strings(cog: type) -> Iterator[tuple[str, str]]:
    """(what, English) for every name, description and choice of a cog's commands."""
    yield "name", cog.__cog_group_name__  # type: ignore[attr-defined]
    yield "description", cog.__cog_group_description__  # type: ignore[attr-defined]
    for attr in vars(cog).values():
        if isinstance(attr, app_commands.Command):
            yield "name", attr.name
            yield "description", attr.description
            for parameter in attr.parameters:
                yield "name", parameter.name
                yield "description", parameter.description
                for choice in parameter.choices:
                    yield "choice", choice.name


@pytest.mark.parametrize("cog", [HazardCog, NihakyuCog, DuelCog])
def test_every_command_string_has_a_valid_japanese_localization(cog: type) -> None:
    japanese = catalog("ja")
    valid_name = re.compile(r"^[-_\w]{1,32}$")
    for what, english in command_strings(cog):
        local = japanese.get(str(english))
        assert isinstance(local, str), f"no ja for {what} {english!r}"
        if what == "name":
            assert valid_name.match(local) and local == local.lower(), local
        else:
            assert 1 <= len(local) <= 100, local


def test_why_the_house_will_not_stake_the_computer_reads_in_the_askers_language() -> None:
    from bot.players.strength_duel import house_refusal

    rules = duel.Rules(stake=10, mode="forbidden")
    with use_locale("en"):
        english = house_refusal(rules)
    with use_locale("ja"):
        japanese = house_refusal(rules)
    assert english is not None and english.endswith(
        "and this table differs: its mode is forbidden, not duel."
    )
    assert japanese is not None and "禁じ数" in japanese
    assert english_in([japanese]) == []
