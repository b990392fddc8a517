"""Fortunes and Winds' words: faces, bet names, event sentences, the odds and keep screens.
Data for cogs/fortunes_winds/ui.py (the frame around them is cogs/_ui/frame.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeAlias

import discord

from bot.games import fortunes_winds as fw
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.frame import Sentences

Snapshot: TypeAlias = TableSnapshot[fw.Rules, fw.State]

BET_BUTTONS: dict[str, str] = {
    "shooter": "Shooter's bet",
    "ride": "Ride",
    "daikoku": "Daikoku's Belly",
    "against": "Against",
    "tea": "Lady Sun's Tea",
    "hungry": "Hungry Moon",
}
BET_LABELS: dict[str, str] = {
    "shooter": "as the shooter",
    "ride": "riding the shooter",
    "daikoku": "on Daikoku's Belly",
    "against": "against the shooter",
    "tea": "on Lady Sun's Tea",
    "hungry": "on Hungry Moon",
}
LORD_MOON = "The same amount again goes down for Lord Moon (lost only on Moon)."
BET_NOTES: dict[str, str] = {
    "shooter": f"Wins at the combination's pays, double on roll 1. {LORD_MOON}",
    "ride": f"Settles exactly as the shooter's bet. {LORD_MOON}",
    "daikoku": "Bet 2 to win 3 if the shooter wins: **bet in multiples of 2**, so every "
    "win is whole coins.",
    "against": "Bet 3 to win 2 if the shooter loses: **bet in multiples of 3**, so every "
    "win is whole coins.",
    "tea": "Even money: the shooter makes all three rolls.",
    "hungry": "Even money: the shooter makes only one or two rolls; a push on Fortunes and "
    "Winds on roll 1 or 2.",
}
RESULT_NAMES: dict[str, str] = {
    "moon": "Moon",
    **{c.key: c.name for c in fw.COMBINATIONS},
    "nothing": "nothing in three rolls",
}
PASS_REASONS = {
    "lost": "the turn was lost",
    "voluntary": "by choice",
    "absent": "the shooter was idle",
    "left": "the shooter left",
}


def face(name: str) -> str:
    """A face as players read it: ``北 North``."""
    return f"{fw.KANJI.get(name, '?')} {name}"


def die_label(die: str, state: fw.State) -> str:
    """A white die's toggle: its face, and whether it is aside."""
    shown = face(state.faces[die]) if die in state.faces else die.capitalize()
    return f"🔒 {shown}" if die in state.set_aside else shown


def dice_line(faces: Mapping[Any, str], aside: Sequence[str]) -> str:
    """The five dice, set-aside ones locked and the black die marked."""
    whites = [
        f"{'🔒' if die in aside else ''}**{face(faces[die])}**"
        for die in fw.WHITE_DICE
        if die in faces
    ]
    if "moon" not in faces:
        return "The dice have not been rolled yet."
    return " · ".join(whites) + f" · ⚫ **{face(faces['moon'])}** (black)"


def banker(state: fw.State) -> str:
    return "the house" if state.banker is None else render.mention(state.banker)


def settled(event: fw.BetSettled, snapshot: Snapshot) -> str:
    who, bet = render.mention(event.player), BET_LABELS[event.bet]
    if event.push:
        return f"{who}'s bet {bet} is a push: returned."
    verb = "wins" if event.won else "loses"
    return f"{who} {verb} {bet}: {render.signed_coins(event.net, snapshot.currency)}."


def rolled(event: fw.Rolled, snapshot: Snapshot) -> str:
    by = " (rolled by the table)" if event.by_deadline else ""
    text = f"Roll {event.roll}{by}: {dice_line(event.faces, event.set_aside)}"
    if event.result is None:
        return text
    if event.result in ("moon", "nothing"):
        return f"{text} — **{RESULT_NAMES[event.result]}**."
    double = " on the first roll (pays double)" if event.roll == 1 else ""
    return f"{text} — **{RESULT_NAMES[event.result]}**{double}!"


def placed(event: fw.BetPlaced, snapshot: Snapshot) -> str:
    moon = (
        f" (+{render.coins(event.amount, snapshot.currency)} for Lord Moon)"
        if event.bet in ("shooter", "ride")
        else ""
    )
    return (
        f"{render.mention(event.player)} bets {render.coins(event.amount, snapshot.currency)}"
        f"{moon} {BET_LABELS[event.bet]}."
    )


