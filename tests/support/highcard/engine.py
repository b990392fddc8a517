"""High Card's engine: each seat draws a d20 face down; once all have drawn the draws are
shown and the highest takes the pot (less the house's rake); the seats tied for highest
draw again.

A draw is the drawer's secret until the reveal (:class:`Drawn`, a ``PrivateEvent``): the
table sees only that a seat has drawn (:class:`DrewFaceDown`), so nothing visible changes
before the reveal. The house's odds are exact: the seats' draws are independent and alike
and a tie is drawn again by the tied alone, so every seat takes the pot with chance 1/n
whoever draws when; a computer seat (the house's money) stakes s to win n·s − rake with
chance 1/n, and the house keeps the rake, so it ends ahead by rake·(n − 1)/n ≥ 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, Field

from bot.games.common import HOUSE, Abort, Deadline, Frozen, Permission, PrivateEvent
from bot.games.contract import Engine
from bot.games.dice import Dice
from bot.games.errors import IllegalMove
from bot.games.kit import Move, Rulebook, only_the_table, seated_move, the_service_decides
from bot.i18n import N_

SIDES = 20


class Rules(Frozen):
    stake: int = Field(default=10, ge=0)
    rake: int = Field(default=0, ge=0, le=10)
    """Coins the house keeps from the pot (the server's: it is the house's edge)."""
    draw_seconds: int = Field(default=60, ge=10, le=600)
    max_players: int = Field(default=6, ge=2, le=6)


class Draw(Frozen):
    kind: Literal["draw"] = "draw"


class DrewFaceDown(BaseModel):
    kind: Literal["drew_face_down"] = "drew_face_down"
    player: int


class Drawn(PrivateEvent):
    """The drawer's own card, before the reveal."""

    kind: Literal["drawn"] = "drawn"
    player: int
    value: int


class Revealed(BaseModel):
    kind: Literal["revealed"] = "revealed"
    draws: dict[int, int]


class Tied(BaseModel):
    kind: Literal["tied"] = "tied"
    players: list[int]
    value: int


class Won(BaseModel):
    kind: Literal["won"] = "won"
    player: int
    pot: int


class Aborted(BaseModel):
    kind: Literal["aborted"] = "aborted"


class State(BaseModel):
    rules: Rules
    seats: list[int]
    ply: int = 0
    round: int = 1
    drawing: list[int]
    """The seats who draw this round: everyone, then the tied."""
    draws: dict[int, int] = Field(default_factory=dict)
    """This round's draws so far: secret until every drawing seat has drawn."""
    finished: bool = False
    winner: int | None = None
    stakes: dict[int, int]
    payouts: dict[int, int] = Field(default_factory=dict)


Action = Annotated[Draw | Deadline | Abort, Field(discriminator="kind")]
Event = Annotated[
    DrewFaceDown | Drawn | Revealed | Tied | Won | Aborted, Field(discriminator="kind")
]
ACTIONS = (Draw, Deadline, Abort)

NOT_DRAWING = N_("You are not in this draw: only the seats tied for highest draw again.")
DRAWN_ALREADY = N_("You have drawn already; wait for the others.")


def _check_draw(s: State, player: int, action: Draw) -> None:
    if player not in s.drawing:
        raise IllegalMove(NOT_DRAWING)
    if player in s.draws:
        raise IllegalMove(DRAWN_ALREADY)


def _draw(s: State, player: int, dice: Dice) -> list[BaseModel]:
    value = dice.roll(SIDES)
    s.draws = {**s.draws, player: value}
    return [DrewFaceDown(player=player), Drawn(private_to=player, player=player, value=value)]


def _apply_draw(s: State, player: int, action: Draw, dice: Dice) -> list[BaseModel]:
    events = _draw(s, player, dice)
    if len(s.draws) == len(s.drawing):
        events += _reveal(s)
    return events


def _apply_deadline(s: State, by: int | None, action: Deadline, dice: Dice) -> list[BaseModel]:
    """Time is up: the seats still to draw draw now, in seat order, and all is shown."""
    events: list[BaseModel] = []
    for player in s.drawing:
        if player not in s.draws:
            events += _draw(s, player, dice)
    return events + _reveal(s)


def _reveal(s: State) -> list[BaseModel]:
    draws = {player: s.draws[player] for player in s.drawing}
    top = max(draws.values())
    leaders = [player for player in s.drawing if draws[player] == top]
    s.ply += 1
    s.draws = {}
    events: list[BaseModel] = [Revealed(draws=draws)]
    if len(leaders) > 1:
        s.round += 1
        s.drawing = leaders
        return [*events, Tied(players=leaders, value=top)]
    return [*events, _settle(s, leaders[0])]


def _settle(s: State, winner: int) -> Won:
    pot = sum(s.stakes.values())
    rake = min(s.rules.rake, pot)
    s.payouts = {**{p: -stake for p, stake in s.stakes.items()}, HOUSE: rake}
    s.payouts = {**s.payouts, winner: s.payouts[winner] + pot - rake}
    s.stakes = dict.fromkeys(s.stakes, 0)
    s.finished = True
    s.winner = winner
    return Won(player=winner, pot=pot - rake)


def _apply_abort(s: State, by: int | None, action: Abort, dice: Dice) -> list[BaseModel]:
    """A moderator's end: nothing was settled, so every stake goes back to its owner."""
    s.payouts = {**dict.fromkeys(s.seats, 0), HOUSE: 0}
    s.stakes = dict.fromkeys(s.stakes, 0)
    s.draws = {}
    s.finished = True
    return [Aborted()]


RULEBOOK: Rulebook[State, BaseModel, BaseModel] = Rulebook(
    {
        Draw: seated_move(_check_draw, _apply_draw),
        Deadline: Move(only_the_table, _apply_deadline),
        Abort: Move(the_service_decides, _apply_abort),
    }
)


class HighCardEngine(Engine[Rules, State, BaseModel, BaseModel]):
    """High Card as the table service drives it."""

    name = "highcard"
    permissions: ClassVar[Mapping[type[BaseModel], Permission]] = {
        Abort: Permission.MODERATOR_NOT_SEATED
    }

    def start(self, rules: Rules, players: list[int], dice: Dice) -> State:
        return State(
            rules=rules,
            seats=list(players),
            drawing=list(players),
            stakes=dict.fromkeys(players, rules.stake),
        )

    def act(
        self, state: State, player: int | None, action: BaseModel, dice: Dice
    ) -> tuple[State, list[BaseModel]]:
        return RULEBOOK.act(state, player, action, dice)

    def seat_limits(self, rules: Rules) -> tuple[int, int]:
        return 2, rules.max_players

    def hold(self, rules: Rules) -> int:
        return rules.stake

    def deadline_seconds(self, state: State) -> int | None:
        return None if state.finished else state.rules.draw_seconds

    def legal_actions(self, state: State, player: int) -> list[BaseModel]:
        return RULEBOOK.legal_actions(state, player, [Draw()])

    def ply(self, state: State) -> int:
        return state.ply

    def winners(self, state: State) -> list[int]:
        return [] if state.winner is None else [state.winner]

    def waiting_on(self, state: State) -> list[int]:
        """Once a seat has drawn: those still to draw (who has drawn is public)."""
        if state.finished or not state.draws:
            return []
        return [player for player in state.drawing if player not in state.draws]


ENGINE = HighCardEngine(rules_model=Rules, state_model=State, action_type=Action, event_type=Event)

PLAYOUT_VARIANTS: tuple[Rules, ...] = (Rules(), Rules(stake=0, rake=0), Rules(rake=5))
"""The rules the contract's random playouts cover (tests/games/test_contract.py)."""
