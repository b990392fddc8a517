"""Draws the README's pictures of an event message (docs/event-standings.png and
docs/event-standings-ja.png) from a real run of the bot, not by hand.

A short Swiss Strength Duel event is played through SimCord the way the event tests play
one (tests/events/): six entrants join, the bot opens every table, the duels are bid by DM,
and once round 2 is over (round 3's tables open, standings with their tie breaks) the event
message's embed and buttons are taken exactly as the bot sent them. They are drawn as
Discord's dark theme draws a bot's message, in HTML and CSS, and headless Chromium
photographs that page; the picture is cropped to the message and its colours reduced so
the file stays small. The Japanese picture is the same event at a Japanese server.

Run from the repository root (Chromium: Debian's ``chromium`` package, as scripts/test.sh)::

    python -m scripts.event_picture            # writes both pictures into docs/
"""

from __future__ import annotations

import argparse
import asyncio
import html
import logging
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[1]
NAMES = ("Aiko", "Ben", "Chiyo", "Dan", "Emi", "Finn")
"""The entrants, strongest first: the stronger player of a table wins it, except that the
weakest wins their first game (one surprise, so the tie breaks have something to break)."""
FEE, PRIZE, SPLIT = 100, 300, "50/30/20"
ROUND_3_PLAYED = 0
"""Tables of round 3 played before the picture (0: the round has just opened)."""
BOT_NAME = "Tanzaku"
EVENING = 19 * 3600 + 30 * 60
"""When the event opens (seconds into the virtual clock's first day): an evening's event."""

PAGE_WIDTH = 640
"""CSS pixels: a message column as wide as Discord's at a desktop window's usual size."""
SCALE = 2
BACKGROUND = (0x31, 0x33, 0x38)
MARGIN = 12
"""CSS pixels of the channel's background kept around the message when cropping."""

BUTTON_STYLES = {1: "primary", 2: "secondary", 3: "success", 4: "danger", 5: "link"}


@dataclass(frozen=True)
class Button:
    label: str
    style: str = "secondary"
    disabled: bool = False


@dataclass(frozen=True)
class Shown:
    """One message as a player sees it: who sent it when, its embed (Discord's JSON
    shape), its buttons, and the names the mentions in it show."""

    author: str
    sent_at: datetime
    embed: Mapping[str, Any]
    buttons: Sequence[Button] = ()
    names: Mapping[int, str] = field(default_factory=dict)
    japanese: bool = False


# --- Discord's markdown, the part a bot's embed uses -----------------------------------

_TOKEN = re.compile(
    r"\*\*(?P<bold>.+?)\*\*"
    r"|`(?P<code>[^`\n]+)`"
    r"|<@!?(?P<user>\d+)>"
    r"|<t:(?P<stamp>-?\d+)(?::(?P<style>[tTdDfFR]))?>"
    r"|\*(?P<em>[^*\n]+)\*",
    re.DOTALL,
)


def markdown_html(text: str, names: Mapping[int, str], *, mentions: bool = True) -> str:
    """``text`` as Discord shows it: **bold**, *italic*, `code`, a member's mention as
    their name on the mention's background, a timestamp as a time. Everything else is
    text, escaped (a member may be called ``<b>x</b>``)."""
    out: list[str] = []
    at = 0
    for match in _TOKEN.finditer(text):
        out.append(html.escape(text[at : match.start()]))
        at = match.end()
        if match["bold"] is not None:
            out.append(f"<strong>{markdown_html(match['bold'], names, mentions=mentions)}</strong>")
        elif match["em"] is not None:
            out.append(f"<em>{markdown_html(match['em'], names, mentions=mentions)}</em>")
        elif match["code"] is not None:
            out.append(f"<code>{html.escape(match['code'])}</code>")
        elif match["user"] is not None and mentions:
            name = names.get(int(match["user"]), "unknown-user")
            out.append(f'<span class="mention">@{html.escape(name)}</span>')
        elif match["stamp"] is not None:
            when = datetime.fromtimestamp(int(match["stamp"]))
            out.append(f'<span class="stamp">{when:%H:%M}</span>')
        else:
            out.append(html.escape(match.group(0)))
    out.append(html.escape(text[at:]))
    return "".join(out)


