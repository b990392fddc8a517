"""Every custom-id grammar lives in cogs/_ui/custom_ids.py: each id a button writes is
read back by its own template, and no button writes one inline."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cogs._ui import custom_ids as ids

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("template", "written", "read"),
    [
        (ids.TABLES_TEMPLATE, ids.tables_id("close", 12), {"verb": "close", "arg": "12"}),
        (ids.HISTORY_TEMPLATE, ids.history_id(7, 3), {"table": "7", "page": "3"}),
        (
            ids.BOARD_TEMPLATE,
            ids.board_id(5, "wins", None, 2),
            {"owner": "5", "ranking": "wins", "game": ids.BOARD_ALL_GAMES, "page": "2"},
        ),
        (
            ids.BOARD_TEMPLATE,
            ids.board_id(5, "net", "fortunes_winds", 0),
            {"owner": "5", "ranking": "net", "game": "fortunes_winds", "page": "0"},
        ),
        (ids.SELF_EXCLUDE_TEMPLATE, ids.self_exclude_id(9, 30), {"user": "9", "days": "30"}),
        (ids.TEMPLATE, ids.component_id(4, 2, "bet", "pass"), {"table": "4", "verb": "bet"}),
    ],
)
def test_each_id_is_read_back_by_its_template(
    template: str, written: str, read: dict[str, str]
) -> None:
    match = re.fullmatch(template, written)
    assert match is not None and len(written) <= ids.MAX_LENGTH
    assert {key: match[key] for key in read} == read


def test_no_component_writes_its_custom_id_inline() -> None:
    inline = re.compile(r"""custom_id=f["']|template=r?["']tz""")
    found = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "cogs").rglob("*.py"))
        if path.name != "custom_ids.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if inline.search(line)
    ]
    assert found == []


@pytest.mark.parametrize("table", [0, 7, 10**19 - 1, 10**19, -1, True, "7"])
@pytest.mark.parametrize("ply", [0, 3, 10**9 - 1, 10**9, -2])
@pytest.mark.parametrize(
    ("verb", "arg"),
    [
        ("throw", None),
        ("bet", "with"),
        ("bet", 100),
        ("die", "p03"),
        ("x" * 24, "a" * 40),
        ("x" * 25, None),
        ("bet", "a" * 41),
        ("Bet", None),
        ("bet", "a b"),
        ("bet", "x\n"),
        ("bet", ""),
        ("", None),
        ("bet", -5),
    ],
)
def test_a_table_component_id_is_written_and_checked_as_the_grammar_says(
    table: object, ply: object, verb: str, arg: object
) -> None:
    """component_id's quick way (its verb and argument checked once) writes what
    ComponentId writes, and refuses what it refuses."""
    arg_text = None if arg is None else str(arg)
    try:
        expected: str | type[ValueError] = str(ids.ComponentId(table, ply, verb, arg_text))  # type: ignore[arg-type]
    except ValueError:
        expected = ValueError
    for _ in range(2):  # the second time from the remembered check
        if expected is ValueError:
            with pytest.raises(ValueError):
                ids.component_id(table, ply, verb, arg)  # type: ignore[arg-type]
        else:
            assert ids.component_id(table, ply, verb, arg) == expected  # type: ignore[arg-type]
