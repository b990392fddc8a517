"""Helpers for SimCord tests: a small world, answered-interaction checks, leak scans."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from simcord import Env, InteractionResult, MemberActor
from simcord.builders import ChannelHandle, GuildHandle, UserHandle


@dataclass
class World:
    env: Env
    guild: GuildHandle
    channel: ChannelHandle
    members: dict[str, MemberActor]
    moderator: MemberActor

    def __getitem__(self, name: str) -> MemberActor:
        return self.members[name]


async def make_world(env: Env, *names: str, channel: str = "tables") -> World:
    """A guild with a channel, the named members, and a moderator (Manage Server)."""
    await env.bot.tree.sync()
    guild = env.create_guild("tanzaku-test")
    text_channel = guild.create_text_channel(channel)
    members = {name: guild.add_member(env.create_user(name)) for name in names}
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    moderator = guild.add_member(env.create_user("mod"), roles=[mods])
    return World(env, guild, text_channel, members, moderator)


def answered(result: InteractionResult, *, ephemeral: bool | None = None) -> InteractionResult:
    """Every interaction must be acknowledged (SimCord does not flag a missing answer)."""
    assert result.acknowledged, f"interaction was not answered: {result!r}"
    if ephemeral is not None:
        assert result.ephemeral is ephemeral, f"expected ephemeral={ephemeral}: {result!r}"
    return result


def refusal(result: InteractionResult) -> str:
    """The text of an ephemeral refusal (the first private message of the interaction)."""
    answered(result)
    messages = []
    if result.response is not None and result.response.ephemeral:
        messages.append(result.response.content)
    messages.extend(m.content for m in result.followups if m.ephemeral)
    assert messages, f"no private answer: {result!r}"
    return messages[0]


def message_text(message: discord.Message) -> str:
    """Everything a person can read in a message: content, embeds, component labels."""
    parts = [message.content or ""]
    for embed in message.embeds:
        data: dict[str, Any] = embed.to_dict()
        parts.append(str(data.get("title", "")))
        parts.append(str(data.get("description", "")))
        parts.extend(f"{f.get('name')} {f.get('value')}" for f in data.get("fields", []))
        parts.append(str(data.get("footer", {}).get("text", "")))
    for row in message.components:
        for child in getattr(row, "children", []):
            parts.append(str(getattr(child, "label", "") or ""))
            parts.append(str(getattr(child, "placeholder", "") or ""))
    return "\n".join(parts)


def visible_to(world: World, viewer: MemberActor) -> list[discord.Message]:
    """Every message `viewer` can see: all channels of the guild plus their own DMs."""
    seen: list[discord.Message] = []
    for channel in world.guild.channels.values():
        seen.extend(channel.history(viewer=viewer))
    seen.extend(viewer.user.dm_channel.history(viewer=viewer))
    return seen


def pinged(env: Env, message: discord.Message) -> list[int]:
    """Whom Discord notified for `message`: the members its mentions reach under the
    ``allowed_mentions`` it was sent with (a mention in the text alone pings nobody)."""
    return list(env.backend.get_message(message.channel.id, message.id).ping_user_ids)


def sent_payloads(env: Env) -> list[dict[str, Any]]:
    """The JSON bodies of every message the bot sent or edited (incl. interaction answers)."""
    payloads = []
    for request in env.http_requests:
        body = request.json
        if not isinstance(body, dict):
            continue
        data = body.get("data") if isinstance(body.get("data"), dict) else body
        if any(key in data for key in ("content", "embeds", "components")):
            payloads.append(data)
    return payloads


async def wallet(world: World, member: MemberActor) -> int:
    """A member's balance (their wallet is made at their first look, as their own would)."""
    bot: Any = world.env.bot
    return int((await bot.economy.balance(world.guild.id, member.id)).balance)


def components(message: Any) -> list[Any]:
    """Every button and select of a message, row by row: discord.py's components for a
    channel message, SimCord's payload dicts for an interaction's own response."""
    children: list[Any] = []
    for row in message.components:
        if isinstance(row, dict):
            children.extend(row.get("components", []))
        else:
            children.extend(getattr(row, "children", []))
    return children


def _label(child: Any) -> str | None:
    return child.get("label") if isinstance(child, dict) else getattr(child, "label", None)


def button_of(message: Any, label: str) -> Any:
    for child in components(message):
        if _label(child) == label:
            return child
    raise AssertionError(f"no {label!r} button on the message")


def labels(message: Any) -> list[str]:
    return [label for child in components(message) if (label := _label(child))]


def select_id(message: discord.Message, verb: str) -> str:
    """The custom id of the message's select for `verb` (``tz:…:<verb>``)."""
    for child in components(message):
        if str(getattr(child, "custom_id", "")).endswith(f":{verb}"):
            return str(child.custom_id)
    raise AssertionError(f"no {verb!r} select on the message")


def close_dms(env: Env, member: MemberActor) -> None:
    """The member's DMs are closed: every message to them is refused as Discord refuses
    it (403, code 50007), for the rest of the test."""
    env.inject_error(
        "POST",
        f"/channels/{member.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )


def the_bot(world: World) -> MemberActor:
    """The bot itself, a member of the test guild, as a command option (to challenge)."""
    user = world.env.bot.user
    assert user is not None
    return MemberActor(
        world.env, world.guild, UserHandle(world.env, world.env.backend.get_user(user.id))
    )
