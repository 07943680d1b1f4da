"""Replies through an interaction's ``response_url``: it works in any channel (the bot
need not be a member), and it can update the clicked message in place, send a new
message only the player sees, or post in the channel — whichever the core decided. A
submitted form and a click on the Home tab have no response_url: ``post_privately``."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.webhook.async_client import AsyncWebhookClient

from bot.operations import metrics
from bot.services.channel import notice
from bot.services.requests import Delivery, Reply
from bot.ui import i18n

from . import retries
from .publisher import NOT_A_MEMBER
from .render import SlackMessage, render
from .retries import api_error, failed_call

log = logging.getLogger(__name__)

PLATFORM = "slack"
# A new message never replaces the one clicked: a refused click must leave the quiz
# playable, and a public post stays public.
_WHERE: dict[Delivery, dict[str, Any]] = {
    Delivery.REPLACE: {"replace_original": True},
    Delivery.PRIVATE: {"response_type": "ephemeral", "replace_original": False},
    Delivery.PUBLIC: {"response_type": "in_channel", "replace_original": False},
}


class Replier:
    """Delivers replies over one aiohttp session (a session per reply, what bolt's
    ``respond`` does, costs a new TCP connection each time). ``timeout``: seconds per
    attempt; a reply not delivered by then is given up."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            # slack_sdk applies its timeout only to sessions it makes itself.
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout))
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def deliver(self, response_url: str, reply: Reply) -> None:
        """Sent with slack_sdk's webhook client rather than bolt's ``respond``, which cannot
        retry: a 429 waits out its Retry-After, a 500 or a dropped connection is tried once
        more. The answer is on disk already; a reply that cannot be delivered is one
        warning, and one that cannot be rendered (a bug) still tells the player to try
        again."""
        delivery = reply.delivery
        try:
            message = render(reply.view)
        except Exception:
            log.exception("could not render a %s for Slack", type(reply.view).__name__)
            locale = str(getattr(reply.view, "locale", i18n.DEFAULT_LOCALE))
            message = render(notice(locale, "try_again"))
            delivery = Delivery.PRIVATE
        seen = retries.Retried()
        client = AsyncWebhookClient(
            response_url, session=self.session, retry_handlers=retries.handlers(seen)
        )
        problem = ""
        # slack_sdk's webhook client retries only a 429 (and connection errors): a 500 or
        # 503 is tried once more here, as its Web API client would.
        for _ in range(2):
            try:
                sent = await client.send(
                    text=message.text,
                    blocks=list(message.blocks),
                    unfurl_links=False,
                    unfurl_media=False,
                    **_WHERE[delivery],
                )
            except (aiohttp.ClientError, TimeoutError) as exc:
                problem = type(exc).__name__
                break
            if sent.status_code == 200:
                if seen.reasons:
                    log.warning("a reply reached Slack after a retry (%s)", ", ".join(seen.reasons))
                return
            problem = f"HTTP {sent.status_code} {sent.body[:200]!r}"
            if sent.status_code not in retries.SERVER_ERRORS or seen.reasons:
                break
            seen.reasons.append(f"HTTP {sent.status_code}")
            metrics.API_RETRIES.labels(platform=PLATFORM).inc()
        metrics.API_ERRORS.labels(platform=PLATFORM).inc()
        tried = f" (after a retry: {', '.join(seen.reasons)})" if seen.reasons else ""
        log.warning("could not deliver a reply through response_url: %s%s", problem, tried)


async def post_privately(
    client: AsyncWebClient, channel_id: str | None, user_id: str, reply: Reply
) -> None:
    """A reply without a response_url (a view_submission's, a Home tab click's): an
    ephemeral message in the channel a form was opened from, else a message in the app's
    DM — where the bot may not post in that channel, or where there is no channel
    (``None``: the Home tab). One that cannot be delivered is one warning."""
    message = render(reply.view)
    text, blocks = message.text, list(message.blocks)
    try:
        if channel_id is None or not await _ephemeral(client, channel_id, user_id, message):
            await client.chat_postMessage(channel=user_id, text=text, blocks=blocks)
    except (SlackApiError, aiohttp.ClientError, TimeoutError) as exc:
        log.warning("could not deliver a private reply: %s", failed_call(exc))


async def _ephemeral(
    client: AsyncWebClient, channel_id: str, user_id: str, message: SlackMessage
) -> bool:
    """Posted as an ephemeral message; False where the bot may not post in the channel."""
    try:
        await client.chat_postEphemeral(
            channel=channel_id, user=user_id, text=message.text, blocks=list(message.blocks)
        )
    except SlackApiError as exc:
        if api_error(exc) not in NOT_A_MEMBER:
            raise
        return False
    return True
