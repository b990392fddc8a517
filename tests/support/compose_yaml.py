"""A YAML reader for the subset docker-compose.yml uses, so the deploy test parses it
without PyYAML (no dependency of the project): block mappings and sequences by
indentation, flow sequences of JSON-like items, quoted and plain scalars (plain ones kept
as text but for whole numbers), full-line comments, an anchor on a mapping (``&name``) and
the merge key (``<<: *name``). Anything else raises :class:`Unsupported`, so a compose
file that outgrows the subset fails the test loudly instead of being read wrongly."""

from __future__ import annotations

import json
import re
from typing import Any


class Unsupported(ValueError):
    """A line this reader does not understand."""


_KEY = re.compile(r"^(?P<key><<|[A-Za-z_][\w.-]*):(?:\s+(?P<rest>.*))?$")


def load(text: str) -> Any:
    lines: Lines = []
    for number, raw in enumerate(text.splitlines(), 1):
        if "\t" in raw:
            raise Unsupported(f"line {number}: a tab")
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if " #" in stripped and not stripped.startswith(("'", '"')):
            raise Unsupported(f"line {number}: a trailing comment")
        lines.append((len(raw) - len(raw.lstrip(" ")), stripped, number))
    anchors: dict[str, Any] = {}
    if not lines:
        return None
    value, end = _block(lines, 0, 0, anchors)
    if end != len(lines):
        raise Unsupported(f"line {lines[end][2]}: indented unexpectedly")
    return value


Lines = list[tuple[int, str, int]]
"""(indent, text, line number) of each line that is not blank or a comment."""


def _block(lines: Lines, at: int, indent: int, anchors: dict[str, Any]) -> tuple[Any, int]:
    if lines[at][1].startswith("- "):
        return _sequence(lines, at, indent, anchors)
    return _mapping(lines, at, indent, anchors)


def _mapping(lines: Lines, at: int, indent: int, anchors: dict[str, Any]) -> tuple[Any, int]:
    found: dict[str, Any] = {}
    while at < len(lines) and lines[at][0] == indent:
        _, text, number = lines[at]
        match = _KEY.match(text)
        if match is None:
            raise Unsupported(f"line {number}: not a key: {text!r}")
        key, rest = match["key"], (match["rest"] or "").strip()
        at += 1
        anchor = None
        if rest.startswith("&"):
            anchor, rest = rest[1:], ""
        if rest:
            value = _scalar(rest, number, anchors)
        elif at < len(lines) and lines[at][0] > indent:
            value, at = _block(lines, at, lines[at][0], anchors)
        else:
            value = None
        if anchor is not None:
            anchors[anchor] = value
        if key == "<<":
            if not isinstance(value, dict):
                raise Unsupported(f"line {number}: a merge of a non-mapping")
            for merged_key, merged in value.items():
                found.setdefault(merged_key, merged)
        elif key in found:
            raise Unsupported(f"line {number}: {key!r} twice")
        else:
            found[key] = value
    return found, at


def _sequence(lines: Lines, at: int, indent: int, anchors: dict[str, Any]) -> tuple[Any, int]:
    items: list[Any] = []
    while at < len(lines) and lines[at][0] == indent and lines[at][1].startswith("- "):
        _, text, number = lines[at]
        items.append(_scalar(text[2:].strip(), number, anchors))
        at += 1
    return items, at


def _scalar(text: str, number: int, anchors: dict[str, Any]) -> Any:
    if text.startswith("*"):
        if text[1:] not in anchors:
            raise Unsupported(f"line {number}: unknown alias {text!r}")
        return anchors[text[1:]]
    if text.startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError:
            raise Unsupported(f"line {number}: a flow sequence beyond JSON: {text}") from None
        if not isinstance(items, list):
            raise Unsupported(f"line {number}: {text}")
        return items
    if text.startswith('"'):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            raise Unsupported(f"line {number}: a quoted scalar beyond JSON: {text}") from None
    if text.startswith(("'", "{", "&", "!", "|", ">")):
        raise Unsupported(f"line {number}: {text}")
    if ": " in text or text.endswith(":") or text.startswith("- "):
        raise Unsupported(f"line {number}: a nested mapping or sequence here: {text}")
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if text in ("true", "false", "null", "yes", "no", "on", "off", "~"):
        raise Unsupported(f"line {number}: an unquoted {text!r} (quote it)")
    return text
