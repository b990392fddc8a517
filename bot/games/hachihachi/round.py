"""Nuki Hachi-hachi: one round, from the deal to its end (rules §5–§12).

Every function here works on the fresh shallow copy the rulebook hands an action
(:func:`bot.games.kit.evolve`): it replaces fields and containers, never mutating one it
did not make. A decision returns its events and, when the round is over, an :class:`End`
that :mod:`bot.games.hachihachi.match` scores and books (it also deals the next round).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from bot.games.dice import Dice
from bot.games.hachihachi.cards import CARDS, DECK, PAULOWNIA
from bot.games.hachihachi.models import (
    Called,
    CardPlayed,
    Claim,
    Dealt,
    DekiyakuFormed,
    DrawnAwaits,
    Event,
    LineUp,
    Misdealt,
    MizutenDecided,
    Participated,
    PaulowniaPair,
    Rules,
    State,
    TeyakuClaimed,
)
from bot.games.hachihachi.yaku import (
    Teyaku,
    compensation_points,
    dekiyaku,
    dekiyaku_kan,
    group_a,
    group_b,
)
from bot.games.kit import build

MONTH: dict[str, int] = {card.id: card.month for card in CARDS.values()}
"""Each card's month, looked up on every play."""
_LARGE_FIELD = frozenset({"pine-bright", "cherry-bright", "susuki-bright"})
_LARGE_FIELD_WITH_OPTION = _LARGE_FIELD | {"willow-bright", "paulownia-bright"}
_PAULOWNIA_PAIR = ["paulownia-bright", "paulownia-chaff"]

EndKind = Literal["exhaustion", "shoubu", "cancel", "one_player", "nobody_plays"]


class End(NamedTuple):
    """How a round (or a deal) ended: what the match books next."""

    kind: EndKind
    caller: int | None = None


Outcome = tuple[list[Event], End | None]

# ------------------------------------------------------------------------- helpers


def matches(field: list[str], card: str) -> list[str]:
    """The field cards of ``card``'s month, in field order (§11.2)."""
    month = MONTH[card]
    return [other for other in field if MONTH[other] == month]


def card_name(card: str) -> str:
    """A card as players know it ("the Curtain", "a Pine chaff")."""
    found = CARDS.get(card)
    if found is None:
        return repr(card)
    # "a Pine chaff" (there are two), "the Lightning", "the Curtain".
    return f"{'a' if found.name.endswith('chaff') else 'the'} {found.name}"


def seat_order_from(s: State, first: int) -> list[int]:
    """Every seat in play order, starting with ``first``."""
    seats = s.seats
    index = seats.index(first)
    return seats[index:] + seats[:index]


def _resolve(
    field: list[str], pile: list[str], card: str, capture: str | None
) -> tuple[list[str], list[str], list[str]]:
    """Play ``card`` against the field (§11.2): the new field, the new pile and what it
    took (empty: it was laid on the field). ``capture`` picks one of two matches."""
    month = MONTH[card]
    found = [other for other in field if MONTH[other] == month]
    if not found:
        return [*field, card], pile, found
    if len(found) == 2:
        assert capture is not None
        found = [capture]
    taken = set(found)
    return [other for other in field if other not in taken], [*pile, card, *found], found


# ---------------------------------------------------------------------------- deal


def deal(s: State, dice: Dice) -> list[Event]:
    """Shuffle and deal for ``s.dealer`` (§5), redealing misdeals (§6.1); the Paulownia
    pair (§6.2), the field multiplier (§7.2); then the mizuten offer or what follows it."""
    seats = s.seats
    events: list[Event] = []
    hands, field, draw_pile = _shuffle_and_deal(s, dice, events)
    piles: dict[int, list[str]] = {player: [] for player in seats}
    if "paulownia-bright" in field and "paulownia-chaff" in field:
        field = [card for card in field if MONTH[card] != PAULOWNIA]
        piles[s.dealer] = list(_PAULOWNIA_PAIR)
        events.append(build(PaulowniaPair, player=s.dealer, cards=list(_PAULOWNIA_PAIR)))
    rules = s.rules
    pending_before = s.pending_large
    multiplier, pending = _field_multiplier(rules, field, pending_before)
    _fresh_round(s)
    s.hands = hands
    s.field = field
    s.piles = piles
    s.draw_pile = draw_pile
    s.multiplier = multiplier
    s.pending_large = pending
    s.pending_before_deal = pending_before
    s.acting_dealer = s.dealer
    s.pot_carried = dict(s.pot)
    events.append(
        build(
            Dealt,
            round=s.round,
            dealer=s.dealer,
            field=field,
            multiplier=multiplier,
            pending_large=pending,
            draw_pile=len(draw_pile),
        )
    )
    if rules.mizuten:
        s.phase = "mizuten"
        s.turn = s.dealer
    else:
        events.extend(_after_mizuten(s, dice))
    return events


