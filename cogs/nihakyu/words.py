"""Nihakyu's words: event sentences, private confirmations, the result and the rules
summary. Data for cogs/nihakyu/ui.py (the frame around them is cogs/_ui/frame.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from bot.games import nihakyu
from bot.games.common import HOUSE, Honour
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.frame import Sentences

CHOICE_TEXT = {
    "roll": "Roll (lose 1d20)",
    "shadow_step": "Shadow Step (lose 5, no roll)",
    "kage": "Kage's Endurance (roll 2d20, lose the lower)",
}
ELIMINATION_TEXT = {
    "stamina": "falls",
    "caught_cheating": "is **caught cheating** and ejected",
    "ejected": "is **ejected** by a moderator",
    "afk": "forfeits after idling too many rounds",
}

Snapshot: TypeAlias = TableSnapshot[nihakyu.Rules, nihakyu.State]


def name(player: int) -> str:
    return "the Dealer" if player == nihakyu.DEALER else render.mention(player)


def revealed(event: nihakyu.RoundRevealed, snapshot: Snapshot) -> str:
    parts = []
    for player, dice in event.rolls.items():
        choice = event.choices.get(player, "roll")
        auto = " (auto)" if player in event.auto_rolled else ""
        if choice == "shadow_step":
            parts.append(f"{name(player)} 👣 steps aside (−5)")
        elif choice == "kage":
            shown = " and ".join(str(die) for die in dice)
            parts.append(f"{name(player)} 🛡️ {shown} → −{min(dice)}{auto}")
        else:
            parts.append(f"{name(player)} 🎲 {dice[0] if dice else '?'}{auto}")
    for player, choice in event.choices.items():
        if choice == "shadow_step" and player not in event.rolls:
            parts.append(f"{name(player)} 👣 steps aside (−5)")
    text = f"**Round {event.round}:** " + " · ".join(parts)
    for player in event.kage_unpaid:
        text += (
            f"\n{name(player)}'s Kage's Endurance became a Roll: "
            "the wallet could not pay the second ante."
        )
    return text


def eliminated(event: nihakyu.PlayerEliminated, snapshot: Snapshot) -> str:
    if event.reason == "ejected" and event.by is not None:
        return f"{name(event.player)} is **ejected** by {render.mention(event.by)}."
    return f"{name(event.player)} {ELIMINATION_TEXT[event.reason]}."


def chosen(event: nihakyu.ChoiceConfirmed, snapshot: Snapshot) -> str:
    extra = ""
    if event.charge:
        ante = render.coins(event.charge, snapshot.currency)
        extra = (
            f" Your second ante of {ante} is taken at the reveal"
            " (if your wallet cannot pay it then, you Roll instead)."
        )
    return (
        f"Round {event.round}: you chose **{CHOICE_TEXT[event.choice]}**.{extra} "
        "Only you can see this; you may change it until the round resolves."
    )


SLEIGHT_OUTCOME = {"success": "succeeds", "failure": "fails", "caught": "rolls a natural 1"}
SENTENCES = Sentences(
    {
        nihakyu.RoundRevealed: revealed,
        nihakyu.SleightChecked: lambda e, s: (
            f"{name(e.player)}'s Sleight ({'+1' if e.adjust > 0 else '−1'}): d20 {e.natural} "
            f"= {e.total} — {SLEIGHT_OUTCOME[e.outcome]}."
        ),
        nihakyu.PlayerEliminated: eliminated,
        nihakyu.Aborted: lambda e, s: (
            f"**The table was aborted{f' by {render.mention(e.by)}' if e.by is not None else ''}"
            ":** every ante goes back."
        ),
        nihakyu.SuddenDeath: lambda e, s: (
            "**Sudden death:** "
            + " / ".join(", ".join(f"{name(p)} {roll}" for p, roll in r.items()) for r in e.rolls)
            + f" → {name(e.winner)}."
        ),
        Honour: "🏅 {player:@} earns *{name}*!",
    }
)
CONFIRMATIONS = Sentences(
    {
        nihakyu.ChoiceConfirmed: chosen,
        nihakyu.SleightConfirmed: lambda e, s: (
            f"Round {e.round}: {'you pass' if e.adjust == 0 else f'Sleight of Hand {e.adjust:+d}'}."
        ),
    }
)


def result_lines(state: nihakyu.State, currency: str) -> list[str]:
    if state.aborted:
        return ["**The table was aborted by a moderator.** Every ante went back."]
    house = render.coins(state.payouts.get(HOUSE, 0), currency)
    if state.dealer_won:
        if not state.share_basis:
            return [f"**The Dealer outlasts everyone.** The house takes the pot of {house}."]
        shares = [
            f"{render.mention(p)} {render.coins(state.shares.get(p, 0), currency)} "
            f"(Stamina {stamina})"
            for p, stamina in state.share_basis.items()
        ]
        return [
            f"**The Dealer outlasts everyone.** The house takes {house}; the rest is "
            "shared by Stamina before the final round: " + " · ".join(shares) + "."
        ]
    if state.winner is not None:
        pot = render.coins(state.pot, currency)
        return [f"**{render.mention(state.winner)} wins the pot of {pot}.**"]
    return [f"**The game is over.** Nobody could win; the house takes {house}."]


def rules_summary(rules: nihakyu.Rules) -> list[str]:
    variants = []
    if rules.kage_endurance:
        variants.append("Kage's Endurance")
    if rules.shadow_step:
        uses = "unlimited" if rules.shadow_step_uses is None else f"{rules.shadow_step_uses}×"
        variants.append(f"Shadow Step ({uses})")
    if rules.dealers_blood:
        variants.append("Dealer's Blood")
    if rules.shinobi_interference:
        caught = ", a natural 1 is caught cheating" if rules.caught_on_natural_one else ""
        variants.append(f"Shinobi Interference (Sleight {rules.sleight_bonus:+d}{caught})")
    server_set = (
        "Dealer's Blood, the variants, Stamina and the natural-1 rule"
        if rules.dealers_blood
        else "Dealer's Blood and the natural-1 rule"
    )
    return [
        f"Everyone starts at **{rules.starting_stamina}** Stamina; "
        f"{rules.round_seconds} s a round.",
        f"Variants: {', '.join(variants) if variants else 'none'}",
        f"{server_set} are the server's (moderators: /config rule).",
    ]


def action_text(action: Mapping[str, Any], currency: str) -> str | None:
    """A logged Nihakyu action in words, without its actor (/history, the replay page):
    a choice is listed only once revealed (``public_log``)."""
    kind = str(action.get("kind"))
    if kind == "sleight":
        return f"uses Sleight of Hand ({int(action.get('adjust', 0)):+d})"
    if kind == "eject":
        return f"ejects {name(int(action.get('target', 0)))}"
    if kind == "kage_unpaid":
        return f"{name(int(action.get('player', 0)))} could not pay Kage's Endurance: Roll"
    return ACTION_WORDS.get(kind)


ACTION_WORDS: dict[str, str] = {
    "roll": f"chose {CHOICE_TEXT['roll']}",
    "shadow_step": f"chose {CHOICE_TEXT['shadow_step']}",
    "kage_endurance": f"chose {CHOICE_TEXT['kage']}",
    "skip_sleight": "passes on Sleight of Hand",
}
