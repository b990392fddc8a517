"""Nihakyu, "The Two-Hundred Game": the pure engine.

Every player starts with the same Stamina and, in simultaneous rounds, loses what their
d20 shows until one is left above 0. The authoritative rules are
``shared/rules/nihakyu.md``; the player-facing text is ``bot/rules_text/nihakyu.md``.

Surface (ENGINE_CONTRACT.md plus :mod:`bot.games.common`): :data:`ENGINE`, the typed
engine (:class:`NihakyuEngine`, see :mod:`bot.games.contract`); :class:`Rules`,
:class:`State`, the :data:`Action` and :data:`Event` unions and :data:`ACTIONS`; and, as
bound methods of :data:`ENGINE`, :func:`start`, :func:`act`, :func:`seat_limits`,
:func:`hold`, :func:`deadline_seconds`, the hooks :func:`pending_charge` and
:func:`shortfall`, and :func:`legal_actions`. The plain helper :func:`standing` and
:data:`DEALER`, :data:`SHINIGAMI` and :data:`FORBIDDEN_TECHNIQUES` are for the cog.

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
* **Roll for me** (:class:`RollForMe`). A player whose only choice is Roll (no Shadow Step
  or Kage's Endurance left to them, :func:`only_roll`) may ask the table to choose Roll
  for them: at once if they have not chosen this round, then as each round starts, until
  they turn it off. Nothing about it is secret (Roll is all they could choose), so the
  table shows it, and their "has chosen" from the round's start tells nothing. Such a
  choice is theirs, not an auto-roll: it never counts toward a forfeit. A round whose
  every choice the table made waits :data:`ROLL_FOR_ME_SECONDS`, then rolls (the
  deadline), so a table of such players plays itself out a round at a time. It is not a
  game move: :func:`legal_actions` lists the Roll it makes, not it. The Sleight window is
  still each player's own decision.
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

Speed (goal: 2,000 random 4-player games a second, benchmarks/nihakyu_games.py): state
evolves the kit's way (:mod:`bot.games.kit`): :class:`~bot.games.kit.Rulebook` hands each
action's ``apply`` one shallow copy, and the handlers below replace fields and containers
on it, never mutating one they did not make; a write that would not change a field is
skipped, as attribute writes are a visible share of a playout. The five frequent events (a
choice's two, and a round's reveal, results and next round) are built without validation
by :func:`bot.games.kit.build`: validating them cost a quarter of a playout's speed, and
:func:`~bot.games.kit.evolve` on a prototype event is no faster than validating. Rarer
events, and every state and action from outside, are validated as usual.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal, NamedTuple, get_args

from pydantic import BaseModel, Field

from bot.games.common import (
    HOUSE,
    Abort,
    Deadline,
    Frozen,
    Honour,
    Permission,
    PrivateEvent,
    Ranking,
    ranked_alone,
)
from bot.games.contract import Engine
from bot.games.dice import Dice
from bot.games.errors import IllegalMove
from bot.games.kit import (
    Move,
    Rulebook,
    build,
    only_the_table,
    split_proportional,
    the_service_decides,
)
from bot.i18n import N_

DEALER = -1
"""The Dealer's key in :attr:`State.stamina` (Dealer's Blood)."""
SHINIGAMI = "Touching the Shinigami's Hand"
"""The honour for surviving a round at exactly 1 Stamina."""
SLEIGHT_DC = 18
SHADOW_STEP_COST = 5
ROLL_FOR_ME_SECONDS = 5
"""How long a round whose every choice the table made ("Roll for me") stays on the table
before its dice roll: long enough to read the last round, no wait for anyone."""
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


class Rules(Frozen):
    """The table's settings; every variant is off unless the table turns it on."""

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


class Roll(Frozen):
    """This round: lose what one d20 shows."""

    kind: Literal["roll"] = "roll"


class ShadowStep(Frozen):
    """This round: lose exactly 5, no roll (variant)."""

    kind: Literal["shadow_step"] = "shadow_step"


