"""Nihakyu in Discord: /nihakyu open and eject; simultaneous rounds on the table message."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.app import TanzakuBot
from bot.errors import NotAllowed
from bot.games import nihakyu
from bot.games.common import HOUSE, Honour
from bot.service import Outcome, TableSnapshot, parse_rules
from cogs._ui import render
from cogs._ui.hub import (
    GameUI,
    Payload,
    actor_of,
    button,
    install_game,
    is_moderator,
    send_ephemeral,
    view_of,
)

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
EJECT_REFUSAL = (
    "Only a moderator (Manage Server) who is not playing at this table can eject a player."
)


def name(player: int) -> str:
    return "the Dealer" if player == nihakyu.DEALER else render.mention(player)


class NihakyuUI(GameUI):
    game = "nihakyu"
    title = "Nihakyu"

    def describe_rules(self, snapshot: TableSnapshot) -> list[str]:
        rules: nihakyu.Rules = snapshot.rules
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
        return [
            f"Everyone starts at **{rules.starting_stamina}** Stamina; "
            f"{rules.round_seconds} s a round.",
            f"Variants: {', '.join(variants) if variants else 'none'}",
        ]

    def render_game(self, snapshot: TableSnapshot, events: Sequence[BaseModel]) -> Payload:
        state: nihakyu.State = snapshot.state
        rules = state.rules
        currency = snapshot.currency
        lines: list[str] = []
        if state.finished:
            lines.extend(self.result_lines(state, currency))
        elif state.phase == "sleight":
            asked = ", ".join(name(p) for p in state.sleight_players)
            lines.append(
                f"Round {state.round}: the dice are down — **Sleight of Hand** window "
                f"for those who rolled: {asked}."
            )
        else:
            pot = render.coins(state.pot, currency)
            lines.append(f"Round {state.round}: choose in secret. Pot **{pot}**.")
        if not state.finished and snapshot.deadline is not None:
            lines.append(f"Resolves {render.timestamp(snapshot.deadline.due_at)} at the latest.")
        happenings = [text for event in events if (text := self.describe(event, state))]
        if happenings:
            lines.append("")
            lines.extend(happenings[-12:])
        embed = discord.Embed(
            title=f"Nihakyu — table #{snapshot.id}",
            description=render.clip("\n".join(lines), 4096),
            colour=discord.Colour(
                render.COLOUR_FINISHED if state.finished else render.COLOUR_PLAYING
            ),
        )
        rows = []
        for player in [*state.seats, *([nihakyu.DEALER] if rules.dealers_blood else [])]:
            stamina = state.stamina[player]
            status = ""
            if stamina <= 0 or player in state.eliminated:
                status = " ✖"
            elif not state.finished and player != nihakyu.DEALER:
                if state.phase == "choosing":
                    status = " ✅" if player in state.choices else " ⏳"
                elif player in state.sleight_players:
                    status = " ✅" if player in state.sleights else " ⏳"
                # else: not asked in this Sleight window (did not roll), so no mark.
            rows.append(
                f"{name(player)} `{render.bar(stamina, rules.starting_stamina)}` "
                f"**{max(stamina, 0)}**{status}"
            )
        embed.add_field(
            name="Stamina (✅ chosen · ⏳ waiting)",
            value=render.clip("\n".join(rows), 1024),
            inline=False,
        )
        if state.finished:
            return Payload(embed, None)
        return Payload(embed, self.controls(snapshot))

    def controls(self, snapshot: TableSnapshot) -> discord.ui.View:
        state: nihakyu.State = snapshot.state
        table, ply = snapshot.id, state.ply
        if state.phase == "sleight":
            return view_of(
                button(table, ply, "sleight", "Sleight −1", arg="minus"),
                button(table, ply, "sleight", "Sleight +1", arg="plus"),
                button(table, ply, "skip", "Pass"),
            )
        items = [button(table, ply, "roll", "Roll", style=discord.ButtonStyle.primary, emoji="🎲")]
        if state.rules.shadow_step:
            items.append(button(table, ply, "shadow", "Shadow Step", emoji="👣"))
        if state.rules.kage_endurance:
            items.append(button(table, ply, "kage", "Kage's Endurance", emoji="🛡️"))
        return view_of(*items)

    @staticmethod
    def result_lines(state: nihakyu.State, currency: str) -> list[str]:
        if state.aborted:
            return ["**The table was aborted by a moderator.** Every ante went back."]
        if state.dealer_won:
            house = render.coins(state.payouts.get(HOUSE, 0), currency)
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
        house = render.coins(state.payouts.get(HOUSE, 0), currency)
        return [f"**The game is over.** Nobody could win; the house takes {house}."]

    @staticmethod
    def describe(event: BaseModel, state: nihakyu.State) -> str | None:
        if isinstance(event, nihakyu.RoundRevealed):
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
        if isinstance(event, nihakyu.SleightChecked):
            outcome = {"success": "succeeds", "failure": "fails", "caught": "rolls a natural 1"}
            sign = "+1" if event.adjust > 0 else "−1"
            return (
                f"{name(event.player)}'s Sleight ({sign}): d20 {event.natural} = {event.total} — "
                f"{outcome[event.outcome]}."
            )
        if isinstance(event, nihakyu.PlayerEliminated):
            if event.reason == "ejected" and event.by is not None:
                return f"{name(event.player)} is **ejected** by {render.mention(event.by)}."
            return f"{name(event.player)} {ELIMINATION_TEXT[event.reason]}."
        if isinstance(event, nihakyu.Aborted):
            by = f" by {render.mention(event.by)}" if event.by is not None else ""
            return f"**The table was aborted{by}:** every ante goes back."
        if isinstance(event, nihakyu.SuddenDeath):
            rounds = " / ".join(
                ", ".join(f"{name(p)} {roll}" for p, roll in rolls.items()) for rolls in event.rolls
            )
            return f"**Sudden death:** {rounds} → {name(event.winner)}."
        if isinstance(event, Honour):
            return f"🏅 {render.mention(event.player)} earns *{event.name}*!"
        return None

    def action_for(
        self, snapshot_id: int, verb: str, arg: str | None, values: Sequence[str]
    ) -> BaseModel:
        if verb == "roll":
            return nihakyu.Roll()
        if verb == "shadow":
            return nihakyu.ShadowStep()
        if verb == "kage":
            return nihakyu.KageEndurance()
        if verb == "sleight" and arg in ("minus", "plus"):
            return nihakyu.Sleight(adjust=-1 if arg == "minus" else 1)
        if verb == "skip":
            return nihakyu.SkipSleight()
        return super().action_for(snapshot_id, verb, arg, values)

    async def after(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        if interaction is None:
            return
        for event in outcome.events:
            if getattr(event, "private_to", None) != interaction.user.id:
                continue
            if isinstance(event, nihakyu.ChoiceConfirmed):
                extra = ""
                if event.charge:
                    ante = render.coins(event.charge, outcome.snapshot.currency)
                    extra = (
                        f" Your second ante of {ante} is taken at the reveal"
                        " (if your wallet cannot pay it then, you Roll instead)."
                    )
                await send_ephemeral(
                    interaction,
                    f"Round {event.round}: you chose **{CHOICE_TEXT[event.choice]}**.{extra} "
                    "Only you can see this; you may change it until the round resolves.",
                )
            elif isinstance(event, nihakyu.SleightConfirmed):
                text = "you pass" if event.adjust == 0 else f"Sleight of Hand {event.adjust:+d}"
                await send_ephemeral(interaction, f"Round {event.round}: {text}.")


class NihakyuCog(
    commands.GroupCog, group_name="nihakyu", group_description="Nihakyu, the Two-Hundred Game"
):
    def __init__(self, bot: TanzakuBot, ui: NihakyuUI) -> None:
        self.bot = bot
        self.ui = ui

    @app_commands.command(name="open", description="Open a Nihakyu table in this channel.")
    @app_commands.describe(
        ante="Coins each player puts in the pot",
        kage_endurance="Variant: roll 2d20 and lose the lower, once, for a second ante",
        shadow_step="Variant: lose 5 instead of rolling",
        shadow_step_uses="Shadow Steps allowed per player (default unlimited)",
        dealers_blood="Variant: a neutral Dealer the players must outlast",
        shinobi_interference="Variant: Sleight of Hand checks after the dice",
        sleight_bonus="Bonus to Sleight of Hand checks (default 0)",
        caught_on_natural_one="House rule: a natural 1 on a Sleight check is caught cheating",
        starting_stamina="House rule: Stamina at the start (default 200)",
        round_seconds="Seconds a round waits for choices (default 60)",
    )
    async def open(
        self,
        interaction: discord.Interaction[Any],
        ante: app_commands.Range[int, 0, 1_000_000_000],
        kage_endurance: bool = False,
        shadow_step: bool = False,
        shadow_step_uses: app_commands.Range[int, 0, 100] | None = None,
        dealers_blood: bool = False,
        shinobi_interference: bool = False,
        sleight_bonus: app_commands.Range[int, -10, 10] = 0,
        caught_on_natural_one: bool = False,
        starting_stamina: app_commands.Range[int, 20, 1000] = 200,
        round_seconds: app_commands.Range[int, 10, 3600] = 60,
    ) -> None:
        rules = parse_rules(
            self.bot.registry.get("nihakyu"),
            {
                "ante": ante,
                "kage_endurance": kage_endurance,
                "shadow_step": shadow_step,
                "shadow_step_uses": shadow_step_uses,
                "dealers_blood": dealers_blood,
                "shinobi_interference": shinobi_interference,
                "sleight_bonus": sleight_bonus,
                "caught_on_natural_one": caught_on_natural_one,
                "starting_stamina": starting_stamina,
                "round_seconds": round_seconds,
            },
        )
        await self.ui.hub.open_table(interaction, "nihakyu", rules)

    @app_commands.command(name="eject", description="Eject a player for a forbidden technique.")
    @app_commands.describe(member="The player to eject (moderators not seated at the table)")
    async def eject(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        # Ejecting is a moderator's word, never the host's: a host could otherwise eject
        # everyone and take the pot. The game's permission (a moderator not seated) is
        # checked by the table service.
        if not is_moderator(interaction):
            raise NotAllowed(EJECT_REFUSAL)
        assert interaction.channel_id is not None
        table = await self.bot.tables.live_table_in(interaction.channel_id, "nihakyu")
        outcome = await self.bot.tables.act(
            table, actor_of(interaction), nihakyu.Eject(target=member.id)
        )
        await self.ui.hub.answer(
            interaction,
            outcome,
            confirm=f"{member.mention} is ejected; their ante stays in the pot.",
        )


async def setup(bot: TanzakuBot) -> None:
    await install_game(bot, nihakyu, NihakyuUI, NihakyuCog)
