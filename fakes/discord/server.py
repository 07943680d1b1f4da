"""The fake Discord's server: the REST API and the gateway on one aiohttp app, and
everything the bot did there.

It behaves like Discord where our bot could get it wrong: it checks every message and
command payload against Discord's limits and answers 400 to a violation (recording it in
``violations``). Every REST call is recorded. Channel messages (``POST
/channels/{id}/messages``, ``PATCH …/messages/{id}``) are what channel play posts with the
bot's token; the fake checks them like interaction messages, refuses a channel in
``forbidden`` (403, as for a channel the bot cannot see) and keeps every version of an
edited post in ``edits``. Like Discord, it refuses a bot-API message to a channel the bot
is not in (``outside``: a user install's; 403, recorded as a violation): there an app may
only answer the interaction."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler

from ..serving import json_response
from . import payloads
from .checks import command_problems, message_problems
from .errors import error, invalid_form
from .faults import Fault
from .gateway import Gateway
from .interactions import Interactions
from .outcome import Outcome
from .world import (
    ADMIN_ROLE_NAME,
    BOT_PERMISSIONS,
    CHANNEL_ID,
    EPHEMERAL,
    LOADING,
    TOKEN,
    FakeFile,
    FakeUser,
)

API = "/api/v10"


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    body: Any


class DiscordServer(Gateway):
    def __init__(self, token: str = TOKEN) -> None:
        super().__init__(token)
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
        self.faults: list[Fault] = []  # served in order, each once
        self.faults_served: list[Fault] = []
        self.violations: list[str] = []
        self.unexpected: list[str] = []
        self.interactions = Interactions(self)
        self._ids = itertools.count(1)

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._inject_faults])
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get(f"{API}/gateway", self._gateway_info)
        app.router.add_get(f"{API}/gateway/bot", self._gateway_info)
        app.router.add_get(f"{API}/users/@me", self._me)
        app.router.add_get(f"{API}/oauth2/applications/@me", self._application)
        app.router.add_put(f"{API}/applications/{{app}}/commands", self._put_commands)
        app.router.add_put(
            f"{API}/applications/{{app}}/guilds/{{guild}}/commands", self._put_commands
        )
        app.router.add_post(
            f"{API}/interactions/{{id}}/{{token}}/callback", self.interactions.callback
        )
        app.router.add_post(f"{API}/webhooks/{{app}}/{{token}}", self.interactions.followup)
        app.router.add_route(
            "*",
            f"{API}/webhooks/{{app}}/{{token}}/messages/{{message}}",
            self.interactions.webhook_message,
        )
        app.router.add_post(f"{API}/channels/{{channel}}/messages", self._post_message)
        app.router.add_post(f"{API}/users/@me/channels", self._open_dm)
        app.router.add_get("/attachments/{id}/{filename}", self._attachment)
        app.router.add_patch(f"{API}/channels/{{channel}}/messages/{{message}}", self._edit_message)
        app.router.add_route("*", f"{API}/{{tail:.*}}", self._unknown)  # last: what is left
        return app

    @web.middleware
    async def _inject_faults(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        fault = next((f for f in self.faults if f.path in request.path), None)
        if fault is None:
            return await handler(request)
        self.faults.remove(fault)
        self.faults_served.append(fault)
        return await fault.serve(request, handler)

    @property
    def api_base_url(self) -> str:
        return f"{self.url}{API}"

    def environ(self) -> dict[str, str]:
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE_URL": self.api_base_url,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "QUIZBOT_ADMIN_ROLE": ADMIN_ROLE_NAME,
        }

    def snowflake(self) -> str:
        return str(1_600_000_000_000_000_000 + next(self._ids))

    async def record(self, request: web.Request) -> Any:
        """Record a call; returns its JSON body."""
        body = await request.json() if request.can_read_body else None
        self.calls.append(Call(request.method, request.path, body))
        return body

    def _authorized(self, request: web.Request) -> bool:
        return request.headers.get("Authorization") == f"Bot {self.token}"

    def refuse(self, problems: list[str], what: str) -> web.Response | None:
        """Discord's 400 for a payload with ``problems`` (each a violation); None if none."""
        if not problems:
            return None
        self.violations += [f"{what}: {p}" for p in problems]
        return invalid_form(problems)

    # --- the bot's own REST calls ---------------------------------------------------------

    async def _gateway_info(self, request: web.Request) -> web.Response:
        await self.record(request)
        return json_response(payloads.gateway_info(self.gateway_url))

    async def _me(self, request: web.Request) -> web.Response:
        await self.record(request)
        if not self._authorized(request):
            return error(401, 0, "401: Unauthorized")
        return json_response(payloads.BOT_USER)

    async def _application(self, request: web.Request) -> web.Response:
        await self.record(request)
        if not self._authorized(request):
            return error(401, 0, "401: Unauthorized")
        return json_response(payloads.application())

    async def _put_commands(self, request: web.Request) -> web.Response:
        commands = await self.record(request)
        if not self._authorized(request):
            return error(401, 0, "401: Unauthorized")
        refused = self.refuse(command_problems(commands), "commands")
        if refused:
            return refused
        guild = request.match_info.get("guild")
        self.command_syncs += 1
        stored = [payloads.synced_command(self.snowflake(), c, guild) for c in commands]
        self.commands[guild] = stored
        return json_response(stored)

    async def _unknown(self, request: web.Request) -> web.Response:
        await self.record(request)
        self.unexpected.append(f"{request.method} {request.path}")
        return error(404, 0, "404: Not Found")

    # --- messages -----------------------------------------------------------------------

    def create_message(
        self, data: dict[str, Any], flags: int = 0, channel_id: str = CHANNEL_ID, kind: int = 20
    ) -> dict[str, Any]:
        """A message of the bot: an interaction response (type 20) or a channel post (0)."""
        message = payloads.message(self.snowflake(), data, flags, channel_id, kind)
        self.messages[message["id"]] = message
        return message

    def apply_edit(self, message_id: str, data: dict[str, Any]) -> dict[str, Any]:
        """The message as an edit with ``data`` leaves it (a deferred one done loading)."""
        message = self.messages[message_id]
        for key in ("content", "embeds", "components"):
            if key in data:
                message[key] = (
                    data[key] if data[key] is not None else ("" if key == "content" else [])
                )
        message["flags"] &= ~LOADING
        message["edited_timestamp"] = payloads.now()
        return message

    async def _post_message(self, request: web.Request) -> web.Response:
        data = await self.record(request)
        if not self._authorized(request):
            return error(401, 0, "401: Unauthorized")
        channel = request.match_info["channel"]
        if channel in self.outside:
            return self._not_a_member(channel)
        if channel in self.forbidden:
            return error(403, 50001, "Missing Access")
        refused = self.refuse(message_problems(data), "channel message")
        if refused:
            return refused
        message = self.create_message(data, data.get("flags", 0), channel, kind=0)
        if channel in self.dm_channels:
            self.dms.setdefault(self.dm_channels[channel], []).append(message)
        else:
            self.posts.append(message["id"])
        return json_response(message)

    def _not_a_member(self, channel: str) -> web.Response:
        self.violations.append(f"a bot-API message to channel {channel}, which the bot is not in")
        return error(403, 50001, "Missing Access")

    async def _edit_message(self, request: web.Request) -> web.Response:
        data = await self.record(request)
        if not self._authorized(request):
            return error(401, 0, "401: Unauthorized")
        if request.match_info["channel"] in self.outside:
            return self._not_a_member(request.match_info["channel"])
        message = self.messages.get(request.match_info["message"])
        # Ephemeral messages are not in the channel: only their interaction can edit them.
        if (
            message is None
            or message["channel_id"] != request.match_info["channel"]
            or message["flags"] & EPHEMERAL
        ):
            return error(404, 10008, "Unknown Message")
        refused = self.refuse(message_problems(data), "channel message edit")
        if refused:
            return refused
        edited = self.apply_edit(message["id"], data)
        self.edits.append((edited["id"], payloads.snapshot(edited)))
        return json_response(edited)

    def channel_posts(self) -> list[Outcome]:
        """The channel's public posts as they are now, oldest first."""
        return [Outcome("", 0, self.messages[i], new_message=True) for i in self.posts]

    async def _open_dm(self, request: web.Request) -> web.Response:
        """A direct message channel with a member (one per member, as on Discord)."""
        data = await self.record(request)
        if not self._authorized(request):
            return error(401, 0, "401: Unauthorized")
        member = str(data.get("recipient_id", ""))
        if not member.isdigit():
            return error(400, 50035, "Invalid Form Body")
        channel = next((c for c, m in self.dm_channels.items() if m == member), None)
        channel = channel or self.snowflake()
        self.dm_channels[channel] = member
        return json_response(payloads.dm_channel(channel, member))

    def dm_texts(self, member: FakeUser) -> list[str]:
        """What the member read in their direct messages from the bot, oldest first."""
        return [Outcome("", 0, m).text() for m in self.dms.get(member.id, [])]

    # --- attachments --------------------------------------------------------------------

    async def _attachment(self, request: web.Request) -> web.Response:
        self.calls.append(Call(request.method, request.path, None))
        found = self.files.get(request.match_info["id"])
        if found is None or found.filename != request.match_info["filename"]:
            return error(404, 0, "404: Not Found")
        self.downloads.append(found.filename)
        return web.Response(body=found.data, content_type="application/octet-stream")

    def attachment(self, file: FakeFile) -> dict[str, Any]:
        """An attachment as an interaction resolves it, its url served by the fake."""
        attachment_id = self.snowflake()
        self.files[attachment_id] = file
        url = f"{self.url}/attachments/{attachment_id}/{file.filename}"
        return payloads.attachment(attachment_id, file, url)