class KageEndurance(Frozen):
    """This round: roll two d20 and lose the lower; once per game, costs one more ante."""

    kind: Literal["kage_endurance"] = "kage_endurance"


class Sleight(Frozen):
    """Try a Sleight of Hand check to move one's own die by ``adjust`` (variant)."""

    kind: Literal["sleight"] = "sleight"
    adjust: Literal[-1, 1]


class SkipSleight(Frozen):
    """Decline Sleight of Hand this round."""

    kind: Literal["skip_sleight"] = "skip_sleight"


class Eject(Frozen):
    """A moderator who is not seated removes ``target`` for a forbidden technique.

    The cog checks the Manage Server permission; the engine refuses it from a seated player.
    """

    kind: Literal["eject"] = "eject"
    target: int


class RollForMe(Frozen):
    """ "Roll for me": the table chooses Roll for the player at the start of every round
    (and now, if they have not chosen yet) until they send ``on=False``. Only while Roll
    is their only choice (:func:`only_roll`): nothing about it is then secret."""

    kind: Literal["roll_for_me"] = "roll_for_me"
    on: bool = True


class KageUnpaid(Frozen):
    """The table: ``player``'s wallet cannot pay the second ante of their Kage's Endurance
    at the reveal, so the choice becomes a plain Roll (see :func:`shortfall`)."""

    kind: Literal["kage_unpaid"] = "kage_unpaid"
    player: int


Action = Annotated[
    Roll
    | ShadowStep
    | KageEndurance
    | Sleight
    | SkipSleight
    | Eject
    | RollForMe
    | KageUnpaid
    | Abort
    | Deadline,
    Field(discriminator="kind"),
]
ACTIONS: tuple[type[BaseModel], ...] = get_args(get_args(Action)[0])
"""Every action model :func:`act` accepts, read off the :data:`Action` union."""


# --- events --------------------------------------------------------------------------


class ChoiceConfirmed(PrivateEvent):
    """Private: the player's own choice for the round, their stake (unchanged by a choice)
    and ``charge``, the coins the choice will take at the reveal (Kage's second ante)."""

    kind: Literal["choice_confirmed"] = "choice_confirmed"
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


class RollForMeConfirmed(PrivateEvent):
    """Private: "Roll for me" is now ``on`` (or off) for the player."""

    kind: Literal["roll_for_me_confirmed"] = "roll_for_me_confirmed"
    player: int
    round: int
    on: bool


class SleightWindowOpened(BaseModel):
    """Public: these players may now try Sleight of Hand before Stamina changes."""

    kind: Literal["sleight_window"] = "sleight_window"
    round: int
    players: list[int]


class SleightConfirmed(PrivateEvent):
    """Private: the player's own Sleight decision (``adjust`` 0 means skip)."""

    kind: Literal["sleight_confirmed"] = "sleight_confirmed"
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
    | RollForMeConfirmed
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
    roll_for_me: list[int] = []
    """Players for whom the table chooses Roll as each round starts (:class:`RollForMe`),
    in seat order. Public: the table shows it."""
    aborted: bool = False
    """A moderator ended the game (:class:`~bot.games.common.Abort`); every stake went back."""
    shares: dict[int, int] = {}
    """Once finished: the coins each player received from the pot."""
    share_basis: dict[int, int] = {}
    """Dealer's Blood split: the Stamina before the final round each share was based on."""


# --- checks: each refuses with a sentence for the player and touches nothing ----------


def _seated_and_standing(state: State, player: int | None) -> int:
    if player is None or player not in state.stakes:
        raise IllegalMove("You are not seated at this Nihakyu table.")
    if state.stamina[player] <= 0:
        raise IllegalMove("You have been eliminated from this game; you can only watch now.")
    return player


