"""What a test does to the app as Slack's other half: slash commands, button clicks, modal
submissions and events (the App Home opened, and clicked), signed the way Slack signs
them, an install as a browser does it, and the messages the app posts back."""

from __future__ import annotations

import html
import itertools
import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict, Unpack
from urllib.parse import urlencode, urlsplit

import aiohttp

from . import payloads
from .server import FakeSlack
from .signing import FORM, signed_headers

_KEYS = itertools.count(1)


class Inbox(Protocol):
    """Where the app's replies arrive: a FakeSlack in-process, or one over HTTP."""

    def response_url(self, key: str) -> str: ...

    async def response(self, key: str, count: int = 1) -> dict[str, Any]: ...


class Forgery(TypedDict, total=False):
    """What a test forges of a request: another timestamp, secret or signed body, or the
    headers sent instead of Slack's."""

    timestamp: int | str | None
    secret: str | None
    signed: str | None
    headers: Mapping[str, str] | None


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
    _keys: itertools.count[int] = field(default_factory=lambda: _KEYS)

    def new_key(self) -> str:
        # With the team: drivers of two workspaces share one fake's response URLs.
        return f"{self.team}r{next(self._keys)}"

    def command_fields(self, text: str, user: str, key: str) -> dict[str, str]:
        return payloads.slash_command(
            self.team, self.channel, text, user, self.fake.response_url(key), key
        )

    def click_payload(
        self, action_id: str, user: str, key: str, message_ts: str | None = None
    ) -> dict[str, Any]:
        """A block_actions payload (see ``payloads.block_actions``)."""
        return payloads.block_actions(
            self.team, self.channel, action_id, user, self.fake.response_url(key), key, message_ts
        )

    def submission_payload(
        self, view: Mapping[str, Any], answers: Mapping[str, object], user: str, key: str
    ) -> dict[str, Any]:
        """A view_submission payload: the member submits the modal ``view`` with ``answers``
        (by action id)."""
        return payloads.view_submission(self.team, view, answers, user, key)

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

    async def post(self, body: str | bytes, **forged: Unpack[Forgery]) -> int:
        """Post a form body to the app as Slack does, or ``forged``; returns the HTTP
        status."""
        status, _ = await self.send(body, **forged)
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
        raw = body if isinstance(body, bytes) else body.encode()
        if headers is None:
            headers = signed_headers(
                self.secret if secret is None else secret,
                signed or raw,
                FORM,
                None if timestamp is None else str(timestamp),
            )
        async with (
            aiohttp.ClientSession() as session,
            session.post(self.app_url, data=raw, headers=headers) as resp,
        ):
            return resp.status, await resp.text()

    async def event(self, event: Mapping[str, Any], team: str | None = None) -> int:
        """Deliver an Events API event of ``team`` (the driver's own by default), signed,
        as JSON; returns the HTTP status."""
        raw = json.dumps(payloads.event_callback(team or self.team, event)).encode()
        return await self.post(raw, headers=self.json_headers(raw))

    async def open_home(self, user: str = "U1", tab: str = "home") -> int:
        """The member opens the App Home's ``tab`` (``app_home_opened``); returns the HTTP
        status. What the app publishes arrives in the fake's ``published``."""
        return await self.event(payloads.app_home_opened(user, tab))

    async def click_home(self, action_id: str, view: Mapping[str, Any], user: str = "U1") -> int:
        """Click a button on the member's Home ``view``; returns the HTTP status (the
        reply has no response_url to arrive at: the app posts it with the Web API)."""
        payload = payloads.home_block_actions(self.team, action_id, user, self.new_key(), view)
        return await self.post(urlencode({"payload": json.dumps(payload)}))

    def json_headers(self, raw: bytes) -> dict[str, str]:
        """Slack's headers for a JSON body (events), signed now."""
        return signed_headers(self.secret, raw, "application/json")

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

    async def click_form(
        self, action_id: str, user: str, fake: FakeSlack, message_ts: str | None = None
    ) -> tuple[str, dict[str, Any]]:
        """Click a button that opens a modal (an estimate's Answer); returns the click's
        key (its response URL's) and the view Slack shows."""
        key = self.new_key()
        assert await self.post(self.click_body(action_id, user, key, message_ts)) == 200
        opened = await fake.wait_for(
            lambda: next(
                (v for v in fake.views if v.trigger_id.startswith(f"trigger.{key}.")), None
            )
        )
        return key, opened.view

    def click_body(self, action_id: str, user: str, key: str, message_ts: str | None = None) -> str:
        """The form body of a click, as ``post`` sends it."""
        return urlencode(
            {"payload": json.dumps(self.click_payload(action_id, user, key, message_ts))}
        )
