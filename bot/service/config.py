"""A server's table settings (/config): which games may open tables, in which channels,
and the stakes each game's tables may ask. Stored per setting as JSON; a setting never set
has its default (every game, any channel, any stake)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.errors import NotAllowed
from bot.i18n import Said

DISABLED_GAMES = "disabled_games"
TABLE_CHANNELS = "table_channels"
STAKE_LIMITS = "stake_limits"
RULE_DEFAULTS = "rule_defaults"


@dataclass(frozen=True)
class ServerConfig:
    disabled_games: frozenset[str] = frozenset()
    table_channels: frozenset[int] = frozenset()
    """Where tables may open; empty: anywhere."""
    stake_limits: Mapping[str, tuple[int, int | None]] = field(default_factory=dict)
    """Per game: the lowest and the highest stake a table may ask (None: no highest)."""
    rule_defaults: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Per game: option → the value a table gets when its opener does not choose one."""

    @classmethod
    def from_rows(cls, rows: Mapping[str, str]) -> ServerConfig:
        limits = json.loads(rows.get(STAKE_LIMITS, "{}"))
        return cls(
            disabled_games=frozenset(json.loads(rows.get(DISABLED_GAMES, "[]"))),
            table_channels=frozenset(int(c) for c in json.loads(rows.get(TABLE_CHANNELS, "[]"))),
            stake_limits={game: (int(low), high) for game, (low, high) in limits.items()},
            rule_defaults=json.loads(rows.get(RULE_DEFAULTS, "{}")),
        )

    def check_open(
        self, game: str, title: str, channel_id: int, least: int, most: int | None = None
    ) -> None:
        """Refuse a table this server's settings do not allow, saying what they allow.
        ``least``..``most``: the stakes the table may take (one number: its seat's stake;
        a betting game: its bet limits, which must lie inside the server's)."""
        if game in self.disabled_games:
            raise NotAllowed(
                "{title} is switched off on this server (by its moderators).", title=Said(title)
            )
        if self.table_channels and channel_id not in self.table_channels:
            allowed = ", ".join(f"<#{c}>" for c in sorted(self.table_channels))
            raise NotAllowed("Tables open only in {allowed} on this server.", allowed=allowed)
        limits = self.stake_limits.get(game)
        if limits is not None:
            low, high = limits
            most = least if most is None else most
            if least < low or (high is not None and most > high):
                # Whole sentences for each shape of limit: the words around the numbers
                # move in other languages.
                if least == most and high is not None:
                    raise NotAllowed(
                        "{title} tables here take a stake of {low} to {high}, not {least}.",
                        title=Said(title),
                        low=low,
                        high=high,
                        least=least,
                    )
                if least == most:
                    raise NotAllowed(
                        "{title} tables here take a stake of at least {low}, not {least}.",
                        title=Said(title),
                        low=low,
                        least=least,
                    )
                if high is not None:
                    raise NotAllowed(
                        "{title} tables here take bets of {low} to {high}, not {least} to "
                        "{most}: choose min_stake and max_stake within that.",
                        title=Said(title),
                        low=low,
                        high=high,
                        least=least,
                        most=most,
                    )
                raise NotAllowed(
                    "{title} tables here take bets of at least {low}, not {least} to "
                    "{most}: choose min_stake and max_stake within that.",
                    title=Said(title),
                    low=low,
                    least=least,
                    most=most,
                )
