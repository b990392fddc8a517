"""Nuki Hachi-hachi: the rules options, actions, events and state (pydantic models).

Names follow ENGINE_CONTRACT.md and the rules file's §17 option names. Every event is
public: none carries a hand or the draw pile's order (a claimed teyaku's revealed cards
are public, rules §9.3; a drawn card is turned face up).
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias, get_args

from pydantic import BaseModel, ConfigDict, Field

from bot.games.common import Abort, Deadline, Frozen, Honour

# --------------------------------------------------------------------------- rules


class Rules(Frozen):
    """House rules of a Nuki Hachi-hachi table (defaults as in the rules file, §17)."""

    model_config = ConfigDict(extra="forbid")

    seated_players: Literal[2, 3, 4] = 2
    """The lobby's size (``seat_limits`` is ``(n, n)``); only two are active in a round."""
    rounds: int = Field(default=12, ge=1, le=48)
    """Counted rounds in the match (misdeals and nobody-plays redeals do not count)."""
    points_per_kan: Literal[10, 12] = 10
    mizuten: bool = True
    teyaku_claims: Literal["auto", "manual"] = "auto"
    field_multiplier_mode: Literal["carry_over", "stack"] = "carry_over"
    rain_man_phoenix_make_large_field: bool = False
    extend_game_for_carryover: bool = False
    """Extra rounds while a Large Field is carried over, at most ``rounds`` extra."""
    boar_deer_butterflies: bool = False
    diving_eligibility: Literal["triplet_or_haneken", "triplet_only"] = "triplet_or_haneken"
    escape_excludes_one_bright: bool = False
    dropout_penalties: bool = False
    forced_out_compensation: bool = False
    must_two_play: bool = False
    shuffle_draw_after_dropouts: bool = True
    first_dealer: Literal["draw", "first_seat"] = "draw"
    """``draw``: the first dealer is drawn (§4); ``first_seat``: seat 0 deals first."""
    stake_per_kan: int = Field(default=1, ge=0, le=1_000_000)
    """Coins per kan of running score (a point is ``stake_per_kan / points_per_kan``); 0
    plays for no coins (as against the computer)."""
    turn_seconds: int = Field(default=90, ge=5, le=3600)
    """How long each decision waits before the table plays the default."""
    afk_rounds_to_forfeit: int = Field(default=3, ge=1, le=100)
    """Decisions in a row played by the deadline that forfeit the match."""


# ------------------------------------------------------------------------- actions


class Mizuten(Frozen):
    """The dealer plays blind (or not), before seeing their hand (§7.1)."""

    kind: Literal["mizuten"] = "mizuten"
    declare: bool


class Participate(Frozen):
    """With 3–4 seated: the asked player plays or drops (§8)."""

    kind: Literal["participate"] = "participate"
    play: bool


class Play(Frozen):
    """Play a hand card; ``capture`` names the field card taken when two match."""

    kind: Literal["play"] = "play"
    card: str
    capture: str | None = None


class CaptureDrawn(Frozen):
    """Which of the two matching field cards the face-up drawn card captures."""

    kind: Literal["capture_drawn"] = "capture_drawn"
    capture: str


class Sage(Frozen):
    """After forming or improving a dekiyaku: go on."""

    kind: Literal["sage"] = "sage"


class Shoubu(Frozen):
    """After forming or improving a dekiyaku: end the round now and score it."""

    kind: Literal["shoubu"] = "shoubu"


class Cancel(Frozen):
    """At the start of one's own turn, after an own sage: end the round for half."""

    kind: Literal["cancel"] = "cancel"


class Uncovered(Frozen):
    """The table's note (never a player's) that ``player``'s wallet cannot put back what
    the round being scored takes from their escrow (the next round's cover): their
    balance, self-exclusion or loss limit refuses it. The round in play is scored from
    what is held, and the match ends after it."""

    kind: Literal["uncovered"] = "uncovered"
    player: int