def turn_ended(event: fw.TurnEnded, snapshot: Snapshot) -> str:
    how = RESULT_NAMES[event.result]
    if event.won:
        return (
            f"**{render.mention(event.shooter)} wins the turn** with {how} on roll {event.rolls}."
        )
    return f"**{render.mention(event.shooter)} loses the turn**: {how} (roll {event.rolls})."


SENTENCES = Sentences(
    {
        fw.BetPlaced: placed,
        fw.PlayerReady: "{player:@} is ready.",
        fw.BettingClosed: lambda e, s: (
            "Time is up: **bets are closed**." if e.by_deadline else "**Bets are closed.**"
        ),
        fw.DiceSetAside: lambda e, s: (
            f"Set aside{' by the table' if e.by_deadline else ''}: "
            + ", ".join(face(s.game.faces.get(d, d.capitalize())) for d in e.dice)
            + "."
        ),
        fw.Rolled: rolled,
        fw.BetSettled: settled,
        fw.BetReturned: lambda e, s: (
            f"{render.mention(e.player)}'s bet {BET_LABELS[e.bet]} is returned."
        ),
        fw.BetValued: lambda e, s: (
            f"{render.mention(e.player)}'s bet {BET_LABELS[e.bet]} is settled at its exact "
            f"value: {render.signed_coins(e.net, s.currency)}."
        ),
        fw.TurnEnded: turn_ended,
        fw.NewTurnStarted: lambda e, s: (
            f"{render.mention(e.shooter)} goes again"
            f"{' (chosen by the table)' if e.by_deadline else ''}: bets are open."
        ),
        fw.DicePassed: lambda e, s: (
            f"The dice pass to {render.mention(e.to_player)} ({PASS_REASONS[e.reason]})."
        ),
        fw.Joined: "{player:@} sits down.",
        fw.Left: "{player:@} cashes out at {net:+c}.",
        fw.Closed: lambda e, s: (
            "The banker left: the table closes."
            if e.reason == "banker_left"
            else "Everyone has gone: the table closes."
        ),
        fw.Aborted: lambda e, s: (
            f"The table was ended{f' by {render.mention(e.by)}' if e.by is not None else ''}; "
            "open bets were returned or settled at their exact value."
        ),
    }
)


def result_line(events: list[object], snapshot: Snapshot) -> str | None:
    """The one public line a decided turn earns: how it ended and every settlement."""
    ended = next((e for e in events if isinstance(e, fw.TurnEnded)), None)
    if ended is None:
        return None
    nets = [
        f"{render.mention(e.player)} {render.signed_coins(e.net, snapshot.currency)}"
        for e in events
        if isinstance(e, fw.BetSettled)
    ]
    return f"🎲 Turn {ended.turn}: {turn_ended(ended, snapshot)} " + " · ".join(nets)


def cashed_out(events: Sequence[object], player: int, snapshot: Snapshot) -> str | None:
    """The private word to a member who cashed out: what they take from this table."""
    left = next((e for e in events if isinstance(e, fw.Left) and e.player == player), None)
    if left is None:
        return None
    net = render.signed_coins(left.net, snapshot.currency)
    return f"💰 You cashed out of table #{snapshot.id}: net **{net}** at this table."


def clock_line(state: fw.State, due: str) -> str:
    if state.window_open:
        waiting = fw.waiting_on(state)
        names = ", ".join(render.mention(p) for p in waiting)
        verb = "has" if len(waiting) == 1 else "have"
        return (
            f"⏳ **Bets are open** — they close {due}, or as soon as {names} {verb} "
            "bet or pressed **Ready**; then the shooter rolls."
        )
    if fw.betting_open(state):
        if not state.bets.get(state.shooter, {}).get("shooter"):
            dice = (
                " (no shooter's bet by then: bets go back, the dice pass)"
                if fw.can_pass_dice(state)
                else ""
            )
            return f"⏳ **Bets are open**; the shooter bets by {due}{dice}."
        return (
            "⏳ **Bets are open** until the shooter's first roll; the table rolls for the "
            f"shooter {due}."
        )
    if state.phase == "won":
        return f"The shooter goes again or passes the dice; the table goes again {due}."
    if state.roll_number == 0:
        return f"The shooter rolls; the table rolls for them {due}."
    return f"The shooter sets dice aside and rolls again; the table plays the best keep {due}."


