"""What the bot tells its operator's metrics, as plain method calls.

The table service, the storage and the Discord layer call a :class:`Meter`; this base
does nothing, and it is what a bot without ``TANZAKU_METRICS_PORT`` holds, so metrics
off cost one empty method call per event and import nothing. :mod:`bot.metrics` fills
the same calls into Prometheus metrics. Keeping this interface free of
``prometheus_client`` keeps the service and the storage free of it too (and a test can
hand them a recorder of its own).

Every argument that becomes a label is from a bounded set (a game's name, a kind, a
reason's class name): never a member, a channel, free text or a secret choice.
"""

from __future__ import annotations


class Meter:
    """The metrics' events; each method does nothing here."""

    def answered(self, kind: str, seconds: float) -> None:
        """An interaction of `kind` was acknowledged by Discord `seconds` after it arrived."""

    def failed(self, kind: str, reason: str) -> None:
        """An interaction of `kind` went unanswered, was answered too late, a Discord call
        answering it raised, or it reached an error handler (`reason` says which)."""

    def refused(self, kind: str, reason: str) -> None:
        """A member was told no (a ``UserFacingError``); `reason` is its ``reason``."""

    def acted(self, game: str, source: str) -> None:
        """A change to a table of `game` was saved; `source`: member, computer, deadline."""

    def committed(self, backend: str, seconds: float, units: int) -> None:
        """A database commit took `seconds` and held `units` units of work."""

    def deadline_fired(self, kind: str, late_seconds: float) -> None:
        """A table's deadline of `kind` (lobby, game) acted, `late_seconds` after its time."""

    def computer_decided(self, game: str, seconds: float) -> None:
        """A computer's move landed; deciding it took `seconds`."""


NO_METER = Meter()
"""Metrics off."""
