"""Hazard's words: bet names, event sentences, the rules summary and the odds table.
Data for cogs/hazard/ui.py (the frame around them is cogs/_ui/frame.py)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, TypeAlias

import discord

from bot.games import hazard
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.frame import Sentences

Snapshot: TypeAlias = TableSnapshot[hazard.Rules, hazard.State]

BET_LABELS: dict[str, str] = {
    "caster": "caster's stake",
    "with": "with the caster",
    "against": "against the caster",
    "odds_for": "odds on the chance",
    "odds_against": "odds on the main",
}
SETTLED_NAMES: dict[str, str] = {
    "caster": "the caster's stake",
    "with": "the bet with the caster",
    "against": "the bet against the caster",
    "odds_for": "the odds on the chance",
    "odds_against": "the odds on the main",
}
"""A bet as the object of "wins"/"loses" (the labels read after "on": "on with" is no
sentence)."""
OUTCOME_TEXT: dict[str, str] = {
    "nick": "**nicks** — the caster wins",
    "out": "**throws out** — the caster loses",
    "chance": "sets the **chance**",
    "win": "the chance came — the caster **wins**",
    "lose": "the main came — the caster **loses**",
    "again": "neither — throw again",
}
PASS_REASONS = {
    "three_losses": "after three losses in a row",
    "absent": "the caster was absent",
    "voluntary": "by choice",
    "left": "the caster left",
}


def by_table(event: hazard.MainCalled | hazard.Thrown, what: str) -> str:
    return f" ({what} by the table)" if event.by_deadline else ""


def settled(event: hazard.BetSettled, snapshot: Snapshot) -> str:
    who, bet = render.mention(event.player), BET_LABELS[event.bet]
    if event.push:
        return f"{who}'s bet {bet} is a push (a first throw of 2 is barred): returned."
    verb = "wins" if event.won else "loses"
    currency = snapshot.currency
    kept = (
        f" after {render.coins(event.commission, currency)} commission" if event.commission else ""
    )
    won = SETTLED_NAMES[event.bet]
    return f"{who} {verb} {won}: {render.signed_coins(event.net, currency)}{kept}."


def closed_bets(event: hazard.BettingClosed, snapshot: Snapshot) -> str:
    why = "Time is up" if event.by_deadline else "Everyone is ready"
    return f"{why}: **bets are closed**. The caster may throw."


SENTENCES = Sentences(
    {
        hazard.MainCalled: lambda e, s: (
            f"{render.mention(e.caster)} calls main **{e.main}**{by_table(e, 'called')}."
        ),
        hazard.Thrown: lambda e, s: (
            f"{render.dice_pair(*e.dice)} — {OUTCOME_TEXT[e.outcome]}{by_table(e, 'thrown')}."
        ),
        hazard.BetPlaced: lambda e, s: (
            f"{render.mention(e.player)} bets {render.coins(e.amount, s.currency)} "
            f"{BET_LABELS[e.bet]}."
        ),
        hazard.BetSettled: settled,
        hazard.BetReturned: lambda e, s: (
            f"{render.mention(e.player)}'s {BET_LABELS[e.bet]} is returned."
        ),
        hazard.BetValued: lambda e, s: (
            f"{render.mention(e.player)}'s {BET_LABELS[e.bet]} is settled at its exact value: "
            f"{render.coins(e.returned, s.currency)} back "
            f"({render.signed_coins(e.net, s.currency)})."
        ),
        hazard.PlayerReady: "{player:@} is ready.",
        hazard.BettingClosed: closed_bets,
        hazard.Aborted: lambda e, s: (
            f"The table was ended{f' by {render.mention(e.by)}' if e.by is not None else ''}; "
            "open bets were returned or settled at value."
        ),
        hazard.DicePassed: lambda e, s: (
            f"The dice pass to {render.mention(e.to_player)} ({PASS_REASONS[e.reason]})."
        ),
        hazard.Joined: "{player:@} sits down.",
        hazard.Left: "{player:@} cashes out at {net:+c}.",
        hazard.Closed: "The table closes.",
    }
)


def clock_line(state: hazard.State, due: str) -> str:
    """What the table is waiting for, ``due`` a live countdown (a Discord timestamp)."""
    if state.window_open:
        waiting = hazard.waiting_on(state)
        names = ", ".join(render.mention(p) for p in waiting)
        verb = "has" if len(waiting) == 1 else "have"
        return (
            f"⏳ **Bets are open** — they close {due}, or as soon as {names} {verb} "
            "bet with/against or pressed **Ready**."
        )
    if state.main is None:
        return f"The caster calls a main; otherwise the table calls 7 {due}."
    return f"The table throws for the caster {due}."


def percent(value: Fraction) -> str:
    return f"{float(value) * 100:,.2f}%"


def against_terms(rules: hazard.Rules) -> str:
    """How "against" bets are paid at a table, in a few words."""
    parts = []
    if rules.against_bar:
        parts.append("a first throw of 2 is a push")
    if rules.against_commission:
        parts.append(f"{rules.against_commission}% commission on wins")
    return "; ".join(parts) or "even money"


def rules_summary(rules: hazard.Rules, currency: str) -> list[str]:
    odds = (
        f"odds bets up to {rules.odds_max_multiple}× the stake"
        if rules.odds_bets and rules.odds_max_multiple
        else "no odds bets"
    )
    window = (
        f"after the main is called, bets stay open up to {rules.bet_seconds:,} s "
        "until everyone has bet or pressed Ready"
        if rules.bet_seconds
        else "bets close at the first throw"
    )
    return [
        f"Bets {rules.min_stake:,}–{rules.max_stake:,} {currency} · {odds}",
        f"Against: {against_terms(rules)} · {window}.",
        f"The caster has {rules.throw_seconds:,} s to act before the table throws.",
        SERVER_SET,
    ]


SERVER_SET = "The odds bets and the against terms are the server's (moderators: /config rule)."
"""Who set the terms that move the bank's edge: never the table's opener."""


def odds_embed(main: int | None = None, rules: hazard.Rules | None = None) -> discord.Embed:
    """The exact odds table from the engine (fractions, not simulation).

    ``rules``: the "against" options of the table in the channel (defaults otherwise)."""
    rules = rules or hazard.Rules()
    embed = discord.Embed(
        title="Hazard — exact odds",
        description=(
            "Computed exactly from the outcome table. *Edge* is the bank's expected gain "
            "per coin staked; every bet's edge is ≥ 0, so no pair of players can farm "
            f"the bank. Against: {against_terms(rules)}. Odds bets are paid at fair odds "
            "(edge 0, before fractions are rounded down in the bank's favour)."
        ),
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    for value in [main] if main is not None else list(hazard.MAINS):
        figures = hazard.odds(value, rules.against_bar, rules.against_commission)
        edges = figures.edges
        embed.add_field(
            name=f"Main {value}",
            value=(
                f"Caster wins **{figures.caster_wins}** ≈ {percent(figures.caster_wins)}\n"
                f"First throw: nick {percent(figures.nick)} · out {percent(figures.out)} · "
                f"chance {percent(figures.chance)}\n"
                f"Bank edge — caster/with {percent(edges['with'])} · "
                f"against {percent(edges['against'])} · odds {percent(edges['odds_for'])}\n"
                f"Expected throws {figures.expected_throws} ≈ "
                f"{float(figures.expected_throws):,.2f}"
            ),
            inline=False,
        )
    return embed


def action_text(action: Mapping[str, Any], currency: str) -> str | None:
    """A logged Hazard action in words, without its actor (/history, the replay page)."""
    kind = str(action.get("kind"))
    if kind in BET_LABELS:
        return f"bets {render.coins(int(action.get('amount', 0)), currency)} {BET_LABELS[kind]}"
    if kind == "call_main":
        return f"calls a main of {action.get('main')}"
    return ACTION_WORDS.get(kind)


ACTION_WORDS: dict[str, str] = {
    "throw": "throws",
    "ready": "is ready",
    "pass_dice": "passes the dice",
    "join": "sits down",
    "leave": "cashes out",
    "close": "closes the table",
}
