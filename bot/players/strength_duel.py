"""The Strength Duel's computer: the exact equilibrium of the two-player duel, and a
heuristic built on it for the other modes.

Two players, strengths up to 25 (the standard duel): :func:`value` and
:func:`equilibrium` read the table ``bot/players/strength_duel_table.json``, solved offline
by linear programming (``python -m bot.players.strength_duel_solve``, SciPy's HiGHS).
The computer samples its bid from the equilibrium mix with one roll of the table's dice,
so no player can do better than the game's value against it (50.0% from the even
start), and :func:`bid_regret` says what each of a player's bids gave up.

The other modes (stated on the rules screen's last page) scale the same table: the
state is shrunk to strengths of at most 25, a bid is drawn from that state's equilibrium
and scaled back.
"""

from __future__ import annotations

import json
from importlib import resources

from bot.games import strength_duel as duel
from bot.games.dice import Dice, ScriptedDice
from bot.i18n import N_, _
from bot.players.duel_round import round_end

TABLE = "strength_duel_table.json"
"""Solved offline by ``python -m bot.players.strength_duel_solve`` (SciPy's HiGHS)."""
SAMPLE_SIDES = 2**30
"""One roll of this many sides picks a bid from a mix (a resolution of about 1e-9)."""
FORBID_CHOICES = (2, 4)
"""The forbidden number the computer picks from: bids the equilibrium at full strength
plays least (its mix rests on 1, 3 and 5)."""
TAG_OUT_MARGIN = 6
"""Tag mode: the computer tags out when its resting partner has this much more strength."""


def _load() -> tuple[int, list[list[float]], dict[tuple[int, int], list[tuple[int, float]]]]:
    data = json.loads(resources.files("bot.players").joinpath(TABLE).read_text(encoding="utf-8"))
    mixes = {
        (int(key.split(",")[0]), int(key.split(",")[1])): [(int(b), float(p)) for b, p in pairs]
        for key, pairs in data["mixes"].items()
    }
    return int(data["max_strength"]), data["values"], mixes


MAX_STRENGTH, VALUES, MIXES = _load()


def _check(own: int, other: int) -> None:
    if not (0 <= own <= MAX_STRENGTH and 0 <= other <= MAX_STRENGTH):
        raise ValueError(f"the table covers strengths 0 to {MAX_STRENGTH}, not {own} and {other}")


def value(own: int, other: int) -> float:
    """The equilibrium chance that the player holding ``own`` strength against ``other``
    wins (a draw counts ½), two-player duel, strengths 0–25."""
    _check(own, other)
    return float(VALUES[own][other])


def equilibrium(own: int, other: int) -> dict[int, float]:
    """That player's equilibrium mix of bids (bid → probability; bids 0..own; sums to 1).
    A game already decided (a strength at 0) has nothing left to bid: 0."""
    _check(own, other)
    if own == 0 or other == 0:
        return {0: 1.0}
    return dict(MIXES[(own, other)])


def result(own: int, other: int, bid: int, their_bid: int) -> float:
    """The value, for the player holding ``own``, of one round's two bids: the game's end
    or the equilibrium value of the strengths it leads to."""
    end, after = round_end(own, other, bid, their_bid)
    if end is not None:
        return end
    assert after is not None
    return value(*after)


def bid_regret(own: int, other: int, bid: int) -> float:
    """The win chance a pure ``bid`` gives up against an opponent playing the equilibrium
    (the state's value less what the bid earns against the opponent's mix); ≥ 0 up to
    rounding, 0 for every bid of the equilibrium's own mix."""
    _check(own, other)
    if not 0 <= bid <= own:
        raise ValueError(f"a bid is from 0 to {own}")
    if own == 0 or other == 0:
        return 0.0
    theirs = equilibrium(other, own)
    earned = sum(chance * _result_or_self(own, other, bid, y) for y, chance in theirs.items())
    return value(own, other) - earned


def _result_or_self(own: int, other: int, bid: int, their_bid: int) -> float:
    end, after = round_end(own, other, bid, their_bid)
    if end is not None:
        return end
    # Both bidding 0 leaves the state as it was: its own value.
    return value(own, other) if after == (own, other) else value(*after)  # type: ignore[misc]


def sample(mix: dict[int, float], dice: Dice) -> int:
    """A bid drawn from ``mix`` with one roll of the table's dice."""
    point = (dice.roll(SAMPLE_SIDES) - 1) / SAMPLE_SIDES
    total = 0.0
    chosen = max(mix, key=lambda bid: mix[bid])
    for bid in sorted(mix):
        total += mix[bid]
        if point < total:
            return bid
    return chosen  # rounding left the last sliver: the likeliest bid


# -- where the house may stake ----------------------------------------------------------------

