"""Nihakyu, "The Two-Hundred Game": the pure engine.

Every player starts with the same Stamina and, in simultaneous rounds, loses what their
d20 shows until one is left above 0. The authoritative rules are
``shared/rules/nihakyu.md``; the player-facing text is ``bot/rules_text/nihakyu.md``.

Surface (ENGINE_CONTRACT.md plus :mod:`bot.games.common`): :class:`Rules`, :class:`State`,
:func:`start`, :func:`act`, :func:`seat_limits`, :func:`hold`, :func:`deadline_seconds`,
:data:`ACTIONS`, the :data:`Action` and :data:`Event` unions, the hooks
:func:`pending_charge` and :func:`shortfall`, the helpers :func:`standing` and
:func:`legal_actions`, and :data:`DEALER`, :data:`SHINIGAMI` and
:data:`FORBIDDEN_TECHNIQUES` for the cog.

Chance, always through the ``dice`` argument and in exactly this order: when a round's
dice are rolled, each standing player in seat order (Roll: one d20; Kage's Endurance: two
consecutive d20; Shadow Step: none), then the Dealer; then, when the Sleight of Hand
window closes, one d20 per attempted check in seat order; then, if the tie rule needs it,
sudden death: the tied contenders in seat order (the Dealer last), round after round.

Rulings the source leaves open (also explained to players in the rules text):

* **Auto-roll and forfeit.** A standing player with no choice when the choosing deadline
  passes Rolls. A player who chooses resets their count. The
  ``afk_rounds_to_forfeit``-th auto-roll in a row is still rolled and shown, but the player
  forfeits as that round's Stamina changes apply: they are eliminated whatever the die
  said (Stamina set to at most 0), take no part in that round's Sleight window, cannot be
  picked by the tie rule and get no Dealer's Blood share. Their ante stays in the pot.
* **Sleight of Hand.** Only players who rolled (Roll or Kage's Endurance) and are not
  forfeiting may try, once per round; the Dealer never does. The window closes as soon
  as all of them decided. With ``caught_on_natural_one`` (off by default) a natural 1 is
  "caught cheating" whatever the bonus: Stamina 0, eliminated, ante stays in the pot.
  Otherwise ``d20 + sleight_bonus >= 18`` succeeds. The adjustment moves the die that counts (for
  Kage's Endurance, the lower one) and a die shows 1..20, so the result is clamped there.
* **Who may win.** Players ejected (by a moderator or for cheating) or forfeited cannot
  win and get no share. If a round removes everyone who could win, the house takes the
  pot; if the Dealer is the last one standing and no player may share, the house takes
  the whole pot. Coins are never created or lost.
* **Dealer's Blood split.** When the Dealer outlasts everyone (or the tie rule picks it,
  rolling last in sudden death), the house takes ``pot // 2`` and the rest goes to the
  players who took part in the final round and were not removed, in proportion to their
  Stamina before it; leftover coins go to the largest remainders, ties in seat order.
* **Sudden death** is rolled at once, inside the act that ends the round.
* **Kage's Endurance** counts as used when the dice are rolled. The choice stays secret,
  so choosing it moves no coin: the second ante joins the player's stake and the pot at
  the reveal (:func:`pending_charge` lets the service check the wallet on choosing). If
  the wallet cannot pay then, the service applies :class:`KageUnpaid` (from
  :func:`shortfall`) and retries: the choice becomes a Roll and the reveal says why.
  Once rolled, the second ante stays in the pot.
* **Shadow Step** uses are counted when the dice are rolled; it can eliminate (5 -> 0).
* **Eject** is a moderator's (Manage Server) action; the cog checks the permission and the
  engine refuses it from anyone seated, the host included (a host could otherwise eject
  everyone and take the pot). The event names who ejected. A pending choice of the
  ejected player is void; in the Sleight window their roll is discarded. If everyone left
  has already decided, the round goes on at once. :class:`Deadline` and
  :class:`KageUnpaid` are the table's.
* **Abort** (:class:`~bot.games.common.Abort`, a moderator's word, checked by the
  service): nothing in Nihakyu is settled before the end, so every stake goes back (each
  ante and any second ante already taken); no winner, payouts all 0.
* **Touching the Shinigami's Hand**: a player (never the Dealer) who ends a round still
  standing at exactly 1 Stamina, every time it happens, including the winner.
* ``round`` is the round being played (1-based); it stays at the final round when the
  game ends. ``ply`` moves by one when a Sleight window opens, when a round's Stamina
  changes apply, and when the game ends (never on a choice or a Sleight decision): a
  round without a window moves it once, a round with one twice.

Speed: a random 4-player playout runs a few thousand games a second because the hot path
skips pydantic's generic machinery: one shallow copy per act (:func:`_copy`), direct field
writes on that copy (:func:`_put`) and unvalidated construction of the frequent events
(:func:`_event`). The rare events and every state from outside are validated as usual.
"""

from __future__ import annotations

from typing import Annotated, Literal, NamedTuple, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from bot.games.common import HOUSE, Abort, Deadline, Honour
from bot.games.dice import Dice
from bot.games.errors import IllegalMove

