"""Hazard's words: bet names, event sentences, the rules summary and the odds table.
Data for cogs/hazard/ui.py (the frame around them is cogs/_ui/frame.py).

Every sentence is a whole template translated where it is built (``bot.i18n``): the
table's words in the server's language, the odds table in the asking member's."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, TypeAlias

import discord

from bot.games import hazard
from bot.i18n import N_, _
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.frame import Sentences

Snapshot: TypeAlias = TableSnapshot[hazard.Rules, hazard.State]

BET_LABELS: dict[str, str] = {
    "caster": N_("caster's stake"),
    "with": N_("with the caster"),
    "against": N_("against the caster"),
    "odds_for": N_("odds on the chance"),
    "odds_against": N_("odds on the main"),
}
"""A bet's short name (translate where shown: ``_(BET_LABELS[kind])``)."""
OUTCOME_TEXT: dict[str, str] = {
    "nick": N_("{dice} — **nicks** — the caster wins."),
    "out": N_("{dice} — **throws out** — the caster loses."),
    "chance": N_("{dice} — sets the **chance**."),
    "win": N_("{dice} — the chance came — the caster **wins**."),
    "lose": N_("{dice} — the main came — the caster **loses**."),
    "again": N_("{dice} — neither — throw again."),
}
OUTCOME_BY_TABLE: dict[str, str] = {
    "nick": N_("{dice} — **nicks** — the caster wins (thrown by the table)."),
    "out": N_("{dice} — **throws out** — the caster loses (thrown by the table)."),
    "chance": N_("{dice} — sets the **chance** (thrown by the table)."),
    "win": N_("{dice} — the chance came — the caster **wins** (thrown by the table)."),
    "lose": N_("{dice} — the main came — the caster **loses** (thrown by the table)."),
    "again": N_("{dice} — neither — throw again (thrown by the table)."),
}
PASS_REASONS: dict[str, str] = {
    "three_losses": N_("The dice pass to {player} (after three losses in a row)."),
    "absent": N_("The dice pass to {player} (the caster was absent)."),
    "voluntary": N_("The dice pass to {player} (by choice)."),
    "left": N_("The dice pass to {player} (the caster left)."),
}
# A bet as the object of "wins"/"loses", one whole sentence per bet and verb: the word
# order around a bet's name differs between languages.
WINS: dict[str, str] = {
    "caster": N_("{player} wins the caster's stake: {net}."),
    "with": N_("{player} wins the bet with the caster: {net}."),
    "against": N_("{player} wins the bet against the caster: {net}."),
    "odds_for": N_("{player} wins the odds on the chance: {net}."),
    "odds_against": N_("{player} wins the odds on the main: {net}."),
}
WINS_AFTER_COMMISSION: dict[str, str] = {
    "caster": N_("{player} wins the caster's stake: {net} after {commission} commission."),
    "with": N_("{player} wins the bet with the caster: {net} after {commission} commission."),
    "against": N_("{player} wins the bet against the caster: {net} after {commission} commission."),
    "odds_for": N_("{player} wins the odds on the chance: {net} after {commission} commission."),
    "odds_against": N_("{player} wins the odds on the main: {net} after {commission} commission."),
}
LOSES: dict[str, str] = {
    "caster": N_("{player} loses the caster's stake: {net}."),
    "with": N_("{player} loses the bet with the caster: {net}."),
    "against": N_("{player} loses the bet against the caster: {net}."),
    "odds_for": N_("{player} loses the odds on the chance: {net}."),
    "odds_against": N_("{player} loses the odds on the main: {net}."),
}

# A bet placed, one whole sentence per kind: where the bet goes reads differently by kind
# in other languages (the caster backs their own throw).
PLACED: dict[str, str] = {
    "caster": N_("{player} bets {amount} on their own throw (caster's stake)."),
    "with": N_("{player} bets {amount} with the caster."),
    "against": N_("{player} bets {amount} against the caster."),
    "odds_for": N_("{player} bets {amount} odds on the chance."),
    "odds_against": N_("{player} bets {amount} odds on the main."),
}
LOGGED_BETS: dict[str, str] = {
    "caster": N_("bets {amount} on their own throw (caster's stake)"),
    "with": N_("bets {amount} with the caster"),
    "against": N_("bets {amount} against the caster"),
    "odds_for": N_("bets {amount} odds on the chance"),
    "odds_against": N_("bets {amount} odds on the main"),
}