# --- The page ---------------------------------------------------------------------------

_CSS = """
* { box-sizing: border-box; margin: 0; padding: 0; }
html, body { background: #313338; }
body {
  width: %(width)dpx; padding: %(margin)dpx 16px %(margin)dpx 0;
  font-family: %(sans)s; color: #dbdee1; font-size: 16px; line-height: 1.375;
  -webkit-font-smoothing: antialiased;
}
.message { display: flex; padding: 2px 0 2px 16px; }
.avatar {
  flex: none; width: 40px; height: 40px; border-radius: 50%%; margin: 2px 16px 0 0;
  background: #5865f2; color: #fff; font-weight: 700; font-size: 20px;
  display: flex; align-items: center; justify-content: center;
}
.content { min-width: 0; flex: 1; }
.head { display: flex; align-items: baseline; gap: 4px; }
.author { color: #f2f3f5; font-weight: 500; }
.tag {
  align-self: center; background: #5865f2; color: #fff; border-radius: 3px;
  font-size: 10px; font-weight: 600; line-height: 15px; height: 15px; padding: 0 4px;
}
.time { color: #949ba4; font-size: 12px; margin-left: 2px; }
.embed {
  max-width: 516px; margin-top: 4px; background: #2b2d31; border-radius: 4px;
  border-left: 4px solid #1e1f22; padding: 8px 16px 16px 12px;
  font-size: 14px; line-height: 18px;
}
.title { color: #f2f3f5; font-weight: 600; font-size: 16px; line-height: 22px; margin-top: 8px; }
.description { margin-top: 8px; white-space: pre-wrap; overflow-wrap: anywhere; }
.field { margin-top: 8px; }
.field-name { color: #f2f3f5; font-weight: 600; margin-bottom: 2px; }
.field-value { white-space: pre-wrap; overflow-wrap: anywhere; }
.footer { margin-top: 8px; color: #b5bac1; font-size: 12px; font-weight: 500; line-height: 16px; }
strong { font-weight: 700; }
.field-name strong, .title strong { font-weight: 800; }
.mention {
  background: rgba(88, 101, 242, 0.3); color: #c9cdfb; font-weight: 500;
  border-radius: 3px; padding: 0 2px;
}
.stamp { background: rgba(255, 255, 255, 0.06); border-radius: 3px; padding: 0 2px; }
code {
  font-family: %(mono)s; font-size: 0.85em; line-height: 1rem;
  background: #1e1f22; border: 1px solid #1e1f22; border-radius: 4px; padding: 0 0.2em;
}
.buttons { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.button {
  height: 32px; min-width: 60px; padding: 2px 16px; border-radius: 8px;
  color: #fff; font-size: 14px; font-weight: 500; line-height: 28px; text-align: center;
}
.primary { background: #5865f2; }
.secondary { background: #4e5058; }
.success { background: #248046; }
.danger { background: #da373c; }
.link { background: #4e5058; }
.disabled { opacity: 0.5; }
"""


def font_faces(fonts: Mapping[str, Path]) -> str:
    """@font-face rules for the families named by ``fonts`` (family → file)."""
    return "".join(
        f'@font-face {{ font-family: "{family}"; src: url("{path.as_uri()}"); '
        "font-weight: 100 900; }\n"
        for family, path in fonts.items()
    )


def message_html(shown: Shown, fonts: Mapping[str, Path] | None = None) -> str:
    """The whole page drawing ``shown`` as Discord's dark theme does (pure: no browser)."""
    fonts = fonts or {}
    families = [f'"{family}"' for family in fonts]
    sans = ", ".join([*[f for f in families if "Mono" not in f], "sans-serif"])
    mono = ", ".join([*[f for f in families if "Mono" in f], "monospace"])
    css = _CSS % {"width": PAGE_WIDTH, "margin": MARGIN, "sans": sans, "mono": mono}
    when = f"今日 {shown.sent_at:%H:%M}" if shown.japanese else f"Today at {shown.sent_at:%H:%M}"
    parts = [
        "<!doctype html>",
        f'<html lang="{"ja" if shown.japanese else "en"}"><head><meta charset="utf-8">',
        f"<style>{font_faces(fonts)}{css}</style></head><body>",
        '<div class="message">',
        f'<div class="avatar">{html.escape(shown.author[:1])}</div>',
        '<div class="content"><div class="head">',
        f'<span class="author">{html.escape(shown.author)}</span>',
        '<span class="tag">APP</span>',
        f'<span class="time">{html.escape(when)}</span></div>',
        embed_html(shown.embed, shown.names),
        buttons_html(shown.buttons),
        "</div></div></body></html>",
    ]
    return "\n".join(part for part in parts if part)


