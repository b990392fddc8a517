"""Strength Duel in Discord: challenges, secret bids by DM, and the public reveal.

Secrecy is the whole game. A bid travels only through the bidder's own DM or an
ephemeral reply; the public table message says who has bid, never how much, never
whether a bid changed, never a tag request, until the round's reveal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.app import TanzakuBot
from bot.errors import NotAllowed, UserFacingError
from bot.games import strength_duel as duel
from bot.tables import Outcome, TableSnapshot, parse_rules
from cogs._ui import render
from cogs._ui.custom_ids import ComponentId
from cogs._ui.hub import GameUI, Payload, TableHub, button, install_game, send_ephemeral, view_of
from cogs._ui.private import send_private

MODE_TITLES = {
    "duel": "Duel",
    "forbidden": "Forbidden number",
    "three": "Three ninjas",
    "tag": "Tag team",
}
QUICK_BIDS = 15
"""Bids 0..14 get a button each (three rows); larger ones go through the amount form."""
ELIMINATION_TEXT = {
    "could_not_pay": "cannot pay and is out",
    "no_strength": "has no strength left and is out",
    "forfeit": "forfeits",
}


class BidModal(discord.ui.Modal):
    amount: discord.ui.TextInput[BidModal] = discord.ui.TextInput(
        label="Strength to spend", placeholder="A whole number", max_length=4, custom_id="amount"
    )

    def __init__(self, ui: DuelUI, table: int, ply: int, *, tag_out: bool) -> None:
        super().__init__(title="Bid and tag out" if tag_out else "Your secret bid", timeout=300)
        self.ui = ui
        self.table = table
        self.ply = ply
        self.tag_out = tag_out

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        try:
            text = self.amount.value.strip()
            if not text.isdigit():
                raise NotAllowed(f"“{text}” is not a whole number from 0 up to your strength.")
            await self.ui.bid(interaction, self.table, self.ply, int(text), self.tag_out)
        except UserFacingError as error:
            await self.ui.hub.refuse(interaction, error)


class DuelUI(GameUI):
    game = "strength_duel"
    title = "Strength Duel"

    def __init__(self, hub: TableHub) -> None:
        super().__init__(hub)
        self.dm_closed: set[tuple[int, int]] = set()

    def describe_rules(self, snapshot: TableSnapshot) -> list[str]:
        rules: duel.Rules = snapshot.rules
        return [
            f"Mode: **{MODE_TITLES[rules.mode]}** · {rules.round_seconds} s to bid each round",
            "Bids are secret: you bid by direct message (or privately here).",
        ]

    # -- the public table message ------------------------------------------------------------

    def render_game(self, snapshot: TableSnapshot, events: Sequence[BaseModel]) -> Payload:
        state: duel.State = snapshot.state
        stake = render.coins(state.rules.stake, snapshot.currency)
        lines = [f"Mode: **{MODE_TITLES[state.rules.mode]}** · stake {stake} each"]
        if not state.finished:
            if state.phase == "forbid":
                lines.append("Everyone picks a secret forbidden number (0–5).")
            else:
                lines.append(f"**Round {state.round}** — bids are secret until all are in.")
            if snapshot.deadline is not None:
                lines.append(f"Reveal {render.timestamp(snapshot.deadline.due_at)} at the latest.")
        happenings = [text for event in events if (text := self.describe(event, snapshot))]
        if happenings:
            lines.append("")
            lines.extend(happenings[-6:])
        closed = [p for p in state.seats if (snapshot.id, p) in self.dm_closed]
        for player in closed:
            lines.append(f"📪 {render.mention(player)}: I cannot DM you — use **Bid privately**.")
        embed = discord.Embed(
            title=f"Strength Duel — table #{snapshot.id}",
            description=render.clip("\n".join(lines), 4096),
            colour=discord.Colour(
                render.COLOUR_FINISHED if state.finished else render.COLOUR_PLAYING
            ),
        )
        waiting = set(duel.waiting_for(state))
        rows = []
        for player in state.seats:
            marks = []
            if state.rules.mode == "tag":
                marks.append("⚔️ in" if player in state.in_play else "💤 resting")
            if player in state.eliminated:
                marks.append("✖ out")
            elif player in state.must_bid and not state.finished:
                marks.append("⏳ waiting" if player in waiting else "✅ has bid")
            rows.append(
                f"{render.mention(player)} — strength **{state.strength[player]}**"
                + (f" · {' · '.join(marks)}" if marks else "")
            )
        embed.add_field(name="Ninjas", value=render.clip("\n".join(rows), 1024), inline=False)
        if state.finished:
            return Payload(embed, None)
        label = "Choose privately" if state.phase == "forbid" else "Bid privately"
        return Payload(embed, view_of(button(snapshot.id, state.ply, "panel", label, emoji="🔒")))

    def describe(self, event: BaseModel, snapshot: TableSnapshot) -> str | None:
        if isinstance(event, duel.RoundRevealed):
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
                f"{render.mention(out.player)} {ELIMINATION_TEXT[out.reason]}."
                for out in event.eliminated
            )
            if event.recovered:
                parts.append(
                    "Resting ninjas recover 1: "
                    + ", ".join(render.mention(p) for p in event.recovered)
                )
            return "\n".join(parts)
        if isinstance(event, duel.ForbidClosed) and event.timed_out:
            late = ", ".join(render.mention(p) for p in event.timed_out)
            return f"Time ran out for choosing: {late} got the default number."
        if isinstance(event, duel.GameOver):
            currency = snapshot.currency
            if event.draw:
                result = "**A draw** — stakes are returned."
                if event.pot_to and len(event.pot_to) < len(snapshot.seats):
                    result = (
                        "**A draw** between "
                        + ", ".join(render.mention(p) for p in event.pot_to)
                        + ": they share the pot."
                    )
            else:
                winners = ", ".join(render.mention(p) for p in event.pot_to)
                pot = render.coins(snapshot.rules.stake * len(snapshot.seats), currency)
                verb = "wins" if len(event.pot_to) == 1 else "win"
                result = f"**{winners} {verb} the pot of {pot}.**"
            if event.forbidden:
                result += "\nForbidden numbers: " + ", ".join(
                    f"{render.mention(p)} {n}" for p, n in event.forbidden.items()
                )
            return result
        return None

    # -- the private panel -------------------------------------------------------------------

    def panel(self, snapshot: TableSnapshot, player: int) -> tuple[str, discord.ui.View | None]:
        """What only `player` sees: their strength, the others' and a way to bid."""
        state: duel.State = snapshot.state
        table, ply = snapshot.id, state.ply
        others = " · ".join(
            f"{render.mention(p)} {state.strength[p]}"
            for p in state.seats
            if p != player and p not in state.eliminated
        )
        if state.finished:
            return "This duel is over.", None
        if player not in state.must_bid:
            reason = "resting this round" if state.rules.mode == "tag" else "not bidding now"
            return f"Table #{table}: you are {reason}.", None
        if state.phase == "forbid":
            text = (
                f"**Strength Duel #{table}** — pick your secret forbidden number: you may never "
                "bid it this game. Nobody else learns it until the end."
            )
            return text, view_of(
                *(button(table, ply, "forbid", str(n), arg=n) for n in duel.FORBID_RANGE)
            )
        strength = state.strength[player]
        forbidden = state.forbidden.get(player)
        text = (
            f"**Strength Duel #{table} — round {state.round}.** Your strength: **{strength}**. "
            f"Others: {others}.\nPick your bid (only you see this; you may change it until "
            "every bid is in)."
        )
        if forbidden is not None:
            text += f" Your forbidden number is **{forbidden}**."
        items = [
            button(table, ply, "bid", str(n), arg=n, disabled=n == forbidden, row=n // 5)
            for n in range(min(strength + 1, QUICK_BIDS))
        ]
        items.append(button(table, ply, "bidm", "Other amount…", row=3))
        if state.rules.mode == "tag":
            items.append(button(table, ply, "bidt", "Bid and tag out…", emoji="🔁", row=3))
        return text, view_of(*items)

    async def click(
        self, interaction: discord.Interaction[Any], cid: ComponentId, values: Sequence[str]
    ) -> None:
        if cid.verb == "panel":
            snapshot = await self.service.snapshot(cid.table)
            if interaction.user.id not in snapshot.seats:
                raise NotAllowed("You are not in this duel.")
            text, view = self.panel(snapshot, interaction.user.id)
            await send_ephemeral(interaction, text, view=view)
            return
        if cid.verb in ("bidm", "bidt"):
            await interaction.response.send_modal(
                BidModal(self, cid.table, cid.ply, tag_out=cid.verb == "bidt")
            )
            return
        if cid.verb == "bid" and cid.arg is not None and cid.arg.isdigit():
            await self.bid(interaction, cid.table, cid.ply, int(cid.arg), False)
            return
        if cid.verb == "forbid" and cid.arg is not None and cid.arg.isdigit():
            outcome = await self.service.act(
                cid.table,
                interaction.user.id,
                duel.Forbid(number=int(cid.arg)),
                expected_ply=cid.ply,
            )
            await self.hub.answer(interaction, outcome)
            return
        raise NotAllowed("That button does nothing at this table.")

    async def bid(
        self, interaction: discord.Interaction[Any], table: int, ply: int, amount: int, tag: bool
    ) -> None:
        outcome = await self.service.act(
            table, interaction.user.id, duel.Bid(amount=amount, tag_out=tag), expected_ply=ply
        )
        await self.hub.answer(interaction, outcome)

    async def after(self, outcome: Outcome, interaction: discord.Interaction[Any] | None) -> None:
        if interaction is not None:
            for event in outcome.events:
                if getattr(event, "private_to", None) != interaction.user.id:
                    continue
                if isinstance(event, duel.BidConfirmed):
                    tag = " and you will tag out" if event.tag_out else ""
                    await send_ephemeral(
                        interaction,
                        f"Round {event.round}: your bid is **{event.amount}**{tag}. "
                        "You may change it until every bid is in.",
                    )
                elif isinstance(event, duel.ForbidConfirmed):
                    await send_ephemeral(
                        interaction, f"Your forbidden number is **{event.number}**. Keep it quiet."
                    )
        if outcome.kind == "started" or any(
            isinstance(event, duel.RoundOpened) for event in outcome.events
        ):
            await self.prompt_players(outcome.snapshot)

    async def prompt_players(self, snapshot: TableSnapshot) -> None:
        """DM each player who must bid now; note publicly whose DMs are closed."""
        state: duel.State = snapshot.state
        if state.finished:
            return
        newly_closed = False
        for player in duel.waiting_for(state):
            text, view = self.panel(snapshot, player)
            delivered = await send_private(self.hub, player, snapshot.id, text, view=view)
            key = (snapshot.id, player)
            if not delivered and key not in self.dm_closed:
                self.dm_closed.add(key)
                newly_closed = True
        if newly_closed:
            self.hub.schedule_refresh(snapshot.id)


class DuelCog(commands.GroupCog, group_name="duel", group_description="Strength Duel"):
    def __init__(self, bot: TanzakuBot, ui: DuelUI) -> None:
        self.bot = bot
        self.ui = ui

    @app_commands.command(name="challenge", description="Challenge a member to a Strength Duel.")
    @app_commands.describe(
        member="Who you challenge (three and tag modes open a lobby instead)",
        stake="Coins each side puts in the pot",
        mode="duel (default), forbidden number, three players or tag teams",
        round_seconds="Seconds to bid each round (default 120)",
    )
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member,
        stake: app_commands.Range[int, 0, 1_000_000_000],
        mode: Literal["duel", "forbidden", "three", "tag"] = "duel",
        round_seconds: app_commands.Range[int, 15, 3600] = 120,
    ) -> None:
        assert interaction.guild_id is not None
        if member.bot:
            raise NotAllowed("Bots do not duel; challenge a member.")
        if member.id == interaction.user.id:
            raise NotAllowed("You cannot challenge yourself.")
        rules = parse_rules(
            self.bot.registry.get("strength_duel"),
            {"mode": mode, "stake": stake, "round_seconds": round_seconds},
        )
        if mode in ("three", "tag"):
            await self.ui.hub.open_table(interaction, "strength_duel", rules)
            return
        theirs = await self.bot.economy.balance(interaction.guild_id, member.id)
        if theirs.balance < stake:
            raise NotAllowed(
                f"{member.mention} cannot cover a stake of {render.coins(stake, theirs.currency)}."
            )
        await self.ui.hub.open_table(
            interaction,
            "strength_duel",
            rules,
            invitee_id=member.id,
            lobby_seconds=self.bot.settings.challenge_timeout_seconds,
        )


async def setup(bot: TanzakuBot) -> None:
    await install_game(bot, duel, DuelUI, DuelCog)
