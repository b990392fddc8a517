"""Nihakyu's computer: each choice by the exact chance of being the last one standing,
worked out by dynamic programming over Stamina.

The model (its choices are secret and simultaneous, so the others' cannot be seen): every
other contender — each standing player and, with Dealer's Blood, the Dealer — Rolls
every round, as the Dealer must and as the deadline does for an absent player. A
contender's fall is then a race of d20 losses with an exact distribution (``survival``),
the contenders fall independently of the computer, and the computer wins when it
outlasts them all; falling in the same round as the last of them counts as half a win
(the tie rule looks at the Stamina before that round, which the model does not follow).

:func:`win_chances` is the dynamic programme: rounds from now by the computer's own
Stamina and what it has left (Kage's Endurance, Shadow Steps), each choice's exact loss
distribution (Roll: one d20; Shadow Step: 5; Kage's Endurance: the lower of two d20), and
the chance the last contender falls in that round. The computer takes the choice with the
best chance (ties: Roll, then Shadow Step, then Kage's Endurance, keeping the variants
for later). In the Sleight of Hand window it knows every die of the round, so it tries
the check (−1 on its own die) when the exact chance of passing it (and, under
``caught_on_natural_one``, of not rolling a natural 1) raises its chance to win.

Kage's Endurance costs a second ante, which for the computer would be the house bank's:
it plays it only at a table without an ante (the only Nihakyu table the computer sits at).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from bot.games import nihakyu
from bot.games.dice import Dice

SIDES = 20
SHADOW_LOSS = nihakyu.SHADOW_STEP_COST
FADE = 1e-13
"""Rounds past the point where every contender has fallen but this much are not played."""

_ROLL = tuple((loss, 1 / SIDES) for loss in range(1, SIDES + 1))
_KAGE = tuple(
    (loss, ((SIDES + 1 - loss) ** 2 - (SIDES - loss) ** 2) / SIDES**2)
    for loss in range(1, SIDES + 1)
)
_SHADOW = ((SHADOW_LOSS, 1.0),)
LOSSES: dict[str, tuple[tuple[int, float], ...]] = {
    "roll": _ROLL,
    "shadow_step": _SHADOW,
    "kage": _KAGE,
}
PREFERENCE = ("roll", "shadow_step", "kage")


@cache
def survival(stamina: int) -> tuple[float, ...]:
    """``survival(x)[t]``: the exact chance a contender with ``x`` Stamina who Rolls every
    round is still standing after ``t`` more rounds (until it is below :data:`FADE`)."""
    if stamina <= 0:
        return (0.0,)
    chances = [1.0]
    t = 1
    while True:
        # Standing after t rounds: the first roll leaves x - l > 0, then t - 1 more.
        standing = sum(
            _ROLL[0][1] * _at(survival(stamina - loss), t - 1)
            for loss in range(1, SIDES + 1)
            if stamina - loss > 0
        )
        if standing < FADE:
            break
        chances.append(standing)
        t += 1
    return tuple(chances)


def _at(chances: Sequence[float], t: int) -> float:
    return chances[t] if t < len(chances) else 0.0


def all_fallen_by(contenders: Sequence[int]) -> list[float]:
    """``P(every contender has fallen after t rounds)`` for t = 0, 1, ... (to the end)."""
    curves = [survival(x) for x in contenders]
    horizon = max((len(c) for c in curves), default=1)
    result = []
    for t in range(horizon + 1):
        product = 1.0
        for curve in curves:
            product *= 1.0 - _at(curve, t)
        result.append(product)
    return result


Key = tuple[int, bool, int]
"""The computer's Stamina, whether Kage's Endurance is left, Shadow Steps left (−1: any)."""


def win_chances(
    stamina: int,
    contenders: Sequence[int],
    *,
    kage_left: bool,
    shadows_left: int,
) -> dict[str, float]:
    """Each choice open now and the exact chance (under the model) it leads to a win.
    ``shadows_left`` is −1 for unlimited, 0 when Shadow Step is not played or used up."""
    fallen = all_fallen_by(contenders)
    horizon = len(fallen) - 1
    memo: dict[tuple[int, Key], float] = {}

    def options(key: Key) -> list[str]:
        _, kage, shadows = key
        return [
            choice
            for choice in PREFERENCE
            if choice == "roll"
            or (choice == "shadow_step" and shadows != 0)
            or (choice == "kage" and kage)
        ]

    def after(key: Key, choice: str, loss: int) -> Key:
        own, kage, shadows = key
        if choice == "kage":
            kage = False
        if choice == "shadow_step" and shadows > 0:
            shadows -= 1
        return own - loss, kage, shadows

    def chance_of(t: int, key: Key, choice: str) -> float:
        """Round t + 1 played with ``choice``, given nobody had won after t rounds."""
        still = 1.0 - fallen[t]
        last_fall = (fallen[t + 1] - fallen[t]) / still if still > 0 else 1.0
        total = 0.0
        for loss, p in LOSSES[choice]:
            nxt = after(key, choice, loss)
            if nxt[0] <= 0:
                total += p * last_fall * 0.5
            else:
                total += p * (last_fall + (1.0 - last_fall) * value(t + 1, nxt))
        return total

    def value(t: int, key: Key) -> float:
        if t >= horizon:
            return 1.0  # every contender has fallen (to within FADE)
        cached = memo.get((t, key))
        if cached is None:
            cached = max(chance_of(t, key, choice) for choice in options(key))
            memo[(t, key)] = cached
        return cached

    start: Key = (stamina, kage_left, shadows_left)
    if not contenders:
        return dict.fromkeys(options(start), 1.0)
    return {choice: chance_of(0, start, choice) for choice in options(start)}


def best_choice(chances: dict[str, float]) -> str:
    """The best chance; on a tie the earliest of :data:`PREFERENCE` (keep the variants)."""
    best = max(chances.values())
    return next(c for c in PREFERENCE if c in chances and chances[c] >= best - 1e-12)


# -- what the seat may see --------------------------------------------------------------------


def _contenders(state: nihakyu.State, seat: int) -> list[int]:
    """The other standing contenders' Stamina (the Dealer's too), all public."""
    return [
        stamina
        for player, stamina in state.stamina.items()
        if player != seat and stamina > 0 and player not in state.eliminated
    ]


def _shadows_left(state: nihakyu.State, seat: int) -> int:
    rules = state.rules
    if not rules.shadow_step:
        return 0
    if rules.shadow_step_uses is None:
        return -1
    return max(0, rules.shadow_step_uses - state.shadow_steps.get(seat, 0))


def _kage_left(state: nihakyu.State, seat: int) -> bool:
    rules = state.rules
    return rules.kage_endurance and rules.ante == 0 and seat not in state.kage_used


def decide(state: nihakyu.State, seat: int, dice: Dice) -> nihakyu.Action | None:
    """The computer's choice for the round, or its Sleight of Hand decision."""
    if state.finished or seat not in state.seats or seat in state.eliminated:
        return None
    own = state.stamina.get(seat, 0)
    if own <= 0:
        return None
    if state.phase == "choosing":
        if seat in state.choices:
            return None
        chances = win_chances(
            own,
            _contenders(state, seat),
            kage_left=_kage_left(state, seat),
            shadows_left=_shadows_left(state, seat),
        )
        choice = best_choice(chances)
        if choice == "shadow_step":
            return nihakyu.ShadowStep()
        if choice == "kage":
            return nihakyu.KageEndurance()
        return nihakyu.Roll()
    if state.phase == "sleight" and seat in state.sleight_players and seat not in state.sleights:
        return nihakyu.Sleight(adjust=-1) if _sleight_pays(state, seat) else nihakyu.SkipSleight()
    return None


