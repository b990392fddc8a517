"""Nihakyu's computer: its dice sums and chances are exact (against an independent model in
fractions that enumerates the others' joint Stamina round by round, and against the fully
informed optimum), its Sleight of Hand decision is the exact comparison, it never reads a
secret or draws a die, and computers play legal games to the end in every variant."""

from __future__ import annotations

import itertools
import random
from collections import OrderedDict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.fairness import FairDice
from bot.games import nihakyu
from bot.games.common import COMPUTER_IDS
from bot.games.dice import ScriptedDice
from bot.players import nihakyu as player
from bot.players import nihakyu_exact as exact

ME, OTHER, THIRD = COMPUTER_IDS[0], 7007, 8008
NO_DICE = ScriptedDice()
"""A decision that drew a die would fail on this (nothing is scripted)."""

D20 = range(1, 21)
LOSSES = {
    "roll": {loss: Fraction(1, 20) for loss in D20},
    "shadow_step": {5: Fraction(1)},
    "kage": {loss: Fraction(41 - 2 * loss, 400) for loss in D20},
}


def options(kage: bool, shadows: int) -> list[str]:
    return ["roll"] + ["shadow_step"] * (shadows != 0) + ["kage"] * kage


def after(kage: bool, shadows: int, choice: str) -> tuple[bool, int]:
    if choice == "kage":
        return False, shadows
    if choice == "shadow_step" and shadows > 0:
        return kage, shadows - 1
    return kage, shadows


def tie_share(own_before: int, falling: list[int]) -> Fraction:
    """The computer falls in the same round as every contender in ``falling`` (their
    Stamina before it): the tie rule, sudden death a fair 1 in k."""
    top = max(falling)
    if own_before != top:
        return Fraction(own_before > top)
    return Fraction(1, falling.count(top) + 1)


def others_rolls(standing: tuple[int, ...]):
    """Every joint d20 outcome of the standing others, with its chance."""
    weight = Fraction(1, 20 ** len(standing))
    for rolls in itertools.product(D20, repeat=len(standing)):
        yield tuple(y - d for y, d in zip(standing, rolls, strict=True)), weight


def all_fall(ys: tuple[int, ...]) -> Fraction:
    """The chance that every one of these (standing) contenders falls this round."""
    chance = Fraction(1)
    for y in ys:
        chance *= Fraction(max(0, 21 - max(y, 1)), 20)
    return chance


def model(own: range, others: tuple[int, ...], kage: bool, shadows: int):
    """The module's model computed another way: the others' joint Stamina enumerated round
    by round (given the game goes on), the computer's plan by round, Stamina and layer,
    the tie rule read off the others' Stamina one joint state at a time."""
    going = [{others: Fraction(1)}]  # joint Stamina of those standing, unnormalised
    while True:
        nxt: dict[tuple[int, ...], Fraction] = {}
        for ys, p in going[-1].items():
            for new, w in others_rolls(ys):
                left = tuple(y for y in new if y > 0)
                if left:
                    nxt[left] = nxt.get(left, Fraction(0)) + p * w
        if not nxt:
            break
        going.append(nxt)
    rounds = [
        [(p / sum(joint.values()), all_fall(ys), list(ys)) for ys, p in joint.items()]
        for joint in going
    ]

    @cache
    def value(t: int, c: int, kage: bool, shadows: int) -> Fraction:
        return max(chance(t, c, kage, shadows, o) for o in options(kage, shadows))

    @cache
    def chance(t: int, c: int, kage: bool, shadows: int, choice: str) -> Fraction:
        if t >= len(rounds):
            return Fraction(1)
        result = Fraction(0)
        for loss, q in LOSSES[choice].items():
            for p, fall, ys in rounds[t]:
                if c - loss > 0:
                    later = value(t + 1, c - loss, *after(kage, shadows, choice))
                    result += q * p * (fall + (1 - fall) * later)
                else:
                    result += q * p * fall * tie_share(c, ys)
        return result

    return {c: {o: chance(0, c, kage, shadows, o) for o in options(kage, shadows)} for c in own}


