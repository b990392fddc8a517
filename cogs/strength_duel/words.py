"""Strength Duel's words: modes, event sentences, private confirmations and the result.
Data for cogs/strength_duel/ui.py (the frame around them is cogs/_ui/frame.py).

Every sentence is a whole template translated where it is built (``bot.i18n``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal, TypeAlias

from bot.games import strength_duel as duel
from bot.games.common import is_computer
from bot.i18n import N_, _
from bot.players import strength_duel as duel_player
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.frame import Sentences

Snapshot: TypeAlias = TableSnapshot[duel.Rules, duel.State]

MODE_TITLES = {
    "duel": N_("Duel"),
    "forbidden": N_("Forbidden number"),
    "three": N_("Three ninjas"),
    "tag": N_("Tag team"),
}
"""A mode's name (translate where shown: ``_(MODE_TITLES[mode])``)."""
ELIMINATION_TEXT = {
    "could_not_pay": N_("{player} cannot pay and is out."),
    "no_strength": N_("{player} has no strength left and is out."),
    "forfeit": N_("{player} forfeits."),
}


def mentions(players: Iterable[int]) -> str:
    return ", ".join(render.mention(p) for p in players)


def forbidden(numbers: dict[int, int]) -> str:
    shown = ", ".join(f"{render.mention(p)} {n}" for p, n in numbers.items())
    return "\n" + _("Forbidden numbers: {numbers}", numbers=shown) if numbers else ""


def revealed(event: duel.RoundRevealed, snapshot: Snapshot) -> str:
    bids = " · ".join(
        _(BID_SHOWN[(p in event.defaulted, p in event.tag_requests)],
          player=render.mention(p), amount=str(amount))
        for p, amount in event.bids.items()
    )  # fmt: skip
    parts = [_("**Round {round} revealed:** {bids}", round=str(event.round), bids=bids)]
    for player in event.lost_round:
        paid = event.extra.get(player)
        if paid is not None:
            parts.append(
                _(
                    "{player} loses the round and pays {paid} more.",
                    player=render.mention(player),
                    paid=str(paid),
                )
            )
    parts.extend(
        _(ELIMINATION_TEXT[out.reason], player=render.mention(out.player))
        for out in event.eliminated
    )
    if event.recovered:
        parts.append(_("Resting ninjas recover 1: {players}", players=mentions(event.recovered)))
    return "\n".join(parts)


BID_SHOWN: dict[tuple[bool, bool], str] = {
    # (bid by default, tagging out) → a revealed bid
    (False, False): N_("{player} **{amount}**"),
    (True, False): N_("{player} **{amount}** (default)"),
    (False, True): N_("{player} **{amount}** 🔁 tags out"),
    (True, True): N_("{player} **{amount}** (default) 🔁 tags out"),
}


def aborted(event: duel.Aborted, snapshot: Snapshot) -> str:
    text = (
        _(
            "**Stopped by {player}** in round {round}: every stake went back to its owner.",
            player=render.mention(event.by),
            round=str(event.round),
        )
        if event.by
        else _(
            "**Stopped** in round {round}: every stake went back to its owner.",
            round=str(event.round),
        )
    )
    return text + forbidden(event.forbidden)


def settled_at_value(event: duel.SettledAtValue, snapshot: Snapshot) -> str:
    """A moderator's end of a duel the house stakes: the pot at the position's value."""
    pot = render.coins(event.pot, snapshot.currency)
    head = (
        _(
            "**Stopped by {player}** in round {round}: the house stakes the computer here, "
            "so the pot of {pot} is settled at the position's value.",
            player=render.mention(event.by),
            round=str(event.round),
            pot=pot,
        )
        if event.by
        else _(
            "**Stopped** in round {round}: the house stakes the computer here, so the pot "
            "of {pot} is settled at the position's value.",
            round=str(event.round),
            pot=pot,
        )
    )
    return head + "\n" + shares_line(event.member, event.house, event.shares, snapshot, event)