def sleight_odds(rules: nihakyu.Rules) -> tuple[float, float]:
    """The exact chances that a Sleight of Hand check passes, and that it is caught."""
    caught = 1 if rules.caught_on_natural_one else 0
    passes = sum(
        1
        for face in range(1, SIDES + 1)
        if face + rules.sleight_bonus >= nihakyu.SLEIGHT_DC and not (caught and face == 1)
    )
    return passes / SIDES, caught / SIDES


def _sleight_pays(state: nihakyu.State, seat: int) -> bool:
    """Whether trying the check (−1 on its own die) raises the computer's chance to win,
    every die of the round being known: the others' Stamina after the round (before their
    own checks) and the computer's with and without the point."""
    loss = min(state.rolls[seat])
    if loss <= 1:
        return False  # a die cannot go below 1: nothing to gain
    passes, caught = sleight_odds(state.rules)
    if passes == 0:
        return False
    own = state.stamina[seat]
    others = [
        state.stamina[p] - (min(shown) if shown else SHADOW_LOSS)
        for p, shown in state.rolls.items()
        if p != seat and state.stamina.get(p, 0) > 0
    ]
    standing = [x for x in others if x > 0]
    kage = _kage_left(state, seat) and state.choices.get(seat) != "kage"
    shadows = _shadows_left(state, seat)

    def win_from(left: int) -> float:
        if left <= 0:
            return 0.5 if not standing else 0.0
        if not standing:
            return 1.0
        return max(win_chances(left, standing, kage_left=kage, shadows_left=shadows).values())

    plain = win_from(own - loss)
    tried = passes * win_from(own - loss + 1) + (1 - passes - caught) * plain
    return tried > plain + 1e-12
