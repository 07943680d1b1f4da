"""What both fake platforms do as aiohttp servers on 127.0.0.1: start and stop, answer
JSON, drop a connection as a failing server does, run standalone until Ctrl-C, and be read
over HTTP while they do."""

from __future__ import annotations

import abc
import asyncio
import contextlib
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import aiohttp
from aiohttp import web


class LocalServer(abc.ABC):
    """An aiohttp application on 127.0.0.1; a subclass says what it serves."""

    def __init__(self) -> None:
        self.url = ""  # http://127.0.0.1:<port>, once started
        self._runner: web.AppRunner | None = None

    @abc.abstractmethod
    def app(self) -> web.Application: ...

    async def start(self, port: int = 0) -> str:
        """Serve on ``port`` (0: any free one); returns the server's URL."""
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", port).start()
        self.url = f"http://127.0.0.1:{self._runner.addresses[0][1]}"
        return self.url

    async def stop(self) -> None:
        if self._runner:
            await self._runner.cleanup()

    @property
    def ws_url(self) -> str:
        """The server's URL for a websocket."""
        return self.url.replace("http://", "ws://")


def json_response(
    data: Any, status: int = 200, headers: Mapping[str, str] | None = None
) -> web.Response:
    # Exactly "application/json": discord.py ignores a body with "; charset=utf-8".
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def drop_connection(request: web.Request) -> None:
    """Close the connection without an answer: the client sees it go mid-request."""
    assert request.transport is not None
    request.transport.abort()


def serve(server: LocalServer, port: int, describe: Callable[[], Iterable[str]]) -> None:
    """Run ``server`` on ``port`` until Ctrl-C, printing ``describe()`` once it listens."""

    async def run() -> None:
        await server.start(port)
        for line in describe():
            print(line, flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await server.stop()

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run())


async def get_json(url: str) -> Any:
    """What a standalone fake answers to a GET of its control API."""
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        response.raise_for_status()
        return await response.json()
