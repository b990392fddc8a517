"""Nihakyu's computer: its survival curves and win chances are exact (against brute force
on small Stamina), its choices are legal in every variant, it ignores the others' secret
choices, and it tries Sleight of Hand only when that pays."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from bot.fairness import FairDice
from bot.games import nihakyu
from bot.games.dice import ScriptedDice
from bot.players import COMPUTER_IDS
from bot.players import nihakyu as player

ME, OTHER, THIRD = COMPUTER_IDS[0], 7007, 8008


@pytest.mark.parametrize("stamina", [1, 2, 5, 21, 30])
def test_survival_is_exact(stamina: int) -> None:
    curve = player.survival(stamina)
    for t in range(min(3, len(curve))):
        # Brute force: every sequence of t d20 rolls.
        standing = sum(
            1 for rolls in itertools.product(range(1, 21), repeat=t) if sum(rolls) < stamina
        )
        assert abs(curve[t] - standing / 20**t) < 1e-12, (stamina, t)


@cache
def roll_race(mine: int, theirs: int) -> float:
    """Both always Roll: the chance the first outlasts the second (same round: ½)."""
    total = 0.0
    for a, b in itertools.product(range(1, 21), repeat=2):
        left, right = mine - a, theirs - b
        if left <= 0 and right <= 0:
            total += 0.5
        elif right <= 0:
            total += 1.0
        elif left > 0:
            total += roll_race(left, right)
    return total / 400


@pytest.mark.parametrize("mine,theirs", [(3, 2), (10, 10), (25, 12), (7, 40)])
def test_win_chances_match_brute_force(mine: int, theirs: int) -> None:
    chances = player.win_chances(mine, [theirs], kage_left=False, shadows_left=0)
    assert chances.keys() == {"roll"}
    assert abs(chances["roll"] - roll_race(mine, theirs)) < 1e-9


def test_a_shadow_step_or_kage_is_taken_when_it_is_the_better_chance() -> None:
    # Far behind, the steady 5 of a Shadow Step beats a d20 (10.5 on average).
    chances = player.win_chances(30, [80], kage_left=True, shadows_left=-1)
    assert player.best_choice(chances) == "shadow_step"
    # With only Kage's Endurance, the lower of two d20 beats one d20 when it counts.
    kage = player.win_chances(12, [12], kage_left=True, shadows_left=0)
    assert kage["kage"] > kage["roll"] and player.best_choice(kage) == "kage"
    assert player.best_choice({"roll": 0.5, "kage": 0.5}) == "roll", "ties keep the variant"


def table(**rules) -> nihakyu.State:
    return nihakyu.start(nihakyu.Rules(ante=0, **rules), [ME, OTHER, THIRD], ScriptedDice())


def test_the_decision_ignores_the_others_secret_choices() -> None:
    state = table(starting_stamina=40, shadow_step=True, kage_endurance=True)
    base = player.decide(state, ME, ScriptedDice())
    for theirs in ("roll", "shadow_step", "kage"):
        hidden = state.model_copy(update={"choices": {OTHER: theirs, THIRD: "roll"}})
        assert player.decide(hidden, ME, ScriptedDice()) == base
    chose = state.model_copy(update={"choices": {ME: "roll"}})
    assert player.decide(chose, ME, ScriptedDice()) is None


def test_kage_is_never_played_with_the_house_s_coins() -> None:
    state = nihakyu.start(
        nihakyu.Rules(ante=10, kage_endurance=True, starting_stamina=12),
        [ME, OTHER],
        ScriptedDice(),
    )
    assert player.decide(state, ME, ScriptedDice()) == nihakyu.Roll()


def test_sleight_odds_are_exact() -> None:
    assert player.sleight_odds(nihakyu.Rules()) == (3 / 20, 0.0)
    assert player.sleight_odds(nihakyu.Rules(sleight_bonus=17, caught_on_natural_one=True)) == (
        19 / 20,
        1 / 20,
    )


RULES = [
    {},
    {"shadow_step": True},
    {"shadow_step": True, "shadow_step_uses": 2, "kage_endurance": True},
    {"shinobi_interference": True},
    {"shinobi_interference": True, "caught_on_natural_one": True, "sleight_bonus": 3},
    {"dealers_blood": True, "kage_endurance": True, "shadow_step": True},
]


@pytest.mark.parametrize("rules", RULES)
def test_computers_at_every_seat_play_legal_games_to_the_end(rules: dict) -> None:
    for game in range(3):
        dice = FairDice(bytes([game, len(rules)]) * 16)
        state = table(starting_stamina=45, **rules)
        sleights = 0
        for _ in range(300):
            if state.finished:
                break
            moved = False
            for seat in state.seats:
                action = player.decide(state, seat, dice)
                if action is None:
                    continue
                assert action in nihakyu.legal_actions(state, seat), (rules, action)
                sleights += isinstance(action, nihakyu.Sleight)
                state, _ = nihakyu.act(state, seat, action, dice)
                moved = True
            if not moved:
                state, _ = nihakyu.act(state, None, nihakyu.Deadline(), dice)
        assert state.finished, rules
        if rules.get("shinobi_interference") and not rules.get("caught_on_natural_one"):
            assert sleights > 0, "a free check with something to gain is always tried"
