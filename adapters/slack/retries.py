"""Retries for Slack's HTTP calls, within Slack's rules: wait out a 429's Retry-After,
try a 500/503 or a dropped connection once more. Each incident is one WARNING, logged by
the caller once the call has succeeded or given up, never one per retry."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState

from bot.operations import metrics

log = logging.getLogger(__name__)

PLATFORM = "slack"
SERVER_ERRORS = (500, 503)  # retried once, as AsyncServerErrorRetryHandler does


@dataclass
class Retried:
    """What the handlers of one call saw: the reasons it was retried."""

    reasons: list[str] = field(default_factory=list)


def _reason(response: HttpResponse | None, error: Exception | None) -> str:
    return f"HTTP {response.status_code}" if response is not None else type(error).__name__


def _counted(base: type[AsyncRetryHandler]) -> Callable[..., AsyncRetryHandler]:
    class Counted(base):  # type: ignore[valid-type, misc]
        def __init__(self, seen: Retried | None = None, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.seen = seen

        async def prepare_for_next_attempt_async(
            self,
            *,
            state: RetryState,
            request: HttpRequest,
            response: HttpResponse | None = None,
            error: Exception | None = None,
        ) -> None:
            metrics.API_RETRIES.labels(platform=PLATFORM).inc()
            reason = _reason(response, error)
            if self.seen is not None:
                self.seen.reasons.append(reason)
            else:  # a shared Web API client: its callers warn when a call finally fails
                log.info("retrying a Slack Web API call after %s", reason)
            await super().prepare_for_next_attempt_async(
                state=state, request=request, response=response, error=error
            )

    Counted.__name__ = base.__name__
    return Counted


RateLimited = _counted(AsyncRateLimitErrorRetryHandler)
ServerError = _counted(AsyncServerErrorRetryHandler)
ConnectionError_ = _counted(AsyncConnectionErrorRetryHandler)


def handlers(seen: Retried | None = None) -> list[AsyncRetryHandler]:
    """One retry after a 429 (waiting its Retry-After), a 500/503 or a dropped connection."""
    return [
        RateLimited(seen, max_retry_count=1),
        ServerError(seen, max_retry_count=1),
        ConnectionError_(seen, max_retry_count=1),
    ]


def api_error(exc: SlackApiError) -> str:
    """Slack's error code, or the HTTP status when the answer was not Slack's JSON (a 500
    from a proxy, say: ``exc.response.get`` would raise on its text)."""
    data = exc.response.data
    if isinstance(data, dict) and data.get("error"):
        return str(data["error"])
    return f"HTTP {exc.response.status_code}"


def failed_call(exc: SlackApiError | aiohttp.ClientError | TimeoutError) -> str:
    """Count a Web API call that failed, and say why in a word (for one warning)."""
    metrics.API_ERRORS.labels(platform=PLATFORM).inc()
    return api_error(exc) if isinstance(exc, SlackApiError) else type(exc).__name__