DEALER = -1
"""The Dealer's key in :attr:`State.stamina` (Dealer's Blood)."""
SHINIGAMI = "Touching the Shinigami's Hand"
"""The honour for surviving a round at exactly 1 Stamina."""
SLEIGHT_DC = 18
SHADOW_STEP_COST = 5
FORBIDDEN_TECHNIQUES = (
    "Chakra manipulation of the die",
    "Genjutsu confusion",
    "Dōjutsu (Byakugan, Sharingan, etc.) for predictive insight",
    "Substitution during rolls",
    "Summoning creatures to interfere",
)

Choice = Literal["roll", "shadow_step", "kage"]
EliminationReason = Literal["stamina", "caught_cheating", "ejected", "afk"]
Phase = Literal["choosing", "sleight", "finished"]


class Rules(BaseModel):
    """The table's settings; every variant is off unless the table turns it on."""

    model_config = ConfigDict(frozen=True)

    starting_stamina: int = Field(200, ge=1)
    ante: int = Field(10, ge=0)
    shadow_step: bool = False
    shadow_step_uses: int | None = Field(None, ge=0)
    """Shadow Steps each player may use per game; ``None`` is unlimited."""
    kage_endurance: bool = False
    dealers_blood: bool = False
    shinobi_interference: bool = False
    sleight_bonus: int = 0
    caught_on_natural_one: bool = False
    """House rule: a natural 1 on a Sleight of Hand check is "caught cheating"."""
    round_seconds: int = Field(60, ge=1)
    sleight_seconds: int = Field(30, ge=1)
    afk_rounds_to_forfeit: int = Field(3, ge=1)
    max_players: int = Field(8, ge=2, le=8)


# --- actions -------------------------------------------------------------------------


class Roll(BaseModel):
    """This round: lose what one d20 shows."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["roll"] = "roll"


class ShadowStep(BaseModel):
    """This round: lose exactly 5, no roll (variant)."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["shadow_step"] = "shadow_step"


class KageEndurance(BaseModel):
    """This round: roll two d20 and lose the lower; once per game, costs one more ante."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["kage_endurance"] = "kage_endurance"


class Sleight(BaseModel):
    """Try a Sleight of Hand check to move one's own die by ``adjust`` (variant)."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["sleight"] = "sleight"
    adjust: Literal[-1, 1]


class SkipSleight(BaseModel):
    """Decline Sleight of Hand this round."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["skip_sleight"] = "skip_sleight"


class Eject(BaseModel):
    """A moderator who is not seated removes ``target`` for a forbidden technique.

    The cog checks the Manage Server permission; the engine refuses it from a seated player.
    """

    model_config = ConfigDict(frozen=True)
    kind: Literal["eject"] = "eject"
    target: int


class KageUnpaid(BaseModel):
    """The table: ``player``'s wallet cannot pay the second ante of their Kage's Endurance
    at the reveal, so the choice becomes a plain Roll (see :func:`shortfall`)."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["kage_unpaid"] = "kage_unpaid"
    player: int


Action = Annotated[
    Roll
    | ShadowStep
    | KageEndurance
    | Sleight
    | SkipSleight
    | Eject
    | KageUnpaid
    | Abort
    | Deadline,
    Field(discriminator="kind"),
]
ACTIONS = (
    Roll,
    ShadowStep,
    KageEndurance,
    Sleight,
    SkipSleight,
    Eject,
    KageUnpaid,
    Abort,
    Deadline,
)


# --- events --------------------------------------------------------------------------


class ChoiceConfirmed(BaseModel):
    """Private: the player's own choice for the round, their stake (unchanged by a choice)
    and ``charge``, the coins the choice will take at the reveal (Kage's second ante)."""

    kind: Literal["choice_confirmed"] = "choice_confirmed"
    private_to: int
    player: int
    round: int
    choice: Choice
    stake: int
    charge: int = 0


class PlayerChose(BaseModel):
    """Public: the player has chosen (or changed) their action; never which one."""

    kind: Literal["player_chose"] = "player_chose"
    round: int
    player: int


class RoundRevealed(BaseModel):
    """Public: everyone's choice and dice for the round (the Dealer under -1)."""

    kind: Literal["round_revealed"] = "round_revealed"
    round: int
    choices: dict[int, Choice]
    rolls: dict[int, list[int]]
    auto_rolled: list[int]
    """Players who did not choose in time and Rolled automatically."""
    forfeiting: list[int]
    """Players whose auto-roll was their last allowed in a row: out after this round."""
    kage_unpaid: list[int] = []
    """Players whose Kage's Endurance became a Roll: their wallet could not pay the second
    ante (they show under ``choices`` as "roll")."""


class SleightWindowOpened(BaseModel):
    """Public: these players may now try Sleight of Hand before Stamina changes."""

    kind: Literal["sleight_window"] = "sleight_window"
    round: int
    players: list[int]


class SleightConfirmed(BaseModel):
    """Private: the player's own Sleight decision (``adjust`` 0 means skip)."""

    kind: Literal["sleight_confirmed"] = "sleight_confirmed"
    private_to: int
    player: int
    round: int
    adjust: Literal[-1, 0, 1]


class SleightDecided(BaseModel):
    """Public: the player has decided in the Sleight window; never what."""

    kind: Literal["sleight_decided"] = "sleight_decided"
    round: int
    player: int


