"""Nuki Hachi-hachi's words: cards as text, the table's lines, the private hand, the yaku
tables and every event's sentence. Data for cogs/hachihachi/ui.py (the frame around them is
cogs/_ui/frame.py, the pictures cogs/hachihachi/art.py).

Secrecy: nothing here that is public (status, seats, sentences) reads ``state.hands``
except to count cards, or a claimed teyaku's revealed cards (public by rules §9.3). Only
:func:`hand_embed` shows a hand, and only to its owner.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol, TypeAlias

import discord

from bot.errors import InsufficientFunds
from bot.games.common import Honour
from bot.games.hachihachi import models as hh
from bot.games.hachihachi.calls import call_stakes
from bot.games.hachihachi.cards import CARDS, MONTHS
from bot.games.hachihachi.yaku import (
    DEKIYAKU_KAN,
    GROUP_A_KAN,
    GROUP_B_KAN,
    card_points,
    dekiyaku,
    group_a,
    group_b,
)
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.frame import Sentences
from cogs.hachihachi import art

Snapshot: TypeAlias = TableSnapshot[hh.Rules, hh.State]

MY_HAND = "My hand"
NOT_TWO = "{card} does not match two field cards: there is no capture to choose."
DEALER = "🎴"
TURN = "▶️"

# -- cards ---------------------------------------------------------------------------------


def card_name(card: str) -> str:
    """``Crane with Sun (Pine · Bright)``."""
    return art.card_label(card)


def card_button(card: str) -> str:
    """A card on a button: its month's kanji, then its name (``松 Crane with Sun``)."""
    info = CARDS[card]
    return f"{MONTHS[info.month].kanji} {info.name}"


def cards_by_month(cards: Sequence[str]) -> str:
    """The cards as a text list grouped by month: ``松 Pine: Crane with Sun, Pine chaff``."""
    if not cards:
        return "(none)"
    lines = []
    for month, ids in art.month_groups(cards):
        info = MONTHS[month]
        names = ", ".join(CARDS[card].name for card in ids)
        lines.append(f"{info.kanji} **{info.name}** ({month}): {names}")
    return "\n".join(lines)


def interchangeable(a: str, b: str) -> bool:
    """Two chaff of one month: identical in play (rules §2.1), so a capture of either is
    the same move and the player is not asked to pick."""
    first, second = CARDS[a], CARDS[b]
    return first.category == second.category == "chaff" and first.month == second.month


def distinct(choices: Sequence[str]) -> list[str]:
    """The capture choices that differ: of interchangeable ones the first (deck order)."""
    kept: list[str] = []
    for card in sorted(choices, key=lambda c: CARDS[c].index):
        if not any(interchangeable(card, other) for other in kept):
            kept.append(card)
    return kept


def cards_inline(cards: Sequence[str]) -> str:
    return ", ".join(card_name(card) for card in cards) or "nothing"


def kan(value: int) -> str:
    return f"{value} kan"


def points(value: int) -> str:
    return f"{value:+,} pts" if value else "0 pts"


# -- the yaku tables -------------------------------------------------------------------------

TEYAKU_A_NOTES = {
    "Triplet": "3 of one month (two triplets pay one)",
    "Three Pairs": "three pairs",
    "Four of a Kind": "all 4 of one month",
    "Triplet and Two Pairs": "a triplet and two pairs",
    "One-Two-Four": "a four, a pair and a single",
    "Four-Three": "a four and a triplet",
}
TEYAKU_B_NOTES = {
    "Red": "2+ ribbons (poetry or blue), the rest chaff",
    "One Ribbon": "1 ribbon, 6 chaff",
    "One Animal": "1 animal, 6 chaff",
    "One Bright": "1 bright, 6 chaff",
    "Empty Hand": "7 chaff",
}
DEKIYAKU_NOTES = {
    "Five Brights": "Crane, Curtain, Full Moon, Rain Man, Phoenix (not with Four Brights)",
    "Four Brights": "Crane, Curtain, Full Moon, Phoenix",
    "Seven Ribbons": "all 7 ribbons (with Poetry and Blue: 24 kan)",
    "Poetry Ribbons": "Pine, Plum and Cherry ribbons",
    "Blue Ribbons": "Peony, Chrysanthemum and Maple ribbons",
    "Boar-Deer-Butterflies": "house option; the Boar is not in this deck",
}


