"""The declarative game UI's pieces, one by one: the frame, event sentences, the verb
table, the amount form, controls and options declared once."""

from __future__ import annotations

import gc
import inspect
import weakref
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from pydantic import BaseModel, create_model

from bot.errors import NotAllowed
from bot.games import hazard, nihakyu
from bot.games import strength_duel as duel
from cogs._ui import render, verbs
from cogs._ui.controls import Control, Menu, draw
from cogs._ui.custom_ids import ComponentId
from cogs._ui.forms import AmountModal, parse_quick, quick_amounts, submitted, typed_amount
from cogs._ui.frame import Frame, Sentences, frame_of
from cogs._ui.options import REQUIRED, Option, Options, table
from cogs._ui.primitives import TableButton, button, select, view_of


def snapshot(
    *, finished: bool = False, due: float | None = 1_700_000_000.0, status: str = "running"
) -> Any:
    state = SimpleNamespace(finished=finished, ply=7, main=None, phase="x")
    deadline = None if due is None else SimpleNamespace(due_at=due)
    return SimpleNamespace(
        id=42, state=state, deadline=deadline, currency="coins", seats=[1, 2], status=status
    )


class Said(BaseModel):
    player: int
    amount: int
    net: int


class SaidLoudly(Said):
    pass


class Other(BaseModel):
    kind: str = "other"


class Facts:
    title = "Dice"
    seats_title = "Players"
    finished_seats_title = None
    recent_events = 2

    def status_lines(self, snapshot: Any) -> list[str]:
        return ["status"]

    def turn_line(self, snapshot: Any) -> str | None:
        return "turn"

    def event_text(self, event: BaseModel, snapshot: Any) -> str | None:
        return SENTENCES(event, snapshot)

    def notes(self, snapshot: Any) -> list[str]:
        return ["note"]

    def seat_lines(self, snapshot: Any) -> list[str]:
        return ["<@1>", "<@2>"]

    def extra_fields(self, snapshot: Any) -> list[tuple[str, str]]:
        return [("Bank", "+3 coins")]

    def controls(self, snapshot: Any) -> discord.ui.View | None:
        return None


SENTENCES = Sentences({Said: "{player:@} bets {amount:c} ({net:+c}).", Other: lambda e, s: None})


# -- the frame -------------------------------------------------------------------------------


def test_the_frame_orders_turn_status_latest_events_and_notes() -> None:
    events = [Said(player=11, amount=n, net=n) for n in (1, 2, 3)]
    frame = frame_of(Facts(), snapshot(), events)
    assert frame.title == "Dice — table #42"
    assert frame.description().split("\n") == [
        "turn",
        "status",
        "",
        "<@11> bets 2 coins (+2 coins).",
        "<@11> bets 3 coins (+3 coins).",
        "note",
    ]
    embed = frame.embed()
    assert embed.colour == discord.Colour(render.COLOUR_PLAYING)
    assert [(f.name, f.value) for f in embed.fields] == [
        ("Players", "<@1>\n<@2>"),
        ("Bank", "+3 coins"),
    ]


def test_a_finished_frame_has_no_turn_line_and_the_finished_colour() -> None:
    frame = frame_of(Facts(), snapshot(finished=True), [])
    assert frame.description() == "status\nnote"
    assert frame.embed().colour == discord.Colour(render.COLOUR_FINISHED)


def test_a_cancelled_table_names_nobody_to_act() -> None:
    """A moderator's end may leave a state that still awaits someone: nobody acts now."""
    frame = frame_of(Facts(), snapshot(status="cancelled"), [])
    assert frame.description() == "status\nnote"


def test_the_frame_clips_to_discords_limits() -> None:
    frame = Frame("t", False, ["x" * 5000], seats=["y" * 2000])
    embed = frame.embed()
    assert len(embed.description or "") == 4096
    assert len(embed.fields[0].value or "") == 1024


def test_a_game_without_dice_gets_no_fairness_footer() -> None:
    from cogs._ui.lobby import add_fairness

    games = {"duel": SimpleNamespace(has_dice=False), "dice": SimpleNamespace(has_dice=True)}
    row = SimpleNamespace(id=1, seed_hex="ab", commitment="c" * 64)
    footers = {}
    for game in ("duel", "dice"):
        embed = discord.Embed(title="t")
        table = SimpleNamespace(spec=SimpleNamespace(name=game), row=row, seed_revealed=False)
        add_fairness(embed, table, has_dice=games[game].has_dice)  # type: ignore[arg-type]
        footers[game] = embed.footer.text
    assert footers["duel"] is None
    assert str(footers["dice"]).startswith("Fair dice — commitment SHA-256")