def _shuffle_and_deal(
    s: State, dice: Dice, events: list[Event]
) -> tuple[dict[int, list[str]], list[str], list[str]]:
    """The hands, the field and the draw pile, from the seat after the dealer, the dealer
    last (§5): 4 each, 3 to the field, 3 each, 3 to the field; a misdeal (four of a month
    on the field, §6.1) is noted in `events` and dealt again."""
    order = seat_order_from(s, s.dealer)
    order = order[1:] + order[:1]  # from the seat after the dealer, the dealer last
    while True:
        deck = dice.shuffle(DECK)
        hands: dict[int, list[str]] = {}
        at = 0
        for player in order:
            hands[player] = deck[at : at + 4]
            at += 4
        field = deck[at : at + 3]
        at += 3
        for player in order:
            hands[player] = hands[player] + deck[at : at + 3]
            at += 3
        field = field + deck[at : at + 3]
        at += 3
        draw_pile = deck[at:]
        month = _four_of_a_month(field)
        if month is None:
            return hands, field, draw_pile
        events.append(
            build(Misdealt, dealer=s.dealer, reason="four_of_a_month", field=field, month=month)
        )


def _field_multiplier(rules: Rules, field: list[str], pending_before: int) -> tuple[int, int]:
    """The round's multiplier from the large brights on the field (§7.2), and the sources
    left pending for later rounds (``carry_over`` mode)."""
    large = _LARGE_FIELD_WITH_OPTION if rules.rain_man_phoenix_make_large_field else _LARGE_FIELD
    brights = sum(1 for card in field if card in large)
    if rules.field_multiplier_mode == "stack":
        return 2**brights, 0
    sources = pending_before + brights
    return (2, sources - 1) if sources >= 1 else (1, 0)


def _fresh_round(s: State) -> None:
    """A new deal's round fields."""
    s.drawn = None
    s.active = []
    s.mizuten_declared = False
    s.answers = {}
    s.forced_out = []
    s.compensation = {}
    s.to_claim = {}
    s.claims_open = False
    s.claim_hands = {}
    s.claims = {}
    s.sage_calls = []
    s.yaku_kan = {}


def _four_of_a_month(field: list[str]) -> int | None:
    counts: dict[int, int] = {}
    for card in field:
        month = MONTH[card]
        counts[month] = counts.get(month, 0) + 1
        if counts[month] == 4:
            return month
    return None


# ----------------------------------------------------------------- before the play


def decide_mizuten(s: State, player: int, declare: bool, dice: Dice, by_deadline: bool) -> Outcome:
    s.mizuten_declared = declare
    events: list[Event] = [
        build(MizutenDecided, player=player, declare=declare, by_deadline=by_deadline)
    ]
    events.extend(_after_mizuten(s, dice))
    return events, None


def _after_mizuten(s: State, dice: Dice) -> list[Event]:
    """Two seated: both play. Three or four: the play-or-drop phase (§8)."""
    if len(s.seats) == 2:
        return _line_up(s, seat_order_from(s, s.dealer), [], dice)
    events: list[Event] = []
    if s.mizuten_declared:
        # A mizuten dealer must play (§7.1): announced for them, no decision to wait for.
        s.answers = {s.dealer: True}
        events.append(build(Participated, player=s.dealer, play=True, auto=True))
    more, end = _ask_next(s, dice)
    assert end is None  # with nobody asked yet, no deal can be decided
    events.extend(more)
    return events