def percent(value: Fraction, places: int = 2) -> str:
    return f"{float(value) * 100:,.{places}f}%"


def rules_summary(rules: fw.Rules, currency: str) -> list[str]:
    bank = "the richest player banks" if rules.player_banker else "the house banks"
    guard = "house guard on" if rules.guarded else "house guard off"
    against = "bets against the shooter taken" if rules.allow_bet_against else "no bets against"
    window = (
        f"after the shooter's bet, bets stay open up to {rules.bet_seconds:,} s until "
        "everyone has bet or pressed Ready"
        if rules.bet_seconds
        else "bets open until the first roll"
    )
    return [
        f"Bets {rules.min_stake:,}–{rules.max_stake:,} {currency} · {bank} · {guard}",
        f"{against.capitalize()} · {window} · {rules.roll_seconds:,} s to roll.",
        SERVER_SET,
    ]


SERVER_SET = "The house guard and bets against are the server's (moderators: /config rule)."
"""Who set the terms that move the bank's edge: never the table's opener."""


GUARD_TEXT = (
    "**House guard.** Every side bet pays on something the shooter steers by keeping, so "
    "friends at a table could farm the bank (the house or a player banker). With the guard "
    "on, a bet is taken only if all the members' bets together, the shooter keeping to "
    "serve them all, still expect to lose; on the computer's turn it keeps by the best "
    "keep, and its own bet is the house's. A refused bet is told the most the bank would "
    "take."
)


