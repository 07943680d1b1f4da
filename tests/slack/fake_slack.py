"""A fake Slack on 127.0.0.1, for tests and for trying quizbot by hand.

It serves what quizbot calls (the Web API methods ``auth.test``, ``users.info``,
``chat.*``, ``views.open``, ``apps.connections.open`` and ``oauth.v2.access``, the
download of files members chose in a modal, and the "Add to Slack" authorize page),
records every ``response_url`` post and Web API call, keeps each channel message as
``chat.update`` leaves it and each message to a user id as a DM, and offers a Socket
Mode websocket. ``SlackDriver`` plays Slack's other half: it sends slash commands,
button clicks, modal submissions and events to the app, signed the way Slack signs
them, installs the app as a browser would, and returns the messages the app posts back.

Several workspaces: a bot token belongs to one team (``T1`` unless the install flow
issued it for another), and so does every channel and user id (``homes``; ``T1``
unless listed). A call naming a channel or user of another team than its token's is
refused as Slack would (``channel_not_found``, ``user_not_found``), so a test sees
which token each workspace's calls carried (``Call.team``).

By hand, in three terminals (the same SLACK_SIGNING_SECRET in the last two):

    python -m tests.slack.fake_slack serve --port 8900
    SLACK_API_URL=http://127.0.0.1:8900/api/ SLACK_BOT_TOKEN=xoxb-fake \\
        SLACK_SIGNING_SECRET=s3cret quizbot run slack --http --port 3000
    SLACK_SIGNING_SECRET=s3cret python -m tests.slack.fake_slack play offloading \\
        --port 8900 --app http://127.0.0.1:3000/slack/events

Channel play by hand: ``serve --admin U0ADMIN --user U0ADMIN=Boss --user U1=Ana``, then
``send "daily on offloading 09:30 UTC" --user U0ADMIN`` (any /quiz text), ``posts`` (the
channel's messages as last edited, with their buttons) and ``click 1 B --user U1``
(button B of the first channel message), each with the same --port, --app and secret.

Add to Slack by hand: ``serve --home UT2=T2 --home C2=T2``, quizbot with
``SLACK_CLIENT_ID=1111.2222 SLACK_CLIENT_SECRET=fake-client-secret
QUIZBOT_TOKEN_KEY=<32+ characters> SLACK_AUTHORIZE_URL=http://127.0.0.1:8900/oauth/v2/authorize``
instead of SLACK_BOT_TOKEN, then ``install T1``, ``install T2``, ``play offloading --team T2
--channel C2 --user UT2`` and ``uninstall T2``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import hashlib
import hmac
import html
import itertools
import json
import os
import re
import secrets
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Protocol, TypeVar
from urllib.parse import urlencode, urlsplit

import aiohttp
from aiohttp import web
from slack_sdk.models.blocks import Block
from slack_sdk.models.views import View

T = TypeVar("T")
MAX_BLOCKS = 50
# What `FakeSlack.faults` can make a call answer instead of its normal answer.
FAULTS = ("429", "500", "slow", "drop")
CHAT_METHODS = ("chat.postMessage", "chat.postEphemeral", "chat.update")
TRIGGER_SECONDS = 3  # how long Slack accepts a trigger_id for views.open
HOME = "T1"  # the team of every token, channel and user not said otherwise
CLIENT_ID, CLIENT_SECRET = "1111.2222", "fake-client-secret"  # the app's credentials


@dataclass(frozen=True)
class Call:
    method: str  # a Web API method, or "response_url"
    body: dict[str, Any]
    key: str = ""  # which response_url, for "response_url"
    team: str = ""  # the team of the bot token the call carried ("" for none)


def bot_user(team: str) -> str:
    """The app's bot user in a team."""
    return "UQUIZBOT" if team == HOME else f"UQUIZBOT{team}"


@dataclass
class User:
    locale: str = "en-US"
    display_name: str = ""
    real_name: str = ""
    admin: bool = False  # users.info's is_admin
    owner: bool = False  # users.info's is_owner


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


# A broadcast or mention Slack would act on: anything but the <!date^…> time markup.
_PING = re.compile(r"<(?:!(?!date\^)|@|#)")


def message_problems(message: Mapping[str, Any]) -> list[str]:
    """Why a message would not be valid Block Kit for Slack (empty if it is), or could
    ping someone."""
    problems = []
    if not isinstance(message.get("text"), str) or not message["text"].strip():
        problems.append("no plain `text` fallback")
    if _PING.search(json.dumps([message.get("text"), message.get("blocks")])):
        problems.append("unescaped <!…>, <@…> or <#…> markup")
    blocks = message.get("blocks") or []
    if len(blocks) > MAX_BLOCKS:
        problems.append(f"{len(blocks)} blocks (max {MAX_BLOCKS})")
    for raw in blocks:
        try:
            block = Block.parse(raw)
            if block is None:
                raise ValueError(f"unknown block type {raw.get('type')!r}")
            block.to_dict()  # slack_sdk checks lengths here
        except Exception as exc:  # any failure is what we report
            problems.append(f"{raw.get('type')} block: {exc}")
    return problems


