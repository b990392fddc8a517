"""Fortunes and Winds' exact odds against an independent count.

The engine's dynamic programme works on face *classes* (element, Wind, blank) and kept
counts. These tests count the real faces instead: every face of every die from the rules
file's table (written out here, not imported), every subset of dice a shooter could set
aside, and combinations recognised by the face names. Everything is compared exactly, as
fractions.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from functools import cache

import pytest

from bot.games import fortunes_winds as fw
from bot.games.dice import ScriptedDice
from bot.games.fortunes_winds import odds

# The rules file's table, independently of the engine.
TABLE: dict[str, list[str]] = {
    "earth": ["Earth", "Earth", "Earth", "North", "North", "Rice"],
    "water": ["Water", "Water", "Water", "East", "East", "Fish"],
    "fire": ["Fire", "Fire", "Fire", "West", "West", "Tree"],
    "air": ["Air", "Air", "Air", "South", "South", "Bird"],
    "moon": ["Void", "Void", "Fortunes", "Fortunes", "Sun", "Moon"],
}
WHITES = ("earth", "water", "fire", "air")
WINDS = {"North", "East", "West", "South"}
ELEMENTS = {"Earth", "Water", "Fire", "Air"}
NAMED = {
    ("winds", "Fortunes"): ("fortunes_and_winds", 4),
    ("winds", "Sun"): ("ladys_breath", 4),
    ("winds", "Void"): ("empty_winds", 2),
    ("elements", "Void"): ("shinseis_blessing", 2),
    ("elements", "Sun"): ("ladys_tears", 2),
    ("elements", "Fortunes"): ("seven_thunders", 1),
}


def judge(faces: dict[str, str]) -> str | None:
    """What five faces mean: "moon", a combination's key, or None."""
    if faces["moon"] == "Moon":
        return "moon"
    whites = {faces[die] for die in WHITES}
    if whites == WINDS:
        return NAMED[("winds", faces["moon"])][0]
    if whites == ELEMENTS:
        return NAMED[("elements", faces["moon"])][0]
    return None


PAYS = {key: pays for key, pays in NAMED.values()}


def shooter_net(roll: int, result: str) -> Fraction:
    if result in PAYS:
        return Fraction(PAYS[result] * (2 if roll == 1 else 1))
    return Fraction(-2 if result == "moon" else -1)


def tea_net(roll: int, result: str) -> Fraction:
    return Fraction(1 if roll == 3 else -1)


def hungry_net(roll: int, result: str) -> Fraction:
    if roll == 3:
        return Fraction(-1)
    return Fraction(0 if result == "fortunes_and_winds" else 1)


def daikoku_net(roll: int, result: str) -> Fraction:
    return Fraction(3, 2) if result in PAYS else Fraction(-1)


def against_net(roll: int, result: str) -> Fraction:
    return Fraction(-1) if result in PAYS else Fraction(2, 3)


Net = Callable[[int, str], Fraction]
SIDE: dict[str, Net] = {
    "tea": tea_net,
    "hungry": hungry_net,
    "daikoku": daikoku_net,
    "against": against_net,
}


# ------------------------------------------------------------------ roll 1, all faces


def test_roll_odds_match_a_count_of_all_6_to_the_5_faces() -> None:
    counts: dict[str, int] = {}
    for faces in itertools.product(*(TABLE[die] for die in (*WHITES, "moon"))):
        result = judge(dict(zip((*WHITES, "moon"), faces, strict=True))) or "nothing"
        counts[result] = counts.get(result, 0) + 1
    expected = {result: Fraction(n, 6**5) for result, n in counts.items()}
    got = {result: p for result, p in fw.roll_odds().items() if p}
    assert got == expected
    assert sum(fw.roll_odds().values()) == 1


def test_a_roll_through_the_engine_matches_the_count_for_every_face() -> None:
    # Every one of the 7776 first rolls, through act(): the result the table announces.
    base = fw.start(fw.Rules(house_guard=False), [1], ScriptedDice())
    base, _ = fw.act(base, 1, fw.Bet(kind="shooter", amount=1), ScriptedDice())
    for rolls in itertools.product(range(1, 7), repeat=5):
        _, events = fw.act(base, 1, fw.Roll(), ScriptedDice(rolls))
        (rolled,) = [e for e in events if e.kind == "rolled"]
        faces = {die: TABLE[die][r - 1] for die, r in zip((*WHITES, "moon"), rolls, strict=True)}
        assert rolled.faces == faces
        assert rolled.result == judge(faces)


# ----------------------------------------------------- whole turns, by brute force


