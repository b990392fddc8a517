"""Fortunes and Winds' words: faces, bet names, event sentences, the odds and keep screens.
Data for cogs/fortunes_winds/ui.py (the frame around them is cogs/_ui/frame.py).

Every sentence is a whole template in the locale in effect (``bot.i18n``): the table's
language for what everyone sees, the member's for what only they see. A face is translated
whole (``北 North`` is ``北`` in Japanese: the dice carry the kanji)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeAlias

import discord

from bot.games import fortunes_winds as fw
from bot.i18n import N_, _
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.frame import Sentences

Snapshot: TypeAlias = TableSnapshot[fw.Rules, fw.State]

BET_BUTTONS: dict[str, str] = {
    "shooter": N_("Shooter's bet"),
    "ride": N_("Ride"),
    "daikoku": N_("Daikoku's Belly"),
    "against": N_("Against"),
    "tea": N_("Lady Sun's Tea"),
    "hungry": N_("Hungry Moon"),
}
BET_LABELS: dict[str, str] = {
    "shooter": N_("as the shooter"),
    "ride": N_("riding the shooter"),
    "daikoku": N_("on Daikoku's Belly"),
    "against": N_("against the shooter"),
    "tea": N_("on Lady Sun's Tea"),
    "hungry": N_("on Hungry Moon"),
}
"""A bet's words after its amount; translated where shown (``_(BET_LABELS[kind])``)."""
BET_NOTES: dict[str, str] = {
    "shooter": N_(
        "Wins at the combination's pays, double on roll 1. The same amount again goes down "
        "for Lord Moon (lost only on Moon)."
    ),
    "ride": N_(
        "Settles exactly as the shooter's bet. The same amount again goes down for Lord Moon "
        "(lost only on Moon)."
    ),
    "daikoku": N_(
        "Bet 2 to win 3 if the shooter wins: **bet in multiples of 2**, so every win is "
        "whole coins."
    ),
    "against": N_(
        "Bet 3 to win 2 if the shooter loses: **bet in multiples of 3**, so every win is "
        "whole coins."
    ),
    "tea": N_("Even money: the shooter makes all three rolls."),
    "hungry": N_(
        "Even money: the shooter makes only one or two rolls; a push on Fortunes and Winds "
        "on roll 1 or 2."
    ),
}


RESULT_NAMES: dict[str, str] = {
    "moon": N_("Moon"),
    **{c.key: c.name for c in fw.COMBINATIONS},
    "nothing": N_("nothing in three rolls"),
}
PASS_REASONS = {
    "lost": N_("the turn was lost"),
    "voluntary": N_("by choice"),
    "absent": N_("the shooter was idle"),
    "left": N_("the shooter left"),
}
CLOSE_REASONS = {
    "empty": N_("Everyone has gone: the table closes."),
    "banker_left": N_("The banker left: the table closes."),
    # The banker still sits there: "everyone has gone" would not be true.
    "no_shooter": N_(
        "Nobody is left to shoot against the banker: the table closes and every open bet goes back."
    ),
}


def result_name(result: str) -> str:
    return _(RESULT_NAMES[result])


def bet_label(kind: str) -> str:
    return _(BET_LABELS[kind])


def sep() -> str:
    return _(", ")


def face(name: str) -> str:
    """A face as players read it: ``北 North`` (``北`` in Japanese)."""
    shown = f"{fw.KANJI.get(name, '?')} {name}"
    return _(shown)


def die_name(die: str) -> str:
    """A white die by its element: ``Earth`` (``土``)."""
    return _(die.capitalize())


def die_label(die: str, state: fw.State) -> str:
    """A white die's toggle: its face, and whether it is aside."""
    shown = face(state.faces[die]) if die in state.faces else die_name(die)
    return f"🔒 {shown}" if die in state.set_aside else shown


def dice_line(faces: Mapping[Any, str], aside: Sequence[str]) -> str:
    """The five dice, set-aside ones locked and the black die marked."""
    whites = [
        f"{'🔒' if die in aside else ''}**{face(faces[die])}**"
        for die in fw.WHITE_DICE
        if die in faces
    ]
    if "moon" not in faces:
        return _("The dice have not been rolled yet.")
    return _(
        "{whites} · ⚫ **{black}** (black)", whites=" · ".join(whites), black=face(faces["moon"])
    )


def banker(state: fw.State) -> str:
    return _("the house") if state.banker is None else render.mention(state.banker)