class ClaimTeyaku(Frozen):
    """Manual claims: claim or decline a teyaku group (``None``: every group the player
    has still to decide); ``month`` names the triplet for Diving when there are two."""

    kind: Literal["claim_teyaku"] = "claim_teyaku"
    claim: bool
    group: Literal["A", "B"] | None = None
    month: int | None = None


Action: TypeAlias = Annotated[
    Mizuten
    | Participate
    | Play
    | CaptureDrawn
    | Sage
    | Shoubu
    | Cancel
    | ClaimTeyaku
    | Uncovered
    | Deadline
    | Abort,
    Field(discriminator="kind"),
]
"""Everything ``act`` accepts (the shared :class:`Deadline` and :class:`Abort` included)."""

ACTIONS: tuple[type[BaseModel], ...] = get_args(get_args(Action)[0])
"""The action models, in the order of :data:`Action`."""

Phase: TypeAlias = Literal[
    "mizuten", "participate", "claim", "play", "capture_drawn", "call", "over"
]
"""Whose decision the table waits for: the dealer's mizuten, play-or-drop (3–4 seated),
``claim`` (manual claims: the dealer's first draw waits for untaken claim steps), a turn's
hand card, the drawn card's capture when two match,
sage-or-shoubu after a new dekiyaku; ``over`` once the match is finished."""

EndedBy: TypeAlias = Literal["exhaustion", "shoubu", "cancel", "one_player", "void"]
ScoringCase: TypeAlias = Literal["D", "S", "C", "none"]
LineKind: TypeAlias = Literal[
    "teyaku",
    "dekiyaku",
    "sixteen_chaff",
    "card_points",
    "diving",
    "escape",
    "mizuten",
    "compensation",
    "dropout",
]


# ------------------------------------------------------------------ public records


class Claim(BaseModel):
    """A claimed teyaku (public, with the cards it revealed, §9.3)."""

    group: Literal["A", "B"]
    name: str
    kan: int
    revealed: list[str]
    month: int | None = None
    """The claimed triplet's month (Triplet, Triplet and Two Pairs), for Diving."""


class Line(BaseModel):
    """One payment of a scored round, in points, the multiplier applied."""

    kind: LineKind
    payer: int
    payee: int
    points: int
    detail: str = ""


class RoundResult(BaseModel):
    """A public summary of a scored round (the table message shows the last one)."""

    round: int
    dealer: int
    acting_dealer: int
    active: list[int]
    multiplier: int
    ended_by: EndedBy
    caller: int | None = None
    """Who called shoubu or cancel."""
    case: ScoringCase = "none"
    winner: int | None = None
    card_points: dict[int, int] = Field(default_factory=dict)
    dekiyaku: dict[int, list[tuple[str, int]]] = Field(default_factory=dict)
    chaff_like: dict[int, int] = Field(default_factory=dict)
    lines: list[Line] = Field(default_factory=list)
    net: dict[int, int] = Field(default_factory=dict)
    """Each seated player's net points this round (sums to 0)."""


# -------------------------------------------------------------------------- events


class Dealt(BaseModel):
    """A deal's face-up field (after the Paulownia pair left it) and its multiplier."""

    kind: Literal["dealt"] = "dealt"
    round: int
    dealer: int
    field: list[str]
    multiplier: int
    pending_large: int
    draw_pile: int
    """How many cards lie face down in the draw pile."""


class Misdealt(BaseModel):
    """Four cards of one month on the field (§6.1), or nobody played (§8 step 6): the
    same dealer deals again; the round is not counted."""

    kind: Literal["misdealt"] = "misdealt"
    dealer: int
    reason: Literal["four_of_a_month", "nobody_plays"]
    field: list[str]
    month: int | None = None


class PaulowniaPair(BaseModel):
    """Both Paulownia cards were dealt to the field: the dealer takes them (§6.2)."""

    kind: Literal["paulownia_pair"] = "paulownia_pair"
    player: int
    cards: list[str]


