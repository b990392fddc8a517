"""A loopback Discord for benchmarks: just enough of the gateway and the REST API, over real
sockets on 127.0.0.1, for the bot to run in its own process as it would against Discord.

Why not SimCord here: SimCord runs inside the bot's process and event loop, so its own work
(a deep copy of every request, its settling walks over the bot's tasks and timers, and its
whole simulated Discord on the bot's heap for the garbage collector) is added to every
click it times. That is right for behaviour tests, which need its virtual clock and its
checks; it is wrong for a latency figure, and it is not what the issue measured ("bot in
its own process against a loopback Discord"). This server runs in the benchmark's process,
the bot in another, and a click is timed from the frame sent on the gateway to the
interaction's answer arriving over HTTP.

What it serves (JSON only; what the benchmark needs, not a general fake):
- gateway: HELLO, IDENTIFY → READY + GUILD_CREATE per guild, heartbeats; the driver sends
  INTERACTION_CREATE frames (`click`, `slash`).
- REST: the bot user and application, `/gateway(/bot)`, command sync (accepted, ignored),
  channel and DM messages (create, edit, fetch, delete), DM channels, interaction
  callbacks (`with_response`), webhook follow-ups and edits of the original response.
Anything else is answered 404 and counted in `unknown`, which the benchmark prints: a
route the bot needs and this server lacks shows up rather than passing silently.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

log = logging.getLogger(__name__)

API = "/api/v10"
DISCORD_EPOCH_MS = 1_420_070_400_000
ALL_PERMISSIONS = str((1 << 51) - 1)
PLAYER_PERMISSIONS = str(0x0000_0400 | 0x0000_0800 | 0x0000_4000 | 0x0001_0000 | 0x8000_0000)
"""View channel, send messages, embed links, read history, use application commands: a
member without Manage Server."""
EPHEMERAL = 1 << 6


def _now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())


def _json(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py parses a body as JSON only on that header, and
    # aiohttp's `json_response` adds "; charset=utf-8".
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


class Snowflakes:
    """Ids that read as real snowflakes (a creation time in the top bits)."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def __call__(self) -> int:
        millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (millis << 22) | (next(self._counter) & 0x3F_FFFF)


@dataclass
class Answer:
    """What the bot did for one interaction: its callback, and follow-ups after it."""

    sent_at: float
    answered_at: float | None = None
    callback_type: int | None = None
    ephemeral: bool = False
    contents: list[str] = field(default_factory=list)
    message_id: int | None = None
    edits: int = 0
    """Edits of the interaction's message through its webhook (after a deferred update)."""
    done: asyncio.Event = field(default_factory=asyncio.Event)


def request_kind(method: str, p: list[str]) -> str:
    """A REST request in a few words, to count a click's requests by kind."""
    n = len(p)
    if p[0] == "interactions":
        return "answer (callback)"
    if p[0] == "webhooks":
        return "follow-up" if n == 3 else f"{method} response"
    if p[0] == "channels" and n >= 3 and p[2] == "messages":
        return {"POST": "new message", "PATCH": "message edit", "DELETE": "message delete"}.get(
            method, f"{method} message"
        )
    if p[:3] == ["users", "@me", "channels"]:
        return "DM opened"
    return f"{method} {p[0]}"


