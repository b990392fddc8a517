"""Nuki Hachi-hachi's computer, by determinized search.

A decision in play (which card, which capture, the drawn card's capture, sage or shoubu)
is taken by flat Monte Carlo over determinizations:

1. Sample the cards the seat cannot see — the other player's hand and the draw pile —
   consistently with everything it has seen: its own hand, the field, every pile, a
   drawn card, and the cards the other player revealed by claiming a teyaku (still in
   their hand unless played since). Each sample deals the unseen cards at random into
   the other hand (its known size, its revealed cards first) and the draw pile.
2. Play each legal move out in every sample to the round's end with a fast rollout policy
   (both players: take the most card points now; the higher capture; shoubu as soon as a
   dekiyaku grows), on a lean copy of the round (plain lists, the engine's own matching,
   dekiyaku and scoring functions).
3. Score the end with the engine's own ``score_round`` and keep the move with the best
   average net for the seat; the same samples serve every move (common random numbers).

Sage or shoubu is decided the same way: shoubu is scored now; sage is played out.

The work is fixed, not timed (``samples`` worlds per decision), so a decision is
reproducible from its one draw of the table's dice (which seeds a local generator); the
default keeps a decision under 300 ms on one core here (``benchmarks/hachihachi_computer.py``).
The other decisions are rules of thumb: never mizuten (blind play needs more than half the
card points to pay), play the round (3–4 seated) with at least 20 card points in hand or
any teyaku, and claim every teyaku at once.

:func:`greedy_decide` and :func:`random_decide` are the yardsticks of the benchmark.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.games import hachihachi as hh
from bot.games.dice import Dice
from bot.games.hachihachi import match
from bot.games.hachihachi import round as rnd
from bot.games.hachihachi.cards import DECK, points_of
from bot.games.hachihachi.yaku import dekiyaku_kan, group_a, group_b

SAMPLES = 96
"""Worlds sampled per decision: the fixed work that keeps a move under 300 ms here."""
SEED_SIDES = 2**31
PLAY_THRESHOLD = 20
"""Card points in hand (or any teyaku) for which the computer plays a round (3–4 seated)."""

MONTH = rnd.MONTH


@dataclass(slots=True)
class World:
    """One determinized round from the seat's point of view, as lean as it can be."""

    hands: dict[int, list[str]]
    field: list[str]
    draw: list[str]
    piles: dict[int, list[str]]
    yaku: dict[int, int]
    sage: list[int]
    turn: int
    active: tuple[int, int]
    drawn: str | None = None
    ended: tuple[str, int | None] | None = None

    def copy(self) -> World:
        return World(
            {p: list(h) for p, h in self.hands.items()},
            list(self.field),
            list(self.draw),
            {p: list(pile) for p, pile in self.piles.items()},
            dict(self.yaku),
            list(self.sage),
            self.turn,
            self.active,
            self.drawn,
            self.ended,
        )

    def other(self, player: int) -> int:
        first, second = self.active
        return second if player == first else first


# -- what the seat has seen, and a world consistent with it -----------------------------------


def unseen_cards(state: hh.State, seat: int) -> tuple[list[str], list[str]]:
    """(the cards the seat cannot see, those of them revealed in the other's hand)."""
    seen = set(state.hands[seat]) | set(state.field)
    for pile in state.piles.values():
        seen.update(pile)
    if state.drawn is not None:
        seen.add(state.drawn)
    unseen = [card for card in DECK if card not in seen]
    revealed = {
        card
        for player, claims in state.claims.items()
        if player != seat
        for claim in claims
        for card in claim.revealed
    }
    return unseen, [card for card in unseen if card in revealed]


def sample_world(state: hh.State, seat: int, rng: random.Random) -> World:
    """A world the seat cannot tell from the real one."""
    other = next(p for p in state.active if p != seat)
    unseen, known = unseen_cards(state, seat)
    rest = [card for card in unseen if card not in known]
    rng.shuffle(rest)
    need = len(state.hands[other]) - len(known)
    theirs = [*known, *rest[:need]]
    draw = rest[need:]
    assert len(draw) == len(state.draw_pile), "the unseen cards fill the hidden places"
    first, second = state.active
    return World(
        hands={seat: list(state.hands[seat]), other: theirs},
        field=list(state.field),
        draw=draw,
        piles={p: list(state.piles[p]) for p in state.active},
        yaku={p: state.yaku_kan.get(p, 0) for p in state.active},
        sage=list(state.sage_calls),
        turn=state.turn if state.turn is not None else seat,
        active=(first, second),
        drawn=state.drawn,
    )


# -- the lean round ------------------------------------------------------------------------------


def _resolve(world: World, player: int, card: str, capture: str | None) -> None:
    month = MONTH[card]
    found = [other for other in world.field if MONTH[other] == month]
    if not found:
        world.field.append(card)
        return
    if len(found) == 2:
        found = [capture if capture is not None else _best(found)]
    for taken in found:
        world.field.remove(taken)
    world.piles[player].extend([card, *found])


def _best(cards: Sequence[str]) -> str:
    """The capture worth most (the first of equals)."""
    return max(cards, key=points_of)


def _gain(field: Sequence[str], card: str) -> int:
    """Card points a play of ``card`` takes now (nothing when it is laid on the field)."""
    found = [other for other in field if MONTH[other] == MONTH[card]]
    if not found:
        return -points_of(card)  # laid down: what it offers the other side
    if len(found) == 2:
        found = [_best(found)]
    return points_of(card) + sum(points_of(c) for c in found)


