"""A fake Discord on 127.0.0.1: the REST API and the gateway websocket on one aiohttp
server, so the real discord.py client runs offline.

It behaves like Discord where our bot could get it wrong: it checks every message and
command payload against Discord's limits and answers 400 to a violation (recording it
in ``violations``); an interaction answered after 3 s is unknown (404, code 10062) and a
second first-response is refused (400, code 40060). Every REST call is recorded.

Channel messages (``POST /channels/{id}/messages``, ``PATCH …/messages/{id}``) are what
channel play posts with the bot's token; the fake checks them like interaction messages,
refuses a channel in ``forbidden`` (403, as for a channel the bot cannot see) and keeps
every version of an edited post in ``edits``. After READY the gateway sends the server
(GUILD_CREATE) with its roles, as Discord does for the guilds intent.

An interaction comes from the bot's install in the server (or its DMs), or, with
``install="user"``, from a player's own install: in a server that did not add the bot
(``STRANGER_GUILD_ID``) or in a private channel (a DM with a friend, the bot not in it).
Like Discord, the fake refuses a bot-API message to a channel the bot is not in (403,
recorded as a violation): there an app may only answer the interaction.

Standalone, for trying the bot by hand (``POST /_test/interact`` dispatches an
interaction and answers what the user saw; tests/discord/drive.py wraps it)::

    python -m tests.discord.fake_discord --port 8765
    DISCORD_TOKEN=fake-bot-token DISCORD_API_BASE_URL=http://127.0.0.1:8765/api/v10 \\
        DISCORD_GATEWAY_URL=ws://127.0.0.1:8765/gateway quizbot run discord
    python -m tests.discord.drive slash quiz topic=offloading
    python -m tests.discord.drive play --clicks 5
    python -m tests.discord.drive --admin slash quiz-daily action=on topics=tiny time=09:30 \
        timezone=UTC
    python -m tests.discord.drive channel     # the channel's public posts, with their buttons
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiohttp
from aiohttp import web

from .limits import choice_problems, command_problems, message_problems, modal_problems

TOKEN = "fake-bot-token"
APP_ID = "1100000000000000001"
GUILD_ID = "1200000000000000002"
CHANNEL_ID = "1300000000000000003"
OWNER_ID = "1400000000000000004"
STRANGER_GUILD_ID = "1800000000000000008"  # a server that did not add the bot
ADMIN_ROLE_ID = "1700000000000000001"
ADMIN_ROLE_NAME = "quiz-masters"  # QUIZBOT_ADMIN_ROLE in environ()
EPHEMERAL, LOADING = 1 << 6, 1 << 7
FIRST_RESPONSE_WITHIN = 3.0  # seconds, as on Discord
MANAGE_GUILD = 1 << 5
HEARTBEAT_ACK_DELAY = 0.05  # seconds
# What the bot may do in the channel when invited with the usual permissions: View
# Channel, Send Messages, Send Messages in Threads, Embed Links, Read Message History.
BOT_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 38) | (1 << 14) | (1 << 16)
# What a user-installed app may do in its answers where the bot is not (Embed Links,
# Attach Files): no View Channel nor Send Messages, it is not a member there.
USER_APP_PERMISSIONS = (1 << 14) | (1 << 15)
FOLLOWUPS_PER_USER_INSTALL = 5  # Discord's limit per interaction of a user install

BOT_USER = {
    "id": APP_ID,
    "username": "quizbot",
    "discriminator": "0",
    "global_name": None,
    "avatar": None,
    "bot": True,
    "verified": True,
    "flags": 0,
    "mfa_enabled": False,
}


@dataclass(frozen=True)
class FakeUser:
    id: str
    name: str
    permissions: int = 0  # resolved in the channel, as Discord sends them
    roles: tuple[str, ...] = ()  # role ids

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "username": self.name.lower(),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
        }


ALICE = FakeUser("1500000000000000001", "Alice")
BOB = FakeUser("1500000000000000002", "Bob")
CAROL = FakeUser("1500000000000000005", "Carol", roles=(ADMIN_ROLE_ID,))  # admin by role
OWEN = FakeUser("1500000000000000006", "Owen", permissions=MANAGE_GUILD)  # Manage Server
FIONA = FakeUser("1500000000000000007", "Fiona")  # a friend the bot does not know
ROLES = [
    {"id": GUILD_ID, "name": "@everyone", "permissions": "0", "position": 0},
    {"id": ADMIN_ROLE_ID, "name": ADMIN_ROLE_NAME, "permissions": "0", "position": 1},
    {"id": "1700000000000000002", "name": "Quiz-Masters", "permissions": "0", "position": 2},
]


@dataclass(frozen=True)
class FakeFile:
    """A file a user attaches to a command option; the fake serves it as Discord's CDN
    would, at the attachment's url."""

    filename: str
    data: bytes


_OPTION_TYPES = {str: 3, int: 4, float: 10, bool: 5, FakeFile: 11}  # Discord's option types