# -- sentences -------------------------------------------------------------------------------


def test_sentences_fill_templates_follow_subclasses_and_skip_the_unlisted() -> None:
    table = snapshot()
    assert SENTENCES(SaidLoudly(player=5, amount=1000, net=-7), table) == (
        "<@5> bets 1,000 coins (-7 coins)."
    )
    assert SENTENCES(Other(), table) is None
    assert Sentences({})(Other(), table) is None


# -- verbs -----------------------------------------------------------------------------------

TABLE: verbs.VerbTable = {
    "throw": verbs.fixed(hazard.Throw),
    "sleight": verbs.by_arg({"plus": lambda: nihakyu.Sleight(adjust=1)}),
    "forbid": verbs.with_number(lambda n: duel.Forbid(number=n)),
    "main": verbs.with_choice(lambda n: hazard.CallMain(main=n)),
}


def cid(verb: str, arg: str | None = None) -> ComponentId:
    return ComponentId(1, 3, verb, arg)


def test_the_verb_table_maps_verbs_to_actions() -> None:
    assert verbs.action_for(TABLE, cid("throw"), []) == hazard.Throw()
    assert verbs.action_for(TABLE, cid("sleight", "plus"), []) == nihakyu.Sleight(adjust=1)
    assert verbs.action_for(TABLE, cid("forbid", "3"), []) == duel.Forbid(number=3)
    assert verbs.action_for(TABLE, cid("main", None), ["6"]) == hazard.CallMain(main=6)


@pytest.mark.parametrize(
    ("verb", "arg", "values"),
    [
        ("fold", None, []),  # a verb the game does not have
        ("sleight", "minus", []),  # an argument the verb does not take
        ("forbid", "²", []),  # "²".isdigit() is true; it must still be refused
        ("forbid", None, []),
        ("main", None, []),
        ("main", None, ["٣"]),
    ],
)
def test_the_verb_table_refuses_what_it_does_not_know(
    verb: str, arg: str | None, values: list[str]
) -> None:
    with pytest.raises(NotAllowed, match="does nothing"):
        verbs.action_for(TABLE, cid(verb, arg), values)


def test_a_handler_verb_is_not_an_action() -> None:
    async def handler(*args: Any) -> None:
        return None

    with pytest.raises(NotAllowed):
        verbs.action_for({"panel": handler}, cid("panel"), [])


# -- the amount form -------------------------------------------------------------------------


def test_quick_amounts_offer_only_what_fits_the_limits_and_the_wallet() -> None:
    assert quick_amounts(1, 60) == [(10, True), (50, True), (100, False)]
    assert quick_amounts(1, 5) == [(10, False), (50, False), (100, False)]
    # A table minimum above the smallest preset leads, and nothing below it is offered.
    assert quick_amounts(25, 1000) == [(25, True), (50, True), (100, True)]
    assert quick_amounts(0, 3, range(15), count=15)[:5] == [
        (0, True),
        (1, True),
        (2, True),
        (3, True),
        (4, False),
    ]


def test_a_quick_amount_is_read_strictly() -> None:
    assert parse_quick("with-50") == ("with", 50)
    assert parse_quick("odds_for-max") == ("odds_for", None)
    for bad in ("with-²", "with-", "with-1e3", None, "with-9999999999999"):
        with pytest.raises(NotAllowed):
            parse_quick(bad)


def submission(cid: ComponentId, typed: str) -> Any:
    """An amount form's submission as Discord sends it (the form's id is its button's)."""
    field = {"type": 4, "custom_id": "amount", "value": typed}
    return SimpleNamespace(
        type=discord.InteractionType.modal_submit,
        data={"custom_id": str(cid), "components": [{"type": 1, "components": [field]}]},
    )