class SleightChecked(BaseModel):
    """Public: one Sleight of Hand check and its outcome."""

    kind: Literal["sleight_check"] = "sleight_check"
    round: int
    player: int
    adjust: Literal[-1, 1]
    natural: int
    total: int
    outcome: Literal["success", "failure", "caught"]


class RoundResolved(BaseModel):
    """Public: what each participant lost this round and everyone's Stamina after it."""

    kind: Literal["round_resolved"] = "round_resolved"
    round: int
    losses: dict[int, int]
    stamina: dict[int, int]


class PlayerEliminated(BaseModel):
    """Public: a player (or the Dealer, -1) is out."""

    kind: Literal["eliminated"] = "eliminated"
    round: int
    player: int
    reason: EliminationReason
    by: int | None = None
    """Who ejected the player (reason "ejected"); ``None`` when the table itself did."""


class SuddenDeath(BaseModel):
    """Public: the tie-break rolls, one mapping per sudden-death round."""

    kind: Literal["sudden_death"] = "sudden_death"
    players: list[int]
    rolls: list[dict[int, int]]
    winner: int


class RoundStarted(BaseModel):
    """Public: a new round; ``standing`` includes the Dealer (-1) while it stands."""

    kind: Literal["round_started"] = "round_started"
    round: int
    standing: list[int]


class GameOver(BaseModel):
    """Public: the result; ``shares`` is the coins each player receives from the pot."""

    kind: Literal["game_over"] = "game_over"
    winner: int | None
    dealer_won: bool
    reason: Literal["last_standing", "highest_before", "sudden_death", "dealer", "no_contender"]
    pot: int
    house: int
    shares: dict[int, int]
    payouts: dict[int, int]
    basis: dict[int, int] = {}
    """Dealer's Blood split: the Stamina before the final round each share is based on."""


class Aborted(BaseModel):
    """Public: a moderator ended the table; every stake (ante, second ante) goes back."""

    kind: Literal["aborted"] = "aborted"
    round: int
    by: int | None
    refunds: dict[int, int]


Event = Annotated[
    ChoiceConfirmed
    | PlayerChose
    | RoundRevealed
    | SleightWindowOpened
    | SleightConfirmed
    | SleightDecided
    | SleightChecked
    | RoundResolved
    | PlayerEliminated
    | SuddenDeath
    | RoundStarted
    | GameOver
    | Aborted
    | Honour,
    Field(discriminator="kind"),
]


_EVENT_FIELDS: dict[type[BaseModel], set[str]] = {
    cls: set(cls.model_fields)
    for cls in (ChoiceConfirmed, PlayerChose, RoundRevealed, RoundResolved, RoundStarted)
}
"""The events :func:`_event` builds, with the names of all their fields."""


# --- state ---------------------------------------------------------------------------


class State(BaseModel):
    """The whole game. It holds secrets (``choices`` while choosing): never show it raw."""

    rules: Rules
    seats: list[int]
    phase: Phase = "choosing"
    finished: bool = False
    round: int = 1
    ply: int = 0
    stamina: dict[int, int]
    """Players, and the Dealer under -1 with Dealer's Blood. Standing means above 0."""
    eliminated: list[int] = []
    """Players out of the game, in the order they went out."""
    choices: dict[int, Choice] = {}
    """Secret until the reveal; in the Sleight window, the round's revealed choices."""
    auto_rolls: dict[int, int]
    """Auto-rolls in a row per player."""
    kage_used: list[int] = []
    shadow_steps: dict[int, int]
    """Shadow Steps used so far per player."""
    stakes: dict[int, int]
    pot: int
    payouts: dict[int, int]
    winner: int | None = None
    dealer_won: bool = False
    honours: list[Honour] = []
    rolls: dict[int, list[int]] = {}
    """The dice of the round in the Sleight window, otherwise of the last round rolled."""
    auto_rolled: list[int] = []
    """Who auto-rolled in the round of :attr:`rolls`."""
    forfeiting: list[int] = []
    sleight_players: list[int] = []
    """Who may decide in the open Sleight window, in seat order."""
    sleights: dict[int, int] = {}
    """Decisions made in the open Sleight window: -1 or +1, or 0 for skip."""
    kage_unpaid: list[int] = []
    """This round's Kage choices turned into a Roll by :class:`KageUnpaid` (until the reveal)."""
    aborted: bool = False
    """A moderator ended the game (:class:`~bot.games.common.Abort`); every stake went back."""
    shares: dict[int, int] = {}
    """Once finished: the coins each player received from the pot."""
    share_basis: dict[int, int] = {}
    """Dealer's Blood split: the Stamina before the final round each share was based on."""


_new_object = object.__new__
_set_slot = object.__setattr__


_STATE_FIELDS = set(State.model_fields)


# --- table conventions ---------------------------------------------------------------


def seat_limits(rules: Rules) -> tuple[int, int]:
    """The fewest and most seats a Nihakyu table allows."""
    return 2, rules.max_players


def hold(rules: Rules) -> int:
    """Coins each member escrows when sitting down: the ante."""
    return rules.ante


def deadline_seconds(state: State) -> int | None:
    """Time allowed for the current decision point; ``None`` once the game is over."""
    if state.phase == "choosing":
        return state.rules.round_seconds
    if state.phase == "sleight":
        return state.rules.sleight_seconds
    return None