Policy = Callable[[World, int, random.Random], tuple[str, str | None]]


def greedy_policy(world: World, player: int, rng: random.Random) -> tuple[str, str | None]:
    """The rollouts' play: the card that takes the most points now (random among equals)."""
    hand = world.hands[player]
    gains = [_gain(world.field, card) for card in hand]
    best = max(gains)
    choices = [card for card, gain in zip(hand, gains, strict=True) if gain == best]
    card = choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]
    return card, None


def play_turn(
    world: World,
    player: int,
    card: str,
    capture: str | None,
    bdb: bool,
    *,
    drawn_capture: str | None = None,
) -> None:
    """A whole turn: the hand card, the draw, the dekiyaku check (shoubu at once in a
    rollout), the next turn or the round's end."""
    world.hands[player].remove(card)
    _resolve(world, player, card, capture)
    top = world.draw.pop(0)
    _resolve(world, player, top, drawn_capture)
    turn_end(world, player, bdb)


def turn_end(world: World, player: int, bdb: bool) -> None:
    total = dekiyaku_kan(world.piles[player], boar_deer_butterflies=bdb)
    if total > world.yaku[player]:
        world.yaku[player] = total
        world.ended = ("shoubu", player)
        return
    pass_turn(world, player)


def pass_turn(world: World, player: int) -> None:
    other = world.other(player)
    if not world.hands[other] and not world.hands[player]:
        world.ended = ("exhaustion", None)
        return
    world.turn = other


def roll_out(world: World, bdb: bool, rng: random.Random) -> None:
    """Play the world to the round's end with the greedy policy on both sides."""
    while world.ended is None:
        player = world.turn
        card, capture = greedy_policy(world, player, rng)
        play_turn(world, player, card, capture, bdb)


def score(state: hh.State, world: World, seat: int) -> int:
    """The seat's net points for the round as the world ended it (the engine's scoring)."""
    assert world.ended is not None
    ended_by, caller = world.ended
    piles = {**state.piles, **world.piles}
    ended = state.model_copy(update={"piles": piles, "sage_calls": world.sage})
    result, _ = match.score_round(ended, ended_by, caller)  # type: ignore[arg-type]
    return result.net[seat]


# -- deciding ----------------------------------------------------------------------------------


def _apply(world: World, seat: int, move: hh.Action, bdb: bool) -> None:
    if isinstance(move, hh.Play):
        play_turn(world, seat, move.card, move.capture, bdb)
    elif isinstance(move, hh.CaptureDrawn):
        assert world.drawn is not None
        _resolve(world, seat, world.drawn, move.capture)
        world.drawn = None
        turn_end(world, seat, bdb)
    elif isinstance(move, hh.Shoubu):
        world.ended = ("shoubu", seat)
    elif isinstance(move, hh.Sage):
        world.sage.append(seat)
        pass_turn(world, seat)
    elif isinstance(move, hh.Cancel):
        world.ended = ("cancel", seat)
    else:  # pragma: no cover - decide() filters the phases searched
        raise ValueError(f"not a move of play: {move!r}")


def estimate(
    state: hh.State,
    seat: int,
    moves: Sequence[hh.Action],
    worlds: Sequence[World],
    rng: random.Random,
) -> list[float]:
    """Each move's average net for the seat over the same sampled worlds."""
    bdb = state.rules.boar_deer_butterflies
    totals = [0.0] * len(moves)
    for world in worlds:
        for index, move in enumerate(moves):
            played = world.copy()
            _apply(played, seat, move, bdb)
            roll_out(played, bdb, rng)
            totals[index] += score(state, played, seat)
    return [total / len(worlds) for total in totals]


SEARCHED = ("play", "capture_drawn", "call")


def decide(state: hh.State, seat: int, dice: Dice, *, samples: int = SAMPLES) -> hh.Action | None:
    """The computer's decision at ``seat``, or ``None`` when none is its to make."""
    moves = hh.legal_actions(state, seat)
    if not moves:
        return None
    if state.phase == "participate":
        return _participate(state, seat, moves)
    if len(moves) == 1 or state.phase not in SEARCHED:
        # Mizuten: no (listed first); claims: claim everything (listed first).
        return moves[0]
    rng = random.Random(dice.roll(SEED_SIDES))
    worlds = [sample_world(state, seat, rng) for _ in range(max(1, samples))]
    values = estimate(state, seat, moves, worlds, rng)
    best = max(values)
    return moves[values.index(best)]


def _participate(state: hh.State, seat: int, moves: list[hh.Action]) -> hh.Action:
    hand = state.hands[seat]
    strong = (
        sum(points_of(card) for card in hand) >= PLAY_THRESHOLD
        or group_a(hand) is not None
        or group_b(hand) is not None
    )
    wanted = next(m for m in moves if isinstance(m, hh.Participate) and m.play == strong)
    return wanted


# -- the yardsticks ------------------------------------------------------------------------------


def greedy_decide(state: hh.State, seat: int, dice: Dice) -> hh.Action | None:
    """'Capture the most points now': the play or capture taking the most card points,
    shoubu at once, claim everything, always play the round, never mizuten."""
    moves = hh.legal_actions(state, seat)
    if not moves:
        return None
    if state.phase == "participate":
        return next(m for m in moves if isinstance(m, hh.Participate) and m.play)
    if state.phase == "call":
        return next(m for m in moves if isinstance(m, hh.Shoubu))
    if state.phase == "play":
        plays = [m for m in moves if isinstance(m, hh.Play)]

        def taken(move: hh.Play) -> int:
            found = rnd.matches(state.field, move.card)
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