def settled(event: fw.BetSettled, snapshot: Snapshot) -> str:
    who, bet = render.mention(event.player), bet_label(event.bet)
    if event.push:
        return _("{player}'s bet {bet} is a push: returned.", player=who, bet=bet)
    net = render.signed_coins(event.net, snapshot.currency)
    if event.won:
        return _("{player} wins {bet}: {net}.", player=who, bet=bet, net=net)
    return _("{player} loses {bet}: {net}.", player=who, bet=bet, net=net)


def rolled(event: fw.Rolled, snapshot: Snapshot) -> str:
    dice = dice_line(event.faces, event.set_aside)
    if event.by_deadline:
        text = _("Roll {roll} (rolled by the table): {dice}", roll=str(event.roll), dice=dice)
    else:
        text = _("Roll {roll}: {dice}", roll=str(event.roll), dice=dice)
    if event.result is None:
        return text
    name = result_name(event.result)
    if event.result in ("moon", "nothing"):
        return _("{text} — **{result}**.", text=text, result=name)
    if event.roll == 1:
        return _("{text} — **{result}** on the first roll (pays double)!", text=text, result=name)
    return _("{text} — **{result}**!", text=text, result=name)


def placed(event: fw.BetPlaced, snapshot: Snapshot) -> str:
    amount = render.coins(event.amount, snapshot.currency)
    if event.bet in ("shooter", "ride"):
        return _(
            "{player} bets {amount} (+{amount} for Lord Moon) {bet}.",
            player=render.mention(event.player),
            amount=amount,
            bet=bet_label(event.bet),
        )
    return _(
        "{player} bets {amount} {bet}.",
        player=render.mention(event.player),
        amount=amount,
        bet=bet_label(event.bet),
    )


def turn_ended(event: fw.TurnEnded, snapshot: Snapshot) -> str:
    how = result_name(event.result)
    if event.won:
        return _(
            "**{shooter} wins the turn** with {result} on roll {roll}.",
            shooter=render.mention(event.shooter),
            result=how,
            roll=str(event.rolls),
        )
    return _(
        "**{shooter} loses the turn**: {result} (roll {roll}).",
        shooter=render.mention(event.shooter),
        result=how,
        roll=str(event.rolls),
    )


def set_aside_now(event: fw.DiceSetAside, snapshot: Snapshot) -> str:
    faces = snapshot.game.faces
    shown = sep().join(face(faces.get(d, d.capitalize())) for d in event.dice)
    if event.by_deadline:
        return _("Set aside by the table: {dice}.", dice=shown)
    return _("Set aside: {dice}.", dice=shown)


def aborted(event: fw.Aborted, snapshot: Snapshot) -> str:
    if event.by is not None:
        return _(
            "The table was ended by {by}; open bets were returned or settled at their exact value.",
            by=render.mention(event.by),
        )
    return _("The table was ended; open bets were returned or settled at their exact value.")


