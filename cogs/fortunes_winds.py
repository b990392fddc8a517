"""Fortunes and Winds in Discord: /fortunes open, bet, odds; the shooter's dice buttons.

The table message shows the five dice, the bets and the turn's settlements. White dice
are picked with toggle buttons (cogs/_ui/picks.py: the choice lives in the buttons, so a
half-made choice survives a restart) and set aside by "Roll again"; "Best keep" answers
privately from the engine's exact keeping. Rules: bot/games/fortunes_winds.py; words:
cogs/fortunes_winds_text.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import TanzakuBot
from bot.errors import InsufficientFunds, NotAllowed, StaleAction
from bot.games import fortunes_winds as fw
from bot.games.dice import ScriptedDice
from bot.service import Outcome, TableSnapshot, parse_rules
from cogs import fortunes_winds_text as words
from cogs._ui import render
from cogs._ui.controls import Control, draw
from cogs._ui.custom_ids import ComponentId
from cogs._ui.forms import AmountPicker
from cogs._ui.game import Game, GameCog, install_game
from cogs._ui.options import Options, Values, table
from cogs._ui.picks import Picks
from cogs._ui.primitives import send_ephemeral, view_of
from cogs._ui.verbs import VerbTable, fixed

Snapshot = TableSnapshot[fw.Rules, fw.State]
PICKS = Picks(fw.WHITE_DICE, verb="die", confirm_verb="again")


def keeping(s: fw.State) -> bool:
    return s.phase == "rolling" and 1 <= s.roll_number <= 2


def bet_shown(kind: str) -> Any:
    return lambda s: fw.betting_open(s) and (kind != "against" or s.rules.allow_bet_against)


CONTROLS: tuple[Control, ...] = (
    Control("roll", "Roll", row=0, style="primary", emoji="🎲",
            shown=lambda s: s.phase == "betting" and s.roll_number == 0),
    Control("newturn", "New turn", row=0, style="success", shown=lambda s: s.phase == "won"),
    Control("pass", "Pass the dice", row=0, shown=lambda s: s.roll_number == 0,
            live=fw.can_pass_dice),
    Control("keep", "Best keep", row=0, emoji="💡", shown=keeping),
    Control("ready", "Ready", row=0, style="success", emoji="✋", shown=lambda s: s.window_open),
    *(Control("bet", words.BET_BUTTONS[k], k, row=2 + (i == 5), shown=bet_shown(k))
      for i, k in enumerate(fw.BET_KINDS)),
    Control("join", "Join", row=4, style="success", lobby=True),
    Control("leave", "Cash out", row=4, lobby=True),
)  # fmt: skip


class FortunesUI(Game):
    game = "fortunes_winds"
    title = "Fortunes and Winds"
    recent_events = 12
    sentences = words.SENTENCES
    buttons = CONTROLS

    def verbs(self) -> VerbTable:
        self.bets = AmountPicker(
            self, kinds=words.BET_LABELS, room=self.bet_room, notes=words.BET_NOTES,
            action=lambda kind, amount: fw.Bet.model_validate({"kind": kind, "amount": amount}),
            step=lambda kind: fw.whole_pays_step(kind),  # type: ignore[arg-type]
        )  # fmt: skip
        return {
            "roll": fixed(fw.Roll),
            "newturn": fixed(fw.NewTurn),
            "pass": fixed(fw.PassDice),
            "ready": fixed(fw.Ready),
            "die": self.toggle,
            "again": self.roll_again,
            "keep": self.best_keep,
            **self.bets.verbs(),
        }

    def describe_rules(self, snapshot: Snapshot) -> list[str]:
        return words.rules_summary(snapshot.rules, snapshot.currency)

    def status_lines(self, snapshot: Snapshot) -> list[str]:
        return words.status_lines(snapshot)

    def deadline_line(self, snapshot: Snapshot) -> str:
        due = snapshot.deadline
        return words.clock_line(snapshot.game, render.timestamp(due.due_at) if due else "soon")

    def seat_lines(self, snapshot: Snapshot) -> list[str]:
        return words.seat_lines(snapshot)

    def extra_fields(self, snapshot: Snapshot) -> list[tuple[str, str]]:
        return [words.bank_field(snapshot)]

    def controls(self, snapshot: Snapshot, picked: Sequence[str] = ()) -> discord.ui.View:
        s = snapshot.game
        items = draw(snapshot.id, s, self.buttons)
        if keeping(s):
            labels = {die: words.die_label(die, s) for die in fw.WHITE_DICE}
            items += PICKS.draw(
                snapshot.id, s.ply, labels, picked, s.set_aside, "Roll again", row=1
            )
        return view_of(*items)

    def wallet_refusal(self, short: InsufficientFunds, currency: str) -> str | None:
        return words.cannot_cover(short.user_id or 0, short.needed, short.balance, currency)

    async def toggle(self, interaction: Any, cid: ComponentId, values: Sequence[str]) -> None:
        """Pick or unpick a white die: only the message changes, until "Roll again". The
        engine judges the pick now (a dry run: act never mutates, and SetAside rolls nothing)."""
        snapshot: Snapshot = await self.service.snapshot(cid.table)
        s, user = snapshot.game, interaction.user.id
        if cid.ply != s.ply:
            raise StaleAction()
        locked = PICKS.locked_item(cid.arg)
        picked = [locked] if locked else PICKS.decode(cid.arg)
        if picked or user != s.shooter:
            fw.act(s, user, fw.SetAside.model_validate({"dice": picked}), ScriptedDice())
        await self.redraw(interaction, snapshot, self.controls(snapshot, picked))

    async def roll_again(self, interaction: Any, cid: ComponentId, values: Sequence[str]) -> None:
        picked = PICKS.decode(cid.arg)
        if picked:  # the engine checks the pick (whose turn, a die aside, the cap of three)
            action = fw.SetAside.model_validate({"dice": picked})
            await self.apply(interaction, cid.table, action, ply=cid.ply)
        await self.act(interaction, cid.table, fw.Roll(), ply=cid.ply)

    async def best_keep(self, interaction: Any, cid: ComponentId, values: Sequence[str]) -> None:
        state = (await self.service.snapshot(cid.table)).game
        advice = fw.keep_advice(state)
        if advice is None:
            raise NotAllowed("There is no keep to choose right now: it is between the rolls.")
        await send_ephemeral(interaction, words.keep_text(advice, state))

    def public_line(self, outcome: Outcome) -> str | None:
        return words.result_line(list(outcome.events), outcome.snapshot)

    async def bet_room(self, interaction: Any, snapshot: Snapshot, kind: str) -> tuple[int, int]:
        """(the least, the most) the member may add on ``kind`` now, in the kind's whole-pays
        multiples: the limits, the wallet (half of it with a Lord Moon stake) and the guard
        (exact: it takes every multiple up to its limit). The engine decides."""
        s, user = snapshot.game, interaction.user.id
        held = s.bets.get(user, {}).get(kind, 0)  # type: ignore[call-overload]
        wallet = (await self.hub.bot.economy.balance(snapshot.row.guild_id, user)).balance
        most = min(s.rules.max_stake - held, wallet // 2 if kind in ("shooter", "ride") else wallet)
        if s.rules.guarded and kind != "shooter" and user in s.seats:
            most = min(most, fw.guard_limit(s, user, kind))  # type: ignore[arg-type]
        step = fw.whole_pays_step(kind)  # type: ignore[arg-type]
        least = max(1, s.rules.min_stake - held)
        return -(-least // step) * step, most - most % step


# `server`: only the server's moderators set it (/config rule), never the opener. The
# guard decides whether the table can beat the bank at all (off, a shooter and friends
# farm it); "against" bets pay on a shooter who can refuse to keep (+42% for the bettor
# unguarded), so taking them moves the bank's edge. `banker` stays the opener's: with a
# player banker no house coin is in play (the computer never bets or banks there).
OPTIONS = Options(
    fw.Rules,
    table("""
