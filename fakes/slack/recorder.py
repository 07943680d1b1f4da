"""What the app sent the fake Slack, kept in order and waited on: every Web API call and
``response_url`` post, and what a test reads of them."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..serving import LocalServer

T = TypeVar("T")
CHAT_METHODS = ("chat.postMessage", "chat.postEphemeral", "chat.update")


@dataclass(frozen=True)
class Call:
    method: str  # a Web API method, or "response_url"
    body: dict[str, Any]
    key: str = ""  # which response_url, for "response_url"
    team: str = ""  # the team of the bot token the call carried ("" for none)


class Recorder(LocalServer):
    def __init__(self, verbose: bool) -> None:
        super().__init__()
        self.calls: list[Call] = []
        self.on_call: Callable[[Call], None] | None = None  # told of each call (benchmarks)
        self.verbose = verbose  # print each call
        self._changed = asyncio.Condition()  # notified of each call

    def calls_in(self, team: str, method: str | None = None) -> list[Call]:
        """The Web API calls made with a token of ``team`` (of one method, if given)."""
        return [c for c in self.calls if c.team == team and method in (None, c.method)]

    def calls_to(self, method: str) -> list[Call]:
        return [c for c in self.calls if c.method == method]

    def messages(self) -> list[dict[str, Any]]:
        """Every message the app sent: response_url posts and chat.* calls."""
        return [c.body for c in self.calls if c.method in ("response_url", *CHAT_METHODS)]

    def dms(self, user: str) -> list[dict[str, Any]]:
        """Messages the app sent a user in its DM (chat.postMessage to the user's id)."""
        return [c.body for c in self.calls_to("chat.postMessage") if c.body.get("channel") == user]

    def ephemerals(self, user: str) -> list[dict[str, Any]]:
        """chat.postEphemeral messages to a user, in any channel."""
        return [c.body for c in self.calls_to("chat.postEphemeral") if c.body.get("user") == user]

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
