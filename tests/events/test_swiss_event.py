"""An 8-entrant, 3-round Swiss event worked by hand: the pairings each round, then the
standings and tie breaks, with a no-show forfeit (108, round 1), a drop (108, after round 1)
and a bye in rounds 2 and 3. Every number below is computed by hand in the comments."""

from __future__ import annotations

from fractions import Fraction as F

from bot.events import Entrant, TableResult, bye_result, pair_round, split_prizes, standings

RATINGS = {101: 1800, 102: 1700, 103: 1600, 104: 1500, 105: 1400, 106: 1300, 107: 1200, 108: 1100}


def entrants(dropped: frozenset[int] = frozenset()) -> list[Entrant]:
    return [Entrant(member=m, rating=r, dropped=m in dropped) for m, r in RATINGS.items()]


def duel(table_id: int, round: int, first: int, second: int, winner: int | None) -> TableResult:
    """A two-seat table: ``winner`` None is a draw."""
    places = (1, 1) if winner is None else (1, 2) if winner == first else (2, 1)
    return TableResult(table_id=table_id, round=round, players=(first, second), places=places)


# Round 1: by rating, top half against bottom half. 108 does not show: 104 wins by forfeit.
ROUND_1 = [
    duel(1, 1, 101, 105, 101),
    duel(2, 1, 102, 106, 106),
    duel(3, 1, 103, 107, None),
    TableResult(table_id=4, round=1, players=(104, 108), places=(1, 2), forfeit_losers=(108,)),
]
# After round 1 (108 then drops): 1 point 104 (Buchholz 1: the forfeit's virtual opponent
# has 104's own score), 101 and 106 (Buchholz 0, SB 0, rating 1800 > 1300); ½ 103, 107
# (rating); 0 102, 105 (Buchholz 1 each, rating). Seven active: the bye to the last, 105.
# Score 1 has three players: 104–101 (top half against bottom half), 106 floats down to the
# nearest, 103; 107 floats down to 102 (103–107 met already). First seat to whoever sat
# first less often: 104 and 101 once each (104 ranks higher), 106 and 107 never.
ROUND_2 = [
    duel(5, 2, 104, 101, 101),
    duel(6, 2, 106, 103, None),
    duel(7, 2, 107, 102, 107),
    bye_result(105, 2, 8),
]
# After round 2: 101 2; 106, 107 1½ (Buchholz 0+1 = 1 each; SB 1×0 + ½×1 = ½ each; rating
# 106 first); 103, 104, 105 1 (Buchholz 3 each: 103 1½+1½, 104 1+2, 105 2+1; SB 103 ½×1½ +
# ½×1½ = 1½, 104 1×1 + 0 = 1, 105 0 + 1×1 = 1, rating 104 first); 102 0.
# Order 101, 106, 107, 103, 104, 105, 102: the bye to 102 (no bye yet). 101 takes the
# nearest 1½, 106; 107 floats to the nearest 1 it has not met, 104 (103 met 106 and 107);
# 103–105. Seats: 101 and 106 first once each (101 ranks higher); 107 once, 104 twice;
# 105 never, 103 once.
ROUND_3 = [
    duel(9, 3, 101, 106, 106),
    duel(10, 3, 107, 104, None),
    duel(11, 3, 105, 103, 105),
    bye_result(102, 3, 12),
]


def test_pairings_follow_the_hand_computation() -> None:
    first = pair_round(entrants(), [], seats=2, round=1)
    assert first.tables == ((101, 105), (102, 106), (103, 107), (104, 108))
    assert first.byes == ()
    second = pair_round(entrants(frozenset({108})), ROUND_1, seats=2, round=2)
    assert second.tables == ((104, 101), (106, 103), (107, 102))
    assert second.byes == (105,)
    third = pair_round(entrants(frozenset({108})), ROUND_1 + ROUND_2, seats=2, round=3)
    assert third.tables == ((101, 106), (107, 104), (105, 103))
    assert third.byes == (102,)


def test_final_standings_and_tie_breaks_equal_the_hand_computation() -> None:
    # Final scores: 101 W W L = 2; 102 L L bye = 1; 103 D D L = 1; 104 fW L D = 1½;
    # 105 L bye W = 2; 106 W D W = 2½; 107 D W D = 2; 108 fL = 0.
    # Buchholz (an unplayed game: a virtual opponent with the player's own score):
    #   101: 105 2 + 104 1½ + 106 2½ = 6        102: 106 2½ + 107 2 + own 1 = 5½
    #   103: 107 2 + 106 2½ + 105 2 = 6½        104: own 1½ + 101 2 + 107 2 = 5½
    #   105: 101 2 + own 2 + 103 1 = 5          106: 102 1 + 103 1 + 101 2 = 4
    #   107: 103 1 + 102 1 + 104 1½ = 3½        108: own 0 = 0
    # Sonneborn-Berger (result × opponent's score):
    #   101: 2 + 1½ + 0 = 3½       102: 0 + 0 + 1×1 = 1     103: ½×2 + ½×2½ + 0 = 2¼
    #   104: 1×1½ + 0 + ½×2 = 2½   105: 0 + 1×2 + 1×1 = 3   106: 1 + ½×1 + 2 = 3½
    #   107: ½×1 + 1 + ½×1½ = 2¼   108: 0
    # Order: 106 (2½); 101, 105, 107 (2: Buchholz 6 > 5 > 3½); 104 (1½);
    # 103, 102 (1: Buchholz 6½ > 5½); 108.
    rows = standings(entrants(frozenset({108})), ROUND_1 + ROUND_2 + ROUND_3)
    got = [
        (r.rank, r.member, r.points, r.buchholz, r.sonneborn_berger, r.games, r.byes) for r in rows
    ]
    assert got == [
        (1, 106, F(5, 2), F(4), F(7, 2), 3, 0),
        (2, 101, F(2), F(6), F(7, 2), 3, 0),
        (3, 105, F(2), F(5), F(3), 2, 1),
        (4, 107, F(2), F(7, 2), F(9, 4), 3, 0),
        (5, 104, F(3, 2), F(11, 2), F(5, 2), 3, 0),
        (6, 103, F(1), F(13, 2), F(9, 4), 3, 0),
        (7, 102, F(1), F(11, 2), F(1), 2, 1),
        (8, 108, F(0), F(0), F(0), 1, 0),
    ]
    assert [r.dropped for r in rows] == [False] * 7 + [True]
    # The prize split of 1,000 coins 50/30/20.
    assert split_prizes(1000, (50, 30, 20), rows) == {106: 500, 101: 300, 105: 200}