@pytest.mark.parametrize("typed", ["1²", "ten", "-3", "1.5", ""])
async def test_the_amount_form_refuses_bad_input_before_acting(typed: str) -> None:
    cid = ComponentId(1, 4, "betform", "with")
    with pytest.raises(NotAllowed, match="is not a bet"):
        await typed_amount(submission(cid, typed), cid, title="Bet", what="a bet")
    assert await typed_amount(submission(cid, "1,000"), cid, title="Bet", what="a bet") == 1000


async def test_the_amount_forms_button_shows_the_form_under_its_own_id() -> None:
    cid = ComponentId(1, 4, "betform", "with")
    shown: list[discord.ui.Modal] = []

    async def send_modal(form: discord.ui.Modal) -> None:
        shown.append(form)

    click = SimpleNamespace(
        type=discord.InteractionType.component, response=SimpleNamespace(send_modal=send_modal)
    )
    assert await typed_amount(click, cid, title="Bet") is None  # type: ignore[arg-type]
    (form,) = shown
    assert isinstance(form, AmountModal) and form.custom_id == "tz:1:4:betform:with"
    assert submitted(click, "amount") is None  # type: ignore[arg-type]


# -- controls --------------------------------------------------------------------------------


async def test_controls_are_drawn_from_the_table() -> None:
    state = SimpleNamespace(ply=9, open=False)
    items = draw(
        5,
        state,
        [
            Control("go", "Go", live=lambda s: s.open),
            Control("join", "Join", lobby=True),
            Control("hidden", "Hidden", shown=lambda s: s.open),
            Menu("pick", "Pick", choices=lambda s: [("One", "1", None)]),
        ],
    )
    ids = [str(item.custom_id) for item in items]
    assert ids == ["tz:5:9:go", "tz:5:0:join", "tz:5:9:pick"]
    first, second = items[0], items[1]
    assert isinstance(first, TableButton) and isinstance(second, TableButton)
    assert first.disabled and not second.disabled


# -- options declared once -------------------------------------------------------------------


def test_hazard_options_give_the_rules_the_command_gave_before() -> None:
    from cogs.hazard import OPTIONS

    assert OPTIONS.rules(OPTIONS.values({})) == {
        "min_stake": 1,
        "max_stake": 1000,
        "odds_bets": True,
        "odds_max_multiple": 1,
        "throw_seconds": 60,
        "bet_seconds": 20,
        "against_bar": True,
        "against_commission": 0,
        "absent_rounds_to_lose_dice": 2,
        "max_players": 10,
        "idle_laps_to_close": 2,
    }
    given = OPTIONS.values({"seats": 4, "absent_rounds": 0, "min_stake": 5})
    rules = OPTIONS.rules(given)
    assert (rules["max_players"], rules["absent_rounds_to_lose_dice"], rules["min_stake"]) == (
        4,
        0,
        5,
    )


def test_hazard_open_offers_the_same_parameters_as_before() -> None:
    from cogs.hazard import HazardCog

    params = {p.name: p for p in HazardCog.open.parameters}
    # The odds and "against" terms move the bank's edge: the server's, not the opener's.
    assert list(params) == [
        "min_stake",
        "max_stake",
        "throw_seconds",
        "bet_seconds",
        "absent_rounds",
        "seats",
    ]
    assert (params["min_stake"].min_value, params["min_stake"].max_value) == (1, 1_000_000)
    assert (params["throw_seconds"].min_value, params["throw_seconds"].max_value) == (15, 3600)
    assert params["bet_seconds"].description.startswith("Betting window")
    assert all(not p.required for p in params.values())
    assert all(len(p.description) <= 100 for p in params.values())


def test_nihakyu_and_duel_options_give_the_rules_as_before() -> None:
    from cogs.nihakyu import OPTIONS as NIHAKYU
    from cogs.strength_duel import OPTIONS as DUEL
    from cogs.strength_duel import DuelCog

    assert NIHAKYU.rules(NIHAKYU.values({"ante": 10})) == {
        "ante": 10,
        "kage_endurance": False,
        "shadow_step": False,
        "shadow_step_uses": None,
        "dealers_blood": False,
        "shinobi_interference": False,
        "sleight_bonus": 0,
        "caught_on_natural_one": False,
        "starting_stamina": 200,
        "round_seconds": 60,
    }
    # `member` is whom the challenge is for, not a rule.
    assert DUEL.rules(DUEL.values({"stake": 5, "member": object()})) == {
        "stake": 5,
        "mode": "duel",
        "round_seconds": 120,
    }
    params = {p.name: p for p in DuelCog.challenge.parameters}
    # Every `/… open` works with no options: the stake has a default (issue 34).
    assert not params["stake"].required and not params["member"].required
    assert [c.value for c in params["mode"].choices] == ["duel", "forbidden", "three", "tag"]


