"""The fake Slack's server, and everything the app did there.

It serves what quizbot calls (the Web API methods ``auth.test``, ``users.info``,
``chat.*``, ``views.open``, ``views.publish``, ``apps.connections.open`` and
``oauth.v2.access``, the download
of files members chose in a modal, and the "Add to Slack" authorize page), records every
``response_url`` post and Web API call, keeps each channel message as ``chat.update``
leaves it and each message to a user id as a DM, keeps every App Home view published
for each member, and offers a Socket Mode websocket.

Several workspaces: a bot token belongs to one team (``T1`` unless the install flow issued
it for another), and so does every channel and user id (``homes``; ``T1`` unless listed).
A call naming a channel or user of another team than its token's is refused as Slack
would (``channel_not_found``, ``user_not_found``), so a test sees which token each
workspace's calls carried (``Call.team``).
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from ..serving import drop_connection, json_response
from . import answers
from .checks import view_problems
from .payloads import trigger_age
from .recorder import CHAT_METHODS, Call, Recorder
from .world import CLIENT_ID, CLIENT_SECRET, HOME, User

TRIGGER_SECONDS = 3  # how long Slack accepts a trigger_id for views.open
# Faults served as such; any other planned fault is Slack's error code, answered
# {"ok": false, "error": <fault>} with HTTP 200 as Slack does.
TRANSPORT_FAULTS = ("429", "500", "slow", "drop")


@dataclass(frozen=True)
class OpenedView:
    """A modal the app opened with views.open, as Slack keeps it for the submission."""

    trigger_id: str
    view: dict[str, Any]  # with Slack's id, team_id, state and hash added


@dataclass(frozen=True)
class ChannelPost:
    """A message posted with chat.postMessage, as its last chat.update left it."""

    channel: str
    ts: str
    text: str
    blocks: list[dict[str, Any]]
    edits: int = 0

    @property
    def ref(self) -> str:
        return f"{self.channel}:{self.ts}"


class FakeSlack(Recorder):
    def __init__(
        self,
        users: Mapping[str, User] | None = None,
        *,
        anyone: User | None = None,
        verbose: bool = False,
    ):
        super().__init__(verbose)
        self.users: dict[str, User] = dict(users or {})
        self.anyone = anyone  # users.info's answer for users not in `users` (else not found)
        self.absent: set[str] = set()  # channels the bot is not in: chat.* gets not_in_channel
        self._posts: dict[str, ChannelPost] = {}  # by ref, in posting order
        self.views: list[OpenedView] = []
        self.published: dict[str, list[dict[str, Any]]] = {}  # user → their Home views
        self._triggers_used: set[str] = set()
        self._files: dict[str, tuple[str, bytes]] = {}  # id → name, content
        self.socket_acks: list[dict[str, Any]] = []
        # Method (or "response_url") → the faults its next calls meet, one per call, in
        # order: "429", "500", "slow", "drop" or a Slack error code (TRANSPORT_FAULTS);
        # `faulted` records each fault served.
        self.faults: dict[str, list[str]] = {}
        self.faulted: list[tuple[str, str]] = []
        self.retry_after = 0  # seconds, in a 429's Retry-After
        self.slow_seconds = 1.0  # how long a "slow" call takes before its normal answer
        # Several workspaces: channel or user id → its team (HOME unless listed), the
        # tokens the install flow issued (→ team) and those revoked since.
        self.homes: dict[str, str] = {}
        self.tokens: dict[str, str] = {}
        self.revoked: set[str] = set()
        self.team_names: dict[str, str] = {HOME: "Fake team"}
        self.redirect_url = ""  # the app's OAuth redirect URL, as its settings list it
        self.installer = "UADMIN"  # who approves an install on the authorize page
        self.authorize_requests: list[dict[str, str]] = []
        self._codes: dict[str, tuple[str, str, str]] = {}  # code → team, installer, scopes
        self._envelopes: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._ts = itertools.count(1)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self._api)
        app.router.add_post("/response/{key}", self._response)
        app.router.add_get("/files-pri/{file_id}/{name}", self._download)
        app.router.add_get("/oauth/v2/authorize", self._authorize)
        app.router.add_get("/socket", self._socket)
        return app

    @property
    def api_url(self) -> str:
        return f"{self.url}/api/"

    @property
    def authorize_url(self) -> str:
        return f"{self.url}/oauth/v2/authorize"

    def uninstall(self, team: str) -> None:
        """A workspace removes the app: every token Slack issued it stops working."""
        self.revoked |= {token for token, home in self.tokens.items() if home == team}

    def response_url(self, key: str) -> str:
        return f"{self.url}/response/{key}"

    async def home(self, user: str, count: int = 1) -> dict[str, Any]:
        """The ``count``-th App Home view published for ``user``, once it is."""
        found = await self.wait_for(lambda: self.published.get(user, [])[count - 1 :] or None)
        return found[0]

    def channel_posts(self, channel: str | None = None) -> list[ChannelPost]:
        """Messages posted in channels (all, or one channel's), each as last edited."""
        return [p for p in self._posts.values() if channel in (None, p.channel)]

    async def _response(self, request: web.Request) -> web.Response:
        if (fault := await self._fault("response_url", request)) is not None:
            return fault
        await self._record(Call("response_url", await request.json(), request.match_info["key"]))
        return web.Response(text="ok")

    # --- the Web API --------------------------------------------------------------------

    async def _fault(self, method: str, request: web.Request) -> web.Response | None:
        """The fault planned for this call, if any: an answer to return instead of the
        normal one (None for "slow", which answers normally, late)."""
        planned = self.faults.get(method)
        if not planned:
            return None
        fault = planned.pop(0)
        self.faulted.append((method, fault))
        if fault not in TRANSPORT_FAULTS:
            return json_response({"ok": False, "error": fault})
        if fault == "429":
            headers = {"Retry-After": str(self.retry_after)}
            return json_response({"ok": False, "error": "ratelimited"}, 429, headers)
        if fault == "500":
            return web.Response(status=500, text="internal error")
        if fault == "drop":
            drop_connection(request)
            return web.Response(status=500)
        await request.read()  # Slack has the request; the client stops waiting first
        await asyncio.sleep(self.slow_seconds)
        return None

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if (fault := await self._fault(method, request)) is not None:
            return fault
        args: dict[str, Any] = dict(request.query)
        if request.content_type == "application/json":
            args.update(await request.json())
        else:
            args.update(await request.post())
        authorization = request.headers.get("Authorization", "")
        if method == "oauth.v2.access":
            answer, team = self._oauth_access(authorization, args), ""
        else:
            answer, team = self._authorized(method, authorization.removeprefix("Bearer "), args)
        # Recorded after answering, so whoever waits on a call sees its effect too.
        await self._record(Call(method, args, team=team))
        return json_response(answer)

    def _authorized(
        self, method: str, token: str, args: Mapping[str, Any]
    ) -> tuple[dict[str, Any], str]:
        """The answer to a call with a bot (or app-level) token, and the token's team."""
        wanted = "xapp-" if method == "apps.connections.open" else "xoxb-"
        if not token.startswith(wanted):
            return {"ok": False, "error": "invalid_auth"}, ""
        if token in self.revoked:
            return {"ok": False, "error": "token_revoked"}, ""
        team = self.tokens.get(token, HOME)
        named = args.get("user") if method == "users.info" else args.get("channel")
        if method in ("users.info", *CHAT_METHODS) and self.homes.get(str(named), HOME) != team:
            # Another workspace's channel or member: this token cannot see it.
            error = "user_not_found" if method == "users.info" else "channel_not_found"
            return {"ok": False, "error": error}, team
        return self._answer(method, args, team), team

    def _answer(self, method: str, args: Mapping[str, Any], team: str) -> dict[str, Any]:
        if method == "auth.test":
            return answers.auth_test(team, self.team_names.get(team, team))
        if method == "users.info":
            user = self.users.get(str(args.get("user")), self.anyone)
            if user is None:
                return {"ok": False, "error": "user_not_found"}
            with_locale = str(args.get("include_locale")).lower() in ("1", "true")
            return {"ok": True, "user": answers.member(str(args["user"]), user, with_locale)}
        if method in CHAT_METHODS:
            return self._chat(method, args)
        if method == "views.open":
            return self._open_view(args)
        if method == "views.publish":
            return self._publish_view(args, team)
        if method == "apps.connections.open":
            return {"ok": True, "url": self.ws_url + "/socket"}
        return {"ok": False, "error": "unknown_method"}

    def _chat(self, method: str, args: Mapping[str, Any]) -> dict[str, Any]:
        channel = str(args.get("channel"))
        if channel in self.absent:
            return {"ok": False, "error": "not_in_channel"}
        text, blocks = str(args.get("text", "")), list(args.get("blocks") or [])
        if method == "chat.postEphemeral" and not args.get("user"):
            return {"ok": False, "error": "user_not_found"}
        if method == "chat.postMessage" and channel[:1] in ("U", "W"):
            # To a user id: Slack posts in the app's DM with them and answers with its id.
            if channel not in self.users and self.anyone is None:
                return {"ok": False, "error": "channel_not_found"}
            return {"ok": True, "channel": f"D{channel}", "ts": f"{next(self._ts)}.0001"}
        if method == "chat.update":
            ref = f"{channel}:{args.get('ts')}"
            post = self._posts.get(ref)
            if post is None:
                return {"ok": False, "error": "message_not_found"}
            self._posts[ref] = replace(post, text=text, blocks=blocks, edits=post.edits + 1)
            return {"ok": True, "channel": channel, "ts": post.ts, "text": text}
        ts = f"{next(self._ts)}.0001"
        if method == "chat.postMessage":
            post = ChannelPost(channel, ts, text, blocks)
            self._posts[post.ref] = post
        return {"ok": True, "channel": channel, "ts": ts}

    def _open_view(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """A modal, for a trigger_id the driver issued less than 3 s ago and used once."""
        trigger = str(args.get("trigger_id"))
        age = trigger_age(trigger)
        if age is None or trigger in self._triggers_used:
            return {"ok": False, "error": "invalid_trigger_id"}
        if age > TRIGGER_SECONDS:
            return {"ok": False, "error": "expired_trigger_id"}
        view = _view(args)
        if "ok" in view:
            return view
        self._triggers_used.add(trigger)
        opened = answers.opened_view(view, len(self.views) + 1)
        self.views.append(OpenedView(trigger, opened))
        return {"ok": True, "view": opened}

    def _publish_view(self, args: Mapping[str, Any], team: str) -> dict[str, Any]:
        """A member's App Home view, valid as slack_sdk's models check it (up to 100
        blocks), kept with the member's earlier ones."""
        user = str(args.get("user_id", ""))
        view = _view(args)
        if "ok" in view:
            return view
        if view.get("type") != "home":
            return {"ok": False, "error": "invalid_arguments"}
        if self.homes.get(user, HOME) != team or (user not in self.users and self.anyone is None):
            return {"ok": False, "error": "user_not_found"}
        shown = self.published.setdefault(user, [])
        shown.append(view)
        return {"ok": True, "view": answers.opened_view(view, len(shown))}

    # --- files --------------------------------------------------------------------------

    def add_file(self, name: str, content: bytes) -> dict[str, Any]:
        """A file a member uploaded in a modal: Slack's file object, as view.state has it."""
        file_id = f"F{len(self._files) + 1:08d}"
        self._files[file_id] = (name, content)
        url = f"{self.url}/files-pri/T1-{file_id}/{name}"
        return answers.uploaded_file(file_id, name, len(content), url)

    async def _download(self, request: web.Request) -> web.Response:
        """A file's content for the bot token; without it Slack redirects to its login page."""
        file_id = request.match_info["file_id"].removeprefix("T1-")
        found = self._files.get(file_id)
        token = request.headers.get("Authorization", "")
        authorized = token.startswith("Bearer xoxb-")
        await self._record(Call("files", {"id": file_id, "authorized": authorized}))
        if found is None or found[0] != request.match_info["name"]:
            return web.Response(status=404, text="file not found")
        if not authorized:
            raise web.HTTPFound("https://fake.slack.test/?redir=%2Ffiles-pri")
        return web.Response(body=found[1], content_type="application/octet-stream")

    # --- Add to Slack -------------------------------------------------------------------

    async def _authorize(self, request: web.Request) -> web.Response:
        """Slack's authorize page, approved at once by ``installer`` for the ``team`` the
        link names (HOME without one): back to the app's redirect URL with a code."""
        asked = dict(request.query)
        self.authorize_requests.append(asked)
        if asked.get("client_id") != CLIENT_ID:
            return web.Response(status=400, text="invalid_client_id")
        team = asked.get("team") or HOME
        code = f"code-{team}-{secrets.token_hex(8)}"
        self._codes[code] = (team, self.installer, asked.get("scope", ""))
        back = asked.get("redirect_uri") or self.redirect_url
        query = urlencode({"code": code, "state": asked.get("state", "")})
        raise web.HTTPFound(f"{back}?{query}")

    def _oauth_access(self, authorization: str, args: Mapping[str, Any]) -> dict[str, Any]:
        """A code for a bot token, once, with the app's client id and secret (HTTP Basic)."""
        credentials = base64.b64encode(f"{CLIENT_ID}:{CLIENT_SECRET}".encode()).decode()
        if authorization != f"Basic {credentials}":
            return {"ok": False, "error": "invalid_client"}
        found = self._codes.pop(str(args.get("code")), None)
        if found is None:
            return {"ok": False, "error": "invalid_code"}
        team, installer, scopes = found
        token = f"xoxb-{team}-{secrets.token_hex(8)}"
        self.tokens[token] = team
        return answers.oauth_access(token, team, self.team_names.get(team, team), installer, scopes)

    # --- Socket Mode ----------------------------------------------------------------------

    async def send_envelope(self, kind: str, payload: Mapping[str, Any]) -> str:
        """Queue an envelope for the app's websocket; returns its envelope_id."""
        envelope_id = f"env-{next(self._ts)}"
        await self._envelopes.put(
            {
                "envelope_id": envelope_id,
                "type": kind,
                "payload": dict(payload),
                "accepts_response_payload": kind != "events_api",
                "retry_attempt": 0,
                "retry_reason": "",
            }
        )
        return envelope_id

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_json({"type": "hello", "num_connections": 1})

        async def send() -> None:
            while True:
                await ws.send_json(await self._envelopes.get())

        sender = asyncio.create_task(send())
        try:
            async for message in ws:
                if message.type == aiohttp.WSMsgType.TEXT:
                    ack = json.loads(message.data)
                    async with self._changed:
                        self.socket_acks.append(ack)
                        self._changed.notify_all()
        finally:
            sender.cancel()
        return ws


def _view(args: Mapping[str, Any]) -> dict[str, Any]:
    """The view an API call sends, or Slack's error when it is not valid as slack_sdk's
    models check it (a view has no ``ok``: an answer with one is the error)."""
    raw = args.get("view")
    view = json.loads(raw) if isinstance(raw, str) else raw
    if not isinstance(view, dict):
        return {"ok": False, "error": "invalid_arguments"}
    problems = view_problems(view)
    if problems:
        return {
            "ok": False,
            "error": "invalid_arguments",
            "response_metadata": {"messages": problems},
        }
    return view
