"""Who a 12-round Nuki Hachi-hachi match pings: two members, played to the end through the
real bot (SimCord, SQLite, turn notices on, every member's /notify as it comes), twice on
the same deals and moves: once with both players attentive (each moves 5 s after the
table comes to them), once with alice attentive and bob away (he comes back 60 s after
the table came to him); a turn's further decisions (a drawn card's capture) follow 2 s
later.

A ping is what Discord notifies: a new channel message whose allowed mentions reach a
member, or a DM. The script uses only what every version of the bot has (the slash
command, the hand buttons, SimCord's virtual clock), so the same file measures an older
checkout: copy it into that checkout's benchmarks/ and run it there.

    python benchmarks/notify_pings.py [--rounds 12] [--seed 7] [--attentive 5] [--away 60]
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

NAMES = ("alice", "bob")
CHANNEL_POST = re.compile(r"^/channels/(\d+)/messages$")


def decision(s: hh.State) -> hh.Action:
    """The deadline's default, except that everyone plays rather than drops."""
    actions = hh.legal_actions(s, s.turn)
    playing = [a for a in actions if getattr(a, "play", False) is True]
    return playing[0] if playing else actions[0]


def pings_of(requests: list[object], channel_id: int, members: dict[int, str]) -> Counter[str]:
    """Pings by member: channel posts whose allowed mentions name them, and DMs."""
    found: Counter[str] = Counter()
    for request in requests:
        method, path, body = request.method, request.path, request.json  # type: ignore[attr-defined]
        match = CHANNEL_POST.match(path)
        if method != "POST" or match is None or not isinstance(body, dict):
            continue
        if int(match.group(1)) != channel_id:
            found["DM"] += 1
            continue
        allowed = body.get("allowed_mentions")
        users = allowed.get("users", []) if isinstance(allowed, dict) else None
        if users is None:
            # No allowed mentions: Discord pings every member the content mentions.
            users = re.findall(r"<@!?(\d+)>", str(body.get("content") or ""))
        for user in users:
            found[members.get(int(user), "someone else")] += 1
    return found


async def play(
    rounds: int, seed: int, delays: dict[str, float]
) -> tuple[Counter[str], int, Counter[str]]:
    """The match's pings by member, its moves, and each member's turns (a stretch of
    decisions by one member)."""
    with tempfile.TemporaryDirectory() as directory:
        settings = settings_for_tests(Path(directory), turn_notices=True)
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
                    seats=2,
                    turn_seconds=3600,
                )
            )
            answered(await world[NAMES[1]].click(opened.response.message, label="Join"))
            answered(await host.click(opened.response.message, label="Start"))
            hands = Hands(world)
            by_id = {member.id: member for member in world.members.values()}
            names = {member.id: name for name, member in world.members.items()}
            for member in by_id.values():
                await hands.open(member)
            start = len(env.http_requests)
            moves = 0
            turns: Counter[str] = Counter()
            last: int | None = None
            while not (s := await state(world)).finished:
                assert s.turn is not None
                # A member away comes back for their turn; the turn's next decisions
                # (a drawn card's capture) follow at once.
                delay = delays[names[s.turn]] if s.turn != last else 2.0
                if s.turn != last:
                    turns[names[s.turn]] += 1
                    last = s.turn
                await env.advance_time(delay)
                await do(world, hands, by_id[s.turn], decision(s))
                moves += 1
            return pings_of(env.http_requests[start:], world.channel.id, names), moves, turns
        finally:
            await bot.close()
            await env.shutdown()


def say(line: str = "") -> None:
    sys.stdout.write(line + "\n")


async def run(rounds: int, seed: int, attentive: float, away: float) -> None:
    say(f"2-seat Nuki Hachi-hachi, {rounds} rounds to the end, seed {seed}")
    cases = {
        f"both attentive (each moves {attentive:g} s after the table comes to them)": {
            "alice": attentive,
            "bob": attentive,
        },
        f"alice attentive ({attentive:g} s), bob away ({away:g} s)": {
            "alice": attentive,
            "bob": away,
        },
    }
    for label, delays in cases.items():
        pings, moves, turns = await play(rounds, seed, delays)
        total = sum(pings.values())
        by = ", ".join(f"{who} {pings.get(who, 0)} in {turns[who]} turns" for who in NAMES)
        say(f"  {label}: {moves} moves, {total} pings ({by}; DMs {pings.get('DM', 0)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--attentive", type=float, default=5.0)
    parser.add_argument("--away", type=float, default=60.0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(run(args.rounds, args.seed, args.attentive, args.away))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
