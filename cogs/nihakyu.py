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
from bot.tables import Outcome, TableSnapshot, parse_rules
from cogs._ui import render
from cogs._ui.hub import (
    GameUI,
    Payload,
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
            variants.append(f"Shinobi Interference (Sleight +{rules.sleight_bonus})")
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
            lines.append(self.result_line(state, currency))
        elif state.phase == "sleight":
            lines.append(f"Round {state.round}: the dice are down — **Sleight of Hand** window.")
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
                waiting = (
                    player not in state.choices
                    if state.phase == "choosing"
                    else player in state.sleight_players and player not in state.sleights
                )
                status = " ⏳" if waiting else " ✅"
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
    def result_line(state: nihakyu.State, currency: str) -> str:
        if state.dealer_won:
            house = state.payouts.get(HOUSE, 0)
            return (
                f"**The Dealer outlasts everyone.** The house takes "
                f"{render.coins(house, currency)}; the rest is shared by Stamina."
            )
        if state.winner is not None:
            pot = render.coins(state.pot, currency)
            return f"**{render.mention(state.winner)} wins the pot of {pot}.**"
        return "**The game is over.**"

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
                    parts.append(f"{name(player)} 🛡️ {dice} → −{min(dice)}{auto}")
                else:
                    parts.append(f"{name(player)} 🎲 {dice[0] if dice else '?'}{auto}")
            for player, choice in event.choices.items():
                if choice == "shadow_step" and player not in event.rolls:
                    parts.append(f"{name(player)} 👣 steps aside (−5)")
            return f"**Round {event.round}:** " + " · ".join(parts)
        if isinstance(event, nihakyu.SleightChecked):
            outcome = {"success": "succeeds", "failure": "fails", "caught": "rolls a natural 1"}
            sign = "+1" if event.adjust > 0 else "−1"
            return (
                f"{name(event.player)}'s Sleight ({sign}): d20 {event.natural} = {event.total} — "
                f"{outcome[event.outcome]}."
            )
        if isinstance(event, nihakyu.PlayerEliminated):
            return f"{name(event.player)} {ELIMINATION_TEXT[event.reason]}."
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
                ante = render.coins(outcome.snapshot.rules.ante, outcome.snapshot.currency)
                extra = f" It raised your ante by {ante}." if event.choice == "kage" else ""
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
                "starting_stamina": starting_stamina,
                "round_seconds": round_seconds,
            },
        )
        await self.ui.hub.open_table(interaction, "nihakyu", rules)

    @app_commands.command(name="eject", description="Eject a player for a forbidden technique.")
    @app_commands.describe(member="The player to eject (host or moderator only)")
    async def eject(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        assert interaction.channel_id is not None
        table = await self.bot.tables.live_table_in(interaction.channel_id, "nihakyu")
        snapshot = await self.bot.tables.snapshot(table)
        if interaction.user.id != snapshot.row.host_id and not is_moderator(interaction):
            raise NotAllowed("Only the table's host or a moderator can eject a player.")
        outcome = await self.bot.tables.act(
            table, interaction.user.id, nihakyu.Eject(target=member.id), outsider=True
        )
        await self.ui.hub.answer(
            interaction,
            outcome,
            confirm=f"{member.mention} is ejected; their ante stays in the pot.",
        )


async def setup(bot: TanzakuBot) -> None:
    await install_game(bot, nihakyu, NihakyuUI, NihakyuCog)
