"""What a Nuki Hachi-hachi move makes (issue 36): a picture is composed only when it is
uploaded, and a play sends Discord only what someone will see — the clicker's answer, the
table message and the hand answer of each other member who keeps one open."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from bot.games.dice import ScriptedDice
from bot.games.hachihachi import models as hm
from bot.players.hachihachi import greedy_decide
from cogs._ui.hub import TableHub
from tests.cogs.test_hachihachi_simcord import (  # noqa: F401 (the deal's fixture)
    Hands,
    do,
    simcord_bot,
    snapshot,
    started,
    state,
)


def composed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of rows of every picture composed from now on (every image cache
    emptied first, so a picture shown is a picture made)."""
    # The running bot's module: loading its extensions may import the cogs anew.
    art: Any = sys.modules["cogs.hachihachi.art"]
    art.cache_clear()
    made: list[int] = []
    real = art._compose

    def counting(rows: Any) -> bytes:
        made.append(len(rows))
        return bytes(real(rows))

    monkeypatch.setattr(art, "_compose", counting)
    return made


def kinds(requests: list[Any]) -> list[str]:
    """Each request to Discord by what it is: the click's answer, an edit of the table
    message (a channel message) or of a kept hand answer (an interaction's message)."""
    named = []
    for request in requests:
        if request.method == "POST" and request.path.endswith("/callback"):
            named.append(f"answer {request.json['type']}")
        elif request.method == "PATCH" and request.path.startswith("/webhooks/"):
            named.append("hand edit")
        elif request.method == "PATCH" and request.path.startswith("/channels/"):
            named.append("table edit")
        else:
            named.append(f"{request.method} {request.path}")
    return named


async def test_a_hand_drawn_but_not_shown_is_not_composed(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = await started(simcord_env, "alice", "bob", mizuten=False)
    made = composed(monkeypatch)
    ui: Any = TableHub.of(simcord_env.bot).ui("hachihachi")
    payload = ui.hand(await snapshot(world), world["bob"].id)
    payload.fingerprint()  # what a refresh compares: the picture's key, not its pixels
    assert made == [], "drawing a hand composes no picture until it is uploaded"
    await Hands(world).open(world["bob"])
    assert len(made) == 1, "the hand shown is composed, once"


async def test_a_play_sends_the_answer_the_table_and_each_open_hand_once(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = await started(simcord_env, "alice", "bob", mizuten=False)
    alice, bob = world["alice"], world["bob"]
    hands = Hands(world)
    await hands.open(alice)
    assert (await state(world)).turn == alice.id
    # Plum's animal takes the one Plum chaff on the field: a play in one click.
    made = composed(monkeypatch)
    before = len(simcord_env.http_requests)
    await do(world, hands, alice, hm.Play(card="plum-animal"))
    sent = kinds(simcord_env.http_requests[before:])
    assert sorted(sent) == ["answer 7", "table edit"], "bob's hand is not open"
    assert len(made) == 2, "the table's picture and alice's hand"

    await hands.open(bob)
    s = await state(world)
    assert s.turn is not None
    mover = alice if s.turn == alice.id else bob
    action = greedy_decide(s, s.turn, ScriptedDice())
    made.clear()
    before = len(simcord_env.http_requests)
    await do(world, hands, mover, action)
    sent = kinds(simcord_env.http_requests[before:])
    assert sorted(sent) == ["answer 7", "hand edit", "table edit"], "and the other's hand"
    assert len(made) == 3, "the table's picture and both hands, each once"


async def test_a_refresh_that_changes_nothing_composes_and_sends_nothing(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = await started(simcord_env, "alice", "bob", mizuten=False)
    hands = Hands(world)
    await hands.open(world["alice"])
    await hands.open(world["bob"])
    # Every picture forgotten (a busy bot's cache moves on): the hands are redrawn and
    # compared, and as nothing changed, no picture is made and nothing is sent.
    made = composed(monkeypatch)
    before = len(simcord_env.http_requests)
    ui: Any = TableHub.of(simcord_env.bot).ui("hachihachi")
    await ui.refresh_hands((await snapshot(world)).id)
    assert kinds(simcord_env.http_requests[before:]) == []
    assert made == []
