"""Nuki Hachi-hachi: the match — the first dealer, a round's scoring and booking, dealers,
running scores in points and coins, the escrow bound, the carry-over extension, forfeit
and abort. (The round's play is :mod:`bot.games.hachihachi.round`.)

The escrow bound (what ``hold`` takes and ``stakes`` keeps)
-----------------------------------------------------------
A player's loss in one round, in points before the multiplier, is at most ``B``:

* teyaku against them: the opponent's best Group A plus best Group B, at most
  Four-Three 20 + One Bright 4 = **24 kan** (their own teyaku only gain);
* the main scoring, one case of §13: Case D pays at most a shoubu's full dekiyaku total,
  at most Five Brights 12 + Seven Ribbons 10 + Poetry 7 + Blue 7 = **36 kan** (a cancel
  or an exhaustion pays at most half); Case S at most 12 + 2 × 3 = 18 kan (19 chaff-like
  cards); Case C at most the 211-point difference. So ``max(36 kan, 211 points)``;
* special achievements, 1 kan each: the opponent's Diving and Escape, and the mizuten
  payment (their own failed mizuten, or the opponent's bonus): **3 kan**;
* with 3–4 seated, the non-dealer active player also pays each forced-out player's
  compensation (``forced_out_compensation``; at most ``seats - 2`` of them). One
  compensation is at most ``C = 14.5 kan + 21 points``: a Four-Three hand holds two months
  (no dekiyaku, all 7 cards revealed: (a) <= 12 kan, (b) = (c) = 0); all seven ribbons
  give (a) = 1 kan (Red), (b) = 12 kan, (c) = 0; any other hand has (a) <= (8 + 4) / 2 =
  6 kan, (b) <= 8.5 kan (within 7 cards: Four Brights and one ribbon set), (c) <= 7 × 3
  points. A player who sits a round out loses at most a dropout penalty (2 kan, the
  third drop) and a mizuten bonus (1 kan), less than an active player's bound;
* with 3–4 seated and ``dropout_penalties``, a dropout penalty (at most **2 kan**) paid in
  a deal that was then abandoned (nobody played, §8 step 6) stays in the pot while the
  redeal is played: an active player of the redeal may lose it on top. A player pays at
  most one penalty a counted round (a payer whose penalty is still in the pot drops free
  in the redeal: our ruling), so however many deals are abandoned this is one 2 kan.

So ``B = 24 + 36 + 3 kan (= 63 kan) [+ 2 kan] [+ (seats - 2) × C]`` in points (``max(36
kan, 211)`` is 36 kan at 10 or 12 points a kan). Every payment of a round is multiplied by
its multiplier, at most ``M`` = 2 with carry-over, ``2**3`` stacking (``2**5`` when the
Rain Man and the Phoenix count too). Coins are points × ``stake_per_kan /
points_per_kan``, made whole from the running score after every round (largest
remainder), which moves a payout by less than one coin from its exact value. A round
then moves a player's payout by at most ``ceil(X) + 1`` coins, ``X = B × M ×
stake_per_kan / points_per_kan``: ``worst_case(rules, 1)``.

Escrow a round at a time (issue 27): ``hold(rules)`` and every ``stakes[p]`` while the
match runs are that one round's worst case, whatever ``rounds`` is. A scored round's
loss is paid out of it, and the loser's wallet puts the loss back before the next round
is dealt (the service's top-up, :func:`top_up`; a stake, so self-exclusion and loss
limits apply). When a wallet cannot, the table sends :class:`Uncovered` for that player
before the scoring action is applied again: the round is scored from what is held and
the match ends after it (a match never asks a wallet for a debt). Defaults: ``B = 630``
points, ``M = 2``: ``126 + 1 = 127`` coins at 1 coin a kan (it was 12 rounds' worth,
1,524, before).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from bot.games.common import HOUSE, Honour, Ranking, ranked_alone
from bot.games.dice import Dice
from bot.games.errors import IllegalMove
from bot.games.hachihachi.cards import CARDS, DECK, MAJORITY
from bot.games.hachihachi.models import (
    Aborted,
    CannotCover,
    Claim,
    EndedBy,
    Event,
    Line,
    LineKind,
    MatchOver,
    Misdealt,
    RoundResult,
    RoundScored,
    Rules,
    ScoringCase,
    State,
)
from bot.games.hachihachi.round import MONTH, End, deal
from bot.games.hachihachi.yaku import card_points, chaff_like_count, dekiyaku, sixteen_chaff_kan
from bot.games.kit import build

_MONTH_CARDS: dict[int, int] = {}
for _card in CARDS.values():
    _MONTH_CARDS[_card.month] = _MONTH_CARDS.get(_card.month, 0) + 1

# ---------------------------------------------------------------------- the bound

TEYAKU_MAX_KAN = 24
DEKIYAKU_MAX_KAN = 36
SPECIALS_MAX_KAN = 3
DROPOUT_MAX_KAN = 2


def compensation_bound(rules: Rules) -> int:
    """The most one forced-out player's compensation can be, in points before the
    multiplier (see the module notes): 14.5 kan + 21 points."""
    return 29 * rules.points_per_kan // 2 + 21


def round_bound(rules: Rules, seats: int | None = None) -> int:
    """``B``: the most a player can lose in one round, points before the multiplier."""
    ppk = rules.points_per_kan
    seated = rules.seated_players if seats is None else seats
    bound = TEYAKU_MAX_KAN * ppk + max(DEKIYAKU_MAX_KAN * ppk, 211) + SPECIALS_MAX_KAN * ppk
    if seated > 2 and rules.forced_out_compensation:
        bound += (seated - 2) * compensation_bound(rules)
    return bound + dropout_allowance(rules, seated)


def dropout_allowance(rules: Rules, seats: int | None = None) -> int:
    """The part of ``B`` for a penalty carried over from an abandoned deal (points before
    the multiplier): 2 kan with 3–4 seated and ``dropout_penalties``, else 0."""
    seated = rules.seated_players if seats is None else seats
    return DROPOUT_MAX_KAN * rules.points_per_kan if seated > 2 and rules.dropout_penalties else 0


def max_multiplier(rules: Rules) -> int:
    if rules.field_multiplier_mode == "carry_over":
        return 2
    return 2 ** (5 if rules.rain_man_phoenix_make_large_field else 3)


def max_rounds(rules: Rules) -> int:
    """Counted rounds a match can last (the carry-over extension at most doubles it)."""
    return rules.rounds * (2 if rules.extend_game_for_carryover else 1)


def worst_case(rules: Rules, rounds_left: int, seats: int | None = None) -> int:
    """Coins a player can lose over ``rounds_left`` more rounds (module notes)."""
    if rounds_left <= 0 or rules.stake_per_kan == 0:
        return 0
    points = round_bound(rules, seats) * max_multiplier(rules)
    return rounds_left * (-(-points * rules.stake_per_kan // rules.points_per_kan) + 1)


def hold(rules: Rules) -> int:
    """Coins each player puts in escrow on sitting down: one round's worst case (each
    round's is put back before it is dealt, module notes)."""
    return worst_case(rules, 1)


