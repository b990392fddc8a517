"""The UI kit pieces Fortunes and Winds added: Picks (toggle buttons whose choice lives in
their custom ids) and the amount picker's notes."""

from __future__ import annotations

import pytest

from bot.errors import NotAllowed
from cogs._ui.custom_ids import ComponentId
from cogs._ui.picks import Picks

PICKS = Picks(("earth", "water", "fire", "air"), verb="die", confirm_verb="again")


def ids(items) -> list[ComponentId]:
    parsed = [ComponentId.parse(item.custom_id) for item in items]
    assert all(parsed)
    return parsed  # type: ignore[return-value]


def test_a_choice_round_trips_through_its_argument():
    for chosen in ([], ["earth"], ["water", "air"], ["earth", "water", "fire", "air"]):
        assert PICKS.decode(PICKS.encode(chosen)) == chosen
    assert PICKS.encode(["air", "earth"]) == PICKS.encode(["earth", "air"]) == "p03"


@pytest.mark.parametrize("arg", [None, "", "p", "p9", "p00", "x01", "p²", "locked-0", "none1"])
def test_a_malformed_choice_is_refused(arg):
    with pytest.raises(NotAllowed):
        PICKS.decode(arg)


def test_each_toggle_carries_the_choice_its_click_makes():
    labels = {die: die.capitalize() for die in PICKS.items}
    drawn = PICKS.draw(7, 12, labels, ["water"], ["earth"], "Roll again", row=1)
    parsed = ids(drawn)
    assert [p.verb for p in parsed] == ["die"] * 4 + ["again"]
    assert {p.ply for p in parsed} == {12} and {p.table for p in parsed} == {7}
    earth, water, fire = drawn[:3]
    assert earth.disabled and PICKS.locked_item(parsed[0].arg) == "earth"
    assert PICKS.decode(parsed[1].arg) == []  # unpick water
    assert PICKS.decode(parsed[2].arg) == ["water", "fire"]
    assert PICKS.decode(parsed[3].arg) == ["water", "air"]
    assert PICKS.decode(parsed[4].arg) == ["water"]  # confirm: the choice as it stands
    assert water.style.name == "success" and fire.style.name == "secondary"
    assert len({p.arg for p in parsed}) == 5, "custom ids are unique on a message"


def test_locked_item_reads_only_locked_arguments():
    assert PICKS.locked_item("locked-3") == "air"
    assert PICKS.locked_item("locked-4") is None and PICKS.locked_item("p0") is None