def shares_line(
    member: int,
    house: int,
    shares: Mapping[int, int],
    snapshot: Snapshot,
    event: duel.SettledAtValue | None = None,
) -> str:
    """Who received what of a pot settled at its value (with the chance, when known)."""
    received = render.coins(shares.get(member, 0), snapshot.currency)
    rest = render.coins(shares.get(house, 0), snapshot.currency)
    if event is None:
        return _(
            "{member} received {share} of it and the house {rest}.",
            member=render.mention(member),
            share=received,
            rest=rest,
        )
    return _(
        "At strength {own} against {other}, {member} wins **{percent}** of the time against "
        "the computer's play: they receive {share} (the pot times that, rounded down) and "
        "the house {rest}.",
        own=str(event.strength.get(member, 0)),
        other=str(event.strength.get(house, 0)),
        member=render.mention(member),
        percent=share(event.chance),
        share=received,
        rest=rest,
    )


def game_over(event: duel.GameOver, snapshot: Snapshot) -> str:
    if event.draw:
        result = _("**A draw** — stakes are returned.")
        if event.pot_to and len(event.pot_to) < len(snapshot.seats):
            result = _(
                "**A draw** between {players}: they share the pot.",
                players=mentions(event.pot_to),
            )
    else:
        pot = render.coins(snapshot.rules.stake * len(snapshot.seats), snapshot.currency)
        result = (
            _("**{players} wins the pot of {pot}.**", players=mentions(event.pot_to), pot=pot)
            if len(event.pot_to) == 1
            else _("**{players} win the pot of {pot}.**", players=mentions(event.pot_to), pot=pot)
        )
    return result + forbidden(event.forbidden)


SENTENCES = Sentences(
    {
        duel.RoundRevealed: revealed,
        duel.ForbidClosed: lambda e, s: (
            _(
                "Time ran out for choosing: {players} got the default number.",
                players=mentions(e.timed_out),
            )
            if e.timed_out
            else None
        ),
        duel.Aborted: aborted,
        duel.SettledAtValue: settled_at_value,
        duel.GameOver: game_over,
    },
    remember=True,
    reads_table=(duel.GameOver,),  # the pot: the stake and the seats
)
CONFIRMATIONS = Sentences(
    {
        duel.BidConfirmed: lambda e, s: (
            _(
                "Round {round}: your bid is **{amount}** and you will tag out. "
                "You may change it until every bid is in.",
                round=str(e.round),
                amount=str(e.amount),
            )
            if e.tag_out
            else _(
                "Round {round}: your bid is **{amount}**. You may change it until every bid is in.",
                round=str(e.round),
                amount=str(e.amount),
            )
        ),
        duel.ForbidConfirmed: lambda e, s: _(
            "Your forbidden number is **{number}**. Keep it quiet.", number=str(e.number)
        ),
    }
)


def result(state: duel.State, snapshot: Snapshot) -> str:
    """The end of the game in words, rebuilt from the state (as the reveal showed it)."""
    for event in reversed(snapshot.recent_events):
        if isinstance(event, duel.Aborted):
            return aborted(event, snapshot)
        if isinstance(event, duel.SettledAtValue):
            return settled_at_value(event, snapshot)
    pair = equilibrium_duel(state)
    if state.aborted and state.settled and pair is not None:
        member, house = pair
        return (
            _("**Stopped by a moderator**: the pot was settled at the position's value.")
            + "\n"
            + shares_line(member, house, state.settled, snapshot)
        )
    if state.aborted:
        return _("**Stopped by a moderator**: every stake went back to its owner.")
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
        _(
            "Mode: **{mode}** · {seconds} s to bid each round",
            mode=_(MODE_TITLES[rules.mode]),
            seconds=str(rules.round_seconds),
        ),
        _("Bids are secret: you bid by direct message (or privately here)."),
    ]
    if rules.mode == "tag":
        padded: list[int | None] = [*seats[:4], None, None, None, None][:4]

        def team(members: list[int | None]) -> str:
            return " & ".join(render.mention(p) if p else _("*open seat*") for p in members)

        lines.append(
            _(
                "Teams: **seats 1–2** ({first}) vs **seats 3–4** ({second}). "
                "The first seat of each team starts in.",
                first=team(padded[0:2]),
                second=team(padded[2:4]),
            )
        )
    return lines


def panel_text(snapshot: Snapshot, player: int) -> tuple[str, Literal["forbid", "bid"] | None]:
    """What only `player` sees: the last reveal, their strength, the others'; at the end,
    the result. With what they are asked for now (a forbidden number, a bid, nothing)."""
    text, asked = _panel_text(snapshot, player)
    return render.clip(text, 2000), asked