def settled(event: hazard.BetSettled, snapshot: Snapshot) -> str:
    who, bet = render.mention(event.player), _(BET_LABELS[event.bet])
    if event.push:
        return _(
            "{player}'s bet {bet} is a push (a first throw of 2 is barred): returned.",
            player=who,
            bet=bet,
        )
    currency = snapshot.currency
    net = render.signed_coins(event.net, currency)
    if event.won and event.commission:
        return _(
            WINS_AFTER_COMMISSION[event.bet],
            player=who,
            net=net,
            commission=render.coins(event.commission, currency),
        )
    return _((WINS if event.won else LOSES)[event.bet], player=who, net=net)


def closed_bets(event: hazard.BettingClosed, snapshot: Snapshot) -> str:
    if event.by_deadline:
        return _("Time is up: **bets are closed**. The caster may throw.")
    return _("Everyone is ready: **bets are closed**. The caster may throw.")


def main_called(event: hazard.MainCalled, snapshot: Snapshot) -> str:
    who = render.mention(event.caster)
    if event.by_deadline:
        return _(
            "{player} calls main **{main}** (called by the table).",
            player=who,
            main=str(event.main),
        )
    return _("{player} calls main **{main}**.", player=who, main=str(event.main))


def thrown(event: hazard.Thrown, snapshot: Snapshot) -> str:
    table = OUTCOME_BY_TABLE if event.by_deadline else OUTCOME_TEXT
    return _(table[event.outcome], dice=render.dice_pair(*event.dice))


def aborted(event: hazard.Aborted, snapshot: Snapshot) -> str:
    if event.by is None:
        return _("The table was ended; open bets were returned or settled at value.")
    return _(
        "The table was ended by {player}; open bets were returned or settled at value.",
        player=render.mention(event.by),
    )


SENTENCES = Sentences(
    {
        hazard.MainCalled: main_called,
        hazard.Thrown: thrown,
        hazard.BetPlaced: lambda e, s: _(
            PLACED[e.bet],
            player=render.mention(e.player),
            amount=render.coins(e.amount, s.currency),
        ),
        hazard.BetSettled: settled,
        hazard.BetReturned: lambda e, s: _(
            "{player}'s {bet} is returned.",
            player=render.mention(e.player),
            bet=_(BET_LABELS[e.bet]),
        ),
        hazard.BetValued: lambda e, s: _(
            "{player}'s {bet} is settled at its exact value: {returned} back ({net}).",
            player=render.mention(e.player),
            bet=_(BET_LABELS[e.bet]),
            returned=render.coins(e.returned, s.currency),
            net=render.signed_coins(e.net, s.currency),
        ),
        hazard.PlayerReady: lambda e, s: _("{player} is ready.", player=render.mention(e.player)),
        hazard.BettingClosed: closed_bets,
        hazard.Aborted: aborted,
        hazard.DicePassed: lambda e, s: _(
            PASS_REASONS[e.reason], player=render.mention(e.to_player)
        ),
        hazard.Joined: lambda e, s: _("{player} sits down.", player=render.mention(e.player)),
        hazard.Left: lambda e, s: _(
            "{player} cashes out at {net}.",
            player=render.mention(e.player),
            net=render.signed_coins(e.net, s.currency),
        ),
        hazard.Closed: lambda e, s: _("The table closes."),
    },
    remember=True,
)


def turn_parts(state: hazard.State) -> tuple[str, str] | None:
    """Who the table waits for and what they decide (``None``: the table is closed)."""
    if state.finished:
        return None
    if state.window_open:
        waiting = hazard.waiting_on(state)
        who = ", ".join(render.mention(p) for p in waiting)
        return who, _("bet with/against or press **Ready**; then the caster throws")
    caster = render.mention(state.caster)
    if state.main is None:
        if hazard.betting_open(state):
            return caster, _("call a main (5–9); bets are open")
        return caster, _("call a main (5–9)")
    if hazard.betting_open(state):
        return caster, _("throw; bets are open until then")
    return caster, _("throw")


