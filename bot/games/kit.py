"""What every engine does alike: evolve state, dispatch actions, split coins, list moves.

Evolving state — the one way. An action handler gets a *shallow* copy of the state
(:func:`evolve`) and builds the next state on it by **assigning** its fields, replacing
containers, never mutating a container it did not make itself:
``s.stamina = {**s.stamina, p: 0}``, not ``s.stamina[p] = 0``. Every engine does this, and
only this: an assignment is checked by mypy against the field's type (a keyword write
past pydantic would not be), and on the engines' playouts it measured no slower than one.
Why a shallow copy rather than a deep one per action: a deep copy
(``model_copy(deep=True)``) costs 30–40 µs a state, several times the work of a typical
action, and Nihakyu's playouts (a goal of 2,000 games a second) spend most of their time
there; a shallow copy costs about 1 µs. The contract test over every engine checks, on
random playouts, that ``act`` never changes the state it was given, so a handler that
mutates a shared container fails loudly.

Dispatch — check, then apply. An engine maps each action type to a :class:`Move`: a
``check`` that raises :class:`IllegalMove` with the reason (and touches nothing) and an
``apply`` that builds the next state and its events. :class:`Rulebook` runs them, so every
engine refuses the same way and a refusal can never leave half an action behind.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Generic, NoReturn, Protocol, TypeVar, Union, cast

from pydantic import BaseModel, Discriminator, Tag

from bot.games.common import HOUSE
from bot.games.dice import Dice
from bot.games.errors import IllegalMove
from bot.i18n import N_

# The kit's refusals, whole sentences (a template each, so every one is translated and no
# engine names itself to refuse): an engine picks among them, or marks its own with ``N_``.
NOT_SEATED = N_("You aren't seated at this table.")
NOT_SEATED_JOIN_FIRST = N_("You aren't seated at this table — join it first.")
TABLE_CALLS_TIME = N_("The table itself can only call time.")

ActionT = TypeVar("ActionT", bound=BaseModel)
EventT = TypeVar("EventT", bound=BaseModel)
ModelT = TypeVar("ModelT", bound=BaseModel)


class TableState(Protocol):
    """What the kit reads of every engine's state (each is a pydantic model that has
    these fields, among its own): a rulebook refuses every action once ``finished``, the
    seated-move helpers read ``seats``."""

    @property
    def seats(self) -> list[int]: ...
    @property
    def finished(self) -> bool: ...


StateT = TypeVar("StateT", bound=TableState)

_new_object = object.__new__
# A pydantic model keeps its fields' dict and its bookkeeping in slots that BaseModel
# declares; writing them through those slots' own descriptors skips object.__setattr__'s
# look-up by name (measured: a sixth of a copy's cost). Same effect as object.__setattr__.
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def evolve(model: ModelT, **changes: Any) -> ModelT:
    """A shallow copy of ``model`` with ``changes`` written in, unvalidated.

    Containers are shared with ``model`` until replaced: replace them, never mutate them
    (see the module notes). The values in ``changes`` must already have the field's type.
    Every field of the copy counts as set (one shared set per class, which pydantic's
    bookkeeping on assignment never changes): unions of fields-sets were a visible share
    of a copy's cost, and no state is ever dumped with ``exclude_unset``.
    """
    cls = type(model)
    every_field = _EVERY_FIELD.get(cls)
    if every_field is None:
        every_field = _EVERY_FIELD[cls] = set(cls.model_fields)
    fields = model.__dict__.copy()
    if changes:
        fields.update(changes)
    new = _new_object(cls)
    _set_dict(new, fields)
    _set_fields_set(new, every_field)
    _set_extra(new, model.__pydantic_extra__)
    _set_private(new, model.__pydantic_private__)
    return new


_EVERY_FIELD: dict[type[BaseModel], set[str]] = {}

_copy: Callable[[Any], Any] = evolve
""":func:`evolve` for a rulebook, whose states are typed by what it reads of them
(:class:`TableState`): every engine's state is a pydantic model too."""


def build(cls: type[ModelT], **values: Any) -> ModelT:
    """A model (a frequent event) from values that already have their fields' types,
    unvalidated; unspecified fields take their defaults.

    Validating the few events a playout emits at every action cost a quarter of a
    Nihakyu playout, measured. The engines' tests re-validate every event they see, so
    a value of the wrong type fails there. Like states, events may share containers with
    the state that made them: all are read-only by convention."""
    prepared = _PREPARED.get(cls)
    if prepared is None:
        defaults = {
            name: field.get_default(call_default_factory=True)
            for name, field in cls.model_fields.items()
            if not field.is_required()
        }
        prepared = _PREPARED[cls] = (defaults, set(cls.model_fields))
    defaults, every_field = prepared
    new = _new_object(cls)
    _set_dict(new, defaults | values if defaults else values)
    _set_fields_set(new, every_field)
    _set_extra(new, None)
    _set_private(new, None)
    return new


