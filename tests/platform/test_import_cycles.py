"""No import circle among the cogs/ modules: every arrow points one way, so any module can
be read (and imported) after the ones it names. Every import counts — one inside a
function or under ``TYPE_CHECKING`` too, since each is a dependency a reader follows."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Module → the modules of ``package`` it imports (``from a import b`` names the module
    ``a.b`` when that is one, else ``a``)."""
    paths = {module_name(p, root): p for p in sorted((root / package).rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = name.split(".")
                    anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    targets.add(full if full in paths else base)
        graph[name] = {t for t in targets if t in paths and t != name}
    return graph


def a_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (its modules in order, the first repeated), if any."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)) is not None:
            return found
    return None


def test_every_cogs_module_imports() -> None:
    for name in sorted(import_graph(ROOT, "cogs")):
        importlib.import_module(name)


def test_no_import_circle_among_cogs_modules() -> None:
    graph = import_graph(ROOT, "cogs")
    assert graph.get("cogs._ui.hub"), "the graph was read"
    assert a_cycle(graph) is None


@pytest.mark.parametrize(
    ("files", "cycle"),
    [
        (
            {"a.py": "from pkg import b\n", "b.py": "def f():\n    import pkg.a\n"},
            ["pkg.a", "pkg.b", "pkg.a"],
        ),
        (
            {
                "a.py": "import typing\nif typing.TYPE_CHECKING:\n    from .b import X\n",
                "b.py": "from pkg.a import Y\n",
            },
            ["pkg.a", "pkg.b", "pkg.a"],
        ),
        ({"a.py": "from pkg import b\n", "b.py": "import os\n"}, None),
    ],
)
def test_the_checker_finds_a_circle(
    tmp_path: Path, files: dict[str, str], cycle: list[str] | None
) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    for name, source in files.items():
        (package / name).write_text(source, encoding="utf-8")
    assert a_cycle(import_graph(tmp_path, "pkg")) == cycle
