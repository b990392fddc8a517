"""A finished table's replay page (``bot/replay``), built from its log: every step
replayed through the engine and drawn as the table message showed it then, with a card
game's tiles (its UI's :meth:`~cogs._ui.game.Game.replay_cards` and
:meth:`~cogs._ui.game.Game.replay_tile`). Attached by /verify and posted when a table
ends."""

from __future__ import annotations

import base64
import dataclasses
import io
import json
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import NotAllowed
from bot.fairness import FairDice
from bot.games.common import is_computer
from bot.i18n import _
from bot.replay import MAX_BYTES, page_html
from bot.service import TableSnapshot
from bot.service.terms import DECIDED_WITH, LogKind
from bot.service.verify import ReplayedStep, public_log, replay_steps
from bot.storage.table_queries import LogRow, TableStatus
from cogs._ui import render
from cogs._ui.face import GameFace
from cogs._ui.hub import TableHub
from cogs._ui.step_words import Speaker, action_words

if TYPE_CHECKING:
    from bot.app import TanzakuBot

TILE_HEIGHT = 48
"""The page's card tiles: the bot's own tiles, scaled to this height."""


def replay_filename(table_id: int) -> str:
    return f"tanzaku-table-{table_id}-replay.html"


def said(action: dict[str, Any], ui: Speaker | None = None, currency: str = "coins") -> str:
    """What a step was, in words (the game's own, else spelled out): never a repr."""
    return action_words(ui, action, currency)


TIMESTAMP = re.compile(r"<t:(\d+)(?::\w)?>")


def embed_text(embed: discord.Embed) -> str:
    """The message as plain text for a page outside Discord: no bold marks, and a time
    Discord would show in the reader's zone given in UTC."""
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{field.name}\n{field.value}" for field in embed.fields]
    # Bold marks and code marks (a seed, a Stamina bar) are Discord's: plain text here.
    text = "\n\n".join(part for part in parts if part).replace("**", "").replace("`", "")
    return TIMESTAMP.sub(
        lambda found: datetime.fromtimestamp(int(found.group(1)), UTC).strftime(
            "%Y-%m-%d %H:%M:%S UTC"
        ),
        text,
    )


def tile_uris(ui: GameFace, cards: Iterable[str]) -> dict[str, str]:
    return {
        card: "data:image/png;base64,"
        + base64.b64encode(ui.replay_tile(card, TILE_HEIGHT)).decode()
        for card in sorted(cards)
    }


MENTION = re.compile(r"<@!?(\d+)>")


class Names:
    """Members as the page names them (a static page cannot show a mention): the name
    Discord gives, from the bot's cache or asked once per member; the computer as itself;
    a short id only if Discord does not answer."""

    def __init__(self, bot: TanzakuBot, guild_id: int) -> None:
        self._bot = bot
        self._guild = bot.get_guild(guild_id)
        self._known: dict[int, str] = {}

    async def load(self, user_ids: set[int]) -> None:
        for user_id in sorted(user_ids):
            if is_computer(user_id) or user_id in self._known:
                continue
            member = self._guild.get_member(user_id) if self._guild is not None else None
            user: discord.abc.User | None = member or self._bot.get_user(user_id)
            if user is None:
                try:
                    user = await self._bot.fetch_user(user_id)
                except discord.HTTPException:
                    continue
            self._known[user_id] = f"@{user.display_name}"

    def __call__(self, user_id: int) -> str:
        if is_computer(user_id):
            return render.mention(user_id)
        return self._known.get(user_id) or _("member …{digits}", digits=str(user_id)[-4:])

    def text(self, text: str) -> str:
        return MENTION.sub(lambda found: self(int(found.group(1))), text)