def _check_choice(
    state: State, player: int | None, action: Roll | ShadowStep | KageEndurance
) -> None:
    """A standing player's choice for the round, while choosing; a variant must be played
    at the table (and, for Kage's Endurance or limited Shadow Steps, not used up)."""
    seated = _seated_and_standing(state, player)
    if state.phase != "choosing":
        raise IllegalMove(
            "This round's dice are already on the table; choose again when the next round starts."
        )
    kind = action.kind
    if kind == "roll":
        return
    rules = state.rules
    if kind == "shadow_step":
        if not rules.shadow_step:
            raise IllegalMove("Shadow Step is not played at this table.")
        limit = rules.shadow_step_uses
        if limit is not None and state.shadow_steps[seated] >= limit:
            raise (
                IllegalMove(
                    "You have used all {limit} of your Shadow Steps this game.", limit=str(limit)
                )
                if limit
                else IllegalMove("This table allows no Shadow Steps.")
            )
    else:
        if not rules.kage_endurance:
            raise IllegalMove("Kage's Endurance is not played at this table.")
        if seated in state.kage_used:
            raise IllegalMove("You have already used Kage's Endurance: it is once per game.")


def _check_sleight(state: State, player: int | None, action: Sleight | SkipSleight) -> None:
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


def only_roll(state: State, player: int) -> bool:
    """Whether Roll is ``player``'s only choice for the rest of the game: the table plays
    no Shadow Step (or they have used every one) and no Kage's Endurance (or they have
    used it). Uses only run out, so once true it stays true."""
    rules = state.rules
    if rules.kage_endurance and player not in state.kage_used:
        return False
    if rules.shadow_step:
        limit = rules.shadow_step_uses
        return limit is not None and state.shadow_steps.get(player, 0) >= limit
    return True


def _check_roll_for_me(state: State, player: int | None, action: RollForMe) -> None:
    seated = _seated_and_standing(state, player)
    on = seated in state.roll_for_me
    if action.on:
        if on:
            raise IllegalMove("The table already rolls for you; press Roll for me to stop it.")
        if not only_roll(state, seated):
            # The choice must stay the player's own, and secret, while they have one.
            raise IllegalMove(
                "Roll for me is offered only while Roll is your only choice: you still have "
                "Shadow Step or Kage's Endurance, and your choice stays your own and secret."
            )
    elif not on:
        raise IllegalMove("The table is not rolling for you.")


def _check_eject(state: State, player: int | None, action: Eject) -> None:
    if player is not None and player in state.stakes:
        # A host could otherwise eject everyone and take the pot.
        raise IllegalMove(
            "You are playing at this table: only a moderator who is not seated can eject a player."
        )
    target = action.target
    if target == DEALER:
        raise IllegalMove("The Dealer cannot be ejected.")
    if target not in state.stakes:
        raise IllegalMove("That member is not seated at this table.")
    if state.stamina[target] <= 0:
        raise IllegalMove("That player is already out of the game.")


def _check_kage_unpaid(state: State, player: int | None, action: KageUnpaid) -> None:
    if player is not None:
        raise IllegalMove("Only the table itself turns a Kage's Endurance into a Roll.")
    if state.phase != "choosing" or state.choices.get(action.player) != "kage":
        raise IllegalMove("That player has no Kage's Endurance waiting for the reveal.")


# --- applies: each gets the fresh shallow copy the Rulebook made (kit.evolve) -----------

_CHOICE_OF: dict[str, Choice] = {
    "roll": "roll",
    "shadow_step": "shadow_step",
    "kage_endurance": "kage",
}
"""The round choice each choosing action makes, by its ``kind``."""


def _apply_choice(
    s: State, player: int | None, action: Roll | ShadowStep | KageEndurance, dice: Dice
) -> list[Event]:
    assert player is not None  # the check refused the table
    choice = _CHOICE_OF[action.kind]
    choices = {**s.choices, player: choice}
    s.choices = choices
    if player in s.kage_unpaid:
        # A fresh choice replaces the one the table had turned into a Roll.
        s.kage_unpaid = [p for p in s.kage_unpaid if p != player]
    # No coin moves on a choice: Kage's second ante is taken at the reveal, so that the
    # pot, the wallets and the table message say nothing about an unrevealed choice.
    round_no = s.round
    events: list[Event] = [
        build(
            ChoiceConfirmed,
            private_to=player,
            player=player,
            round=round_no,
            choice=choice,
            stake=s.stakes[player],
            charge=s.rules.ante if choice == "kage" else 0,
        ),
        build(PlayerChose, round=round_no, player=player),
    ]
    # Every elimination is recorded in ``eliminated`` exactly once.
    if len(choices) == len(s.seats) - len(s.eliminated):
        _roll_round(s, dice, [], events)
    return events


