"""Strength Duel in Discord: challenges, secret bids by DM, and the public reveal.

Secrecy is the whole game. A bid travels only through the bidder's own DM or an
ephemeral reply; the public table message says who has bid, never how much, never
whether a bid changed, never a tag request, until the round's reveal.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.app import TanzakuBot
from bot.errors import NotAllowed
from bot.games import strength_duel as duel
from bot.panels import PrivatePanels
from bot.service import Outcome, TableSnapshot, parse_rules
from cogs._ui import render
from cogs._ui.amounts import parse_amount
from cogs._ui.custom_ids import ComponentId
from cogs._ui.hub import (
    GameUI,
    Payload,
    TableHub,
    TableModal,
    actor_of,
    button,
    install_game,
    send_ephemeral,
    view_of,
)
from cogs._ui.private import show_panel

log = logging.getLogger(__name__)

MODE_TITLES = {
    "duel": "Duel",
    "forbidden": "Forbidden number",
    "three": "Three ninjas",
    "tag": "Tag team",
}
QUICK_BIDS = 15
"""Bids 0..14 get a button each (three rows); larger ones go through the amount form."""
PANEL_MOVES = (
    duel.RoundOpened,
    duel.RoundRevealed,
    duel.ForbidClosed,
    duel.GameOver,
    duel.Aborted,
)
"""Events after which every player's private panel is redrawn (a new decision point)."""
ELIMINATION_TEXT = {
    "could_not_pay": "cannot pay and is out",
    "no_strength": "has no strength left and is out",
    "forfeit": "forfeits",
}


class BidModal(TableModal):
    amount: discord.ui.TextInput[BidModal] = discord.ui.TextInput(
        label="Strength to spend", placeholder="A whole number", max_length=4, custom_id="amount"
    )

    def __init__(self, ui: DuelUI, table: int, ply: int, *, tag_out: bool) -> None:
        super().__init__(title="Bid and tag out" if tag_out else "Your secret bid", timeout=300)
        self.ui = ui
        self.table_id = table
        self.ply = ply
        self.tag_out = tag_out

    async def submit(self, interaction: discord.Interaction[Any]) -> None:
        # Strict: str.isdigit() would let "²" through, and int() would then fail.
        amount = parse_amount(self.amount.value, what="a whole number from 0 up to your strength")
        await self.ui.bid(interaction, self.table_id, self.ply, amount, self.tag_out)