def affordable_rounds(rules: Rules, balance: int) -> int:
    """The longest match (``rounds``, up to the rules' own) whose escrow ``balance`` covers
    with these rules otherwise; 0 when not even one round fits. The escrow is one round's
    at any length, so this is ``rules.rounds`` or 0."""
    return rules.rounds if hold(rules) <= balance else 0


def affordable_stake(rules: Rules, balance: int) -> int:
    """The largest ``stake_per_kan`` whose escrow (:func:`hold`) ``balance`` covers with
    these rules otherwise (0 always fits: no coins). The hold is ``ceil(P × spk / ppk) +
    1`` for ``P`` the round's bound in points times the multiplier, so it fits exactly
    when ``spk <= (balance - 1) × ppk / P``."""
    if balance <= 1:
        return 0
    points = round_bound(rules) * max_multiplier(rules)
    return min((balance - 1) * rules.points_per_kan // points, 1_000_000)


def refresh_stakes(s: State) -> None:
    """The round in play's worst case for every seat; 0 once the match is over."""
    if s.finished:
        s.stakes = dict.fromkeys(s.seats, 0)
        return
    s.stakes = dict.fromkeys(s.seats, worst_case(s.rules, 1, len(s.seats)))


def top_up(before: State, after: State, player: int) -> int:
    """Coins ``player``'s wallet puts into escrow between ``before`` and ``after``: what a
    scored round took from their stake, put back to cover the next round (0 once the match
    is over: then the escrow only pays out)."""
    if after.finished or player not in after.stakes:
        return 0
    was = before.payouts.get(player, 0) - before.stakes.get(player, 0)
    now = after.payouts.get(player, 0) - after.stakes.get(player, 0)
    return max(0, was - now)


def coins(scores: dict[int, int], seats: list[int], rules: Rules) -> dict[int, int]:
    """Running points as whole coins summing to 0 (largest remainder, ties in seat
    order), the house's key included (always 0)."""
    spk, ppk = rules.stake_per_kan, rules.points_per_kan
    exact = {p: scores[p] * spk for p in seats}
    whole = {p: value // ppk for p, value in exact.items()}
    left = -sum(whole.values())
    order = sorted(seats, key=lambda p: -(exact[p] % ppk))
    for p in order[:left]:
        whole[p] += 1
    return {HOUSE: 0, **whole}


# ------------------------------------------------------------------- a round's scoring


def score_round(
    s: State, ended_by: EndedBy, caller: int | None
) -> tuple[RoundResult, list[Honour]]:
    """Score the round in ``s`` as it ended (§13–§15): every payment as a :class:`Line`
    in points with the multiplier applied, the winner, and the honours earned.

    Reads ``active`` (acting dealer first), ``piles``, ``claims``, ``sage_calls``,
    ``multiplier``, ``mizuten_declared``, ``compensation`` and ``pot``; ``caller`` is who
    called shoubu or cancel, or the one player who played (``one_player``). The steps, in
    the order their lines are paid: teyaku, the main scoring, special achievements,
    forced-out compensation, the pot."""
    sc = _Scoring(s)
    if ended_by == "one_player":
        assert caller is not None
        winner = caller
        case: ScoringCase = "none"
    else:
        sc.pay_teyaku()
        case, winner = sc.main_scoring(ended_by, caller)
        sc.pay_achievements()
        sc.pay_mizuten()
        sc.pay_compensation()
    sc.pay_pot(winner)
    result = RoundResult(
        round=s.round,
        dealer=s.dealer,
        acting_dealer=s.acting_dealer,
        active=list(s.active),
        multiplier=s.multiplier,
        ended_by=ended_by,
        caller=caller if ended_by in ("shoubu", "cancel") else None,
        case=case,
        winner=winner,
        card_points=sc.points,
        dekiyaku=sc.found,
        chaff_like=sc.chaff,
        lines=sc.lines,
        net=sc.net(),
    )
    return result, sc.honours


class _Scoring:
    """One round's scoring under way: the lines paid and honours earned so far, and what
    the piles of the two active players hold (empty when only one player played)."""

    def __init__(self, s: State) -> None:
        self.s = s
        self.rules = s.rules
        self.m = s.multiplier
        self.kan = s.rules.points_per_kan * s.multiplier  # one kan, multiplied
        self.lines: list[Line] = []
        self.honours: list[Honour] = []
        self.found: dict[int, list[tuple[str, int]]] = {}
        self.points: dict[int, int] = {}
        self.chaff: dict[int, int] = {}
        self.other: dict[int, int] = {}
        self.totals: dict[int, int] = {}

    def pay(self, kind: LineKind, payer: int, payee: int, points: int, detail: str = "") -> None:
        if points and payer != payee:
            self.lines.append(
                Line(kind=kind, payer=payer, payee=payee, points=points, detail=detail)
            )

    def _read_piles(self) -> None:
        s = self.s
        first, second = s.active
        self.other = {first: second, second: first}
        bdb = self.rules.boar_deer_butterflies
        self.found = {p: dekiyaku(s.piles[p], boar_deer_butterflies=bdb) for p in s.active}
        self.totals = {p: sum(kan for _, kan in self.found[p]) for p in s.active}
        self.points = {p: card_points(s.piles[p]) for p in s.active}
        self.chaff = {p: chaff_like_count(s.piles[p]) for p in s.active}

    def pay_teyaku(self) -> None:
        """1. teyaku (reads the piles first: every later step needs them)."""
        self._read_piles()
        ppk_m = self.rules.points_per_kan * self.m
        for p in self.s.active:
            for made in self.s.claims.get(p, []):
                self.pay("teyaku", self.other[p], p, made.kan * ppk_m, made.name)
                if made.name == "Four-Three":
                    self.honours.append(Honour(player=p, name="Four-Three"))

    def main_scoring(self, ended_by: EndedBy, caller: int | None) -> tuple[ScoringCase, int]:
        """2. the main scoring: one case of §13; returns the case and the winner."""
        first, second = self.s.active
        if self.totals[first] or self.totals[second]:
            return "D", self._case_dekiyaku(ended_by, caller)
        if self.chaff[first] >= 16 or self.chaff[second] >= 16:
            return "S", self._case_sixteen_chaff()
        return "C", self._case_card_points()

    def _case_dekiyaku(self, ended_by: EndedBy, caller: int | None) -> int:
        first = self.s.active[0]
        totals, other, kan = self.totals, self.other, self.kan
        if ended_by in ("shoubu", "cancel"):
            assert caller is not None
            winner = caller
            amount = totals[caller] * kan
            if ended_by != "shoubu":
                amount //= 2
            self.pay("dekiyaku", other[caller], caller, amount, ended_by)
            scorers = [caller]
        else:
            s = self.s
            winner = s.sage_calls[0] if s.sage_calls else _higher(totals, first)
            for p in s.active:
                self.pay("dekiyaku", other[p], p, totals[p] * kan // 2, "exhaustion")
            scorers = [p for p in s.active if totals[p]]
        for p in scorers:
            names = {name for name, _ in self.found[p]}
            for name in ("Five Brights", "Seven Ribbons"):
                if name in names:
                    self.honours.append(Honour(player=p, name=name))
        return winner

    def _case_sixteen_chaff(self) -> int:
        first, second = self.s.active
        chaff = self.chaff
        winner = first if chaff[first] >= 16 else second
        kan = sixteen_chaff_kan(self.s.piles[winner])
        self.pay(
            "sixteen_chaff", self.other[winner], winner, kan * self.kan, f"{chaff[winner]} chaff"
        )
        self.honours.append(Honour(player=winner, name="Sixteen Chaff"))
        return winner

    def _case_card_points(self) -> int:
        first, second = self.s.active
        points = self.points
        if points[first] == points[second]:
            return first  # the (acting) dealer wins a tie, nothing paid (§13.1)
        winner = first if points[first] > points[second] else second
        loser = self.other[winner]
        self.pay("card_points", loser, winner, (points[winner] - points[loser]) * self.m)
        return winner

    def pay_achievements(self) -> None:
        """3. special achievements (1 kan each): Diving and Escape."""
        s, rules = self.s, self.rules
        for p in s.active:
            for made in s.claims.get(p, []):
                if made.group == "A" and made.month is not None and _dives(rules, made):
                    held = sum(1 for card in s.piles[p] if MONTH[card] == made.month)
                    if held == _MONTH_CARDS[made.month]:
                        self.pay("diving", self.other[p], p, self.kan, CARDS_MONTH_NAME[made.month])
                elif (
                    made.group == "B"
                    and self.points[p] >= MAJORITY
                    and not (rules.escape_excludes_one_bright and made.name == "One Bright")
                ):
                    self.pay("escape", self.other[p], p, self.kan, made.name)

    def pay_mizuten(self) -> None:
        """3. (still 1 kan) the mizuten bonus or penalty, when the dealer declared it."""
        s = self.s
        if not s.mizuten_declared:
            return
        dealer = s.dealer
        if card_points(s.piles[dealer]) >= MAJORITY:
            for p in s.seats:
                self.pay("mizuten", p, dealer, self.kan, "bonus")
        else:
            self.pay("mizuten", dealer, self.other[dealer], self.kan, "penalty")

    def pay_compensation(self) -> None:
        """4. forced-out compensation, from the non-dealer active player."""
        second = self.s.active[1]
        for p, owed in self.s.compensation.items():
            self.pay("compensation", second, p, owed)

    def pay_pot(self, winner: int) -> None:
        """5. the pot goes to the winner."""
        for p, paid in self.s.pot.items():
            self.pay("dropout", p, winner, paid, "pot")

    def net(self) -> dict[int, int]:
        net = dict.fromkeys(self.s.seats, 0)
        for line in self.lines:
            net[line.payee] += line.points
            net[line.payer] -= line.points
        return net


CARDS_MONTH_NAME: dict[int, str] = {card.month: card.month_name for card in CARDS.values()}


def _dives(rules: Rules, made: Claim) -> bool:
    return rules.diving_eligibility == "triplet_or_haneken" or made.name == "Triplet"


def _higher(totals: dict[int, int], first: int) -> int:
    """Exhaustion with dekiyaku but no sage (cannot happen in play): the larger total,
    the acting dealer on a tie."""
    best = max(totals.values())
    return first if totals[first] == best else next(p for p in totals if totals[p] == best)


# -------------------------------------------------------------------- the match


def first_dealer(rules: Rules, seats: list[int], dice: Dice) -> tuple[int, list[dict[int, str]]]:
    """§4: each seat draws a card from a shuffle (index 0 in seat order); the earliest
    month deals, the higher card of that month on a tie; still tied, those seats draw
    again from a new shuffle. ``first_seat``: seat 0, no shuffle."""
    if rules.first_dealer == "first_seat":
        return seats[0], []
    draws: list[dict[int, str]] = []
    drawing = list(seats)
    while True:
        deck = dice.shuffle(DECK)
        drawn = {p: deck[index] for index, p in enumerate(drawing)}
        draws.append(drawn)
        best = min((CARDS[c].month, -CARDS[c].rank) for c in drawn.values())
        tied = [p for p in drawing if (CARDS[drawn[p]].month, -CARDS[drawn[p]].rank) == best]
        if len(tied) == 1:
            return tied[0], draws
        drawing = tied


def new_match(rules: Rules, players: list[int], dice: Dice) -> State:
    if not 2 <= len(players) <= 4:
        raise IllegalMove("A Nuki Hachi-hachi table seats 2 to 4 players.")
    if len(set(players)) != len(players):
        raise IllegalMove("Each player can take only one seat.")
    if HOUSE in players:
        raise IllegalMove("That player id is reserved for the house.")
    dealer, draws = first_dealer(rules, players, dice)
    s = State(
        rules=rules,
        seats=list(players),
        dealer=dealer,
        acting_dealer=dealer,
        phase="mizuten",
        turn=dealer,
        hands={p: [] for p in players},
        field=[],
        piles={p: [] for p in players},
        draw_pile=[],
        scores=dict.fromkeys(players, 0),
        payouts={HOUSE: 0, **dict.fromkeys(players, 0)},
        stakes=dict.fromkeys(players, 0),
        idle=dict.fromkeys(players, 0),
        dealer_draws=draws,
    )
    deal(s, dice)
    refresh_stakes(s)
    return s


def uncovered(s: State, player: int) -> list[Event]:
    """The table's note that ``player`` cannot cover another round: the match ends when the
    round in play is scored (from what the escrow holds)."""
    s.uncovered = [*s.uncovered, player]
    return [build(CannotCover, player=player)]


def _ending(s: State) -> Literal["aborted", "forfeit"]:
    return "aborted" if s.aborted else "forfeit"


def end_round(s: State, end: End, dice: Dice) -> list[Event]:
    """Book a finished round and deal the next (or end the match); a deal nobody plays is
    redealt by the same dealer (§8 step 6)."""
    if end.kind == "nobody_plays":
        events: list[Event] = [
            build(Misdealt, dealer=s.dealer, reason="nobody_plays", field=list(s.field))
        ]
        s.pending_large = s.pending_before_deal
        if s.forfeited or s.aborted:
            # Nobody is left to play the round out: the match ends (ruling); the pot,
            # which no later round will win, goes back to those who paid into it.
            s.pot = {}
            events.extend(finish(s, _ending(s)))
            return events
        events.extend(deal(s, dice))
        refresh_stakes(s)
        return events
    result, honours = score_round(s, end.kind, end.caller)
    scores = {p: s.scores[p] + result.net[p] for p in s.seats}
    winner = result.winner
    assert winner is not None
    s.scores = scores
    s.payouts = coins(scores, s.seats, s.rules)
    s.pot = {}
    s.pot_carried = {}
    s.rounds_played += 1
    s.last_round = result
    s.dealer = winner
    events = [*honours, build(RoundScored, result=result, scores=scores, payouts=s.payouts)]
    if s.forfeited or s.aborted:
        events.extend(finish(s, _ending(s)))
        return events
    if s.uncovered:
        events.extend(finish(s, "uncovered"))
        return events
    rules = s.rules
    played = s.rounds_played
    more = played < rules.rounds or (
        rules.extend_game_for_carryover and s.pending_large > 0 and played < max_rounds(rules)
    )
    if not more:
        events.extend(finish(s, "rounds"))
        return events
    s.round = played + 1
    events.extend(deal(s, dice))
    refresh_stakes(s)
    return events


def finish(s: State, reason: Literal["rounds", "forfeit", "aborted", "uncovered"]) -> list[Event]:
    best = max(s.scores.values())
    winners = [p for p in s.seats if s.scores[p] == best]
    s.finished = True
    s.phase = "over"
    s.turn = None
    s.drawn = None
    s.winners = winners
    s.pot = {}
    refresh_stakes(s)
    return [
        build(
            MatchOver,
            reason=reason,
            winners=winners,
            scores=dict(s.scores),
            payouts=dict(s.payouts),
        )
    ]


def ranking(state: State, events: Sequence[Mapping[str, Any]] = ()) -> Ranking | None:
    """How a finished match placed its players, for skill ratings (``None``: a moderator
    ended it): by the match's final points, equal points tied; a player who forfeited
    (left the match to the table's deadlines) below every player who did not."""
    if not state.finished or state.aborted:
        return None
    return ranked_alone({p: (int(p not in state.forfeited), state.scores[p]) for p in state.seats})


def abort(s: State, by: int | None) -> list[Event]:
    """A moderator ends the match: from now on the table makes every decision of the
    round in play (the engine plays it out at once), and the match ends when it is
    scored. Settled rounds stand."""
    s.aborted = True
    return [build(Aborted, by=by, round=s.round)]
