"""Computer players: one pure strategy module per game (``bot/players/<game>.py``).

Each module has ``decide(state, seat, dice) -> action | None``: the action the computer
sitting at ``seat`` takes now, or ``None`` when nothing is its to do. A strategy reads only
what that seat may see (never another seat's hidden cards, bid or choice), draws any
chance it needs from ``dice`` (the table's provably fair dice, so /verify covers it) and
never touches Discord, asyncio, a clock or the global random generator.

A computer sits under a small id no Discord user can have (a snowflake is far larger):
:data:`bot.games.common.COMPUTER_IDS`. A game's :class:`Computer` (its decide function and
the rules of its seat) is part of its record in ``bot/catalog.py``; the table service is
handed those records, seats the computer, stakes the house bank's coins for it where the
record allows and calls its ``decide`` when its turn or round comes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from bot.games.dice import Dice
from bot.i18n import _

RulesT = TypeVar("RulesT", bound=BaseModel)
StateT = TypeVar("StateT", bound=BaseModel)
ActionT = TypeVar("ActionT")

Refusal = Callable[[RulesT], str | None]
"""Given a table's whole rules: why something is refused there, or ``None`` when allowed."""


@dataclass(frozen=True)
class Computer(Generic[RulesT, StateT, ActionT]):
    """A game's computer player and the rules of its seat.

    ``decide(state, seat, dice)``: the action the computer sitting at ``seat`` takes now,
    or ``None`` when nothing is its to do.

    ``searches``: its decision may think for milliseconds or more (Hachi-hachi's search,
    up to a few hundred; Nihakyu's dynamic programme, hundreds at the largest Stamina):
    the service runs it in a worker thread, so the event loop never waits on it. The
    others answer in microseconds.

    ``thinking_seconds``: the moment, from the start of a decision, at which its move
    lands, in games whose decision reads what the table may not see or makes a secret
    choice (Hachi-hachi: its hand; Nihakyu: its choice for the round; the Strength Duel:
    its bid and forbidden number), so its moment must not tell it. Without it the time a
    decision took would show: Hachi-hachi's search took longer the more moves the hand
    allowed; a duel bid is drawn in microseconds, but how far the draw walks its mix
    depends on the bid. It also paces a game whose public moves would otherwise land
    too fast to follow (Hazard: a whole round of throws in about 10 ms); ``0`` where the
    move is public and instant is fine.

    Hachi-hachi's search does a fixed work whatever the hand (``hachihachi.work_of``
    its ``SAMPLES``, rollouts and sampled worlds, in every searched phase); its slowest
    decision measured was 139 ms over 1 121 decisions on this 2-core machine at load 6
    (``benchmarks/hachihachi_computer.py``, issue 36), 14% of the moment (398 ms over
    4 518 at load 4 before issue 36 cut the work to about a third). Nihakyu's programme reads
    only what is public (Stamina, who stands, which variants each has used, revealed with
    each round's dice): its exact programme over the whole position takes 10 to 60 ms on a
    game's first decision against one other at the default Stamina (one table answers the
    rest of the game) and 0.12 to 0.3 s against two (a run per decision); beyond
    ``nihakyu.EXACT_WORK`` it plans by its own Stamina (milliseconds at the default
    Stamina, ``benchmarks/computer_dice_games.py``; computed cold at the largest Stamina
    (1 000) with limited Shadow Steps, up to 0.44 s (3 each, four seated) and 0.92 s (8
    each, eight seated)). A
    duel decision takes microseconds (``benchmarks/computer_duel.py``). A decision that
    still takes longer (a machine slowed by other work, or such a Nihakyu table) lands at
    the next whole multiple of the moment after it began
    (:func:`bot.service.computers.landing_wait`): its work does not depend on what is
    hidden, so neither does that. The table service waits out the rest; also a natural
    pause.

    ``house_stakes``: where the house bank may stake coins for the computer — ``None``
    for a game where it never may; else, given the whole rules, why it may not there, or
    ``None`` when it may. Only games (and exact rules) whose computer is proven to leave
    the house an edge of at least 0 whatever a player does: the two-player Strength Duel's
    computer plays the exact equilibrium, which wins exactly half from the equal start
    against best play (bot/players/strength_duel.py proves it to 1e-9), and only in the
    game that was solved (``strength_duel.house_refusal``; a short round limit alone gives
    a member up to 54.6%).

    ``seat_refusal``: tables where the computer may not sit at all, whatever the stake (a
    Fortunes and Winds table banked by the house with its guard off: the computer's stakes
    are the house's, and the members could farm the bank through it).
    """

    decide: Callable[[StateT, int, Dice], ActionT | None]
    searches: bool = False
    thinking_seconds: float = 0.0
    house_stakes: Refusal[RulesT] | None = None
    seat_refusal: Refusal[RulesT] | None = None


AnyComputer = Computer[Any, Any, Any]
"""A computer of any game, as the table service holds them (one mapping for all games)."""


def computer_refusal(
    computer: AnyComputer | None, title: str, rules: BaseModel, hold: int
) -> str | None:
    """Why the computer may not sit at this table, or ``None`` when it may.

    The house never loses on average: it stakes coins against a player only where the
    computer's play is proven unbeatable in expectation. Elsewhere the computer plays for
    no coins (a table without a stake or ante), or, at Hazard and Fortunes and Winds, it
    takes its turn with the dice and bets nothing (every bet there is against the house
    bank, whose edge the rules already guard)."""
    # Worded in the locale in effect (the member who asked); the game's own reason
    # (``seat_refusal``, ``house_stakes``) comes worded by the game the same way.
    if computer is None:
        return _("{title} has no computer player.", title=_(title))
    why_not = computer.seat_refusal(rules) if computer.seat_refusal is not None else None
    if why_not is not None:
        return _("{why} Nothing changed.", why=why_not)
    if hold <= 0:
        return None
    if computer.house_stakes is not None:
        why = computer.house_stakes(rules)
        if why is None:
            return None
        return _(
            "{why} Open a table without a stake to play the computer for no coins. "
            "Nothing changed.",
            why=why,
        )
    return _(
        "The computer plays {title} here for no coins: the house bank stakes coins only "
        "where the computer's play is proven never to lose on average (the two-player "
        "Strength Duel). Open a table without a stake or ante to play the computer. "
        "Nothing changed.",
        title=_(title),
    )
