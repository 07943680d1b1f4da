"""Channel play's public messages on Slack: the core's Publisher, over chat.postMessage
and chat.update, with the workspace's own token. A message's reference is
``"<channel id>:<ts>"``, all chat.update needs, so a post made before a restart can
still be edited after it."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from bot.domain.identities import ScopeRef
from bot.ui.views import ChannelView, Notice

from .installations import Clients
from .render import render
from .retries import api_error

log = logging.getLogger(__name__)

# What Slack answers when the bot may not post in a channel it has not joined (a private
# channel it was not invited to is "not found").
NOT_A_MEMBER = ("not_in_channel", "channel_not_found")


class PublishError(Exception):
    """Slack refused a channel message; the core logs it and carries on."""


class SlackPublisher:
    def __init__(self, clients: Clients):
        self._clients = clients
        # Channels already told to invite the bot: one warning per outage, not per post.
        self._warned: set[str] = set()

    async def post(self, channel: ScopeRef, view: ChannelView) -> str:
        message = render(view)
        response = await self._send(
            "chat.postMessage",
            channel.workspace_id,
            channel.channel_id,
            lambda client: client.chat_postMessage(
                channel=channel.channel_id,
                text=message.text,
                blocks=list(message.blocks),
                unfurl_links=False,  # reference links would push the buttons off screen
                unfurl_media=False,
            ),
        )
        # Slack answers with the channel id it posted in: the one chat.update wants.
        return f"{response['channel']}:{response['ts']}"

    async def update(self, channel: ScopeRef, ref: str, view: ChannelView) -> None:
        channel_id, _, ts = ref.partition(":")
        if not ts:
            raise PublishError(f"not a Slack message reference: {ref!r}")
        message = render(view)
        await self._send(
            "chat.update",
            channel.workspace_id,
            channel_id,
            lambda client: client.chat_update(
                channel=channel_id, ts=ts, text=message.text, blocks=list(message.blocks)
            ),
        )

    async def tell(self, workspace: ScopeRef, player_id: str, view: Notice) -> None:
        """A message in the member's DM with the app (chat.postMessage to a user id)."""
        message = render(view)
        await self._send(
            "chat.postMessage",
            workspace.workspace_id,
            player_id,
            lambda client: client.chat_postMessage(
                channel=player_id, text=message.text, blocks=list(message.blocks)
            ),
        )

    async def _send(
        self,
        method: str,
        workspace_id: str,
        channel_id: str,
        call: Callable[[AsyncWebClient], Awaitable[AsyncSlackResponse]],
    ) -> AsyncSlackResponse:
        client = await self._clients.of(workspace_id)
        if client is None:
            raise PublishError(
                f"quizbot is not installed in Slack workspace {workspace_id}"
                f" (for {method} in {channel_id})"
            )
        try:
            response = await call(client)
        except SlackApiError as exc:
            error = api_error(exc)
            if error in NOT_A_MEMBER and channel_id not in self._warned:
                self._warned.add(channel_id)
                log.warning(
                    "quizbot cannot post in Slack channel %s (%s): invite it there with"
                    " /invite @quizbot",
                    channel_id,
                    error,
                )
            # Only the error code: the exception's own text repeats the whole request.
            raise PublishError(f"Slack refused {method} in {channel_id}: {error}") from None
        self._warned.discard(channel_id)
        return response