def embed_html(embed: Mapping[str, Any], names: Mapping[int, str]) -> str:
    colour = int(embed.get("color", 0x1E1F22))
    parts = [f'<article class="embed" style="border-left-color: #{colour:06x}">']
    if title := embed.get("title"):
        parts.append(f'<div class="title">{markdown_html(title, names, mentions=False)}</div>')
    if description := embed.get("description"):
        parts.append(f'<div class="description">{markdown_html(description, names)}</div>')
    for item in embed.get("fields", []):
        parts.append(
            '<div class="field">'
            f'<div class="field-name">{markdown_html(item["name"], names, mentions=False)}</div>'
            f'<div class="field-value">{markdown_html(item["value"], names)}</div></div>'
        )
    if footer := embed.get("footer", {}).get("text"):
        # A footer is plain text in Discord: no markdown, no mentions.
        parts.append(f'<div class="footer">{html.escape(footer)}</div>')
    parts.append("</article>")
    return "".join(parts)


def buttons_html(buttons: Sequence[Button]) -> str:
    if not buttons:
        return ""
    shown = "".join(
        f'<div class="button {button.style}{" disabled" if button.disabled else ""}">'
        f"{html.escape(button.label)}</div>"
        for button in buttons
    )
    return f'<div class="buttons">{shown}</div>'


# --- The run ----------------------------------------------------------------------------


def picture_fonts() -> dict[str, Path]:
    """The bot's own Noto Sans CJK JP (Latin and Japanese), and for what it lacks the
    colour emoji and monospace faces SimCord's preview ships (a dev dependency)."""
    from bot.fonts import font_path

    static = Path(str(resources.files("simcord.preview") / "static" / "fonts"))
    return {
        "Noto Sans CJK JP": font_path(),
        "Noto Color Emoji": static / "noto-color-emoji-v2.051.ttf",
        "Noto Sans Mono": static / "noto-sans-mono-v2.014.ttf",
    }


@asynccontextmanager
async def simulated_discord(folder: Path) -> Any:
    """A running SimCord world around a fresh bot (its database in ``folder``), closed
    after — the tests' fixtures, outside pytest."""
    from simcord import Env

    from bot.app import create_bot
    from tests.conftest import settings_for_tests

    bot = create_bot(settings_for_tests(folder))
    env = Env(bot, settle_timeout=0.5)
    # The application's name as a server sees it (SimCord calls every bot "TestBot").
    env.backend.bot_user.name = BOT_NAME
    await env.start()
    try:
        with env.time_context():
            yield env
    finally:
        await env.shutdown()
        if not bot.is_closed():
            await bot.close()


async def play_event(env: Any, world: Any, labels: tuple[str, str]) -> Shown:
    """Open, join, start and play the event into round 3; its message then."""
    from tests.events.event_sim import (
        event_message,
        event_tables,
        open_event,
        play_duel,
        until_round,
    )
    from tests.support.sim import answered

    join, start = labels
    await env.advance_time(EVENING)
    message = await open_event(world, fee=FEE, prize=PRIZE, rounds=3, split=SPLIT)
    for name in NAMES:
        answered(await world[name].click(message, label=join), ephemeral=False)
    answered(await world.moderator.click(message, label=start))
    strength = {world[name].id: index for index, name in enumerate(NAMES)}
    underdog = world[NAMES[-1]].id
    for round_number in (1, 2, 3):
        await until_round(world, 1, round_number)
        live = [snapshot for snapshot, _posted in await event_tables(world) if snapshot.row.live]
        # Round 3 stays in play: one table played, so the message shows both marks.
        for snapshot in live[:ROUND_3_PLAYED] if round_number == 3 else live:
            seats = snapshot.state.seats
            winner = min(seats, key=strength.__getitem__)
            if round_number == 1 and underdog in seats:
                winner = underdog
            await play_duel(world, snapshot.id, winner)
    return shown_of(env, world, await event_message(world))