min_stake     1..1_000_000      Smallest bet (default 1)
max_stake     1..1_000_000_000  Largest bet (default 100)
banker        house|player  default=house  Who banks: the house, or the richest player's wallet
against_bets>allow_bet_against  bool  server  Take bets against the shooter (default on)
house_guard   bool  server  Refuse bets that would let the table beat the house (default on)
bet_seconds   0..600   Betting window before each turn, in seconds (default 30;
                       0: open until the first roll)
roll_seconds  5..3600  Seconds the shooter has before the table rolls (default 60)
seats>max_players  2..25  Most players at the table (default 8)
"""),
)  # fmt: skip


async def open_table(cog: FortunesCog, interaction: Any, values: Values) -> None:
    rules = OPTIONS.rules(values)
    rules["player_banker"] = rules.pop("banker") == "player"
    parsed = parse_rules(cog.bot.registry.get("fortunes_winds"), rules)
    await cog.ui.hub.open_table(interaction, "fortunes_winds", parsed)


class FortunesCog(
    GameCog, commands.GroupCog, group_name="fortunes", group_description="Fortunes and Winds"
):
    ui: FortunesUI
    options = OPTIONS
    open = OPTIONS.command("open", "Open a Fortunes and Winds table in this channel.", open_table)

    @app_commands.command(name="bet", description="Bet at this channel's Fortunes and Winds table.")
    @app_commands.describe(kind="What to bet on", amount="How many coins")
    async def bet(
        self, interaction: discord.Interaction[Any],
        kind: Literal["shooter", "ride", "daikoku", "against", "tea", "hungry"],
        amount: app_commands.Range[int, 1, 1_000_000_000],
    ) -> None:  # fmt: skip
        await self.ui.bets.place(interaction, await self.live_table(interaction), kind, amount)

    @app_commands.command(
        name="odds", description="Exact odds and every bet's edge, from the dice."
    )
    async def odds(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(embed=words.odds_embed(), ephemeral=True)


async def setup(bot: TanzakuBot) -> None:
    await install_game(bot, fw, FortunesUI, FortunesCog)