def _apply_deadline(s: State, player: int | None, action: Deadline, dice: Dice) -> list[Event]:
    events: list[Event] = []
    if s.phase == "choosing":
        choices = dict(s.choices)
        auto = [p for p in standing(s) if p not in choices]
        for p in auto:
            choices[p] = "roll"
        s.choices = choices
        _roll_round(s, dice, auto, events)
    else:
        _apply_round(s, dice, events)
    return events


def _apply_sleight(
    s: State, player: int | None, action: Sleight | SkipSleight, dice: Dice
) -> list[Event]:
    assert player is not None  # the check refused the table
    adjust: Literal[-1, 0, 1] = action.adjust if isinstance(action, Sleight) else 0
    sleights = {**s.sleights, player: adjust}
    s.sleights = sleights
    events: list[Event] = [
        SleightConfirmed(private_to=player, player=player, round=s.round, adjust=adjust),
        SleightDecided(round=s.round, player=player),
    ]
    if len(sleights) == len(s.sleight_players):
        _apply_round(s, dice, events)
    return events


def _apply_eject(s: State, player: int | None, action: Eject, dice: Dice) -> list[Event]:
    target = action.target
    stamina = {**s.stamina, target: 0}
    s.stamina = stamina
    s.eliminated = [*s.eliminated, target]
    events: list[Event] = [
        PlayerEliminated(round=s.round, player=target, reason="ejected", by=player)
    ]
    if s.phase == "choosing" and target in s.choices:
        # Their choice was never revealed, so it is void (no coin had moved for it).
        s.choices = {p: c for p, c in s.choices.items() if p != target}
        s.kage_unpaid = [p for p in s.kage_unpaid if p != target]
    elif s.phase == "sleight" and target in s.sleight_players:
        s.sleight_players = [p for p in s.sleight_players if p != target]
        s.sleights = {p: a for p, a in s.sleights.items() if p != target}

    up = standing(s)
    dealer_up = stamina.get(DEALER, 0) > 0
    if len(up) == 1 and not dealer_up:
        _finish(s, events, up[0], "last_standing", {})
    elif not up:
        # Only the Dealer can be left (a lone player would already have won); an ejected
        # player shares nothing, so the house takes the whole pot.
        _finish(s, events, None, "dealer" if dealer_up else "no_contender", {})
    elif s.phase == "choosing":
        if len(s.choices) == len(up):
            _roll_round(s, dice, [], events)
    elif len(s.sleights) == len(s.sleight_players):
        _apply_round(s, dice, events)
    return events


def _apply_roll_for_me(s: State, player: int | None, action: RollForMe, dice: Dice) -> list[Event]:
    assert player is not None  # the check refused the table
    events: list[Event] = [
        build(RollForMeConfirmed, private_to=player, player=player, round=s.round, on=action.on)
    ]
    if not action.on:
        # A Roll the table already chose this round stands: it was their only choice.
        s.roll_for_me = [p for p in s.roll_for_me if p != player]
        return events
    s.roll_for_me = [p for p in s.seats if p in s.roll_for_me or p == player]
    if s.phase == "choosing" and player not in s.choices:
        s.choices = {**s.choices, player: "roll"}
        events.append(build(PlayerChose, round=s.round, player=player))
        if len(s.choices) == len(standing(s)):
            _roll_round(s, dice, [], events)
    return events


