"""The typed engine contract: what every game module provides, checked by mypy.

ENGINE_CONTRACT.md fixes the surface outside tests import (module-level ``start`` and
``act``, the models' class and field names). This module is the same contract for the
bot itself: each engine module defines one subclass of :class:`Engine` and exports an
instance as ``ENGINE``; the module-level functions are that instance's bound methods. An
engine missing a method the table service needs cannot be instantiated, and mypy says so
(``Cannot instantiate abstract class``) where ``ENGINE`` is made.

Generic in the game's rules, state, action and event types, so the table service and the
cogs get checked states and actions without casts.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, TypeAdapter

from bot.games.common import Permission
from bot.games.dice import Dice

RulesT = TypeVar("RulesT", bound=BaseModel)
StateT = TypeVar("StateT", bound=BaseModel)
ActionT = TypeVar("ActionT", bound=BaseModel)
EventT = TypeVar("EventT", bound=BaseModel)


class Engine(ABC, Generic[RulesT, StateT, ActionT, EventT]):
    """One game's rules, as the table service drives them.

    Subclasses implement the abstract methods; the hooks with defaults are for games that
    need them (a bank that pays out, a secret choice charged at the reveal, a game that
    seats newcomers mid-play).
    """

    name: ClassVar[str]
    """The module's name (``"hazard"``): the key in the registry and the database."""
    join_action: ClassVar[type[BaseModel] | None] = None
    """An action that seats a newcomer once the game runs, where the game allows it."""
    leave_action: ClassVar[type[BaseModel] | None] = None
    """An action that lets a player leave a running game, where the game allows it."""
    charges_at_reveal: ClassVar[bool] = False
    """Whether a reveal can take coins a secret choice promised (see :meth:`shortfall`)."""
    seats_by_wallet: ClassVar[bool] = False
    """Whether :meth:`seat_order` needs the players' wallets (a richest-player banker)."""
    permissions: ClassVar[Mapping[type[BaseModel], Permission]] = {}
    """Who may send an action, where it is not a seated player (the default)."""
    secret_choices: ClassVar[Mapping[str, str]] = {}
    """A member's secret actions: logged ``kind`` → the choice it makes (a round's bid, a
    forbidden number). A member's later action of the same choice replaces the earlier one
    unseen. /history, /verify and the replay page show such an action only once
    :meth:`reveals` said its choice was revealed, and never one that was replaced or
    never revealed (a bid pending when a moderator ended the game)."""

    def __init__(
        self,
        *,
        rules_model: type[RulesT],
        state_model: type[StateT],
        action_type: Any,
        event_type: Any,
    ) -> None:
        self.rules_model = rules_model
        self.state_model = state_model
        # The unions (discriminated on ``kind``) that parse a logged action or event.
        self.actions: TypeAdapter[ActionT] = TypeAdapter(action_type)
        self.events: TypeAdapter[EventT] = TypeAdapter(event_type)

    # -- the rules ---------------------------------------------------------------------

    @abstractmethod
    def start(self, rules: RulesT, players: list[int], dice: Dice) -> StateT:
        """The game's first state; players are in seat order."""

    @abstractmethod
    def act(
        self, state: StateT, player: int | None, action: ActionT, dice: Dice
    ) -> tuple[StateT, list[EventT]]:
        """Apply an action (``player`` ``None``: the table). Never mutates ``state``;
        raises :class:`~bot.games.errors.IllegalMove` and changes nothing when refused."""

    # -- what the table service needs ----------------------------------------------------

    @abstractmethod
    def seat_limits(self, rules: RulesT) -> tuple[int, int]:
        """The fewest and most seats a table allows."""

    @abstractmethod
    def hold(self, rules: RulesT) -> int:
        """Coins a member puts in escrow on taking a seat in the lobby."""

    @abstractmethod
    def deadline_seconds(self, state: StateT) -> int | None:
        """How long the current decision point lasts; ``None``: nothing is waited for."""

    def parse_action(self, data: Mapping[str, Any]) -> ActionT:
        """An action back from its logged JSON."""
        return self.actions.validate_python(dict(data))

    def parse_event(self, data: Mapping[str, Any]) -> EventT:
        """A public event back from its logged JSON."""
        return self.events.validate_python(dict(data))

    # -- optional hooks (bot/games/common.py explains each) ------------------------------

    def seat_order(
        self, rules: RulesT, players: list[int], balances: Mapping[int, int]
    ) -> list[int]:
        """The seat order the game starts with, given each player's wallet (read only for
        a game that sets :attr:`seats_by_wallet`): by default, the order they sat down."""
        return players

    def legal_actions(self, state: StateT, player: int) -> list[ActionT]:
        """Every action ``player`` may send now (not the table's own), for the deadline's
        default, a computer player and random playouts. Games that list them override."""
        return []

    def bank_exposure(self, state: StateT) -> int:
        """The most the bank could pay out, net, on the bets now open."""
        return 0

    def ply(self, state: StateT) -> int:
        """How many moves the table has made: a button carries it, so a click on a moment
        that has passed is told so. By default 0 (a game whose buttons carry none)."""
        return 0

    def winners(self, state: StateT) -> list[int]:
        """The players a finished game names as its winners (for /stats and the Watch
        DM); by default none: a game settled in coins alone names nobody."""
        return []

    def waiting_on(self, state: StateT) -> list[int]:
        """The players the table waits on now, in seat order, for a turn notification:
        whose move it is; at a round of secret choices, those still to choose once another
        has chosen (until then every player is choosing and nobody is late). Only what the
        table message already shows (who has chosen, never what). By default nobody."""
        return []

    def player_banker(self, state: StateT) -> int | None:
        """The member who banks from their own wallet, if the game has one now."""
        return None

    def stake_range(self, rules: RulesT) -> tuple[int, int]:
        """The least and the most one stake at such a table can be, as a server's
        `/config stakes` limits it: by default the seat's hold; a betting game's bets."""
        return (self.hold(rules), self.hold(rules))

    def pending_charge(self, state: StateT, player: int) -> int:
        """Coins ``player``'s unrevealed choice will take at the reveal."""
        return 0

    def top_up(self, before: StateT, after: StateT, player: int) -> int:
        """Coins ``player``'s wallet must put back into escrow when an action takes the
        game from ``before`` to ``after`` beyond a rise of their stake (a settled loss
        paid from their stake, put back to cover what comes next): a stake of theirs. When
        it cannot be taken, the table sends :meth:`shortfall` and acts again."""
        return 0

    def shortfall(self, state: StateT, player: int) -> ActionT | None:
        """At a reveal ``player`` cannot pay: the table's action that changes their choice
        to one they can pay, or ``None``."""
        return None

    def reveals(self, event: Mapping[str, Any]) -> Mapping[str, Collection[int] | None]:
        """The secret choices a public event (as logged, plain JSON) reveals: choice (a
        value of :attr:`secret_choices`) → the players whose current choice it shows
        (``None``: every player's)."""
        return {}

    def honours_at_end(
        self, state: StateT, events: Sequence[Mapping[str, Any]]
    ) -> list[tuple[int, str]]:
        """Honours read from a finished game: its final state and every event it logged
        (as stored, plain JSON), as (player, honour). For games whose honours are not
        events of their own; one that emits ``kind="honour"`` events needs nothing here."""
        return []


AnyEngine = Engine[Any, Any, Any, Any]
