"""The pictures the composer pastes from cached rows are the ones it drew before issue 36,
pixel for pixel: whole seeded matches (two and three seats, English and Japanese), every
table picture and every private hand of every position (and each two-match step),
composed both ways and decoded with Pillow."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image

from bot.games import hachihachi as hh
from bot.games.hachihachi import models as hm
from bot.i18n import use_locale
from bot.players.hachihachi import greedy_decide
from cogs.hachihachi import art, words
from cogs.hachihachi.art import Row
from cogs.hachihachi.ui import table_rows
from tests.support import hachihachi_pictures as reference
from tests.support.dice import SeededDice

NAMES = {101: "alice", 102: "ボブ", 103: "carol"}


def name(player: int) -> str:
    return NAMES[player]


def pictures(state: hm.State) -> Iterator[list[Row]]:
    """The rows of every picture the table shows at ``state``: the table's (its header
    first, as the UI writes it) and each seated player's hand, with the two-match step of
    every hand card that has one."""
    rows = table_rows(state, name)
    header = words.picture_header(state, name)
    if header is not None:
        rows.insert(0, Row(header, (), layout="header"))
    yield rows
    for player in state.seats:
        hand = list(state.hands.get(player, []))
        yield table_rows(state, name, hand=hand)
        pickings = {
            a.card
            for a in hh.legal_actions(state, player)
            if isinstance(a, hm.Play) and a.capture is not None
        }
        for card in sorted(pickings):
            yield table_rows(state, name, hand=hand, picking=card)


def positions(seats: int, seed: int, rounds: int) -> Iterator[hm.State]:
    dice = SeededDice(seed)
    rules = hh.Rules(stake_per_kan=0, rounds=rounds, first_dealer="first_seat")
    state = hh.start(rules, list(NAMES)[:seats], dice)
    while not state.finished:
        yield state
        assert state.turn is not None
        action = greedy_decide(state, state.turn, dice)
        assert action is not None
        state, _events = hh.act(state, state.turn, action, dice)
    yield state


def pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    image = Image.open(io.BytesIO(png))
    return image.size, image.convert("RGB").tobytes()


def compare(rows: list[Row], seen: set[tuple[Row, ...]]) -> None:
    key = tuple(rows)
    if key in seen:
        return
    seen.add(key)
    new = art.render_rows(rows, filename="field.png")
    assert pixels(new.png) == pixels(reference.compose(rows)), rows
    assert new.alt == reference.alt(rows)


@pytest.mark.parametrize(("locale", "seats", "seed"), [("en", 2, 3), ("ja", 2, 5), ("en", 3, 8)])
def test_every_picture_of_a_match_is_the_old_composers_pixel_for_pixel(
    locale: str, seats: int, seed: int
) -> None:
    art.cache_clear()
    seen: set[tuple[Row, ...]] = set()
    with use_locale(locale):
        for state in positions(seats, seed, rounds=3):
            for rows in pictures(state):
                compare(rows, seen)
    assert len(seen) > 100, "a match shows many pictures"
    # The rows were drawn once each and pasted into many pictures.
    strips = art._strip.cache_info()
    assert strips.hits > strips.misses