def odds_embed() -> discord.Embed:
    """The exact outcome table and every bet's edge, from the engine (no simulation)."""
    best, never = fw.turn_odds("best"), fw.turn_odds("never_keep")
    embed = discord.Embed(
        title="Fortunes and Winds — exact odds",
        description=(
            "Computed exactly over the dice and every keep (dynamic programming, not "
            "simulation), the shooter keeping for their own best value. A bet's *edge* "
            "is what the bank expects to gain on it, as a share of the bet (for the "
            "shooter's bet and a ride: of the bet itself, the Lord Moon stake beside it "
            "included in the result); a negative edge favours the bettor, which the house "
            f"guard watches.\n\n{GUARD_TEXT}"
        ),
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    lines = []
    for result in fw.RESULTS:
        cells = [best.outcomes.get((roll, result), Fraction(0)) for roll in (1, 2, 3)]
        shown = " · ".join(percent(p, 3) for p in cells)
        lines.append(f"{RESULT_NAMES[result]}: {shown}")
    embed.add_field(name="Each outcome on roll 1 · 2 · 3", value="\n".join(lines), inline=False)
    edges = "\n".join(
        f"{BET_BUTTONS[kind]}: **{percent(best.edges[kind])}** "
        f"(never keeping: {percent(never.edges[kind])})"
        for kind in fw.BET_KINDS
    )
    embed.add_field(name="Bank edge per bet", value=edges, inline=False)
    embed.add_field(
        name="Shooter",
        value=(
            f"Wins the turn {percent(best.win)} of the time. On average the shooter "
            f"{'loses' if best.shooter_ev < 0 else 'gains'} {percent(abs(best.shooter_ev))} "
            "of the shooter's bet per turn (Lord Moon stake included): about "
            f"{float(abs(best.shooter_ev)) * 100:.2f} for every 100 bet"
        ),
        inline=False,
    )
    return embed


def keep_text(advice: fw.KeepAdvice, state: fw.State) -> str:
    """The private answer to "Best keep": the keep, then the chances that matter (winning
    the turn, meeting Lord Moon) exactly, then each roll's outcomes on one line."""
    if advice.keep:
        keep = "set aside " + ", ".join(face(state.faces[d]) for d in advice.keep)
    else:
        keep = "set nothing aside"
    win = sum(
        (p for (_, result), p in advice.outcomes.items() if result not in ("moon", "nothing")),
        Fraction(0),
    )
    moon = sum((p for (_, result), p in advice.outcomes.items() if result == "moon"), Fraction(0))
    lines = [
        f"**Best keep** after roll {state.roll_number}: {keep}, then roll again "
        "(**Roll with best keep** does both in one click).",
        f"With it the shooter **wins the turn {percent(win)}** of the time and **meets "
        f"Lord Moon {percent(moon)}**.",
    ]
    for roll in (1, 2, 3):
        cells = [
            f"{RESULT_NAMES[result]} {percent(chance, 1)}"
            for (at, result), chance in advice.outcomes.items()
            if at == roll and chance
        ]
        if cells:
            lines.append(f"-# Roll {roll}: " + " · ".join(cells))
    lines.append(
        f"-# On average from here: {signed_percent(advice.shooter_ev)} of the shooter's bet "
        "(Lord Moon stake included)."
    )
    return "\n".join(lines)


def signed_percent(value: Fraction, places: int = 2) -> str:
    """A signed share in words' figures: ``−10.88%``, ``+3.10%``."""
    shown = percent(abs(value), places)
    return f"−{shown}" if value < 0 else f"+{shown}"


def status_lines(snapshot: Snapshot) -> list[str]:
    s = snapshot.game
    roll = f"roll **{s.roll_number}/3**" if s.roll_number else "before the first roll"
    lines = [
        f"Turn {s.turn:,} · shooter {render.mention(s.shooter)} · {roll} · banker: {banker(s)}",
        dice_line(s.faces, s.set_aside),
    ]
    return ["**The table is closed.**", *lines] if s.finished else lines


def bets_text(held: Mapping[Any, int]) -> str:
    """A player's bets on the table, each with its owner's Lord Moon stake."""
    return (
        ", ".join(
            f"{BET_LABELS[kind]} {amount:,}"
            + (f" (+{amount:,} Lord Moon)" if kind in ("shooter", "ride") else "")
            for kind, amount in held.items()
            if amount
        )
        or "no bets"
    )


def seat_lines(snapshot: Snapshot) -> list[str]:
    s = snapshot.game
    lines = []
    for player in s.seats:
        role = "🎲 " if player == s.shooter else "🏦 " if player == s.banker else ""
        net = render.signed_coins(s.payouts.get(player, 0), snapshot.currency)
        lines.append(
            f"{role}{render.mention(player)} — {bets_text(s.bets.get(player, {}))} · net {net}"
        )
    return lines


def bank_field(snapshot: Snapshot) -> tuple[str, str]:
    s = snapshot.game
    net = render.signed_coins(s.payouts.get(s.banker or 0, 0), snapshot.currency)
    return ("Bank", f"{banker(s)}: {net}")


def cannot_cover(banker_id: int, needed: int, balance: int, currency: str) -> str:
    return (
        f"The banker {render.mention(banker_id)} cannot cover that bet: the bets on the table "
        f"could then cost them {needed:,} {currency}, and they hold {balance:,} {currency}."
    )


def action_text(action: Mapping[str, Any], currency: str) -> str | None:
    """A logged action in words, without its actor (/history, the replay page)."""
    kind = str(action.get("kind"))
    if kind in BET_LABELS:
        return f"bets {render.coins(int(action.get('amount', 0)), currency)} {BET_LABELS[kind]}"
    if kind == "set_aside":
        dice = [str(d) for d in action.get("dice", [])]
        return "sets aside the " + ", ".join(f"{d} die" for d in dice) if dice else None
    return ACTION_WORDS.get(kind)


ACTION_WORDS: dict[str, str] = {
    "roll": "rolls",
    "new_turn": "goes again",
    "pass_dice": "passes the dice",
    "ready": "is ready",
    "join": "sits down",
    "leave": "cashes out",
}


def set_aside_then(event: fw.DiceSetAside, earlier: Sequence[object], by: str = "") -> str:
    """A set-aside as it read at its step: the faces of the roll before it."""
    rolled = next((e for e in reversed(earlier) if isinstance(e, fw.Rolled)), None)
    faces: Mapping[Any, str] = rolled.faces if rolled is not None else {}
    shown = ", ".join(face(faces[d]) if d in faces else d.capitalize() for d in event.dice)
    return f"Set aside{by}: {shown}."
