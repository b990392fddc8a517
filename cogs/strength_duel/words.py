"""Strength Duel's words: modes, event sentences, private confirmations and the result.
Data for cogs/strength_duel/ui.py (the frame around them is cogs/_ui/frame.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, TypeAlias

from bot.games import strength_duel as duel
from bot.players import is_computer
from bot.players import strength_duel as duel_player
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.frame import Sentences

Snapshot: TypeAlias = TableSnapshot[duel.Rules, duel.State]

MODE_TITLES = {
    "duel": "Duel",
    "forbidden": "Forbidden number",
    "three": "Three ninjas",
    "tag": "Tag team",
}
ELIMINATION_TEXT = {
    "could_not_pay": "cannot pay and is out",
    "no_strength": "has no strength left and is out",
    "forfeit": "forfeits",
}


def mentions(players: Iterable[int]) -> str:
    return ", ".join(render.mention(p) for p in players)


def forbidden(numbers: dict[int, int]) -> str:
    shown = ", ".join(f"{render.mention(p)} {n}" for p, n in numbers.items())
    return f"\nForbidden numbers: {shown}" if numbers else ""


def revealed(event: duel.RoundRevealed, snapshot: Snapshot) -> str:
    bids = " · ".join(
        f"{render.mention(p)} **{amount}**"
        + (" (default)" if p in event.defaulted else "")
        + (" 🔁 tags out" if p in event.tag_requests else "")
        for p, amount in event.bids.items()
    )
    parts = [f"**Round {event.round} revealed:** {bids}"]
    for player in event.lost_round:
        paid = event.extra.get(player)
        if paid is not None:
            parts.append(f"{render.mention(player)} loses the round and pays {paid} more.")
    parts.extend(
        f"{render.mention(out.player)} {ELIMINATION_TEXT[out.reason]}." for out in event.eliminated
    )
    if event.recovered:
        parts.append(f"Resting ninjas recover 1: {mentions(event.recovered)}")
    return "\n".join(parts)


def aborted(event: duel.Aborted, snapshot: Snapshot) -> str:
    who = f" by {render.mention(event.by)}" if event.by else ""
    text = f"**Stopped{who}** in round {event.round}: every stake went back to its owner."
    return text + forbidden(event.forbidden)


def game_over(event: duel.GameOver, snapshot: Snapshot) -> str:
    if event.draw:
        result = "**A draw** — stakes are returned."
        if event.pot_to and len(event.pot_to) < len(snapshot.seats):
            result = f"**A draw** between {mentions(event.pot_to)}: they share the pot."
    else:
        pot = render.coins(snapshot.rules.stake * len(snapshot.seats), snapshot.currency)
        verb = "wins" if len(event.pot_to) == 1 else "win"
        result = f"**{mentions(event.pot_to)} {verb} the pot of {pot}.**"
    return result + forbidden(event.forbidden)


SENTENCES = Sentences(
    {
        duel.RoundRevealed: revealed,
        duel.ForbidClosed: lambda e, s: (
            f"Time ran out for choosing: {mentions(e.timed_out)} got the default number."
            if e.timed_out
            else None
        ),
        duel.Aborted: aborted,
        duel.GameOver: game_over,
    }
)
CONFIRMATIONS = Sentences(
    {
        duel.BidConfirmed: lambda e, s: (
            f"Round {e.round}: your bid is **{e.amount}**"
            f"{' and you will tag out' if e.tag_out else ''}. "
            "You may change it until every bid is in."
        ),
        duel.ForbidConfirmed: "Your forbidden number is **{number}**. Keep it quiet.",
    }
)


def result(state: duel.State, snapshot: Snapshot) -> str:
    """The end of the game in words, rebuilt from the state (as the reveal showed it)."""
    for event in reversed(snapshot.recent_events):
        if isinstance(event, duel.Aborted):
            return aborted(event, snapshot)
    if state.aborted:
        return "**Stopped by a moderator**: every stake went back to its owner."
    over = duel.GameOver(
        winner=state.winner,
        draw=state.draw,
        pot_to=state.pot_to,
        reason="round",
        strength=state.strength,
        forbidden=state.forbidden,
        payouts=state.payouts,
    )
    return game_over(over, snapshot)


def rules_summary(rules: duel.Rules, seats: list[int]) -> list[str]:
    lines = [
        f"Mode: **{MODE_TITLES[rules.mode]}** · {rules.round_seconds} s to bid each round",
        "Bids are secret: you bid by direct message (or privately here).",
    ]
    if rules.mode == "tag":
        padded: list[int | None] = [*seats[:4], None, None, None, None][:4]

        def team(members: list[int | None]) -> str:
            return " & ".join(render.mention(p) if p else "*open seat*" for p in members)

        lines.append(
            f"Teams: **seats 1–2** ({team(padded[0:2])}) vs **seats 3–4** "
            f"({team(padded[2:4])}). The first seat of each team starts in."
        )
    return lines


def panel_text(snapshot: Snapshot, player: int) -> tuple[str, Literal["forbid", "bid"] | None]:
    """What only `player` sees: the last reveal, their strength, the others'; at the end,
    the result. With what they are asked for now (a forbidden number, a bid, nothing)."""
    text, asked = _panel_text(snapshot, player)
    return render.clip(text, 2000), asked


def _panel_text(snapshot: Snapshot, player: int) -> tuple[str, Literal["forbid", "bid"] | None]:
    state = snapshot.state
    head = f"**Strength Duel #{snapshot.id}**"
    if state is None:
        return f"{head} closed before play began; your stake was refunded.", None
    lines: list[str] = []
    if state.history:
        lines.append(revealed(duel.RoundRevealed(**state.history[-1].model_dump()), snapshot))
    if snapshot.status == "cancelled" and not state.aborted:
        # Ended without the game's own Abort (the engine could not): stakes refunded.
        text = "This table was cancelled: every coin still at stake went back to its owner."
        return "\n".join([f"{head} — cancelled.", *lines, text]), None
    if state.finished:
        final = " · ".join(f"{render.mention(p)} {state.strength[p]}" for p in state.seats)
        return "\n".join(
            [f"{head} — over.", *lines, result(state, snapshot), f"Strength: {final}"]
        ), None
    if state.phase == "forbid":
        if player in state.forbidden:
            text = (
                f"{head} — your forbidden number is **{state.forbidden[player]}**. "
                "Round 1 starts once everyone has chosen."
            )
            return text, None
        text = (
            f"{head} — pick your secret forbidden number: you may never "
            "bid it this game. Nobody else learns it until the end."
        )
        return text, "forbid"
    header = f"{head} — round {state.round}."
    others = " · ".join(
        f"{render.mention(p)} {state.strength[p]}"
        for p in state.seats
        if p != player and p not in state.eliminated
    )
    if player in state.eliminated:
        return "\n".join([header, *lines, "You are out of this game."]), None
    strength = state.strength[player]
    if player not in state.must_bid:
        reason = "resting this round" if state.rules.mode == "tag" else "not bidding now"
        text = f"You are {reason}. Your strength: **{strength}**. Others: {others}."
        return "\n".join([header, *lines, text]), None
    text = (
        f"Your strength: **{strength}**. Others: {others}.\nPick your bid (only you see "
        "this; you may change it until every bid is in)."
    )
    forbidden = state.forbidden.get(player)
    if forbidden is not None:
        text += f" Your forbidden number is **{forbidden}**."
    return "\n".join([header, *lines, text]), "bid"


# -- against the computer ----------------------------------------------------------------------


def equilibrium_duel(state: duel.State) -> tuple[int, int] | None:
    """(the member, the computer) when the computer plays this duel at its exact
    equilibrium (the two-player mode it is solved for); otherwise ``None``."""
    if state.rules.mode != "duel" or len(state.seats) != 2:
        return None
    computers = [seat for seat in state.seats if is_computer(seat)]
    if len(computers) != 1:
        return None
    (computer,) = computers
    (member,) = [seat for seat in state.seats if seat != computer]
    return member, computer


def computer_line(state: duel.State) -> str | None:
    """The game's value from here, as the computer plays it (shown every round)."""
    pair = equilibrium_duel(state)
    if pair is None or state.finished:
        return None
    member, computer = pair
    wins = duel_player.value(state.strength[computer], state.strength[member])
    return (
        f"🤖 The computer plays the exact equilibrium: against best play it wins "
        f"**{wins:.1%}** from here (a draw counts half)."
    )