def _panel_text(snapshot: Snapshot, player: int) -> tuple[str, Literal["forbid", "bid"] | None]:
    """A player's private panel, and which picker it shows.

    Long because: a table of cases (closed, cancelled, over, forbid, out, resting, bid),
    each returning its own sentence."""
    state = snapshot.state
    head = _("**Strength Duel #{table}**", table=str(snapshot.id))
    if state is None:
        return _("{head} closed before play began; your stake was refunded.", head=head), None
    lines: list[str] = []
    if state.history:
        lines.append(revealed(duel.RoundRevealed(**state.history[-1].model_dump()), snapshot))
    if snapshot.status == "cancelled" and not state.aborted:
        # Ended without the game's own Abort (the engine could not): stakes refunded.
        text = _("This table was cancelled: every coin still at stake went back to its owner.")
        return "\n".join([_("{head} — cancelled.", head=head), *lines, text]), None
    if state.finished:
        final = " · ".join(f"{render.mention(p)} {state.strength[p]}" for p in state.seats)
        return "\n".join(
            [
                _("{head} — over.", head=head),
                *lines,
                result(state, snapshot),
                _("Strength: {final}", final=final),
            ]
        ), None
    if state.phase == "forbid":
        if player in state.forbidden:
            text = _(
                "{head} — your forbidden number is **{number}**. "
                "Round 1 starts once everyone has chosen.",
                head=head,
                number=str(state.forbidden[player]),
            )
            return text, None
        text = _(
            "{head} — pick your secret forbidden number: you may never "
            "bid it this game. Nobody else learns it until the end.",
            head=head,
        )
        return text, "forbid"
    header = _("{head} — round {round}.", head=head, round=str(state.round))
    others = " · ".join(
        f"{render.mention(p)} {state.strength[p]}"
        for p in state.seats
        if p != player and p not in state.eliminated
    )
    if player in state.eliminated:
        return "\n".join([header, *lines, _("You are out of this game.")]), None
    strength = str(state.strength[player])
    if player not in state.must_bid:
        text = (
            _(
                "You are resting this round. Your strength: **{strength}**. Others: {others}.",
                strength=strength,
                others=others,
            )
            if state.rules.mode == "tag"
            else _(
                "You are not bidding now. Your strength: **{strength}**. Others: {others}.",
                strength=strength,
                others=others,
            )
        )
        return "\n".join([header, *lines, text]), None
    text = _(
        "Your strength: **{strength}**. Others: {others}.\nPick your bid (only you see "
        "this; you may change it until every bid is in).",
        strength=strength,
        others=others,
    )
    forbidden = state.forbidden.get(player)
    if forbidden is not None:
        text += " " + _("Your forbidden number is **{number}**.", number=str(forbidden))
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


def share(value: float) -> str:
    return f"{value:.1%}"


def computer_line(state: duel.State) -> str | None:
    """The game's value from here, as the computer plays it (shown every round)."""
    pair = equilibrium_duel(state)
    if pair is None or state.finished:
        return None
    member, computer = pair
    wins = duel_player.value(state.strength[computer], state.strength[member])
    return _(
        "🤖 The computer plays the exact equilibrium: against best play it wins "
        "**{percent}** from here (a draw counts half).",
        percent=share(wins),
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
            verdict = _("✓ in the mix") if gave_up < 5e-4 else f"−{gave_up:.1%}"
            lines.append(
                _(
                    "R{round} {own}–{other}: **{bid}** {verdict}",
                    round=str(record.round),
                    own=str(own),
                    other=str(other),
                    bid=str(bid),
                    verdict=verdict,
                )
            )
        before = dict(record.strength)
    if not lines:
        return None
    lines.append(
        _("Win chance given up against best play: **{percent}** in all.", percent=share(total))
    )
    return "\n".join(lines)


def action_text(action: Mapping[str, Any], currency: str) -> str | None:
    """A logged duel action in words, without its actor (/history, the replay page): a
    bid is listed only once revealed (``public_log``)."""
    kind = str(action.get("kind"))
    if kind == "bid":
        amount = int(action.get("amount", 0))
        if action.get("tag_out"):
            return _("bids {amount} strength and tags out", amount=amount)
        return _("bids {amount} strength", amount=amount)
    if kind == "forbid":
        return _("forbids the number {number}", number=str(action.get("number")))
    if kind == "settle_at_value":
        return _("ended the game (moderator), the pot settled at the position's value")
    return None
