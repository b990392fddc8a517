"""What turn notices cost a busy channel: a 4-seat Nuki Hachi-hachi match played to the
end through the real bot (SimCord, SQLite), once with turn notices on and once off, the
same deals and the same moves; Discord requests per move and per turn, by kind.

Every decision is the first legal action (the deadline's default) but play rather than
drop, made through the
deciding member's own hand answer, as in tests/cogs/test_hachihachi_simcord.py. A "turn"
is a stretch of decisions by one member (a play and its capture choice are one turn).

    python benchmarks/notify_traffic.py [--rounds 4] [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcord

from bot.app import create_bot
from bot.games import hachihachi as hh
from tests.cogs.test_hachihachi_simcord import Hands, do, state
from tests.conftest import settings_for_tests
from tests.support.coinflip import TEST_CATALOG
from tests.support.dice import SeededDice
from tests.support.sim import answered, make_world

NAMES = ("alice", "bob", "carol", "dave")
KINDS = (
    ("channel posts", "POST", re.compile(r"^/channels/(\d+)/messages$"), True),
    ("DMs", "POST", re.compile(r"^/channels/(\d+)/messages$"), False),
    ("deletes", "DELETE", re.compile(r"^/channels/\d+/messages/\d+$"), None),
    ("table edits", "PATCH", re.compile(r"^/channels/\d+/messages/\d+$"), None),
    ("click answers", "POST", re.compile(r"^/interactions/"), None),
    ("private edits", "PATCH", re.compile(r"^/webhooks/"), None),
)


def kind_of(method: str, path: str, channel_id: int) -> str:
    for name, verb, pattern, in_channel in KINDS:
        match = pattern.match(path)
        if method != verb or match is None:
            continue
        if in_channel is not None and (int(match.group(1)) == channel_id) != in_channel:
            continue
        return name
    return "other"


def decision(s: hh.State) -> hh.Action:
    """The deadline's default, except that everyone plays rather than drops (where all
    drop, the deal starts again and the match never ends)."""
    actions = hh.legal_actions(s, s.turn)
    playing = [a for a in actions if getattr(a, "play", False) is True]
    return playing[0] if playing else actions[0]


async def play(notices: bool, rounds: int, seed: int) -> tuple[Counter[str], int, int, int]:
    """The match's requests by kind, its moves, turns and the most notices seen at once."""
    with tempfile.TemporaryDirectory() as directory:
        settings = settings_for_tests(Path(directory), turn_notices=notices)
        dice = SeededDice(seed)
        bot = create_bot(settings, catalog=TEST_CATALOG, dice_factory=lambda row: dice)
        env = simcord.Env(bot)
        await env.start()
        try:
            world = await make_world(env, *NAMES)
            host = world[NAMES[0]]
            opened = answered(
                await host.slash(
                    world.channel,
                    "hanafuda open",
                    stake_per_kan=1,
                    rounds=rounds,
                    seats=4,
                    turn_seconds=3600,
                )
            )
            for name in NAMES[1:]:
                answered(await world[name].click(opened.response.message, label="Join"))
            answered(await host.click(opened.response.message, label="Start"))
            hands = Hands(world)
            by_id = {member.id: member for member in world.members.values()}
            for member in by_id.values():
                await hands.open(member)
            start = len(env.http_requests)
            moves = turns = most = 0
            last: int | None = None
            while not (s := await state(world)).finished:
                assert s.turn is not None
                if s.turn != last:
                    turns += 1
                    last = s.turn
                await do(world, hands, by_id[s.turn], decision(s))
                moves += 1
                shown = sum(
                    1 for m in world.channel.history() if (m.content or "").startswith("🔔")
                )
                most = max(most, shown)
            counts: Counter[str] = Counter(
                kind_of(r.method, r.path, world.channel.id) for r in env.http_requests[start:]
            )
            return counts, moves, turns, most
        finally:
            await bot.close()
            await env.shutdown()


def say(line: str = "") -> None:
    sys.stdout.write(line + "\n")


async def run(rounds: int, seed: int) -> None:
    results = {notices: await play(notices, rounds, seed) for notices in (False, True)}
    names = [name for name, *_ in KINDS] + ["other"]
    say(f"4-seat Nuki Hachi-hachi, {rounds} rounds to the end, seed {seed}")
    for notices, (counts, moves, turns, most) in results.items():
        label = "notices on" if notices else "notices off"
        say(f"\n{label}: {moves} moves, {turns} turns; most notices in the channel at once: {most}")
        say(f"  {'request':<15}{'total':>7}{'per move':>10}{'per turn':>10}")
        for name in names:
            total = counts.get(name, 0)
            say(f"  {name:<15}{total:>7}{total / moves:>10.2f}{total / turns:>10.2f}")
    off, on = results[False][0], results[True][0]
    extra = sum(on.values()) - sum(off.values())
    turns = results[True][2]
    say(
        f"\nturn notices add {extra} requests ({extra / turns:.2f} a turn): "
        f"{on['channel posts'] - off['channel posts']} channel posts and "
        f"{on['deletes'] - off['deletes']} deletes"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(run(args.rounds, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