def test_an_option_table_reads_types_ranges_fields_and_defaults() -> None:
    options = table("""
ante        0..100 required  Coins each
fast        bool   Quick rounds
mode        a|b    default=b  Which
seats>max_players  2..8  How many
            players at most
""")
    assert [o.name for o in options] == ["ante", "fast", "mode", "seats"]
    ante, fast, mode, seats = options
    assert (ante.low, ante.high, ante.default, ante.description) == (0, 100, REQUIRED, "Coins each")
    assert fast.kind is bool and mode.choices == ("a", "b") and mode.default == "b"
    assert (seats.target, seats.description) == ("max_players", "How many players at most")


# A game with more options than a slash command may have (Hachi-hachi's kind).
Big = create_model("Big", stake=(int, 10), **{f"flag{n}": (bool, False) for n in range(30)})  # type: ignore[call-overload]


def big_options(*, inline_flags: int) -> Options:
    flags = [Option(f"flag{n}", f"Flag {n}", bool, inline=n < inline_flags) for n in range(30)]
    return Options(
        Big,
        [Option("stake", "Stake", low=0, high=100), *flags],
        presets={"wild": {"flag3": True, "flag29": True}},
    )


def test_more_than_25_slash_options_are_refused_at_declaration() -> None:
    with pytest.raises(ValueError, match="25"):
        big_options(inline_flags=30)


def test_presets_and_the_more_form_reach_every_option_within_discords_limits() -> None:
    options = big_options(inline_flags=10)
    names = [p.name for p in options.slash_parameters()]
    assert len(names) <= 25 and names[-2:] == ["preset", "more"]
    assert all(len(str(text)) <= 100 for text in options.descriptions().values())

    values = options.values({"preset": "wild", "stake": 7})
    assert values["flag3"] and values["flag29"] and values["stake"] == 7
    prefill = options.form_text(values)
    assert "flag29 = on" in prefill and "flag3 =" not in prefill  # flag3 is inline
    assert len(prefill) <= 4000

    changed = options.parse_form("flag29 = off\nflag12 = yes\n\n", values)
    assert not changed["flag29"] and changed["flag12"]
    assert options.rules(changed)["flag12"] is True
    for bad in ("flag12 = maybe", "nosuch = 1", "stake = 101", "stake = ²", "flag12"):
        with pytest.raises(NotAllowed):
            options.parse_form(bad, values)


async def test_the_generated_command_has_one_declared_signature() -> None:
    seen: list[dict[str, Any]] = []

    async def handler(cog: Any, interaction: Any, values: dict[str, Any]) -> None:
        seen.append(values)

    command = big_options(inline_flags=10).command("open", "Open a table.", handler)
    signature = inspect.signature(command.callback)
    assert list(signature.parameters)[:3] == ["self", "interaction", "stake"]
    interaction = SimpleNamespace()
    await command.callback(object(), interaction, stake=3, preset=None, more=False)  # type: ignore[arg-type]
    assert seen[0]["stake"] == 3 and seen[0]["flag29"] is False


def test_the_lobby_description_comes_from_the_same_declaration() -> None:
    from cogs.hazard import OPTIONS

    rules = hazard.Rules(min_stake=5, odds_bets=False, max_players=4)
    (line,) = OPTIONS.summary(rules)
    assert line.startswith("Options: min_stake 5 · max_stake 1000 · odds_bets off")
    assert "seats 4" in line and "absent_rounds 2" in line
    assert Options(hazard.Rules, []).summary(rules) == []


# -- pictures on a message, and private hands kept up to date ------------------------------


def picture(key: str) -> Any:
    from cogs._ui.primitives import Picture

    return Picture(key=key, filename="table.png", draw=lambda: (b"\x89PNG" + key.encode(), key))