class MizutenDecided(BaseModel):
    kind: Literal["mizuten_decided"] = "mizuten_decided"
    player: int
    declare: bool
    by_deadline: bool = False


class Participated(BaseModel):
    """A play-or-drop answer; ``penalty`` (points) went into the pot for a voluntary drop;
    ``auto``: the answer was forced (a mizuten dealer, ``must_two_play``)."""

    kind: Literal["participated"] = "participated"
    player: int
    play: bool
    penalty: int = 0
    auto: bool = False
    by_deadline: bool = False


class LineUp(BaseModel):
    """Who plays this round: the two active players, who moves first, who was forced out
    and what each forced-out player is owed (points, ``forced_out_compensation``)."""

    kind: Literal["line_up"] = "line_up"
    active: list[int]
    acting_dealer: int
    forced_out: list[int]
    compensation: dict[int, int] = Field(default_factory=dict)
    draw_pile: int


class TeyakuClaimed(BaseModel):
    kind: Literal["teyaku_claimed"] = "teyaku_claimed"
    player: int
    claim: Claim
    by_deadline: bool = False


class TeyakuDeclined(BaseModel):
    """No longer made (a decline is never announced, turn 3 ruling); kept so that the
    logs of earlier tables still read."""

    kind: Literal["teyaku_declined"] = "teyaku_declined"
    player: int
    group: Literal["A", "B"]
    by_deadline: bool = False


class CardPlayed(BaseModel):
    """A card went to the table: from the hand or turned from the draw pile. ``captured``
    are the field cards it took (empty: it was laid on the field)."""

    kind: Literal["card_played"] = "card_played"
    player: int
    card: str
    source: Literal["hand", "draw"]
    captured: list[str]
    by_deadline: bool = False


class DrawnAwaits(BaseModel):
    """The face-up drawn card matches two field cards: its player picks one."""

    kind: Literal["drawn_awaits"] = "drawn_awaits"
    player: int
    card: str
    choices: list[str]


class DekiyakuFormed(BaseModel):
    """A player's dekiyaku total grew this turn: they must call sage or shoubu."""

    kind: Literal["dekiyaku_formed"] = "dekiyaku_formed"
    player: int
    dekiyaku: list[tuple[str, int]]
    total: int


class Called(BaseModel):
    kind: Literal["called"] = "called"
    player: int
    call: Literal["sage", "shoubu", "cancel"]
    by_deadline: bool = False


class RoundScored(BaseModel):
    kind: Literal["round_scored"] = "round_scored"
    result: RoundResult
    scores: dict[int, int]
    payouts: dict[int, int]


class Forfeited(BaseModel):
    """A player let the deadline decide too often in a row: the table plays the rest of
    the round for them, and the match ends after it."""

    kind: Literal["forfeited"] = "forfeited"
    player: int


class CannotCover(BaseModel):
    """A player's wallet cannot cover another round: the round in play is the last."""

    kind: Literal["cannot_cover"] = "cannot_cover"
    player: int


class MatchOver(BaseModel):
    kind: Literal["match_over"] = "match_over"
    reason: Literal["rounds", "forfeit", "aborted", "uncovered"]
    winners: list[int]
    scores: dict[int, int]
    payouts: dict[int, int]


class Aborted(BaseModel):
    """A moderator ended the match: settled rounds stand; the table plays the round in play
    out with its defaults, scores it, and the match ends."""

    kind: Literal["aborted"] = "aborted"
    by: int | None
    round: int


Event = Annotated[
    Dealt
    | Misdealt
    | PaulowniaPair
    | MizutenDecided
    | Participated
    | LineUp
    | TeyakuClaimed
    | TeyakuDeclined
    | CardPlayed
    | DrawnAwaits
    | DekiyakuFormed
    | Called
    | RoundScored
    | Forfeited
    | CannotCover
    | MatchOver
    | Aborted
    | Honour,
    Field(discriminator="kind"),
]
"""Every event ``act`` emits. All are public."""