class BruteForce:
    """The best keeping for ``primary`` by enumerating real faces and real subsets;
    ``secondary`` nets are evaluated under that keeping. Ties between keeps go to fewer
    dice set aside, then fewer blanks, then fewer Winds (the engine's documented rule)."""

    def __init__(self, primary: Net, secondary: list[Net]) -> None:
        self.primary = primary
        self.secondary = secondary

    def terminal(self, roll: int, result: str) -> tuple[Fraction, ...]:
        return (self.primary(roll, result), *(net(roll, result) for net in self.secondary))

    @cache  # noqa: B019 - one instance per test, dropped with it
    def before_roll(self, roll: int, aside: tuple[tuple[str, str], ...]) -> tuple[Fraction, ...]:
        """Values (primary first) before roll ``roll`` with ``aside`` (die, face) kept."""
        kept = dict(aside)
        free = [die for die in (*WHITES, "moon") if die not in kept]
        total = [Fraction(0)] * (1 + len(self.secondary))
        count = 0
        for faces in itertools.product(*(TABLE[die] for die in free)):
            count += 1
            shown = {**kept, **dict(zip(free, faces, strict=True))}
            result = judge(shown)
            if result is None and roll == 3:
                result = "nothing"
            if result is not None:
                values = self.terminal(roll, result)
            else:
                values = self.best_keep(roll, kept, shown)
            total = [t + v for t, v in zip(total, values, strict=True)]
        return tuple(t / count for t in total)

    def best_keep(
        self, roll: int, kept: dict[str, str], shown: dict[str, str]
    ) -> tuple[Fraction, ...]:
        free = [die for die in WHITES if die not in kept]
        options = []
        for size in range(0, 3 - len(kept) + 1):
            for subset in itertools.combinations(free, size):
                new = {**kept, **{die: shown[die] for die in subset}}
                blanks = sum(1 for die in subset if shown[die] not in WINDS | ELEMENTS)
                winds = sum(1 for die in subset if shown[die] in WINDS)
                values = self.before_roll(roll + 1, tuple(sorted(new.items())))
                options.append(((size, blanks, winds), values))
        options.sort(key=lambda option: option[0])
        best = options[0][1]
        for _, values in options[1:]:
            if values[0] > best[0]:
                best = values
        return best


@pytest.fixture(scope="module")
def brute_shooter() -> tuple[Fraction, ...]:
    return BruteForce(shooter_net, list(SIDE.values())).before_roll(1, ())


def test_shooter_ev_matches_the_brute_force(brute_shooter: tuple[Fraction, ...]) -> None:
    assert fw.shooter_ev() == brute_shooter[0]
    assert fw.turn_odds().shooter_ev == brute_shooter[0]
    assert fw.shooter_ev() < 0


def test_side_bet_edges_under_the_shooters_keeping_match_the_brute_force(
    brute_shooter: tuple[Fraction, ...],
) -> None:
    odds = fw.turn_odds()
    for index, kind in enumerate(SIDE, start=1):
        assert odds.edges[kind] == -brute_shooter[index], kind  # type: ignore[index]


def test_small_positions_match_the_brute_force() -> None:
    # From roll 3 with three dice aside (North, East, West), and roll 2 with two Elements.
    brute = BruteForce(shooter_net, [hungry_net])
    for aside in [
        (("earth", "North"), ("fire", "West"), ("water", "East")),
        (("earth", "Earth"), ("water", "Water")),
        (("air", "Bird"),),
    ]:
        for roll in (2, 3):
            count = len(aside)
            elements = sum(face in ELEMENTS for _, face in aside)
            winds = sum(face in WINDS for _, face in aside)
            position = odds._canonical(roll - 1, elements, winds, count - elements - winds)
            objective = fw.bet_payoff("shooter", 1)
            value = Fraction(odds._value(position, objective), odds._denominator(roll - 1))
            assert value == brute.before_roll(roll, aside)[0], (aside, roll)


def test_the_rules_file_figures() -> None:
    best = fw.turn_odds("best")
    never = fw.turn_odds("never_keep")
    # Hungry Moon +7.9% for the bettor against a shooter playing for their own value.
    assert round(float(-best.edges["hungry"]), 3) == 0.079
    # "against" +42% and Lady Sun's Tea +18.9% if the shooter never sets a die aside.
    assert round(float(-never.edges["against"]), 2) == 0.42
    assert round(float(-never.edges["tea"]), 3) == 0.189
    assert sum(best.outcomes.values()) == 1
    assert sum(never.outcomes.values()) == 1


def test_never_keeping_matches_a_direct_count() -> None:
    first = fw.roll_odds()
    go_on = first["nothing"]
    never = fw.turn_odds("never_keep")
    assert never.result("moon") == first["moon"] * (1 + go_on + go_on**2)
    assert never.three_rolls == go_on**2
    assert never.outcomes[(3, "nothing")] == go_on**3


def test_joint_ev_of_the_worked_examples_third_turn_with_the_brute_force() -> None:
    # Ujikeme shoots 1 (+1); Hungry Moon 2 + 1: the players together, best joint play.
    def joint(roll: int, result: str) -> Fraction:
        return shooter_net(roll, result) + 3 * hungry_net(roll, result)

    expected = BruteForce(joint, []).before_roll(1, ())[0]
    state = fw.start(fw.Rules(house_guard=False), [11, 22, 33], ScriptedDice())
    for player, kind, amount in [(11, "shooter", 1), (22, "hungry", 2), (33, "hungry", 1)]:
        state, _ = fw.act(state, player, fw.Bet(kind=kind, amount=amount), ScriptedDice())
    assert fw.joint_ev(state) == expected
    assert round(float(expected), 2) == 0.13


def test_a_shooter_serving_one_bet_gives_it_at_least_any_fixed_keeping() -> None:
    """``served_edge``: the bet's value under the keeping that serves it best, so at least
    its value under the shooter's own best keeping and under never keeping; what members
    can take from an unguarded bank per coin."""
    best, never = fw.turn_odds("best"), fw.turn_odds("never_keep")
    for kind in fw.BET_KINDS:
        served = fw.served_edge(kind)
        assert served >= -best.edges[kind] and served >= -never.edges[kind], kind
    assert fw.served_edge("shooter") == -best.edges["shooter"], "the shooter's own keeping"
    shown = {kind: f"{float(fw.served_edge(kind)):+.1%}" for kind in fw.SIDE_BETS}
    assert shown == {"daikoku": "+1.2%", "against": "+56.3%", "tea": "+28.5%", "hungry": "+8.5%"}
