"""The layering rule: arrows point down. bot/ never imports cogs/, engines import no I/O."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE_FORBIDDEN = ("discord", "asyncio", "aiosqlite", "logging", "random", "time", "bot.storage")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def offenders(folder: Path, forbidden: tuple[str, ...]) -> list[str]:
    found = []
    for path in sorted(folder.rglob("*.py")):
        for name in imported_modules(path):
            if any(name == bad or name.startswith(bad + ".") for bad in forbidden):
                found.append(f"{path.relative_to(folder)} imports {name}")
    return found


def test_bot_never_imports_cogs() -> None:
    assert offenders(ROOT / "bot", ("cogs",)) == []


def test_engines_are_pure() -> None:
    assert offenders(ROOT / "bot" / "games", ENGINE_FORBIDDEN) == []


def test_tournament_core_is_pure() -> None:
    """Pairing and standings are functions of the results: the event service brings the I/O."""
    forbidden = (*ENGINE_FORBIDDEN, "bot.service", "bot.app", "bot.economy")
    assert offenders(ROOT / "bot" / "events", forbidden) == []


def test_storage_imports_nothing_above_it() -> None:
    """SQL sits at the bottom: the players, the table service, the app and the cogs use it,
    never the other way round."""
    above = ("bot.players", "bot.service", "bot.app", "bot.economy", "bot.languages", "cogs")
    assert offenders(ROOT / "bot" / "storage", above) == []


def test_i18n_is_a_leaf() -> None:
    """The catalogs know no Discord and no database: the store of who reads which language
    is bot/languages.py, discord.py's command translator bot/translator.py."""
    assert offenders(ROOT / "bot" / "i18n", ("discord", "bot.storage")) == []


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("from cogs._ui.hub import TableHub\n", ["bad.py imports cogs._ui.hub"]),
        ("def f():\n    import cogs.core\n", ["bad.py imports cogs.core"]),
        ("import cogsmith\nfrom . import cogs\n", []),
    ],
)
def test_the_checker_catches_an_offender(tmp_path: Path, source: str, caught: list[str]) -> None:
    (tmp_path / "bad.py").write_text(source, encoding="utf-8")
    assert offenders(tmp_path, ("cogs",)) == caught
