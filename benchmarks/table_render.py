"""What drawing a table message and preparing its answer costs, per game (issue 36).

Each game is played out by its engine (the seeded playouts of the tests,
tests/cogs/test_dice_games_japanese.py and test_table_components.py: Hazard, Nihakyu,
Fortunes and Winds, the Strength Duel), and every table message along the way is drawn
as a click's answer draws it — its latest events read back from the log, as the table
service serves them — in English and in Japanese, ``--repeat`` times over. No
Discord, no database: the CPU of the three steps the loopback benchmark calls render,
view and answer, apart:

- render: the frame (turn, status, event sentences, seats) and its embed;
- view: the controls (``Game.controls``) and the Watch button;
- answer: what the click's answer makes of the payload before it goes out: discord.py's
  request body (the embed's and the components' dicts, as ``edit_message`` builds them,
  and its JSON) and the message's fingerprint (``Payload.fingerprint``).

Printed: microseconds a table message for each step and game, the median of ``--runs``.
The same file runs on an older checkout for the figure before (``PYTHONPATH=<checkout>``).

    python benchmarks/table_render.py [--repeat 20] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import discord
from discord.utils import MISSING, _to_json
from discord.webhook.async_ import interaction_message_response_params

from bot.i18n import use_locale
from cogs._ui.frame import frame_of
from cogs._ui.lobby import with_watch
from cogs._ui.primitives import Payload
from cogs.fortunes_winds.ui import FortunesUI
from cogs.hazard.ui import HazardUI
from cogs.nihakyu.ui import NihakyuUI
from cogs.strength_duel.ui import DuelUI
from tests.cogs.test_dice_games_japanese import (
    A,
    B,
    duel_session,
    hazard_session,
    hub,
    nihakyu_session,
)
from tests.cogs.test_table_components import as_served, fortunes_session

GAMES: dict[str, tuple[Any, Callable[[], Any]]] = {
    "hazard": (HazardUI, hazard_session),
    "nihakyu": (NihakyuUI, nihakyu_session),
    "fortunes_winds": (FortunesUI, fortunes_session),
    "strength_duel": (DuelUI, lambda: duel_session("duel", [A, B])),
}
STEPS = ("render", "view", "answer")


def one_game(ui_class: Any, session: Callable[[], Any], repeat: int) -> dict[str, float]:
    """Microseconds a table message, by step, over the game's playout."""
    ui = ui_class(hub())
    spent = dict.fromkeys(STEPS, 0.0)
    drawn = 0
    clock = time.thread_time
    for _ in range(repeat):
        # Each time anew (untimed): no sentence remembered from the last time (a checkout
        # before issue 36 remembers none).
        snaps = as_served(session())
        getattr(ui.sentences, "_said", {}).clear()
        for locale in ("en", "ja"):
            with use_locale(locale):
                for snap, events in snaps:
                    started = clock()
                    frame = frame_of(ui, snap, events)
                    embed = frame.embed()
                    rendered = clock()
                    view = None if frame.finished else ui.controls(snap)
                    view = with_watch(view, snap.id)
                    viewed = clock()
                    payload = Payload(embed, view, "")
                    params = interaction_message_response_params(
                        type=7,
                        content=payload.content,
                        embed=payload.embed,
                        view=payload.view or MISSING,
                        previous_allowed_mentions=discord.AllowedMentions.none(),
                    )
                    _to_json(params.payload)
                    payload.fingerprint()
                    answered = clock()
                    spent["render"] += rendered - started
                    spent["view"] += viewed - rendered
                    spent["answer"] += answered - viewed
                    drawn += 1
    return {step: seconds / drawn * 1e6 for step, seconds in spent.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    say = sys.stdout.write
    say(f"µs a table message (median of {args.runs} runs; range)\n")
    say(f"{'game':16s}" + "".join(f"{step:>22s}" for step in (*STEPS, "total")) + "\n")
    for name, (ui_class, session) in GAMES.items():
        runs = [one_game(ui_class, session, args.repeat) for _ in range(args.runs)]
        cells = []
        for step in (*STEPS, "total"):
            values = [sum(r.values()) if step == "total" else r[step] for r in runs]
            cells.append(f"{statistics.median(values):8.1f} ({min(values):.0f}–{max(values):.0f})")
        say(f"{name:16s}" + "".join(f"{cell:>22s}" for cell in cells) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