class LoopbackDiscord:
    """The server and its state. Start with `start()`; `api_base` and `gateway_url` go to the
    bot; `click` and `slash` send interactions and return their `Answer`."""

    def __init__(self) -> None:
        self.snowflake = Snowflakes()
        self.application_id = self.snowflake()
        self.bot_user = self.user_payload(self.application_id, "tanzaku", bot=True)
        self.users: dict[int, dict[str, Any]] = {}
        self.guilds: dict[int, dict[str, Any]] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        self.dm_of_user: dict[int, int] = {}
        self.messages: dict[int, dict[str, Any]] = {}
        self.last_message_in: dict[int, int] = {}
        self.answers: dict[int, Answer] = {}
        self.answers_by_token: dict[str, Answer] = {}
        self.edits_landed: dict[int, float] = {}
        """Message id → when the bot's latest edit of it arrived (PATCH or callback)."""
        self.created: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.unknown: list[str] = []
        self.requests: Counter[str] = Counter()
        """The bot's REST requests so far, by kind (`request_kind`)."""
        self.last_request_at = 0.0
        """When the bot's latest REST request arrived (perf_counter)."""
        self._payloads: dict[int, dict[str, Any]] = {}
        self._deferred: dict[int, Answer] = {}
        """Message id → the latest deferred update of a click on it (its edit to come)."""
        self._channel_of_token: dict[str, int] = {}
        self.ready = asyncio.Event()
        self._ws: web.WebSocketResponse | None = None
        self._sequence = itertools.count(1)
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- world ------------------------------------------------------------------------------

    @staticmethod
    def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
        return {
            "id": str(user_id),
            "username": name,
            "discriminator": "0",
            "global_name": name,
            "avatar": None,
            "bot": bot,
            "public_flags": 0,
        }

    def add_user(self, name: str) -> int:
        user_id = self.snowflake()
        self.users[user_id] = self.user_payload(user_id, name)
        return user_id

    def add_guild(self, name: str) -> int:
        guild_id = self.snowflake()
        self.guilds[guild_id] = {"id": guild_id, "name": name, "channels": []}
        return guild_id

    def add_channel(self, guild_id: int, name: str) -> int:
        channel_id = self.snowflake()
        channels = self.guilds[guild_id]["channels"]
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(guild_id),
            "name": name,
            "position": len(channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        channels.append(channel_id)
        return channel_id

    def _member(self, user: dict[str, Any], permissions: str | None = None) -> dict[str, Any]:
        member: dict[str, Any] = {
            "user": user,
            "roles": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            member["permissions"] = permissions
        return member

    def _guild_create(self, guild_id: int) -> dict[str, Any]:
        guild = self.guilds[guild_id]
        return {
            "id": str(guild_id),
            "name": guild["name"],
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.application_id + 1),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "features": [],
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "color": 0,
                    "hoist": False,
                    "position": 0,
                    "permissions": PLAYER_PERMISSIONS,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
            "large": False,
            "unavailable": False,
            "member_count": len(self.users) + 1,
            "members": [self._member(self.bot_user)],
            "channels": [self.channels[c] for c in guild["channels"]],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # -- serving ----------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application(client_max_size=8 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def _send(self, event: str | None, data: Any, op: int = 0) -> None:
        assert self._ws is not None, "the bot is not connected"
        frame: dict[str, Any] = {"op": op, "d": data, "t": event, "s": None}
        if op == 0:
            frame["s"] = next(self._sequence)
        await self._ws.send_str(json.dumps(frame))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._ws = ws
        await self._send(None, {"heartbeat_interval": 41_250}, op=10)
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            frame = json.loads(message.data)
            op = frame.get("op")
            if op == 1:
                await self._send(None, None, op=11)
            elif op == 2:
                await self._identified()
        return ws

    async def _identified(self) -> None:
        await self._send(
            "READY",
            {
                "v": 10,
                "user": self.bot_user,
                "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds],
                "session_id": "loopback",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "geo_ordered_rtc_regions": [],
            },
        )
        for guild_id in self.guilds:
            await self._send("GUILD_CREATE", self._guild_create(guild_id))
        self.ready.set()

    # -- REST -------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        parts = request.match_info["tail"].strip("/").split("/")
        self.last_request_at = time.perf_counter()
        self.requests[request_kind(request.method, parts)] += 1
        body = await self._body(request)
        handler = self._route(request.method, parts)
        if handler is None:
            self.unknown.append(f"{request.method} /{'/'.join(parts)}")
            log.warning("loopback Discord: no route for %s %s", request.method, request.path)
            return _json({"message": "Unknown route", "code": 0}, status=404)
        try:
            result = handler(parts, body, request)
        except Exception as error:
            # Not a 500: discord.py retries those for seconds. A 400 fails the request at
            # once, and the benchmark reports the run as not valid.
            self.unknown.append(f"{request.method} /{'/'.join(parts)}: {error!r}")
            log.exception("loopback Discord: %s %s failed", request.method, request.path)
            return _json({"message": repr(error), "code": 50035}, status=400)
        if result is None:
            return web.Response(status=204)
        return _json(result)

    @staticmethod
    async def _body(request: web.Request) -> Any:
        if not request.can_read_body:
            return None
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            payload: Any = None
            async for part in reader:
                if getattr(part, "name", None) == "payload_json":
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    await part.read()  # type: ignore[union-attr]  # an attachment: not kept
            return payload
        text = await request.text()
        return json.loads(text) if text else None

    def _route(
        self, method: str, p: list[str]
    ) -> Callable[[list[str], Any, web.Request], Any] | None:
        n = len(p)
        if method == "GET" and p == ["users", "@me"]:
            return lambda *_: self.bot_user
        if method == "GET" and p[:2] == ["oauth2", "applications"]:
            return lambda *_: self._application()
        if method == "GET" and p[0] == "gateway":
            return lambda *_: {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        if p[0] == "applications" and "commands" in p:
            return lambda _p, body, _r: body if method == "PUT" else []
        if method == "POST" and p == ["users", "@me", "channels"]:
            return self._open_dm
        if p[0] == "channels" and n == 3 and p[2] == "messages" and method == "POST":
            return self._create_message
        if p[0] == "channels" and n == 4 and p[2] == "messages":
            return {
                "GET": self._get_message,
                "PATCH": self._edit_message,
                "DELETE": self._delete_message,
            }.get(method)
        if p[0] == "channels" and n == 2 and method == "GET":
            return lambda parts, *_: self.channels.get(int(parts[1]))
        if p[0] == "interactions" and n == 4 and p[3] == "callback" and method == "POST":
            return self._callback
        if p[0] == "webhooks" and n == 3 and method == "POST":
            return self._follow_up
        if p[0] == "webhooks" and n == 5 and p[3] == "messages":
            return {"PATCH": self._edit_webhook_message, "GET": self._get_webhook_message}.get(
                method
            )
        return None

    def _application(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": "tanzaku",
            "icon": None,
            "description": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.user_payload(self.application_id + 1, "owner"),
            "team": None,
            "flags": 0,
            "bot": self.bot_user,
        }

    def _open_dm(self, _parts: list[str], body: Any, _request: web.Request) -> dict[str, Any]:
        user_id = int(body["recipient_id"])
        channel_id = self.dm_of_user.get(user_id)
        if channel_id is None:
            channel_id = self.snowflake()
            self.dm_of_user[user_id] = channel_id
            self.channels[channel_id] = {
                "id": str(channel_id),
                "type": 1,
                "recipients": [self.users[user_id]],
                "last_message_id": None,
            }
        return self.channels[channel_id]

    def _new_message(self, channel_id: int, body: dict[str, Any]) -> dict[str, Any]:
        channel = self.channels.get(channel_id, {})
        message = {
            "id": str(self.snowflake()),
            "channel_id": str(channel_id),
            "author": self.bot_user,
            "content": body.get("content") or "",
            "timestamp": _now_iso(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": int(body.get("flags") or 0),
        }
        if "guild_id" in channel:
            message["guild_id"] = channel["guild_id"]
        self.messages[int(message["id"])] = message
        if not message["flags"] & EPHEMERAL:  # not part of the channel's history
            self.last_message_in[channel_id] = int(message["id"])
        self.created.put_nowait(message)
        return message

    def _apply_edit(self, message: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        for key in ("content", "embeds", "components", "flags"):
            if key in body and body[key] is not None:
                message[key] = body[key]
        message["edited_timestamp"] = _now_iso()
        self.edits_landed[int(message["id"])] = time.perf_counter()
        deferred = self._deferred.pop(int(message["id"]), None)
        if deferred is not None:
            deferred.edits += 1  # by the bot's token, or through the interaction's webhook
        return message

    def _create_message(self, parts: list[str], body: Any, _r: web.Request) -> dict[str, Any]:
        return self._new_message(int(parts[1]), body or {})

    def _get_message(self, parts: list[str], _b: Any, _r: web.Request) -> Any:
        return self.messages.get(int(parts[3]))

    def _edit_message(self, parts: list[str], body: Any, _r: web.Request) -> Any:
        message = self.messages.get(int(parts[3]))
        return None if message is None else self._apply_edit(message, body or {})

    def _delete_message(self, parts: list[str], _b: Any, _r: web.Request) -> None:
        self.messages.pop(int(parts[3]), None)

    def _callback(self, parts: list[str], body: Any, request: web.Request) -> dict[str, Any] | None:
        interaction_id = int(parts[1])
        answer = self.answers[interaction_id]
        answer.answered_at = time.perf_counter()
        kind = int(body["type"])
        data = body.get("data") or {}
        answer.callback_type = kind
        answer.ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        if data.get("content"):
            answer.contents.append(str(data["content"]))
        resource: dict[str, Any] = {"type": kind}
        payload = self._payloads.pop(interaction_id, {})
        source = payload.get("message")
        if kind == 4:
            message = self._new_message(int(payload["channel_id"]), data)
            answer.message_id = int(message["id"])
            resource["message"] = message
        elif kind == 7 and source is not None:
            resource["message"] = self._apply_edit(self.messages[int(source["id"])], data)
            answer.message_id = int(source["id"])
        elif kind == 6 and source is not None:
            answer.message_id = int(source["id"])  # a deferred update: edited later
            self._deferred[answer.message_id] = answer
        # A "thinking" defer (5) is finished by a follow-up or an edit of the original
        # response; every other callback is the answer itself.
        if kind != 5:
            answer.done.set()
        if "with_response" not in request.query:
            return None  # 204, as Discord answers a callback that asked for nothing back
        return {
            "interaction": {
                "id": str(interaction_id),
                "type": int(payload.get("type", 3)),
                "response_message_id": str(answer.message_id) if answer.message_id else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": answer.ephemeral,
            },
            "resource": resource,
        }

    def _follow_up(self, parts: list[str], body: Any, _r: web.Request) -> dict[str, Any]:
        answer = self.answers_by_token[parts[2]]
        body = body or {}
        if body.get("content"):
            answer.contents.append(str(body["content"]))
        channel_id = self._channel_of_token.get(parts[2], 0)
        message = self._new_message(channel_id, body)
        answer.done.set()
        return message

    def _original(self, parts: list[str]) -> dict[str, Any] | None:
        answer = self.answers_by_token[parts[2]]
        target = parts[4]
        message_id = answer.message_id if target == "@original" else int(target)
        return self.messages.get(message_id) if message_id else None

    def _edit_webhook_message(self, parts: list[str], body: Any, _r: web.Request) -> Any:
        answer = self.answers_by_token[parts[2]]
        body = body or {}
        if body.get("content"):
            answer.contents.append(str(body["content"]))
        message = self._original(parts)
        if message is None:  # the original of a deferred answer: made by this edit
            message = self._new_message(self._channel_of_token.get(parts[2], 0), body)
            answer.message_id = int(message["id"])
        else:
            self._apply_edit(message, body)
        answer.done.set()
        return message

    def _get_webhook_message(self, parts: list[str], _b: Any, _r: web.Request) -> Any:
        return self._original(parts)

    # -- interactions -----------------------------------------------------------------------

    def _base_interaction(
        self, kind: int, user_id: int, channel_id: int, permissions: str
    ) -> dict[str, Any]:
        interaction_id = self.snowflake()
        token = f"loopback-{interaction_id}"
        channel = self.channels[channel_id]
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "channel_id": str(channel_id),
            "channel": channel,
            "app_permissions": ALL_PERMISSIONS,
            "locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        user = self.users[user_id]
        if "guild_id" in channel:
            payload["guild_id"] = channel["guild_id"]
            payload["guild_locale"] = "en-US"
            payload["member"] = self._member(user, permissions)
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": channel["guild_id"]}
        else:
            payload["user"] = user
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": str(self.application_id)}
        return payload

    async def _deliver(self, payload: dict[str, Any]) -> Answer:
        interaction_id = int(payload["id"])
        answer = Answer(sent_at=time.perf_counter())
        self.answers[interaction_id] = answer
        self.answers_by_token[payload["token"]] = answer
        self._payloads[interaction_id] = payload
        self._channel_of_token[payload["token"]] = int(payload["channel_id"])
        await self._send("INTERACTION_CREATE", payload)
        return answer

    def button(self, message_id: int, label: str) -> str:
        """The custom id of the button labelled `label` on a stored message."""
        for row in self.messages[message_id]["components"]:
            for item in row.get("components", ()):
                if item.get("label") == label and "custom_id" in item:
                    return str(item["custom_id"])
        raise LookupError(f"no button {label!r} on message {message_id}")

    async def click(
        self, user_id: int, message_id: int, label: str, permissions: str = PLAYER_PERMISSIONS
    ) -> Answer:
        """Send the click of a button on a stored message; the answer fills in later."""
        message = self.messages[message_id]
        payload = self._base_interaction(3, user_id, int(message["channel_id"]), permissions)
        payload["message"] = message
        payload["data"] = {"custom_id": self.button(message_id, label), "component_type": 2}
        return await self._deliver(payload)

    async def click_id(
        self,
        user_id: int,
        message_id: int,
        custom_id: str,
        values: Sequence[str] | None = None,
        permissions: str = PLAYER_PERMISSIONS,
    ) -> Answer:
        """Send a click of the component `custom_id` on a stored message (with `values`:
        a select's choice)."""
        message = self.messages[message_id]
        payload = self._base_interaction(3, user_id, int(message["channel_id"]), permissions)
        payload["message"] = message
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data.update(component_type=3, values=list(values))
        payload["data"] = data
        return await self._deliver(payload)

    async def slash(
        self,
        user_id: int,
        channel_id: int,
        name: str,
        options: list[dict[str, Any]],
        permissions: str = PLAYER_PERMISSIONS,
    ) -> Answer:
        """Send a slash command; `name` may hold a subcommand ("duel challenge"). A USER
        option's value is a user id; its user and member are added to `resolved`."""
        command, *sub = name.split()
        users = [int(o["value"]) for o in options if o["type"] == 6]
        data: dict[str, Any] = {
            "id": str(self.snowflake()),
            "name": command,
            "type": 1,
            "options": [{"type": 1, "name": sub[0], "options": options}] if sub else options,
        }
        if users:
            data["resolved"] = {
                "users": {str(u): self.users[u] for u in users},
                # A resolved member comes without its user (that is under "users").
                "members": {
                    str(u): {
                        k: v
                        for k, v in self._member(self.users[u], PLAYER_PERMISSIONS).items()
                        if k != "user"
                    }
                    for u in users
                },
            }
        payload = self._base_interaction(2, user_id, channel_id, permissions)
        payload["data"] = data
        return await self._deliver(payload)