def shown_of(env: Any, world: Any, message: Any) -> Shown:
    members = [*world.members.values(), world.moderator]
    names = {member.id: member.name for member in members}
    buttons = [
        Button(child.label or "", BUTTON_STYLES.get(int(child.style.value), "secondary"))
        for row in message.components
        for child in getattr(row, "children", [])
    ]
    return Shown(
        author=env.bot.user.display_name,
        sent_at=message.created_at,
        embed=message.embeds[0].to_dict(),
        buttons=buttons,
        names=names,
    )


async def english_event(folder: Path) -> Shown:
    from tests.support.sim import make_world

    async with simulated_discord(folder) as env:
        world = await make_world(env, *NAMES)
        return await play_event(env, world, ("Join", "Start"))


async def japanese_event(folder: Path) -> Shown:
    import pytest

    from tests.support.japanese import make_japanese_world

    async with simulated_discord(folder) as env:
        with pytest.MonkeyPatch.context() as patch:
            world, _locales = await make_japanese_world(env, patch, *NAMES)
            shown = await play_event(env, world, ("参加", "開始"))
    return Shown(**{**shown.__dict__, "japanese": True})


# --- The photograph ---------------------------------------------------------------------


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if found := shutil.which(name):
            return found
    raise SystemExit("No Chromium: install Debian's chromium package (apt-get install chromium)")


def photograph(page: str, out: Path, folder: Path) -> None:
    """Screenshot ``page`` in headless Chromium, crop to the message, save it small."""
    from PIL import Image, ImageChops

    source, raw = folder / f"{out.stem}.html", folder / f"{out.stem}-raw.png"
    source.write_text(page, encoding="utf-8")
    done = subprocess.run(
        [
            chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--force-device-scale-factor={SCALE}",
            f"--window-size={PAGE_WIDTH},1600",
            f"--screenshot={raw}",
            source.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if done.returncode != 0 or not raw.is_file():
        raise RuntimeError(f"Chromium failed ({done.returncode}): {done.stderr[-2000:]}")
    image = Image.open(raw).convert("RGB")
    ink = ImageChops.difference(image, Image.new("RGB", image.size, BACKGROUND)).getbbox()
    if ink is None:
        raise RuntimeError("Chromium drew an empty page")
    pad = MARGIN * SCALE
    left, top, _right, bottom = ink
    box = (max(0, left - pad), max(0, top - pad), image.width, min(image.height, bottom + pad))
    cropped = image.crop(box)
    # Flat colours and anti-aliased text: 256 colours without dithering look the same.
    small = cropped.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(out, optimize=True)
    log.info("wrote %s: %dx%d px, %d bytes", out, *small.size, out.stat().st_size)


PICTURES = (("event-standings", english_event), ("event-standings-ja", japanese_event))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="folder for the PNGs")
    parser.add_argument("--keep", action="store_true", help="keep the HTML pages next to them")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    args.out.mkdir(parents=True, exist_ok=True)
    fonts = picture_fonts()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for name, run in PICTURES:
            (folder / name).mkdir()
            shown = asyncio.run(run(folder / name))
            for line in embed_lines(shown.embed):
                log.info("%s: %s", name, line)
            page = message_html(shown, fonts)
            photograph(page, args.out / f"{name}.png", folder)
            if args.keep:
                (args.out / f"{name}.html").write_text(page, encoding="utf-8")


def embed_lines(embed: Mapping[str, Any]) -> Iterator[str]:
    """Every line of text in an embed, in the order Discord shows them."""
    texts = [embed.get("title", ""), embed.get("description", "")]
    for item in embed.get("fields", []):
        texts += [item["name"], item["value"]]
    texts.append(embed.get("footer", {}).get("text", ""))
    for text in texts:
        yield from (line for line in str(text).splitlines() if line.strip())


if __name__ == "__main__":
    main()