def test_a_picture_is_uploaded_with_a_new_message_and_again_only_when_it_changed() -> None:
    from cogs._ui.primitives import NO_PICTURE, Payload

    payload = Payload(discord.Embed(title="t"), picture=picture("a"))
    sent = payload.send_kwargs()
    assert [f.filename for f in sent["files"]] == ["table.png"] and "attachments" not in sent
    assert "attachments" not in payload.edit_kwargs("a"), "unchanged: not uploaded again"
    (changed,) = payload.edit_kwargs("b")["attachments"]
    assert changed.filename == "table.png" and changed.description == "a"
    assert payload.edit_kwargs(None)["attachments"], "after a restart: uploaded again"
    bare = Payload(discord.Embed(title="t"))
    assert bare.edit_kwargs("a")["attachments"] == [], "a picture gone is removed"
    assert bare.edit_kwargs(None)["attachments"] == [], "after a restart: one may be there"
    assert "attachments" not in bare.edit_kwargs(NO_PICTURE), "none shown: nothing to clear"
    for ended in (bare, payload):  # the replay page is an ended table's attachment
        assert "attachments" not in ended.edit_kwargs(None, ended=True)
    assert "files" not in bare.send_kwargs()
    assert "view" not in bare.send_kwargs(), "an interaction's answer takes no view=None"
    assert bare.edit_kwargs(None)["view"] is None, "an edit with no view removes the buttons"
    assert bare.picture_key == NO_PICTURE
    assert payload.fingerprint() != Payload(payload.embed, picture=picture("b")).fingerprint()


class FakeResponse:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, **kwargs: Any) -> None:
        self.calls.append(("send", kwargs))
        self.done = True

    async def edit_message(self, **kwargs: Any) -> None:
        self.calls.append(("edit", kwargs))
        self.done = True


class FakeFollowup:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.edits: list[tuple[int, dict[str, Any]]] = []

    async def send(self, **kwargs: Any) -> Any:
        self.sent.append(kwargs)
        return SimpleNamespace(id=555)

    async def edit_message(self, message_id: int, **kwargs: Any) -> None:
        self.edits.append((message_id, kwargs))


class FakeInteraction:
    def __init__(
        self, *, on_ephemeral: bool = False, fail: int | None = None, message_id: int = 1
    ) -> None:
        self.type = discord.InteractionType.component
        flags = discord.MessageFlags(ephemeral=on_ephemeral)
        self.message = SimpleNamespace(flags=flags, id=message_id)
        self.response = FakeResponse()
        self.followup = FakeFollowup()
        self.edits: list[dict[str, Any]] = []
        self.fail = fail

    async def edit_original_response(self, **kwargs: Any) -> None:
        if self.fail is not None:
            raise discord.HTTPException(SimpleNamespace(status=self.fail, reason="x"), "gone")
        self.edits.append(kwargs)


async def test_a_hand_answer_is_new_from_the_table_and_edited_in_place_from_itself() -> None:
    from cogs._ui.hands import HandKeeper
    from cogs._ui.primitives import Payload

    keeper = HandKeeper(clock=lambda: 0.0)
    first = FakeInteraction()
    await keeper.show(first, 1, 10, Payload(discord.Embed(title="h"), picture=picture("a")))
    ((how, kwargs),) = first.response.calls
    assert how == "send" and kwargs["ephemeral"] and kwargs["files"]
    again = FakeInteraction(on_ephemeral=True, message_id=8)
    await keeper.show(again, 1, 10, Payload(discord.Embed(title="h2"), picture=picture("a")))
    ((how, kwargs),) = again.response.calls
    assert how == "edit" and "attachments" in kwargs, "another message: its picture is unknown"
    third = FakeInteraction(on_ephemeral=True, message_id=8)
    await keeper.show(third, 1, 10, Payload(discord.Embed(title="h3"), picture=picture("a")))
    ((how, kwargs),) = third.response.calls
    assert how == "edit" and "attachments" not in kwargs, "same message, same picture"
    assert keeper.holders(1) == [10] and keeper.holders(2) == []


