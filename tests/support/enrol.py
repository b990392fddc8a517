"""Enrolling a game in the catalog for one test: what a new game's record in
``bot/catalog.py`` does, for a game that must not ship (tests/support/highcard).

Nothing keeps a copy of the catalog's list (everything that lists games reads
:data:`bot.catalog.CATALOG` when asked: /rules' titles, the chart's colours, the table
service's registry of a bot built from it), so enrolling is putting the record in the list
for the test's length and taking it out again.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.catalog import CATALOG, AnyGame, Catalog


@contextmanager
def enrolled(record: AnyGame, catalog: Catalog = CATALOG) -> Iterator[Catalog]:
    """``catalog`` with ``record`` listed last until the block ends."""
    before = catalog.records
    # Checked as any catalog is (a game listed twice is refused) before it is changed.
    listed = Catalog((*before, record)).records
    # The catalog is frozen for the bot's code: only an enrolment changes its list.
    object.__setattr__(catalog, "records", listed)
    try:
        yield catalog
    finally:
        object.__setattr__(catalog, "records", before)
