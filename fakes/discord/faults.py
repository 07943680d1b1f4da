"""Failures the fake Discord serves instead of an answer, as Discord's API sometimes does."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from aiohttp import web
from aiohttp.typedefs import Handler

from ..serving import drop_connection
from .errors import error, rate_limited


@dataclass(frozen=True)
class Fault:
    """One failure the fake serves, once, to the next REST request whose path contains
    ``path``: a 429 (with Retry-After, as Discord sends it), a 500, a slow answer
    (``delay`` seconds, then the real one) or a dropped connection."""

    path: str
    status: int = 0  # 429 or 500; 0: answer for real (after the delay)
    delay: float = 0.0
    drop: bool = False
    retry_after: float = 0.05

    async def serve(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        await asyncio.sleep(self.delay)
        if self.drop:
            drop_connection(request)
            raise asyncio.CancelledError
        if self.status == 429:
            return rate_limited(self.retry_after)
        if self.status:
            return error(self.status, 0, "500: Internal Server Error")
        return await handler(request)
