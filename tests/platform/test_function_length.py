"""No function in bot/ or cogs/ runs over 60 lines unless its docstring says why.

A long procedure reads better as named steps (``score_round``'s ledger, pokerkit's
``_begin_<phase>``/``_end_<phase>``). When one is long on purpose, its docstring carries the
marker ``Long because:`` followed by the reason, e.g. ``Long because: the composition root
wires every part in one place.`` A function's length is counted from its ``def`` line to its
last line, docstring and comments included (decorators not).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "cogs")
MAX_LINES = 60
MARKER = "Long because:"

Function = ast.FunctionDef | ast.AsyncFunctionDef


def long_functions(source: str, max_lines: int = MAX_LINES) -> Iterator[tuple[str, int, int]]:
    """(name, first line, length) of each function in `source` over `max_lines` lines
    whose docstring gives no reason (:data:`MARKER`)."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, Function):
            continue
        assert node.end_lineno is not None
        length = node.end_lineno - node.lineno + 1
        if length > max_lines and MARKER not in (ast.get_docstring(node) or ""):
            yield node.name, node.lineno, length


def test_no_function_is_long_without_a_reason() -> None:
    found = []
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            relative = path.relative_to(REPO).as_posix()
            for name, line, length in long_functions(path.read_text(encoding="utf-8")):
                found.append(f"{relative}:{line} {name}: {length} lines")
    assert not found, (
        f"functions over {MAX_LINES} lines: split them into named steps, or say "
        f"'{MARKER} <reason>' in the docstring:\n" + "\n".join(found)
    )


def _synthetic(lines: int, docstring: str) -> str:
    body = "\n".join(f"    x{i} = {i}" for i in range(lines - 2))
    return f'def step():\n    """{docstring}"""\n{body}\n'


def test_a_long_function_without_a_reason_is_caught() -> None:
    source = _synthetic(MAX_LINES + 1, "Does many things.")
    assert list(long_functions(source)) == [("step", 1, MAX_LINES + 1)]


def test_a_long_function_with_a_reason_and_a_short_one_pass() -> None:
    assert list(long_functions(_synthetic(MAX_LINES + 1, f"{MARKER} a table of cases."))) == []
    assert list(long_functions(_synthetic(MAX_LINES, "Does many things."))) == []


def test_a_long_method_and_a_nested_coroutine_are_caught() -> None:
    inner = "\n".join(f"            y{i} = {i}" for i in range(MAX_LINES))
    source = f"class Host:\n    def outer(self):\n        async def inner():\n{inner}\n"
    assert [name for name, _, _ in long_functions(source)] == ["outer", "inner"]