def pending_charge(state: State, player: int) -> int:
    """Coins ``player``'s unrevealed choice will take at the reveal: the second ante while
    their choice this round is Kage's Endurance, else 0. Nothing moves before the reveal;
    the service only checks that the wallet covers it (the refusal is private)."""
    if state.phase == "choosing" and state.choices.get(player) == "kage":
        return state.rules.ante
    return 0


def shortfall(state: State, player: int) -> KageUnpaid | None:
    """At a reveal, ``player``'s wallet cannot pay what it takes (``state`` is the state
    before the reveal): the table action that turns their Kage's Endurance into a Roll,
    or ``None`` when they owe nothing at the reveal."""
    if pending_charge(state, player) > 0:
        return KageUnpaid(player=player)
    return None


def standing(state: State) -> list[int]:
    """Players still in the game, in seat order (the Dealer is not included)."""
    stamina = state.stamina
    return [p for p in state.seats if stamina[p] > 0]


def legal_actions(
    state: State, player: int
) -> list[Roll | ShadowStep | KageEndurance | Sleight | SkipSleight]:
    """The actions ``player`` may send right now (not Eject or Deadline, which the table sends)."""
    if state.finished or player not in state.stakes or state.stamina[player] <= 0:
        return []
    rules = state.rules
    if state.phase == "choosing":
        found: list[Roll | ShadowStep | KageEndurance | Sleight | SkipSleight] = [_ROLL]
        limit = rules.shadow_step_uses
        if rules.shadow_step and (limit is None or state.shadow_steps[player] < limit):
            found.append(_SHADOW_STEP)
        if rules.kage_endurance and player not in state.kage_used:
            found.append(_KAGE)
        return found
    if player in state.sleight_players and player not in state.sleights:
        return [_SLEIGHT_DOWN, _SLEIGHT_UP, _SKIP_SLEIGHT]
    return []


# Actions are frozen, so these can be handed out again and again.
_ROLL = Roll()
_SHADOW_STEP = ShadowStep()
_KAGE = KageEndurance()
_SLEIGHT_DOWN = Sleight(adjust=-1)
_SLEIGHT_UP = Sleight(adjust=1)
_SKIP_SLEIGHT = SkipSleight()


# --- start and act -------------------------------------------------------------------


def start(rules: Rules, players: list[int], dice: Dice) -> State:
    """Seat ``players`` in the given order and take each one's ante into the pot.

    ``dice`` is unused: nothing is random before the first round.
    """
    low, high = seat_limits(rules)
    if not low <= len(players) <= high:
        raise IllegalMove(f"Nihakyu needs {low} to {high} players; this table has {len(players)}.")
    if len(set(players)) != len(players):
        raise IllegalMove("Each player can take only one seat at the table.")
    if any(p <= 0 for p in players):
        raise IllegalMove("Players must be members (positive ids): 0 and -1 are reserved.")
    stamina = dict.fromkeys(players, rules.starting_stamina)
    if rules.dealers_blood:
        stamina[DEALER] = rules.starting_stamina
    payouts = dict.fromkeys(players, 0)
    payouts[HOUSE] = 0
    state = State(
        rules=rules,
        seats=list(players),
        stamina=stamina,
        auto_rolls=dict.fromkeys(players, 0),
        shadow_steps=dict.fromkeys(players, 0),
        stakes=dict.fromkeys(players, rules.ante),
        pot=rules.ante * len(players),
        payouts=payouts,
    )
    # Defaults count as set too, so a state's dump is the same before and after a copy.
    _set_slot(state, "__pydantic_fields_set__", _STATE_FIELDS)
    return state


def act(state: State, player: int | None, action: Action, dice: Dice) -> tuple[State, list[Event]]:
    """Apply ``action`` by ``player`` (``None``: the table). Never mutates ``state``.

    Raises :class:`IllegalMove`, with a sentence for the player, when the action is not
    allowed now; nothing changes then.
    """
    if state.finished:
        raise IllegalMove("This game of Nihakyu is over.")
    kind = action.kind
    if kind == "roll":
        return _choose(state, player, "roll", dice)
    if kind == "shadow_step":
        return _choose(state, player, "shadow_step", dice)
    if kind == "kage_endurance":
        return _choose(state, player, "kage", dice)
    if isinstance(action, Sleight):
        return _sleight(state, player, action.adjust, dice)
    if kind == "skip_sleight":
        return _sleight(state, player, 0, dice)
    if isinstance(action, Eject):
        return _eject(state, player, action.target, dice)
    if isinstance(action, KageUnpaid):
        return _kage_unpaid(state, player, action.player)
    if kind == "abort":
        return _abort(state, player)
    if kind == "deadline":
        return _deadline(state, dice)
    raise IllegalMove("That is not a Nihakyu action.")


# --- handlers ------------------------------------------------------------------------


def _seated_and_standing(state: State, player: int | None) -> int:
    if player is None or player not in state.stakes:
        raise IllegalMove("You are not seated at this Nihakyu table.")
    if state.stamina[player] <= 0:
        raise IllegalMove("You have been eliminated from this game; you can only watch now.")
    return player


