"""Every request read once, before anything else reads its body, and kept in bolt's
context for its listener."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from slack_bolt.async_app import AsyncBoltContext, AsyncBoltRequest
from slack_bolt.middleware.async_middleware import AsyncMiddleware
from slack_bolt.response import BoltResponse

from . import parse

log = logging.getLogger(__name__)

READ = "quizbot_read"  # the key, in bolt's context, of the request as read
T = TypeVar("T")


class RefuseUnreadable(AsyncMiddleware):
    """Runs after the signature check and before anything else reads the body: bolt's
    matchers and argument injection raise on, say, an empty ``actions`` list. What it
    reads is kept for the listener; what it cannot read is refused. A class, not a
    function middleware, because bolt builds a function's arguments from the body."""

    async def async_process(
        self,
        *,
        req: AsyncBoltRequest,
        resp: BoltResponse,
        next: Callable[[], Awaitable[BoltResponse]],
    ) -> BoltResponse:
        read = parse.read(req.body)
        if read is None:
            log.warning("refused a Slack request this app does not understand")
            return BoltResponse(status=400, body="")
        req.context[READ] = read
        return await next()


def read_of(context: AsyncBoltContext, kind: type[T]) -> T | None:
    """The request as RefuseUnreadable read it, if it is of the kind the listener serves
    (a forged body may look like another kind to bolt's matchers than to the parser)."""
    read = context.get(READ)
    return read if isinstance(read, kind) else None