async def test_a_slow_hand_click_goes_to_a_private_follow_up_never_the_public_message() -> None:
    from cogs._ui.hands import HandKeeper
    from cogs._ui.primitives import Payload

    keeper = HandKeeper(clock=lambda: 0.0)
    # "My hand" on the table message, already deferred as an update of that message.
    slow = FakeInteraction(on_ephemeral=False)
    slow.response.done = True
    await keeper.show(slow, 3, 10, Payload(discord.Embed(title="hand")))
    (sent,) = slow.followup.sent
    assert sent["ephemeral"] and slow.edits == [], "the public message is never edited"
    await keeper.refresh(3, lambda player: Payload(discord.Embed(title="later")))
    assert slow.edits == [] and [m for m, _ in slow.followup.edits] == [555]
    # A deferred click on the hand answer itself edits that answer through its token.
    own = FakeInteraction(on_ephemeral=True, message_id=9)
    own.response.done = True
    await keeper.show(own, 3, 10, Payload(discord.Embed(title="own")))
    assert [e["embed"].title for e in own.edits] == ["own"]


async def test_kept_hands_are_refreshed_until_their_token_runs_out() -> None:
    from cogs._ui.hands import TOKEN_SECONDS, HandKeeper
    from cogs._ui.primitives import Payload

    clock = [0.0]
    keeper = HandKeeper(clock=lambda: clock[0])
    alice, bob, gone = FakeInteraction(), FakeInteraction(), FakeInteraction(fail=404)
    for player, interaction in ((1, alice), (2, bob), (3, gone)):
        await keeper.show(interaction, 7, player, Payload(discord.Embed(), picture=picture("a")))

    turn = [0]

    def draw(player: int) -> Any:
        return (
            None
            if player == 2
            else Payload(discord.Embed(title=f"p{player}.{turn[0]}"), picture=picture("b"))
        )

    await keeper.refresh(7, draw)
    assert [e["embed"].title for e in alice.edits] == ["p1.0"] and alice.edits[0]["attachments"]
    assert bob.edits == [], "None leaves the answer as it is"
    assert sorted(keeper.holders(7)) == [1, 2], "an answer that cannot be edited is forgotten"
    await keeper.refresh(7, draw, skip=[1])
    assert len(alice.edits) == 1
    await keeper.refresh(7, draw)
    assert len(alice.edits) == 1, "an edit that would change nothing is not made"
    turn[0] = 1
    await keeper.refresh(7, draw)
    assert "attachments" not in alice.edits[1], "the picture is already there"
    clock[0] = TOKEN_SECONDS + 1
    turn[0] = 2
    await keeper.refresh(7, draw)
    assert len(alice.edits) == 2 and keeper.holders(7) == [], "expired tokens are not used"
    keeper.forget(7)


def test_a_click_on_an_earlier_hand_is_refused_as_stale_with_its_own_words() -> None:
    from bot.errors import StaleAction
    from cogs._ui.hands import EARLIER, EarlierHand

    error = EarlierHand()
    assert isinstance(error, StaleAction) and str(error) == EARLIER and "My hand" in EARLIER


async def test_a_stale_click_on_a_private_hand_is_refused_in_the_hands_words() -> None:
    from bot.errors import StaleAction
    from cogs._ui.game import Game
    from cogs._ui.hands import EARLIER, EarlierHand

    class Hands(Game):
        game = "cards"
        title = "Cards"
        private_hands = True

    class Stale:
        async def act(self, *args: Any, **kwargs: Any) -> Any:
            raise StaleAction()

    hub = SimpleNamespace(service=Stale())
    ui = Hands(hub)  # type: ignore[arg-type]
    assert "hand" in ui.verb_table, "the My hand verb comes with private hands"
    user = SimpleNamespace(id=5, guild_permissions=None)
    on_hand = SimpleNamespace(message=FakeInteraction(on_ephemeral=True).message, user=user)
    with pytest.raises(EarlierHand, match="earlier turn"):
        await ui.apply(on_hand, 1, Other(), ply=3)  # type: ignore[arg-type]
    on_table = SimpleNamespace(message=FakeInteraction(on_ephemeral=False).message, user=user)
    with pytest.raises(StaleAction) as raised:
        await ui.apply(on_table, 1, Other(), ply=3)  # type: ignore[arg-type]
    assert str(raised.value) != EARLIER, "a table message's stale click keeps its own words"