def percent(value: Fraction) -> str:
    return f"{float(value) * 100:,.2f}%"


def decimal(value: Fraction) -> str:
    return f"{float(value):,.2f}"


def against_terms(rules: hazard.Rules) -> str:
    """How "against" bets are paid at a table, in a few words."""
    commission = str(rules.against_commission)
    if rules.against_bar and rules.against_commission:
        return _("a first throw of 2 is a push; {percent}% commission on wins", percent=commission)
    if rules.against_bar:
        return _("a first throw of 2 is a push")
    if rules.against_commission:
        return _("{percent}% commission on wins", percent=commission)
    return _("even money")


def rules_summary(rules: hazard.Rules, currency: str) -> list[str]:
    odds = (
        _("odds bets up to {multiple}× the stake", multiple=str(rules.odds_max_multiple))
        if rules.odds_bets and rules.odds_max_multiple
        else _("no odds bets")
    )
    window = (
        _(
            "after the main is called, bets stay open up to {seconds} s "
            "until everyone has bet or pressed Ready",
            seconds=rules.bet_seconds,
        )
        if rules.bet_seconds
        else _("bets close at the first throw")
    )
    return [
        _(
            "Bets {low}–{high} {currency} · {odds}",
            low=rules.min_stake,
            high=rules.max_stake,
            currency=currency,
            odds=odds,
        ),
        _("Against: {terms} · {window}.", terms=against_terms(rules), window=window),
        _(
            "The caster has {seconds} s to act before the table throws.",
            seconds=rules.throw_seconds,
        ),
        _(SERVER_SET),
    ]


SERVER_SET = N_("The odds bets and the against terms are the server's (moderators: /config rule).")
"""Who set the terms that move the bank's edge: never the table's opener."""


def odds_embed(main: int | None = None, rules: hazard.Rules | None = None) -> discord.Embed:
    """The exact odds table from the engine (fractions, not simulation).

    ``rules``: the "against" options of the table in the channel (defaults otherwise)."""
    rules = rules or hazard.Rules()
    embed = discord.Embed(
        title=_("Hazard — exact odds"),
        description=_(
            "Computed exactly from the outcome table. *Edge* is the bank's expected gain "
            "per coin staked; every bet's edge is ≥ 0, so no pair of players can farm "
            "the bank. Against: {terms}. Odds bets are paid at fair odds "
            "(edge 0, before fractions are rounded down in the bank's favour).",
            terms=against_terms(rules),
        ),
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    for value in [main] if main is not None else list(hazard.MAINS):
        figures = hazard.odds(value, rules.against_bar, rules.against_commission)
        edges = figures.edges
        embed.add_field(
            name=_("Main {main}", main=str(value)),
            value=_(
                "Caster wins **{wins}** ≈ {wins_percent}\n"
                "First throw: nick {nick} · out {out} · chance {chance}\n"
                "Bank edge — caster/with {edge_with} · against {edge_against} · "
                "odds {edge_odds}\n"
                "Expected throws {throws} ≈ {throws_decimal}",
                wins=str(figures.caster_wins),
                wins_percent=percent(figures.caster_wins),
                nick=percent(figures.nick),
                out=percent(figures.out),
                chance=percent(figures.chance),
                edge_with=percent(edges["with"]),
                edge_against=percent(edges["against"]),
                edge_odds=percent(edges["odds_for"]),
                throws=str(figures.expected_throws),
                throws_decimal=decimal(figures.expected_throws),
            ),
            inline=False,
        )
    return embed


def action_text(action: Mapping[str, Any], currency: str) -> str | None:
    """A logged Hazard action in words, without its actor (/history, the replay page)."""
    kind = str(action.get("kind"))
    if kind in BET_LABELS:
        return _(LOGGED_BETS[kind], amount=render.coins(int(action.get("amount", 0)), currency))
    if kind == "call_main":
        return _("calls a main of {main}", main=str(action.get("main")))
    word = ACTION_WORDS.get(kind)
    return None if word is None else _(word)


ACTION_WORDS: dict[str, str] = {
    "throw": N_("throws"),
    "ready": N_("is ready"),
    "pass_dice": N_("passes the dice"),
    "join": N_("sits down"),
    "leave": N_("cashes out"),
    "close": N_("closes the table"),
}
