"""Nuki Hachi-hachi (抜き八八): the two-player hanafuda fishing game of the 34-card
stripped deck, 2–4 seated, as a pure engine.

The authority is ``shared/rules/nuki-hachi-hachi.md`` (its "Ruling:" lines settle the
sources' gaps); the player rules are ``bot/rules_text/hachihachi.md``. Rulings of ours:

- Seats: ``start(rules, players, dice)`` seats ``len(players)`` (2–4) in the order given;
  ``rules.seated_players`` is the lobby's size (``seat_limits(rules) == (n, n)``).
- First dealer: ``first_dealer="draw"`` draws as §4, one ``dice.shuffle(DECK)`` per draw,
  the seats drawing from index 0 in seat order; tied seats redraw from a new shuffle in
  the same way. ``"first_seat"``: seat 0 deals, no shuffle. ``dealer_draws`` keeps them.
- Chance: one ``dice.shuffle(DECK)`` per deal (a misdeal's or a nobody-plays redeal is
  another deal); with 3–4 seated and ``shuffle_draw_after_dropouts``, one more
  ``dice.shuffle`` of the 14-card draw pile right after the play-or-drop phase. Nothing
  else is random. The deal is the canonical one of §5 (from the seat after the dealer,
  4 each, 3 to the field, 3 each, 3 to the field); hands keep the dealt order, the draw
  pile's index 0 is its top. Idle hands go on top of the draw pile in seat order from the
  seat after the dealer before that shuffle.
- Phases (``phase``, ``turn`` is who decides): ``mizuten`` (the dealer, before seeing the
  hand; skipped when the option is off), ``participate`` (3–4 seated, dealer first; a
  mizuten dealer's "play" is announced for them), ``play``, ``claim`` (manual claims
  only: the acting dealer's first draw waits for claim steps still untaken; ``turn``
  then names one of those players, a secret the table does not show), ``capture_drawn``
  (the face-up drawn card, ``drawn``, matches two field cards), ``call`` (sage or shoubu
  after a turn raised the player's dekiyaku total), ``over``. Auto claims happen at the
  line-up, a triplet month the lowest.
- Manual claims (turn 3 ruling, §9): from the line-up until the acting dealer's first
  draw (``claims_open``) every active player has one private claim step, nobody's turn,
  teyaku or not (``to_claim``: the groups, empty for "nothing to claim"): ``ClaimTeyaku``
  per group or for all, naming a triplet's month when there are two, on the hand as
  dealt (``claim_hands``). A claim is announced; a decline makes no event and leaves
  ``ply`` alone, so nothing anyone else sees changes. The dealer's first turn starts at
  once; its draw waits (phase ``claim``) for the steps still untaken, and closes claims.
- A Play's ``capture`` is required exactly when two field cards match; with one or three
  it may be omitted or name one of them (all are taken anyway).
- Deadlines: the decision in wait is played as the FIRST of ``legal_actions``: mizuten
  no; drop; a claim step claims nothing (legal_actions lists it after the turn's own
  moves; at the waiting draw the deadline closes every untaken step at once, counting no
  one idle); a turn plays the hand's first card with its first capture
  (cancel is never first); the drawn card takes the first match in field order; call:
  shoubu. Each counts as idle for its player (any own action resets the count);
  ``afk_rounds_to_forfeit`` in a row forfeit: the rest of the round in play is played at
  once with the same defaults for the forfeiter (the others still act), the round is
  scored as played and the match ends; settled totals stand. If a forfeiter's deal is
  abandoned because nobody plays, the match ends at once (no round is left to play out)
  and the pot goes back to those who paid into it.
- Money: ``scores`` are running points; a round's every payment is booked when it is
  scored. ``payouts`` are coins, recomputed from the
  scores after every round: points × ``stake_per_kan`` / ``points_per_kan``, whole by
  largest remainder (ties in seat order), summing to 0 with the house's 0.
  ``hold(rules)`` and ``stakes``: one round's worst case, see
  :mod:`bot.games.hachihachi.match` (the proof of the per-round bound). A scored round's
  loss is put back from the wallet before the next (``top_up``); a wallet that cannot
  makes the table send :class:`Uncovered` (``shortfall``) and the match ends after that
  round (``MatchOver.reason == "uncovered"``). Dropout penalties wait in ``pot`` (points)
  until a round is scored, which pays them to its winner; penalties of an abandoned deal
  (§8 step 6) stay in the pot, and their payers drop free in the redeal (one penalty a
  counted round).
- ``extend_game_for_carryover``: extra rounds while ``pending_large > 0``, at most
  ``rounds`` extra (so the escrow is bounded).
- The Paulownia pair goes to the acting dealer when the dealer drops out (§8 step 7).
  Step 5 (one player plays): that player wins and deals next; only the pot is paid.
- Honours (``kind="honour"``): "Five Brights" and "Seven Ribbons" to a player paid for
  them, "Four-Three" when claimed, "Sixteen Chaff" when scored.
- :class:`Abort` (a moderator not seated): settled rounds stand; the round in play is
  played out at once by the table's defaults for everyone and scored as played (voiding
  it would let a moderator undo a seated friend's loss on the cards), then the match
  ends (``MatchOver.reason == "aborted"``); stakes 0.
- ``ply`` moves by one on every accepted action but a silent claim step (a forfeiter's
  auto-played decisions happen inside the action that made them due).

The package: ``cards`` (the deck), ``yaku`` (the scoring helpers), ``models`` (rules,
actions, events, state), ``round`` (the deal to the round's end), ``match`` (a round's
scoring, rounds, money, escrow),
``engine`` (checks, legal moves, :data:`ENGINE`). Everything public is re-exported here.
"""