def _json(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py ignores a body with "; charset=utf-8".
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _error(status: int, code: int, message: str) -> web.Response:
    return _json({"code": code, "message": message}, status)


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class Fault:
    """One failure the fake serves, once, to the next REST request whose path contains
    ``path``: a 429 (with Retry-After, as Discord sends it), a 500, a slow answer
    (``delay`` seconds, then the real one) or a dropped connection."""

    path: str
    status: int = 0  # 429 or 500; 0: answer for real (after the delay)
    delay: float = 0.0
    drop: bool = False
    retry_after: float = 0.05


@dataclass
class Call:
    method: str
    path: str
    body: Any


@dataclass
class Outcome:
    """What the user saw after one interaction."""

    interaction_id: str
    callback_type: int  # 4 message, 5/6 deferred, 7 update, 8 autocomplete, 9 modal
    message: dict[str, Any] | None = None  # the message created or edited
    new_message: bool = False  # False: the clicked message was edited in place
    choices: list[dict[str, Any]] | None = None  # autocomplete
    modal: dict[str, Any] | None = None  # the form opened (type 9)
    # Seconds from dispatching the interaction to its first response reaching the fake.
    latency: float | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.get("flags", 0) & EPHEMERAL)

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return (self.message or {}).get("embeds", [])

    @property
    def content(self) -> str:
        return (self.message or {}).get("content", "")

    @property
    def buttons(self) -> list[dict[str, Any]]:
        rows = (self.message or {}).get("components", [])
        return [c for row in rows for c in row.get("components", [])]

    def button(self, label: str) -> dict[str, Any]:
        return next(b for b in self.buttons if b.get("label") == label)

    def text(self) -> str:
        """Everything readable in the message, for assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            parts += [f"{f['name']} {f['value']}" for f in embed.get("fields", [])]
            parts.append(embed.get("footer", {}).get("text", ""))
        return "\n".join(p for p in parts if p)

    def to_dict(self) -> dict[str, Any]:
        return {
            "interaction_id": self.interaction_id,
            "callback_type": self.callback_type,
            "message": self.message,
            "new_message": self.new_message,
            "choices": self.choices,
        }


@dataclass
class _Pending:
    id: str
    payload: dict[str, Any]
    started: float
    done: asyncio.Event = field(default_factory=asyncio.Event)
    outcome: Outcome | None = None
    callback_type: int | None = None  # the first response, once given
    response_message_id: str | None = None  # the message made by a type 4 or 5 response
    followups: int = 0
    answered: float | None = None  # when the first response arrived (monotonic)


def private_channel_of(user: FakeUser) -> str:
    """The player's DM with FIONA, where their own install of the app is used."""
    return str(int(user.id) + 400_000_000_000_000_000)


def shard_of(guild_id: str, count: int) -> int:
    """Discord's rule for which shard carries a server's events."""
    return (int(guild_id) >> 22) % count


