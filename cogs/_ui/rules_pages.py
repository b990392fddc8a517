"""Rules shown as paged embeds; the page buttons are ordinary table components."""

from __future__ import annotations

import discord

from bot import rules_text
from bot.i18n import _, current_locale
from cogs._ui import render
from cogs._ui.primitives import RULES_TABLE, Payload, button, view_of


def rules_page(game: str, page: int) -> Payload:
    pages = rules_text.pages(game, current_locale())
    page = max(0, min(page, len(pages) - 1))
    title, body = pages[page]
    embed = discord.Embed(
        title=_("{game} — {page}", game=_(rules_text.GAMES[game]), page=title),
        description=render.clip(body, 4096),
        colour=discord.Colour(render.COLOUR_LOBBY),
    )
    embed.set_footer(text=_("Page {page} of {pages}", page=str(page + 1), pages=str(len(pages))))
    if len(pages) == 1:
        # Nothing to turn to: ◀ and ▶ would both name page 0, one custom id twice, and
        # Discord refuses such a message.
        return Payload(embed)
    view = view_of(
        button(
            RULES_TABLE, max(page - 1, 0), "rules", _("◀ Previous"), arg=game, disabled=page == 0
        ),
        button(
            RULES_TABLE,
            min(page + 1, len(pages) - 1),
            "rules",
            _("Next ▶"),
            arg=game,
            disabled=page == len(pages) - 1,
        ),
    )
    return Payload(embed, view)