# --------------------------------------------------------------------------- state


class State(BaseModel):
    """The whole match. Round-trips through JSON exactly. Holds the secret hands and the
    draw pile's order: never shown raw.

    Money: ``scores`` are running points (settled rounds only: a round's payments are
    booked when it is scored); ``payouts`` are coins made from them after every round;
    ``stakes[p]`` is the worst case of the round in play (see ``hold``): a loss is paid
    from it, and the wallet puts it back before the next round."""

    rules: Rules
    seats: list[int]
    dealer: int
    """The round's dealer (the next one once the match is over)."""
    acting_dealer: int
    """Who moves first this round: the dealer, or the first active player after a dealer
    who dropped out (§8 step 7)."""
    phase: Phase
    turn: int | None = None
    """Whose decision the table waits for (``None`` once finished)."""
    active: list[int] = Field(default_factory=list)
    """The two players of this round, acting dealer first (empty until the line-up)."""
    round: int = 1
    """The counted round in play (1-based)."""
    rounds_played: int = 0
    hands: dict[int, list[str]]
    field: list[str]
    piles: dict[int, list[str]]
    draw_pile: list[str]
    """Face down, top first (index 0 is drawn next)."""
    drawn: str | None = None
    """The face-up drawn card waiting for its capture choice (phase ``capture_drawn``)."""
    multiplier: int = 1
    pending_large: int = 0
    pending_before_deal: int = 0
    """``pending_large`` before this deal (restored when nobody plays, §8 step 6)."""
    mizuten_declared: bool = False
    answers: dict[int, bool] = Field(default_factory=dict)
    """Play-or-drop answers of this deal, in the order given (``True``: play)."""
    forced_out: list[int] = Field(default_factory=list)
    compensation: dict[int, int] = Field(default_factory=dict)
    """Points each forced-out player is owed by the non-dealer active player (×mult)."""
    pot: dict[int, int] = Field(default_factory=dict)
    """Dropout penalties (points, ×mult) each player has put in the pot, not yet won."""
    pot_carried: dict[int, int] = Field(default_factory=dict)
    """The part of ``pot`` from deals abandoned before this one; its payers drop free in
    this deal (one penalty a counted round)."""
    to_claim: dict[int, list[Literal["A", "B"]]] = Field(default_factory=dict)
    """Manual claims: each active player who has not taken their claim step yet → the
    groups of their hand's teyaku still to claim or decline (empty: nothing to claim).
    Secret: it tells who holds a teyaku."""
    claims_open: bool = False
    """Manual claims: from the line-up until the dealer's first draw."""
    claim_hands: dict[int, list[str]] = Field(default_factory=dict)
    """Manual claims, while open: each active player's 7-card hand at the line-up, whose
    teyaku a claim names (the dealer may have played a card of it since). Secret."""
    claims: dict[int, list[Claim]] = Field(default_factory=dict)
    sage_calls: list[int] = Field(default_factory=list)
    """Who called sage this round, in order (a player once per call)."""
    yaku_kan: dict[int, int] = Field(default_factory=dict)
    """Each active player's dekiyaku total D (kan) as of their last turn's end."""
    scores: dict[int, int]
    payouts: dict[int, int]
    stakes: dict[int, int]
    idle: dict[int, int] = Field(default_factory=dict)
    """Decisions in a row the deadline played for each player."""
    forfeited: list[int] = Field(default_factory=list)
    uncovered: list[int] = Field(default_factory=list)
    """Players whose wallet could not cover another round (:class:`Uncovered`): the match
    ends when the round in play is scored."""
    dealer_draws: list[dict[int, str]] = Field(default_factory=list)
    """The cards drawn for the first dealer (§4), one dict per draw (empty: first seat)."""
    last_round: RoundResult | None = None
    winners: list[int] = Field(default_factory=list)
    finished: bool = False
    aborted: bool = False
    ply: int = 0
