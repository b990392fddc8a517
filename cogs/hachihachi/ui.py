"""Nuki Hachi-hachi's face on its table message: what the game declares to the one UI base
(cogs/_ui/game.py); the cog that registers it is cogs/hachihachi/__init__.py."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

import discord
from pydantic import BaseModel

from bot.catalog import HACHIHACHI
from bot.errors import NotAllowed
from bot.games import hachihachi as hh
from bot.games.common import is_computer
from bot.games.dice import ScriptedDice
from bot.games.hachihachi import models as hm
from bot.games.hachihachi.cards import CARDS
from bot.games.hachihachi.yaku import card_points
from bot.i18n import _, ngettext
from bot.service import Outcome, TableSnapshot
from cogs._ui import render
from cogs._ui.custom_ids import ComponentId
from cogs._ui.face import UIHost
from cogs._ui.game import Game
from cogs._ui.lobby import rules_button
from cogs._ui.primitives import Payload, button, view_of
from cogs._ui.verbs import Act, VerbTable, by_arg, fixed
from cogs.hachihachi import art, words
from cogs.hachihachi.art import Row, picture
from cogs.hachihachi.buttons import (
    PRIMARY,
    SECONDARY,
    Spec,
    card_arg,
    card_from,
    claim_from,
    decision,
    play_from,
)
from cogs.hachihachi.words import distinct

Snapshot: TypeAlias = TableSnapshot[hm.Rules, hm.State]
FIELD_FILE = "field.png"
HAND_FILE = "hand.png"
"""Fixed file names: a name never depends on the cards (it is public, and a hand's digest
could be inverted)."""


def table_rows(
    state: hm.State,
    name: Callable[[int], str],
    *,
    hand: Sequence[str] = (),
    picking: str | None = None,
) -> list[Row]:
    """The picture of the table: the field, the face-up drawn card waiting for its capture,
    ``hand`` (its owner's picture only) and each active player's score pile (once it holds
    a card), grouped by kind with its dekiyaku progress. The moment's subject is framed:
    the drawn card (or ``picking``, the hand card being played) and the two field cards
    it may take."""
    marked: frozenset[str] = frozenset()
    subject = state.drawn if state.phase == "capture_drawn" else picking
    if subject is not None:
        month = CARDS[subject].month
        marked = frozenset(c for c in state.field if CARDS[c].month == month) | {subject}
    rows = [Row(_("Field"), tuple(state.field), marked=marked)]
    if state.drawn is not None and state.turn is not None:
        label = _(
            "Drawn by {player}, face up: it takes one of the framed field cards",
            player=name(state.turn),
        )
        rows.append(Row(label, (state.drawn,), marked=frozenset({state.drawn})))
    if hand:
        label = _("Your hand")
        if picking is not None:
            label = _(
                "Your hand: {card} takes one of the framed field cards",
                card=art.card_name(picking),
            )
        rows.append(Row(label, tuple(hand), marked=marked & frozenset(hand)))
    # A pile is shown from its first card: until a capture the picture stays the field
    # alone (and is not uploaded again when nothing on the table changed).
    for player in state.active:
        pile = state.piles.get(player, [])
        if not pile:
            continue
        size = ngettext(
            "{count} card, {points} pts",
            "{count} cards, {points} pts",
            len(pile),
            points=card_points(pile),
        )
        label = _("Pile of {player}: {size}", player=name(player), size=size)
        rows.append(Row(label, tuple(pile), layout="pile", note=tuple(art.progress(pile))))
    return rows


def blind(state: hm.State, player: int) -> bool:
    """The dealer deciding mizuten must not see their hand yet (rules §7.1)."""
    return state.phase == "mizuten" and player == state.dealer and not state.finished


class HachiHachiUI(Game, record=HACHIHACHI):
    recent_events = 3
    """The table message stays short: the picture shows the table, the channel's result
    line each round's payments, /history the whole log."""
    sentences = words.SENTENCES
    private_hands = True
    hand_label = words.MY_HAND

    def __init__(self, host: UIHost) -> None:
        super().__init__(host)
        self.names: dict[int, str] = {}
        """Members' display names, learnt from their clicks (public: shown on Discord)."""
        self._claim_names: dict[tuple[int, int], dict[int, str]] = {}
        """(table, round) → the names the pictures write while that round's teyaku claims
        are open: fixed at the first picture of the window, so a name learnt from a
        private claim step's click never redraws the table (which would tell that someone
        took a step)."""

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

    def action_text(self, action: Mapping[str, Any], currency: str) -> str | None:
        return words.action_text(action, currency)

    def describe_rules(self, snapshot: Snapshot) -> list[str]:
        return words.rules_summary(snapshot)

    def hold_line(self, snapshot: Snapshot) -> str | None:
        # Not a stake: a deposit that comes back; the rules summary's line says so.
        return None

    def status_lines(self, snapshot: Snapshot) -> list[str]:
        return words.status_lines(snapshot)

    def turn_line(self, snapshot: Snapshot) -> str | None:
        return words.turn_line(snapshot)

    def seat_lines(self, snapshot: Snapshot) -> list[str]:
        return words.seat_lines(snapshot)

    def extra_fields(self, snapshot: Snapshot) -> list[tuple[str, str]]:
        """The last round in one line, once its own sentence has left the log lines."""
        result = snapshot.game.last_round
        shown = [e for e in snapshot.recent_events if self.event_text(e, snapshot)]
        if result is not None and any(
            isinstance(e, hm.RoundScored) and e.result.round == result.round
            for e in shown[-self.recent_events :]
        ):
            return []
        last = words.last_round_field(snapshot)
        return [last] if last else []

    def controls(self, snapshot: Snapshot) -> discord.ui.View:
        return view_of(self.hand_button(snapshot), rules_button(snapshot.id, self.game))

    def notice_view(self, snapshot: Snapshot, member: int) -> discord.ui.View:
        """A turn notice carries the hand: the member's whole turn is played in it."""
        return view_of(self.hand_button(snapshot))

    def notices_now(self, snapshot: Snapshot) -> bool:
        """Nobody is told during a teyaku claim step: the table waits there for whoever
        holds teyaku, which it hides (a notice would single them out)."""
        return snapshot.state is None or snapshot.state.phase != "claim"

    def render_game(self, snapshot: Snapshot, events: Sequence[BaseModel]) -> Payload:
        payload = super().render_game(snapshot, events)
        state = snapshot.game
        if not state.finished:
            name = self.namer(state, snapshot.id)
            rows = table_rows(state, name)
            header = words.picture_header(state, name)
            if header is not None:
                rows.insert(0, Row(header, (), layout="header"))
            payload.picture = picture(rows, FIELD_FILE)
        return payload

    def namer(self, state: hm.State, table: int) -> Callable[[int], str]:
        """Players as the picture writes them (a picture shows no mention): the member's
        display name where the bot knows it, else their seat's number. Characters the
        font cannot draw (an emoji, the computer's 🤖) are left out rather than drawn as
        boxes; a name with nothing drawable left is the seat's. While teyaku claims are
        open, the names known when the window opened (:attr:`_claim_names`)."""

        def seat(player: int) -> str:
            if player in state.seats:
                return _("seat {number}", number=str(state.seats.index(player) + 1))
            return "?"

        if state.claims_open and not state.finished:
            key = (table, state.round)
            fixed = self._claim_names.get(key)
            if fixed is None:
                for old in [k for k in self._claim_names if k[0] == table]:
                    del self._claim_names[old]
                fixed = {p: n for p in state.seats if (n := self.known_name(p)) is not None}
                self._claim_names[key] = fixed
            return lambda player: fixed.get(player) or seat(player)
        for old in [k for k in self._claim_names if k[0] == table]:
            del self._claim_names[old]
        return lambda player: self.known_name(player) or seat(player)

    def known_name(self, player: int) -> str | None:
        """What a picture can write of a player's name, if the bot knows it."""
        if is_computer(player):
            known: str | None = render.mention(player)
        elif player in self.names:
            known = self.names[player]
        else:
            user = self.bot.get_user(player)
            known = None if user is None else user.display_name
        return (known and art.drawn_name(known)) or None

    def forget(self, table_id: int) -> None:
        super().forget(table_id)
        for old in [k for k in self._claim_names if k[0] == table_id]:
            del self._claim_names[old]

    def public_line(self, outcome: Outcome) -> str | None:
        return words.result_line(list(outcome.events), outcome.snapshot)

    # -- the private hand ----------------------------------------------------------------------

    def hand(self, snapshot: Snapshot, player: int, *, picking: str | None = None) -> Payload:
        state = snapshot.game
        hidden = blind(state, player)
        legal = (
            [] if state.finished else words.offered(state, player, hh.legal_actions(state, player))
        )
        hand = [] if hidden else list(state.hands.get(player, []))
        note = words.call_text(snapshot, player) or words.ask_text(state, player, legal)
        if picking is not None:
            note = _(
                "**{card}** matches two field cards: which does it take?",
                card=words.card_name(picking),
            )
        embed = words.hand_embed(snapshot, player, blind=hidden, note=note)
        rows = table_rows(state, self.namer(state, snapshot.id), hand=hand, picking=picking)
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
            takes = [
                a.capture
                for a in legal
                if isinstance(a, hm.Play) and a.card == picking and a.capture
            ]
            for action in legal:
                if (
                    isinstance(action, hm.Play)
                    and action.card == picking
                    and action.capture in distinct(takes)
                ):
                    assert action.capture is not None
                    label = _("Take {card}", card=words.card_button(action.capture))
                    cards.append(("play", label, card_arg(picking, action.capture), PRIMARY))
            others.append(("back", _("Back"), None, SECONDARY))
        else:
            plays: dict[str, list[hm.Play]] = {}
            for action in legal:
                if isinstance(action, hm.Play):
                    plays.setdefault(action.card, []).append(action)
            for _month, month_cards in art.month_groups(list(plays)):
                for card in month_cards:
                    # Two chaff of one month are one choice: take either, no question.
                    captures = [o.capture for o in plays[card] if o.capture]
                    options = [
                        o for o in plays[card] if not o.capture or o.capture in distinct(captures)
                    ]
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
            drawn = [a.capture for a in legal if isinstance(a, hm.CaptureDrawn)]
            for action in legal:
                if isinstance(action, hm.CaptureDrawn) and action.capture not in distinct(drawn):
                    continue
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

    async def seated(self, interaction: discord.Interaction[Any], table: int) -> Snapshot:
        """The table for a seated member, whose name the pictures learn here (without the
        members intent the bot knows a member's name only from their own clicks)."""
        snapshot: Snapshot = await super().seated(interaction, table)
        self.names[interaction.user.id] = interaction.user.display_name
        return snapshot

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
            raise NotAllowed(
                "{card} does not match two field cards: there is no capture to choose.",
                card=words.card_name(card),
            )
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
