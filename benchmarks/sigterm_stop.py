"""How long the bot takes to stop on SIGTERM (goal: under 5 s; Docker kills it 10 s after
the signal).

The child of tests/platform/test_sigterm.py (the real bot on SimCord, through the same
`serve` and signal handling as `python -m bot`, a live coin-flip table on an SQLite file)
is started `--runs` times idle and `--runs` times with a click in flight (its action
waits until the signal is in, so the stop must let it finish). Timed: from the SIGTERM
to the child's exit, wall clock (the stop is waiting and I/O as much as CPU).

Printed beside it, measured in the same run, a baseline: a bare Python child that has
imported the same modules (the bot and SimCord) and exits at once on SIGTERM, so a figure
from a busy or slower machine can be read against what any process of this size takes to
exit there (Python's own teardown of those modules; and of a child importing nothing).

    python benchmarks/sigterm_stop.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.platform.test_sigterm import REPO, start_child, wait_for_line

GOAL_SECONDS = 5.0
BARE = (
    "import signal, sys\n"
    "import bot.app, simcord\n"
    "signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))\n"
    "print('ready', flush=True)\n"
    "signal.pause()\n"
)


def stopped_in(child: subprocess.Popen[str]) -> float:
    """SIGTERM the child; seconds until it exited (it must exit 0)."""
    sent = time.monotonic()
    child.send_signal(signal.SIGTERM)
    _, stderr = child.communicate(timeout=60)
    seconds = time.monotonic() - sent
    if child.returncode != 0:
        sys.stdout.write(f"run not valid: the child exited {child.returncode}\n{stderr}\n")
        sys.exit(2)
    return seconds


def bot_stop(directory: Path, run: int, *flags: str) -> float:
    child = start_child(directory / f"bot-{run}-{len(flags)}.db", *flags)
    wait_for_line(child, "in-flight" if flags else "ready")
    return stopped_in(child)


def bare_stop(imports: bool) -> float:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    source = BARE if imports else BARE.replace("import bot.app, simcord\n", "")
    child = subprocess.Popen(
        [sys.executable, "-c", source],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wait_for_line(child, "ready")
    return stopped_in(child)


def line(name: str, seconds: list[float]) -> str:
    return (
        f"  {name}: median {statistics.median(seconds):.2f} s, "
        f"max {max(seconds):.2f} s over {len(seconds)} runs"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        idle = [bot_stop(Path(directory), run) for run in range(args.runs)]
        busy = [bot_stop(Path(directory), run, "--in-flight") for run in range(args.runs)]
    bare = [bare_stop(imports=True) for _ in range(args.runs)]
    empty = [bare_stop(imports=False) for _ in range(args.runs)]
    worst = max(idle + busy)
    verdict = "MET" if worst < GOAL_SECONDS else "NOT MET"
    sys.stdout.write(
        "SIGTERM → exit of the bot (real bot on SimCord, SQLite, a live table)\n"
        + line("idle", idle)
        + "\n"
        + line("a click in flight", busy)
        + f"\n  goal: every stop under {GOAL_SECONDS:.0f} s: {verdict}\n"
        + "baseline, same run:\n"
        + line("a bare Python child with the same imports", bare)
        + "\n"
        + line("a bare Python child importing nothing", empty)
        + "\n"
    )


if __name__ == "__main__":
    main()