def _choose(
    state: State, player: int | None, choice: Choice, dice: Dice
) -> tuple[State, list[Event]]:
    seated = _seated_and_standing(state, player)
    if state.phase != "choosing":
        raise IllegalMove(
            "This round's dice are already on the table; choose again when the next round starts."
        )
    rules = state.rules
    if choice == "shadow_step":
        if not rules.shadow_step:
            raise IllegalMove("Shadow Step is not played at this table.")
        limit = rules.shadow_step_uses
        if limit is not None and state.shadow_steps[seated] >= limit:
            raise IllegalMove(
                f"You have used all {limit} of your Shadow Steps this game."
                if limit
                else "This table allows no Shadow Steps."
            )
    elif choice == "kage":
        if not rules.kage_endurance:
            raise IllegalMove("Kage's Endurance is not played at this table.")
        if seated in state.kage_used:
            raise IllegalMove("You have already used Kage's Endurance: it is once per game.")

    new = _copy(state)
    fields = new.__dict__  # written directly: see _put
    choices = dict(state.choices)
    choices[seated] = choice
    fields["choices"] = choices
    if seated in state.kage_unpaid:
        # A fresh choice replaces the one the table had turned into a Roll.
        fields["kage_unpaid"] = [p for p in state.kage_unpaid if p != seated]
    # No coin moves on a choice: Kage's second ante is taken at the reveal, so that the
    # pot, the wallets and the table message say nothing about an unrevealed choice.
    round_no = state.round
    events: list[Event] = [
        _event(
            ChoiceConfirmed,
            {
                "kind": "choice_confirmed",
                "private_to": seated,
                "player": seated,
                "round": round_no,
                "choice": choice,
                "stake": state.stakes[seated],
                "charge": rules.ante if choice == "kage" else 0,
            },
        ),
        _event(PlayerChose, {"kind": "player_chose", "round": round_no, "player": seated}),
    ]
    # Every elimination is recorded in ``eliminated`` exactly once.
    if len(choices) == len(state.seats) - len(state.eliminated):
        _roll_round(new, dice, [], events)
    return new, events


def _deadline(state: State, dice: Dice) -> tuple[State, list[Event]]:
    new = _copy(state)
    events: list[Event] = []
    if state.phase == "choosing":
        choices = dict(state.choices)
        auto = [p for p in standing(state) if p not in choices]
        for p in auto:
            choices[p] = "roll"
        _put(new, choices=choices)
        _roll_round(new, dice, auto, events)
    else:
        _apply_round(new, dice, events)
    return new, events


def _sleight(
    state: State, player: int | None, adjust: Literal[-1, 0, 1], dice: Dice
) -> tuple[State, list[Event]]:
    if not state.rules.shinobi_interference:
        raise IllegalMove("Shinobi Interference (Sleight of Hand) is not played at this table.")
    seated = _seated_and_standing(state, player)
    if state.phase != "sleight":
        raise IllegalMove(
            "Sleight of Hand is only possible after the dice are shown and before Stamina changes."
        )
    if seated in state.sleights:
        raise IllegalMove("You have already made your Sleight of Hand decision this round.")
    if seated not in state.sleight_players:
        if state.choices.get(seated) == "shadow_step":
            raise IllegalMove("You Shadow Stepped this round: there is no roll of yours to adjust.")
        if seated in state.forfeiting:
            raise IllegalMove(
                "You missed too many rounds in a row and forfeit after this one: "
                "no Sleight of Hand for you."
            )
        raise IllegalMove("You did not roll this round, so there is nothing to adjust.")
    new = _copy(state)
    sleights = dict(state.sleights)
    sleights[seated] = adjust
    _put(new, sleights=sleights)
    events: list[Event] = [
        SleightConfirmed(private_to=seated, player=seated, round=state.round, adjust=adjust),
        SleightDecided(round=state.round, player=seated),
    ]
    if len(sleights) == len(state.sleight_players):
        _apply_round(new, dice, events)
    return new, events


def _eject(state: State, player: int | None, target: int, dice: Dice) -> tuple[State, list[Event]]:
    if player is not None and player in state.stakes:
        # A host could otherwise eject everyone and take the pot.
        raise IllegalMove(
            "You are playing at this table: only a moderator who is not seated can eject a player."
        )
    if target == DEALER:
        raise IllegalMove("The Dealer cannot be ejected.")
    if target not in state.stakes:
        raise IllegalMove("That member is not seated at this table.")
    if state.stamina[target] <= 0:
        raise IllegalMove("That player is already out of the game.")
    new = _copy(state)
    stamina = dict(state.stamina)
    stamina[target] = 0
    _put(new, stamina=stamina, eliminated=[*state.eliminated, target])
    events: list[Event] = [
        PlayerEliminated(round=state.round, player=target, reason="ejected", by=player)
    ]
    if state.phase == "choosing" and target in state.choices:
        # Their choice was never revealed, so it is void (no coin had moved for it).
        choices = dict(state.choices)
        del choices[target]
        _put(
            new,
            choices=choices,
            kage_unpaid=[p for p in state.kage_unpaid if p != target],
        )
    elif state.phase == "sleight" and target in state.sleight_players:
        _put(
            new,
            sleight_players=[p for p in state.sleight_players if p != target],
            sleights={p: a for p, a in state.sleights.items() if p != target},
        )

    up = standing(new)
    dealer_up = stamina.get(DEALER, 0) > 0
    if len(up) == 1 and not dealer_up:
        _finish(new, events, up[0], "last_standing", {})
    elif not up:
        # Only the Dealer can be left (a lone player would already have won); an ejected
        # player shares nothing, so the house takes the whole pot.
        _finish(new, events, None, "dealer" if dealer_up else "no_contender", {})
    elif new.phase == "choosing":
        if len(new.choices) == len(up):
            _roll_round(new, dice, [], events)
    elif len(new.sleights) == len(new.sleight_players):
        _apply_round(new, dice, events)
    return new, events


