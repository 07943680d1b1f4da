"""The fake Slack in a process of its own, with a control API the by-hand commands
(remote.py) read it through: the replies posted to a response_url, every message, the
channel's posts, and a workspace removing the app."""

from __future__ import annotations

from dataclasses import asdict

from aiohttp import web

from ..serving import json_response
from .server import FakeSlack


class StandaloneSlack(FakeSlack):
    def app(self) -> web.Application:
        app = super().app()
        app.router.add_get("/_response/{key}", self._wait_response)  # for `play`
        app.router.add_get("/_messages", self._messages)
        app.router.add_get("/_channel", self._channel)
        app.router.add_post("/_uninstall/{team}", self._uninstall)  # for `uninstall`
        return app

    async def _wait_response(self, request: web.Request) -> web.Response:
        count = int(request.query.get("count", "1"))
        return json_response(await self.response(request.match_info["key"], count))

    async def _messages(self, request: web.Request) -> web.Response:
        return json_response(self.messages())

    async def _uninstall(self, request: web.Request) -> web.Response:
        self.uninstall(request.match_info["team"])
        return web.Response(text="ok")

    async def _channel(self, request: web.Request) -> web.Response:
        return json_response([asdict(p) for p in self.channel_posts()])