SOLVED_RULES = duel.Rules(mode="duel")
"""The one game the house bank stakes the computer in: the two-player duel from 25 strength
each, with the engine's round limit (100 rounds) and AFK forfeit (3 missed rounds).

The table solves the duel without a round limit. With one, a member who reaches the limit
ahead wins it, and can play for that: against this computer their best reply (computed
round by round over every state, ``tests/players/test_strength_duel_player.py``) wins 54.6% with a
limit of 5 rounds, 50.0000000142% with 35, and 50% within 1e-15 from 60 rounds on; at 100
it is the solved game's value. So a table whose rules differ from these in anything that
changes play is not one the house may stake (:func:`house_refusal`)."""

PLAY_NEUTRAL = frozenset({"stake", "round_seconds"})
"""Options that do not change the game staked: the stake scales the coins, not the odds,
and ``round_seconds`` is only how long a member has to bid (the computer bids at once; a
member who lets the time run out bids 0, a bid they could have made, and moves towards
their own forfeit)."""


def house_refusal(rules: duel.Rules) -> str | None:
    """Why the house bank may not stake the computer at a table with ``rules``, or ``None``
    when it may: every option that changes play must be the solved game's
    (:data:`SOLVED_RULES`), and the game must start where the table was solved from."""
    wrong = [
        _option_text(name, getattr(rules, name), getattr(SOLVED_RULES, name))
        for name in type(rules).model_fields
        if name not in PLAY_NEUTRAL and getattr(rules, name) != getattr(SOLVED_RULES, name)
    ]
    if not wrong:
        start = duel.start(rules, [1, 2], ScriptedDice()).strength
        if set(start.values()) != {MAX_STRENGTH}:
            wrong.append(
                _(
                    "the ninjas start with {start} strength, not {solved}",
                    start=str(start[1]),
                    solved=str(MAX_STRENGTH),
                )
            )
    if not wrong:
        return None
    # In the language of the member who asked (the locale in effect where it is shown).
    return _(
        "The house bank stakes the computer only in the Strength Duel it has solved (the "
        "two-player duel from {strength} strength, {rounds} rounds at most, a forfeit after "
        "{missed} missed rounds), and this table differs: {differences}.",
        strength=str(MAX_STRENGTH),
        rounds=str(SOLVED_RULES.max_rounds),
        missed=str(SOLVED_RULES.afk_rounds_to_forfeit),
        differences=_("; ").join(wrong),
    )


_OTHER_MODE = {
    # One whole phrase per mode (the mode's name sits inside it).
    "forbidden": N_("its mode is forbidden, not duel"),
    "three": N_("its mode is three, not duel"),
    "tag": N_("its mode is tag, not duel"),
}


def _option_text(name: str, value: object, solved: object) -> str:
    if name == "mode" and str(value) in _OTHER_MODE:
        return _(_OTHER_MODE[str(value)])
    if name == "max_rounds":
        return _("its round limit is {value} rounds, not {solved}", value=str(value),
                 solved=str(solved))  # fmt: skip
    if name == "afk_rounds_to_forfeit":
        return _("it forfeits after {value} missed rounds, not {solved}", value=str(value),
                 solved=str(solved))  # fmt: skip
    return _("its option {name} is {value}, not {solved}", name=name, value=str(value),
             solved=str(solved))  # fmt: skip


# -- deciding ---------------------------------------------------------------------------------


def decide(state: duel.State, seat: int, dice: Dice) -> duel.Action | None:
    """The computer's move at ``seat``: its forbidden number, or its bid (with a tag
    request in tag mode). Reads only its own strength and choices and what is public."""
    if state.finished or seat not in duel.waiting_for(state):
        return None
    if state.phase == "forbid":
        return duel.Forbid(number=FORBID_CHOICES[dice.roll(len(FORBID_CHOICES)) - 1])
    own = state.strength[seat]
    opponents = [p for p in state.must_bid if p != seat and p not in duel.team_of(state, seat)]
    other = max((state.strength[p] for p in opponents), default=0)
    if state.rules.mode == "duel" and own <= MAX_STRENGTH and other <= MAX_STRENGTH:
        return duel.Bid(amount=sample(equilibrium(own, other), dice))
    bid = _scaled_bid(own, other, dice)
    forbidden = state.forbidden.get(seat)
    if bid == forbidden:
        bid = bid + 1 if bid + 1 <= own else bid - 1
    return duel.Bid(amount=bid, tag_out=_tags_out(state, seat))


def _scaled_bid(own: int, other: int, dice: Dice) -> int:
    """A bid from the equilibrium of the strengths shrunk to the table's range."""
    if own == 0:
        return 0
    top = max(own, other, 1)
    scale = max(1.0, top / MAX_STRENGTH)
    small_own = max(1, min(MAX_STRENGTH, round(own / scale)))
    small_other = max(1, min(MAX_STRENGTH, round(other / scale))) if other > 0 else 0
    drawn = sample(equilibrium(small_own, small_other), dice)
    return max(0, min(own, round(drawn * scale)))


def _tags_out(state: duel.State, seat: int) -> bool:
    if state.rules.mode != "tag":
        return False
    partner = duel.partner_of(state, seat)
    if partner is None or partner in state.eliminated:
        return False
    return state.strength[partner] - state.strength[seat] >= TAG_OUT_MARGIN