from __future__ import annotations

from bot.games.common import Abort, Deadline, Honour
from bot.games.hachihachi.cards import (
    CARD_POINTS_TOTAL,
    CARDS,
    DECK,
    MAJORITY,
    MONTHS,
    PAULOWNIA,
    WILLOW,
    Card,
    Month,
    month_of,
    points_of,
)
from bot.games.hachihachi.engine import (
    ENGINE,
    PERMISSIONS,
    RULEBOOK,
    HachihachiEngine,
    act,
    deadline_seconds,
    hold,
    legal_actions,
    parse_action,
    parse_event,
    seat_limits,
    shortfall,
    start,
    top_up,
)
from bot.games.hachihachi.match import (
    affordable_rounds,
    affordable_stake,
    coins,
    compensation_bound,
    max_multiplier,
    max_rounds,
    ranking,
    round_bound,
    score_round,
    worst_case,
)
from bot.games.hachihachi.models import (
    ACTIONS,
    Aborted,
    Action,
    Called,
    Cancel,
    CannotCover,
    CaptureDrawn,
    CardPlayed,
    Claim,
    ClaimTeyaku,
    Dealt,
    DekiyakuFormed,
    DrawnAwaits,
    EndedBy,
    Event,
    Forfeited,
    Line,
    LineKind,
    LineUp,
    MatchOver,
    Misdealt,
    Mizuten,
    MizutenDecided,
    Participate,
    Participated,
    PaulowniaPair,
    Phase,
    Play,
    RoundResult,
    RoundScored,
    Rules,
    Sage,
    ScoringCase,
    Shoubu,
    State,
    TeyakuClaimed,
    TeyakuDeclined,
    Uncovered,
)
from bot.games.hachihachi.round import card_name, matches
from bot.games.hachihachi.yaku import (
    Teyaku,
    card_points,
    chaff_like_count,
    compensation_points,
    dekiyaku,
    dekiyaku_kan,
    group_a,
    group_b,
    sixteen_chaff_kan,
    teyaku,
)

__all__ = [
    "ACTIONS",
    "CARDS",
    "CARD_POINTS_TOTAL",
    "DECK",
    "ENGINE",
    "MAJORITY",
    "MONTHS",
    "PAULOWNIA",
    "PERMISSIONS",
    "RULEBOOK",
    "WILLOW",
    "Abort",
    "Aborted",
    "Action",
    "Called",
    "Cancel",
    "CannotCover",
    "CaptureDrawn",
    "Card",
    "CardPlayed",
    "Claim",
    "ClaimTeyaku",
    "Deadline",
    "Dealt",
    "DekiyakuFormed",
    "DrawnAwaits",
    "EndedBy",
    "Event",
    "Forfeited",
    "HachihachiEngine",
    "Honour",
    "Line",
    "LineKind",
    "LineUp",
    "MatchOver",
    "Misdealt",
    "Mizuten",
    "MizutenDecided",
    "Month",
    "Participate",
    "Participated",
    "PaulowniaPair",
    "Phase",
    "Play",
    "RoundResult",
    "RoundScored",
    "Rules",
    "Sage",
    "ScoringCase",
    "Shoubu",
    "State",
    "Teyaku",
    "TeyakuClaimed",
    "TeyakuDeclined",
    "Uncovered",
    "act",
    "affordable_rounds",
    "affordable_stake",
    "card_name",
    "card_points",
    "chaff_like_count",
    "coins",
    "compensation_bound",
    "compensation_points",
    "deadline_seconds",
    "dekiyaku",
    "dekiyaku_kan",
    "group_a",
    "group_b",
    "hold",
    "legal_actions",
    "matches",
    "max_multiplier",
    "max_rounds",
    "month_of",
    "parse_action",
    "parse_event",
    "points_of",
    "ranking",
    "round_bound",
    "score_round",
    "seat_limits",
    "shortfall",
    "sixteen_chaff_kan",
    "start",
    "teyaku",
    "top_up",
    "worst_case",
]
