"""The payload checker every SimCord test leans on must itself catch what it looks for."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.discord_limits import command_problems, payload_problems


def button(custom_id: str = "tz:1:0:join", label: str = "Join") -> dict[str, Any]:
    return {"type": 2, "custom_id": custom_id, "label": label}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def test_a_payload_within_every_limit_passes() -> None:
    payload = {
        "content": "x" * 2000,
        "embeds": [
            {"title": "t", "description": "d" * 4096, "fields": [{"name": "n", "value": "v"}]}
        ],
        "components": [row(*[button() for _ in range(5)]) for _ in range(5)],
    }
    assert payload_problems(payload) == []


@pytest.mark.parametrize(
    ("payload", "complaint"),
    [
        ({"content": "x" * 2001}, "content has 2001 > 2000"),
        ({"embeds": [{}] * 11}, "11 > 10 embeds"),
        ({"embeds": [{"description": "d" * 4097}]}, "embed description has 4097"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "26 > 25 fields"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "field value has 1025"),
        ({"embeds": [{"description": "d" * 4000, "footer": {"text": "f" * 2048}}]}, "6048 > 6000"),
        ({"components": [row(button())] * 6}, "6 > 5 action rows"),
        ({"components": [row(*[button()] * 6)]}, "6 > 5 buttons"),
        ({"components": [row(button(custom_id="c" * 101))]}, "longer than 100"),
        ({"components": [row(button(label="l" * 81))]}, "longer than 80"),
        (
            {"components": [row({"type": 3, "custom_id": "s", "options": [{}] * 26})]},
            "26 > 25 options",
        ),
    ],
)
def test_each_broken_limit_is_named(payload: dict[str, Any], complaint: str) -> None:
    problems = payload_problems(payload)
    assert any(complaint in problem for problem in problems), problems


@pytest.mark.parametrize(
    ("command", "complaint"),
    [
        ({"name": "Hazard", "description": "ok"}, "does not match"),
        ({"name": "a" * 33, "description": "ok"}, "does not match"),
        ({"name": "ok", "description": "d" * 101}, "longer than 100"),
        (
            {
                "name": "ok",
                "description": "ok",
                "options": [{"name": "Bad Name", "description": "o"}],
            },
            "ok › command name 'Bad Name'",
        ),
        (
            {
                "name": "ok",
                "description": "ok",
                "options": [{"name": "kind", "description": "o", "choices": [{"name": "c" * 101}]}],
            },
            "choice",
        ),
    ],
)
def test_each_bad_command_is_named(command: dict[str, Any], complaint: str) -> None:
    problems = command_problems(command)
    assert any(complaint in problem for problem in problems), problems
    assert command_problems({"name": "hazard", "description": "Hazard"}) == []