class FakeDiscord:
    def __init__(self, token: str = TOKEN):
        self.token = token
        self.calls: list[Call] = []
        self.callbacks: list[dict[str, Any]] = []  # every interaction callback body
        self.messages: dict[str, dict[str, Any]] = {}
        self.posts: list[str] = []  # ids of channel messages, in order
        self.edits: list[tuple[str, dict[str, Any]]] = []  # (id, message after the edit)
        self.forbidden: set[str] = set()  # channels the bot cannot post in
        self.outside: set[str] = set()  # channels the bot is not in (user installs): 403
        self.files: dict[str, FakeFile] = {}  # attachments, by id
        self.downloads: list[str] = []  # the attachments the bot downloaded, by file name
        self.dm_channels: dict[str, str] = {}  # a DM channel's id: the member's id
        self.dms: dict[str, list[dict[str, Any]]] = {}  # direct messages, by member id
        self.app_permissions = BOT_PERMISSIONS
        self.commands: dict[str | None, list[dict[str, Any]]] = {}  # by guild (None: global)
        self.command_syncs = 0
        self.identifies = 0
        self.resumes = 0
        self.faults: list[Fault] = []  # served in order, each once
        self.faults_served: list[Fault] = []
        self._sessions: set[str] = set()
        self.violations: list[str] = []
        self.unexpected: list[str] = []
        self.connected = asyncio.Event()
        self._ids = itertools.count(1)
        self._seq = 0
        self._sockets: set[web.WebSocketResponse] = set()
        # Each connection's shard (id, count), and each session's, so a resume keeps it.
        self._shard_of: dict[web.WebSocketResponse, tuple[int, int]] = {}
        self._session_shard: dict[str, tuple[int, int]] = {}
        self.shards_identified: list[int] = []
        self.undelivered: list[str] = []  # events for a shard no bot runs
        self._pending: dict[str, _Pending] = {}  # by interaction token
        self._runner: web.AppRunner | None = None
        self.url = ""

    # --- server -------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._inject_faults])
        api = "/api/v10"
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get(f"{api}/gateway", self._gateway_url)
        app.router.add_get(f"{api}/gateway/bot", self._gateway_url)
        app.router.add_get(f"{api}/users/@me", self._me)
        app.router.add_get(f"{api}/oauth2/applications/@me", self._application)
        app.router.add_put(f"{api}/applications/{{app}}/commands", self._put_commands)
        app.router.add_put(
            f"{api}/applications/{{app}}/guilds/{{guild}}/commands", self._put_commands
        )
        app.router.add_post(f"{api}/interactions/{{id}}/{{token}}/callback", self._callback)
        app.router.add_post(f"{api}/webhooks/{{app}}/{{token}}", self._followup)
        app.router.add_route(
            "*", f"{api}/webhooks/{{app}}/{{token}}/messages/{{message}}", self._webhook_message
        )
        app.router.add_post(f"{api}/channels/{{channel}}/messages", self._post_message)
        app.router.add_post(f"{api}/users/@me/channels", self._open_dm)
        app.router.add_get("/attachments/{id}/{filename}", self._attachment)
        app.router.add_patch(f"{api}/channels/{{channel}}/messages/{{message}}", self._edit_message)
        app.router.add_route("*", f"{api}/{{tail:.*}}", self._unknown)
        app.router.add_post("/_test/interact", self._test_interact)
        app.router.add_get("/_test/state", self._test_state)
        app.router.add_get("/_test/channel", self._test_channel)
        app.router.add_get("/_test/message/{id}", self._test_message)
        return app

    @web.middleware
    async def _inject_faults(self, request: web.Request, handler: Any) -> web.StreamResponse:
        fault = next((f for f in self.faults if f.path in request.path), None)
        if fault is None:
            return await handler(request)
        self.faults.remove(fault)
        self.faults_served.append(fault)
        await asyncio.sleep(fault.delay)
        if fault.drop:
            assert request.transport is not None
            request.transport.abort()  # the client sees the connection go
            raise asyncio.CancelledError
        if fault.status == 429:
            headers = {
                "Retry-After": str(fault.retry_after),
                "Via": "1.1 google",  # discord.py tells a Cloudflare ban by its absence
                "X-RateLimit-Scope": "user",
            }
            body = {"message": "You are being rate limited.", "retry_after": fault.retry_after}
            response = _json({**body, "global": False}, 429)
            response.headers.update(headers)
            return response
        if fault.status:
            return _error(fault.status, 0, "500: Internal Server Error")
        return await handler(request)

    async def start(self, port: int = 0) -> str:
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        bound = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{bound}"
        return self.url

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner:
            await self._runner.cleanup()

    @property
    def api_base_url(self) -> str:
        return f"{self.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return self.url.replace("http://", "ws://") + "/gateway"

    def environ(self) -> dict[str, str]:
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE_URL": self.api_base_url,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "QUIZBOT_ADMIN_ROLE": ADMIN_ROLE_NAME,
        }

    def _snowflake(self) -> str:
        return str(1_600_000_000_000_000_000 + next(self._ids))

    async def _record(self, request: web.Request) -> Any:
        body = await request.json() if request.can_read_body else None
        self.calls.append(Call(request.method, request.path, body))
        return body

    def _authorized(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.token}"

    def _reject(self, problems: list[str], what: str) -> web.Response | None:
        if not problems:
            return None
        self.violations += [f"{what}: {p}" for p in problems]
        return _json({"code": 50035, "message": "Invalid Form Body", "errors": problems}, 400)

    # --- gateway ------------------------------------------------------------------------

    async def _gateway_url(self, request: web.Request) -> web.Response:
        await self._record(request)
        return _json(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type is not aiohttp.WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                if data["op"] == 1:  # heartbeat
                    # Not instantly: discord.py notes the send time in its keep-alive thread
                    # only after the send completes, and an ack that beats it reads as a
                    # heartbeat interval of lag ("Can't keep up" warnings).
                    await asyncio.sleep(HEARTBEAT_ACK_DELAY)
                    await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
                elif data["op"] == 2:  # identify
                    if data["d"].get("token") != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    self.identifies += 1
                    shard_id, count = data["d"].get("shard") or (0, 1)
                    self.shards_identified.append(shard_id)
                    self._shard_of[ws] = (shard_id, count)
                    self._sockets.add(ws)
                    await self._send(ws, "READY", self._ready((shard_id, count)))
                    if shard_of(GUILD_ID, count) == shard_id:
                        await self._send(ws, "GUILD_CREATE", self._guild())
                    self.connected.set()
                elif data["op"] == 6:  # resume: a session of ours goes on, others start anew
                    resume = data["d"]
                    if resume.get("token") != self.token or (
                        resume.get("session_id") not in self._sessions
                    ):
                        await ws.send_json({"op": 9, "d": False, "s": None, "t": None})
                        continue
                    self.resumes += 1
                    self._shard_of[ws] = self._session_shard[resume["session_id"]]
                    self._sockets.add(ws)
                    await self._send(ws, "RESUMED", {})
                    self.connected.set()
        finally:
            self._sockets.discard(ws)
            if not self._sockets:
                self.connected.clear()
        return ws

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close every gateway connection, as Discord does on an error (4000) or a
        restart (1001); the client resumes its session."""
        for ws in list(self._sockets):
            self._sockets.discard(ws)
            await ws.close(code=code, message=b"fake outage")
        self.connected.clear()

    async def send_op(self, op: int, d: Any = None) -> None:
        """Send op 7 RECONNECT or op 9 INVALID SESSION (``d``: resumable) to every bot;
        the connection counts as gone until the bot resumes or identifies again."""
        sockets = list(self._sockets)
        self._sockets.clear()
        self.connected.clear()
        for ws in sockets:
            await ws.send_json({"op": op, "d": d, "s": None, "t": None})

    def _ready(self, shard: tuple[int, int]) -> dict[str, Any]:
        session = secrets.token_hex(16)
        self._sessions.add(session)
        self._session_shard[session] = shard
        return {
            "shard": list(shard),
            "v": 10,
            "user": BOT_USER,
            "guilds": [{"id": GUILD_ID, "unavailable": True}],
            "session_id": session,
            "resume_gateway_url": self.gateway_url,
            "application": {"id": APP_ID, "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    def _guild(self) -> dict[str, Any]:
        return {
            "id": GUILD_ID,
            "name": "ML team",
            "unavailable": False,
            "owner_id": OWNER_ID,
            "member_count": 4,
            "preferred_locale": "en-US",
            "features": [],
            "roles": ROLES,
            "emojis": [],
            "stickers": [],
            "channels": [self._channel()],
            "threads": [],
            "members": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
        }

    def _channel(self) -> dict[str, Any]:
        return {
            "id": CHANNEL_ID,
            "type": 0,
            "name": "general",
            "position": 0,
            "guild_id": GUILD_ID,
            "nsfw": False,
            "parent_id": None,
            "permission_overwrites": [],
        }

    async def _send(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        self._seq += 1
        await ws.send_json({"op": 0, "t": event, "s": self._seq, "d": data})

    async def dispatch(self, event: str, data: Any) -> None:
        """Send an event on the connection of the shard it belongs to, as Discord does:
        a server's events by (server id >> 22) % shard count, direct messages on shard 0."""
        if not self._sockets:
            raise RuntimeError("no bot is connected to the fake gateway")
        guild = data.get("guild_id") if isinstance(data, dict) else None
        targets = [
            ws
            for ws in list(self._sockets)
            if self._shard_of.get(ws, (0, 1))[0]
            == (shard_of(guild, self._shard_of.get(ws, (0, 1))[1]) if guild else 0)
        ]
        if not targets:
            self.undelivered.append(event)
        for ws in targets:
            await self._send(ws, event, data)

    # --- REST ---------------------------------------------------------------------------

    async def _me(self, request: web.Request) -> web.Response:
        await self._record(request)
        if not self._authorized(request):
            return _error(401, 0, "401: Unauthorized")
        return _json(BOT_USER)

    async def _application(self, request: web.Request) -> web.Response:
        await self._record(request)
        if not self._authorized(request):
            return _error(401, 0, "401: Unauthorized")
        return _json(
            {
                "id": APP_ID,
                "name": "quizbot",
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "00",
                "flags": 0,
                "team": None,
                "summary": "",
                "owner": {
                    "id": OWNER_ID,
                    "username": "owner",
                    "discriminator": "0",
                    "avatar": None,
                },
            }
        )

    async def _put_commands(self, request: web.Request) -> web.Response:
        commands = await self._record(request)
        if not self._authorized(request):
            return _error(401, 0, "401: Unauthorized")
        rejected = self._reject(command_problems(commands), "commands")
        if rejected:
            return rejected
        guild = request.match_info.get("guild")
        self.command_syncs += 1
        stored = []
        for command in commands:
            item = {"id": self._snowflake(), "application_id": APP_ID, "version": "1", **command}
            item.setdefault("type", 1)
            item.setdefault("dm_permission", True)
            item.setdefault("integration_types", [0])  # the app's default: servers
            item.setdefault("contexts", None)
            item.setdefault("default_member_permissions", None)
            if guild:
                item["guild_id"] = guild
            stored.append(item)
        self.commands[guild] = stored
        return _json(stored)

    async def _unknown(self, request: web.Request) -> web.Response:
        await self._record(request)
        self.unexpected.append(f"{request.method} {request.path}")
        return _error(404, 0, "404: Not Found")

    # --- interactions -------------------------------------------------------------------

    def create_message(
        self, data: dict[str, Any], flags: int = 0, channel_id: str = CHANNEL_ID, kind: int = 20
    ) -> dict[str, Any]:
        """A message of the bot: an interaction response (type 20) or a channel post (0)."""
        message = {
            "id": self._snowflake(),
            "channel_id": channel_id,
            "type": kind,
            "content": data.get("content") or "",
            "author": BOT_USER,
            "embeds": data.get("embeds") or [],
            "components": data.get("components") or [],
            "flags": flags,
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "pinned": False,
            "application_id": APP_ID,
        }
        if kind == 20:
            message["webhook_id"] = APP_ID
        self.messages[message["id"]] = message
        return message

    # --- channel messages ---------------------------------------------------------------

    async def _post_message(self, request: web.Request) -> web.Response:
        data = await self._record(request)
        if not self._authorized(request):
            return _error(401, 0, "401: Unauthorized")
        channel = request.match_info["channel"]
        if channel in self.outside:
            return self._not_a_member(channel)
        if channel in self.forbidden:
            return _error(403, 50001, "Missing Access")
        rejected = self._reject(message_problems(data), "channel message")
        if rejected:
            return rejected
        message = self.create_message(data, data.get("flags", 0), channel, kind=0)
        if channel in self.dm_channels:
            self.dms.setdefault(self.dm_channels[channel], []).append(message)
        else:
            self.posts.append(message["id"])
        return _json(message)

    def _not_a_member(self, channel: str) -> web.Response:
        self.violations.append(f"a bot-API message to channel {channel}, which the bot is not in")
        return _error(403, 50001, "Missing Access")

    async def _open_dm(self, request: web.Request) -> web.Response:
        """A direct message channel with a member (one per member, as on Discord)."""
        data = await self._record(request)
        if not self._authorized(request):
            return _error(401, 0, "401: Unauthorized")
        member = str(data.get("recipient_id", ""))
        if not member.isdigit():
            return _error(400, 50035, "Invalid Form Body")
        channel = next((c for c, m in self.dm_channels.items() if m == member), None)
        channel = channel or self._snowflake()
        self.dm_channels[channel] = member
        recipient = {"id": member, "username": "member", "discriminator": "0", "avatar": None}
        return _json({"id": channel, "type": 1, "recipients": [recipient], "last_message_id": None})

    def dm_texts(self, member: FakeUser) -> list[str]:
        """What the member read in their direct messages from the bot, oldest first."""
        return [Outcome("", 0, m).text() for m in self.dms.get(member.id, [])]

    async def _attachment(self, request: web.Request) -> web.Response:
        self.calls.append(Call(request.method, request.path, None))
        found = self.files.get(request.match_info["id"])
        if found is None or found.filename != request.match_info["filename"]:
            return _error(404, 0, "404: Not Found")
        self.downloads.append(found.filename)
        return web.Response(body=found.data, content_type="application/octet-stream")

    def attachment(self, file: FakeFile) -> dict[str, Any]:
        """An attachment as an interaction resolves it, its url served by the fake."""
        attachment_id = self._snowflake()
        self.files[attachment_id] = file
        url = f"{self.url}/attachments/{attachment_id}/{file.filename}"
        return {
            "id": attachment_id,
            "filename": file.filename,
            "size": len(file.data),
            "url": url,
            "proxy_url": url,
            "content_type": "application/octet-stream",
            "ephemeral": True,
        }

    async def _edit_message(self, request: web.Request) -> web.Response:
        data = await self._record(request)
        if not self._authorized(request):
            return _error(401, 0, "401: Unauthorized")
        if request.match_info["channel"] in self.outside:
            return self._not_a_member(request.match_info["channel"])
        message = self.messages.get(request.match_info["message"])
        # Ephemeral messages are not in the channel: only their interaction can edit them.
        if (
            message is None
            or message["channel_id"] != request.match_info["channel"]
            or message["flags"] & EPHEMERAL
        ):
            return _error(404, 10008, "Unknown Message")
        rejected = self._reject(message_problems(data), "channel message edit")
        if rejected:
            return rejected
        edited = self._edit(message["id"], data)
        self.edits.append((edited["id"], json.loads(json.dumps(edited))))
        return _json(edited)

    def channel_posts(self) -> list[Outcome]:
        """The channel's public posts as they are now, oldest first."""
        return [Outcome("", 0, self.messages[i], new_message=True) for i in self.posts]

    def _edit(self, message_id: str, data: dict[str, Any]) -> dict[str, Any]:
        message = self.messages[message_id]
        for key in ("content", "embeds", "components"):
            if key in data:
                message[key] = (
                    data[key] if data[key] is not None else ("" if key == "content" else [])
                )
        message["flags"] &= ~LOADING
        message["edited_timestamp"] = _now()
        return message

    def _finish(self, pending: _Pending, outcome: Outcome) -> None:
        if outcome.message is not None:  # a snapshot: later edits must not change it
            outcome.message = json.loads(json.dumps(outcome.message))
        if pending.answered is not None:
            outcome.latency = pending.answered - pending.started
        pending.outcome = outcome
        pending.done.set()

    async def _callback(self, request: web.Request) -> web.Response:
        arrived = time.monotonic()
        body = await self._record(request)
        self.callbacks.append(body)
        pending = self._pending.get(request.match_info["token"])
        if pending is not None and pending.answered is None:
            pending.answered = arrived
        if pending is None or pending.id != request.match_info["id"]:
            return _error(404, 10062, "Unknown interaction")
        if pending.callback_type is not None:
            self.violations.append(f"interaction {pending.id} answered twice")
            return _error(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - pending.started > FIRST_RESPONSE_WITHIN:
            self.violations.append(f"interaction {pending.id} answered after 3 s")
            return _error(404, 10062, "Unknown interaction")
        kind, data = body["type"], body.get("data") or {}
        if kind in (4, 7):
            rejected = self._reject(message_problems(data), f"callback type {kind}")
            if rejected:
                return rejected
        if kind == 8:
            rejected = self._reject(choice_problems(data.get("choices", [])), "autocomplete")
            if rejected:
                return rejected
        if kind == 9:
            problems = modal_problems(data)
            if pending.payload["type"] == 5:
                problems.append("a modal cannot answer a modal submission")
            rejected = self._reject(problems, "modal")
            if rejected:
                return rejected
        pending.callback_type = kind
        clicked = (pending.payload.get("message") or {}).get("id")
        interaction = {"id": pending.id, "type": pending.payload["type"]}
        resource: dict[str, Any] = {"type": kind}
        channel = pending.payload["channel_id"]
        if kind == 4:
            message = self.create_message(data, data.get("flags", 0) & EPHEMERAL, channel)
            pending.response_message_id = message["id"]
            resource["message"] = message
            self._finish(pending, Outcome(pending.id, kind, message, new_message=True))
        elif kind == 5:
            flags = (data.get("flags", 0) & EPHEMERAL) | LOADING
            message = self.create_message({}, flags, channel)
            pending.response_message_id = message["id"]
            resource["message"] = message
            interaction["response_message_loading"] = True
        elif kind == 7:
            if clicked not in self.messages:
                return _error(404, 10008, "Unknown Message")
            message = self._edit(clicked, data)
            resource["message"] = message
            self._finish(pending, Outcome(pending.id, kind, message))
        elif kind == 8:
            self._finish(pending, Outcome(pending.id, kind, choices=data.get("choices", [])))
        elif kind == 9:
            self._finish(pending, Outcome(pending.id, kind, modal=json.loads(json.dumps(data))))
        elif kind != 6:
            return _error(400, 50035, f"unsupported callback type {kind}")
        if "message" in resource:
            interaction["response_message_id"] = resource["message"]["id"]
            interaction["response_message_ephemeral"] = bool(
                resource["message"]["flags"] & EPHEMERAL
            )
        # Types 5 and 6 finish later, with an edit or a follow-up.
        return _json({"interaction": interaction, "resource": resource})

    def _pending_for(self, request: web.Request) -> _Pending | None:
        if request.match_info["app"] != APP_ID:
            return None
        return self._pending.get(request.match_info["token"])

    async def _followup(self, request: web.Request) -> web.Response:
        data = await self._record(request)
        pending = self._pending_for(request)
        if pending is None:
            return _error(404, 10015, "Unknown Webhook")
        pending.followups += 1
        problems = message_problems(data)
        owners = pending.payload.get("authorizing_integration_owners", {})
        if "0" not in owners and pending.followups > FOLLOWUPS_PER_USER_INSTALL:
            problems.append(f"over {FOLLOWUPS_PER_USER_INSTALL} follow-ups for a user install")
        rejected = self._reject(problems, "follow-up")
        if rejected:
            return rejected
        flags = data.get("flags", 0) & EPHEMERAL
        message = self.create_message(data, flags, pending.payload["channel_id"])
        if pending.outcome is None:
            self._finish(pending, Outcome(pending.id, pending.callback_type or 0, message, True))
        return _json(message)

    async def _webhook_message(self, request: web.Request) -> web.Response:
        data = await self._record(request)
        pending = self._pending_for(request)
        if pending is None:
            return _error(404, 10015, "Unknown Webhook")
        message_id = request.match_info["message"]
        if message_id == "@original":
            clicked = (pending.payload.get("message") or {}).get("id")
            message_id = pending.response_message_id or clicked or ""
        if message_id not in self.messages:
            return _error(404, 10008, "Unknown Message")
        if request.method == "GET":
            return _json(self.messages[message_id])
        if request.method == "DELETE":
            del self.messages[message_id]
            return web.Response(status=204)
        if request.method != "PATCH":
            return _error(405, 0, "405: Method Not Allowed")
        rejected = self._reject(message_problems(data), "edit")
        if rejected:
            return rejected
        message = self._edit(message_id, data)
        if pending.outcome is None:
            new = message_id == pending.response_message_id
            self._finish(pending, Outcome(pending.id, pending.callback_type or 0, message, new))
        return _json(message)

    # --- driving the bot -------------------------------------------------------------------

    def interaction(
        self,
        kind: int,
        data: dict[str, Any],
        *,
        user: FakeUser = ALICE,
        locale: str = "en-US",
        guild: bool = True,
        message: dict[str, Any] | None = None,
        guild_id: str = GUILD_ID,
        install: str = "guild",
    ) -> dict[str, Any]:
        """An INTERACTION_CREATE payload as Discord sends it (in the fake's server, or in
        ``guild_id``'s, whose channel is the next snowflake). ``install``: "guild", the
        bot's install (in a server or the bot's DMs), or "user", the player's own (in
        ``guild_id``, a server that did not add the bot, or a private channel: a DM with
        FIONA); the bot is not in those channels."""
        channel_id = CHANNEL_ID if guild_id == GUILD_ID else str(int(guild_id) + 1)
        user_install = install == "user"
        payload: dict[str, Any] = {
            "id": self._snowflake(),
            "application_id": APP_ID,
            "type": kind,
            "data": data,
            "token": "itok-" + secrets.token_urlsafe(24),
            "version": 1,
            "locale": locale,
            "attachment_size_limit": 10 * 1024 * 1024,
            "app_permissions": "0",
            "entitlements": [],
        }
        if guild:
            payload |= {
                "guild_id": guild_id,
                "guild": {"id": guild_id, "locale": "en-US", "features": []},
                "guild_locale": "en-US",
                "channel_id": channel_id,
                "channel": {
                    "id": channel_id,
                    "type": 0,
                    "name": "general",
                    "position": 0,
                    "guild_id": guild_id,
                    "nsfw": False,
                    "parent_id": None,
                },
                "member": {
                    "user": user.to_dict(),
                    "nick": None,
                    "roles": list(user.roles),
                    "flags": 0,
                    "joined_at": "2024-01-01T00:00:00+00:00",
                    "deaf": False,
                    "mute": False,
                    "permissions": str(user.permissions),
                },
                "app_permissions": str(
                    USER_APP_PERMISSIONS if user_install else self.app_permissions
                ),
                "context": 0,
                "authorizing_integration_owners": (
                    {"1": user.id} if user_install else {"0": guild_id}
                ),
            }
        elif user_install:  # a DM between the player and a friend
            dm = private_channel_of(user)
            payload |= {
                "channel_id": dm,
                "channel": {"id": dm, "type": 1, "recipients": [FIONA.to_dict()]},
                "user": user.to_dict(),
                "app_permissions": str(USER_APP_PERMISSIONS),
                "context": 2,
                "authorizing_integration_owners": {"1": user.id},
            }
        else:
            dm = str(int(user.id) + 1)
            payload |= {
                "channel_id": dm,
                "channel": {"id": dm, "type": 1, "recipients": [user.to_dict()]},
                "user": user.to_dict(),
                "context": 1,
                "authorizing_integration_owners": {"0": "0"},
            }
        if user_install:
            self.outside.add(payload["channel_id"])
        if message is not None:
            payload["message"] = message
        return payload

    async def interact(self, payload: dict[str, Any], timeout: float = 10.0) -> Outcome:
        """Dispatch an interaction and wait until the bot has answered it completely."""
        pending = _Pending(payload["id"], payload, time.monotonic())
        self._pending[payload["token"]] = pending
        await self.dispatch("INTERACTION_CREATE", payload)
        try:
            await asyncio.wait_for(pending.done.wait(), timeout)
        except TimeoutError:
            kind = payload["type"]
            raise AssertionError(f"the bot did not answer interaction type {kind}") from None
        assert pending.outcome is not None
        return pending.outcome

    async def settled(self, done: Callable[[], bool], timeout: float = 10.0) -> None:
        """Wait until the bot's asynchronous work has reached a state."""
        async with asyncio.timeout(timeout):
            while not done():
                await asyncio.sleep(0.01)

    def command_id(self, name: str) -> str:
        for commands in self.commands.values():
            for command in commands:
                if command["name"] == name:
                    return command["id"]
        return self._snowflake()  # an unsynced command: Discord would not send it, but tests may

    def _declared(self, command: str, subcommand: str | None) -> list[dict[str, Any]]:
        """The options the synced command (or its subcommand) declares."""
        for commands in self.commands.values():
            for synced in commands:
                if synced["name"] != command:
                    continue
                options = synced.get("options", [])
                if subcommand is None:
                    return list(options)
                inner = next((o for o in options if o["name"] == subcommand), {})
                return list(inner.get("options", []))
        return []

    def _option(
        self,
        declared: list[dict[str, Any]],
        name: str,
        value: str | int | float | FakeFile,
        resolved: dict[str, Any],
    ) -> dict[str, Any]:
        """An option as Discord sends it: with the type the synced command declares (so a
        number typed by hand arrives as a number), else the value's own; a file becomes an
        attachment id, the attachment itself among the resolved data."""
        kind = next((o["type"] for o in declared if o["name"] == name), _OPTION_TYPES[type(value)])
        if isinstance(value, FakeFile):
            attachment = self.attachment(value)
            resolved[attachment["id"]] = attachment
            return {"name": name, "type": kind, "value": attachment["id"]}
        cast: dict[int, Callable[[Any], Any]] = {4: int, 10: float, 5: bool}
        return {"name": name, "type": kind, "value": cast.get(kind, str)(value)}

    async def slash(
        self,
        name: str,
        /,
        subcommand: str | None = None,
        *,
        user: FakeUser = ALICE,
        locale: str = "en-US",
        guild: bool = True,
        guild_id: str = GUILD_ID,
        install: str = "guild",
        **options: str | int | float | FakeFile,
    ) -> Outcome:
        """A slash command (``slash("quiz-bank", "upload", file=FakeFile(...))`` for a
        subcommand)."""
        declared = self._declared(name, subcommand)
        resolved: dict[str, Any] = {}
        given = [self._option(declared, k, v, resolved) for k, v in options.items()]
        if subcommand is not None:
            given = [{"name": subcommand, "type": 1, "options": given}]
        data: dict[str, Any] = {
            "id": self.command_id(name),
            "name": name,
            "type": 1,
            "options": given,
        }
        if resolved:
            data["resolved"] = {"attachments": resolved}
        if guild:
            data["guild_id"] = guild_id
        payload = self.interaction(
            2, data, user=user, locale=locale, guild=guild, guild_id=guild_id, install=install
        )
        return await self.interact(payload)

    async def submit(
        self,
        modal: dict[str, Any],
        values: dict[str, str],
        *,
        user: FakeUser = ALICE,
        locale: str = "en-US",
        guild_id: str = GUILD_ID,
    ) -> Outcome:
        """Fill in and submit a modal the bot opened (a MODAL_SUBMIT interaction, type 5),
        as the Discord client does: every input in its row, typed or left empty. The
        client enforces required inputs and lengths, so a test may not break them."""
        rows = []
        for row in modal["components"]:
            [field] = row["components"]
            value = values.get(field["custom_id"], "")
            if field.get("required", True) and not value:
                raise AssertionError(f"the client requires {field['custom_id']!r}")
            if len(value) > field.get("max_length", 4000):
                raise AssertionError(f"the client stops {field['custom_id']!r} at its max_length")
            rows.append(
                {
                    "type": 1,
                    "components": [{"type": 4, "custom_id": field["custom_id"], "value": value}],
                }
            )
        data = {"custom_id": modal["custom_id"], "components": rows}
        return await self.interact(
            self.interaction(5, data, user=user, locale=locale, guild_id=guild_id)
        )

    async def autocomplete(
        self,
        name: str,
        option: str,
        typed: str,
        *,
        subcommand: str | None = None,
        user: FakeUser = ALICE,
        locale: str = "en-US",
    ) -> list[dict[str, Any]]:
        options: list[dict[str, Any]] = [
            {"name": option, "type": 3, "value": typed, "focused": True}
        ]
        if subcommand is not None:
            options = [{"name": subcommand, "type": 1, "options": options}]
        data = {
            "id": self.command_id(name),
            "name": name,
            "type": 1,
            "guild_id": GUILD_ID,
            "options": options,
        }
        outcome = await self.interact(self.interaction(4, data, user=user, locale=locale))
        assert outcome.choices is not None
        return outcome.choices

    async def click(
        self,
        message_id: str,
        custom_id: str,
        *,
        user: FakeUser = ALICE,
        locale: str = "en-US",
        guild: bool = True,
        timeout: float = 10.0,
        component_type: int = 2,
        guild_id: str = GUILD_ID,
        install: str = "guild",
    ) -> Outcome:
        """A click on a button of a message (the custom_id need not be on it, nor the
        component be a button: forgeries)."""
        data = {"custom_id": custom_id, "component_type": component_type}
        message = json.loads(json.dumps(self.messages[message_id]))
        payload = self.interaction(
            3,
            data,
            user=user,
            locale=locale,
            guild=guild,
            message=message,
            guild_id=guild_id,
            install=install,
        )
        return await self.interact(payload, timeout)

    # --- control API, for driving a bot by hand ----------------------------------------------

    async def _test_interact(self, request: web.Request) -> web.Response:
        """POST {"kind": "slash", "name": "quiz", "options": {...}} (with "subcommand":
        "on" for /quiz-remind on) or {"kind": "click",
        "message_id": "...", "custom_id": "..."} or {"kind": "autocomplete", "name": ...,
        "option": ..., "value": ...}; optional "user" (id), "user_name", "locale",
        "permissions" (an integer) and "roles" (role ids). Answers the outcome."""
        spec = await request.json()
        user = FakeUser(
            str(spec.get("user", ALICE.id)),
            spec.get("user_name", ALICE.name),
            int(spec.get("permissions") or 0),
            tuple(spec.get("roles") or ()),
        )
        locale = spec.get("locale", "en-US")
        try:
            if spec["kind"] == "slash":
                outcome = await self.slash(
                    spec["name"],
                    spec.get("subcommand"),
                    user=user,
                    locale=locale,
                    **spec.get("options", {}),
                )
            elif spec["kind"] == "click":
                outcome = await self.click(
                    spec["message_id"], spec["custom_id"], user=user, locale=locale
                )
            else:
                choices = await self.autocomplete(
                    spec["name"], spec["option"], spec["value"], user=user, locale=locale
                )
                return _json({"choices": choices})
        except (RuntimeError, AssertionError, KeyError) as exc:
            return _json({"error": str(exc)}, 409)
        return _json(outcome.to_dict())

    async def _test_message(self, request: web.Request) -> web.Response:
        message = self.messages.get(request.match_info["id"])
        return _json(message) if message else _error(404, 10008, "Unknown Message")

    async def _test_channel(self, request: web.Request) -> web.Response:
        return _json([self.messages[i] for i in self.posts if i in self.messages])

    async def _test_state(self, request: web.Request) -> web.Response:
        return _json(
            {
                "connected": bool(self._sockets),
                "identifies": self.identifies,
                "resumes": self.resumes,
                "command_syncs": self.command_syncs,
                "violations": self.violations,
                "unexpected": self.unexpected,
                "messages": len(self.messages),
            }
        )


# --- command line ----------------------------------------------------------------------------


async def _serve(port: int) -> None:
    fake = FakeDiscord()
    await fake.start(port)
    print(f"fake Discord on {fake.url}; point the bot at it with:", flush=True)
    for key, value in fake.environ().items():
        print(f"  export {key}={value}", flush=True)
    print("then drive it with: python -m tests.discord.drive --help", flush=True)
    await asyncio.Event().wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.discord.fake_discord")
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve(args.port))
    return 0


if __name__ == "__main__":
    sys.exit(main())