_PREPARED: dict[type[BaseModel], tuple[dict[str, Any], set[str]]] = {}
"""Per model: its fields' defaults and the names of all its fields."""


_S = TypeVar("_S")
_A = TypeVar("_A")
_E = TypeVar("_E")


@dataclass(frozen=True, slots=True)
class Move(Generic[_S, _A, _E]):
    """How an engine handles one action type: ``check`` refuses with a reason; ``apply``
    takes a fresh shallow copy (see :func:`evolve`) and returns the events it caused."""

    check: Callable[[_S, int | None, _A], None]
    apply: Callable[[_S, int | None, _A, Dice], list[_E]]


class Rulebook(Generic[StateT, ActionT, EventT]):
    """An engine's dispatch table: action type → :class:`Move`."""

    def __init__(
        self,
        moves: Mapping[type[Any], Move[StateT, Any, EventT]],
        *,
        finished: str = N_("This game is already over."),
    ) -> None:
        """``finished``: the refusal of any action once the game is over (a template an
        engine marks with ``N_``)."""
        self._moves = dict(moves)
        self._finished = finished

    @property
    def action_types(self) -> tuple[type[Any], ...]:
        return tuple(self._moves)

    def act(
        self, state: StateT, player: int | None, action: ActionT, dice: Dice
    ) -> tuple[StateT, list[EventT]]:
        if state.finished:
            raise IllegalMove(self._finished)
        move = self._moves.get(type(action))
        if move is None:
            raise IllegalMove("That is not a move in this game.")
        move.check(state, player, action)
        new = _copy(state)
        events = move.apply(new, player, action, dice)
        return new, events

    def allows(self, state: StateT, player: int | None, action: ActionT) -> bool:
        """Whether ``action`` would be accepted now (its check passes)."""
        if state.finished:
            return False
        move = self._moves.get(type(action))
        if move is None:
            return False
        try:
            move.check(state, player, action)
        except IllegalMove:
            return False
        return True

    def legal_actions(
        self, state: StateT, player: int | None, candidates: Iterable[ActionT]
    ) -> list[ActionT]:
        """The candidates ``player`` may take now, in the order given."""
        return [action for action in candidates if self.allows(state, player, action)]


def only_the_table(state: Any, player: int | None, action: Any) -> None:
    """The check of a table's own step (a deadline): no player may send it."""
    if player is not None:
        raise IllegalMove("Only the table itself can call time.")


def refuse_outsider(
    player: int | None, *, outsider: str = NOT_SEATED, table_only: str = TABLE_CALLS_TIME
) -> NoReturn:
    """Refuse a player's action sent by the table itself (``None``: ``table_only`` says
    what it can do) or by someone not seated (``outsider``, e.g.
    :data:`NOT_SEATED_JOIN_FIRST` where a newcomer may sit down mid-play). Both are
    whole-sentence templates, marked with ``N_`` where they are written."""
    if player is None:
        raise IllegalMove(table_only)
    raise IllegalMove(outsider)


def seated_move(
    check: Callable[[StateT, int, _A], None],
    apply: Callable[[StateT, int, _A, Dice], list[_E]],
    *,
    outsider: str = NOT_SEATED,
    table_only: str = TABLE_CALLS_TIME,
) -> Move[StateT, _A, _E]:
    """A move only a seated player makes: anyone else, and the table itself, is refused
    (:func:`refuse_outsider`) before ``check`` runs, so both see a seated player."""

    def checked(state: StateT, player: int | None, action: _A) -> None:
        if player is None or player not in state.seats:
            refuse_outsider(player, outsider=outsider, table_only=table_only)
        check(state, player, action)

    # The check has refused the table (player None), so ``apply`` is only ever called
    # with a seated player: handed over as it is, without a wrapper call on every action.
    return Move(checked, cast(Callable[[StateT, int | None, _A, Dice], list[_E]], apply))


def check_join(
    state: TableState, player: int | None, max_players: int, *, table_only: str = TABLE_CALLS_TIME
) -> None:
    """The check of a newcomer taking a seat in a game that seats them mid-play
    (``table_only``: as in :func:`refuse_outsider`)."""
    if player is None:
        raise IllegalMove(table_only)
    if player == HOUSE:
        raise IllegalMove("That player id is reserved for the bank.")
    if player in state.seats:
        raise IllegalMove("You're already seated at this table.")
    if len(state.seats) >= max_players:
        raise IllegalMove("This table is full ({seats} seats).", seats=max_players)