def participate(s: State, player: int, play: bool, dice: Dice, by_deadline: bool) -> Outcome:
    """A play-or-drop answer (§8); a voluntary drop pays into the pot when penalties are on,
    once a counted round: a player whose penalty from an abandoned deal is still in the pot
    drops free in the redeal (ruling: the escrow taken at the start stays the match's
    worst case however many deals are abandoned)."""
    penalty = 0
    if not play and s.rules.dropout_penalties and player not in s.pot:
        dropped = sum(1 for answer in s.answers.values() if not answer)
        ppk = s.rules.points_per_kan
        # 1, 1½, 2 kan; a fourth drop (4 seated, nobody plays) pays 2 kan too (ruling).
        penalty = (ppk, ppk * 3 // 2, 2 * ppk)[min(dropped, 2)] * s.multiplier
        s.pot = {**s.pot, player: s.pot.get(player, 0) + penalty}
    s.answers = {**s.answers, player: play}
    events: list[Event] = [
        build(Participated, player=player, play=play, penalty=penalty, by_deadline=by_deadline)
    ]
    more, end = _ask_next(s, dice)
    events.extend(more)
    return events, end


def _ask_next(s: State, dice: Dice) -> Outcome:
    order = seat_order_from(s, s.dealer)
    answers = s.answers
    plays = [player for player in order if answers.get(player)]
    not_asked = [player for player in order if player not in answers]
    if len(plays) == 2:
        return _line_up(s, plays, not_asked, dice), None
    if s.rules.must_two_play and len(plays) + len(not_asked) == 2:
        auto = [build(Participated, player=player, play=True, auto=True) for player in not_asked]
        s.answers = {**answers, **dict.fromkeys(not_asked, True)}
        active = [player for player in order if player in plays or player in not_asked]
        return [*auto, *_line_up(s, active, [], dice)], None
    if not not_asked:
        if plays:
            return [], End("one_player", plays[0])
        return [], End("nobody_plays")
    s.phase = "participate"
    s.turn = not_asked[0]
    return [], None


def _line_up(s: State, active: list[int], forced_out: list[int], dice: Dice) -> list[Event]:
    """The round's two players (in play order from the dealer: the first is the acting
    dealer, §8 step 7); forced-out players' compensation; idle hands to the draw pile."""
    acting = active[0]
    piles = s.piles
    if acting != s.dealer and piles[s.dealer]:
        # The Paulownia pair goes with the first move (ruling, §8 step 7).
        piles = {**piles, acting: [*piles[acting], *piles[s.dealer]], s.dealer: []}
    compensation: dict[int, int] = {}
    rules = s.rules
    if rules.forced_out_compensation:
        for player in forced_out:
            owed = compensation_points(
                s.hands[player],
                points_per_kan=rules.points_per_kan,
                boar_deer_butterflies=rules.boar_deer_butterflies,
            )
            compensation[player] = owed * s.multiplier
    hands = s.hands
    draw_pile = s.draw_pile
    order = seat_order_from(s, s.dealer)
    # Idle hands go on top of the draw pile from the seat after the dealer round.
    idle = [player for player in [*order[1:], order[0]] if player not in active]
    if idle:
        on_top = [card for player in idle for card in hands[player]]
        draw_pile = on_top + draw_pile
        hands = {player: (cards if player in active else []) for player, cards in hands.items()}
    s.active = active
    s.acting_dealer = acting
    s.forced_out = forced_out
    s.compensation = compensation
    s.piles = piles
    s.hands = hands
    s.draw_pile = draw_pile
    events: list[Event] = []
    if len(s.seats) > 2:
        events.append(
            build(
                LineUp,
                active=active,
                acting_dealer=acting,
                forced_out=forced_out,
                compensation=compensation,
                draw_pile=len(draw_pile),
            )
        )
        if s.rules.shuffle_draw_after_dropouts:
            # The one shuffle besides the deal's (§8 step 8).
            s.draw_pile = dice.shuffle(draw_pile)
    events.extend(begin_claims(s))
    return events


def begin_claims(s: State) -> list[Event]:
    """Teyaku claims (§9): at once with ``auto``. With ``manual`` every active player gets
    the same private claim step, a teyaku in the hand or not (turn 3 ruling), and the
    acting dealer's first turn begins at once: a step may be taken until the dealer's
    first draw, which waits for the steps still untaken (:func:`play_card`)."""
    events: list[Event] = []
    if s.rules.teyaku_claims == "auto":
        claims: dict[int, list[Claim]] = {}
        for player in s.active:
            made = claims[player] = []
            for found in _teyaku_of(s.hands[player]):
                claim = _claim_of(found, None, s.hands[player])
                made.append(claim)
                events.append(build(TeyakuClaimed, player=player, claim=claim))
        s.claims = claims
        _begin_play(s)
        return events
    to_claim: dict[int, list[Literal["A", "B"]]] = {
        player: [found.group for found in _teyaku_of(s.hands[player])] for player in s.active
    }
    s.to_claim = to_claim
    s.claims = {player: [] for player in s.active}
    s.claims_open = True
    s.claim_hands = {player: list(s.hands[player]) for player in s.active}
    _begin_play(s)
    return events


def _teyaku_of(hand: list[str]) -> list[Teyaku]:
    return [found for found in (group_a(hand), group_b(hand)) if found is not None]


def _claim_of(found: Teyaku, month: int | None, hand: list[str]) -> Claim:
    """The record of a claimed teyaku; ``month`` names the triplet (default: the lowest,
    the auto-claim ruling of §10.2). A named Triplet shows that month's three cards."""
    revealed = list(found.revealed)
    claimed_month: int | None = None
    if found.triplet_months:
        claimed_month = found.triplet_months[0] if month is None else month
        if found.name == "Triplet":
            revealed = [card for card in DECK if card in hand and MONTH[card] == claimed_month]
    return build(
        Claim,
        group=found.group,
        name=found.name,
        kan=found.kan,
        revealed=revealed,
        month=claimed_month,
    )


def claim(
    s: State,
    player: int,
    claim: bool,
    group: Literal["A", "B"] | None,
    month: int | None,
    by_deadline: bool,
) -> Outcome:
    """A player's claim step: claim or decline one group (``None``: every undecided
    group; with no teyaku, "nothing to claim"). Only a claim is announced: a decline
    changes nothing anyone else sees (no event), unless it was the last step the
    dealer's first draw waited for, which then happens."""
    groups = s.to_claim[player]
    deciding = list(groups) if group is None else [group]
    hand = s.claim_hands[player]
    made = list(s.claims.get(player, []))
    events: list[Event] = []
    if claim:
        for decided in deciding:
            found = group_a(hand) if decided == "A" else group_b(hand)
            assert found is not None
            record = _claim_of(found, month if decided == "A" else None, hand)
            made.append(record)
            events.append(
                build(TeyakuClaimed, player=player, claim=record, by_deadline=by_deadline)
            )
    left = [other for other in groups if other not in deciding]
    to_claim = {**s.to_claim}
    if left:
        to_claim[player] = left
    else:
        del to_claim[player]
    s.to_claim = to_claim
    s.claims = {**s.claims, player: made}
    if s.phase == "claim":
        if not to_claim:
            return _first_draw(s, events)
        _next_to_claim(s)
    return events, None


def close_claims(s: State) -> Outcome:
    """The dealer's first draw waited for claim steps the deadline (or a moderator's end)
    found untaken: they claim nothing (unclaimed teyaku are void, §9.2; not claiming is
    silent), and the draw happens."""
    return _first_draw(s, [])


def _first_draw(s: State, events: list[Event]) -> Outcome:
    assert s.phase == "claim"
    s.phase = "play"
    s.turn = s.acting_dealer
    return _draw(s, s.acting_dealer, events)


def _begin_play(s: State) -> None:
    bdb = s.rules.boar_deer_butterflies
    s.phase = "play"
    s.turn = s.acting_dealer
    s.yaku_kan = {
        player: dekiyaku_kan(s.piles[player], boar_deer_butterflies=bdb) for player in s.active
    }


# -------------------------------------------------------------------- the matching


def play_card(s: State, player: int, card: str, capture: str | None, by_deadline: bool) -> Outcome:
    """A turn's hand play (§11.3 step 2), then its draw (step 3) unless the drawn card
    waits for a capture choice, then the dekiyaku check. With manual claims open (the
    dealer's first turn), the draw waits for every claim step still untaken (phase
    ``claim``); claims close with it."""
    hand = [other for other in s.hands[player] if other != card]
    field, pile, taken = _resolve(s.field, s.piles[player], card, capture)
    events: list[Event] = [_played(player, card, "hand", taken, by_deadline)]
    s.hands = {**s.hands, player: hand}
    s.field = field
    s.piles = {**s.piles, player: pile}
    if s.claims_open and s.to_claim:
        s.phase = "claim"
        _next_to_claim(s)
        return events, None
    return _draw(s, player, events)


def _next_to_claim(s: State) -> None:
    """While the draw waits, ``turn`` names a player whose claim step is untaken, so
    whoever drives the table by its turn finds a decision. Secret (it tells who is still
    thinking it over): the table shows only that the draw waits."""
    s.turn = next(player for player in s.active if player in s.to_claim)


def _draw(s: State, player: int, events: list[Event]) -> Outcome:
    """The turn's draw (§11.3 step 3); the first one closes manual claims."""
    if s.claims_open:
        s.claims_open = False
        s.to_claim = {}
        s.claim_hands = {}
    field, pile = s.field, s.piles[player]
    draw_pile = s.draw_pile
    top = draw_pile[0]
    choices = matches(field, top)
    if len(choices) == 2:
        s.draw_pile = draw_pile[1:]
        s.drawn = top
        s.phase = "capture_drawn"
        events.append(build(DrawnAwaits, player=player, card=top, choices=choices))
        return events, None
    field, pile, taken = _resolve(field, pile, top, None)
    events.append(_played(player, top, "draw", taken, False))
    s.field = field
    s.piles = {**s.piles, player: pile}
    s.draw_pile = draw_pile[1:]
    return _turn_end(s, player, events)


def capture_drawn(s: State, player: int, capture: str, by_deadline: bool) -> Outcome:
    card = s.drawn
    assert card is not None
    field, pile, taken = _resolve(s.field, s.piles[player], card, capture)
    events: list[Event] = [_played(player, card, "draw", taken, by_deadline)]
    s.field = field
    s.piles = {**s.piles, player: pile}
    s.drawn = None
    return _turn_end(s, player, events)


def _played(
    player: int, card: str, source: Literal["hand", "draw"], taken: list[str], by_deadline: bool
) -> CardPlayed:
    return build(
        CardPlayed,
        player=player,
        card=card,
        source=source,
        captured=taken,
        by_deadline=by_deadline,
    )


def _turn_end(s: State, player: int, events: list[Event]) -> Outcome:
    """The dekiyaku check (§11.3 step 4), then the next turn or exhaustion."""
    pile = s.piles[player]
    total = dekiyaku_kan(pile, boar_deer_butterflies=s.rules.boar_deer_butterflies)
    if total > s.yaku_kan[player]:
        s.yaku_kan = {**s.yaku_kan, player: total}
        s.phase = "call"
        s.turn = player
        found = dekiyaku(pile, boar_deer_butterflies=s.rules.boar_deer_butterflies)
        events.append(build(DekiyakuFormed, player=player, dekiyaku=found, total=total))
        return events, None
    return events, _pass_turn(s, player)


def _pass_turn(s: State, player: int) -> End | None:
    active = s.active
    other = active[1] if active[0] == player else active[0]
    if not s.hands[other] and not s.hands[player]:
        return End("exhaustion")
    s.phase = "play"
    s.turn = other
    return None


def call(s: State, player: int, shoubu: bool, by_deadline: bool) -> Outcome:
    said: Literal["shoubu", "sage"] = "shoubu" if shoubu else "sage"
    events: list[Event] = [build(Called, player=player, call=said, by_deadline=by_deadline)]
    if shoubu:
        return events, End("shoubu", player)
    s.sage_calls = [*s.sage_calls, player]
    return events, _pass_turn(s, player)


def cancel(s: State, player: int, by_deadline: bool) -> Outcome:
    return [build(Called, player=player, call="cancel", by_deadline=by_deadline)], End(
        "cancel", player
    )