def informed(own: int, others: tuple[int, ...], kage: bool, shadows: int) -> dict[str, Fraction]:
    """The optimum of a computer that plans on the others' Stamina too (an upper bound)."""

    @cache
    def value(c: int, ys: tuple[int, ...], kage: bool, shadows: int) -> Fraction:
        return max(chance(c, ys, kage, shadows, o) for o in options(kage, shadows))

    @cache
    def chance(c: int, ys: tuple[int, ...], kage: bool, shadows: int, choice: str) -> Fraction:
        result = Fraction(0)
        for new, w in others_rolls(ys):
            left = tuple(sorted(y for y in new if y > 0))
            for loss, q in LOSSES[choice].items():
                if c - loss > 0:
                    later = value(c - loss, left, *after(kage, shadows, choice)) if left else 1
                    result += w * q * later
                elif not left:
                    result += w * q * tie_share(c, list(ys))
        return result

    return {o: chance(own, others, kage, shadows, o) for o in options(kage, shadows)}


# -- the brute force: every choice, every die and every check, state by state -----------------

Odds = tuple[float, float] | None


@cache
def collapsed(ys: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], float], ...]:
    """The others' joint Stamina after one roll each (0 for all who fell), with chances."""
    joint: dict[tuple[int, ...], float] = {(): 1.0}
    for y in ys:
        step: dict[tuple[int, ...], float] = {}
        for so_far, p in joint.items():
            for d in D20:
                key = (*so_far, max(0, y - d))
                step[key] = step.get(key, 0.0) + p / 20
        joint = step
    return tuple(joint.items())


@cache
def brute(odds: Odds):
    """``value(c, ys, kage, shadows)`` and ``chance(..., choice)``: the computer's best
    chance of winning against others at ``ys`` who Roll every round, from the definition
    (its choice each round by the whole position; with Shinobi Interference, after seeing
    every die, the check on its own die when it pays)."""

    @cache
    def value(c: int, ys: tuple[int, ...], kage: bool, shadows: int) -> float:
        return max(chance(c, ys, kage, shadows, o) for o in options(kage, shadows))

    @cache
    def chance(c: int, ys: tuple[int, ...], kage: bool, shadows: int, choice: str) -> float:
        later = after(kage, shadows, choice)
        total = 0.0
        for loss, q in LOSSES[choice].items():
            for zs, p in collapsed(ys):
                standing = tuple(sorted(z for z in zs if z > 0))

                def outcome(lost: int, standing: tuple[int, ...] = standing) -> float:
                    if c - lost > 0:
                        return value(c - lost, standing, *later) if standing else 1.0
                    return 0.0 if standing else float(tie_share(c, list(ys)))

                got = outcome(loss)
                if odds is not None and choice != "shadow_step" and loss > 1:
                    passes, caught = odds
                    got = max(got, passes * outcome(loss - 1) + (1 - passes - caught) * got)
                total += float(q) * p * got
        return total

    return value, chance


SWEEP_ODDS: list[Odds] = [None, (3 / 20, 0.0), (19 / 20, 1 / 20), (0.0, 1 / 20)]
"""Without Shinobi Interference; the default check; a bonus of 17 with caught-on-a-1; a
check that cannot pass."""
LAYERS = [(False, 0), (True, 0), (False, player.UNLIMITED), (True, player.UNLIMITED)]
LAYERS += [(False, 1), (True, 2)]
FIELDS = [(1, 14, 14), (1, 26, 5), (2, 7, 7), (2, 24, 3), (3, 4, 4), (3, 22, 2)]
"""Others, the computer's Stamina up to, theirs up to: every state of the box. One other;
past 20, where the programme's running sums drop rows, with the others low; two others
(three players, or two and the Dealer); three."""