def _apply_kage_unpaid(s: State, player: int | None, action: KageUnpaid, dice: Dice) -> list[Event]:
    s.choices = {**s.choices, action.player: "roll"}
    s.kage_unpaid = [*s.kage_unpaid, action.player]
    # No event: the reveal the table retries next says what happened and why; anything
    # said now would name an unrevealed choice.
    return []


def _apply_abort(s: State, player: int | None, action: Abort, dice: Dice) -> list[Event]:
    """A moderator ends the game. Nothing in Nihakyu is settled before the end, so every
    stake (each ante, and any second ante already taken at a reveal) goes back."""
    refunds = {p: s.stakes[p] for p in s.seats}
    payouts = dict.fromkeys(s.seats, 0)
    payouts[HOUSE] = 0
    s.stakes = dict.fromkeys(s.seats, 0)
    s.payouts = payouts
    s.winner = None
    s.dealer_won = False
    s.aborted = True
    s.finished = True
    s.phase = "finished"
    s.ply += 1
    # Unrevealed choices and Sleight decisions are dropped, never shown.
    s.choices = {}
    s.kage_unpaid = []
    s.sleight_players = []
    s.sleights = {}
    s.forfeiting = []
    return [Aborted(round=s.round, by=player, refunds=refunds)]


# --- resolution (these work on the fresh copy handed to the apply) ---------------------


def _roll_round(s: State, dice: Dice, auto: list[int], events: list[Event]) -> None:
    """Every standing player has a choice: roll the round's dice and reveal them."""
    forfeiting = _count_auto_rolls(s, auto)
    rolls = _roll_dice(s, dice)
    unpaid = s.kage_unpaid
    if unpaid:
        s.kage_unpaid = []
    s.rolls = rolls
    # Most rounds nobody auto-rolls: leave the empty lists as they are (an attribute
    # write is a visible share of a playout's time).
    if auto or s.auto_rolled:
        s.auto_rolled = auto
    if forfeiting or s.forfeiting:
        s.forfeiting = forfeiting
    events.append(
        build(
            RoundRevealed,
            round=s.round,
            choices=s.choices,
            rolls=rolls,
            auto_rolled=auto,
            forfeiting=forfeiting,
            kage_unpaid=unpaid,
        )
    )
    if s.rules.shinobi_interference and _open_sleight_window(s, events):
        return
    _apply_round(s, dice, events)


def _count_auto_rolls(s: State, auto: list[int]) -> list[int]:
    """Count this round's auto-rolls and reset the count of everyone who chose: who forfeits."""
    if not auto and not s.auto_rolled:
        # A count is above 0 only after an auto-roll in the previous round: the usual
        # round has nothing to count or reset.
        return []
    stamina = s.stamina
    limit = s.rules.afk_rounds_to_forfeit
    auto_rolls = dict(s.auto_rolls)
    forfeiting: list[int] = []
    for p in s.seats:
        if stamina[p] <= 0:
            continue
        if p in auto:
            count = auto_rolls[p] + 1
            auto_rolls[p] = count
            if count >= limit:
                forfeiting.append(p)
        else:
            auto_rolls[p] = 0
    s.auto_rolls = auto_rolls
    return forfeiting


def _roll_dice(s: State, dice: Dice) -> dict[int, list[int]]:
    """Each standing player's dice in seat order, the Dealer's last; a Kage's Endurance
    takes its second ante and a Shadow Step counts as used, now, at the reveal."""
    stamina = s.stamina
    choices = s.choices
    roll = dice.roll
    rolls: dict[int, list[int]] = {}
    kage_now: list[int] = []
    shadow_now: list[int] = []
    for p in s.seats:
        if stamina[p] <= 0:
            continue
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
    if kage_now:
        # The second ante moves now, at the reveal, never on the (secret) choice.
        ante = s.rules.ante
        s.stakes = {p: stake + ante if p in kage_now else stake for p, stake in s.stakes.items()}
        s.pot += ante * len(kage_now)
        s.kage_used = [*s.kage_used, *kage_now]
    if shadow_now:
        s.shadow_steps = {p: n + 1 if p in shadow_now else n for p, n in s.shadow_steps.items()}
    return rolls