def _kage_unpaid(state: State, player: int | None, target: int) -> tuple[State, list[Event]]:
    if player is not None:
        raise IllegalMove("Only the table itself turns a Kage's Endurance into a Roll.")
    if state.phase != "choosing" or state.choices.get(target) != "kage":
        raise IllegalMove("That player has no Kage's Endurance waiting for the reveal.")
    new = _copy(state)
    choices = dict(state.choices)
    choices[target] = "roll"
    _put(new, choices=choices, kage_unpaid=[*state.kage_unpaid, target])
    # No event: the reveal the table retries next says what happened and why; anything
    # said now would name an unrevealed choice.
    return new, []


def _abort(state: State, player: int | None) -> tuple[State, list[Event]]:
    """A moderator ends the game. Nothing in Nihakyu is settled before the end, so every
    stake (each ante, and any second ante already taken at a reveal) goes back."""
    new = _copy(state)
    refunds = {p: state.stakes[p] for p in state.seats}
    payouts = dict.fromkeys(state.seats, 0)
    payouts[HOUSE] = 0
    _put(
        new,
        stakes=dict.fromkeys(state.seats, 0),
        payouts=payouts,
        winner=None,
        dealer_won=False,
        aborted=True,
        finished=True,
        phase="finished",
        ply=state.ply + 1,
        # Unrevealed choices and Sleight decisions are dropped, never shown.
        choices={},
        kage_unpaid=[],
        sleight_players=[],
        sleights={},
        forfeiting=[],
    )
    return new, [Aborted(round=state.round, by=player, refunds=refunds)]


# --- resolution (these work on the fresh copy made by the handler) ---------------------


def _copy(state: State) -> State:
    """A shallow copy of ``state``: what ``model_copy()`` does, minus its generality.

    It runs once per act and was a visible share of a playout's time. State has no extra
    or private attributes, so the field dict is all there is to copy; every state the
    engine makes has all its fields set, so they share one (never-shrinking) fields-set.
    """
    new = _new_object(State)
    _set_slot(new, "__dict__", state.__dict__.copy())
    _set_slot(new, "__pydantic_fields_set__", _STATE_FIELDS)
    _set_slot(new, "__pydantic_extra__", None)
    _set_slot(new, "__pydantic_private__", None)
    return new


def _put(s: State, **fields: object) -> None:
    """Write fields of the handler's fresh copy straight into it.

    This skips pydantic's per-assignment bookkeeping, which dominated a playout's profile.
    It is safe because ``s`` is a copy no one else holds, every value is built here with
    its declared type, and containers are always replaced, never mutated in place.
    """
    s.__dict__.update(fields)


_EventT = TypeVar("_EventT", bound=BaseModel)


def _event(cls: type[_EventT], values: dict[str, object]) -> _EventT:
    """Build one of the frequent events from all its ``values`` (``kind`` included),
    without validating them.

    Used only where a playout spends its time (choices, reveals, round results); every
    value is built here with its declared type, and the tests re-validate every event
    they see. Like successive states, events may share containers with a state: all of
    them are read-only by convention, and the engine never mutates a container in place.
    """
    event = _new_object(cls)
    _set_slot(event, "__dict__", values)
    # Every field is set, so pydantic's ``add`` on a later assignment never changes it.
    _set_slot(event, "__pydantic_fields_set__", _EVENT_FIELDS[cls])
    _set_slot(event, "__pydantic_extra__", None)
    _set_slot(event, "__pydantic_private__", None)
    return event