def states(others: int, top_c: int, top_y: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    for ys in itertools.combinations_with_replacement(range(1, top_y + 1), others):
        for c in range(1, top_c + 1):
            yield c, ys


def warm(odds: Odds, kage: bool, shadows: int, others: int, top_c: int, top_y: int) -> None:
    """The first decision of a game, at the top of the box: one programme for the rest."""
    player.win_chances(top_c, [top_y] * others, kage_left=kage, shadows_left=shadows, sleight=odds)


@pytest.mark.parametrize("odds", SWEEP_ODDS)
@pytest.mark.parametrize("others,top_c,top_y", FIELDS)
def test_every_chance_is_the_brute_force_optimum_in_every_variant(
    odds: Odds, others: int, top_c: int, top_y: int
) -> None:
    """Every variant and combination, every state of the box: each choice's chance is the
    brute force's to 1e-12, so the choice is the best one."""
    _value, chance = brute(odds)
    for kage, shadows in LAYERS:
        warm(odds, kage, shadows, others, top_c, top_y)
        for c, ys in states(others, top_c, top_y):
            found = player.win_chances(c, ys, kage_left=kage, shadows_left=shadows, sleight=odds)
            assert found.keys() == set(options(kage, shadows))
            for choice, got in found.items():
                want = chance(c, ys, kage, shadows, choice)
                assert abs(got - want) < 1e-12, (odds, kage, shadows, ys, c, choice, got, want)


@pytest.mark.parametrize("odds", SWEEP_ODDS)
@pytest.mark.parametrize("others,top_c,top_y", [f for f in FIELDS if f[0] > 1])
def test_a_run_that_keeps_nothing_gives_the_same_chances(
    odds: Odds, others: int, top_c: int, top_y: int
) -> None:
    """Two others and more at the default Stamina: the programme runs for the position
    asked and keeps nothing (too large to keep). Its chances are the kept table's to the
    last bit, and the brute force's to 1e-12, at every Stamina of every state."""
    _value, chance = brute(odds)
    for kage, shadows in LAYERS:
        layer = (kage, shadows)
        kept = exact.table(others, top_y, top_c, layer, odds)
        for ys in itertools.combinations_with_replacement(range(1, top_y + 1), others):
            cs = range(1, top_c + 1)
            for c, found in zip(cs, exact.probe(cs, ys, layer, odds), strict=True):
                assert found == kept.chances(c, ys, layer), (odds, layer, ys, c)
                for choice, got in found.items():
                    want = chance(c, ys, kage, shadows, choice)
                    assert abs(got - want) < 1e-12, (odds, layer, ys, c, choice, got, want)


def test_the_helper_thread_changes_no_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Half of each step may run on a second core: the same numbers, to the last bit."""
    cs, ys, layer, odds = range(1, 25), (3, 2), (True, 2), (3 / 20, 0.0)
    monkeypatch.setattr(exact, "_HELPER", None)
    alone = exact.probe(cs, ys, layer, odds)
    with ThreadPoolExecutor(1) as helper:
        monkeypatch.setattr(exact, "_HELPER", helper)
        assert exact.probe(cs, ys, layer, odds) == alone


@pytest.mark.parametrize("odds", SWEEP_ODDS[:3])
@pytest.mark.parametrize("others,top_c,top_y", FIELDS)
def test_the_computers_play_gets_the_chance_it_reports(
    odds: Odds, others: int, top_c: int, top_y: int
) -> None:
    """Played out by the brute force, the computer's own choices (and its checks) win
    exactly the chance it reports for its choice."""
    best, _chance = brute(odds)

    @cache
    def played(c: int, ys: tuple[int, ...], kage: bool, shadows: int) -> float:
        reported = player.win_chances(c, ys, kage_left=kage, shadows_left=shadows, sleight=odds)
        choice = player.best_choice(reported)
        later = after(kage, shadows, choice)
        total = 0.0
        for loss, q in LOSSES[choice].items():
            for zs, p in collapsed(ys):
                standing = tuple(sorted(z for z in zs if z > 0))

                def outcome(
                    lost: int, *, plan: bool, standing: tuple[int, ...] = standing
                ) -> float:
                    if c - lost > 0:
                        if not standing:
                            return 1.0
                        args = (c - lost, standing, *later)
                        return best(*args) if plan else played(*args)
                    return 0.0 if standing else float(tie_share(c, list(ys)))

                got = outcome(loss, plan=False)
                if odds is not None and choice != "shadow_step" and loss > 1:
                    passes, caught = odds
                    plain = outcome(loss, plan=True)
                    tried = passes * outcome(loss - 1, plan=True) + (1 - passes - caught) * plain
                    if tried > plain + player.TIE:
                        got = passes * outcome(loss - 1, plan=False) + (1 - passes - caught) * got
                total += float(q) * p * got
        return total

    for kage, shadows in LAYERS:
        warm(odds, kage, shadows, others, top_c, top_y)
        for c, ys in states(others, top_c, top_y):
            reported = player.win_chances(c, ys, kage_left=kage, shadows_left=shadows, sleight=odds)
            got = played(c, ys, kage, shadows)
            assert abs(got - max(reported.values())) < 1e-9, (odds, kage, shadows, ys, c)


@pytest.mark.parametrize("rolls", [0, 1, 2, 3])
def test_dice_sums_are_exact(rolls: int) -> None:
    counts: dict[int, int] = {}
    for faces in itertools.product(D20, repeat=rolls):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    for total in range(0, 20 * rolls + 2):
        assert player.sum_chance(rolls, total) == pytest.approx(
            counts.get(total, 0) / 20**rolls, abs=1e-15
        )
    for stamina in (1, 2, 11, 21, 40):
        below = sum(n for total, n in counts.items() if total < stamina) / 20**rolls
        assert player.standing_chance(stamina, rolls) == pytest.approx(below, abs=1e-15)


MODEL_CASES = [
    (range(1, 13), (7,), False, 0),
    (range(1, 11), (9,), True, player.UNLIMITED),
    (range(3, 10), (6,), True, 2),
    (range(1, 8), (4, 3), True, player.UNLIMITED),
    (range(1, 6), (5, 5), False, 1),
    (range(1, 5), (25,), True, 0),
    (range(1, 13), (9, 8), True, 2),
    (range(4, 9), (7, 4, 2), False, player.UNLIMITED),
]


@pytest.mark.parametrize("own,others,kage,shadows", MODEL_CASES)
def test_every_chance_matches_the_model_computed_in_fractions(
    own: range, others: tuple[int, ...], kage: bool, shadows: int
) -> None:
    exact = model(own, others, kage, shadows)
    found = player.plan(own.start, own.stop - 1, others, kage_left=kage, shadows_left=shadows)
    for c in own:
        assert found.choices[c].keys() == exact[c].keys()
        for choice, chance in exact[c].items():
            assert abs(found.choices[c][choice] - float(chance)) < 1e-12, (c, choice)


@pytest.mark.parametrize(
    "own,others,kage,shadows",
    [(8, (7,), True, player.UNLIMITED), (10, (6,), True, 1), (9, (9,), False, 0)],
)
def test_the_chances_are_the_fully_informed_optimum(
    own: int, others: tuple[int, ...], kage: bool, shadows: int
) -> None:
    """Each choice's chance is the optimum of a computer that decides by the others'
    Stamina too, worked out in fractions (a plan by its own Stamina alone fell short)."""
    exact = informed(own, others, kage, shadows)
    found = player.win_chances(own, others, kage_left=kage, shadows_left=shadows)
    assert found.keys() == exact.keys()
    for choice, chance in found.items():
        assert chance == pytest.approx(float(exact[choice]), abs=1e-12), choice


def test_even_races_are_even_and_ties_keep_the_variants() -> None:
    for stamina in (1, 10, 200):
        even = player.win_chances(stamina, [stamina], kage_left=False, shadows_left=0)
        assert even["roll"] == pytest.approx(0.5, abs=1e-12)
    three = player.win_chances(120, [120, 120], kage_left=False, shadows_left=0)
    assert three["roll"] == pytest.approx(1 / 3, abs=1e-12)
    assert player.best_choice({"roll": 0.5, "shadow_step": 0.5, "kage": 0.5}) == "roll"
    assert player.best_choice({"roll": 0.4, "shadow_step": 0.5, "kage": 0.5}) == "shadow_step"
    assert player.best_choice({"roll": 0.4, "kage": 0.5 + 2 * player.TIE}) == "kage"


@pytest.mark.parametrize(
    "own,others,kage,shadows,expected",
    [
        (30, [80], True, player.UNLIMITED, "shadow_step"),  # far behind: the steady 5
        (12, [12], True, 0, "kage"),  # the lower of two d20 when it counts
        (6, [22], False, player.UNLIMITED, "roll"),  # a Shadow Step to 1 only delays the fall
        (10, [30], False, player.UNLIMITED, "roll"),  # behind: a roll's spread beats the 5
        (200, [200], True, 0, "roll"),  # far from the end Kage gains nothing yet: keep it
    ],
)
def test_the_choice_is_the_best_chance(
    own: int, others: list[int], kage: bool, shadows: int, expected: str
) -> None:
    chances = player.win_chances(own, others, kage_left=kage, shadows_left=shadows)
    assert player.best_choice(chances) == expected
    assert chances[expected] >= max(chances.values()) - player.TIE


def table(players: list[int] | None = None, **rules: object) -> nihakyu.State:
    rules.setdefault("ante", 0)
    return nihakyu.start(nihakyu.Rules(**rules), players or [ME, OTHER, THIRD], NO_DICE)


def test_the_decision_follows_the_chances_of_the_public_position() -> None:
    state = table(starting_stamina=40, shadow_step=True, kage_endurance=True)
    state = state.model_copy(update={"stamina": {ME: 14, OTHER: 9, THIRD: 33}})
    chances = player.win_chances(14, [9, 33], kage_left=True, shadows_left=player.UNLIMITED)
    expected = {"roll": nihakyu.Roll(), "shadow_step": nihakyu.ShadowStep()}
    expected["kage"] = nihakyu.KageEndurance()
    assert player.decide(state, ME, NO_DICE) == expected[player.best_choice(chances)]


DEFAULT = nihakyu.Rules().starting_stamina
UNLIMITED = player.UNLIMITED
CAUGHT = (3 / 20, 1 / 20)
"""The default check, where a natural 1 is caught."""


@pytest.mark.parametrize(
    "kage,shadows,odds",
    [
        (True, UNLIMITED, CAUGHT),  # every variant on, a check that can be caught
        (True, 0, CAUGHT),
        (False, 1, CAUGHT),
        (True, 1, (3 / 20, 0.0)),  # one limited Shadow Step and Kage's Endurance
        (False, 3, (3 / 20, 0.0)),  # three limited Shadow Steps
    ],
)
def test_two_others_at_the_default_stamina_are_exact(
    kage: bool, shadows: int, odds: Odds, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Dealer's Blood table of two, or three players: the first decision of the game
    runs the whole-position programme, never the plan by the computer's own Stamina."""

    def no_plan(*args: object, **kwargs: object) -> object:
        raise AssertionError("fell back to the plan by its own Stamina")

    monkeypatch.setattr(player, "plan", no_plan)
    start = [DEFAULT, DEFAULT]
    assert player.is_exact(DEFAULT, start, kage_left=kage, shadows_left=shadows, sleight=odds)
    chances = player.win_chances(DEFAULT, start, kage_left=kage, shadows_left=shadows, sleight=odds)
    assert chances.keys() == set(options(kage, shadows))
    # Three equal contenders: a third each if all Roll; the choices left only add to it.
    assert 1 / 3 - 1e-12 <= chances["roll"] <= max(chances.values()) <= 1


@pytest.mark.parametrize(
    "others,kage,shadows,odds",
    [
        (2, True, 2, None),  # Kage's Endurance and two limited Shadow Steps
        (2, False, 4, None),
        (2, False, 3, CAUGHT),
        (3, False, 0, None),  # four contenders: 200 ** 4 cells and more
    ],
)
def test_beyond_the_budget_the_plan_by_its_own_stamina_decides(
    others: int, kage: bool, shadows: int, odds: Odds
) -> None:
    start = [DEFAULT] * others
    assert not player.is_exact(DEFAULT, start, kage_left=kage, shadows_left=shadows, sleight=odds)
    plan = player.plan(DEFAULT, DEFAULT, start, kage_left=kage, shadows_left=shadows)
    chances = player.win_chances(DEFAULT, start, kage_left=kage, shadows_left=shadows, sleight=odds)
    assert chances == plan.choices[DEFAULT]


@pytest.mark.parametrize(
    "odds,kage,worse,most,below",
    [
        (None, True, 0, 0.0, 0.0085),
        ((3 / 20, 0.0), False, 1, 0.0011, 0.0071),
        ((3 / 20, 0.0), True, 1, 0.0031, 0.0129),
    ],
)
def test_the_plan_by_its_own_stamina_beside_three_others_is_measured(
    odds: Odds, kage: bool, worse: int, most: float, below: float
) -> None:
    """Where the computer is not exact (three others and more at the default Stamina), how
    far the plan by its own Stamina is from the optimum, over every state at Stamina up to
    12 with unlimited Shadow Steps: in how many states it chooses worse and by how much
    at most, and how far below the optimum the chance it reports lies (never above it).
    The optimum is the programme, equal to the brute force (tests above)."""
    top, layer = 12, (kage, UNLIMITED)
    kept = exact.table(3, top, top, layer, odds)
    gaps, under = [], []
    for c, ys in states(3, top, top):
        best = kept.chances(c, ys, layer)
        planned = player.plan(c, c, ys, kage_left=kage, shadows_left=UNLIMITED).choices[c]
        gaps.append(max(best.values()) - best[player.best_choice(planned)])
        under.append(max(best.values()) - max(planned.values()))
    assert len(gaps) == 4368
    assert sum(gap > player.TIE for gap in gaps) == worse
    assert max(gaps) < most + 1e-12
    assert min(under) > -1e-12 and max(under) < below


def test_the_decision_s_work_reads_only_the_public_position(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The programme a decision runs (and so the time it takes) is the same whatever the
    others have secretly chosen: a Dealer's Blood table of two at the default Stamina."""
    runs: list[tuple[object, ...]] = []
    for name in ("chances", "table", "probe"):
        real = getattr(exact, name)

        def spy(*args: object, _real: Any = real, _name: str = name) -> object:
            runs.append((_name, *args))
            return _real(*args)

        monkeypatch.setattr(exact, name, spy)
    state = table(
        [ME, OTHER], dealers_blood=True, kage_endurance=True, shadow_step=True,
        shinobi_interference=True,
    )  # fmt: skip
    state = state.model_copy(update={"stamina": {ME: 180, OTHER: 171, nihakyu.DEALER: 166}})
    decisions, work = [], []
    for theirs in ({}, {OTHER: "roll"}, {OTHER: "shadow_step"}, {OTHER: "kage"}):
        runs.clear()
        monkeypatch.setattr(exact, "_ANSWERS", OrderedDict())  # each runs it anew
        hidden = state.model_copy(update={"choices": theirs})
        decisions.append(player.decide(hidden, ME, NO_DICE))
        work.append(list(runs))
    assert [run[0] for run in work[0]] == ["chances", "probe"], "the exact programme"
    assert all(runs == work[0] for runs in work), work
    assert len(set(map(repr, decisions))) == 1


CHOICES = st.sampled_from(["roll", "shadow_step", "kage"])


@settings(max_examples=40, deadline=None)
@given(
    staminas=st.tuples(*[st.integers(1, 60)] * 3),
    theirs=st.tuples(CHOICES, CHOICES),
    variants=st.tuples(st.booleans(), st.booleans(), st.booleans()),
)
def test_the_others_secret_choices_never_change_the_decision(
    staminas: tuple[int, int, int],
    theirs: tuple[str, str],
    variants: tuple[bool, bool, bool],
) -> None:
    shadow, kage, dealer = variants
    state = table(shadow_step=shadow, kage_endurance=kage, dealers_blood=dealer)
    stamina = dict(zip([ME, OTHER, THIRD], staminas, strict=True))
    if dealer:
        stamina[nihakyu.DEALER] = 50
    state = state.model_copy(update={"stamina": stamina})
    base = player.decide(state, ME, NO_DICE)
    assert base in nihakyu.legal_actions(state, ME)
    hidden = state.model_copy(update={"choices": {OTHER: theirs[0], THIRD: theirs[1]}})
    assert player.decide(hidden, ME, ScriptedDice()) == base
    chose = state.model_copy(update={"choices": {ME: "roll", OTHER: theirs[0]}})
    assert player.decide(chose, ME, NO_DICE) is None, "it has chosen this round"


def sleight_window(
    stamina: dict[int, int], rolls: dict[int, list[int]], **rules: object
) -> nihakyu.State:
    """A round revealed with these dice and the Sleight of Hand window open."""
    players = [p for p in stamina if p != nihakyu.DEALER]
    state = table(players, shinobi_interference=True, **rules)
    state = state.model_copy(update={"stamina": stamina})
    dice = ScriptedDice([d for p in players for d in rolls[p]] + rolls.get(nihakyu.DEALER, []))
    for p in players:
        choice = nihakyu.KageEndurance() if len(rolls[p]) == 2 else nihakyu.Roll()
        if not rolls[p]:
            choice = nihakyu.ShadowStep()
        state, _ = nihakyu.act(state, p, choice, dice)
    assert state.phase == "sleight"
    return state


def exact_sleight(state: nihakyu.State, seat: int) -> tuple[float, float]:
    """Skip and try, worked out by the brute force (two players, small Stamina)."""
    (other,) = [p for p in state.rolls if p != seat]
    own, theirs = state.stamina[seat], state.stamina[other] - min(state.rolls[other])
    loss = min(state.rolls[seat])
    odds = player.sleight_odds(state.rules)
    value = brute(odds)[0]

    def chance(left: int) -> float:
        if left <= 0:
            return float(tie_share(own, [state.stamina[other]])) if theirs <= 0 else 0.0
        if theirs <= 0:
            return 1.0
        return value(left, (theirs,), False, 0)

    passes, caught = odds
    plain = chance(own - loss)
    if loss == 1:
        return plain, plain  # a die shows 1 at least: the check cannot lower it
    return plain, passes * chance(own - loss + 1) + (1 - passes - caught) * plain


@pytest.mark.parametrize(
    "own,other,mine,theirs,rules",
    [
        (9, 6, 9, 3, {}),  # 9 - 9 = 0 falls; a pass leaves 1 Stamina
        (9, 8, 9, 8, {}),  # both fall: 9 > 8 before the round wins anyway
        (14, 12, 4, 5, {}),  # the race goes on: one point more is worth a little
        (14, 12, 4, 5, {"caught_on_natural_one": True}),  # ... not a 1-in-20 ejection
        (5, 12, 5, 2, {"caught_on_natural_one": True, "sleight_bonus": 10}),
        (10, 30, 1, 7, {}),  # a 1 cannot go lower
    ],
)
def test_sleight_of_hand_is_tried_exactly_when_it_pays(
    own: int, other: int, mine: int, theirs: int, rules: dict[str, object]
) -> None:
    state = sleight_window({ME: own, OTHER: other}, {ME: [mine], OTHER: [theirs]}, **rules)
    plain, tried = player.sleight_chances(state, ME)
    exact_plain, exact_tried = exact_sleight(state, ME)
    assert plain == pytest.approx(exact_plain, abs=1e-12)
    assert tried == pytest.approx(exact_tried, abs=1e-12)
    decision = player.decide(state, ME, NO_DICE)
    assert decision == (
        nihakyu.Sleight(adjust=-1)
        if exact_tried > exact_plain + player.TIE
        else nihakyu.SkipSleight()
    )
    assert decision in nihakyu.legal_actions(state, ME)
    # The other's own Sleight decision is secret: it changes nothing.
    decided = state.model_copy(update={"sleights": {OTHER: -1}})
    assert player.decide(decided, ME, ScriptedDice()) == decision


def test_sleight_of_hand_beside_the_dealer() -> None:
    # The computer falls to 0 unless the check passes; the other player falls too, the
    # Dealer stands at 1: a pass leaves the two at 1, to fall together (sudden death).
    state = sleight_window(
        {ME: 9, OTHER: 4, nihakyu.DEALER: 5},
        {ME: [9], OTHER: [6], nihakyu.DEALER: [4]},
        dealers_blood=True,
    )
    plain, tried = player.sleight_chances(state, ME)
    exact = brute(player.sleight_odds(state.rules))[0](1, (1,), False, 0)
    assert plain == 0, "it falls with the Dealer standing"
    assert exact == pytest.approx(0.5, abs=1e-15)
    assert tried == pytest.approx(3 / 20 * exact, abs=1e-12)
    assert player.decide(state, ME, NO_DICE) == nihakyu.Sleight(adjust=-1)


def test_sleight_odds_are_exact() -> None:
    assert player.sleight_odds(nihakyu.Rules()) == (3 / 20, 0.0)
    assert player.sleight_odds(nihakyu.Rules(sleight_bonus=-3)) == (0.0, 0.0)
    assert player.sleight_odds(nihakyu.Rules(sleight_bonus=17, caught_on_natural_one=True)) == (
        19 / 20,
        1 / 20,
    )


def test_kage_is_never_played_with_the_house_s_coins() -> None:
    state = table([ME, OTHER], ante=10, kage_endurance=True, starting_stamina=12)
    with_ante = player.decide(state, ME, NO_DICE)
    free = player.decide(table([ME, OTHER], kage_endurance=True, starting_stamina=12), ME, NO_DICE)
    assert free == nihakyu.KageEndurance(), "at ante 0 the better chance is taken"
    assert with_ante == nihakyu.Roll()


def test_nothing_to_do_is_none() -> None:
    state = table(starting_stamina=30)
    assert player.decide(state, 99, NO_DICE) is None, "not seated"
    out = state.model_copy(update={"stamina": {ME: 0, OTHER: 30, THIRD: 30}, "eliminated": [ME]})
    assert player.decide(out, ME, NO_DICE) is None, "out of the game"
    over = state.model_copy(update={"finished": True, "phase": "finished"})
    assert player.decide(over, ME, NO_DICE) is None


RULES = [
    {},
    {"shadow_step": True},
    {"shadow_step": True, "shadow_step_uses": 2, "kage_endurance": True},
    {"shinobi_interference": True},
    {"shinobi_interference": True, "caught_on_natural_one": True, "sleight_bonus": 3},
    {"dealers_blood": True, "kage_endurance": True, "shadow_step": True},
    {"dealers_blood": True, "shinobi_interference": True, "shadow_step": True},
]


def play(state: nihakyu.State, dice: FairDice, members: dict[int, random.Random]):
    """Play to the end: computers decide, members pick a legal action at random (or let
    the deadline act). Yields every computer action with the state it was taken in."""
    for _ in range(500):
        if state.finished:
            return
        moved = False
        for seat in state.seats:
            if state.finished:
                break
            if seat in members:
                legal = nihakyu.legal_actions(state, seat)
                if not legal or members[seat].random() < 0.2:
                    continue
                action = members[seat].choice(legal)
            else:
                action = player.decide(state, seat, dice)
                if action is None:
                    continue
                yield state, seat, action
            state, _ = nihakyu.act(state, seat, action, dice)
            moved = True
        if not moved and not state.finished:
            state, _ = nihakyu.act(state, None, nihakyu.Deadline(), dice)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("rules", RULES)
def test_computers_play_legal_games_to_the_end(rules: dict[str, object]) -> None:
    sleights = 0
    for game in range(2):
        dice = FairDice(bytes([game, len(rules)]) * 16)
        state = table(starting_stamina=60, **rules)
        members = {THIRD: random.Random(game)} if game else {}
        for before, seat, action in play(state, dice, members):
            assert action in nihakyu.legal_actions(before, seat), (rules, action)
            sleights += isinstance(action, nihakyu.Sleight)
    if rules.get("shinobi_interference") and not rules.get("caught_on_natural_one"):
        assert sleights > 0, "a free check with something to gain is tried"
