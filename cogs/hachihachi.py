"""Nuki Hachi-hachi in Discord: /hanafuda open and yaku; the table message and each
player's private hand.

The table message (edited in place) shows the field as a picture and a list, never a hand.
Each seated player presses "My hand" for an ephemeral answer: their hand and the field as
one picture, the list, and a button for every legal play (the engine's
``legal_actions``); a card that matches two field cards opens a second step that picks
the capture. Decisions (mizuten, play or drop, claims, sage / shoubu / cancel) appear
only in the hand of the player who must make them. The hand answer is edited after every
turn (cogs/_ui/hands.py); an answer drawn at an earlier ply is refused politely.
Rules: bot/games/hachihachi/; words: cogs/hachihachi_text.py; pictures:
cogs/hachihachi_art.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.app import TanzakuBot
from bot.errors import InsufficientFunds, NotAllowed
from bot.games import hachihachi as hh
from bot.games.dice import ScriptedDice
from bot.games.hachihachi import models as hm
from bot.games.hachihachi.cards import CARDS, DECK
from bot.service import Outcome, TableSnapshot, parse_rules
from cogs import hachihachi_art as art
from cogs import hachihachi_text as words
from cogs._ui.custom_ids import ComponentId
from cogs._ui.game import Game, GameCog, install_game
from cogs._ui.options import Options, Values, table
from cogs._ui.primitives import Payload, Picture, button, view_of
from cogs._ui.verbs import NOTHING, Act, VerbTable, by_arg, fixed, small_number

Snapshot = TableSnapshot[hm.Rules, hm.State]
GAME = "hachihachi"
FIELD_FILE = "field.png"
HAND_FILE = "hand.png"
"""Fixed file names: a name never depends on the cards (it is public, and a hand's digest
could be inverted)."""

PRIMARY = discord.ButtonStyle.primary
SUCCESS = discord.ButtonStyle.success
DANGER = discord.ButtonStyle.danger
SECONDARY = discord.ButtonStyle.secondary


# -- custom-id arguments: cards by their deck index, never by name ---------------------------


def card_arg(card: str, capture: str | None = None) -> str:
    arg = str(CARDS[card].index)
    return arg if capture is None else f"{arg}-{CARDS[capture].index}"


def card_from(text: str | None) -> str:
    number = small_number(text, digits=2)
    if number is None or number >= len(DECK):
        raise NotAllowed(NOTHING)
    return DECK[number]


def play_from(arg: str | None, values: Sequence[str]) -> hm.Play:
    card, _, capture = (arg or "").partition("-")
    return hm.Play(card=card_from(card), capture=card_from(capture) if capture else None)


def claim_arg(action: hm.ClaimTeyaku) -> str:
    return f"{'y' if action.claim else 'n'}{action.group or 'X'}{action.month or 0}"


def claim_from(arg: str | None, values: Sequence[str]) -> hm.ClaimTeyaku:
    text = arg or ""
    month = small_number(text[2:], digits=2)
    if len(text) < 3 or text[0] not in "yn" or text[1] not in "ABX" or month is None:
        raise NotAllowed(NOTHING)
    group = None if text[1] == "X" else text[1]
    return hm.ClaimTeyaku.model_validate(
        {"claim": text[0] == "y", "group": group, "month": month or None}
    )


# -- pictures --------------------------------------------------------------------------------


def picture(rows: list[tuple[str, list[str]]], filename: str) -> Picture:
    image = art.render_cards(rows, filename=filename)
    key = "|".join(f"{label}:{','.join(sorted(cards))}" for label, cards in rows)
    return Picture(key=key, png=image.png, filename=image.filename, description=image.alt)


def blind(state: hm.State, player: int) -> bool:
    """The dealer deciding mizuten must not see their hand yet (rules §7.1)."""
    return state.phase == "mizuten" and player == state.dealer and not state.finished


Spec = tuple[str, str, str | None, discord.ButtonStyle]
"""A hand button: verb, label, argument, style."""


def decision(action: BaseModel, hand: Sequence[str], pending: Sequence[str] = ()) -> Spec | None:
    """The button of a legal decision that is not a hand card (``pending``: the teyaku
    groups the player has still to claim or decline)."""
    if isinstance(action, hm.CaptureDrawn):
        label = f"Take {words.card_button(action.capture)}"
        return ("drawn", label, card_arg(action.capture), PRIMARY)
    if isinstance(action, hm.Mizuten):
        if action.declare:
            return ("mizuten", "Play blind (mizuten)", "yes", DANGER)
        return ("mizuten", "Look at my hand", "no", PRIMARY)
    if isinstance(action, hm.Participate):
        if action.play:
            return ("part", "Play this round", "yes", SUCCESS)
        return ("part", "Drop out", "no", SECONDARY)
    if isinstance(action, hm.ClaimTeyaku):
        style = SUCCESS if action.claim else SECONDARY
        return ("claim", words.claim_label(action, hand, pending), claim_arg(action), style)
    if isinstance(action, hm.Sage):
        return ("sage", "Sage — play on", None, PRIMARY)
    if isinstance(action, hm.Shoubu):
        return ("shoubu", "Shoubu — end the round", None, SUCCESS)
    if isinstance(action, hm.Cancel):
        return ("stop", "Cancel the round (half your dekiyaku)", None, DANGER)
    return None


class HachiHachiUI(Game):
    game = GAME
    title = "Nuki Hachi-hachi"
    recent_events = 10
    sentences = words.SENTENCES
    private_hands = True
    hand_label = words.MY_HAND

    def verbs(self) -> VerbTable:
        return {
            "card": self.pick_card,
            "back": self.back,
            "play": Act(play_from),
            "drawn": Act(lambda arg, values: hm.CaptureDrawn(capture=card_from(arg))),
            "mizuten": by_arg(
                {"yes": lambda: hm.Mizuten(declare=True), "no": lambda: hm.Mizuten(declare=False)}
            ),
            "part": by_arg(
                {"yes": lambda: hm.Participate(play=True), "no": lambda: hm.Participate(play=False)}
            ),
            "claim": Act(claim_from),
            "sage": fixed(hm.Sage),
            "shoubu": fixed(hm.Shoubu),
            # Not "cancel": that verb ends a lobby, for every game.
            "stop": fixed(hm.Cancel),
        }

    # -- the table message ---------------------------------------------------------------------

    def describe_rules(self, snapshot: Snapshot) -> list[str]:
        return words.rules_summary(snapshot)

    def status_lines(self, snapshot: Snapshot) -> list[str]:
        return words.status_lines(snapshot)

    def deadline_line(self, snapshot: Snapshot) -> str | None:
        return words.deadline_line(snapshot)

    def seat_lines(self, snapshot: Snapshot) -> list[str]:
        return words.seat_lines(snapshot)

    def extra_fields(self, snapshot: Snapshot) -> list[tuple[str, str]]:
        last = words.last_round_field(snapshot)
        return [last] if last else []

    def controls(self, snapshot: Snapshot) -> discord.ui.View:
        return view_of(self.hand_button(snapshot), self.hub.rules_button(snapshot.id, GAME))

    def render_game(self, snapshot: Snapshot, events: Sequence[BaseModel]) -> Payload:
        payload = super().render_game(snapshot, events)
        state = snapshot.game
        if not state.finished:
            payload.picture = picture([("Field", list(state.field))], FIELD_FILE)
        return payload

    def public_line(self, outcome: Outcome) -> str | None:
        return words.result_line(list(outcome.events), outcome.snapshot)

    # -- the private hand ----------------------------------------------------------------------

    def hand(self, snapshot: Snapshot, player: int, *, picking: str | None = None) -> Payload:
        state = snapshot.game
        hidden = blind(state, player)
        legal = [] if state.finished else hh.legal_actions(state, player)
        hand = [] if hidden else list(state.hands.get(player, []))
        note = words.ask_text(state, player, legal)
        if picking is not None:
            note = f"**{words.card_name(picking)}** matches two field cards: which does it take?"
        embed = words.hand_embed(snapshot, player, blind=hidden, note=note)
        rows = [("Field", list(state.field))]
        if hand:
            rows.append(("Your hand", hand))
        view = self.hand_view(snapshot, player, legal, picking=picking)
        return Payload(embed, view, content="", picture=picture(rows, HAND_FILE))

    def hand_view(
        self, snapshot: Snapshot, player: int, legal: Sequence[BaseModel], *, picking: str | None
    ) -> discord.ui.View | None:
        """A button per legal play (cards on rows 0–1), then the decisions (rows 2–4)."""
        state = snapshot.game
        cards: list[Spec] = []
        others: list[Spec] = []
        if picking is not None:
            for action in legal:
                if isinstance(action, hm.Play) and action.card == picking and action.capture:
                    label = f"Take {words.card_button(action.capture)}"
                    cards.append(("play", label, card_arg(picking, action.capture), PRIMARY))
            others.append(("back", "Back", None, SECONDARY))
        else:
            plays: dict[str, list[hm.Play]] = {}
            for action in legal:
                if isinstance(action, hm.Play):
                    plays.setdefault(action.card, []).append(action)
            for _month, month_cards in art.month_groups(list(plays)):
                for card in month_cards:
                    options = plays[card]
                    label = words.card_button(card)
                    matches = any(CARDS[f].month == CARDS[card].month for f in state.field)
                    style = PRIMARY if matches else SECONDARY
                    if len(options) > 1:
                        cards.append(("card", f"{label} …", card_arg(card), style))
                    else:
                        cards.append(("play", label, card_arg(card, options[0].capture), style))
            # A claim names the teyaku of the hand as dealt (claim_hands, while open).
            hand = state.claim_hands.get(player, state.hands.get(player, []))
            pending = state.to_claim.get(player, [])
            for action in legal:
                spec = decision(action, hand, pending)
                if spec is not None:
                    others.append(spec)
        t, ply = snapshot.id, state.ply
        items = [
            button(t, ply, verb, label, arg=arg, style=style, row=first + i // 5)
            for specs, first in ((cards, 0), (others, 2))
            for i, (verb, label, arg, style) in enumerate(specs)
        ]
        return view_of(*items) if items else None

    async def pick_card(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> None:
        """A card that matches two field cards: show the second step (nothing saved)."""
        snapshot: Snapshot = await self.seated(interaction, cid.table)
        self.current_hand(cid, snapshot)
        state, player = snapshot.game, interaction.user.id
        card = card_from(cid.arg)
        choices = [
            a
            for a in hh.legal_actions(state, player)
            if isinstance(a, hm.Play) and a.card == card and a.capture
        ]
        if len(choices) < 2:
            # Let the engine say why (not your turn, not in your hand...): act never mutates.
            hh.act(state, player, hm.Play(card=card), ScriptedDice())
            raise NotAllowed(words.NOT_TWO.format(card=words.card_name(card)))
        await self.give_hand(interaction, snapshot, self.hand(snapshot, player, picking=card))

    async def back(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> None:
        snapshot: Snapshot = await self.seated(interaction, cid.table)
        self.current_hand(cid, snapshot)
        await self.give_hand(interaction, snapshot, self.hand(snapshot, interaction.user.id))

    def replay_cards(self, state: Any, name: Callable[[int], str]) -> dict[str, list[str]] | None:
        return words.replay_cards(state, name)

    def replay_tile(self, card: str, height: int) -> bytes:
        return art.replay_tile(card, height)


OPTIONS = Options(
    hm.Rules,
    table("""