async def test_a_hand_shown_at_an_ended_table_is_answered_but_not_kept() -> None:
    from cogs._ui.hands import HandKeeper
    from cogs._ui.primitives import Payload

    keeper = HandKeeper(clock=lambda: 0.0)
    click = FakeInteraction()
    await keeper.show(click, 4, 10, Payload(discord.Embed(title="final")), keep=False)
    assert [how for how, _ in click.response.calls] == ["send"], "the member still sees it"
    assert keeper.holders(4) == [] and keeper.tables() == set()
    await keeper.show(FakeInteraction(), 4, 11, Payload(discord.Embed(title="live")))
    await keeper.show(click, 4, 11, Payload(discord.Embed(title="over")), keep=False)
    assert keeper.tables() == set(), "a kept answer goes once its table has ended"


async def test_hand_answers_are_kept_by_table_and_an_idle_tables_expire() -> None:
    from cogs._ui.hands import SWEEP_SECONDS, TOKEN_SECONDS, HandKeeper
    from cogs._ui.primitives import Payload

    clock = [0.0]
    keeper = HandKeeper(clock=lambda: clock[0])
    for at, player in ((1, 10), (1, 11), (2, 10)):
        await keeper.show(FakeInteraction(), at, player, Payload(discord.Embed()))
    assert keeper.tables() == {1, 2}
    drawn: list[int] = []

    def draw(player: int) -> Any:
        drawn.append(player)
        return None

    await keeper.refresh(1, draw)
    assert sorted(drawn) == [10, 11], "a table's refresh draws its own players only"
    keeper.forget(1)
    assert keeper.tables() == {2} and keeper.holders(2) == [10]
    # Table 2 goes idle: its answer's token runs out, and the next answer shown anywhere
    # (once a sweep is due) forgets it, though table 2 is never refreshed again.
    clock[0] = TOKEN_SECONDS + SWEEP_SECONDS
    await keeper.show(FakeInteraction(), 3, 12, Payload(discord.Embed()))
    assert keeper.tables() == {3}


async def test_a_failed_edit_forgets_the_old_answer_not_a_newer_one() -> None:
    """A refresh's edit that fails after the player asked for their hand again (while the
    edit was awaited) must not forget the newer answer."""
    import asyncio

    from cogs._ui.hands import HandKeeper
    from cogs._ui.primitives import Payload

    keeper = HandKeeper(clock=lambda: 0.0)
    release = asyncio.Event()

    class Dismissed(FakeInteraction):
        async def edit_original_response(self, **kwargs: Any) -> None:
            await release.wait()
            raise discord.HTTPException(SimpleNamespace(status=404, reason="x"), "gone")

    await keeper.show(Dismissed(), 5, 10, Payload(discord.Embed(title="old")))
    refreshing = asyncio.create_task(keeper.refresh(5, lambda p: Payload(discord.Embed())))
    await asyncio.sleep(0)
    newer = FakeInteraction()
    await keeper.show(newer, 5, 10, Payload(discord.Embed(title="new")))
    release.set()
    await refreshing
    assert keeper.holders(5) == [10], "the answer shown meanwhile is still kept"
    await keeper.refresh(5, lambda p: Payload(discord.Embed(title="next")))
    assert [edit["embed"].title for edit in newer.edits] == ["next"]


def test_a_moderator_is_who_discord_says_has_manage_server() -> None:
    """From the interaction's permissions, not the member's cached roles."""
    from cogs._ui.primitives import is_moderator

    def interaction(**permissions: bool) -> Any:
        # No ``guild_permissions``: the guild and its roles may not be cached.
        user = SimpleNamespace(id=5)
        return SimpleNamespace(user=user, permissions=discord.Permissions(**permissions))

    assert is_moderator(interaction(manage_guild=True))
    assert is_moderator(interaction(administrator=True))
    assert not is_moderator(interaction(manage_messages=True))
    assert not is_moderator(interaction())  # a DM: no permissions


def test_a_drawn_table_view_is_freed_without_the_garbage_collector() -> None:
    # A view is drawn for every answer: with no reference cycle between it and its
    # components, it goes as soon as it is sent, not at the next collection.
    collecting = gc.isenabled()
    gc.disable()
    try:
        view = view_of(
            button(1, 2, "throw", "Throw"),
            select(1, 2, "main", "Main", [discord.SelectOption(label="7", value="7")]),
        )
        assert len(view.to_components()) == 2
        gone = weakref.ref(view)
        del view
        assert gone() is None
    finally:
        if collecting:
            gc.enable()
