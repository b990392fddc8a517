"""The font the bot's pictures write their words in: Noto Sans CJK JP, from a pip package.

Pillow's default font has no kana or kanji, so a Japanese table's card pictures need a font
of their own. It comes from PyPI like every other dependency (``manimgx-fonts-cjk``: Noto
Sans CJK as Noto publishes it, SIL Open Font License 1.1, its licence file in the package's
dist-info), so ``pip install`` on a fresh machine or in the Docker image carries it and
nothing is assumed of the system's fonts. It covers Latin letters too, so English and
Japanese pictures share one font (and a member's name in any of the CJK scripts renders).

A missing or wrong font raises :class:`FontMissing` at once (the cog drawing the tiles does
so when it loads): never a silent fall back to a font that would draw Japanese as boxes.
"""

from __future__ import annotations

import functools
import logging
from importlib import resources
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

log = logging.getLogger(__name__)

FONT_PACKAGE = "manimgx_fonts_cjk"
"""The import name of the ``manimgx-fonts-cjk`` distribution (see pyproject.toml)."""
FONT_FILE = "NotoSansCJK-VF.otf.ttc"
JAPANESE_FACE = 0
"""The collection's faces are JP, KR, SC, TC and HK, in that order: kanji drawn the
Japanese way are the first."""
FAMILY = "Noto Sans CJK JP"

Weight = Literal["Regular", "Medium", "Bold"]


class FontMissing(RuntimeError):
    """The Japanese font is not installed (or not the expected file)."""


@functools.cache
def font_path() -> Path:
    """The font file, or :class:`FontMissing` saying how to install it."""
    try:
        path = Path(str(resources.files(FONT_PACKAGE) / FONT_FILE))
    except ModuleNotFoundError:
        raise FontMissing(
            f"The pictures' font package {FONT_PACKAGE!r} is not installed: "
            "`pip install manimgx-fonts-cjk` (a dependency in pyproject.toml)."
        ) from None
    if not path.is_file():
        raise FontMissing(f"The font file {FONT_FILE} is missing from {FONT_PACKAGE}.")
    return path


@functools.cache
def noto(size: int, weight: Weight = "Medium") -> ImageFont.FreeTypeFont:
    """Noto Sans CJK JP at ``size`` pixels (cached: never change its variation)."""
    try:
        font = ImageFont.truetype(str(font_path()), size, index=JAPANESE_FACE)
    except OSError as error:
        raise FontMissing(f"Pillow cannot open {font_path()}: {error}") from error
    if font.getname()[0] != FAMILY:  # a KR or SC face would draw kanji the wrong way
        raise FontMissing(f"{font_path()} face {JAPANESE_FACE} is {font.getname()[0]!r}")
    # A variable font whose default instance is Thin: hairlines at tile sizes.
    font.set_variation_by_name(weight)
    return font


def check() -> str:
    """Load the font once (raising :class:`FontMissing` if it cannot be): for start-up."""
    family, _style = noto(12).getname()
    log.debug("pictures' font: %s from %s", family, font_path())
    return str(family)


def drawable(text: str) -> str:
    """``text`` without the characters the font has no glyph for (an emoji, a rare
    symbol), which it would draw as its empty box (.notdef): a member's name in a picture
    keeps what can be read of it."""
    return "".join(char for char in text if char.isspace() or _has_glyph(char))


_PROBE_SIZE = 24


@functools.lru_cache(maxsize=4096)
def _has_glyph(char: str) -> bool:
    # Pillow tells no glyph index: a character the font lacks is drawn exactly as a
    # private-use code point (which no font has) is, the .notdef box.
    return _ink(char) != _ink("\ue000")


@functools.lru_cache(maxsize=4096)
def _ink(char: str) -> bytes:
    image = Image.new("L", (_PROBE_SIZE * 2, _PROBE_SIZE * 2))
    ImageDraw.Draw(image).text((0, 0), char, font=noto(_PROBE_SIZE, "Regular"), fill=255)
    return image.tobytes()
