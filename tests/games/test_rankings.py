"""How each rated game places its players when a table ends (a game's pure ``ranking``,
named by its catalog record), read by the skill ratings: winners first, the finishing
order after, ties sharing a place, teams as teams, and nothing for a moderator's end."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.catalog import CATALOG
from bot.fairness import FairDice
from bot.games import hachihachi as hh
from bot.games import nihakyu as nk
from bot.games import strength_duel as sd
from bot.games.common import Abort, Deadline, Ranking, is_public, ranked_alone, ranked_by
from bot.games.dice import ScriptedDice

A, B, C, D = 11, 12, 13, 14


def test_the_rated_games_are_those_where_choices_matter() -> None:
    rated = {game.name for game in CATALOG if game.rated}
    assert rated == {"strength_duel", "hachihachi", "nihakyu"} == set(CATALOG.rated())
    for game in CATALOG:
        assert game.rated == (game.ranking is not None)
        spec = CATALOG.registry().get(game.name)
        assert spec.ranking is game.ranking, "the table service rates by the record's ranking"


def test_equal_values_share_a_place_and_the_next_place_skips() -> None:
    assert ranked_alone({A: (5,), B: (9,), C: (5,), D: (1,)}) == Ranking(
        ((A,), (B,), (C,), (D,)), (2, 1, 2, 4)
    )
    teams = ranked_by([[A, B], [C, D]], lambda team: (0,))
    assert teams.places == (1, 1)
    with pytest.raises(ValueError, match="apart"):
        Ranking(((A,), (A, B)), (1, 2))


def duel_played(mode: sd.Mode, players: list[int], bids: dict[int, int], **rules: Any) -> sd.State:
    state = sd.start(sd.Rules(mode=mode, stake=10, **rules), players, ScriptedDice())
    while not state.finished:
        for player in list(state.must_bid):
            amount = min(bids[player], state.strength[player])
            state, _events = sd.act(state, player, sd.Bid(amount=amount), ScriptedDice())
    return state


def test_a_duel_places_its_winner_first() -> None:
    state = duel_played("duel", [A, B], {A: 0, B: 1})
    assert state.winner == B
    assert sd.ranking(state) == Ranking(((A,), (B,)), (2, 1))


def test_a_drawn_duel_is_a_tie() -> None:
    state = duel_played("duel", [A, B], {A: 1, B: 1}, max_rounds=2)
    assert state.draw
    assert sd.ranking(state) == Ranking(((A,), (B,)), (1, 1))


def test_three_players_finish_in_the_order_they_went_out() -> None:
    # C, bidding lowest, goes out first (round 10); B next (round 13); A wins.
    state = duel_played("three", [A, B, C], {A: 2, B: 1, C: 0})
    assert state.winner == A and state.eliminated == [C, B]
    assert sd.ranking(state) == Ranking(((A,), (B,), (C,)), (1, 2, 3))


def test_tag_teams_are_rated_as_teams() -> None:
    state = duel_played("tag", [A, B, C, D], {A: 2, B: 2, C: 0, D: 0})
    assert state.winner == A
    assert sd.ranking(state) == Ranking(((A, B), (C, D)), (1, 2))


def nihakyu_played(rolls: list[int]) -> tuple[nk.State, list[dict[str, Any]]]:
    dice = ScriptedDice(rolls)
    state = nk.start(nk.Rules(starting_stamina=10, ante=5), [A, B, C, D], ScriptedDice())
    events: list[dict[str, Any]] = []
    while not state.finished:
        for player in nk.standing(state):
            if state.finished or not nk.ENGINE.legal_actions(state, player):
                continue
            state, new = nk.act(state, player, nk.Roll(), dice)
            events += [e.model_dump(mode="json") for e in new if is_public(e)]
    return state, events


def test_nihakyu_ties_the_players_out_in_the_same_round() -> None:
    # Round 1: D rolls 20 and falls. Round 2: A and B roll 20 and fall together; C wins.
    state, events = nihakyu_played([2, 2, 2, 20, 20, 20, 3])
    assert state.winner == C and state.eliminated == [D, A, B]
    assert nk.ranking(state, events) == Ranking(((A,), (B,), (C,), (D,)), (2, 2, 1, 4))


def hachihachi_ended(scores: dict[int, int], forfeited: list[int]) -> hh.State:
    players = list(scores)
    rules = hh.Rules(seated_players=len(players), rounds=1, first_dealer="first_seat")
    state = hh.start(rules, players, FairDice(b"ranking"))
    return state.model_copy(
        update={"scores": scores, "forfeited": forfeited, "finished": True, "phase": "over"}
    )


def test_hachihachi_ranks_by_the_matchs_points_and_a_forfeit_last() -> None:
    state = hachihachi_ended({A: 30, B: -10, C: 30, D: -50}, forfeited=[])
    assert hh.ranking(state) == Ranking(((A,), (B,), (C,), (D,)), (1, 3, 1, 4))
    left = hachihachi_ended({A: 30, B: -10, C: 30, D: -50}, forfeited=[A])
    assert hh.ranking(left) == Ranking(((A,), (B,), (C,), (D,)), (4, 2, 1, 3))


@pytest.mark.parametrize("name", CATALOG.rated())
def test_a_moderators_end_places_nobody(name: str) -> None:
    game = CATALOG.get(name)
    assert game.ranking is not None
    engine = game.engine
    rules = engine.rules_model()
    fewest, _most = engine.seat_limits(rules)
    players = [A, B, C, D][: max(fewest, 2)]
    state = engine.start(rules, players, FairDice(b"abort"))
    assert game.ranking(state, []) is None, "not finished: no ranking"
    ended, _events = engine.act(state, None, Abort(), FairDice(b"abort"))
    assert ended.finished
    assert game.ranking(ended, []) is None


def played_at_random(name: str, seats: int, seed: int) -> tuple[Any, list[dict[str, Any]]]:
    """A table of ``seats`` played by random legal moves (the deadline when nobody has
    one) to its end: the final state and its public events."""
    engine = CATALOG.get(name).engine
    rng = random.Random(seed)
    dice = FairDice(seed.to_bytes(8, "big"))
    players = [A, B, C, D][:seats]
    rules = engine.rules_model(**QUICK[name](seats))
    state = engine.start(rules, players, dice)
    events: list[dict[str, Any]] = []
    for _ in range(5_000):
        if state.finished:
            return state, events
        moves = [(p, a) for p in players for a in engine.legal_actions(state, p)]
        player, action = rng.choice(moves) if moves else (None, Deadline())
        state, new = engine.act(state, player, action, dice)
        events += [event.model_dump(mode="json") for event in new if is_public(event)]
    raise AssertionError(f"{name} did not end")


QUICK: dict[str, Any] = {
    "strength_duel": lambda seats: {"mode": {2: "duel", 3: "three", 4: "tag"}[seats]},
    "nihakyu": lambda seats: {"starting_stamina": 30},
    "hachihachi": lambda seats: {"rounds": 1, "seated_players": seats},
}


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("name", CATALOG.rated())
def test_every_player_is_placed_once_and_the_games_winners_first(name: str, seats: int) -> None:
    game = CATALOG.get(name)
    assert game.ranking is not None
    for seed in range(8):
        state, events = played_at_random(name, seats, seed)
        ranking = game.ranking(state, events)
        assert ranking is not None
        assert sorted(ranking.players) == sorted(state.seats)
        first = {
            p
            for team, place in zip(ranking.teams, ranking.places, strict=True)
            if place == 1
            for p in team
        }
        named = set(game.engine.winners(state))
        if name == "hachihachi":
            named -= set(state.forfeited)  # a forfeit ranks last, whatever its points
        assert named <= first, (seed, ranking, named)
