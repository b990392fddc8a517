"""Swiss pairing: every round pairs the whole field at once, by score, with a maximum-weight
matching (networkx), never a greedy loop."""

from __future__ import annotations

from collections.abc import Sequence

from bot.events.model import Entrant, Pairing, TableResult


def pair_round(
    entrants: Sequence[Entrant], results: Sequence[TableResult], *, seats: int, round: int
) -> Pairing:
    """The tables of Swiss round ``round`` (1-based) for the entrants not dropped, given every
    earlier result (byes included).

    Rules, in order of priority: every entrant not dropped sits at exactly one table or has a
    bye; nobody meets an opponent they met before while that is avoidable; the bye (when the
    field does not divide by ``seats``) goes to players who have not had one; players meet
    others on the same score (the fewest and smallest score gaps); the bye goes to the
    lowest-ranked of those (score, then rating). Deterministic: the same input gives the same
    pairing. Raises ValueError when ``seats`` is not 2–4."""
    raise NotImplementedError