def _roll_round(s: State, dice: Dice, auto: list[int], events: list[Event]) -> None:
    """Every standing player has a choice: roll the round's dice and reveal them."""
    rules = s.rules
    stamina = s.stamina
    choices = s.choices
    roll = dice.roll
    # A count is above 0 only after an auto-roll in the previous round; skip the rebuild
    # when there is nothing to count or reset (the usual round).
    rebuild = bool(auto or s.auto_rolled)
    auto_rolls = dict(s.auto_rolls) if rebuild else s.auto_rolls
    rolls: dict[int, list[int]] = {}
    forfeiting: list[int] = []
    kage_now: list[int] = []
    shadow_now: list[int] = []
    for p in s.seats:
        if stamina[p] <= 0:
            continue
        if p in auto:
            count = auto_rolls[p] + 1
            auto_rolls[p] = count
            if count >= rules.afk_rounds_to_forfeit:
                forfeiting.append(p)
        elif rebuild:
            auto_rolls[p] = 0
        choice = choices[p]
        if choice == "roll":
            rolls[p] = [roll(20)]
        elif choice == "kage":
            rolls[p] = [roll(20), roll(20)]
            kage_now.append(p)
        else:
            rolls[p] = []
            shadow_now.append(p)
    if stamina.get(DEALER, 0) > 0:
        rolls[DEALER] = [roll(20)]
    fields = s.__dict__  # written directly: see _put
    fields["auto_rolls"] = auto_rolls
    fields["rolls"] = rolls
    fields["auto_rolled"] = auto
    fields["forfeiting"] = forfeiting
    if kage_now:
        # The second ante moves now, at the reveal, never on the (secret) choice.
        ante = rules.ante
        stakes = dict(s.stakes)
        for p in kage_now:
            stakes[p] += ante
        fields["stakes"] = stakes
        fields["pot"] = s.pot + ante * len(kage_now)
        fields["kage_used"] = [*s.kage_used, *kage_now]
    unpaid = s.kage_unpaid
    if unpaid:
        fields["kage_unpaid"] = []
    if shadow_now:
        shadow_steps = dict(s.shadow_steps)
        for p in shadow_now:
            shadow_steps[p] += 1
        fields["shadow_steps"] = shadow_steps
    events.append(
        _event(
            RoundRevealed,
            {
                "kind": "round_revealed",
                "round": s.round,
                "choices": choices,
                "rolls": rolls,
                "auto_rolled": auto,
                "forfeiting": forfeiting,
                "kage_unpaid": unpaid,
            },
        )
    )
    if rules.shinobi_interference:
        eligible = [
            p for p in rolls if p != DEALER and choices[p] != "shadow_step" and p not in forfeiting
        ]
        if eligible:
            _put(s, phase="sleight", ply=s.ply + 1, sleight_players=eligible, sleights={})
            events.append(SleightWindowOpened(round=s.round, players=eligible))
            return
    _apply_round(s, dice, events)


class _Tally(NamedTuple):
    """What a round's Stamina changes did, worked out before anything is written."""

    after: dict[int, int]
    losses: dict[int, int]
    out: list[tuple[int, EliminationReason]]
    contenders: list[int]
    """Fell this round and may still win by the tie rule (the Dealer included)."""
    up: list[int]
    """Players still standing, in seat order."""
    touched: list[int]
    """Players left at exactly 1 Stamina."""
    dealer_up: bool


def _apply_round(s: State, dice: Dice, events: list[Event]) -> None:
    """Roll the Sleight checks, apply every Stamina change at once, then end or go on."""
    before = s.stamina
    caught, adjusted = _sleight_checks(s, dice, events)
    tally = _tally(s, caught, adjusted)
    _record_round(s, tally, events)
    if len(tally.up) >= 2 or (tally.up and tally.dealer_up):
        _next_round(s, tally, events)
    else:
        _end_game(s, before, caught, tally, dice, events)


def _sleight_checks(s: State, dice: Dice, events: list[Event]) -> tuple[list[int], dict[int, int]]:
    """Roll each attempted check in seat order: who was caught, and who moves their die."""
    rules = s.rules
    before = s.stamina
    caught: list[int] = []
    adjusted: dict[int, int] = {}
    for p in s.sleight_players:
        adjust = s.sleights.get(p, 0)
        if adjust == 0 or before[p] <= 0:
            continue
        natural = dice.roll(20)
        total = natural + rules.sleight_bonus
        if natural == 1 and rules.caught_on_natural_one:
            caught.append(p)
            outcome: Literal["success", "failure", "caught"] = "caught"
        elif total >= SLEIGHT_DC:
            adjusted[p] = adjust
            outcome = "success"
        else:
            outcome = "failure"
        events.append(
            SleightChecked(
                round=s.round,
                player=p,
                adjust=1 if adjust > 0 else -1,
                natural=natural,
                total=total,
                outcome=outcome,
            )
        )
    return caught, adjusted


def _tally(s: State, caught: list[int], adjusted: dict[int, int]) -> _Tally:
    """Every participant's loss and new Stamina, and who is out, standing or contending."""
    before = s.stamina
    forfeiting = s.forfeiting
    after = dict(before)
    losses: dict[int, int] = {}
    out: list[tuple[int, EliminationReason]] = []
    contenders: list[int] = []
    up: list[int] = []
    touched: list[int] = []
    dealer_up = False
    # ``rolls`` lists every participant of the round in seat order, the Dealer last.
    for p, shown in s.rolls.items():
        if before[p] <= 0:  # ejected by a moderator during the Sleight window
            continue
        if p in caught:
            after[p] = 0
            out.append((p, "caught_cheating"))
            continue
        if shown:
            loss = min(shown)
            if p in adjusted:
                loss = min(20, max(1, loss + adjusted[p]))
        else:
            loss = SHADOW_STEP_COST
        losses[p] = loss
        left = before[p] - loss
        if p in forfeiting:
            after[p] = min(left, 0)
            out.append((p, "afk"))
            continue
        after[p] = left
        if p == DEALER:
            dealer_up = left > 0
            if not dealer_up:
                contenders.append(DEALER)
        elif left > 0:
            up.append(p)
            if left == 1:
                touched.append(p)
        else:
            out.append((p, "stamina"))
            contenders.append(p)
    return _Tally(after, losses, out, contenders, up, touched, dealer_up)