def view_problems(view: Mapping[str, Any]) -> list[str]:
    """Why a modal view would not be valid for views.open (empty if it is)."""
    problems = []
    try:
        View(**view).to_dict()  # slack_sdk checks the view and each block and element
    except Exception as exc:  # any failure is what we report
        problems.append(f"view: {exc}")
    for raw in view.get("blocks") or []:
        if raw.get("type") != "input":
            continue
        element = raw.get("element") or {}
        if raw.get("block_id") is None or element.get("action_id") is None:
            problems.append("an input block without a block_id or action_id")
        if element.get("type") == "plain_text_input" and element.get("max_length", 0) > 3000:
            problems.append("a plain_text_input longer than 3000 characters")
    return problems


def sign(secret: str, timestamp: str, body: str | bytes) -> str:
    """Slack's request signature: v0= + HMAC-SHA256(secret, "v0:{timestamp}:{body}")."""
    raw = body if isinstance(body, bytes) else body.encode()
    base = f"v0:{timestamp}:".encode() + raw
    return "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()


class FakeSlack:
    def __init__(
        self,
        users: Mapping[str, User] | None = None,
        *,
        anyone: User | None = None,
        verbose: bool = False,
    ):
        self.users: dict[str, User] = dict(users or {})
        self.anyone = anyone  # users.info's answer for users not in `users` (else not found)
        self.absent: set[str] = set()  # channels the bot is not in: chat.* gets not_in_channel
        self.calls: list[Call] = []
        self._posts: dict[str, ChannelPost] = {}  # by ref, in posting order
        self.views: list[OpenedView] = []
        self._triggers_used: set[str] = set()
        self._files: dict[str, tuple[str, bytes]] = {}  # id → name, content
        self.socket_acks: list[dict[str, Any]] = []
        # Method (or "response_url") → the faults its next calls meet, one per call, in
        # order (see FAULTS); `faulted` records each fault served.
        self.faults: dict[str, list[str]] = {}
        self.faulted: list[tuple[str, str]] = []
        self.retry_after = 0  # seconds, in a 429's Retry-After
        self.slow_seconds = 1.0  # how long a "slow" call takes before its normal answer
        self.on_call: Callable[[Call], None] | None = None  # told of each call (benchmarks)
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
        self.verbose = verbose
        self.url = ""
        self._changed = asyncio.Condition()
        self._envelopes: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._runner: web.AppRunner | None = None
        self._ts = itertools.count(1)

    # --- lifecycle ------------------------------------------------------------------

    async def start(self, port: int = 0) -> None:
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self._api)
        app.router.add_post("/response/{key}", self._response)
        app.router.add_get("/files-pri/{file_id}/{name}", self._download)
        app.router.add_get("/oauth/v2/authorize", self._authorize)
        app.router.add_get("/socket", self._socket)
        app.router.add_get("/_response/{key}", self._wait_response)  # for `play`
        app.router.add_get("/_messages", self._messages)
        app.router.add_get("/_channel", self._channel)
        app.router.add_post("/_uninstall/{team}", self._uninstall)  # for `uninstall`
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        host, bound = self._runner.addresses[0][:2]
        self.url = f"http://{host}:{bound}"

    async def stop(self) -> None:
        if self._runner:
            await self._runner.cleanup()

    @property
    def api_url(self) -> str:
        return f"{self.url}/api/"

    @property
    def authorize_url(self) -> str:
        return f"{self.url}/oauth/v2/authorize"

    def uninstall(self, team: str) -> None:
        """A workspace removes the app: every token Slack issued it stops working."""
        self.revoked |= {token for token, home in self.tokens.items() if home == team}

    def calls_in(self, team: str, method: str | None = None) -> list[Call]:
        """The Web API calls made with a token of ``team`` (of one method, if given)."""
        return [c for c in self.calls if c.team == team and method in (None, c.method)]

    def response_url(self, key: str) -> str:
        return f"{self.url}/response/{key}"

    # --- what the app sent ------------------------------------------------------------

    def calls_to(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def messages(self) -> list[dict[str, Any]]:
        """Every message the app sent: response_url posts and chat.* calls."""
        return [c.body for c in self.calls if c.method in ("response_url", *CHAT_METHODS)]

    def channel_posts(self, channel: str | None = None) -> list[ChannelPost]:
        """Messages posted in channels (all, or one channel's), each as last edited."""
        return [p for p in self._posts.values() if channel in (None, p.channel)]

    def dms(self, user: str) -> list[dict[str, Any]]:
        """Messages the app sent a user in its DM (chat.postMessage to the user's id)."""
        return [c.body for c in self.calls_to("chat.postMessage") if c.body.get("channel") == user]

    def ephemerals(self, user: str) -> list[dict[str, Any]]:
        """chat.postEphemeral messages to a user, in any channel."""
        return [c.body for c in self.calls_to("chat.postEphemeral") if c.body.get("user") == user]

    def add_file(self, name: str, content: bytes) -> dict[str, Any]:
        """A file a member uploaded in a modal: Slack's file object, as view.state has it."""
        file_id = f"F{len(self._files) + 1:08d}"
        self._files[file_id] = (name, content)
        url = f"{self.url}/files-pri/T1-{file_id}/{name}"
        return {
            "id": file_id,
            "created": int(time.time()),
            "timestamp": int(time.time()),
            "name": name,
            "title": name,
            "mimetype": "text/plain",
            "filetype": name.rsplit(".", 1)[-1],
            "pretty_type": "Plain Text",
            "user": "U1",
            "size": len(content),
            "mode": "hosted",
            "is_external": False,
            "is_public": False,
            "url_private": url,
            "url_private_download": url + "?download=1",
            "permalink": f"https://fake.slack.test/files/U1/{file_id}/{name}",
        }

    def responses(self, key: str) -> list[dict[str, Any]]:
        return [c.body for c in self.calls if c.method == "response_url" and c.key == key]

    async def wait_for(self, found: Callable[[], T | None], timeout: float = 10) -> T:
        """Wait until ``found()`` returns something (the app works after its ack)."""
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(found), timeout)
        result = found()
        assert result is not None
        return result

    async def response(self, key: str, count: int = 1) -> dict[str, Any]:
        """The ``count``-th message posted to a response_url, once it arrives."""
        posted = await self.wait_for(lambda: self.responses(key)[count - 1 :] or None)
        return posted[0]

    async def _record(self, call: Call) -> None:
        if self.verbose:
            print(f"fake slack ← {call.method} {json.dumps(call.body, ensure_ascii=False)[:300]}")
        if self.on_call is not None:
            self.on_call(call)
        async with self._changed:
            self.calls.append(call)
            self._changed.notify_all()

    # --- the Web API --------------------------------------------------------------------

    async def _fault(self, method: str, request: web.Request) -> web.Response | None:
        """The fault planned for this call, if any: an answer to return instead of the
        normal one (None for "slow", which answers normally, late)."""
        planned = self.faults.get(method)
        if not planned:
            return None
        fault = planned.pop(0)
        self.faulted.append((method, fault))
        if fault == "429":
            headers = {"Retry-After": str(self.retry_after)}
            return web.json_response(
                {"ok": False, "error": "ratelimited"}, status=429, headers=headers
            )
        if fault == "500":
            return web.Response(status=500, text="internal error")
        if fault == "drop":
            assert request.transport is not None
            request.transport.abort()  # the client sees the connection closed, no answer
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
        return web.json_response(answer)

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
            return {
                "ok": True,
                "url": "https://fake.slack.test/",
                "team": self.team_names.get(team, team),
                "user": "quizbot",
                "team_id": team,
                "user_id": bot_user(team),
                "bot_id": "B" + bot_user(team)[1:],
                "is_enterprise_install": False,
            }
        if method == "users.info":
            user = self.users.get(str(args.get("user")), self.anyone)
            if user is None:
                return {"ok": False, "error": "user_not_found"}
            return {"ok": True, "user": self._user(str(args["user"]), user, args)}
        if method in CHAT_METHODS:
            return self._chat(method, args)
        if method == "views.open":
            return self._open_view(args)
        if method == "apps.connections.open":
            return {"ok": True, "url": self.url.replace("http://", "ws://") + "/socket"}
        return {"ok": False, "error": "unknown_method"}

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
        return {
            "ok": True,
            "access_token": token,
            "token_type": "bot",
            "scope": scopes,
            "bot_user_id": bot_user(team),
            "app_id": "AQUIZBOT",
            "team": {"id": team, "name": self.team_names.get(team, team)},
            "enterprise": None,
            "is_enterprise_install": False,
            "authed_user": {"id": installer},
        }

    def _open_view(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """A modal, for a trigger_id the driver issued less than 3 s ago and used once."""
        trigger = str(args.get("trigger_id"))
        issued = re.fullmatch(r"trigger\.[\w.-]+\.(\d+)", trigger)
        if issued is None or trigger in self._triggers_used:
            return {"ok": False, "error": "invalid_trigger_id"}
        if time.time() - int(issued[1]) / 1000 > TRIGGER_SECONDS:
            return {"ok": False, "error": "expired_trigger_id"}
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
        self._triggers_used.add(trigger)
        opened = {
            **view,
            "id": f"V{len(self.views) + 1:08d}",
            "team_id": "T1",
            "state": {"values": {}},
            "hash": f"{time.time():.6f}.fake",
            "app_id": "AQUIZBOT",
            "bot_id": "BQUIZBOT",
        }
        self.views.append(OpenedView(trigger, opened))
        return {"ok": True, "view": opened}

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

    @staticmethod
    def _user(user_id: str, user: User, args: Mapping[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = {
            "id": user_id,
            "name": user_id.lower(),
            "real_name": user.real_name,
            "is_admin": user.admin,
            "is_owner": user.owner,
            "profile": {"display_name": user.display_name, "real_name": user.real_name},
        }
        if str(args.get("include_locale")).lower() in ("1", "true"):
            found["locale"] = user.locale
        return found

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

    async def _wait_response(self, request: web.Request) -> web.Response:
        count = int(request.query.get("count", "1"))
        return web.json_response(await self.response(request.match_info["key"], count))

    async def _messages(self, request: web.Request) -> web.Response:
        return web.json_response(self.messages())

    async def _uninstall(self, request: web.Request) -> web.Response:
        self.uninstall(request.match_info["team"])
        return web.Response(text="ok")

    async def _channel(self, request: web.Request) -> web.Response:
        return web.json_response([asdict(p) for p in self.channel_posts()])

    async def _response(self, request: web.Request) -> web.Response:
        if (fault := await self._fault("response_url", request)) is not None:
            return fault
        await self._record(Call("response_url", await request.json(), request.match_info["key"]))
        return web.Response(text="ok")

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


class Inbox(Protocol):
    """Where the app's replies arrive: a FakeSlack in-process, or one over HTTP."""

    def response_url(self, key: str) -> str: ...

    async def response(self, key: str, count: int = 1) -> dict[str, Any]: ...


@dataclass(frozen=True)
class RemoteFake:
    """A FakeSlack running in another process (``serve``), read over HTTP."""

    url: str

    def response_url(self, key: str) -> str:
        return f"{self.url}/response/{key}"

    async def _get(self, path: str) -> Any:
        async with aiohttp.ClientSession() as session, session.get(self.url + path) as resp:
            resp.raise_for_status()
            return await resp.json()

    async def response(self, key: str, count: int = 1) -> dict[str, Any]:
        found: dict[str, Any] = await self._get(f"/_response/{key}?count={count}")
        return found

    async def messages(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = await self._get("/_messages")
        return found

    async def channel_posts(self) -> list[ChannelPost]:
        return [ChannelPost(**post) for post in await self._get("/_channel")]


_KEYS = itertools.count(1)


def trigger_id(key: str) -> str:
    """A trigger id as Slack issues one: views.open takes it once, within 3 s."""
    return f"trigger.{key}.{int(time.time() * 1000)}"


def _state(element: Mapping[str, Any], answer: object) -> dict[str, Any]:
    """What view.state.values holds for one input element given a member's answer: a
    text, a select's value, the values of ticked checkboxes, or a file_input's files."""
    kind = element["type"]
    options = element.get("options", [])
    many = list(answer) if isinstance(answer, list | tuple) else []
    if kind == "plain_text_input":
        assert answer is None or len(str(answer)) <= element.get("max_length", 3000)
        return {"type": kind, "value": answer}
    if kind == "static_select":
        chosen = next((o for o in options if o["value"] == answer), element.get("initial_option"))
        return {"type": kind, "selected_option": chosen}
    if kind == "checkboxes":
        ticked = [o for o in options if o["value"] in many]
        return {"type": kind, "selected_options": ticked}
    if kind == "file_input":
        assert len(many) <= element.get("max_files", 10)
        return {"type": kind, "files": many}
    raise AssertionError(f"the fake cannot fill a {kind} input")


def submitted_view(view: Mapping[str, Any], answers: Mapping[str, object]) -> dict[str, Any]:
    """The view as a view_submission carries it: ``answers`` by action id. As Slack's
    client, it refuses to submit a required input left empty or an unknown action id."""
    values: dict[str, Any] = {}
    for block in view["blocks"]:
        if block["type"] != "input":
            continue
        element = block["element"]
        answer = answers.get(element["action_id"])
        empty = answer in (None, "", [], ()) and element["type"] != "static_select"
        assert not (empty and not block.get("optional")), f"{element['action_id']} is required"
        values[block["block_id"]] = {element["action_id"]: _state(element, answer)}
    known = {a for inputs in values.values() for a in inputs}
    assert set(answers) <= known, f"no inputs {set(answers) - known} in the view"
    return {**view, "state": {"values": values}}


@dataclass
class SlackDriver:
    """Slack's side of the conversation with the app: signed slash commands and clicks."""

    fake: Inbox
    app_url: str
    secret: str
    team: str = "T1"
    channel: str = "C1"
    timings: list[tuple[str, float, float]] = field(default_factory=list)
    # One count for every driver in the process: response URLs never repeat on one fake.
    _keys: itertools.count = field(default_factory=lambda: _KEYS)

    def new_key(self) -> str:
        # With the team: drivers of two workspaces share one fake's response URLs.
        return f"{self.team}r{next(self._keys)}"

    def command_fields(self, text: str, user: str, key: str) -> dict[str, str]:
        return {
            "token": "deprecated-verification-token",
            "team_id": self.team,
            "team_domain": "fake",
            "channel_id": self.channel,
            "channel_name": "general",
            "user_id": user,
            "user_name": user.lower(),
            "command": "/quiz",
            "text": text,
            "api_app_id": "AQUIZBOT",
            "is_enterprise_install": "false",
            "response_url": self.fake.response_url(key),
            "trigger_id": trigger_id(key),
        }

    def click_payload(
        self, action_id: str, user: str, key: str, message_ts: str | None = None
    ) -> dict[str, Any]:
        """A block_actions payload: a click on an ephemeral message (a personal quiz), or
        with ``message_ts`` on that public channel message."""
        return {
            "type": "block_actions",
            "user": {
                "id": user,
                "username": user.lower(),
                "name": user.lower(),
                "team_id": self.team,
            },
            "api_app_id": "AQUIZBOT",
            "token": "deprecated-verification-token",
            "container": {
                "type": "message",
                "message_ts": message_ts or "1.0001",
                "channel_id": self.channel,
                "is_ephemeral": message_ts is None,
            },
            "trigger_id": trigger_id(key),
            "team": {"id": self.team, "domain": "fake"},
            "enterprise": None,
            "is_enterprise_install": False,
            "channel": {"id": self.channel, "name": "general"},
            "state": {"values": {}},
            "response_url": self.fake.response_url(key),
            "actions": [
                {
                    "action_id": action_id,
                    "block_id": "b1",
                    "text": {"type": "plain_text", "text": "A"},
                    "type": "button",
                    "action_ts": f"{time.time():.6f}",
                }
            ],
        }

    def submission_payload(
        self, view: Mapping[str, Any], answers: Mapping[str, object], user: str, key: str
    ) -> dict[str, Any]:
        """A view_submission payload: the member submits the modal ``view`` with ``answers``
        (by action id)."""
        return {
            "type": "view_submission",
            "team": {"id": self.team, "domain": "fake"},
            "user": {
                "id": user,
                "username": user.lower(),
                "name": user.lower(),
                "team_id": self.team,
            },
            "api_app_id": "AQUIZBOT",
            "token": "deprecated-verification-token",
            "trigger_id": trigger_id(key),
            "view": submitted_view(view, answers),
            "response_urls": [],
            "is_enterprise_install": False,
            "enterprise": None,
        }

    async def open_form(self, text: str, user: str, fake: FakeSlack) -> dict[str, Any]:
        """Send ``/quiz <text>``, which opens a modal; returns the view Slack shows."""
        key = self.new_key()
        assert await self.post(urlencode(self.command_fields(text, user, key))) == 200
        opened = await fake.wait_for(
            lambda: next(
                (v for v in fake.views if v.trigger_id.startswith(f"trigger.{key}.")), None
            )
        )
        return opened.view

    async def submit(
        self, view: Mapping[str, Any], answers: Mapping[str, object], user: str
    ) -> dict[str, Any]:
        """Submit a modal; returns the app's acknowledgement ({} when it closes the modal)."""
        payload = self.submission_payload(view, answers, user, self.new_key())
        status, body = await self.send(urlencode({"payload": json.dumps(payload)}))
        assert status == 200, f"view_submission: HTTP {status}"
        found: dict[str, Any] = json.loads(body) if body.strip() else {}
        return found

    async def post(
        self,
        body: str | bytes,
        *,
        timestamp: int | str | None = None,
        secret: str | None = None,
        signed: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> int:
        """Post a form body to the app as Slack does; returns the HTTP status. The
        keywords forge the request: another timestamp, secret or signed body, or the
        headers sent instead of Slack's."""
        status, _ = await self.send(
            body, timestamp=timestamp, secret=secret, signed=signed, headers=headers
        )
        return status

    async def send(
        self,
        body: str | bytes,
        *,
        timestamp: int | str | None = None,
        secret: str | None = None,
        signed: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> tuple[int, str]:
        """As ``post``, returning the HTTP status and the response's body."""
        ts = str(int(time.time()) if timestamp is None else timestamp)
        raw = body if isinstance(body, bytes) else body.encode()
        signature = sign(self.secret if secret is None else secret, ts, signed or raw)
        if headers is None:
            headers = {
                "Content-Type": "application/x-www-form-urlencoded",
                "X-Slack-Request-Timestamp": ts,
                "X-Slack-Signature": signature,
            }
        async with (
            aiohttp.ClientSession() as session,
            session.post(self.app_url, data=raw, headers=headers) as resp,
        ):
            return resp.status, await resp.text()

    async def event(self, event: Mapping[str, Any], team: str | None = None) -> int:
        """Deliver an Events API event of ``team`` (the driver's own by default), signed,
        as JSON; returns the HTTP status."""
        body = {
            "token": "deprecated-verification-token",
            "team_id": team or self.team,
            "api_app_id": "AQUIZBOT",
            "event": dict(event),
            "type": "event_callback",
            "event_id": f"Ev{time.time_ns()}",
            "event_time": int(time.time()),
            "authorizations": [],
            "is_ext_shared_channel": False,
        }
        raw = json.dumps(body).encode()
        return await self.post(raw, headers=self.json_headers(raw))

    def json_headers(self, raw: bytes) -> dict[str, str]:
        """Slack's headers for a JSON body (events), signed now."""
        ts = str(int(time.time()))
        return {
            "Content-Type": "application/json",
            "X-Slack-Request-Timestamp": ts,
            "X-Slack-Signature": sign(self.secret, ts, raw),
        }

    @property
    def base_url(self) -> str:
        """The app's origin: /slack/install and /slack/oauth_redirect are served there."""
        parts = urlsplit(self.app_url)
        return f"{parts.scheme}://{parts.netloc}"

    async def install(self, team: str, cookie: bool = True) -> tuple[int, str]:
        """Install the app in ``team`` as a browser does: open /slack/install, follow its
        "Add to Slack" link to the authorize page (approved at once), follow Slack's
        redirect back to the app with the cookie the install page set (none without
        ``cookie``). Returns the final page's status and text."""
        back, state_cookie = await self.approve(team)
        return await self.finish_install(back, state_cookie if cookie else "")

    async def install_page(self, team: str | None = None) -> tuple[str, str]:
        """The install page's "Add to Slack" link and the cookie the page sets."""
        query = f"?team={team}" if team else ""
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"{self.base_url}/slack/install{query}") as page,
        ):
            assert page.status == 200, f"/slack/install: HTTP {page.status}"
            text = await page.text()
            set_cookie = page.headers.get("Set-Cookie", "")
        link = re.search(r'href="([^"]*/oauth/v2/authorize[^"]*)"', text)
        assert link is not None, "no Add to Slack link on the install page"
        return html.unescape(link[1]), set_cookie.split(";")[0]

    async def approve(self, team: str) -> tuple[str, str]:
        """Follow the install page's link to the authorize page, approved at once: where
        Slack sends the browser back to (the app's redirect URL with a code and the
        state), and the install page's cookie."""
        link, cookie = await self.install_page(team)
        async with (
            aiohttp.ClientSession() as session,
            session.get(link, allow_redirects=False) as approved,
        ):
            assert approved.status == 302, f"authorize: HTTP {approved.status}"
            return approved.headers["Location"], cookie

    async def finish_install(self, redirect: str, cookie: str = "") -> tuple[int, str]:
        """Arrive at the app's redirect URL (Slack sends the browser there)."""
        headers = {"Cookie": cookie} if cookie else {}
        async with (
            aiohttp.ClientSession() as session,
            session.get(redirect, headers=headers, allow_redirects=False) as done,
        ):
            return done.status, await done.text()

    async def _exchange(self, what: str, body: str, key: str) -> dict[str, Any]:
        started = time.perf_counter()
        status = await self.post(body)
        acked = time.perf_counter()
        assert status == 200, f"{what}: HTTP {status}"
        message = await self.fake.response(key)
        self.timings.append((what, acked - started, time.perf_counter() - started))
        return message

    async def command(self, text: str, user: str = "U1") -> dict[str, Any]:
        """Send ``/quiz <text>``; returns the message the app posts back."""
        key = self.new_key()
        return await self._exchange(
            f"/quiz {text}".strip(), urlencode(self.command_fields(text, user, key)), key
        )

    async def click(
        self, action_id: str, user: str = "U1", message_ts: str | None = None
    ) -> dict[str, Any]:
        """Click a button (on the public message ``message_ts``, if given); returns the
        message the app posts back."""
        key = self.new_key()
        body = self.click_body(action_id, user, key, message_ts)
        return await self._exchange(f"click {action_id}", body, key)

    def click_body(self, action_id: str, user: str, key: str, message_ts: str | None = None) -> str:
        """The form body of a click, as ``post`` sends it."""
        return urlencode(
            {"payload": json.dumps(self.click_payload(action_id, user, key, message_ts))}
        )


# --- reading messages as a player does -------------------------------------------------------


_LINK = re.compile(r"<([^|>]+)(?:\|([^>]+))?>")  # <url> or <url|label>
_STYLE = re.compile(r"([*_~`])([^*_~`\n]+)\1")  # *bold*, _italic_, ~strike~, `code`


def buttons(message: Mapping[str, Any]) -> dict[str, str]:
    """Button label → action_id, for every button in a message."""
    return {
        element["text"]["text"]: element["action_id"]
        for block in message.get("blocks", [])
        if block["type"] == "actions"
        for element in block["elements"]
    }


def shown_text(message: Mapping[str, Any]) -> str:
    """The message's text roughly as Slack shows it (links, styles and entities resolved)."""
    parts = []
    for block in message.get("blocks", []):
        for item in [block.get("text"), *block.get("elements", []), *block.get("fields", [])]:
            text = item.get("text") if isinstance(item, dict) else None
            text = text.get("text") if isinstance(text, dict) else text  # a button's label
            if isinstance(text, str):
                text = _STYLE.sub(r"\2", _LINK.sub(lambda m: m[2] or m[1], text))
                parts.append(html.unescape(text))
    return "\n".join(parts)


# --- standalone ----------------------------------------------------------------------------


def _named_users(args: argparse.Namespace) -> dict[str, User]:
    """``--user ID=Name`` and ``--admin ID`` as users.info answers."""
    named = dict(pair.split("=", 1) for pair in args.user)
    ids = dict.fromkeys([*named, *args.admin])
    return {i: User(args.locale, named.get(i, i), admin=i in args.admin) for i in ids}


async def _serve(args: argparse.Namespace) -> None:
    fake = FakeSlack(_named_users(args), anyone=User(args.locale, args.name), verbose=True)
    fake.homes.update(pair.split("=", 1) for pair in args.home)
    fake.redirect_url = args.redirect
    await fake.start(args.port)
    print(f"fake Slack Web API at {fake.api_url} (Ctrl-C to stop)", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await fake.stop()


def _remote(args: argparse.Namespace) -> tuple[RemoteFake, SlackDriver]:
    """The running fake, and a driver whose response_url keys are unique across runs (the
    fake keeps every earlier reply)."""
    fake = RemoteFake(f"http://127.0.0.1:{args.port}")
    keys = itertools.count(time.time_ns())
    driver = SlackDriver(fake, args.app, args.secret, args.team, args.channel, _keys=keys)
    return fake, driver


async def _installing(args: argparse.Namespace) -> int:
    """``install``: Add to Slack as a browser would; ``uninstall``: the workspace's tokens
    stop working and the app hears app_uninstalled."""
    fake, slack = _remote(args)
    if args.command == "install":
        status, page = await slack.install(args.team)
        heading = re.search(r"<h2>(.*?)</h2>", page)
        print(f"HTTP {status}: {heading[1] if heading else page[:200]}")
        return 0 if status == 200 else 1
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{fake.url}/_uninstall/{args.team}") as done,
    ):
        done.raise_for_status()
    status = await slack.event({"type": "app_uninstalled"}, args.team)
    print(f"app_uninstalled → HTTP {status}")
    return 0 if status == 200 else 1


async def _play(args: argparse.Namespace) -> int:
    fake, slack = _remote(args)
    letters = itertools.cycle(args.answers)
    message = await slack.command(args.topic, args.user)
    while True:
        print(shown_text(message), "\n", flush=True)
        choices = buttons(message)
        if "A" in choices:
            letter = next(letters)
            print(f"> clicking {letter}\n")
            message = await slack.click(choices[letter], args.user)
        elif choices:  # the "Next question" button
            message = await slack.click(next(iter(choices.values())), args.user)
        else:
            break
    print(shown_text(await slack.command(f"leaderboard {args.topic}", args.user)))
    messages = await fake.messages()
    invalid = [p for m in messages for p in message_problems(m)]
    print(f"\n{len(messages)} messages received, {len(invalid)} Block Kit problems")
    for problem in invalid:
        print(f"  {problem}")
    print("timings (ms): request → HTTP ack, request → reply posted to response_url")
    for what, acked, replied in slack.timings:
        print(f"  {acked * 1000:7.1f} {replied * 1000:7.1f}  {what}")
    slowest = max(replied for _, _, replied in slack.timings)
    print(f"slowest reply: {slowest * 1000:.1f} ms")
    return 1 if invalid else 0


def _print_posts(posts: Sequence[ChannelPost]) -> None:
    for number, post in enumerate(posts, start=1):
        edited = f", edited {post.edits}x" if post.edits else ""
        labels = " ".join(buttons({"blocks": post.blocks}))
        print(f"#{number} {post.ref}{edited}{' · buttons ' + labels if labels else ''}")
        print(shown_text({"blocks": post.blocks}), "\n", flush=True)


async def _one(args: argparse.Namespace) -> int:
    """``send``, ``posts`` or ``click``: one step of channel play by hand."""
    fake, slack = _remote(args)
    if args.command == "posts":
        _print_posts([p for p in await fake.channel_posts() if p.channel == args.channel])
        return 0
    if args.command == "send":
        reply = await slack.command(args.text, args.user)
    else:
        posts = [p for p in await fake.channel_posts() if p.channel == args.channel]
        post = posts[args.post - 1]
        action = buttons({"blocks": post.blocks})[args.letter]
        reply = await slack.click(action, args.user, message_ts=post.ts)
    private = reply.get("response_type") == "ephemeral" and not reply.get("replace_original")
    print(f"[{'private' if private else 'public'} reply to {args.user}]")
    print(shown_text(reply))
    invalid = message_problems(reply)
    for problem in invalid:
        print(f"  Block Kit problem: {problem}")
    return 1 if invalid else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.slack.fake_slack")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the fake Slack and print what it receives")
    serve.add_argument("--port", type=int, default=8900)
    serve.add_argument("--locale", default="en-US", help="users.info locale, e.g. hi-IN")
    serve.add_argument("--name", default="Ada", help="users.info display name")
    serve.add_argument(
        "--user",
        action="append",
        default=[],
        metavar="ID=NAME",
        help="a user with their own display name (repeatable)",
    )
    serve.add_argument(
        "--admin",
        action="append",
        default=[],
        metavar="ID",
        help="a workspace admin, per users.info (repeatable)",
    )
    serve.add_argument(
        "--home",
        action="append",
        default=[],
        metavar="ID=TEAM",
        help=f"a channel or user of another workspace than {HOME} (repeatable)",
    )
    serve.add_argument(
        "--redirect",
        default="http://127.0.0.1:3000/slack/oauth_redirect",
        help="the app's OAuth redirect URL, where the authorize page sends the browser",
    )
    install = sub.add_parser("install", help="install the app in a workspace (Add to Slack)")
    uninstall = sub.add_parser("uninstall", help="remove the app from a workspace")
    for one in (install, uninstall):
        one.add_argument("team", help="the workspace, e.g. T2")
    play = sub.add_parser("play", help="play a quiz against a running quizbot, as Slack would")
    play.add_argument("topic")
    play.add_argument("--answers", default="ABCD", help="letters to click, in turn")
    send = sub.add_parser("send", help="send one /quiz command and print the reply")
    send.add_argument("text", help='the text after /quiz, e.g. "race offloading 2 10"')
    posts = sub.add_parser("posts", help="print the channel's messages, as last edited")
    click = sub.add_parser("click", help="click a button of a channel message")
    click.add_argument("post", type=int, help="the message's number, as `posts` shows it")
    click.add_argument("letter", help="the button's label, e.g. B")
    for one in (play, send, posts, click, install, uninstall):
        one.add_argument("--port", type=int, default=8900, help="port of the running fake")
        one.add_argument("--app", default="http://127.0.0.1:3000/slack/events")
        one.add_argument("--secret", default=os.environ.get("SLACK_SIGNING_SECRET", ""))
        one.add_argument("--channel", default="C1")
        one.add_argument("--team", default=HOME, help="the workspace the member is in")
    for one in (play, send, click):
        one.add_argument("--user", default="U0PLAYER")
    args = parser.parse_args(argv)
    if args.command == "serve":
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_serve(args))
        return 0
    if not args.secret:
        parser.error("set SLACK_SIGNING_SECRET or pass --secret")
    if args.command in ("install", "uninstall"):
        return asyncio.run(_installing(args))
    return asyncio.run(_play(args) if args.command == "play" else _one(args))


if __name__ == "__main__":
    sys.exit(main())
