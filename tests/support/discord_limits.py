"""Discord's documented limits on what a bot sends, checked over recorded payloads."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")

CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR = 256
ACTION_ROWS = 5
BUTTONS_PER_ROW = 5
SELECT_OPTIONS = 25
CUSTOM_ID = 100
LABEL = 80
DESCRIPTION = 100


def _embed_problems(embed: Mapping[str, Any]) -> Iterator[str]:
    total = 0
    for key, limit in (("title", EMBED_TITLE), ("description", EMBED_DESCRIPTION)):
        text = embed.get(key) or ""
        total += len(text)
        if len(text) > limit:
            yield f"embed {key} has {len(text)} > {limit} characters"
    fields = embed.get("fields") or []
    if len(fields) > EMBED_FIELDS:
        yield f"embed has {len(fields)} > {EMBED_FIELDS} fields"
    for item in fields:
        total += len(item.get("name", "")) + len(item.get("value", ""))
        if len(item.get("name", "")) > FIELD_NAME:
            yield "embed field name too long"
        if len(item.get("value", "")) > FIELD_VALUE:
            yield f"embed field value has {len(item.get('value', ''))} > {FIELD_VALUE}"
    footer = (embed.get("footer") or {}).get("text", "")
    author = (embed.get("author") or {}).get("name", "")
    total += len(footer) + len(author)
    if len(footer) > FOOTER:
        yield "embed footer too long"
    if len(author) > AUTHOR:
        yield "embed author too long"
    if total > EMBED_TOTAL:
        yield f"embed totals {total} > {EMBED_TOTAL} characters"


def _component_problems(rows: list[Mapping[str, Any]]) -> Iterator[str]:
    if len(rows) > ACTION_ROWS:
        yield f"{len(rows)} > {ACTION_ROWS} action rows"
    for row in rows:
        children = row.get("components") or []
        buttons = [c for c in children if c.get("type") == 2]
        if len(buttons) > BUTTONS_PER_ROW:
            yield f"a row has {len(buttons)} > {BUTTONS_PER_ROW} buttons"
        for child in children:
            custom_id = child.get("custom_id") or ""
            if len(custom_id) > CUSTOM_ID:
                yield f"custom_id {custom_id!r} is longer than {CUSTOM_ID}"
            if len(child.get("label") or "") > LABEL:
                yield f"label {child.get('label')!r} is longer than {LABEL}"
            options = child.get("options") or []
            if len(options) > SELECT_OPTIONS:
                yield f"select has {len(options)} > {SELECT_OPTIONS} options"


def payload_problems(payload: Mapping[str, Any]) -> list[str]:
    """Every way a message payload breaks Discord's limits (empty when it fits)."""
    problems: list[str] = []
    content = payload.get("content") or ""
    if len(content) > CONTENT:
        problems.append(f"content has {len(content)} > {CONTENT} characters")
    embeds = payload.get("embeds") or []
    if len(embeds) > EMBEDS:
        problems.append(f"{len(embeds)} > {EMBEDS} embeds")
    total = 0
    for embed in embeds:
        problems.extend(_embed_problems(embed))
        total += sum(len(embed.get(key) or "") for key in ("title", "description")) + sum(
            len(f.get("name", "")) + len(f.get("value", "")) for f in embed.get("fields") or []
        )
    if total > EMBED_TOTAL:
        problems.append(f"all embeds total {total} > {EMBED_TOTAL} characters")
    problems.extend(_component_problems(payload.get("components") or []))
    return problems


def command_problems(command: Mapping[str, Any]) -> list[str]:
    """Every way an application command payload breaks Discord's naming limits."""
    problems: list[str] = []
    name = command.get("name", "")
    if not NAME.match(name):
        problems.append(f"command name {name!r} does not match {NAME.pattern}")
    if len(command.get("description", "")) > DESCRIPTION:
        problems.append(f"description of {name!r} is longer than {DESCRIPTION}")
    for option in command.get("options") or []:
        problems.extend(f"{name} › {p}" for p in command_problems(option))
        for choice in option.get("choices") or []:
            if len(choice.get("name", "")) > DESCRIPTION:
                problems.append(f"choice {choice.get('name')!r} is longer than {DESCRIPTION}")
    return problems
