"""The cog layer the next game copies: every module flat in cogs/ is an extension (it has
``setup``), and each game is a package — its cog with ``setup`` in ``__init__.py`` (under
200 lines), its table message in ``ui.py``, its words in ``words.py``."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from bot.catalog import CATALOG, AnyGame

ROOT = Path(__file__).resolve().parents[2]
COGS = ROOT / "cogs"
LIMIT = 200


def has_setup(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.AsyncFunctionDef) and node.name == "setup" for node in tree.body
    )


def test_every_flat_module_is_an_extension() -> None:
    flat = [p for p in sorted(COGS.glob("*.py")) if p.name != "__init__.py"]
    assert flat, "cogs/ was read"
    assert [p.name for p in flat if not has_setup(p)] == []


def game_packages() -> list[Path]:
    return [p for p in sorted(COGS.iterdir()) if p.is_dir() and (p / "ui.py").exists()]


def test_each_game_is_a_package_with_its_cog_ui_and_words() -> None:
    games = game_packages()
    assert len(games) >= 5
    for game in games:
        check_game_package(game)


def check_game_package(game: Path) -> None:
    """A game's cog package: its extension (``setup``) in ``__init__.py`` under the limit,
    its table message in ``ui.py``, its words in ``words.py``."""
    cog = game / "__init__.py"
    assert has_setup(cog), f"{cog} is the extension"
    assert (game / "ui.py").exists(), f"{game.name} draws its table in ui.py"
    assert (game / "words.py").exists(), f"{game.name} keeps its words in words.py"
    lines = len(cog.read_text(encoding="utf-8").splitlines())
    assert lines < LIMIT, f"{cog} has {lines} lines"


def cog_package(record: AnyGame) -> Path:
    """The folder of the package its record names as its extension."""
    module = importlib.import_module(record.extension)
    assert module.__file__ is not None and Path(module.__file__).name == "__init__.py", (
        f"{record.extension} is a package"
    )
    return Path(module.__file__).parent


def test_each_catalogued_game_has_such_a_package() -> None:
    for record in CATALOG:
        check_game_package(cog_package(record))


def test_the_shared_ui_imports_no_game() -> None:
    """cogs/_ui/ (the replay page included) draws every game through its UI's hooks: it
    imports no game's cog, words or art."""
    from tests.platform.test_import_cycles import import_graph

    graph = import_graph(COGS.parent, "cogs")
    shared = {name: deps for name, deps in graph.items() if name.startswith("cogs._ui")}
    assert shared, "cogs/_ui was read"
    reaching = {
        name: sorted(d for d in deps if not d.startswith("cogs._ui") and d != "cogs")
        for name, deps in shared.items()
    }
    assert {name: deps for name, deps in reaching.items() if deps} == {}
