"""Nuki Hachi-hachi's words: cards as text, the table's lines, the private hand, the yaku
tables and every event's sentence. Data for cogs/hachihachi/ui.py (the frame around them is
cogs/_ui/frame.py, the pictures cogs/hachihachi/art.py).

Every sentence is a whole template in the locale in effect (``bot.i18n``): the table's
language for what everyone sees, the member's for their hand. Card, month, teyaku and
dekiyaku names are translated where shown (hanafuda's own words in Japanese: 松に鶴, 三本,
赤短…).

Secrecy: nothing here that is public (status, seats, sentences) reads ``state.hands``
except to count cards, or a claimed teyaku's revealed cards (public by rules §9.3). Only
:func:`hand_embed` shows a hand, and only to its owner.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeAlias

import discord

from bot.errors import InsufficientFunds
from bot.games.common import Honour
from bot.games.hachihachi import models as hh
from bot.games.hachihachi.calls import CallStakes, call_stakes
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
from bot.i18n import N_, Said, _, current_locale, ngettext, number
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.frame import Sentences, turn_text
from cogs.hachihachi import art

Snapshot: TypeAlias = TableSnapshot[hh.Rules, hh.State]

MY_HAND = "My hand"
"""The hand button's label (the frame's): translated where it is shown."""
DEALER = "🎴"
TURN = "▶️"
PICTURE_TURN = "▶"
"""The turn mark the picture's font draws (the emoji's text form)."""

# -- cards ---------------------------------------------------------------------------------


def my_hand() -> str:
    return _(MY_HAND)


def sep() -> str:
    """The list separator of the locale in effect (``, `` or ``、``)."""
    return _(", ")


def card_name(card: str) -> str:
    """``Crane with Sun (Pine · Bright)`` (``松に鶴（光）``)."""
    return art.card_label(card)


def card_button(card: str) -> str:
    """A card on a button: its month's kanji, then its name (``松 Crane with Sun``; in
    Japanese the name alone, ``松に鶴``, which names the month already)."""
    info = CARDS[card]
    label = f"{MONTHS[info.month].kanji} {info.name}"
    return _(label)


def yaku_name(name: str) -> str:
    """A teyaku or dekiyaku as the engine names it, in the locale in effect (三本, 赤短)."""
    return _(name)


def cards_by_month(cards: Sequence[str]) -> str:
    """The cards as a text list grouped by month: ``松 Pine: Crane with Sun, Pine chaff``."""
    if not cards:
        return _("(none)")
    lines = []
    for month, ids in art.month_groups(cards):
        info = MONTHS[month]
        names = sep().join(art.card_name(card) for card in ids)
        # The heading is translated whole, month by month: ``松 **Pine**`` is ``**松**``.
        heading = f"{info.kanji} **{info.name}**"
        heading = _(heading)
        lines.append(
            _("{month} ({number}): {cards}", month=heading, number=str(month), cards=names)
        )
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
    return sep().join(card_name(card) for card in cards) or _("nothing")


def kan(value: int) -> str:
    return _("{value} kan", value=value)


def signed(value: int) -> str:
    return ("+" if value > 0 else "") + number(value)


def points(value: int) -> str:
    return _("{value} pts", value=signed(value)) if value else _("{value} pts", value="0")


def pts(value: int) -> str:
    """Unsigned points: ``40 pts``."""
    return _("{value} pts", value=value)


# -- the yaku tables -------------------------------------------------------------------------

TEYAKU_A_NOTES = {
    "Triplet": N_("3 of one month (two triplets pay one)"),
    "Three Pairs": N_("three pairs"),
    "Four of a Kind": N_("all 4 of one month"),
    "Triplet and Two Pairs": N_("a triplet and two pairs"),
    "One-Two-Four": N_("a four, a pair and a single"),
    "Four-Three": N_("a four and a triplet"),
}
TEYAKU_B_NOTES = {
    "Red": N_("2+ ribbons (poetry or blue), the rest chaff"),
    "One Ribbon": N_("1 ribbon, 6 chaff"),
    "One Animal": N_("1 animal, 6 chaff"),
    "One Bright": N_("1 bright, 6 chaff"),
    "Empty Hand": N_("7 chaff"),
}
DEKIYAKU_NOTES = {
    "Five Brights": N_("Crane, Curtain, Full Moon, Rain Man, Phoenix (not with Four Brights)"),
    "Four Brights": N_("Crane, Curtain, Full Moon, Phoenix"),
    "Seven Ribbons": N_("all 7 ribbons (with Poetry and Blue: 24 kan)"),
    "Poetry Ribbons": N_("Pine, Plum and Cherry ribbons"),
    "Blue Ribbons": N_("Peony, Chrysanthemum and Maple ribbons"),
    "Boar-Deer-Butterflies": N_("house option; the Boar is not in this deck"),
}


def _yaku_rows(values: Mapping[str, int], notes: Mapping[str, str]) -> str:
    return "\n".join(
        _(
            "**{name}** — {kan} · {note}",
            name=yaku_name(name),
            kan=kan(value),
            note=_(notes[name]),
        )
        for name, value in values.items()
    )


def yaku_embed() -> discord.Embed:
    """``/hanafuda yaku``: the teyaku and dekiyaku tables with their values."""
    embed = discord.Embed(
        title=_("Nuki Hachi-hachi — yaku"),
        description=_(
            "Values in **kan** (1 kan = 10 points, or 12 at a table that says so), × the "
            "field. Teyaku are in your 7 starting cards: at most one of each group, the "
            "best; the groups add. Dekiyaku are captured in your pile during the round."
        ),
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    embed.add_field(
        name=_("Teyaku, Group A (same month)"),
        value=_yaku_rows(GROUP_A_KAN, TEYAKU_A_NOTES),
        inline=False,
    )
    embed.add_field(
        name=_("Teyaku, Group B (chaff hands; every Willow card counts as chaff)"),
        value=_yaku_rows(GROUP_B_KAN, TEYAKU_B_NOTES),
        inline=False,
    )
    embed.add_field(
        name=_("Dekiyaku"), value=_yaku_rows(DEKIYAKU_KAN, DEKIYAKU_NOTES), inline=False
    )
    embed.add_field(
        name=_("Also"),
        value=_(
            "**Sixteen Chaff**: 16+ chaff (Willow included) and no dekiyaku — 12 kan + 2 per "
            "card over 16.\n**Diving**, **Escape**, **Mizuten**: 1 kan each (see /rules "
            "hachihachi, Scoring)."
        ),
        inline=False,
    )
    return embed


# -- the table message -----------------------------------------------------------------------

TURN_WHAT = {
    "mizuten": Said(N_("mizuten (play blind) or look at the hand")),
    # Their own catalog entries: the engine's refusals say the same English their way.
    "participate": Said(N_("play or drop"), msgid=N_("play or drop (the turn line)")),
    "play": Said(N_("play a card"), msgid=N_("play a card (the turn line)")),
    "call": Said(N_("sage (play on) or shoubu (end the round)")),
}
"""What the player whose turn it is decides, by phase (the turn line's "what")."""


def field_text(state: hh.State) -> str:
    if state.multiplier > 1:
        field = _("**Large Field ×{multiplier}**", multiplier=str(state.multiplier))
    else:
        field = _("Small Field ×1")
    owed = state.pending_large
    if owed and state.rules.field_multiplier_mode == "carry_over":
        carried = ngettext(
            "{count} more Large round carried over", "{count} more Large rounds carried over", owed
        )
        field = _("{field} · {carried}", field=field, carried=carried)
    return field


def turn_parts(state: hh.State, name: Callable[[int], str]) -> tuple[str, str] | None:
    """Who acts and what they decide (``name`` writes a player: a mention on the table
    message, a display name on the picture); ``None`` once nobody does."""
    if state.finished or state.turn is None:
        return None
    if state.phase == "claim":
        # Never who is still to take their step (``turn`` names one): that would tell who
        # is still thinking it over, and so who holds a teyaku.
        return _("Teyaku claim steps"), _(
            "each player's, with the {hand} button; then {dealer} draws",
            hand=my_hand(),
            dealer=name(state.acting_dealer),
        )
    if state.phase == "capture_drawn" and state.drawn is not None:
        what = _("pick what the drawn {card} takes", card=art.card_name(state.drawn))
    else:
        what = TURN_WHAT.get(state.phase, Said(N_("decide"))).in_locale(current_locale())
    return name(state.turn), what


def turn_line(snapshot: Snapshot) -> str | None:
    """The table message's first line: ``▶️ @bob — play a card · in 2 minutes``."""
    parts = turn_parts(snapshot.game, render.mention)
    return None if parts is None else turn_text(*parts, snapshot)


def picture_header(state: hh.State, name: Callable[[int], str]) -> str | None:
    """The turn line as the table picture writes it (no mention, no live countdown)."""
    parts = turn_parts(state, name)
    if parts is None:
        return None
    who, what = parts
    return _("{turn} {who} — {what}", turn=PICTURE_TURN, who=who, what=what)


def status_lines(snapshot: Snapshot) -> list[str]:
    """The table message's status: the match's result once over, else the round's head
    line and the teyaku claimed or open."""
    state = snapshot.game
    if state.finished:
        return _finished_lines(state)
    # The field and a face-up drawn card are the picture's (and its alt text's), what the
    # table waits for is the turn line, first, and a claim's revealed cards are in its
    # sentence (and /history): the rest fits in a line or two.
    lines = [_("{head} · {pile}", head=_round_head(state), pile=_pile_text(state))]
    claimed = [
        _(
            "{player} **{teyaku}** ({kan})",
            player=render.mention(player),
            teyaku=yaku_name(claim.name),
            kan=kan(claim.kan),
        )
        for player, claims in state.claims.items()
        for claim in claims
    ]
    if claimed:
        lines.append(_("Teyaku claimed: {claims}", claims=sep().join(claimed)))
    if state.claims_open and state.phase != "claim":
        # Every player, not only the one whose turn it is: nobody is singled out.
        lines.append(
            _(
                "**Teyaku claims are open** until the dealer's first draw: every player "
                "claims, or not, privately with the **{hand}** button.",
                hand=my_hand(),
            )
        )
    return lines


def _finished_lines(state: hh.State) -> list[str]:
    """The match over: rounds played, the winners, and who forfeited."""
    played = state.rounds_played
    head = ngettext(
        "**Match over** after {count} round.", "**Match over** after {count} rounds.", played
    )
    if state.winners:
        names = sep().join(render.mention(p) for p in state.winners)
        if len(state.winners) > 1:
            head = _("{head} Winners: {names}", head=head, names=names)
        else:
            head = _("{head} Winner: {names}", head=head, names=names)
    lines = [head]
    for player in state.forfeited:
        lines.append(
            _(
                "{player} forfeited: the clock decided for them {count} times in a row.",
                player=render.mention(player),
                count=state.rules.afk_rounds_to_forfeit,
            )
        )
    return lines


def _round_head(state: hh.State) -> str:
    """``Round 2 of 6 · dealer @ann · <field>`` (an extra round said so)."""
    total = state.rules.rounds
    dealer = render.mention(state.dealer)
    if state.acting_dealer != state.dealer and state.active:
        dealer = _(
            "{dealer} (moving first: {first})",
            dealer=dealer,
            first=render.mention(state.acting_dealer),
        )
    if state.round > total:
        return _(
            "Round **{round}** of {total} (extra round) · dealer {dealer} · {field}",
            round=str(state.round),
            total=str(total),
            dealer=dealer,
            field=field_text(state),
        )
    return _(
        "Round **{round}** of {total} · dealer {dealer} · {field}",
        round=str(state.round),
        total=str(total),
        dealer=dealer,
        field=field_text(state),
    )


def _pile_text(state: hh.State) -> str:
    """The draw pile, with a blind dealer (mizuten) and the pot."""
    pile = _("Draw pile: **{count}** cards", count=len(state.draw_pile))
    if state.mizuten_declared:
        pile = _("{pile} · the dealer plays **blind** (mizuten)", pile=pile)
    if state.pot:
        pile = _("{pile} · pot {pot} pts", pile=pile, pot=sum(state.pot.values()))
    return pile


def pile_summary(state: hh.State, player: int) -> str:
    pile = state.piles.get(player, [])
    if not pile:
        return _("pile empty")
    text = _("pile {count} cards, {points} pts", count=len(pile), points=card_points(pile))
    made = dekiyaku(pile, boar_deer_butterflies=state.rules.boar_deer_butterflies)
    if made:
        found = sep().join(
            _("**{name}** {value}", name=yaku_name(name), value=value) for name, value in made
        )
        text = _("{pile} · {dekiyaku}", pile=text, dekiyaku=found)
    return text


def your_pile(state: hh.State, player: int) -> str:
    pile = state.piles.get(player, [])
    if not pile:
        return _("Your pile empty.")
    text = _("Your pile {count} cards, {points} pts", count=len(pile), points=card_points(pile))
    made = dekiyaku(pile, boar_deer_butterflies=state.rules.boar_deer_butterflies)
    if made:
        found = sep().join(
            _("**{name}** {value}", name=yaku_name(name), value=value) for name, value in made
        )
        text = _("{pile} · {dekiyaku}", pile=text, dekiyaku=found)
    return _("{text}.", text=text)


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
            parts.append(
                _("forced out") if player in state.forced_out else _("sits this round out")
            )
        elif not state.finished:
            held = len(state.hands.get(player, []))
            parts.append(ngettext("{count} card in hand", "{count} cards in hand", held))
            parts.append(pile_summary(state, player))
        if player in state.forfeited:
            parts.append(_("forfeited"))
        score = state.scores.get(player, 0)
        parts.append(
            _(
                "score **{points}** ({coins})",
                points=points(score),
                coins=coins_of(state, player, snapshot.currency),
            )
        )
        lines.append(_("{who} — {parts}", who=who, parts=" · ".join(parts)))
    return lines


LINE_WORDS = {
    "teyaku": N_("teyaku"),
    "dekiyaku": N_("dekiyaku"),
    "sixteen_chaff": N_("Sixteen Chaff"),
    "card_points": N_("card points"),
    "diving": N_("Diving"),
    "escape": N_("Escape"),
    "mizuten": N_("mizuten"),
    "compensation": N_("forced-out compensation"),
    "dropout": N_("the pot"),
}
ENDINGS = {
    "exhaustion": N_("played to the last card"),
    "shoubu": N_("ended by shoubu"),
    "cancel": N_("ended by cancel"),
    "one_player": N_("only one player played"),
    "void": N_("void"),
}


def _translated(table: Mapping[str, str], key: str) -> str:
    found = table.get(key)
    return _(found) if found is not None else key


UCHIKIRI = Said(N_("cancel"), msgid=N_("cancel (Hachi-hachi's move after sage)"))
"""The engine's "cancel" detail: English "cancel", like /cancel, but its own catalog entry,
Hachi-hachi's 打ち切り (the bare "cancel" is the /cancel command, 中止)."""


def detail_text(detail: str) -> str:
    """A settlement line's detail (a yaku's or a month's name, "17 chaff", "bonus") in the
    locale in effect: the engine writes it in English."""
    count, space, word = detail.partition(" ")
    if space and word == "chaff" and count.isdigit():
        return _("{count} chaff", count=int(count))
    if detail == "cancel":
        return UCHIKIRI.in_locale(current_locale())
    return _(detail)


def result_head(result: Any, *, last: bool = False) -> str:
    """A scored round in one line: how it ended and who deals next (the rules' "round
    winner", who need not have won points: a sage caller can lose the round's payments).
    ``last``: the match's last round, after which nobody deals."""
    how = _translated(ENDINGS, result.ended_by)
    if result.caller is not None and result.ended_by in ("shoubu", "cancel"):
        how = _("{how} ({caller})", how=how, caller=render.mention(result.caller))
    if result.winner is not None and not last:
        return _(
            "Round {round} (×{multiplier}), {how} · {dealer} deals next",
            round=str(result.round),
            multiplier=str(result.multiplier),
            how=how,
            dealer=render.mention(result.winner),
        )
    return _(
        "Round {round} (×{multiplier}), {how}",
        round=str(result.round),
        multiplier=str(result.multiplier),
        how=how,
    )


DEKIYAKU_PAID = {
    "shoubu": N_("{dekiyaku}, paid in full at shoubu"),
    "cancel": N_("{dekiyaku}, halved at cancel"),
    "exhaustion": N_("{dekiyaku}, halved at exhaustion"),
}
"""How a dekiyaku payment was worked out, by how the round ended (rules §13.1)."""


def dekiyaku_paid(result: Any, line: Any) -> str:
    """What a dekiyaku payment paid for: ``Poetry Ribbons 7 kan, halved at exhaustion``
    (the payee's dekiyaku, their kan, the field, and how the ending weighed them)."""
    made = result.dekiyaku.get(line.payee) or []
    names = sep().join(f"{yaku_name(name)} {kan(value)}" for name, value in made)
    total = sum(value for _name, value in made)
    if len(made) > 1:
        names = _("{names} = {kan}", names=names, kan=kan(total))
    if result.multiplier > 1:
        names = _(
            "{dekiyaku} × {multiplier} (field)",
            dekiyaku=names,
            multiplier=str(result.multiplier),
        )
    template = DEKIYAKU_PAID.get(line.detail)
    if not made or template is None:
        what = _(LINE_WORDS["dekiyaku"])
        return _("{what}: {detail}", what=what, detail=detail_text(line.detail))
    return _(template, dekiyaku=names)


def settlement_lines(result: Any) -> list[str]:
    lines = []
    for line in result.lines:
        what = _translated(LINE_WORDS, line.kind)
        if line.kind == "dekiyaku":
            what = dekiyaku_paid(result, line)
        elif line.detail:
            what = _("{what}: {detail}", what=what, detail=detail_text(line.detail))
        lines.append(
            _(
                "{payer} → {payee} {points} pts ({what})",
                payer=render.mention(line.payer),
                payee=render.mention(line.payee),
                points=line.points,
                what=what,
            )
        )
    if result.card_points and result.case == "C":
        lines.append(
            _(
                "Card points: {points}",
                points=sep().join(
                    f"{render.mention(p)} {number(v)}" for p, v in result.card_points.items()
                ),
            )
        )
    lines.append(_("Net: {nets}", nets=nets_text(result)))
    return lines


def nets_text(result: Any) -> str:
    nets = sep().join(f"{render.mention(p)} {points(v)}" for p, v in result.net.items() if v)
    return nets or _("nothing changed hands")


def last_round_field(snapshot: Snapshot) -> tuple[str, str] | None:
    """The last scored round in one line (its payments, line by line, are in the
    channel's result line, :func:`result_line`)."""
    state = snapshot.game
    result = state.last_round
    if result is None:
        return None
    head = result_head(result, last=state.finished)
    return (_("Last round"), _("{head} — {nets}", head=head, nets=nets_text(result)))


def rules_summary(snapshot: Snapshot) -> list[str]:
    rules, currency = snapshot.rules, snapshot.currency
    point = f"{rules.stake_per_kan / rules.points_per_kan:g}"
    lines = [
        _(
            "**{stake} per kan** (1 kan = {points} pts; a point is {per_point} {currency}) · "
            "{rounds} rounds · {players} players · {seconds} s a decision",
            stake=render.coins(rules.stake_per_kan, currency),
            points=str(rules.points_per_kan),
            per_point=point,
            currency=currency,
            rounds=rules.rounds,
            players=rules.seated_players,
            seconds=rules.turn_seconds,
        ),
        _(
            "Deposit to sit: **{hold}**, back to you when the match ends. It is the most one "
            "round can cost you (the worst round there can be, at the highest field, plus a "
            "coin for rounding): a round's loss is paid from it and put back from your "
            "wallet before the next round; if your wallet cannot, that round is the match's "
            "last.",
            hold=render.coins(snapshot.hold, currency),
        ),
    ]
    options = []
    if not rules.mizuten:
        options.append(_("no mizuten"))
    if rules.teyaku_claims == "manual":
        options.append(_("manual teyaku claims"))
    if rules.field_multiplier_mode == "stack":
        options.append(_("stacked fields (×1–×8)"))
    if rules.rain_man_phoenix_make_large_field:
        options.append(_("Rain Man and Phoenix make Large Fields"))
    if rules.extend_game_for_carryover:
        options.append(_("extra rounds for carried-over Large Fields"))
    if rules.boar_deer_butterflies:
        options.append(_("Boar-Deer-Butterflies"))
    if rules.diving_eligibility == "triplet_only":
        options.append(_("Diving on Triplet only"))
    if rules.escape_excludes_one_bright:
        options.append(_("no Escape for One Bright"))
    if rules.seated_players > 2:
        if rules.dropout_penalties:
            options.append(_("dropout penalties"))
        if rules.forced_out_compensation:
            options.append(_("forced-out compensation"))
        if rules.must_two_play:
            options.append(_("must two play"))
        if not rules.shuffle_draw_after_dropouts:
            options.append(_("no shuffle after dropouts"))
    if rules.first_dealer == "first_seat":
        options.append(_("the first seat deals first"))
    if options:
        lines.append(_("House options: {options}.", options=sep().join(options)))
    return lines


# -- events ----------------------------------------------------------------------------------


class _PlayedByTheTable(Protocol):
    @property
    def by_deadline(self) -> bool: ...


def by_table(event: _PlayedByTheTable) -> str:
    return _(" (decided by the table)") if event.by_deadline else ""


def dealt(event: hh.Dealt, snapshot: Snapshot) -> str:
    if event.multiplier > 1:
        field = _("**Large Field ×{multiplier}**", multiplier=str(event.multiplier))
    else:
        field = _("Small Field")
    return _(
        "🎴 Round {round}: {dealer} deals — {field}.",
        round=str(event.round),
        dealer=render.mention(event.dealer),
        field=field,
    )


def misdealt(event: hh.Misdealt, snapshot: Snapshot) -> str:
    if event.reason == "nobody_plays":
        why = _("nobody wants to play")
    elif event.month in MONTHS:
        why = _("all four {month} cards on the field", month=_(MONTHS[event.month].name))
    else:
        why = _("all four one month cards on the field")
    return _(
        "Misdeal ({why}): {dealer} deals again; it is not a round.",
        why=why,
        dealer=render.mention(event.dealer),
    )


def participated(event: hh.Participated, snapshot: Snapshot) -> str:
    who = render.mention(event.player)
    if event.play:
        if event.auto:
            return _("{player} plays (must){by_table}.", player=who, by_table=by_table(event))
        return _("{player} plays{by_table}.", player=who, by_table=by_table(event))
    if event.penalty:
        return _(
            "{player} drops out, putting {penalty} pts in the pot{by_table}.",
            player=who,
            penalty=event.penalty,
            by_table=by_table(event),
        )
    return _("{player} drops out{by_table}.", player=who, by_table=by_table(event))


def line_up(event: hh.LineUp, snapshot: Snapshot) -> str:
    a, b = (render.mention(p) for p in event.active)
    text = _(
        "This round: {a} and {b}; {first} moves first.",
        a=a,
        b=b,
        first=render.mention(event.acting_dealer),
    )
    if event.forced_out:
        owed = [
            _("{player} (owed {points} pts)", player=render.mention(p), points=owing)
            if (owing := event.compensation.get(p))
            else render.mention(p)
            for p in event.forced_out
        ]
        text = _("{text} Forced out: {players}.", text=text, players=sep().join(owed))
    return text


def card_played(event: hh.CardPlayed, snapshot: Snapshot) -> str:
    who, card = render.mention(event.player), card_name(event.card)
    table = by_table(event)
    if event.captured:
        taken = cards_inline(event.captured)
        if event.source == "hand":
            return _(
                "{player} plays {card} and takes {taken}{by_table}.",
                player=who,
                card=card,
                taken=taken,
                by_table=table,
            )
        return _(
            "{player} turns up {card} and takes {taken}{by_table}.",
            player=who,
            card=card,
            taken=taken,
            by_table=table,
        )
    if event.source == "hand":
        return _(
            "{player} plays {card}: laid on the field{by_table}.",
            player=who,
            card=card,
            by_table=table,
        )
    return _(
        "{player} turns up {card}: laid on the field{by_table}.",
        player=who,
        card=card,
        by_table=table,
    )


def formed(event: hh.DekiyakuFormed, snapshot: Snapshot) -> str:
    made = sep().join(
        _("**{name}** ({kan})", name=yaku_name(name), kan=kan(value))
        for name, value in event.dekiyaku
    )
    return _(
        "✨ {player} has {made} — {total} in all.",
        player=render.mention(event.player),
        made=made,
        total=kan(event.total),
    )


CALL_WORDS = {
    "sage": N_("**sage** — play on"),
    "shoubu": N_("**shoubu**"),
    "cancel": N_("**cancel**"),
}


def called(event: hh.Called, snapshot: Snapshot) -> str:
    return _(
        "{player} calls {call}{by_table}.",
        player=render.mention(event.player),
        call=_(CALL_WORDS[event.call]),
        by_table=by_table(event),
    )


def scored(event: hh.RoundScored, snapshot: Snapshot) -> str:
    result = event.result
    last = is_last(event, snapshot)
    return _("**{head}** — {nets}.", head=result_head(result, last=last), nets=nets_text(result))


def is_last(event: hh.RoundScored, snapshot: Snapshot) -> bool:
    """Whether ``event`` scored the match's last round: nobody deals after it."""
    state = snapshot.game
    return (
        state.finished
        and state.last_round is not None
        and (state.last_round.round == event.result.round)
    )


MATCH_ENDS = {
    "forfeit": N_("**Match over** (a player forfeited): winner {winners}. Coins: {coins}."),
    "aborted": N_("**Match over** (a moderator ended it): winner {winners}. Coins: {coins}."),
    "uncovered": N_(
        "**Match over** (a wallet could not cover another round): winner {winners}. Coins: {coins}."
    ),
}


def match_over(event: hh.MatchOver, snapshot: Snapshot) -> str:
    coins = sep().join(
        f"{render.mention(p)} {render.signed_coins(v, snapshot.currency)}"
        for p, v in event.payouts.items()
        if p != 0
    )
    winners = sep().join(render.mention(p) for p in event.winners) or _("nobody")
    template = MATCH_ENDS.get(event.reason, N_("**Match over**: winner {winners}. Coins: {coins}."))
    return "🏁 " + _(template, winners=winners, coins=coins)


def mizuten_decided(event: hh.MizutenDecided, snapshot: Snapshot) -> str:
    if event.declare:
        return _(
            "{player} plays **blind** (mizuten)!{by_table}",
            player=render.mention(event.player),
            by_table=by_table(event),
        )
    return _(
        "{player} looks at their hand (no mizuten){by_table}.",
        player=render.mention(event.player),
        by_table=by_table(event),
    )


def aborted(event: hh.Aborted, snapshot: Snapshot) -> str:
    if event.by is not None:
        return _(
            "The match was ended by {by} in round {round}: settled rounds stand, and the "
            "table played that round out with its defaults and scored it.",
            by=render.mention(event.by),
            round=str(event.round),
        )
    return _(
        "The match was ended in round {round}: settled rounds stand, and the table played "
        "that round out with its defaults and scored it.",
        round=str(event.round),
    )


SENTENCES = Sentences(
    {
        hh.Dealt: dealt,
        hh.Misdealt: misdealt,
        hh.PaulowniaPair: lambda e, s: _(
            "Both Paulownia cards on the field: {player} takes them.",
            player=render.mention(e.player),
        ),
        hh.MizutenDecided: mizuten_decided,
        hh.Participated: participated,
        hh.LineUp: line_up,
        hh.TeyakuClaimed: lambda e, s: _(
            "{player} claims **{teyaku}** ({kan}), showing {cards}{by_table}.",
            player=render.mention(e.player),
            teyaku=yaku_name(e.claim.name),
            kan=kan(e.claim.kan),
            cards=cards_inline(e.claim.revealed),
            by_table=by_table(e),
        ),
        hh.TeyakuDeclined: lambda e, s: _(
            "{player} declines their Group {group} teyaku{by_table}.",
            player=render.mention(e.player),
            group=e.group,
            by_table=by_table(e),
        ),
        hh.CardPlayed: card_played,
        hh.DrawnAwaits: lambda e, s: _(
            "{player} turned up {card}, which matches {choices}: they pick one.",
            player=render.mention(e.player),
            card=card_name(e.card),
            choices=cards_inline(e.choices),
        ),
        hh.DekiyakuFormed: formed,
        hh.Called: called,
        hh.RoundScored: scored,
        hh.Forfeited: lambda e, s: _(
            "{player} let the clock decide too often: the table finishes the round for them, "
            "and the match ends after it.",
            player=render.mention(e.player),
        ),
        hh.CannotCover: lambda e, s: _(
            "{player}'s wallet cannot put back this round's loss to cover another: this "
            "round, paid from the escrow, is the match's last.",
            player=render.mention(e.player),
        ),
        hh.MatchOver: match_over,
        hh.Aborted: aborted,
        Honour: lambda e, s: _(
            "🏅 {player}: **{name}**!", player=render.mention(e.player), name=_(e.name)
        ),
    }
)


def result_line(events: Sequence[object], snapshot: Snapshot) -> str | None:
    """The channel's own line for a scored round: its head and every payment."""
    for event in events:
        if isinstance(event, hh.RoundScored):
            head = result_head(event.result, last=is_last(event, snapshot))
            lines = [f"🎴 {head}", *settlement_lines(event.result)]
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
    return sep().join(_("{name} ({kan})", name=yaku_name(t.name), kan=kan(t.kan)) for t in found)


def hand_embed(snapshot: Snapshot, player: int, *, blind: bool, note: str | None) -> discord.Embed:
    """What only ``player`` sees: their hand (unless they must decide mizuten first), the
    field, and what they must do now."""
    state = snapshot.game
    hand = state.hands.get(player, [])
    lines = []
    if blind:
        lines.append(
            _(
                "You deal this round. Decide **before you look**: play blind (**mizuten**) "
                "or look at your hand. Your hand is shown once you have decided."
            )
        )
    elif state.active and player not in state.active and not state.finished:
        lines.append(_("You sit this round out; you will be dealt in again next round."))
    elif not hand:
        lines.append(_("You hold no cards right now."))
    else:
        lines.append(_("**Your hand** ({count}):", count=len(hand)))
        lines.append(cards_by_month(hand))
        early = state.claims_open or state.phase in ("mizuten", "participate")
        # While claims are open, the teyaku of the hand as dealt (the dealer may have
        # played a card of it since).
        if early and (found := teyaku_of(state.claim_hands.get(player, hand))):
            lines.append(_("Teyaku in this hand: {teyaku}.", teyaku=found))
    lines.append("")
    lines.append(
        _("**Field** ({count}) · {field}:", count=len(state.field), field=field_text(state))
    )
    lines.append(cards_by_month(state.field))
    if state.drawn is not None:
        lines.append(_("Drawn, face up: **{card}**", card=card_name(state.drawn)))
    lines.append(your_pile(state, player))
    if note:
        lines.append("")
        lines.append(note)
    embed = discord.Embed(
        title=_("Your hand — Nuki Hachi-hachi table #{table}", table=str(snapshot.id)),
        description=render.clip("\n".join(lines), 4096),
        colour=discord.Colour(render.COLOUR_PLAYING),
    )
    embed.set_footer(text=_("Round {round} · updates after every turn", round=str(state.round)))
    return embed


ASKS = {
    "mizuten": N_("**Mizuten?** Decide before you look at your hand."),
    "participate": N_("**Play or drop?**"),
    "play": N_("**Your turn:** play a card."),
    "call": N_("**New dekiyaku:** sage (play on) or shoubu (end the round and score it)?"),
}


def ask_text(state: hh.State, player: int, legal: Sequence[object]) -> str | None:
    """What the player is asked to do now (``None``: nothing is theirs to do)."""
    if state.finished:
        return _("The match is over.")
    if not legal:
        if state.turn is None:
            return None
        if state.phase == "claim":
            return _("The dealer's first draw waits for the teyaku claim steps.")
        return _("Waiting for {player}.", player=render.mention(state.turn))
    asks = []
    steps = [action for action in legal if isinstance(action, hh.ClaimTeyaku)]
    if steps:
        if any(step.claim for step in steps):
            asks.append(
                _(
                    "**Your claim step:** claim your teyaku (its cards are shown to all), or "
                    "not: not claiming is never announced."
                )
            )
        else:
            asks.append(_("**Your claim step:** your hand holds no teyaku — nothing to claim."))
        asks.append(_("Claims close at the dealer's first draw."))
        if len(steps) == len(legal):
            return " ".join(asks)
    if state.phase == "capture_drawn":
        drawn = [a.capture for a in legal if isinstance(a, hh.CaptureDrawn)]
        if len(distinct(drawn)) == 1:
            ask = _("**The drawn card matches two identical chaff:** it takes one.")
        else:
            ask = _("**The drawn card matches two:** pick the one it takes.")
    else:
        ask = _(ASKS.get(state.phase, N_("Your decision.")))
    return " ".join(asks) + ("\n" if asks else "") + ask


def _yaku_list(found: Sequence[tuple[str, int]]) -> str:
    return sep().join(f"{yaku_name(name)} {number(kan)}" for name, kan in found)


def call_text(snapshot: Snapshot, player: int) -> str | None:
    """The sage-or-shoubu choice with both outcomes in coins (``None``: not this player's
    call)."""
    stakes = call_stakes(snapshot.game, player)
    if stakes is None:
        return None
    currency = snapshot.currency
    if stakes.multiplier > 1:
        rate = _(
            "{kan} kan × {multiplier} (field)",
            kan=stakes.kan,
            multiplier=str(stakes.multiplier),
        )
    else:
        rate = kan(stakes.kan)
    # Whole coins as the table pays them (a half coin never is: calls.paid).
    shoubu = render.coins(stakes.shoubu_paid, currency)
    them = render.mention(stakes.opponent)
    lines = [
        _(
            "**New dekiyaku:** {dekiyaku} = {rate}.",
            dekiyaku=_yaku_list(stakes.dekiyaku),
            rate=rate,
        ),
        _(
            "**Shoubu** — end the round now: {them} pays you **{coins}** for your dekiyaku "
            "(teyaku and specials are settled as usual).",
            them=them,
            coins=shoubu,
        ),
        _sage_text(stakes, currency),
    ]
    return "\n".join(lines)


def _sage_text(stakes: CallStakes, currency: str) -> str:
    """Sage's outcome: not offered on an empty hand (and why), else what playing on risks
    against what the opponent holds."""
    half = render.coins(stakes.half_paid, currency)
    them = render.mention(stakes.opponent)
    if stakes.last_turn:
        theirs = render.coins(stakes.opponent_half_paid, currency)
        if stakes.opponent_turns:
            sage = _(
                "{them} would play their last turn: if they make a dekiyaku and call shoubu "
                "you get nothing, else the hands run out and each is paid half their own — "
                "you {half}, less their half",
                them=them,
                half=half,
            )
        else:
            sage = _(
                "the round would end at once by exhaustion: each is paid half their own — "
                "you {half}, {them} {theirs}",
                half=half,
                them=them,
                theirs=theirs,
            )
        return _(
            "**Sage is not offered:** your hand is empty, so your pile is final and you "
            "have no turn left to cancel in. Sage here means {sage}: never more than "
            "shoubu.",
            sage=sage,
        )
    return _(
        "**Sage** — play on for more: if {them} then makes or improves a dekiyaku and "
        "calls shoubu, they are paid theirs in full and yours pay **nothing**; if the "
        "hands run out, each is paid half their own (you {half}, less their half); at "
        "the start of your next turn you may cancel for half ({half}). Now: {held}.",
        them=them,
        half=half,
        held=_opponent_held(stakes, currency),
    )


def _opponent_held(stakes: CallStakes, currency: str) -> str:
    """What the opponent holds: their dekiyaku (and its shoubu in coins), and those one
    card away."""
    them = render.mention(stakes.opponent)
    if stakes.opponent_dekiyaku:
        held = _(
            "{them} holds {dekiyaku} ({coins} if they call shoubu)",
            them=them,
            dekiyaku=_yaku_list(stakes.opponent_dekiyaku),
            coins=render.coins(stakes.opponent_paid, currency),
        )
    else:
        held = _("{them} holds no dekiyaku", them=them)
    if stakes.opponent_near:
        held = _(
            "{held}; one card from {near}",
            held=held,
            near=sep().join(yaku_name(name) for name in stakes.opponent_near),
        )
    return held


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
    names = [yaku_name(t.name) for g in asked if (t := groups.get(g)) is not None]
    if not pending and not action.claim:
        return _("Nothing to claim")
    if len(names) == 2:
        what = _("{first} and {second}", first=names[0], second=names[1])
    else:
        what = names[0] if names else _("every teyaku")
    if not action.claim:
        return _("Don't claim {what}", what=what)
    if action.month in MONTHS:
        return _("Claim {what} ({month})", what=what, month=_(MONTHS[action.month].name))
    return _("Claim {what}", what=what)


def escrow_refusal(short: InsufficientFunds, rules: hh.Rules, fit: int) -> str:
    """Why a table cannot open: the host's wallet does not cover one round's escrow;
    ``fit``, the largest ``stake_per_kan`` it covers (:func:`hh.affordable_stake`)."""
    return _(
        "Each seat puts **{needed} {currency}** in escrow — the most one round at {stake} a "
        "kan could cost, put back after each round — and your wallet holds {balance} "
        "{currency}. The largest `stake_per_kan` it covers is **{fit}**.",
        needed=short.needed,
        currency=short.currency,
        stake=rules.stake_per_kan,
        balance=short.balance,
        fit=fit,
    )


def replay_cards(state: Any, name: Callable[[int], str]) -> dict[str, list[str]] | None:
    """The public cards after a step, for the replay page: the field and each pile (a
    state between rounds has neither)."""
    if not isinstance(state, hh.State):
        return None
    cards = {_("Field"): list(state.field)}
    for player, pile in state.piles.items():
        if pile:
            cards[_("Pile of {player}", player=name(int(player)))] = list(pile)
    return cards


def action_text(action: Mapping[str, Any], currency: str) -> str | None:
    """A logged Hachi-hachi action in words, without its actor (/history, the replay
    page); every card it names was face up when it was played."""
    kind = str(action.get("kind"))
    capture = action.get("capture")
    if kind == "play":
        card = card_name(str(action.get("card")))
        if capture:
            return _(
                "plays the {card}, taking the {capture}",
                card=card,
                capture=card_name(str(capture)),
            )
        return _("plays the {card}", card=card)
    if kind == "capture_drawn":
        return _("takes the {card} with the drawn card", card=card_name(str(capture)))
    if kind == "mizuten":
        return _("plays blind (mizuten)") if action.get("declare") else _("does not play blind")
    if kind == "participate":
        return _("plays the round") if action.get("play") else _("drops out of the round")
    if kind == "claim_teyaku":
        group = action.get("group")
        if action.get("claim"):
            if group:
                return _("claims teyaku (group {group})", group=str(group))
            return _("claims teyaku")
        if group:
            return _("declines teyaku (group {group})", group=str(group))
        return _("declines teyaku")
    if kind == "sage":
        return _("calls sage (plays on)")
    if kind == "shoubu":
        return _("calls shoubu (ends the round)")
    return None