def _open_sleight_window(s: State, events: list[Event]) -> bool:
    """Open the Sleight of Hand window for those who rolled and may try, if anyone may."""
    choices, forfeiting = s.choices, s.forfeiting
    eligible = [
        p for p in s.rolls if p != DEALER and choices[p] != "shadow_step" and p not in forfeiting
    ]
    if not eligible:
        return False
    s.phase = "sleight"
    s.ply += 1
    s.sleight_players = eligible
    s.sleights = {}
    events.append(SleightWindowOpened(round=s.round, players=eligible))
    return True


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
    s.stamina = tally.after
    if s.sleight_players:
        s.sleight_players = []
        s.sleights = {}
    if s.forfeiting:
        s.forfeiting = []
    events.append(
        build(
            RoundResolved,
            round=round_no,
            losses=tally.losses,
            stamina=tally.after,
        )
    )
    if tally.out:
        s.eliminated = [*s.eliminated, *(p for p, _ in tally.out)]
        events.extend(
            PlayerEliminated(round=round_no, player=p, reason=why) for p, why in tally.out
        )
    if DEALER in tally.contenders:
        events.append(PlayerEliminated(round=round_no, player=DEALER, reason="stamina"))
    if tally.touched:
        honours = [Honour(player=p, name=SHINIGAMI) for p in tally.touched]
        s.honours = [*s.honours, *honours]
        events.extend(honours)


def _next_round(s: State, tally: _Tally, events: list[Event]) -> None:
    """Two or more can still play on (the Dealer counts): open the next round."""
    round_no = s.round + 1
    s.round = round_no
    if s.phase != "choosing":
        s.phase = "choosing"
    s.ply += 1
    standing_now = [*tally.up, DEALER] if tally.dealer_up else tally.up
    events.append(build(RoundStarted, round=round_no, standing=standing_now))
    # "Roll for me": the table chooses at once for those who asked (Roll being their only
    # choice, nothing is secret). Were every player's chosen so, the round waits for the
    # short deadline (:func:`deadline_seconds`) rather than rolling on in this act.
    if s.roll_for_me:
        up = tally.up
        s.choices = {p: "roll" for p in s.roll_for_me if p in up}
        events.extend(build(PlayerChose, round=round_no, player=p) for p in s.choices)
    else:
        s.choices = {}


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
        # ``sharers`` is in seat order, so equal remainders go in seat order.
        shares = split_proportional(pot - house, sharers)
        basis = sharers
    else:
        house = pot
    payouts = {p: shares.get(p, 0) - s.stakes[p] for p in s.seats}
    payouts[HOUSE] = house
    s.payouts = payouts
    s.stakes = dict.fromkeys(s.seats, 0)
    s.winner = winner
    s.dealer_won = reason == "dealer"
    s.finished = True
    s.phase = "finished"
    s.ply += 1
    s.sleight_players = []
    s.sleights = {}
    s.forfeiting = []
    s.shares = shares
    s.share_basis = basis
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


# --- the engine ----------------------------------------------------------------------

RULEBOOK: Rulebook[State, Action, Event] = Rulebook(
    {
        Roll: Move(_check_choice, _apply_choice),
        ShadowStep: Move(_check_choice, _apply_choice),
        KageEndurance: Move(_check_choice, _apply_choice),
        Sleight: Move(_check_sleight, _apply_sleight),
        SkipSleight: Move(_check_sleight, _apply_sleight),
        Eject: Move(_check_eject, _apply_eject),
        RollForMe: Move(_check_roll_for_me, _apply_roll_for_me),
        KageUnpaid: Move(_check_kage_unpaid, _apply_kage_unpaid),
        Abort: Move(the_service_decides, _apply_abort),
        Deadline: Move(only_the_table, _apply_deadline),
    },
    finished=N_("This game of Nihakyu is over."),
)

# Actions are frozen, so these can be handed out again and again.
_PLAYER_ACTIONS: tuple[Action, ...] = (
    Roll(),
    ShadowStep(),
    KageEndurance(),
    Sleight(adjust=-1),
    Sleight(adjust=1),
    SkipSleight(),
)
"""Every action a player may send, in the order :func:`legal_actions` lists them."""