SENTENCES = Sentences(
    {
        fw.BetPlaced: placed,
        fw.PlayerReady: lambda e, s: _("{player} is ready.", player=render.mention(e.player)),
        fw.BettingClosed: lambda e, s: (
            _("Time is up: **bets are closed**.") if e.by_deadline else _("**Bets are closed.**")
        ),
        fw.DiceSetAside: set_aside_now,
        fw.Rolled: rolled,
        fw.BetSettled: settled,
        fw.BetReturned: lambda e, s: _(
            "{player}'s bet {bet} is returned.",
            player=render.mention(e.player),
            bet=bet_label(e.bet),
        ),
        fw.BetValued: lambda e, s: _(
            "{player}'s bet {bet} is settled at its exact value: {net}.",
            player=render.mention(e.player),
            bet=bet_label(e.bet),
            net=render.signed_coins(e.net, s.currency),
        ),
        fw.TurnEnded: turn_ended,
        fw.NewTurnStarted: lambda e, s: (
            _(
                "{shooter} goes again (chosen by the table): bets are open.",
                shooter=render.mention(e.shooter),
            )
            if e.by_deadline
            else _("{shooter} goes again: bets are open.", shooter=render.mention(e.shooter))
        ),
        fw.DicePassed: lambda e, s: _(
            "The dice pass to {player} ({reason}).",
            player=render.mention(e.to_player),
            reason=_(PASS_REASONS[e.reason]),
        ),
        fw.Joined: lambda e, s: _("{player} sits down.", player=render.mention(e.player)),
        fw.Left: lambda e, s: _(
            "{player} cashes out at {net}.",
            player=render.mention(e.player),
            net=render.signed_coins(e.net, s.currency),
        ),
        fw.Closed: lambda e, s: _(CLOSE_REASONS[e.reason]),
        fw.Aborted: aborted,
    },
    remember=True,
    reads_table=(fw.DiceSetAside,),
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
    return _(
        "🎲 Turn {turn}: {ended} {nets}",
        turn=str(ended.turn),
        ended=turn_ended(ended, snapshot),
        nets=" · ".join(nets),
    )


def cashed_out(events: Sequence[object], player: int, snapshot: Snapshot) -> str | None:
    """The private word to a member who cashed out: what they take from this table."""
    left = next((e for e in events if isinstance(e, fw.Left) and e.player == player), None)
    if left is None:
        return None
    net = render.signed_coins(left.net, snapshot.currency)
    return _(
        "💰 You cashed out of table #{table}: net **{net}** at this table.",
        table=str(snapshot.id),
        net=net,
    )


def turn_parts(state: fw.State) -> tuple[str, str] | None:
    """Who the table waits for and what they decide (``None``: the table is closed)."""
    if state.finished:
        return None
    if state.window_open:
        waiting = fw.waiting_on(state)
        who = sep().join(render.mention(p) for p in waiting)
        return who, _("bet or press **Ready**; then the shooter rolls")
    shooter = render.mention(state.shooter)
    if fw.betting_open(state):
        if not state.bets.get(state.shooter, {}).get("shooter"):
            if fw.can_pass_dice(state):
                return shooter, _(
                    "the shooter's bet (none by then: bets go back, the dice pass); bets are open"
                )
            return shooter, _("the shooter's bet; bets are open")
        return shooter, _("roll; bets are open until then")
    if state.phase == "won":
        return shooter, _("go again or pass the dice")
    if state.roll_number == 0:
        return shooter, _("roll")
    return shooter, _("set dice aside and roll again")


def percent(value: Fraction, places: int = 2) -> str:
    return f"{float(value) * 100:,.{places}f}%"


def rules_summary(rules: fw.Rules, currency: str) -> list[str]:
    bank = _("the richest player banks") if rules.player_banker else _("the house banks")
    guard = _("house guard on") if rules.guarded else _("house guard off")
    against = (
        _("Bets against the shooter taken") if rules.allow_bet_against else _("No bets against")
    )
    window = (
        _(
            "after the shooter's bet, bets stay open up to {seconds} s until everyone has bet "
            "or pressed Ready",
            seconds=rules.bet_seconds,
        )
        if rules.bet_seconds
        else _("bets open until the first roll")
    )
    return [
        _(
            "Bets {least}–{most} {currency} · {bank} · {guard}",
            least=rules.min_stake,
            most=rules.max_stake,
            currency=currency,
            bank=bank,
            guard=guard,
        ),
        _(
            "{against} · {window} · {seconds} s to roll.",
            against=against,
            window=window,
            seconds=rules.roll_seconds,
        ),
        _(SERVER_SET),
    ]


SERVER_SET = N_("The house guard and bets against are the server's (moderators: /config rule).")
"""Who set the terms that move the bank's edge: never the table's opener."""


GUARD_TEXT = N_(
    "**House guard.** Every side bet pays on something the shooter steers by keeping, so "
    "friends at a table could farm the bank (the house or a player banker). With the guard "
    "on, a bet is taken only if all the members' bets together, the shooter keeping to "
    "serve them all, still expect to lose; on the computer's turn it keeps by the best "
    "keep, and its own bet is the house's. A refused bet is told the most the bank would "
    "take."
)


def unguarded_note(values: Mapping[str, Any]) -> str | None:
    """What `/config rule` tells a moderator whose server plays without the house guard
    (``values``: the server's options after the change, by name): that members can then
    beat the bank, with each bet's edge for the player, computed exactly (the shooter
    keeping dice for that bet; and for the bets that win even then, the shooter keeping
    for their own bet)."""
    if values.get("house_guard", True):
        return None
    kinds = [k for k in fw.SIDE_BETS if k != "against" or values.get("against_bets", True)]

    def edges(edge: Callable[[fw.BetKind], Fraction]) -> str:
        ranked = sorted((k for k in kinds if edge(k) > 0), key=lambda k: -edge(k))
        return _(", ").join(
            _("{bet} **+{edge}**", bet=_(BET_BUTTONS[kind]), edge=percent(edge(kind), 1))
            for kind in ranked
        )

    best = fw.turn_odds("best")
    return _(
        "⚠️ With the guard off, members can beat the bank. Each coin bet gains on average, "
        "the shooter keeping dice for that bet: {served}; even with the shooter keeping "
        "for their own bet: {alone}.",
        served=edges(fw.served_edge),
        alone=edges(lambda kind: -best.edges[kind]),
    )


def odds_embed() -> discord.Embed:
    """The exact outcome table and every bet's edge, from the engine (no simulation)."""
    best, never = fw.turn_odds("best"), fw.turn_odds("never_keep")
    embed = discord.Embed(
        title=_("Fortunes and Winds — exact odds"),
        description=_(
            "Computed exactly over the dice and every keep (dynamic programming, not "
            "simulation), the shooter keeping for their own best value. A bet's *edge* "
            "is what the bank expects to gain on it, as a share of the bet (for the "
            "shooter's bet and a ride: of the bet itself, the Lord Moon stake beside it "
            "included in the result); a negative edge favours the bettor, which the house "
            "guard watches.\n\n{guard}",
            guard=_(GUARD_TEXT),
        ),
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    lines = []
    for result in fw.RESULTS:
        cells = [best.outcomes.get((roll, result), Fraction(0)) for roll in (1, 2, 3)]
        shown = " · ".join(percent(p, 3) for p in cells)
        lines.append(_("{result}: {chances}", result=result_name(result), chances=shown))
    embed.add_field(name=_("Each outcome on roll 1 · 2 · 3"), value="\n".join(lines), inline=False)
    edges = "\n".join(
        _(
            "{bet}: **{edge}** (never keeping: {never})",
            bet=_(BET_BUTTONS[kind]),
            edge=percent(best.edges[kind]),
            never=percent(never.edges[kind]),
        )
        for kind in fw.BET_KINDS
    )
    embed.add_field(name=_("Bank edge per bet"), value=edges, inline=False)
    shooter = (
        N_(
            "Wins the turn {win} of the time. On average the shooter loses {share} of the "
            "shooter's bet per turn (Lord Moon stake included): about {per_100} for every "
            "100 bet"
        )
        if best.shooter_ev < 0
        else N_(
            "Wins the turn {win} of the time. On average the shooter gains {share} of the "
            "shooter's bet per turn (Lord Moon stake included): about {per_100} for every "
            "100 bet"
        )
    )
    per_100 = f"{float(abs(best.shooter_ev)) * 100:.2f}"
    embed.add_field(
        name=_("Shooter"),
        value=_(
            shooter,
            win=percent(best.win),
            share=percent(abs(best.shooter_ev)),
            per_100=per_100,
        ),
        inline=False,
    )
    return embed


def keep_text(advice: fw.KeepAdvice, state: fw.State) -> str:
    """The private answer to "Best keep": the keep, then the chances that matter (winning
    the turn, meeting Lord Moon) exactly, then each roll's outcomes on one line."""
    roll_number = str(state.roll_number)
    if advice.keep:
        kept = sep().join(face(state.faces[d]) for d in advice.keep)
        head = _(
            "**Best keep** after roll {roll}: set aside {dice}, then roll again (**Roll with "
            "best keep** does both in one click).",
            roll=roll_number,
            dice=kept,
        )
    else:
        head = _(
            "**Best keep** after roll {roll}: set nothing aside, then roll again (**Roll with "
            "best keep** does both in one click).",
            roll=roll_number,
        )
    win = sum(
        (p for (_at, result), p in advice.outcomes.items() if result not in ("moon", "nothing")),
        Fraction(0),
    )
    moon = sum((p for (_at, result), p in advice.outcomes.items() if result == "moon"), Fraction(0))
    lines = [
        head,
        _(
            "With it the shooter **wins the turn {win}** of the time and **meets Lord Moon "
            "{moon}**.",
            win=percent(win),
            moon=percent(moon),
        ),
    ]
    for roll in (1, 2, 3):
        cells = [
            f"{result_name(result)} {percent(chance, 1)}"
            for (at, result), chance in advice.outcomes.items()
            if at == roll and chance
        ]
        if cells:
            lines.append(_("-# Roll {roll}: {cells}", roll=str(roll), cells=" · ".join(cells)))
    lines.append(
        _(
            "-# On average from here: {share} of the shooter's bet (Lord Moon stake included).",
            share=signed_percent(advice.shooter_ev),
        )
    )
    return "\n".join(lines)


def signed_percent(value: Fraction, places: int = 2) -> str:
    """A signed share in words' figures: ``−10.88%``, ``+3.10%``."""
    shown = percent(abs(value), places)
    return f"−{shown}" if value < 0 else f"+{shown}"


def status_lines(snapshot: Snapshot) -> list[str]:
    s = snapshot.game
    if s.roll_number:
        roll = _("roll **{roll}/3**", roll=str(s.roll_number))
    else:
        roll = _("before the first roll")
    lines = [
        _(
            "Turn {turn} · shooter {shooter} · {roll} · banker: {banker}",
            turn=s.turn,
            shooter=render.mention(s.shooter),
            roll=roll,
            banker=banker(s),
        ),
        dice_line(s.faces, s.set_aside),
    ]
    return [_("**The table is closed.**"), *lines] if s.finished else lines


def bets_text(held: Mapping[Any, int], currency: str) -> str:
    """A player's bets on the table, each with its owner's Lord Moon stake."""
    return sep().join(
        _(
            "{bet} {amount} (+{amount} Lord Moon)",
            bet=bet_label(kind),
            amount=render.coins(amount, currency),
        )
        if kind in ("shooter", "ride")
        else _("{bet} {amount}", bet=bet_label(kind), amount=render.coins(amount, currency))
        for kind, amount in held.items()
        if amount
    ) or _("no bets")


def seat_lines(snapshot: Snapshot) -> list[str]:
    s = snapshot.game
    lines = []
    for player in s.seats:
        role = "🎲 " if player == s.shooter else "🏦 " if player == s.banker else ""
        net = render.signed_coins(s.payouts.get(player, 0), snapshot.currency)
        lines.append(
            _(
                "{role}{player} — {bets} · net {net}",
                role=role,
                player=render.mention(player),
                bets=bets_text(s.bets.get(player, {}), snapshot.currency),
                net=net,
            )
        )
    return lines


def bank_field(snapshot: Snapshot) -> tuple[str, str]:
    s = snapshot.game
    net = render.signed_coins(s.payouts.get(s.banker or 0, 0), snapshot.currency)
    return (_("Bank"), _("{banker}: {net}", banker=banker(s), net=net))


def cannot_cover(banker_id: int, needed: int, balance: int, currency: str) -> str:
    return _(
        "The banker {banker} cannot cover that bet: the bets on the table could then cost "
        "them {needed} {currency}, and they hold {balance} {currency}.",
        banker=render.mention(banker_id),
        needed=needed,
        balance=balance,
        currency=currency,
    )


def action_text(action: Mapping[str, Any], currency: str) -> str | None:
    """A logged action in words, without its actor (/history, the replay page)."""
    kind = str(action.get("kind"))
    if kind in BET_LABELS:
        return _(
            "bets {amount} {bet}",
            amount=render.coins(int(action.get("amount", 0)), currency),
            bet=bet_label(kind),
        )
    if kind == "set_aside":
        dice = [str(d) for d in action.get("dice", [])]
        if not dice:
            return None
        named = sep().join(_("{die} die", die=_(d)) for d in dice)
        return _("sets aside the {dice}", dice=named)
    found = ACTION_WORDS.get(kind)
    return _(found) if found is not None else None


ACTION_WORDS: dict[str, str] = {
    "roll": N_("rolls"),
    "new_turn": N_("goes again"),
    "pass_dice": N_("passes the dice"),
    "ready": N_("is ready"),
    "join": N_("sits down"),
    "leave": N_("cashes out"),
}


def set_aside_then(event: fw.DiceSetAside, earlier: Sequence[object], by: bool = False) -> str:
    """A set-aside as it read at its step: the faces of the roll before it."""
    rolled = next((e for e in reversed(earlier) if isinstance(e, fw.Rolled)), None)
    faces: Mapping[Any, str] = rolled.faces if rolled is not None else {}
    shown = sep().join(face(faces[d]) if d in faces else die_name(d) for d in event.dice)
    if by:
        return _("Set aside by the table: {dice}.", dice=shown)
    return _("Set aside: {dice}.", dice=shown)
