"""Computer players: one pure strategy module per game (``bot/players/<game>.py``).

Each module has ``decide(state, seat, dice) -> action | None``: the action the computer
sitting at ``seat`` takes now, or ``None`` when nothing is its to do. A strategy reads only
what that seat may see (never another seat's hidden cards, bid or choice), draws any
chance it needs from ``dice`` (the table's provably fair dice, so /verify covers it) and
never touches Discord, asyncio, a clock or the global random generator.

A computer sits under a small id no Discord user can have (a snowflake is far larger):
:data:`COMPUTER_IDS`. The table service seats it, stakes the house bank's coins for it and
calls :func:`strategy` when its turn or round comes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from bot.games.dice import Dice

COMPUTER_IDS: tuple[int, ...] = (1, 2, 3)
"""The computer seats' ids, in the order they are added to a table."""

SEARCHING_GAMES = frozenset({"hachihachi", "nihakyu"})
"""Games whose computer may think for milliseconds or more (Hachi-hachi's search, up to a
few hundred; Nihakyu's dynamic programme, hundreds at the largest Stamina): the service
runs those decisions in a worker thread, so the event loop never waits on them. The
others answer in microseconds."""

THINKING_SECONDS: dict[str, float] = {"hachihachi": 1.0, "nihakyu": 0.5, "strength_duel": 0.2}
"""The moment, from the start of a computer's decision, at which its move lands, in games
whose decision reads what the table may not see or makes a secret choice (Hachi-hachi:
its hand; Nihakyu: its choice for the round; the Strength Duel: its bid and forbidden
number), so its moment must not tell it. Without it the time a decision took would show:
Hachi-hachi's search took longer the more moves the hand allowed; a duel bid is drawn in
microseconds, but how far the draw walks its mix depends on the bid.

Hachi-hachi's search does a fixed work whatever the hand (``hachihachi.SAMPLES``
rollouts over half as many worlds, in every searched phase); its slowest decision
measured was 398 ms over 4 518 decisions on this 2-core machine at load 4
(``benchmarks/hachihachi_computer.py``), 40% of the moment. Nihakyu's programme reads
only what is public (Stamina, who stands, which variants each has used, revealed with
each round's dice): milliseconds at the default Stamina (``benchmarks/
computer_dice_games.py``); computed cold at the largest Stamina (1 000) with limited
Shadow Steps, up to 0.44 s (3 each, four seated) and 0.92 s (8 each, eight seated). A
duel decision takes microseconds (``benchmarks/computer_duel.py``).

A decision that still takes longer (a machine slowed by other work, or such a Nihakyu
table) lands at the next whole multiple of the moment after it began
(:func:`bot.service.computers.landing_wait`): its work does not depend on what is hidden,
so neither does that. The table service waits out the rest; also a natural pause."""

Decide = Callable[[Any, int, Dice], Any]
"""``decide(state, seat, dice)``: the computer's action now, or ``None``."""


HouseRefusal = Callable[[Any], str | None]
"""Given a table's rules: why the house bank may not stake coins for the computer there,
or ``None`` when it may."""


def _duel_refusal(rules: Any) -> str | None:
    from bot.players.strength_duel import house_refusal  # its table loads on first use

    return house_refusal(rules)


HOUSE_STAKED_GAMES: dict[str, HouseRefusal] = {"strength_duel": _duel_refusal}
"""Where the house bank may stake coins for the computer: the games (and exact rules) whose
computer is proven to leave the house an edge of at least 0 whatever a player does. The
two-player Strength Duel's computer plays the exact equilibrium, which wins exactly half
from the equal start against best play (bot/players/strength_duel.py proves it to 1e-9),
and only in the game that was solved: every option that changes play at its solved value
(``strength_duel.house_refusal``; a short round limit alone gives a member up to 54.6%)."""


def is_computer(user_id: int) -> bool:
    return user_id in COMPUTER_IDS


def _fortunes_seat_refusal(rules: Any) -> str | None:
    from bot.games.fortunes_winds import house_seat_refusal

    return house_seat_refusal(rules)


SEAT_REFUSALS: dict[str, HouseRefusal] = {"fortunes_winds": _fortunes_seat_refusal}
"""Tables where the computer may not sit at all, whatever the stake: a Fortunes and Winds
table banked by the house with its guard off (the computer's stakes are the house's, and
the members could farm the bank through it)."""


def computer_refusal(game: str, title: str, rules: Any, hold: int) -> str | None:
    """Why the computer may not sit at this table, or ``None`` when it may.

    The house never loses on average: it stakes coins against a player only where the
    computer's play is proven unbeatable in expectation. Elsewhere the computer plays for
    no coins (a table without a stake or ante), or, at Hazard and Fortunes and Winds, it
    takes its turn with the dice and bets nothing (every bet there is against the house
    bank, whose edge the rules already guard)."""
    if strategy(game) is None:
        return f"{title} has no computer player."
    seat_refusal = SEAT_REFUSALS.get(game)
    why_not = seat_refusal(rules) if seat_refusal is not None else None
    if why_not is not None:
        return f"{why_not} Nothing changed."
    if hold <= 0:
        return None
    house_refusal = HOUSE_STAKED_GAMES.get(game)
    if house_refusal is not None:
        why = house_refusal(rules)
        if why is None:
            return None
        return (
            f"{why} Open a table without a stake to play the computer for no coins. "
            "Nothing changed."
        )
    return (
        f"The computer plays {title} here for no coins: the house bank stakes coins only "
        "where the computer's play is proven never to lose on average (the two-player "
        "Strength Duel). Open a table without a stake or ante to play the computer. "
        "Nothing changed."
    )


_REGISTERED: dict[str, Decide] = {}


def register(
    game: str, decide: Decide, *, house_stakes: Callable[[Any], bool] | None = None
) -> None:
    """A computer player for a game not shipped in this package (a test's own game);
    ``house_stakes(rules)``: whether the house bank may stake for it there."""
    _REGISTERED[game] = decide
    if house_stakes is not None:
        stakes = house_stakes
        HOUSE_STAKED_GAMES[game] = lambda rules: None if stakes(rules) else "Not proven."


def strategy(game: str) -> Decide | None:
    """The game's computer player, or ``None`` for a game that has none."""
    if game in _REGISTERED:
        return _REGISTERED[game]
    try:
        module = importlib.import_module(f"bot.players.{game}")
    except ModuleNotFoundError:
        return None
    decide: Decide | None = getattr(module, "decide", None)
    return decide
