"""Nuki Hachi-hachi's computer, by determinized search.

A decision of play (which hand card and which capture, the drawn card's capture, sage or
shoubu, cancel) is taken by flat Monte Carlo over determinizations:

1. Sample the cards the seat cannot see — the other active player's hand and the draw
   pile — consistently with everything it has seen: its own hand, the field, every score
   pile, a face-up drawn card, the counts of the hidden places, and the cards the other
   player revealed by claiming a teyaku (still in their hand unless played since, when
   they would be seen). Each world deals the unseen cards at random: the revealed ones to
   the other hand, the rest uniformly over the rest of that hand and the draw pile.
   Inferences not made: that an automatic line-up without a claim means the other hand
   was dealt no teyaku, which cards the other player played from the hand rather than
   drew (the state keeps no history), what a player's drop or a forced-out player's
   public compensation says about the idle hands (those cards are in the draw pile).
2. Play every candidate out in every world (common random numbers) to the round's end
   with a fast rollout policy on both sides — the card taking the most card points now
   (laying a card down counts as offering its points), the richer of two captures,
   shoubu as soon as a dekiyaku forms or grows — on a lean round over card indices and
   bit masks (:func:`roll_out`).
3. Score the end exactly as the engine's ``score_round`` does for the seat (teyaku,
   dekiyaku, Sixteen Chaff, card points, Diving, Escape, mizuten, compensation, the
   pot; :func:`net_of`, tested against the engine on random positions; the dekiyaku
   table and the Sixteen Chaff values are read off the engine's own functions), and keep
   the candidate with the best average net points for the seat.

Sage or shoubu is decided the same way: shoubu is scored at once, sage is played out.

The work is fixed, not timed, and the same whatever the hand: every searched decision
does :func:`work_of` its budget (:data:`SAMPLES`), counted in rollouts, a sampled world
costing :data:`WORLD_COST` of one. Every candidate is played once in every sampled world
(common random numbers), and as many worlds are sampled as the work pays for with that
many candidates (:func:`worlds_for`): a hand allowing more moves is searched over fewer
worlds, none sampled in vain. A search is run even when the hand allows one move: so the
work of a decision depends only on the phase, which is public. Its one draw of the table's
dice seeds a local generator, so a decision is reproducible from that draw. The table
service lands the move a fixed time after its decision began
(its ``thinking_seconds`` in ``bot/catalog.py``), chosen above the slowest decision measured
(``benchmarks/hachihachi_computer.py``).

The other decisions are rules of thumb, none of them reading what the seat may not see:

- never mizuten: the dealer decides before seeing the hand (it is not read), and a dealer
  ends a round with 106 card points or more in about 37% of rounds (measured: greedy
  against greedy and this computer against greedy, two seated), while the bonus needs
  more than half to pay with two seated; with 3–4 seated a blind dealer must also play
  whatever the hand;
- play the round (3–4 seated) with at least 20 card points in hand or any teyaku;
- claim every teyaku at once (a claim pays its value whatever the reveal costs).

:func:`greedy_decide` and :func:`random_decide` are the yardsticks of the benchmark.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from bot.games import hachihachi as hh
from bot.games.dice import Dice
from bot.games.hachihachi.cards import CARDS, DECK, MAJORITY, points_of
from bot.games.hachihachi.yaku import dekiyaku_kan, group_a, group_b, sixteen_chaff_kan

SAMPLES = 800
"""A searched decision's work, in rollouts (read at call time): with two candidates, 800
rollouts over 400 worlds. As strong against the greedy player as the 1 600 rollouts over
800 worlds it replaced, at 36% of their CPU: on the same 2 000 deals it won 59.1% of the
rounds against their 58.8% (+0.3% ± 0.7%, paired standard error), with 10.9 ms of CPU a
searched decision against 30.1 ms (issue 36, ``benchmarks/hachihachi_computer.py
--compare``)."""
WORLD_COST = 2
"""What sampling one world costs, in tenths of a rollout (measured: a shuffle of the
unseen cards, 2.7 µs, against a rollout's copy, play-out and scoring, 13 µs): the
exchange rate that keeps a decision's work the same whatever its number of candidates."""
MOST_CANDIDATES = 14
"""The most candidates a searched decision can have: a hand of 7 cards (the deal's most)
whose every card matches exactly two field cards (two captures each). The fixed work is
shared out over at most this many."""
SEED_SIDES = 2**31
PLAY_THRESHOLD = 20
"""Card points in hand (or any teyaku) for which the computer plays a round (3–4 seated)."""

SEARCHED = ("play", "capture_drawn", "call")
"""The phases whose decisions are searched (the others follow the rules of thumb)."""

# -- the cards as small integers -------------------------------------------------------------

INDEX: dict[str, int] = {card: index for index, card in enumerate(DECK)}
_MONTH_NUMBERS = sorted({card.month for card in CARDS.values()})
MONTH_SLOT: list[int] = [_MONTH_NUMBERS.index(CARDS[card].month) for card in DECK]
"""Each card's month as 0..8: the field is kept as one list of cards a month."""
POINTS: list[int] = [points_of(card) for card in DECK]
BIT: list[int] = [1 << index for index in range(len(DECK))]
CHAFF_LIKE: int = sum(BIT[INDEX[card.id]] for card in CARDS.values() if card.chaff_like)
MONTH_MASK: dict[int, int] = {
    month: sum(BIT[INDEX[card.id]] for card in CARDS.values() if card.month == month)
    for month in _MONTH_NUMBERS
}
_YAKU_CARDS = [card.id for card in CARDS.values() if card.category in ("bright", "ribbon")]
YAKU_BIT: list[int] = [1 << _YAKU_CARDS.index(card) if card in _YAKU_CARDS else 0 for card in DECK]
"""A card's bit among the brights and ribbons, the only cards a dekiyaku can need (the
Boar of Boar-Deer-Butterflies is stripped from the deck, so that one never completes)."""
_CHAFF_LIKE_CARDS = [card.id for card in CARDS.values() if card.chaff_like]
SIXTEEN_CHAFF_KAN: list[int] = [
    sixteen_chaff_kan(_CHAFF_LIKE_CARDS[:count]) for count in range(len(_CHAFF_LIKE_CARDS) + 1)
]
"""Sixteen Chaff's value by a pile's count of chaff-like cards (the engine's function)."""


@cache
def dekiyaku_table(boar_deer_butterflies: bool) -> tuple[int, ...]:
    """The dekiyaku total D of every set of brights and ribbons, by :data:`YAKU_BIT`
    mask, as the engine's ``dekiyaku_kan`` counts it."""
    return tuple(
        dekiyaku_kan(
            [card for bit, card in enumerate(_YAKU_CARDS) if mask >> bit & 1],
            boar_deer_butterflies=boar_deer_butterflies,
        )
        for mask in range(1 << len(_YAKU_CARDS))
    )


def _mask_of(cards: Sequence[str], bits: Sequence[int] = BIT) -> int:
    """The cards as a bit mask, each card's bit from ``bits`` (:data:`BIT`, :data:`YAKU_BIT`)."""
    mask = 0
    for card in cards:
        mask |= bits[INDEX[card]]
    return mask


# -- the round as the seat sees it ------------------------------------------------------------

SHOUBU, CANCEL, EXHAUSTION = 0, 1, 2
"""How a lean round ended (the caller of a shoubu or cancel is kept beside it)."""


@dataclass(frozen=True, slots=True)
class Scoring:
    """Everything the round's scoring needs besides the two score piles, from the seat's
    side: slot 0 is the seat, slot 1 the other active player. All of it is public."""

    kan: int
    """Points a kan is worth this round (points per kan × the field multiplier)."""
    multiplier: int
    first_slot: int
    """The acting dealer's slot (a tie on card points is theirs)."""
    fixed: int
    """The seat's net from what play cannot change: teyaku, forced-out compensation."""
    dekiyaku: tuple[int, ...]
    diving: tuple[tuple[int, ...], tuple[int, ...]]
    """Per slot, the month masks of its claimed triplets eligible for Diving."""
    escape: tuple[int, int]
    """Per slot, how many of its claims pay Escape with 106 card points."""
    mizuten_slot: int | None
    mizuten_payers: int
    """How many seated players pay a mizuten dealer's bonus."""
    pot_won: int
    """What the pot pays the seat if it wins the round (the others' penalties)."""
    pot_lost: int
    """The seat's own penalty in the pot, lost to the other if they win."""


@dataclass(slots=True)
class Position:
    """The public part of a round in play from the seat's side, as small integers, and
    what is hidden: the unseen cards, how many the other hand holds, and which of them
    the other player revealed."""

    hands_own: list[int]
    field: list[list[int]]
    masks: list[int]
    points: list[int]
    yaku_masks: list[int]
    yaku: list[int]
    first_sage: int
    """The slot that called sage first this round, or -1."""
    drawn: int | None
    turn: int
    unseen: list[int]
    revealed: list[int]
    other_count: int
    draw_count: int


def position_of(state: hh.State, seat: int) -> Position:
    """What ``seat`` sees of the round in ``state`` (never the other hand or the draw
    pile's order: only their sizes)."""
    other = other_active(state, seat)
    slots = {seat: 0, other: 1}
    seen: set[str] = set(state.hands[seat]) | set(state.field)
    for pile in state.piles.values():
        seen.update(pile)
    if state.drawn is not None:
        seen.add(state.drawn)
    unseen = [INDEX[card] for card in DECK if card not in seen]
    shown = {card for claim in state.claims.get(other, []) for card in claim.revealed}
    field: list[list[int]] = [[] for _ in _MONTH_NUMBERS]
    for card in state.field:
        field[MONTH_SLOT[INDEX[card]]].append(INDEX[card])
    piles = [state.piles[seat], state.piles[other]]
    first_sage = slots[state.sage_calls[0]] if state.sage_calls else -1
    return Position(
        hands_own=[INDEX[card] for card in state.hands[seat]],
        field=field,
        masks=[_mask_of(pile) for pile in piles],
        points=[sum(POINTS[INDEX[card]] for card in pile) for pile in piles],
        yaku_masks=[_mask_of(pile, YAKU_BIT) for pile in piles],
        yaku=[state.yaku_kan.get(seat, 0), state.yaku_kan.get(other, 0)],
        first_sage=first_sage,
        drawn=None if state.drawn is None else INDEX[state.drawn],
        turn=slots.get(state.turn, 0) if state.turn is not None else 0,
        unseen=unseen,
        revealed=[card for card in unseen if DECK[card] in shown],
        other_count=len(state.hands[other]),
        draw_count=len(state.draw_pile),
    )


def other_active(state: hh.State, seat: int) -> int:
    first, second = state.active
    return second if seat == first else first


def scoring_of(state: hh.State, seat: int) -> Scoring:
    """The round's scoring constants from the seat's side (see :class:`Scoring`)."""
    rules = state.rules
    other = other_active(state, seat)
    kan = rules.points_per_kan * state.multiplier
    fixed = 0
    diving: list[tuple[int, ...]] = []
    escape: list[int] = []
    for slot, player in enumerate((seat, other)):
        sign = 1 if slot == 0 else -1
        months: list[int] = []
        escapes = 0
        for claim in state.claims.get(player, []):
            fixed += sign * claim.kan * kan
            dives = rules.diving_eligibility == "triplet_or_haneken" or claim.name == "Triplet"
            if claim.group == "A" and claim.month is not None:
                if dives:
                    months.append(MONTH_MASK[claim.month])
            elif claim.group == "B" and not (
                rules.escape_excludes_one_bright and claim.name == "One Bright"
            ):
                escapes += 1
        diving.append(tuple(months))
        escape.append(escapes)
    if seat == state.active[1]:
        fixed -= sum(state.compensation.values())
    mizuten_slot: int | None = None
    if state.mizuten_declared:
        mizuten_slot = 0 if state.dealer == seat else 1
    return Scoring(
        kan=kan,
        multiplier=state.multiplier,
        first_slot=0 if state.active[0] == seat else 1,
        fixed=fixed,
        dekiyaku=dekiyaku_table(rules.boar_deer_butterflies),
        diving=(diving[0], diving[1]),
        escape=(escape[0], escape[1]),
        mizuten_slot=mizuten_slot,
        mizuten_payers=len(state.seats) - 1,
        pot_won=sum(paid for player, paid in state.pot.items() if player != seat),
        pot_lost=state.pot.get(seat, 0),
    )


def net_of(
    scoring: Scoring,
    ended: int,
    caller: int,
    masks: Sequence[int],
    points: Sequence[int],
    yaku_masks: Sequence[int],
    first_sage: int,
) -> int:
    """The seat's net points for the round as it ended, as ``score_round`` books them
    (``caller``: the slot that called shoubu or cancel).

    Long because: the computer's :func:`search` calls it once per rollout, on bit masks;
    one flat body mirrors ``score_round``'s steps in order without a call per step."""
    table = scoring.dekiyaku
    total_own, total_other = table[yaku_masks[0]], table[yaku_masks[1]]
    kan = scoring.kan
    net = scoring.fixed
    if total_own or total_other:
        if ended == EXHAUSTION:
            if first_sage >= 0:
                winner = first_sage
            else:  # cannot happen in play: a dekiyaku is always followed by a call
                winner = 0 if total_own > total_other else 1
                if total_own == total_other:
                    winner = scoring.first_slot
            net += total_own * kan // 2 - total_other * kan // 2
        else:
            winner = caller
            total = total_own if caller == 0 else total_other
            amount = total * kan if ended == SHOUBU else total * kan // 2
            net += amount if caller == 0 else -amount
    else:
        chaff_own = (masks[0] & CHAFF_LIKE).bit_count()
        chaff_other = (masks[1] & CHAFF_LIKE).bit_count()
        if chaff_own >= 16:
            winner = 0
            net += SIXTEEN_CHAFF_KAN[chaff_own] * kan
        elif chaff_other >= 16:
            winner = 1
            net -= SIXTEEN_CHAFF_KAN[chaff_other] * kan
        else:
            own, theirs = points[0], points[1]
            if own == theirs:
                winner = scoring.first_slot
            else:
                winner = 0 if own > theirs else 1
                net += (own - theirs) * scoring.multiplier
    for month_mask in scoring.diving[0]:
        if masks[0] & month_mask == month_mask:
            net += kan
    for month_mask in scoring.diving[1]:
        if masks[1] & month_mask == month_mask:
            net -= kan
    if points[0] >= MAJORITY:
        net += scoring.escape[0] * kan
    if points[1] >= MAJORITY:
        net -= scoring.escape[1] * kan
    dealer = scoring.mizuten_slot
    if dealer is not None:
        if points[dealer] >= MAJORITY:
            net += kan * scoring.mizuten_payers if dealer == 0 else -kan
        else:
            net += -kan if dealer == 0 else kan
    return net + (scoring.pot_won if winner == 0 else -scoring.pot_lost)


# -- the lean round -----------------------------------------------------------------------------


class Round:
    """One determinized round in play, mutable and cheap to copy: slot 0 is the seat."""

    __slots__ = (
        "caller",
        "draw",
        "ended",
        "field",
        "first_sage",
        "hands",
        "masks",
        "points",
        "table",
        "top",
        "turn",
        "yaku",
        "yaku_masks",
    )

    def __init__(
        self,
        hands: list[list[int]],
        field: list[list[int]],
        draw: list[int],
        masks: list[int],
        points: list[int],
        yaku_masks: list[int],
        yaku: list[int],
        first_sage: int,
        turn: int,
        table: Sequence[int],
    ) -> None:
        self.hands = hands
        self.field = field
        # The draw pile is shared between copies of a world: only the index of its top moves.
        self.draw = draw
        self.top = 0
        self.masks = masks
        self.points = points
        self.yaku_masks = yaku_masks
        self.yaku = yaku
        self.first_sage = first_sage
        self.turn = turn
        self.table = table
        self.ended = -1
        self.caller = -1

    def copy(self) -> Round:
        copied = Round(
            [list(self.hands[0]), list(self.hands[1])],
            [list(cards) for cards in self.field],
            self.draw,
            list(self.masks),
            list(self.points),
            list(self.yaku_masks),
            list(self.yaku),
            self.first_sage,
            self.turn,
            self.table,
        )
        copied.top = self.top
        return copied

    def take(self, slot: int, card: int, capture: int | None) -> None:
        """Play ``card`` against the field for ``slot`` (rules §11.2); ``capture`` picks
        one of two matches (``None``: the one worth more, the first of equals)."""
        same = self.field[MONTH_SLOT[card]]
        if not same:
            same.append(card)
            return
        if len(same) == 2:
            if capture is None:
                capture = same[1] if POINTS[same[1]] > POINTS[same[0]] else same[0]
            same.remove(capture)
            taken = [card, capture]
        else:
            taken = [card, *same]
            same.clear()
        for won in taken:
            self.masks[slot] |= BIT[won]
            self.points[slot] += POINTS[won]
            self.yaku_masks[slot] |= YAKU_BIT[won]

    def play(self, slot: int, card: int, capture: int | None) -> None:
        """A whole turn from the hand card: the draw, then the turn's end."""
        self.hands[slot].remove(card)
        self.take(slot, card, capture)
        self.take(slot, self.draw[self.top], None)
        self.top += 1
        self.turn_end(slot)

    def turn_end(self, slot: int) -> None:
        """The dekiyaku check (a rollout calls shoubu at once), then the next turn."""
        total = self.table[self.yaku_masks[slot]]
        if total > self.yaku[slot]:
            self.yaku[slot] = total
            self.ended, self.caller = SHOUBU, slot
            return
        self.pass_turn(slot)

    def sage(self, slot: int) -> None:
        if self.first_sage < 0:
            self.first_sage = slot
        self.pass_turn(slot)

    def pass_turn(self, slot: int) -> None:
        if not self.hands[0] and not self.hands[1]:
            self.ended = EXHAUSTION
            return
        self.turn = 1 - slot


def policy_card(hand: Sequence[int], field: Sequence[Sequence[int]]) -> int:
    """The rollouts' hand card: the one taking the most card points now (a card laid on
    the field offers its points to the other side); the first of equals."""
    best = hand[0]
    best_gain = -1000
    for card in hand:
        same = field[MONTH_SLOT[card]]
        count = len(same)
        if count == 0:
            gain = -POINTS[card]
        elif count == 2:
            gain = POINTS[card] + max(POINTS[same[0]], POINTS[same[1]])
        else:
            gain = POINTS[card] + sum(POINTS[other] for other in same)
        if gain > best_gain:
            best, best_gain = card, gain
    return best


def roll_out(world: Round) -> None:
    """Play ``world`` to the round's end with the rollout policy on both sides."""
    while world.ended < 0:
        slot = world.turn
        world.play(slot, policy_card(world.hands[slot], world.field), None)


# -- searching --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Search:
    """A searched decision: each candidate's average net points for the seat over the
    same sampled worlds, and the work done (rollouts played, worlds sampled: every
    candidate is played once in every world)."""

    moves: list[hh.Action]
    values: list[float]
    rollouts: int
    worlds: int

    @property
    def best(self) -> hh.Action:
        return self.moves[self.values.index(max(self.values))]


def work_of(samples: int) -> int:
    """A search's work in tenths of a rollout for a budget of ``samples``: ``samples``
    rollouts over half as many worlds (two candidates), at least :data:`MOST_CANDIDATES`
    rollouts so the widest decision plays each candidate once."""
    budget = max(samples, MOST_CANDIDATES)
    return budget // 2 * (20 + WORLD_COST)


def worlds_for(count: int, samples: int) -> int:
    """The worlds a search of ``count`` candidates samples: as many as its work pays for
    when each world plays every candidate (a world costs ``10 * count + WORLD_COST``
    tenths), so the work is the same, within one world's, whatever ``count`` is."""
    return max(1, work_of(samples) // (10 * count + WORLD_COST))


def sample_world(
    position: Position, rest: list[int], rng: random.Random
) -> tuple[list[int], list[int]]:
    """The hidden places of a world the seat cannot tell from the real one (see the module
    notes): the other hand and the draw pile. ``rest``: the unseen cards not revealed (the
    generator shuffles it in place)."""
    rng.shuffle(rest)
    need = position.other_count - len(position.revealed)
    draw = rest[need:]
    if len(draw) != position.draw_count:
        raise AssertionError("the unseen cards must fill the hidden places exactly")
    return [*position.revealed, *rest[:need]], draw


def world_round(
    position: Position, theirs: list[int], draw: list[int], table: Sequence[int]
) -> Round:
    """A fresh copy of a sampled world, for one rollout (the draw pile is shared: a
    rollout only moves its top)."""
    return Round(
        [list(position.hands_own), list(theirs)],
        [list(cards) for cards in position.field],
        draw,
        list(position.masks),
        list(position.points),
        list(position.yaku_masks),
        list(position.yaku),
        position.first_sage,
        position.turn,
        table,
    )


def apply(world: Round, move: hh.Action, drawn: int | None) -> None:
    """The seat's move in a world (slot 0), up to where the rollout takes over."""
    if isinstance(move, hh.Play):
        capture = None if move.capture is None else INDEX[move.capture]
        world.play(0, INDEX[move.card], capture)
    elif isinstance(move, hh.CaptureDrawn):
        assert drawn is not None
        world.take(0, drawn, INDEX[move.capture])
        world.turn_end(0)
    elif isinstance(move, hh.Shoubu):
        world.ended, world.caller = SHOUBU, 0
    elif isinstance(move, hh.Sage):
        world.sage(0)
    elif isinstance(move, hh.Cancel):
        world.ended, world.caller = CANCEL, 0
    else:
        raise ValueError(f"not a move of play: {move!r}")


def search(state: hh.State, seat: int, moves: list[hh.Action], seed: int, samples: int) -> Search:
    """``moves`` played out in worlds sampled from what the seat sees (the generator seeded
    by ``seed``): every move once in each of :func:`worlds_for` worlds, sampled one by one
    as they are played, so the moves share their worlds and none is sampled in vain."""
    count = len(moves)
    if not 1 <= count <= MOST_CANDIDATES:
        raise ValueError(f"a search takes 1 to {MOST_CANDIDATES} moves, not {count}")
    worlds = worlds_for(count, samples)
    rng = random.Random(seed)
    position = position_of(state, seat)
    scoring = scoring_of(state, seat)
    table = scoring.dekiyaku
    rest = [card for card in position.unseen if card not in position.revealed]
    totals = [0] * count
    for _ in range(worlds):
        theirs, draw = sample_world(position, rest, rng)
        for slot, move in enumerate(moves):
            played = world_round(position, theirs, draw, table)
            apply(played, move, position.drawn)
            roll_out(played)
            totals[slot] += net_of(
                scoring,
                played.ended,
                played.caller,
                played.masks,
                played.points,
                played.yaku_masks,
                played.first_sage,
            )
    return Search(list(moves), [total / worlds for total in totals], worlds * count, worlds)


# -- deciding ---------------------------------------------------------------------------------


def decide(
    state: hh.State, seat: int, dice: Dice, *, samples: int | None = None
) -> hh.Action | None:
    """The computer's decision at ``seat``, or ``None`` when none is its to make.

    ``samples``: a searched decision's work, in rollouts (default :data:`SAMPLES`; see
    :func:`work_of`); a searched phase is searched even with one legal move, so its work
    does not tell whether the hand allowed one move or more."""
    moves = hh.legal_actions(state, seat)
    if not moves:
        return None
    steps = [m for m in moves if isinstance(m, hh.ClaimTeyaku)]
    if steps:
        # The claim step first, whatever the hand holds: claim every teyaku at once, or
        # "nothing to claim" (the step, and so its timing, is the same either way).
        return next((m for m in steps if m.claim and m.group is None and m.month is None), steps[0])
    phase = state.phase
    if len(moves) == 1 and phase not in SEARCHED:
        return moves[0]
    if phase == "mizuten":
        # Decided before the dealer sees the hand: the hand is not read.
        return next(m for m in moves if isinstance(m, hh.Mizuten) and not m.declare)
    if phase == "participate":
        return _participate(state, seat, moves)
    if phase not in SEARCHED:
        return moves[0]
    budget = SAMPLES if samples is None else samples
    # Nothing of the search is logged: how its rollouts fell tells the moves the hand allows.
    return search(state, seat, moves, dice.roll(SEED_SIDES), budget).best


def _participate(state: hh.State, seat: int, moves: list[hh.Action]) -> hh.Action:
    hand = state.hands[seat]
    strong = (
        sum(points_of(card) for card in hand) >= PLAY_THRESHOLD
        or group_a(hand) is not None
        or group_b(hand) is not None
    )
    return next(m for m in moves if isinstance(m, hh.Participate) and m.play == strong)


# -- the yardsticks ------------------------------------------------------------------------------


def greedy_decide(state: hh.State, seat: int, dice: Dice) -> hh.Action | None:
    """'Capture the most points now': the play or capture taking the most card points,
    shoubu at once, claim everything, always play the round, never mizuten."""
    moves = hh.legal_actions(state, seat)
    if not moves:
        return None
    steps = [m for m in moves if isinstance(m, hh.ClaimTeyaku)]
    if steps:
        return next((m for m in steps if m.claim and m.group is None and m.month is None), steps[0])
    if state.phase == "participate":
        return next(m for m in moves if isinstance(m, hh.Participate) and m.play)
    if state.phase == "call":
        return next(m for m in moves if isinstance(m, hh.Shoubu))
    if state.phase == "play":
        plays = [m for m in moves if isinstance(m, hh.Play)]

        def taken(move: hh.Play) -> int:
            found = hh.matches(state.field, move.card)
            if not found:
                return -points_of(move.card)
            if len(found) == 2:
                found = [move.capture or found[0]]
            return points_of(move.card) + sum(points_of(c) for c in found)

        return max(plays, key=taken)
    if state.phase == "capture_drawn":
        return max(
            moves, key=lambda m: points_of(m.capture) if isinstance(m, hh.CaptureDrawn) else 0
        )
    return moves[0]


def random_decide(state: hh.State, seat: int, dice: Dice) -> hh.Action | None:
    """A uniformly random legal decision (one roll of the dice)."""
    moves = hh.legal_actions(state, seat)
    if not moves:
        return None
    return moves[dice.roll(len(moves)) - 1]
