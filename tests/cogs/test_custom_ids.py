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
