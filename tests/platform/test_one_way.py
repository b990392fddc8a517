"""Calls run one way (issue 35): the hub routes a click down to a game's UI and answers
what it returns; nothing the hub is made of, and no game's UI, calls the hub back; and
SQL (bot/storage) imports nothing above it.

Read from the source with :mod:`ast`: an import under ``TYPE_CHECKING`` or inside a
function counts like any other, since it is an arrow all the same.

Who may import the hub (cogs/_ui/hub.py): the cogs above it, which build it and hand it
what a command did (cogs/*.py, :mod:`cogs._ui.cog`), and two plug-ins of the cog layer,
:mod:`cogs._ui.endings` (work the hub starts for an ended table, wired by cogs/core.py)
and :mod:`cogs._ui.replay` (a past table drawn as the hub draws it, for /history and the
ended table's message). Every other module of cogs/_ui is a part the hub or a game's UI
is built from, and a game's UI is built on :class:`cogs._ui.face.UIHost` (the hub's
message sync), whose members are the whole downward API.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "cogs" / "_ui"
HUB = "cogs._ui.hub"
ABOVE_THE_HUB = frozenset({"cog", "endings", "replay"})
"""cogs/_ui modules that use the hub rather than being part of it."""


def module_name(path: Path) -> str:
    if not path.is_relative_to(ROOT):
        return path.stem  # a checker's own test file
    relative = path.relative_to(ROOT).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return ".".join(parts)


def imports(tree: ast.AST, package: str) -> set[str]:
    """Every module ``tree`` imports, anywhere in it; ``from a import b`` counts as both
    ``a`` and ``a.b`` (``b`` may be a module), relative imports resolved in ``package``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def hub_references(tree: ast.AST) -> set[str]:
    """Names and attributes that reach for the hub: ``TableHub``, ``….hub``, ``table_hub``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == "TableHub":
            found.add("TableHub")
        elif isinstance(node, ast.Attribute) and node.attr in ("hub", "table_hub", "TableHub"):
            found.add(f".{node.attr}")
    return found


def host_members() -> frozenset[str]:
    """The members of :class:`cogs._ui.face.UIHost`: what a game's UI may use of its host."""
    tree = ast.parse((UI / "face.py").read_text(encoding="utf-8"))
    host = next(
        node for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.name == "UIHost"
    )
    return frozenset(
        node.name for node in host.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    )


def host_uses(tree: ast.AST) -> set[str]:
    """What is used of a UI's host: ``<anything>.host.<name>``, and the host's own name
    passed on (``host.<name>`` in the keepers)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        inner = node.value
        if (isinstance(inner, ast.Attribute) and inner.attr == "host") or (
            isinstance(inner, ast.Name) and inner.id == "host"
        ):
            found.add(node.attr)
    return found


def offences(path: Path, *, allowed_host: frozenset[str], above: frozenset[str]) -> list[str]:
    """How the module at ``path`` (a part of the hub or a game's UI) calls up: an import
    of ``above`` (cogs/_ui modules), the hub named, its host used beyond ``allowed_host``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    modules = {f"cogs._ui.{module}" for module in above}
    found = [f"{where} imports {module}" for module in sorted(imports(tree, package) & modules)]
    found += [f"{where} reaches for the hub: {ref}" for ref in sorted(hub_references(tree))]
    found += [
        f"{where} uses its host's {member}, not in UIHost"
        for member in sorted(host_uses(tree) - allowed_host)
    ]
    return found


def hub_parts() -> list[Path]:
    return [
        path
        for path in sorted(UI.glob("*.py"))
        if path.stem not in ABOVE_THE_HUB and path.stem != "hub"
    ]


def game_uis() -> list[Path]:
    """Every module of every game's package (its UI, its words, its cog), and the test
    game's."""
    packages = [path for path in sorted((ROOT / "cogs").iterdir()) if path.is_dir()]
    packages = [path for path in packages if path.name != "_ui" and path.name != "__pycache__"]
    packages += [path for path in sorted((ROOT / "tests" / "support").glob("coinflip*"))]
    return [path for package in packages for path in sorted(package.rglob("*.py"))]


def all_offences(
    paths: Iterable[Path], above: frozenset[str] = ABOVE_THE_HUB | {"hub"}
) -> list[str]:
    allowed = host_members()
    return [
        offence for path in paths for offence in offences(path, allowed_host=allowed, above=above)
    ]


def test_no_part_of_the_hub_imports_it_back() -> None:
    """The lobby, the sync, the game base, forms, panels, hands…: the hub calls them;
    none of them imports the hub, names it, or reaches a module above it."""
    parts = hub_parts()
    assert {path.stem for path in parts} >= {"game", "forms", "private", "sync", "lobby", "face"}
    assert all_offences(parts) == []


def test_the_hub_imports_nothing_above_it() -> None:
    tree = ast.parse((UI / "hub.py").read_text(encoding="utf-8"))
    above = {f"cogs._ui.{module}" for module in ABOVE_THE_HUB} | {"cogs._ui.game"}
    assert imports(tree, "cogs._ui") & above == set()


def test_no_game_ui_calls_the_hub() -> None:
    """A game's UI returns what the hub answers (:data:`cogs._ui.face.Answer`); its cog
    hands a command's to :meth:`GameCog.answer`. Neither holds or names the hub."""
    uis = game_uis()
    games = {path.parent.name for path in uis if path.parent.parent.name == "cogs"}
    assert games >= {"hazard", "nihakyu", "strength_duel", "fortunes_winds", "hachihachi"}
    assert any("coinflip" in path.parent.name for path in uis), "the test game is read"
    # A game's cog is mixed with GameCog (cogs/_ui/cog.py), above the hub like the cog.
    assert all_offences(uis, above=ABOVE_THE_HUB - {"cog"} | {"hub"}) == []


# -- bot/storage ---------------------------------------------------------------------------

STORAGE_MAY_IMPORT = frozenset({"bot.games.common", "bot.signals", "bot.meter"})
"""The project's modules below SQL: leaves that import no other module of the bot."""
NEVER_UNDER_STORAGE = ("discord", "cogs")


def project_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path).rpartition(".")[0]
    return {
        name
        for name in imports(tree, package)
        if name == "bot"
        or name.startswith(("bot.", *NEVER_UNDER_STORAGE))
        or name in NEVER_UNDER_STORAGE
    }


