"""Small pieces of text every table message uses."""

from __future__ import annotations

from bot.games.common import COMPUTER_IDS, is_computer
from bot.i18n import N_, _, money
from bot.ratings import Skill

DIE_FACES = "⚀⚁⚂⚃⚄⚅"

COLOUR_LOBBY = 0x5865F2
COLOUR_PLAYING = 0xE67E22
COLOUR_FINISHED = 0x2ECC71
COLOUR_CANCELLED = 0x95A5A6
COMPUTER_NAME = N_("🤖 Computer")


def mention(user_id: int) -> str:
    """A member as Discord shows them; a computer seat as the computer, never a mention
    of an id no member has."""
    if is_computer(user_id):
        seat = COMPUTER_IDS.index(user_id) + 1
        return _(COMPUTER_NAME) if seat == 1 else _("🤖 Computer {seat}", seat=str(seat))
    return f"<@{user_id}>"


def rating(mu: float, sigma: float, games: int) -> str:
    """A skill rating as boards and /stats show it: ``1538``, or ``1500?`` while it is
    provisional (``bot/ratings.py``)."""
    skill = Skill(mu, sigma, games)
    return f"{skill.shown}?" if skill.provisional else str(skill.shown)


def die(value: int) -> str:
    return DIE_FACES[value - 1] if 1 <= value <= 6 else str(value)


def dice_pair(first: int, second: int) -> str:
    return f"{die(first)} {die(second)} = {first + second}"


def timestamp(seconds: float, style: str = "R") -> str:
    """A Discord timestamp; style R counts down live in every client."""
    return f"<t:{int(seconds)}:{style}>"


def coins(amount: int, currency: str) -> str:
    """An amount of the currency the reader's way (1,000 ryō; 1,000両)."""
    return money(amount, currency)


def signed_coins(amount: int, currency: str) -> str:
    return money(amount, currency, signed=True)


def bar(value: int, maximum: int, width: int = 10) -> str:
    """A text gauge: ▰▰▰▱▱ — width cells, filled in proportion."""
    if maximum <= 0:
        return "▱" * width
    filled = max(0, min(width, round(width * max(value, 0) / maximum)))
    if value > 0 and filled == 0:
        filled = 1
    return "▰" * filled + "▱" * (width - filled)


def label_of(item: object) -> str:
    """The label of a clicked component, as a DynamicItem rebuilds it from the message."""
    return str(getattr(item, "label", "") or "?")


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