def ranking(state: State, events: Sequence[Mapping[str, Any]]) -> Ranking | None:
    """The finishing order of a finished game, for skill ratings (``None``: a moderator
    ended it): the winner first, then the players by the round they went out in, the
    later the better; out in the same round, tied (the tie rule picks only the winner).
    ``events``: the table's public events, whose eliminations name their round (the
    state keeps only their order). The Dealer is the house's, never rated."""
    if not state.finished or state.aborted:
        return None
    out_round = {int(e["player"]): int(e["round"]) for e in events if e.get("kind") == "eliminated"}
    places = {
        player: (2, 0)
        if player == state.winner
        else (0, out_round.get(player, 0))
        if player in state.eliminated
        else (1, state.stamina[player])
        for player in state.seats
    }
    return ranked_alone(places)


def standing(state: State) -> list[int]:
    """Players still in the game, in seat order (the Dealer is not included)."""
    stamina = state.stamina
    return [p for p in state.seats if stamina[p] > 0]


PERMISSIONS: dict[type[BaseModel], Permission] = {
    Eject: Permission.MODERATOR_NOT_SEATED,
    KageUnpaid: Permission.TABLE,
}
"""Ejecting is a moderator's sanction, never a player's or a host's (see the rules file)."""


class NihakyuEngine(Engine[Rules, State, Action, Event]):
    """Nihakyu on the typed contract; the module's functions are this engine's methods."""

    def ply(self, state: State) -> int:
        return state.ply

    def waiting_on(self, state: State) -> list[int]:
        """Once someone has chosen (or decided in the Sleight window): the standing players
        still to, as the table's ⏳ marks show them."""
        if state.finished:
            return []
        if state.phase == "sleight":
            asked, done = list(state.sleight_players), set(state.sleights)
        else:
            asked = [p for p in standing(state) if p not in state.eliminated]
            done = set(state.choices)
        left = [p for p in asked if p not in done]
        return left if len(left) < len(asked) else []

    def winners(self, state: State) -> list[int]:
        return [] if state.winner is None else [state.winner]

    name = "nihakyu"
    charges_at_reveal = True
    permissions = PERMISSIONS
    secret_choices: ClassVar[Mapping[str, str]] = {
        "roll": "choice",
        "shadow_step": "choice",
        "kage_endurance": "choice",
        "sleight": "sleight",
        "skip_sleight": "sleight",
    }

    def reveals(self, event: Mapping[str, Any]) -> Mapping[str, Collection[int] | None]:
        """A round's reveal shows the choices it settled (one voided by an ejection or a
        moderator's end never shows); the round's Stamina changes end the Sleight window,
        whose every attempt was shown (a skip is the absence of one)."""
        kind = event.get("kind")
        if kind == "round_revealed":
            return {"choice": {int(player) for player in event.get("choices", {})}}
        if kind == "round_resolved":
            return {"sleight": None}
        return {}

    def start(self, rules: Rules, players: list[int], dice: Dice) -> State:
        """Seat ``players`` in the given order and take each one's ante into the pot.

        ``dice`` is unused: nothing is random before the first round.
        """
        low, high = self.seat_limits(rules)
        if not low <= len(players) <= high:
            raise IllegalMove(
                "Nihakyu needs {low} to {high} players; this table has {count}.",
                low=str(low),
                high=str(high),
                count=str(len(players)),
            )
        if len(set(players)) != len(players):
            raise IllegalMove("Each player can take only one seat at the table.")
        if any(p <= 0 for p in players):
            raise IllegalMove("Players must be members (positive ids): 0 and -1 are reserved.")
        stamina = dict.fromkeys(players, rules.starting_stamina)
        if rules.dealers_blood:
            stamina[DEALER] = rules.starting_stamina
        payouts = dict.fromkeys(players, 0)
        payouts[HOUSE] = 0
        return State(
            rules=rules,
            seats=list(players),
            stamina=stamina,
            auto_rolls=dict.fromkeys(players, 0),
            shadow_steps=dict.fromkeys(players, 0),
            stakes=dict.fromkeys(players, rules.ante),
            pot=rules.ante * len(players),
            payouts=payouts,
            # Given, not defaulted: pydantic deep-copies a mutable default each time, and
            # that was most of the cost of starting a game.
            eliminated=[],
            choices={},
            kage_used=[],
            honours=[],
            rolls={},
            auto_rolled=[],
            forfeiting=[],
            sleight_players=[],
            sleights={},
            kage_unpaid=[],
            roll_for_me=[],
            shares={},
            share_basis={},
        )

    def act(
        self, state: State, player: int | None, action: Action, dice: Dice
    ) -> tuple[State, list[Event]]:
        """Apply ``action`` by ``player`` (``None``: the table). Never mutates ``state``.

        Raises :class:`IllegalMove`, with a sentence for the player, when the action is not
        allowed now; nothing changes then.
        """
        return RULEBOOK.act(state, player, action, dice)

    def seat_limits(self, rules: Rules) -> tuple[int, int]:
        """The fewest and most seats a Nihakyu table allows."""
        return 2, rules.max_players

    def hold(self, rules: Rules) -> int:
        """Coins each member escrows when sitting down: the ante."""
        return rules.ante

    def deadline_seconds(self, state: State) -> int | None:
        """Time allowed for the current decision point; ``None`` once the game is over. A
        round whose every choice the table made ("Roll for me") waits only
        :data:`ROLL_FOR_ME_SECONDS`, for the table to be read."""
        if state.phase == "choosing":
            if state.roll_for_me and len(state.choices) == len(standing(state)):
                return ROLL_FOR_ME_SECONDS
            return state.rules.round_seconds
        if state.phase == "sleight":
            return state.rules.sleight_seconds
        return None

    def pending_charge(self, state: State, player: int) -> int:
        """Coins ``player``'s unrevealed choice will take at the reveal: the second ante
        while their choice this round is Kage's Endurance, else 0. Nothing moves before the
        reveal; the service only checks that the wallet covers it (the refusal is private)."""
        if state.phase == "choosing" and state.choices.get(player) == "kage":
            return state.rules.ante
        return 0

    def shortfall(self, state: State, player: int) -> KageUnpaid | None:
        """At a reveal, ``player``'s wallet cannot pay what it takes (``state`` is the state
        before the reveal): the table action that turns their Kage's Endurance into a Roll,
        or ``None`` when they owe nothing at the reveal."""
        if self.pending_charge(state, player) > 0:
            return KageUnpaid(player=player)
        return None

    def legal_actions(self, state: State, player: int) -> list[Action]:
        """The actions ``player`` may send right now, as :func:`act` would accept them (not
        Eject, KageUnpaid, Abort or Deadline, which a moderator or the table sends, nor
        RollForMe, a convenience that makes the Roll listed here)."""
        return RULEBOOK.legal_actions(state, player, _PLAYER_ACTIONS)


ENGINE = NihakyuEngine(rules_model=Rules, state_model=State, action_type=Action, event_type=Event)


PLAYOUT_VARIANTS: tuple[Rules, ...] = (
    Rules(starting_stamina=40),
    Rules(
        starting_stamina=30,
        kage_endurance=True,
        shadow_step=True,
        shadow_step_uses=2,
        dealers_blood=True,
        shinobi_interference=True,
    ),
)
"""The rules the contract's random playouts cover (tests/games/test_contract.py): the
plain game and every variant at once."""
"""Nihakyu's engine; the functions below are its bound methods."""

start = ENGINE.start
act = ENGINE.act
seat_limits = ENGINE.seat_limits
hold = ENGINE.hold
deadline_seconds = ENGINE.deadline_seconds
pending_charge = ENGINE.pending_charge
shortfall = ENGINE.shortfall
legal_actions = ENGINE.legal_actions
