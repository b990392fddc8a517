"""High Card, a throwaway sixth game added exactly as a contributor adds one, to show that
every per-game check sees a new game (tests/platform/test_sixth_game.py).

Its parts mirror a shipped game's nine production files, here under ``tests/support``:
``engine.py`` (``bot/games/<key>.py``), ``computer.py`` (``bot/players/<key>.py``), this
record (a line of ``bot/catalog.py``), ``cog/__init__.py``, ``cog/ui.py`` and
``cog/words.py`` (``cogs/<key>/``), and ``rules/highcard.md`` with ``rules/ja/highcard.md``
(``bot/rules_text/``). The one file it lacks, its Japanese catalog
(``bot/i18n/locales/ja/LC_MESSAGES/<key>.po``), the bot reads only from the bot's own
folder. It is in no catalog until a test enrols it (:func:`tests.support.enrol.enrolled`).
"""

from __future__ import annotations

from bot.catalog import Game
from bot.players import Computer
from tests.support.highcard.computer import decide
from tests.support.highcard.engine import ENGINE, Rules

HIGHCARD = Game(
    engine=ENGINE,
    title="High Card",
    colour=(241, 196, 15),
    rules_package="tests.support.highcard.rules",
    extension="tests.support.highcard.cog",
    # Every seat takes the pot with chance 1/n and the house keeps the rake: it may stake
    # for its computer at any table (tests/support/highcard/engine.py).
    computer=Computer(decide, house_stakes=lambda rules: None),
)

__all__ = ["HIGHCARD", "Rules"]