class DuelUI(GameUI):
    game = "strength_duel"
    title = "Strength Duel"
    has_dice: ClassVar[bool] = False
    """No dice in this game: the table shows no fair-dice footer."""

    def __init__(self, hub: TableHub) -> None:
        super().__init__(hub)
        self.panels = PrivatePanels(hub.bot.db)
        # One panel redraw at a time per table, so two redraws never both send a first DM.
        self._panel_locks: dict[int, asyncio.Lock] = {}

    def describe_rules(self, snapshot: TableSnapshot) -> list[str]:
        rules: duel.Rules = snapshot.rules
        lines = [
            f"Mode: **{MODE_TITLES[rules.mode]}** · {rules.round_seconds} s to bid each round",
            "Bids are secret: you bid by direct message (or privately here).",
        ]
        if rules.mode == "tag":
            seats: list[int | None] = [*snapshot.seats[:4]]
            seats += [None] * (4 - len(seats))

            def team(members: list[int | None]) -> str:
                return " & ".join(render.mention(p) if p else "*open seat*" for p in members)

            lines.append(
                f"Teams: **seats 1–2** ({team(seats[0:2])}) vs **seats 3–4** "
                f"({team(seats[2:4])}). The first seat of each team starts in."
            )
        return lines

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
        closed = self.panels.closed(snapshot.id) if not state.finished else frozenset()
        for player in (p for p in state.seats if p in closed):
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
                # Forbid phase: that a ninja has chosen, never the number.
                if state.phase == "forbid":
                    marks.append("⏳ choosing" if player in waiting else "✅ has chosen")
                else:
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
        if isinstance(event, duel.Aborted):
            who = f" by {render.mention(event.by)}" if event.by else ""
            text = f"**Stopped{who}** in round {event.round}: every stake went back to its owner."
            if event.forbidden:
                text += "\nForbidden numbers: " + ", ".join(
                    f"{render.mention(p)} {n}" for p, n in event.forbidden.items()
                )
            return text
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
        """What only `player` sees: the last reveal, their strength, the others' and a way
        to bid; at the end, the result. The same text is their DM panel, their ephemeral
        panel when DMs are closed, and their notice."""
        text, view = self._panel(snapshot, player)
        return render.clip(text, 2000), view

    def _panel(self, snapshot: TableSnapshot, player: int) -> tuple[str, discord.ui.View | None]:
        state: duel.State | None = snapshot.state
        table = snapshot.id
        head = f"**Strength Duel #{table}**"
        if state is None:
            return f"{head} closed before play began; your stake was refunded.", None
        lines: list[str] = []
        if state.history:
            record = state.history[-1]
            revealed = duel.RoundRevealed(**record.model_dump())
            lines.append(self.describe(revealed, snapshot) or "")
        if snapshot.status == "cancelled" and not state.aborted:
            # Ended without the game's own Abort (the engine could not): stakes refunded.
            text = "This table was cancelled: every coin still at stake went back to its owner."
            return "\n".join([f"{head} — cancelled.", *lines, text]), None
        if state.finished:
            result = self._result(state, snapshot)
            final = " · ".join(f"{render.mention(p)} {state.strength[p]}" for p in state.seats)
            return "\n".join([f"{head} — over.", *lines, result, f"Strength: {final}"]), None
        ply = state.ply
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
            return text, view_of(
                *(button(table, ply, "forbid", str(n), arg=n) for n in duel.FORBID_RANGE)
            )
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
        forbidden = state.forbidden.get(player)
        text = (
            f"Your strength: **{strength}**. Others: {others}.\nPick your bid (only you see "
            "this; you may change it until every bid is in)."
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
        return "\n".join([header, *lines, text]), view_of(*items)

    def _result(self, state: duel.State, snapshot: TableSnapshot) -> str:
        """The end of the game in words, rebuilt from the state (as the reveal showed it)."""
        for event in reversed(snapshot.recent_events):
            if isinstance(event, duel.Aborted):
                return self.describe(event, snapshot) or ""
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
        return self.describe(over, snapshot) or ""

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
        number = _small_number(cid.arg)
        if cid.verb == "bid" and number is not None:
            await self.bid(interaction, cid.table, cid.ply, number, False)
            return
        if cid.verb == "forbid" and number is not None:
            outcome = await self.service.act(
                cid.table,
                actor_of(interaction),
                duel.Forbid(number=number),
                expected_ply=cid.ply,
            )
            await self.hub.answer(interaction, outcome)
            return
        raise NotAllowed("That button does nothing at this table.")

    async def bid(
        self, interaction: discord.Interaction[Any], table: int, ply: int, amount: int, tag: bool
    ) -> None:
        outcome = await self.service.act(
            table, actor_of(interaction), duel.Bid(amount=amount, tag_out=tag), expected_ply=ply
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
        snapshot = outcome.snapshot
        if snapshot.state is None:
            return  # a lobby: nobody has a panel yet
        # A secret choice inside a round does not redraw the panels: only a new decision
        # point (and the end) does, so a changed bid leaves no trace anywhere.
        only: set[int] | None = None
        if (
            outcome.kind == "started"
            or not snapshot.row.live
            or any(isinstance(event, PANEL_MOVES) for event in outcome.events)
        ):
            only = None
        elif any(isinstance(event, duel.ForbidChosen) for event in outcome.events):
            # Only the chooser's own panel changes (its 0–5 buttons give way to the number).
            only = {e.player for e in outcome.events if isinstance(e, duel.ForbidChosen)}
        else:
            return
        try:
            await self.update_panels(snapshot.id, only=only)
        except Exception:
            # The action is saved; a panel that could not be redrawn must not turn the
            # click's answer into "nothing was changed".
            log.exception("could not redraw the private panels of table %s", snapshot.id)

    async def update_panels(self, table_id: int, *, only: set[int] | None = None) -> None:
        """Redraw every player's private panel in place (sending it the first time).

        A player whose DMs are closed is marked (the table then offers them a private
        button), and the panel is kept as a notice for their next click when they must
        act. When the table has ended, the panels show the result and are forgotten.
        """
        lock = self._panel_locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            # Read afresh inside the lock: a redraw that waited must not draw an older round.
            snapshot = await self.service.snapshot(table_id)
            state: duel.State | None = snapshot.state
            if state is None:
                return
            live = snapshot.row.live
            stored = await self.panels.of_table(table_id)
            closed = self.panels.closed(table_id)
            waiting = set(duel.waiting_for(state)) if live else set()
            refresh_table = False
            for player in snapshot.seats:
                if only is not None and player not in only:
                    continue
                row = stored.get(player)
                where = None
                if row is not None and row.channel_id is not None and row.message_id is not None:
                    where = (row.channel_id, row.message_id)
                must_act = player in waiting
                # No panel to edit and nothing to ask: a closed DM is not tried again, and
                # an ended game sends nobody a first message.
                if where is None and (not live or (player in closed and not must_act)):
                    continue
                text, view = self.panel(snapshot, player)
                result = await show_panel(
                    self.hub, player, table_id, text, view=view, where=where, notice=must_act
                )
                if result.status == "closed":
                    refresh_table |= await self.panels.mark_closed(table_id, player)
                elif result.delivered and (where is None or player in closed):
                    assert result.channel_id is not None and result.message_id is not None
                    await self.panels.remember(
                        table_id, player, result.channel_id, result.message_id
                    )
                    refresh_table |= player in closed  # the 📪 note goes away
            if not live:
                await self.panels.forget(table_id)
                self._panel_locks.pop(table_id, None)
            elif refresh_table:
                self.hub.schedule_refresh(table_id)


def _small_number(arg: str | None) -> int | None:
    """A button's number argument; ASCII digits only (``"²".isdigit()`` is true)."""
    if arg is None or not arg.isascii() or not arg.isdigit() or len(arg) > 4:
        return None
    return int(arg)


class DuelCog(commands.GroupCog, group_name="duel", group_description="Strength Duel"):
    def __init__(self, bot: TanzakuBot, ui: DuelUI) -> None:
        self.bot = bot
        self.ui = ui

    async def cog_load(self) -> None:
        # Closed-DM markers of live tables, so the table keeps its private buttons after a
        # restart; panels of tables that ended while the bot was down are dropped.
        await self.ui.panels.load()

    @app_commands.command(name="challenge", description="Challenge a member to a Strength Duel.")
    @app_commands.describe(
        stake="Coins each ninja puts in the pot",
        member="Who you challenge (duel and forbidden modes; three and tag open a lobby)",
        mode="duel (default), forbidden number, three players or tag teams",
        round_seconds="Seconds to bid each round (default 120)",
    )
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        stake: app_commands.Range[int, 0, 1_000_000_000],
        member: discord.Member | None = None,
        mode: Literal["duel", "forbidden", "three", "tag"] = "duel",
        round_seconds: app_commands.Range[int, 15, 3600] = 120,
    ) -> None:
        assert interaction.guild_id is not None
        group = mode in ("three", "tag")
        if group and member is not None:
            # Refused rather than ignored: a challenger should not think it was sent.
            raise NotAllowed(
                f"The {MODE_TITLES[mode].lower()} mode opens a lobby anyone can join; "
                "leave out `member` (or pick the duel or forbidden mode to challenge someone)."
            )
        if not group and member is None:
            raise NotAllowed(
                f"Whom do you challenge? The {MODE_TITLES[mode].lower()} mode needs a `member`."
            )
        rules = parse_rules(
            self.bot.registry.get("strength_duel"),
            {"mode": mode, "stake": stake, "round_seconds": round_seconds},
        )
        if member is None:
            await self.ui.hub.open_table(interaction, "strength_duel", rules)
            return
        if member.bot:
            raise NotAllowed("Bots do not duel; challenge a member.")
        if member.id == interaction.user.id:
            raise NotAllowed("You cannot challenge yourself.")
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
