"""Every custom-id grammar of Tanzaku's components, in one place.

Every table component (and a table's rules pages):

    tz:<table>:<ply>:<verb>[:<arg>]

- ``table``: the table id; ``ply``: the table's ply when the component was drawn, so a
  click on an outdated message is recognised as stale; ``verb``: what the component does
  (``join``, ``roll``, ``bid``…); ``arg``: an optional argument (a number, a bet kind).

Ids carry ids, never state: everything else is loaded from the database at click time,
which is why buttons keep working after a restart. At most 100 characters (Discord).

The buttons of a command's private or paged answer, each its own ``DynamicItem``
(a ``*_TEMPLATE`` and the function writing its id, side by side):

    tz-tables:<verb>:<arg>                      /tables: page, close, confirm
    tz-history:<table>:<page>                   /history's pages
    tz-board:<owner>:<ranking>:<game>:<page>    /leaderboard's pages (``all``: every game)
    tz-selfexclude:<user>:<days>                /selfexclude's confirmation
    tz-event:<event>:<verb>                     an event message: join, leave, start
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

PREFIX = "tz"
TEMPLATE = (
    r"tz:(?P<table>[0-9]{1,19}):(?P<ply>[0-9]{1,9}):(?P<verb>[a-z_]{1,24})"
    r"(?::(?P<arg>[A-Za-z0-9_\-]{1,40}))?"
)
_PATTERN = re.compile(f"^{TEMPLATE}$")
MAX_LENGTH = 100


@dataclass(frozen=True, slots=True)
class ComponentId:
    table: int
    ply: int
    verb: str
    arg: str | None = None

    def __str__(self) -> str:
        text = f"{PREFIX}:{self.table}:{self.ply}:{self.verb}"
        if self.arg is not None:
            text += f":{self.arg}"
        if len(text) > MAX_LENGTH or not _PATTERN.match(text):
            raise ValueError(f"invalid component id {text!r}")
        return text

    @classmethod
    def parse(cls, text: str) -> ComponentId | None:
        match = _PATTERN.match(text)
        if match is None:
            return None
        return cls.from_match(match)

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ComponentId:
        return cls(int(match["table"]), int(match["ply"]), match["verb"], match["arg"] or None)


def component_id(table: int, ply: int, verb: str, arg: str | int | None = None) -> str:
    """``tz:<table>:<ply>:<verb>[:<arg>]``, checked as :class:`ComponentId` checks it; the
    verb and argument's check is remembered (a table message writes a dozen ids an answer,
    the same verbs every time)."""
    arg_text = None if arg is None else str(arg)
    if type(table) is int and type(ply) is int and 0 <= table < 10**19 and 0 <= ply < 10**9:
        tail = _checked_tail(verb, arg_text)
        if tail is not None:
            text = f"{PREFIX}:{table}:{ply}{tail}"
            if len(text) <= MAX_LENGTH:
                return text
    return str(ComponentId(table, ply, verb, arg_text))  # the long way: it says what is wrong


_TAIL = re.compile(r"^:[a-z_]{1,24}(?::[A-Za-z0-9_\-]{1,40})?$")
"""The verb and argument of :data:`TEMPLATE`, checked as :data:`_PATTERN` checks them."""


@functools.lru_cache(maxsize=4096)
def _checked_tail(verb: str, arg: str | None) -> str | None:
    """``:<verb>[:<arg>]`` if the grammar allows it, else ``None``."""
    tail = f":{verb}" if arg is None else f":{verb}:{arg}"
    return tail if _TAIL.match(tail) else None


TABLES_TEMPLATE = r"tz-tables:(?P<verb>page|close|confirm):(?P<arg>[0-9]+)"


def tables_id(verb: str, arg: int) -> str:
    return f"tz-tables:{verb}:{arg}"


HISTORY_TEMPLATE = r"tz-history:(?P<table>[0-9]{1,19}):(?P<page>[0-9]{1,9})"


def history_id(table: int, page: int) -> str:
    return f"tz-history:{table}:{page}"


BOARD_TEMPLATE = (
    r"tz-board:(?P<owner>[0-9]+):(?P<ranking>coins|wins|net|rating):(?P<game>[a-z_]+)"
    r":(?P<page>[0-9]+)"
)
BOARD_ALL_GAMES = "all"


def board_id(owner_id: int, ranking: str, game: str | None, page: int) -> str:
    return f"tz-board:{owner_id}:{ranking}:{game or BOARD_ALL_GAMES}:{page}"


SELF_EXCLUDE_TEMPLATE = r"tz-selfexclude:(?P<user>[0-9]+):(?P<days>[0-9]+)"


def self_exclude_id(user_id: int, days: int) -> str:
    return f"tz-selfexclude:{user_id}:{days}"


EVENT_TEMPLATE = r"tz-event:(?P<event>[0-9]{1,19}):(?P<verb>join|leave|start)"


def event_id(event: int, verb: str) -> str:
    return f"tz-event:{event}:{verb}"