_BET_TAG = "bet"


def bet_kind_union(
    actions: Sequence[type[BaseModel]],
    *,
    bet: type[BaseModel],
    bet_kinds: Collection[str],
    legacy_key: str | None = None,
) -> Any:
    """The union that parses a logged action of a betting game, told apart by ``kind``.

    ENGINE_CONTRACT.md fixes ``Bet(kind, amount)``: a bet's ``kind`` is its bet kind, so
    any of ``bet_kinds`` names ``bet`` and every other action its own ``kind`` literal.
    ``legacy_key``: the key older logs named the action by when ``kind`` is absent (the
    old key is ignored once the model is picked: the models ignore unknown keys)."""

    def tag_of_data(data: Any) -> str | None:
        if isinstance(data, Mapping):
            tag = data.get("kind", data.get(legacy_key)) if legacy_key else data.get("kind")
        else:
            tag = getattr(data, "kind", None)
        if not isinstance(tag, str):
            return None
        return _BET_TAG if tag in bet_kinds else tag

    def tag_of_model(model: type[BaseModel]) -> str:
        if model is bet:
            return _BET_TAG
        tag = model.model_fields["kind"].default
        assert isinstance(tag, str), model  # every other action has a fixed kind
        return tag

    # ``Union[...]``: the members are only known here (``X | Y`` needs them written out).
    return Annotated[
        Union[tuple(Annotated[model, Tag(tag_of_model(model))] for model in actions)],  # noqa: UP007
        Discriminator(tag_of_data),
    ]


def the_service_decides(state: Any, player: int | None, action: Any) -> None:
    """The check of an abort: always allowed here, because who may end a game is the
    table service's decision (a moderator not seated), made before the engine is asked;
    the engine takes it from whoever the log names."""


def split_evenly(amount: int, players: Sequence[int]) -> dict[int, int]:
    """``amount`` shared equally; the remainder one coin at a time in the given order."""
    if not players:
        if amount:
            raise ValueError(f"{amount} coins to share and nobody to share them with")
        return {}
    share, extra = divmod(amount, len(players))
    return {player: share + (1 if index < extra else 0) for index, player in enumerate(players)}


def split_proportional(amount: int, weights: Mapping[int, int]) -> dict[int, int]:
    """``amount`` shared in proportion to ``weights`` by largest remainder: every coin is
    handed out, none is made. Ties in the remainder go in the mapping's order; players of
    weight 0 get nothing (all weights 0: an even split)."""
    if amount and not weights:
        raise ValueError(f"{amount} coins to share and nobody to share them with")
    total = sum(max(weight, 0) for weight in weights.values())
    if total == 0:
        return split_evenly(amount, list(weights))
    exact = {player: Fraction(amount * max(weight, 0), total) for player, weight in weights.items()}
    shares = {player: int(value) for player, value in exact.items()}
    left = amount - sum(shares.values())
    order = sorted(weights, key=lambda player: exact[player] - shares[player], reverse=True)
    for player in order[:left]:
        shares[player] += 1
    return shares


# ------------------------------------------------------------------ a betting window
# Hazard and Fortunes and Winds give the other seats a window to bet in once the round's
# roller is committed (the main called, the shooter's bet down): it closes when everyone
# it waits for has bet or said Ready, or when its time runs out.


class BettingWindow(Protocol):
    """What the window helpers read and write of a state (fields of the game's model)."""

    window_open: bool
    bets_closed: bool
    ready: list[int]
    ply: int


WindowT = TypeVar("WindowT", bound=BettingWindow)
ClosedT = TypeVar("ClosedT", bound=BaseModel)


def check_ready(state: BettingWindow, player: int) -> None:
    """Refuse a Ready with no window open, or from a player who said it already (the game
    first refuses those its window never waits for)."""
    if not state.window_open:
        raise IllegalMove("No betting window is open right now.")
    if player in state.ready:
        raise IllegalMove("You already said you're ready.")


def close_window(s: BettingWindow, closed: type[ClosedT], *, by_deadline: bool) -> ClosedT:
    """Close the window on a fresh copy: no more bets this round; the game's event saying
    so (its ``BettingClosed``)."""
    s.window_open = False
    s.bets_closed = True
    s.ply += 1
    return build(closed, by_deadline=by_deadline)


def close_window_if_done(
    s: WindowT, waiting_on: Callable[[WindowT], list[int]], closed: type[ClosedT]
) -> list[ClosedT]:
    """Close the open window once it waits for nobody (a bet or a Ready was the last)."""
    if s.window_open and not waiting_on(s):
        return [close_window(s, closed, by_deadline=False)]
    return []