def storage_offences(folder: Path, leaves: dict[str, Path]) -> list[str]:
    """Imports of bot/storage (``folder``) of anything above it, and of the leaves it may
    import (``leaves``: module → its file) of anything but each other."""
    found = []

    def allowed(name: str) -> bool:
        # ``from bot.games.common import HOUSE`` reads as bot.games.common.HOUSE too.
        return (
            name == "bot.storage"
            or name.startswith("bot.storage.")
            or any(name == leaf or name.startswith(leaf + ".") for leaf in STORAGE_MAY_IMPORT)
        )

    for path in sorted(folder.rglob("*.py")):
        for name in sorted(project_imports(path)):
            if not allowed(name):
                found.append(f"{path.relative_to(folder.parent)} imports {name}")
    for leaf, path in sorted(leaves.items()):
        for name in sorted(project_imports(path)):
            if not any(name == other or name.startswith(other + ".") for other in leaves):
                found.append(f"{leaf} (under storage) imports {name}")
    return found


def storage_leaves() -> dict[str, Path]:
    return {leaf: ROOT / (leaf.replace(".", "/") + ".py") for leaf in STORAGE_MAY_IMPORT}


def test_storage_imports_nothing_above_it() -> None:
    """SQL sits at the bottom: it may import only leaves (the house's and the computers'
    ids, the signal router, the meter), never the players, the service, the app, the
    cogs or discord.py."""
    assert storage_offences(ROOT / "bot" / "storage", storage_leaves()) == []


# -- each check can fail -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("from cogs._ui.hub import TableHub\n", "imports cogs._ui.hub"),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cogs._ui import hub\n",
         "imports cogs._ui.hub"),
        ("def f():\n    from cogs._ui.cog import GameCog\n", "imports cogs._ui.cog"),
        ("async def f(self):\n    await self.hub.answer(1, 2)\n", "reaches for the hub: .hub"),
        ("def f(bot):\n    return bot.table_hub\n", "reaches for the hub: .table_hub"),
        ("def f(self):\n    self.host.answer(1)\n", "uses its host's answer, not in UIHost"),
    ],
)  # fmt: skip
def test_the_one_way_check_catches_a_call_up(tmp_path: Path, source: str, caught: str) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(source, encoding="utf-8")
    assert [caught in offence for offence in all_offences([bad])] == [True]


def test_the_one_way_check_lets_the_downward_api_through(tmp_path: Path) -> None:
    good = tmp_path / "good.py"
    good.write_text(
        "from cogs._ui.face import Acted\n"
        "async def f(self):\n"
        "    self.host.schedule_refresh(1)\n"
        "    return Acted(await self.host.service.act(1))\n",
        encoding="utf-8",
    )
    assert all_offences([good]) == []


@pytest.mark.parametrize(
    ("source", "caught"),
    [
        ("import discord\n", "imports discord"),
        ("from bot.service import Outcome\n", "imports bot.service"),
        ("def f():\n    from bot import players\n", "imports bot.players"),
        ("from cogs._ui import render\n", "imports cogs._ui"),
    ],
)
def test_the_storage_check_catches_an_import_up(tmp_path: Path, source: str, caught: str) -> None:
    folder = tmp_path / "storage"
    folder.mkdir()
    (folder / "bad.py").write_text(source, encoding="utf-8")
    found = storage_offences(folder, {})
    assert any(offence.endswith(caught) for offence in found), found


def test_the_storage_check_catches_a_leaf_that_is_not_one(tmp_path: Path) -> None:
    leaf = tmp_path / "meter.py"
    leaf.write_text("from bot.app import TanzakuBot\n", encoding="utf-8")
    assert storage_offences(tmp_path / "empty", {"bot.meter": leaf}) == [
        "bot.meter (under storage) imports bot.app",
        "bot.meter (under storage) imports bot.app.TanzakuBot",
    ]
