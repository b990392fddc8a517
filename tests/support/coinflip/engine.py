"""The coin-flip engine: players call a coin in turn; the first right call takes the pot,
less the house's rake."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from bot.games.common import HOUSE, Deadline
from bot.games.contract import Engine
from bot.games.dice import Dice
from bot.games.errors import IllegalMove
from bot.games.kit import evolve


class Rules(BaseModel):
    stake: int = Field(default=10, ge=0)
    rake: int = Field(default=0, ge=0)
    turn_seconds: int = Field(default=30, ge=1)
    max_players: int = Field(default=4, ge=2, le=6)


class Call(BaseModel):
    kind: Literal["call"] = "call"
    side: Literal["heads", "tails"]


class Raise(BaseModel):
    """Put `amount` more into the pot (to test money an action itself moves)."""

    kind: Literal["raise"] = "raise"
    amount: int


class Flipped(BaseModel):
    kind: Literal["flipped"] = "flipped"
    player: int
    side: str
    landed: str


class Won(BaseModel):
    kind: Literal["won"] = "won"
    player: int
    pot: int


class State(BaseModel):
    rules: Rules
    seats: list[int]
    turn: int = 0
    ply: int = 0
    finished: bool = False
    winner: int | None = None
    stakes: dict[int, int]
    payouts: dict[int, int] = Field(default_factory=dict)


Action = Annotated[Call | Raise | Deadline, Field(discriminator="kind")]
Event = Annotated[Flipped | Won, Field(discriminator="kind")]
ACTIONS = (Call, Raise, Deadline)


def seat_limits(rules: Rules) -> tuple[int, int]:
    return 2, rules.max_players


def hold(rules: Rules) -> int:
    return rules.stake


def deadline_seconds(state: State) -> int | None:
    return None if state.finished else state.rules.turn_seconds


def start(rules: Rules, players: list[int], dice: Dice) -> State:
    return State(rules=rules, seats=list(players), stakes={p: rules.stake for p in players})


def act(
    state: State, player: int | None, action: BaseModel, dice: Dice
) -> tuple[State, list[BaseModel]]:
    if state.finished:
        raise IllegalMove("The coin has already found its winner.")
    # A shallow copy whose containers are replaced, never mutated, as every shipped engine
    # evolves its state (bot/games/kit.py): a deep copy here made the benchmarks' test
    # game pay a copy per action that no real game pays.
    new = evolve(state)
    current = new.seats[new.turn]
    if isinstance(action, Raise):
        if player not in new.seats:
            raise IllegalMove("You are not playing.")
        if action.amount <= 0:
            raise IllegalMove("Raise by at least one coin.")
        new.stakes = {**new.stakes, player: new.stakes[player] + action.amount}
        return new, []
    if isinstance(action, Deadline):
        side = "heads"
    elif isinstance(action, Call):
        if player != current:
            raise IllegalMove("It is not your turn to call.")
        side = action.side
    else:
        raise IllegalMove("Unknown action.")
    landed = "heads" if dice.roll(2) == 1 else "tails"
    events: list[BaseModel] = [Flipped(player=current, side=side, landed=landed)]
    new.ply += 1
    if landed == side:
        pot = sum(new.stakes.values())
        rake = min(new.rules.rake, pot)
        new.payouts = {p: -stake for p, stake in new.stakes.items()}
        new.payouts[current] += pot - rake
        new.payouts[HOUSE] = rake
        new.stakes = {p: 0 for p in new.stakes}
        new.finished = True
        new.winner = current
        events.append(Won(player=current, pot=pot - rake))
    else:
        new.turn = (new.turn + 1) % len(new.seats)
    return new, events


class CoinflipEngine(Engine[Rules, State, BaseModel, BaseModel]):
    """The typed face of this module (see bot/games/contract.py)."""

    def ply(self, state: State) -> int:
        return state.ply

    def winners(self, state: State) -> list[int]:
        return [] if state.winner is None else [state.winner]

    name = "coinflip"

    def start(self, rules: Rules, players: list[int], dice: Dice) -> State:
        return start(rules, players, dice)

    def act(
        self, state: State, player: int | None, action: BaseModel, dice: Dice
    ) -> tuple[State, list[BaseModel]]:
        return act(state, player, action, dice)

    def seat_limits(self, rules: Rules) -> tuple[int, int]:
        return seat_limits(rules)

    def hold(self, rules: Rules) -> int:
        return hold(rules)

    def deadline_seconds(self, state: State) -> int | None:
        return deadline_seconds(state)


ENGINE = CoinflipEngine(rules_model=Rules, state_model=State, action_type=Action, event_type=Event)


PLAYOUT_VARIANTS: tuple[Rules, ...] = (Rules(), Rules(stake=0))
"""The rules the contract's random playouts cover (tests/games/test_contract.py)."""
