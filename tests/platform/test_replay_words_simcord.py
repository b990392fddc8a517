"""The replay page as a player reads it (issue 27): names and words, not step names and
ids; no stray code marks; the rolls listed under a header with whose each was; the
commitment check and the rolls check each with its own message; and the one check that
matters named (the commitment the table's message showed before play)."""

from __future__ import annotations

import re

from bot.replay import page_html
from cogs._ui.replay import replay_page
from tests.cogs.test_nihakyu_simcord import choose, started
from tests.platform.test_replay_page import chromium_dom, needs_chromium, play_a_hazard_table
from tests.support.replay import data_of
from tests.support.sim import make_world

REPR = re.compile(r"\w\(\w+=|__\w+__|players=|\[\d{6,}")


async def test_the_pages_steps_are_words_with_names(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    await play_a_hazard_table(world, rounds=1)
    data = data_of(await replay_page(simcord_env.bot, 1, world.guild.id))
    said = [(step["actor"], step["said"]) for step in data["steps"]]
    assert said[:3] == [
        ("@alice", "opened the table"),
        ("@bob", "joined"),
        ("@alice", "started the game"),
    ], said
    assert any(words.startswith("calls a main of 7") for _who, words in said), said
    assert not [s for _who, s in said if REPR.search(s)], said
    assert all(not REPR.search(step.get("shown", "")) for step in data["steps"])


async def test_nihakyus_page_shows_no_code_marks_round_its_bars(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    await started(world, "alice", "bob", ante=10, starting_stamina=20)
    dice.extend([1, 20])
    await choose(world, world["alice"])
    await choose(world, world["bob"])
    data = data_of(await replay_page(simcord_env.bot, 1, world.guild.id))
    shown = "\n".join(step.get("shown", "") for step in data["steps"])
    assert "▰" in shown, "the Stamina bars are drawn"
    assert "`" not in shown
    chosen = [step["said"] for step in data["steps"] if step["said"].startswith("chose")]
    assert chosen == ["chose Roll (lose 1d20)"] * 2


@needs_chromium
async def test_a_wrong_commitment_alone_is_told_apart_from_the_rolls(simcord_env, tmp_path):
    world = await make_world(simcord_env, "alice", "bob")
    await play_a_hazard_table(world, rounds=1)
    page = await replay_page(simcord_env.bot, 1, world.guild.id)
    good = tmp_path / "good.html"
    good.write_text(page, encoding="utf-8")
    dom = chromium_dom(good, tmp_path / "profile-good")
    rolls = sum(len(step["draws"]) for step in data_of(page)["steps"])
    # The list of rolls has a header and says whose roll each was.
    assert "<th>Whose</th>" in dom and "<th>Roll</th>" in dom
    assert dom.count("<td>@alice</td>") + dom.count("<td>@bob</td>") == rolls
    assert 'id="lobby-check"' in dom and "before play" in dom

    data = data_of(page)
    data["commitment"] = "0" * 64  # the seed no longer matches: the rolls still do
    wrong = tmp_path / "wrong.html"
    wrong.write_text(page_html({k: v for k, v in data.items() if k not in ("format", "version")}))
    dom = chromium_dom(wrong, tmp_path / "profile-wrong")
    assert 'id="seed-check" data-matched="false"' in dom
    draws = re.search(r'<span class="(\w+)" id="draws-check">([^<]*)<', dom)
    assert draws is not None, dom[:3000]
    assert draws.group(1) == "ok" and draws.group(2).startswith(f"✅ All {rolls} rolls")
    assert "❌ All" not in dom, "no red cross on a positive sentence"
    assert 'data-state="mismatch"' in dom, "the page as a whole does not pass"