def _record_round(s: State, tally: _Tally, events: list[Event]) -> None:
    """Write the new Stamina, close the Sleight window and announce the round's results."""
    round_no = s.round
    fields = s.__dict__  # written directly: see _put
    fields["stamina"] = tally.after
    if s.sleight_players:
        fields["sleight_players"] = []
        fields["sleights"] = {}
    fields["forfeiting"] = []
    events.append(
        _event(
            RoundResolved,
            {
                "kind": "round_resolved",
                "round": round_no,
                "losses": tally.losses,
                "stamina": tally.after,
            },
        )
    )
    if tally.out:
        _put(s, eliminated=[*s.eliminated, *(p for p, _ in tally.out)])
        events.extend(
            PlayerEliminated(round=round_no, player=p, reason=why) for p, why in tally.out
        )
    if DEALER in tally.contenders:
        events.append(PlayerEliminated(round=round_no, player=DEALER, reason="stamina"))
    if tally.touched:
        honours = [Honour(player=p, name=SHINIGAMI) for p in tally.touched]
        _put(s, honours=[*s.honours, *honours])
        events.extend(honours)


def _next_round(s: State, tally: _Tally, events: list[Event]) -> None:
    """Two or more can still play on (the Dealer counts): open the next round."""
    round_no = s.round + 1
    fields = s.__dict__  # written directly: see _put
    fields["round"] = round_no
    fields["phase"] = "choosing"
    fields["choices"] = {}
    fields["ply"] = s.ply + 1
    events.append(
        _event(
            RoundStarted,
            {
                "kind": "round_started",
                "round": round_no,
                "standing": [*tally.up, DEALER] if tally.dealer_up else tally.up,
            },
        )
    )


def _end_game(
    s: State,
    before: dict[int, int],
    caught: list[int],
    tally: _Tally,
    dice: Dice,
    events: list[Event],
) -> None:
    """At most one can play on: find the winner (tie rule, sudden death) and settle."""
    forfeiting = [p for p, why in tally.out if why == "afk"]
    # Players who may share the pot if the Dealer outlasts them: in this round, not removed.
    sharers = {
        p: before[p]
        for p in s.rolls
        if p != DEALER and before[p] > 0 and p not in caught and p not in forfeiting
    }
    up, contenders = tally.up, tally.contenders
    if up:
        _finish(s, events, up[0], "last_standing", sharers)
    elif tally.dealer_up:
        _finish(s, events, None, "dealer", sharers)
    elif not contenders:
        _finish(s, events, None, "no_contender", sharers)
    else:
        top = max(before[p] for p in contenders)
        tied = [p for p in contenders if before[p] == top]
        if len(tied) == 1:
            winner = tied[0]
            reason: Literal["highest_before", "sudden_death"] = "highest_before"
        else:
            winner = _sudden_death(tied, dice, events)
            reason = "sudden_death"
        if winner == DEALER:
            _finish(s, events, None, "dealer", sharers)
        else:
            _finish(s, events, winner, reason, sharers)


def _sudden_death(tied: list[int], dice: Dice, events: list[Event]) -> int:
    """Each tied contender rolls a d20 in order; the tied highest roll again until one wins."""
    contenders = tied
    rounds: list[dict[int, int]] = []
    while len(contenders) > 1:
        rolled = {p: dice.roll(20) for p in contenders}
        rounds.append(rolled)
        best = max(rolled.values())
        contenders = [p for p in contenders if rolled[p] == best]
    events.append(SuddenDeath(players=tied, rolls=rounds, winner=contenders[0]))
    return contenders[0]


def _split(amount: int, weights: dict[int, int]) -> dict[int, int]:
    """Share ``amount`` in proportion to ``weights`` (seat order), largest remainder first."""
    total = sum(weights.values())
    shares = {p: amount * w // total for p, w in weights.items()}
    left = amount - sum(shares.values())
    # sorted() is stable, so equal remainders keep seat order.
    by_remainder = sorted(weights, key=lambda p: -(amount * weights[p] % total))
    for p in by_remainder[:left]:
        shares[p] += 1
    return shares


def _finish(
    s: State,
    events: list[Event],
    winner: int | None,
    reason: Literal["last_standing", "highest_before", "sudden_death", "dealer", "no_contender"],
    sharers: dict[int, int],
) -> None:
    """Settle the pot: stakes drop to 0 and ``payouts`` become each one's net result."""
    pot = s.pot
    house = 0
    shares: dict[int, int] = {}
    basis: dict[int, int] = {}
    if winner is not None:
        shares = {winner: pot}
    elif reason == "dealer" and sharers:
        house = pot // 2
        shares = _split(pot - house, sharers)
        basis = sharers
    else:
        house = pot
    payouts = {p: shares.get(p, 0) - s.stakes[p] for p in s.seats}
    payouts[HOUSE] = house
    _put(
        s,
        payouts=payouts,
        stakes=dict.fromkeys(s.seats, 0),
        winner=winner,
        dealer_won=reason == "dealer",
        finished=True,
        phase="finished",
        ply=s.ply + 1,
        sleight_players=[],
        sleights={},
        forfeiting=[],
        shares=shares,
        share_basis=basis,
    )
    events.append(
        GameOver(
            winner=winner,
            dealer_won=reason == "dealer",
            reason=reason,
            pot=pot,
            house=house,
            shares=shares,
            payouts=payouts,
            basis=basis,
        )
    )