def yaku_embed() -> discord.Embed:
    """``/hanafuda yaku``: the teyaku and dekiyaku tables with their values."""
    embed = discord.Embed(
        title="Nuki Hachi-hachi — yaku",
        description=(
            "Values in **kan** (1 kan = 10 points, or 12 at a table that says so), × the "
            "field. Teyaku are in your 7 starting cards: at most one of each group, the "
            "best; the groups add. Dekiyaku are captured in your pile during the round."
        ),
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    table_a = "\n".join(
        f"**{name}** — {value} kan · {TEYAKU_A_NOTES[name]}" for name, value in GROUP_A_KAN.items()
    )
    table_b = "\n".join(
        f"**{name}** — {value} kan · {TEYAKU_B_NOTES[name]}" for name, value in GROUP_B_KAN.items()
    )
    table_d = "\n".join(
        f"**{name}** — {value} kan · {DEKIYAKU_NOTES[name]}" for name, value in DEKIYAKU_KAN.items()
    )
    embed.add_field(name="Teyaku, Group A (same month)", value=table_a, inline=False)
    embed.add_field(
        name="Teyaku, Group B (chaff hands; every Willow card counts as chaff)",
        value=table_b,
        inline=False,
    )
    embed.add_field(name="Dekiyaku", value=table_d, inline=False)
    embed.add_field(
        name="Also",
        value=(
            "**Sixteen Chaff**: 16+ chaff (Willow included) and no dekiyaku — 12 kan + 2 per "
            "card over 16.\n**Diving**, **Escape**, **Mizuten**: 1 kan each (see /rules "
            "hachihachi, Scoring)."
        ),
        inline=False,
    )
    return embed


# -- the table message -----------------------------------------------------------------------

PHASE_WAIT = {
    "mizuten": "decides on **mizuten** (playing blind) before seeing their hand",
    "participate": "says whether they **play or drop**",
    "claim": "draws once the teyaku claim steps are taken",
    "play": "plays a card",
    "capture_drawn": "picks what the drawn card takes",
    "call": "calls **sage** (play on) or **shoubu** (end the round)",
}


def field_text(state: hh.State) -> str:
    field = f"**Large Field ×{state.multiplier}**" if state.multiplier > 1 else "Small Field ×1"
    owed = state.pending_large
    if owed and state.rules.field_multiplier_mode == "carry_over":
        field += f" · {owed} more Large round{'s' if owed != 1 else ''} carried over"
    return field


def waiting_line(state: hh.State) -> str | None:
    if state.finished or state.turn is None:
        return None
    if state.phase == "claim":
        # Never who is still to take their step (``turn`` names one): that would tell who
        # is still thinking it over.
        return (
            f"{TURN} {render.mention(state.acting_dealer)}'s first draw waits for the "
            f"**teyaku claim steps** — each player's in their **{MY_HAND}**."
        )
    what = PHASE_WAIT.get(state.phase, "decides")
    if state.phase == "capture_drawn" and state.drawn is not None:
        what = f"picks what the drawn **{card_name(state.drawn)}** takes"
    return f"{TURN} Waiting for {render.mention(state.turn)}, who {what} — in their **{MY_HAND}**."


def status_lines(snapshot: Snapshot) -> list[str]:
    state = snapshot.game
    rules = state.rules
    total = rules.rounds
    if state.finished:
        played = state.rounds_played
        head = f"**Match over** after {played} round{'s' if played != 1 else ''}."
        if state.winners:
            head += " Winner" + ("s: " if len(state.winners) > 1 else ": ")
            head += ", ".join(render.mention(p) for p in state.winners)
        lines = [head]
        for player in state.forfeited:
            lines.append(
                f"{render.mention(player)} forfeited: the clock decided for them "
                f"{state.rules.afk_rounds_to_forfeit} times in a row."
            )
        return lines
    extra = " (extra round)" if state.round > total else ""
    lines = [
        f"Round **{state.round}** of {total}{extra} · dealer {render.mention(state.dealer)}"
        + (
            f" (moving first: {render.mention(state.acting_dealer)})"
            if state.acting_dealer != state.dealer and state.active
            else ""
        )
        + f" · {field_text(state)}",
        f"Draw pile: **{len(state.draw_pile)}** cards"
        + (" · the dealer plays **blind** (mizuten)" if state.mizuten_declared else "")
        + (f" · pot {sum(state.pot.values())} pts" if state.pot else ""),
        f"**Field** ({len(state.field)}):",
        cards_by_month(state.field),
    ]
    if state.drawn is not None:
        lines.append(f"Drawn, face up: **{card_name(state.drawn)}**")
    for player, claims in state.claims.items():
        for claim in claims:
            lines.append(
                f"{render.mention(player)} claimed **{claim.name}** ({kan(claim.kan)}), "
                f"showing {cards_inline(claim.revealed)}."
            )
    if state.claims_open:
        lines.append(
            f"**Teyaku claims are open** until the dealer's first draw: every player claims, "
            f"or not, privately in their **{MY_HAND}**."
        )
    waiting = waiting_line(state)
    if waiting:
        lines.append(waiting)
    return lines


def deadline_line(snapshot: Snapshot) -> str | None:
    state, due = snapshot.game, snapshot.deadline
    if due is None or state.turn is None:
        return None
    if state.phase == "claim":
        return (
            f"⏳ Claim steps close {render.timestamp(due.due_at)}; then the draw happens "
            "(a teyaku not claimed by then is void)."
        )
    return (
        f"⏳ {render.mention(state.turn)} has until {render.timestamp(due.due_at)}; "
        "then the table decides for them."
    )


def pile_summary(state: hh.State, player: int) -> str:
    pile = state.piles.get(player, [])
    if not pile:
        return "pile empty"
    text = f"pile {len(pile)} cards, {card_points(pile)} pts"
    made = dekiyaku(pile, boar_deer_butterflies=state.rules.boar_deer_butterflies)
    if made:
        text += " · " + ", ".join(f"**{name}** {value}" for name, value in made)
    return text


def coins_of(state: hh.State, player: int, currency: str) -> str:
    return render.signed_coins(state.payouts.get(player, 0), currency)


def seat_lines(snapshot: Snapshot) -> list[str]:
    state = snapshot.game
    lines = []
    for player in state.seats:
        marks = ""
        if player == state.dealer:
            marks += DEALER
        if player == state.turn and not state.finished and state.phase != "claim":
            marks += TURN
        who = f"{marks} {render.mention(player)}".strip()
        parts = []
        sitting_out = state.active and player not in state.active and not state.finished
        if sitting_out:
            parts.append("forced out" if player in state.forced_out else "sits this round out")
        elif not state.finished:
            held = len(state.hands.get(player, []))
            parts.append(f"{held} card{'s' if held != 1 else ''} in hand")
            parts.append(pile_summary(state, player))
        if player in state.forfeited:
            parts.append("forfeited")
        score = state.scores.get(player, 0)
        parts.append(f"score **{points(score)}** ({coins_of(state, player, snapshot.currency)})")
        lines.append(f"{who} — " + " · ".join(parts))
    return lines


LINE_WORDS = {
    "teyaku": "teyaku",
    "dekiyaku": "dekiyaku",
    "sixteen_chaff": "Sixteen Chaff",
    "card_points": "card points",
    "diving": "Diving",
    "escape": "Escape",
    "mizuten": "mizuten",
    "compensation": "forced-out compensation",
    "dropout": "the pot",
}
ENDINGS = {
    "exhaustion": "played to the last card",
    "shoubu": "ended by shoubu",
    "cancel": "ended by cancel",
    "one_player": "only one player played",
    "void": "void",
}


def result_head(result: Any) -> str:
    how = ENDINGS.get(result.ended_by, result.ended_by)
    if result.caller is not None and result.ended_by in ("shoubu", "cancel"):
        how += f" ({render.mention(result.caller)})"
    winner = f" · winner {render.mention(result.winner)}" if result.winner is not None else ""
    return f"Round {result.round} (×{result.multiplier}), {how}{winner}"


def settlement_lines(result: Any) -> list[str]:
    lines = []
    for line in result.lines:
        what = LINE_WORDS.get(line.kind, line.kind)
        detail = f": {line.detail}" if line.detail else ""
        lines.append(
            f"{render.mention(line.payer)} → {render.mention(line.payee)} "
            f"{line.points} pts ({what}{detail})"
        )
    if result.card_points and result.case == "C":
        lines.append(
            "Card points: "
            + ", ".join(f"{render.mention(p)} {v}" for p, v in result.card_points.items())
        )
    nets = ", ".join(f"{render.mention(p)} {points(v)}" for p, v in result.net.items() if v)
    lines.append(f"Net: {nets or 'nothing changed hands'}")
    return lines


def last_round_field(snapshot: Snapshot) -> tuple[str, str] | None:
    result = snapshot.game.last_round
    if result is None:
        return None
    return ("Last round", "\n".join([result_head(result), *settlement_lines(result)]))


def rules_summary(snapshot: Snapshot) -> list[str]:
    rules, currency = snapshot.rules, snapshot.currency
    per_point = rules.stake_per_kan / rules.points_per_kan
    lines = [
        f"**{render.coins(rules.stake_per_kan, currency)} per kan** "
        f"(1 kan = {rules.points_per_kan} pts; a point is {per_point:g} {currency}) · "
        f"{rules.rounds} rounds · {rules.seated_players} players · "
        f"{rules.turn_seconds} s a decision",
        f"Escrow: each seat puts up **{render.coins(snapshot.hold, currency)}** — the most "
        "one round can cost you (the worst round there can be, at the highest field, plus "
        "a coin for rounding). A round's loss is paid from it and put back from your wallet "
        "before the next round; if your wallet cannot, that round is the match's last.",
    ]
    options = []
    if not rules.mizuten:
        options.append("no mizuten")
    if rules.teyaku_claims == "manual":
        options.append("manual teyaku claims")
    if rules.field_multiplier_mode == "stack":
        options.append("stacked fields (×1–×8)")
    if rules.rain_man_phoenix_make_large_field:
        options.append("Rain Man and Phoenix make Large Fields")
    if rules.extend_game_for_carryover:
        options.append("extra rounds for carried-over Large Fields")
    if rules.boar_deer_butterflies:
        options.append("Boar-Deer-Butterflies")
    if rules.diving_eligibility == "triplet_only":
        options.append("Diving on Triplet only")
    if rules.escape_excludes_one_bright:
        options.append("no Escape for One Bright")
    if rules.seated_players > 2:
        if rules.dropout_penalties:
            options.append("dropout penalties")
        if rules.forced_out_compensation:
            options.append("forced-out compensation")
        if rules.must_two_play:
            options.append("must two play")
        if not rules.shuffle_draw_after_dropouts:
            options.append("no shuffle after dropouts")
    if rules.first_dealer == "first_seat":
        options.append("the first seat deals first")
    if options:
        lines.append("House options: " + ", ".join(options) + ".")
    return lines


# -- events ----------------------------------------------------------------------------------


class _PlayedByTheTable(Protocol):
    @property
    def by_deadline(self) -> bool: ...


def by_table(event: _PlayedByTheTable) -> str:
    return " (decided by the table)" if event.by_deadline else ""


def dealt(event: hh.Dealt, snapshot: Snapshot) -> str:
    field = f"**Large Field ×{event.multiplier}**" if event.multiplier > 1 else "Small Field"
    return f"🎴 Round {event.round}: {render.mention(event.dealer)} deals — {field}."


def misdealt(event: hh.Misdealt, snapshot: Snapshot) -> str:
    if event.reason == "nobody_plays":
        why = "nobody wants to play"
    else:
        month = MONTHS[event.month].name if event.month in MONTHS else "one month"
        why = f"all four {month} cards on the field"
    return f"Misdeal ({why}): {render.mention(event.dealer)} deals again; it is not a round."


def participated(event: hh.Participated, snapshot: Snapshot) -> str:
    who = render.mention(event.player)
    if event.play:
        return f"{who} plays{' (must)' if event.auto else ''}{by_table(event)}."
    pot = f", putting {event.penalty} pts in the pot" if event.penalty else ""
    return f"{who} drops out{pot}{by_table(event)}."


def line_up(event: hh.LineUp, snapshot: Snapshot) -> str:
    a, b = (render.mention(p) for p in event.active)
    text = f"This round: {a} and {b}; {render.mention(event.acting_dealer)} moves first."
    if event.forced_out:
        owed = [
            f"{render.mention(p)}"
            + (f" (owed {event.compensation[p]} pts)" if event.compensation.get(p) else "")
            for p in event.forced_out
        ]
        text += " Forced out: " + ", ".join(owed) + "."
    return text


def card_played(event: hh.CardPlayed, snapshot: Snapshot) -> str:
    who, card = render.mention(event.player), card_name(event.card)
    verb = "plays" if event.source == "hand" else "turns up"
    if event.captured:
        return f"{who} {verb} {card} and takes {cards_inline(event.captured)}{by_table(event)}."
    return f"{who} {verb} {card}: laid on the field{by_table(event)}."


def formed(event: hh.DekiyakuFormed, snapshot: Snapshot) -> str:
    made = ", ".join(f"**{name}** ({kan(value)})" for name, value in event.dekiyaku)
    return f"✨ {render.mention(event.player)} has {made} — {kan(event.total)} in all."


def called(event: hh.Called, snapshot: Snapshot) -> str:
    words = {"sage": "**sage** — play on", "shoubu": "**shoubu**", "cancel": "**cancel**"}
    return f"{render.mention(event.player)} calls {words[event.call]}{by_table(event)}."


def scored(event: hh.RoundScored, snapshot: Snapshot) -> str:
    result = event.result
    nets = ", ".join(f"{render.mention(p)} {points(v)}" for p, v in result.net.items() if v)
    return f"**{result_head(result)}** — {nets or 'nothing changed hands'}."


def match_over(event: hh.MatchOver, snapshot: Snapshot) -> str:
    coins = ", ".join(
        f"{render.mention(p)} {render.signed_coins(v, snapshot.currency)}"
        for p, v in event.payouts.items()
        if p != 0
    )
    why = {
        "forfeit": " (a player forfeited)",
        "aborted": " (a moderator ended it)",
        "uncovered": " (a wallet could not cover another round)",
    }.get(event.reason, "")
    winners = ", ".join(render.mention(p) for p in event.winners) or "nobody"
    return f"🏁 **Match over**{why}: winner {winners}. Coins: {coins}."


SENTENCES = Sentences(
    {
        hh.Dealt: dealt,
        hh.Misdealt: misdealt,
        hh.PaulowniaPair: lambda e, s: (
            f"Both Paulownia cards on the field: {render.mention(e.player)} takes them."
        ),
        hh.MizutenDecided: lambda e, s: (
            f"{render.mention(e.player)} plays **blind** (mizuten)!{by_table(e)}"
            if e.declare
            else f"{render.mention(e.player)} looks at their hand (no mizuten){by_table(e)}."
        ),
        hh.Participated: participated,
        hh.LineUp: line_up,
        hh.TeyakuClaimed: lambda e, s: (
            f"{render.mention(e.player)} claims **{e.claim.name}** ({kan(e.claim.kan)}), "
            f"showing {cards_inline(e.claim.revealed)}{by_table(e)}."
        ),
        hh.TeyakuDeclined: lambda e, s: (
            f"{render.mention(e.player)} declines their Group {e.group} teyaku{by_table(e)}."
        ),
        hh.CardPlayed: card_played,
        hh.DrawnAwaits: lambda e, s: (
            f"{render.mention(e.player)} turned up {card_name(e.card)}, which matches "
            f"{cards_inline(e.choices)}: they pick one."
        ),
        hh.DekiyakuFormed: formed,
        hh.Called: called,
        hh.RoundScored: scored,
        hh.Forfeited: "{player:@} let the clock decide too often: the table finishes the round "
        "for them, and the match ends after it.",
        hh.CannotCover: "{player:@}'s wallet cannot put back this round's loss to cover "
        "another: this round, paid from the escrow, is the match's last.",
        hh.MatchOver: match_over,
        hh.Aborted: lambda e, s: (
            f"The match was ended{f' by {render.mention(e.by)}' if e.by is not None else ''} "
            f"in round {e.round}: settled rounds stand, and the table played that round out "
            "with its defaults and scored it."
        ),
        Honour: "🏅 {player:@}: **{name}**!",
    }
)


def result_line(events: Sequence[object], snapshot: Snapshot) -> str | None:
    """The channel's own line for a scored round: its head and every payment."""
    for event in events:
        if isinstance(event, hh.RoundScored):
            lines = [f"🎴 {result_head(event.result)}", *settlement_lines(event.result)]
            return render.clip("\n".join(lines), 2000)
    return None


# -- the private hand ------------------------------------------------------------------------


def teyaku_in(hand: Sequence[str]) -> dict[str, Any]:
    """The best teyaku of each group in a dealt hand (none unless it has its 7 cards)."""
    if len(hand) != 7:
        return {"A": None, "B": None}
    return {"A": group_a(hand), "B": group_b(hand)}


def teyaku_of(hand: Sequence[str]) -> str:
    found = [t for t in teyaku_in(hand).values() if t is not None]
    return ", ".join(f"{t.name} ({kan(t.kan)})" for t in found)


def hand_embed(snapshot: Snapshot, player: int, *, blind: bool, note: str | None) -> discord.Embed:
    """What only ``player`` sees: their hand (unless they must decide mizuten first), the
    field, and what they must do now."""
    state = snapshot.game
    hand = state.hands.get(player, [])
    lines = []
    if blind:
        lines.append(
            "You deal this round. Decide **before you look**: play blind (**mizuten**) or "
            "look at your hand. Your hand is shown once you have decided."
        )
    elif state.active and player not in state.active and not state.finished:
        lines.append("You sit this round out; you will be dealt in again next round.")
    elif not hand:
        lines.append("You hold no cards right now.")
    else:
        lines.append(f"**Your hand** ({len(hand)}):")
        lines.append(cards_by_month(hand))
        early = state.claims_open or state.phase in ("mizuten", "participate")
        # While claims are open, the teyaku of the hand as dealt (the dealer may have
        # played a card of it since).
        if early and (found := teyaku_of(state.claim_hands.get(player, hand))):
            lines.append(f"Teyaku in this hand: {found}.")
    lines.append("")
    lines.append(f"**Field** ({len(state.field)}) · {field_text(state)}:")
    lines.append(cards_by_month(state.field))
    if state.drawn is not None:
        lines.append(f"Drawn, face up: **{card_name(state.drawn)}**")
    pile = pile_summary(state, player)
    lines.append(f"Your {pile}.")
    if note:
        lines.append("")
        lines.append(note)
    embed = discord.Embed(
        title=f"Your hand — Nuki Hachi-hachi table #{snapshot.id}",
        description=render.clip("\n".join(lines), 4096),
        colour=discord.Colour(render.COLOUR_PLAYING),
    )
    embed.set_footer(text=f"Round {state.round} · updates after every turn")
    return embed


def ask_text(state: hh.State, player: int, legal: Sequence[object]) -> str | None:
    """What the player is asked to do now (``None``: nothing is theirs to do)."""
    if state.finished:
        return "The match is over."
    if not legal:
        if state.turn is None:
            return None
        if state.phase == "claim":
            return "The dealer's first draw waits for the teyaku claim steps."
        return f"Waiting for {render.mention(state.turn)}."
    asks = []
    steps = [action for action in legal if isinstance(action, hh.ClaimTeyaku)]
    if steps:
        if any(step.claim for step in steps):
            asks.append(
                "**Your claim step:** claim your teyaku (its cards are shown to all), or "
                "not: not claiming is never announced."
            )
        else:
            asks.append("**Your claim step:** your hand holds no teyaku — nothing to claim.")
        asks.append("Claims close at the dealer's first draw.")
        if len(steps) == len(legal):
            return " ".join(asks)
    return (
        " ".join(asks)
        + ("\n" if asks else "")
        + {
            "mizuten": "**Mizuten?** Decide before you look at your hand.",
            "participate": "**Play or drop?**",
            "play": "**Your turn:** play a card.",
            "capture_drawn": (
                "**The drawn card matches two identical chaff:** it takes one."
                if len(distinct([a.capture for a in legal if isinstance(a, hh.CaptureDrawn)])) == 1
                else "**The drawn card matches two:** pick the one it takes."
            ),
            "call": "**New dekiyaku:** sage (play on) or shoubu (end the round and score it)?",
        }.get(state.phase, "Your decision.")
    )


def _amount(value: Fraction, currency: str) -> str:
    """Coins, a half shown as such (coins are made whole across the match's score)."""
    if value.denominator == 1:
        return render.coins(int(value), currency)
    return f"{int(value):,}½ {currency}"


def _yaku_list(found: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{name} {kan}" for name, kan in found)


def call_text(snapshot: Snapshot, player: int) -> str | None:
    """The sage-or-shoubu choice with both outcomes in coins (``None``: not this player's
    call)."""
    stakes = call_stakes(snapshot.game, player)
    if stakes is None:
        return None
    currency = snapshot.currency
    rate = f"{stakes.kan} kan" + (
        f" × {stakes.multiplier} (field)" if stakes.multiplier > 1 else ""
    )
    shoubu = _amount(stakes.shoubu_coins, currency)
    half = _amount(stakes.half_coins, currency)
    them = render.mention(stakes.opponent)
    held = (
        f"{them} holds {_yaku_list(stakes.opponent_dekiyaku)} "
        f"({_amount(stakes.opponent_coins, currency)} if they call shoubu)"
        if stakes.opponent_dekiyaku
        else f"{them} holds no dekiyaku"
    )
    if stakes.opponent_near:
        held += f"; one card from {', '.join(stakes.opponent_near)}"
    lines = [
        f"**New dekiyaku:** {_yaku_list(stakes.dekiyaku)} = {rate}.",
        f"**Shoubu** — end the round now: {them} pays you **{shoubu}** for your dekiyaku "
        "(teyaku and specials are settled as usual).",
    ]
    if stakes.last_turn:
        theirs = _amount(stakes.opponent_coins / 2, currency)
        if stakes.opponent_turns:
            sage = (
                f"{them} would play their last turn: if they make a dekiyaku and call shoubu "
                f"you get nothing, else the hands run out and each is paid half their own — "
                f"you {half}, less their half"
            )
        else:
            sage = (
                f"the round would end at once by exhaustion: each is paid half their own — "
                f"you {half}, {them} {theirs}"
            )
        lines.append(
            "**Sage is not offered:** your hand is empty, so your pile is final and you have "
            f"no turn left to cancel in. Sage here means {sage}: never more than shoubu."
        )
    else:
        lines.append(
            f"**Sage** — play on for more: if {them} then makes or improves a dekiyaku and "
            f"calls shoubu, they are paid theirs in full and yours pay **nothing**; if the "
            f"hands run out, each is paid half their own (you {half}, less their half); at "
            f"the start of your next turn you may cancel for half ({half}). Now: {held}."
        )
    return "\n".join(lines)


def offered(state: hh.State, player: int, legal: Sequence[Any]) -> list[Any]:
    """The decisions the hand offers: all legal ones, but sage on an empty hand (it could
    only pay less than shoubu, see bot/games/hachihachi/calls.py)."""
    stakes = call_stakes(state, player)
    if stakes is not None and stakes.last_turn:
        return [action for action in legal if not isinstance(action, hh.Sage)]
    return list(legal)


def claim_label(action: hh.ClaimTeyaku, hand: Sequence[str], pending: Sequence[str]) -> str:
    """A claim button: the teyaku by name (``pending``: the groups still to decide)."""
    groups = teyaku_in(hand)
    asked = [action.group] if action.group is not None else list(pending)
    names = [t.name for g in asked if (t := groups.get(g)) is not None]
    if not pending and not action.claim:
        return "Nothing to claim"
    what = " and ".join(names) or "every teyaku"
    if not action.claim:
        return f"Don't claim {what}"
    month = f" ({MONTHS[action.month].name})" if action.month in MONTHS else ""
    return f"Claim {what}{month}"


def escrow_refusal(short: InsufficientFunds, rules: hh.Rules, affordable: int) -> str:
    """Why a table cannot open: the host's wallet does not cover one round's escrow."""
    return (
        f"Each seat puts **{short.needed:,} {short.currency}** in escrow — the most one round "
        f"at {rules.stake_per_kan:,} a kan could cost, put back after each round — and your "
        f"wallet holds {short.balance:,}. Open at a lower `stake_per_kan`."
    )


def replay_cards(state: Any, name: Callable[[int], str]) -> dict[str, list[str]] | None:
    """The public cards after a step, for the replay page: the field and each pile (a
    state between rounds has neither)."""
    if not isinstance(state, hh.State):
        return None
    cards = {"Field": list(state.field)}
    for player, pile in state.piles.items():
        if pile:
            cards[f"Pile of {name(int(player))}"] = list(pile)
    return cards


def action_text(action: Mapping[str, Any], currency: str) -> str | None:
    """A logged Hachi-hachi action in words, without its actor (/history, the replay
    page); every card it names was face up when it was played."""
    kind = str(action.get("kind"))
    capture = action.get("capture")
    taking = f", taking the {card_name(str(capture))}" if capture else ""
    if kind == "play":
        return f"plays the {card_name(str(action.get('card')))}{taking}"
    if kind == "capture_drawn":
        return f"takes the {card_name(str(capture))} with the drawn card"
    if kind == "mizuten":
        return "plays blind (mizuten)" if action.get("declare") else "does not play blind"
    if kind == "participate":
        return "plays the round" if action.get("play") else "drops out of the round"
    if kind == "claim_teyaku":
        group = f" (group {action.get('group')})" if action.get("group") else ""
        return ("claims" if action.get("claim") else "declines") + f" teyaku{group}"
    return {"sage": "calls sage (plays on)", "shoubu": "calls shoubu (ends the round)"}.get(kind)
