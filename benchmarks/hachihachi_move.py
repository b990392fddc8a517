"""What a Nuki Hachi-hachi move costs the bot, and where it goes (issue 36).

Two members play a seeded match through the real bot (SimCord, SQLite), every move a click
on the mover's hand answer (each member keeps one open, as players do), each decision the
greedy player's (``bot.players.hachihachi.greedy_decide``), so the game is the same on
every run and every checkout that has these functions.

Every card's tile is drawn before the first move (a tile is drawn once a process). Printed:
CPU per move (``time.process_time`` around the clicks, SimCord's own work
included), the median of ``--runs`` matches; then, from one more match with timers around
the steps (``time.thread_time``, the bot's thread's CPU, less the timer's own cost), each
step's milliseconds a move and calls a move:

- render: the table message (``render_game``) and the private hands (``hand``), pictures
  and translation included;
- pictures: a picture made (``art._compose``; served from the cache it is not made), of
  which quantizing to a palette and saving the PNG; and its alt text (inside ``_compose``
  before issue 36, beside it since);
- translation look-ups (``bot.i18n.translate`` and ``translate_plural``, wherever called);
- engine: the move's ``legal_actions`` and ``act`` on the state before it, timed apart;
- pictures uploaded (a picture is composed when first uploaded since issue 36's second
  round, so this step holds the pictures made) and the Discord requests a move sends, by
  kind (the click's answer, the table message's edit, a kept hand answer's edit).

    python benchmarks/hachihachi_move.py [--rounds 2] [--seed 7] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcord
from PIL import Image

from bot import i18n
from bot.app import create_bot
from bot.games import hachihachi as hh
from bot.games.dice import ScriptedDice
from bot.games.hachihachi.cards import CARDS
from bot.players.hachihachi import greedy_decide
from cogs._ui import primitives
from tests.cogs.test_hachihachi_simcord import Hands, do, state
from tests.conftest import settings_for_tests
from tests.support.coinflip import TEST_CATALOG
from tests.support.dice import SeededDice
from tests.support.sim import answered, make_world

NAMES = ("alice", "bob")


class Timers:
    """Milliseconds and calls by step, from wrappers put round the steps' functions."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.undo: list[tuple[Any, str, Any]] = []
        self.overhead = 0.0
        self.overhead = self.calibrate()

    def calibrate(self) -> float:
        """The milliseconds a timer adds to the call it times (two clock reads)."""
        reads = 20_000
        started = time.thread_time()
        for _ in range(reads):
            time.thread_time()
        return (time.thread_time() - started) / reads * 1000

    def wrap(self, owner: Any, name: str, step: str) -> None:
        real = getattr(owner, name)

        @functools.wraps(real)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            try:
                return real(*args, **kwargs)
            finally:
                self.add(step, (time.thread_time() - started) * 1000 - self.overhead)

        setattr(owner, name, timed)
        self.undo.append((owner, name, real))

    def add(self, step: str, ms: float) -> None:
        self.ms[step] = self.ms.get(step, 0.0) + ms
        self.calls[step] = self.calls.get(step, 0) + 1

    def restore(self) -> None:
        for owner, name, real in reversed(self.undo):
            setattr(owner, name, real)


ORDER = (
    "render: table message",
    "render: private hands",
    "pictures made",
    "  quantize",
    "  PNG save",
    "  alt text",
    "translation look-ups",
    "engine",
    "pictures uploaded",
)


def install(timers: Timers) -> None:
    # The modules the running bot loaded (loading its extensions imports the cogs anew).
    art = sys.modules["cogs.hachihachi.art"]
    ui = sys.modules["cogs.hachihachi.ui"].HachiHachiUI
    timers.wrap(ui, "render_game", "render: table message")
    timers.wrap(ui, "hand", "render: private hands")
    timers.wrap(art, "_compose", "pictures made")
    timers.wrap(Image.Image, "quantize", "  quantize")
    timers.wrap(Image.Image, "save", "  PNG save")
    timers.wrap(art, "_alt", "  alt text")
    timers.wrap(i18n, "translate", "translation look-ups")
    timers.wrap(i18n, "translate_plural", "translation look-ups")
    timers.wrap(primitives.Picture, "file", "pictures uploaded")