stake_per_kan  0..1_000_000 required  Coins per kan of score (1 kan = 10 points; 0: no coins)
rounds         1..48    Rounds in the match (default 12)
seats>seated_players  2..4  Players at the table (default 2; two play each round)
points_per_kan  10|12   default=10  Points in a kan (default 10)
mizuten        bool     The dealer may play blind (default on)
teyaku_claims  auto|manual  default=auto  Claim teyaku for players, or give each a private step
field_mode>field_multiplier_mode  carry_over|stack  default=carry_over  Large Fields
               carried over (x2), or stacked (x1-x8)
rain_man_phoenix>rain_man_phoenix_make_large_field  bool  The Rain Man and the Phoenix make
               Large Fields too (default off)
extend>extend_game_for_carryover  bool  Extra rounds while a Large Field is carried over
               (default off)
diving>diving_eligibility  triplet_or_haneken|triplet_only  default=triplet_or_haneken
               Which claimed teyaku earn Diving
escape_excludes_one_bright  bool  One Bright earns no Escape (default off)
boar_deer_butterflies  bool  Boar-Deer-Butterflies dekiyaku (never made here; default off)
dropout_penalties  bool  3-4 players: dropping out pays into a pot (default off)
forced_out_compensation  bool  3-4 players: forced-out players are compensated (default off)
must_two_play  bool     3-4 players: the last two not dropped must play (default off)
shuffle_draw_after_dropouts  bool  3-4 players: shuffle the dropped hands in (default on)
first_dealer   draw|first_seat  default=draw  Draw for the first dealer, or seat 1 deals
turn_seconds   15..3600  Seconds for each decision (default 90)
afk_turns>afk_rounds_to_forfeit  1..20  Decisions in a row the clock makes that forfeit
               the match (default 3)