async def replay_page(bot: TanzakuBot, table_id: int, guild_id: int) -> str:
    """The page of an ended table (a live one keeps its seed: refused)."""
    hub = TableHub.of(bot)
    snapshot, rows = await bot.tables.history(table_id, guild_id)
    row = snapshot.row
    if row.live:
        raise NotAllowed(
            "Table #{table} is still being played; its replay comes with its seed, at the end.",
            table=str(table_id),
        )
    spec = snapshot.spec
    ui = hub.ui(spec.name)
    names = Names(bot, guild_id)
    # Everyone who ever acted or sat here (a member who cashed out has left the seats).
    await names.load({r.actor_id for r in rows if r.actor_id} | set(snapshot.seats))
    replayed = _replayed(snapshot, rows)
    steps: list[dict[str, Any]] = []
    seen_cards: set[str] = set()
    last = len(rows) - 1
    # Only the steps anyone may see (public_log): a secret choice replaced or never
    # revealed is not on the page, nor is its step's number. The draws of a hidden step
    # (a computer's decision) go with the next listed step, so every roll still follows
    # the one before it from the seed; after the last listed step they are left out.
    done = 0
    for number, public in enumerate(public_log(spec, rows), start=1):
        index, log_row, step = public.index, public.row, replayed[public.index]
        draws, computer_draws = _draws(rows[done : index + 1])
        done = index + 1
        action = public.action
        entry: dict[str, Any] = {
            "seq": number,
            "at": log_row.at,
            "actor": names(log_row.actor_id) if log_row.actor_id else _("the table"),
            "said": names.text(said(action, ui, snapshot.currency)),
            "draws": draws,
        }
        if computer_draws:
            entry["computer_draws"] = computer_draws
        if step is None:
            entry["shown"] = _("This step does not replay from the seed.")
        elif step.state is not None:
            status = row.status if index == last else TableStatus.RUNNING
            _show_state(entry, hub, snapshot, step, status, names, seen_cards)
        elif LogKind.is_table_step(action.get("kind")):
            entry["shown"] = _(
                "Lobby: {step}", step=names.text(said(action, ui, snapshot.currency))
            )
        steps.append(entry)
    data: dict[str, Any] = {
        "table": row.id,
        "game": spec.name,
        "title": _(spec.title),
        "commitment": row.commitment,
        "committed_at": row.created_at,
        "seed": row.seed_hex,
        "steps": steps,
    }
    if seen_cards:
        data["tiles"] = tile_uris(ui, seen_cards)
    return page_html(data)


def _replayed(snapshot: TableSnapshot[Any, Any], rows: list[LogRow]) -> list[ReplayedStep | None]:
    """Every logged step replayed from the seed, ``None`` from the first that does not."""
    row = snapshot.row
    replayed: list[ReplayedStep | None] = []
    try:
        dice = FairDice(bytes.fromhex(row.seed_hex))
        for replayed_step in replay_steps(snapshot.spec, row, rows, dice):
            replayed.append(replayed_step)
    except Exception:
        # The log does not replay from the seed (the page's checks will say where the
        # rolls part ways): its remaining steps are listed without a table to show.
        replayed += [None] * (len(rows) - len(replayed))
    return replayed


def _draws(rows: list[LogRow]) -> tuple[list[Any], list[int]]:
    """The draws of `rows` in order, and the places among them of a computer's."""
    draws: list[Any] = []
    computer_draws: list[int] = []
    for earlier in rows:
        row_draws = json.loads(earlier.draws_json)
        # A computer's decision draws first (acting.py): its randomness, not the
        # game's chance; the page shows it apart, small.
        decided = int(json.loads(earlier.action_json).get(DECIDED_WITH, 0))
        computer_draws += range(len(draws), len(draws) + min(decided, len(row_draws)))
        draws += row_draws
    return draws, computer_draws


def _show_state(
    entry: dict[str, Any],
    hub: TableHub,
    snapshot: TableSnapshot[Any, Any],
    step: ReplayedStep,
    status: TableStatus,
    names: Names,
    seen_cards: set[str],
) -> None:
    """Put in `entry` the table as its message showed it after `step` (live until the
    last step: `status`), and a card game's cards, noting them in `seen_cards`."""
    assert step.state is not None
    shown: TableSnapshot[Any, Any] = TableSnapshot(
        dataclasses.replace(snapshot.row, status=status),
        snapshot.spec,
        snapshot.rules,
        step.state,
        list(step.state.seats),
        snapshot.currency,
        None,
        list(step.events),
    )
    # In the language in effect: the asker's (/verify), or the server's for the
    # page attached to the table message (cogs/_ui/endings.py).
    entry["shown"] = names.text(embed_text(hub.draw(shown).embed))
    cards = hub.ui(snapshot.spec.name).replay_cards(step.state, names)
    if cards is not None:
        entry["cards"] = cards
        seen_cards.update(card for pile in cards.values() for card in pile)


async def replay_file(bot: TanzakuBot, table_id: int, guild_id: int) -> discord.File | None:
    """The page as an attachment, or ``None`` if it would pass Discord's file limit."""
    page = (await replay_page(bot, table_id, guild_id)).encode("utf-8")
    if len(page) > MAX_BYTES:
        return None
    return discord.File(io.BytesIO(page), filename=replay_filename(table_id))
