"""The sage-or-shoubu preview names what the table will pay: whole coins as the round's
settlement rounds them (largest remainder on the running score), never a half coin
("3½ ryō") that is never paid."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.games import hachihachi as hh
from bot.games.hachihachi.calls import call_stakes, paid
from bot.games.hachihachi.match import coins
from bot.i18n import use_locale
from cogs.hachihachi.words import call_text
from tests.games.test_hachihachi_engine import A, B, begin, built, deal_order, step


def poetry_ribbons_call(**options: Any) -> hh.State:
    """A completes Poetry Ribbons (7 kan) on a small field: A's call."""
    field = ["cherry-chaff-1", "pine-chaff-1", "plum-chaff-1", "peony-chaff-1",
             "susuki-chaff-1", "maple-chaff-1"]  # fmt: skip
    order = deal_order([[], ["cherry-ribbon"]], field, ["willow-chaff"])
    state, _ = begin((A, B), order, rounds=2, **options)
    piles = {A: ["pine-ribbon", "pine-chaff-2", "plum-ribbon", "plum-chaff-2"], B: []}
    state, _ = step(built(state, piles=piles, multiplier=1), A, hh.Play(card="cherry-ribbon"))
    assert state.phase == "call" and state.turn == A
    return state


def test_the_preview_shows_whole_coins_as_settled() -> None:
    state = poetry_ribbons_call(stake_per_kan=1)
    stakes = call_stakes(state, A)
    assert stakes is not None and stakes.kan == 7 and stakes.half_coins == 3.5
    # Half of 7 kan is 35 points: 3½ coins exactly, settled as whole coins.
    scores = {A: 35, B: -35}
    assert stakes.half_paid == coins(scores, state.seats, state.rules)[A] == 4
    with use_locale("en"):
        text = call_text(SimpleNamespace(game=state, currency="ryō"), A)  # type: ignore[arg-type]
    assert text is not None
    assert "½" not in text, text
    assert "pays you **7 ryō**" in text and "cancel for half (4 ryō)" in text, text


def test_what_a_half_pays_follows_the_running_score() -> None:
    # The running score is made whole, not the payment: A at -5 points is at 0 coins (the
    # tied half went A's way by seat order), at 30 points 3 coins: a half pays A 3, not 4.
    state = built(poetry_ribbons_call(stake_per_kan=1), scores={A: -5, B: 5})
    assert paid(state, A, B, 35) == 3
    stakes = call_stakes(state, A)
    assert stakes is not None and stakes.half_paid == 3 and stakes.shoubu_paid == 7