"""),
)  # fmt: skip


async def open_table(cog: HachiHachiCog, interaction: Any, values: Values) -> None:
    rules = OPTIONS.rules(values)
    rules["points_per_kan"] = int(rules["points_per_kan"])
    parsed = parse_rules(cog.bot.registry.get(GAME), rules)
    try:
        await cog.ui.hub.open_table(interaction, GAME, parsed)
    except InsufficientFunds as short:
        if not isinstance(parsed, hh.Rules):
            raise
        # The escrow is a whole match's worst case: say how long a match the wallet covers.
        affordable = hh.affordable_rounds(parsed, short.balance)
        raise NotAllowed(words.escrow_refusal(short, parsed, affordable)) from short


class HachiHachiCog(
    GameCog, commands.GroupCog, group_name="hanafuda", group_description="Nuki Hachi-hachi"
):
    ui: HachiHachiUI
    options = OPTIONS
    open = OPTIONS.command("open", "Open a Nuki Hachi-hachi table in this channel.", open_table)

    @app_commands.command(name="yaku", description="The teyaku and dekiyaku, with their values.")
    async def yaku(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=words.yaku_embed(), ephemeral=True)


async def setup(bot: TanzakuBot) -> None:
    await install_game(bot, hh, HachiHachiUI, HachiHachiCog)