def bid_review(state: duel.State) -> str | None:
    """After the game: each of the member's bids against the equilibrium, with the win
    chance it gave up against the computer's mix."""
    pair = equilibrium_duel(state)
    if pair is None or not state.finished or not state.history:
        return None
    member, computer = pair
    start = duel.STARTING_STRENGTH["duel"]
    before = {member: start, computer: start}
    lines, total = [], 0.0
    for record in state.history:
        own, other = before[member], before[computer]
        bid = record.bids.get(member)
        if bid is not None and own <= start and other <= start:
            gave_up = max(0.0, duel_player.bid_regret(own, other, bid))
            total += gave_up
            # Short lines: a long game's list must fit an embed field (1,024 characters).
            verdict = "✓ in the mix" if gave_up < 5e-4 else f"−{gave_up:.1%}"
            lines.append(f"R{record.round} {own}–{other}: **{bid}** {verdict}")
        before = dict(record.strength)
    if not lines:
        return None
    lines.append(f"Win chance given up against best play: **{total:.1%}** in all.")
    return "\n".join(lines)


def action_text(action: Mapping[str, Any], currency: str) -> str | None:
    """A logged duel action in words, without its actor (/history, the replay page): a
    bid is listed only once revealed (``public_log``)."""
    kind = str(action.get("kind"))
    if kind == "bid":
        tag = " and tags out" if action.get("tag_out") else ""
        return f"bids {int(action.get('amount', 0)):,} strength{tag}"
    if kind == "forbid":
        return f"forbids the number {action.get('number')}"
    return None
