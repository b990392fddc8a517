"""Nihakyu's words: event sentences, private confirmations, the result and the rules
summary. Data for cogs/nihakyu/ui.py (the frame around them is cogs/_ui/frame.py).

Every sentence is a whole template translated where it is built (``bot.i18n``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from bot.games import nihakyu
from bot.games.common import HOUSE, Honour
from bot.i18n import N_, _
from bot.service import TableSnapshot
from cogs._ui import render
from cogs._ui.frame import Sentences

CHOICE_TEXT = {
    "roll": N_("Roll (lose 1d20)"),
    "shadow_step": N_("Shadow Step (lose 5, no roll)"),
    "kage": N_("Kage's Endurance (roll 2d20, lose the lower)"),
}
ELIMINATION_TEXT = {
    "stamina": N_("{player} falls."),
    "caught_cheating": N_("{player} is **caught cheating** and ejected."),
    "ejected": N_("{player} is **ejected** by a moderator."),
    "afk": N_("{player} forfeits after idling too many rounds."),
}
HONOURS = (N_("Touching the Shinigami's Hand"),)
"""The honours the engine grants (``nihakyu.SHINIGAMI``), translated where shown."""

Snapshot: TypeAlias = TableSnapshot[nihakyu.Rules, nihakyu.State]


def name(player: int) -> str:
    return _("the Dealer") if player == nihakyu.DEALER else render.mention(player)


def revealed(event: nihakyu.RoundRevealed, snapshot: Snapshot) -> str:
    parts = []
    for player, dice in event.rolls.items():
        choice = event.choices.get(player, "roll")
        auto = player in event.auto_rolled
        if choice == "shadow_step":
            parts.append(_("{player} 👣 steps aside (−5)", player=name(player)))
        elif choice == "kage":
            shown = (
                _("{first} and {second}", first=str(dice[0]), second=str(dice[1]))
                if len(dice) == 2
                else ", ".join(str(die) for die in dice)
            )
            template = (
                N_("{player} 🛡️ {dice} → −{lost} (auto)")
                if auto
                else N_("{player} 🛡️ {dice} → −{lost}")
            )
            parts.append(_(template, player=name(player), dice=shown, lost=str(min(dice))))
        else:
            template = N_("{player} 🎲 {roll} (auto)") if auto else N_("{player} 🎲 {roll}")
            parts.append(_(template, player=name(player), roll=str(dice[0]) if dice else "?"))
    for player, choice in event.choices.items():
        if choice == "shadow_step" and player not in event.rolls:
            parts.append(_("{player} 👣 steps aside (−5)", player=name(player)))
    text = _("**Round {round}:** {rolls}", round=str(event.round), rolls=" · ".join(parts))
    for player in event.kage_unpaid:
        text += "\n" + _(
            "{player}'s Kage's Endurance became a Roll: the wallet could not pay the second ante.",
            player=name(player),
        )
    return text


def eliminated(event: nihakyu.PlayerEliminated, snapshot: Snapshot) -> str:
    if event.reason == "ejected" and event.by is not None:
        return _(
            "{player} is **ejected** by {moderator}.",
            player=name(event.player),
            moderator=render.mention(event.by),
        )
    return _(ELIMINATION_TEXT[event.reason], player=name(event.player))


def chosen(event: nihakyu.ChoiceConfirmed, snapshot: Snapshot) -> str | None:
    """The chooser's private word, while the round waits for others; none once their
    choice has resolved the round (the table message shows the reveal, and a choice the
    word says may change no longer can): a Discord request a click does not need."""
    state = snapshot.game
    if state.finished or state.round != event.round or state.phase != "choosing":
        return None
    choice = _(CHOICE_TEXT[event.choice])
    if event.charge:
        return _(
            "Round {round}: you chose **{choice}**. Your second ante of {ante} is taken at "
            "the reveal (if your wallet cannot pay it then, you Roll instead). Only you can "
            "see this; you may change it until the round resolves.",
            round=str(event.round),
            choice=choice,
            ante=render.coins(event.charge, snapshot.currency),
        )
    return _(
        "Round {round}: you chose **{choice}**. Only you can see this; you may change it "
        "until the round resolves.",
        round=str(event.round),
        choice=choice,
    )


SLEIGHT_OUTCOME = {
    "success": N_("{player}'s Sleight ({adjust}): d20 {natural} = {total} — succeeds."),
    "failure": N_("{player}'s Sleight ({adjust}): d20 {natural} = {total} — fails."),
    "caught": N_("{player}'s Sleight ({adjust}): d20 {natural} = {total} — rolls a natural 1."),
}


def sleight_checked(event: nihakyu.SleightChecked, snapshot: Snapshot) -> str:
    return _(
        SLEIGHT_OUTCOME[event.outcome],
        player=name(event.player),
        adjust="+1" if event.adjust > 0 else "−1",
        natural=str(event.natural),
        total=str(event.total),
    )


def aborted(event: nihakyu.Aborted, snapshot: Snapshot) -> str:
    if event.by is None:
        return _("**The table was aborted:** every ante goes back.")
    return _(
        "**The table was aborted by {player}:** every ante goes back.",
        player=render.mention(event.by),
    )


def sudden_death(event: nihakyu.SuddenDeath, snapshot: Snapshot) -> str:
    rolls = " / ".join(", ".join(f"{name(p)} {roll}" for p, roll in r.items()) for r in event.rolls)
    return _("**Sudden death:** {rolls} → {winner}.", rolls=rolls, winner=name(event.winner))


SENTENCES = Sentences(
    {
        nihakyu.RoundRevealed: revealed,
        nihakyu.SleightChecked: sleight_checked,
        nihakyu.PlayerEliminated: eliminated,
        nihakyu.Aborted: aborted,
        nihakyu.SuddenDeath: sudden_death,
        Honour: lambda e, s: _(
            "🏅 {player} earns *{name}*!", player=render.mention(e.player), name=_(e.name)
        ),
    },
    remember=True,
)


def signed(value: int) -> str:
    return f"{value:+d}"


def sleight_confirmed(event: nihakyu.SleightConfirmed, snapshot: Snapshot) -> str:
    if event.adjust == 0:
        return _("Round {round}: you pass.", round=str(event.round))
    return _(
        "Round {round}: Sleight of Hand {adjust}.",
        round=str(event.round),
        adjust=signed(event.adjust),
    )


def roll_for_me_set(event: nihakyu.RollForMeConfirmed, snapshot: Snapshot) -> str:
    if event.on:
        return _(
            "🔁 **Roll for me** is on: the table chooses Roll for you as every round starts "
            "(this round too, if you had not chosen). Press **Roll for me** again to stop."
        )
    return _(
        "🔁 **Roll for me** is off: from the next round you choose yourself (this round's "
        "Roll stands)."
    )


CONFIRMATIONS = Sentences(
    {
        nihakyu.ChoiceConfirmed: chosen,
        nihakyu.RollForMeConfirmed: roll_for_me_set,
        nihakyu.SleightConfirmed: sleight_confirmed,
    }
)


def result_lines(state: nihakyu.State, currency: str) -> list[str]:
    if state.aborted:
        return [_("**The table was aborted by a moderator.** Every ante went back.")]
    house = render.coins(state.payouts.get(HOUSE, 0), currency)
    if state.dealer_won:
        if not state.share_basis:
            return [
                _(
                    "**The Dealer outlasts everyone.** The house takes the pot of {pot}.",
                    pot=house,
                )
            ]
        shares = [
            _(
                "{player} {share} (Stamina {stamina})",
                player=render.mention(p),
                share=render.coins(state.shares.get(p, 0), currency),
                stamina=str(stamina),
            )
            for p, stamina in state.share_basis.items()
        ]
        return [
            _(
                "**The Dealer outlasts everyone.** The house takes {house}; the rest is "
                "shared by Stamina before the final round: {shares}.",
                house=house,
                shares=" · ".join(shares),
            )
        ]
    if state.winner is not None:
        pot = render.coins(state.pot, currency)
        return [
            _(
                "**{player} wins the pot of {pot}.**",
                player=render.mention(state.winner),
                pot=pot,
            )
        ]
    return [_("**The game is over.** Nobody could win; the house takes {house}.", house=house)]


def rules_summary(rules: nihakyu.Rules) -> list[str]:
    variants = []
    if rules.kage_endurance:
        variants.append(_("Kage's Endurance"))
    if rules.shadow_step:
        if rules.shadow_step_uses is None:
            variants.append(_("Shadow Step (unlimited)"))
        else:
            variants.append(_("Shadow Step ({uses}×)", uses=str(rules.shadow_step_uses)))
    if rules.dealers_blood:
        variants.append(_("Dealer's Blood"))
    if rules.shinobi_interference:
        bonus = f"{rules.sleight_bonus:+d}"
        variants.append(
            _(
                "Shinobi Interference (Sleight {bonus}, a natural 1 is caught cheating)",
                bonus=bonus,
            )
            if rules.caught_on_natural_one
            else _("Shinobi Interference (Sleight {bonus})", bonus=bonus)
        )
    server_set = (
        _(
            "Dealer's Blood, the variants, Stamina and the natural-1 rule are the server's "
            "(moderators: /config rule)."
        )
        if rules.dealers_blood
        else _("Dealer's Blood and the natural-1 rule are the server's (moderators: /config rule).")
    )
    return [
        _(
            "Everyone starts at **{stamina}** Stamina; {seconds} s a round.",
            stamina=str(rules.starting_stamina),
            seconds=str(rules.round_seconds),
        ),
        _("Variants: {variants}", variants=_(", ").join(variants))
        if variants
        else _("Variants: none"),
        server_set,
    ]


def action_text(action: Mapping[str, Any], currency: str) -> str | None:
    """A logged Nihakyu action in words, without its actor (/history, the replay page):
    a choice is listed only once revealed (``public_log``)."""
    kind = str(action.get("kind"))
    if kind == "sleight":
        return _("uses Sleight of Hand ({adjust})", adjust=signed(int(action.get("adjust", 0))))
    if kind == "eject":
        return _("ejects {player}", player=name(int(action.get("target", 0))))
    if kind == "roll_for_me":
        return _("turns Roll for me on") if action.get("on", True) else _("turns Roll for me off")
    if kind == "kage_unpaid":
        return _(
            "{player} could not pay Kage's Endurance: Roll",
            player=name(int(action.get("player", 0))),
        )
    word = ACTION_WORDS.get(kind)
    return None if word is None else _(word)


ACTION_WORDS: dict[str, str] = {
    "roll": N_("chose Roll (lose 1d20)"),
    "shadow_step": N_("chose Shadow Step (lose 5, no roll)"),
    "kage_endurance": N_("chose Kage's Endurance (roll 2d20, lose the lower)"),
    "skip_sleight": N_("passes on Sleight of Hand"),
}
