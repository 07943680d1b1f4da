"""Channel play's public half on Discord: the core's Publisher (bot.channel), posting
daily questions, races and final standings as ordinary channel messages."""

from __future__ import annotations

import discord

from bot.domain.identities import ScopeRef
from bot.ui.views import ChannelView, Notice

from .render import render


class DiscordPublisher:
    """Posts with the bot's own token through the REST API: unlike an interaction's
    token, it does not expire after 15 minutes, so a reveal hours later can still be
    posted, and a post can be edited (its answer count) as long as the message exists.
    The reference is the message id. Buttons are answered by their custom_id alone
    (on_interaction), so they keep working after a restart."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def _channel(self, channel: ScopeRef) -> discord.PartialMessageable:
        # No API call: a partial channel is all sending and editing need.
        return self.client.get_partial_messageable(int(channel.channel_id))

    async def post(self, channel: ScopeRef, view: ChannelView) -> str:
        message = await self._channel(channel).send(**render(view).send_kwargs())
        return str(message.id)

    async def update(self, channel: ScopeRef, ref: str, view: ChannelView) -> None:
        message = self._channel(channel).get_partial_message(int(ref))
        await message.edit(**render(view).edit_kwargs())

    async def tell(self, workspace: ScopeRef, player_id: str, view: Notice) -> None:
        """A direct message (discord.py opens the DM channel: POST /users/@me/channels)."""
        dm = await self.client.create_dm(discord.Object(int(player_id)))
        await dm.send(**render(view).send_kwargs())