def warm_tiles() -> None:
    """Every card's tile drawn, as a running bot has them after its first pictures (a new
    bot imports the cogs anew, with empty caches; a tile is drawn once a process)."""
    art = sys.modules["cogs.hachihachi.art"]
    for card in CARDS:
        art.tile(card)
        art.small_tile(card)


def engine_ms(s: hh.State, action: hh.Action, timers: Timers) -> None:
    """The engine's part of a move, timed on its own (it needs no dice during play)."""
    assert s.turn is not None
    started = time.thread_time()
    try:
        hh.legal_actions(s, s.turn)
        hh.act(s, s.turn, action, ScriptedDice())
    except Exception:  # a move that needs the dice (a new deal): not counted
        return
    timers.add("engine", (time.thread_time() - started) * 1000)


def request_kind(request: Any) -> str:
    """A request to Discord by what it is."""
    if request.method == "POST" and request.path.endswith("/callback"):
        return f"answer (type {request.json['type']})"
    if request.method == "PATCH" and request.path.startswith("/webhooks/"):
        return "hand answer edit"
    if request.method == "PATCH" and request.path.startswith("/channels/"):
        return "table message edit"
    if request.method == "POST" and request.path.startswith("/channels/"):
        return "channel message"
    return f"{request.method} other"


async def play(
    rounds: int, seed: int, timers: Timers | None, requests: Counter[str] | None = None
) -> tuple[float, int]:
    """CPU seconds of the moves' clicks and the number of moves of one seeded match
    (``requests``: counts the moves' Discord requests by kind)."""
    with tempfile.TemporaryDirectory() as directory:
        settings = settings_for_tests(Path(directory))
        dice = SeededDice(seed)
        bot = create_bot(settings, catalog=TEST_CATALOG, dice_factory=lambda row: dice)
        env = simcord.Env(bot)
        await env.start()
        try:
            world = await make_world(env, *NAMES)
            host = world[NAMES[0]]
            opened = answered(
                await host.slash(
                    world.channel, "hanafuda open", stake_per_kan=1, rounds=rounds,
                    seats=2, turn_seconds=3600, mizuten=False,
                )
            )  # fmt: skip
            answered(await world[NAMES[1]].click(opened.response.message, label="Join"))
            answered(await host.click(opened.response.message, label="Start"))
            hands = Hands(world)
            by_id = {member.id: member for member in world.members.values()}
            for member in by_id.values():
                await hands.open(member)
            warm_tiles()
            if timers is not None:
                install(timers)
            cpu = 0.0
            moves = 0
            while not (s := await state(world)).finished:
                assert s.turn is not None
                action = greedy_decide(s, s.turn, dice)
                assert action is not None
                if timers is not None:
                    engine_ms(s, action, timers)
                before = len(env.http_requests)
                started = time.process_time()
                await do(world, hands, by_id[s.turn], action)
                cpu += time.process_time() - started
                if requests is not None:
                    requests.update(request_kind(r) for r in env.http_requests[before:])
                moves += 1
            return cpu, moves
        finally:
            if timers is not None:
                timers.restore()
            await bot.close()
            await env.shutdown()


def say(line: str = "") -> None:
    sys.stdout.write(line + "\n")


def report(rounds: int, seed: int, runs: int) -> None:
    per_move = []
    moves = 0
    for _ in range(runs):
        cpu, moves = asyncio.run(play(rounds, seed, None))
        per_move.append(cpu / moves * 1000)
    say(
        f"Nuki Hachi-hachi, 2 seats, {rounds} rounds, seed {seed}: {moves} moves a match "
        f"(greedy decisions, clicked on the hand answers)"
    )
    say(
        f"  CPU a move (SimCord included): median {statistics.median(per_move):.2f} ms "
        f"of {runs} matches (range {min(per_move):.2f}–{max(per_move):.2f})"
    )
    timers = Timers()
    requests: Counter[str] = Counter()
    _cpu, moves = asyncio.run(play(rounds, seed, timers, requests))
    say("  by step (CPU ms a move; indented steps are parts of the one above):")
    for step in ORDER:
        ms, calls = timers.ms.get(step, 0.0), timers.calls.get(step, 0)
        say(f"    {step:28s} {ms / moves:7.2f} ms  ({calls / moves:6.1f} calls a move)")
    total = sum(requests.values())
    say(f"  Discord requests a move: {total / moves:.2f}")
    for kind, n in sorted(requests.items()):
        say(f"    {kind:28s} {n / moves:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    report(args.rounds, args.seed, args.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
