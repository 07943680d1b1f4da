"""Answering a Discord interaction: the rendered message as discord.py sends it, the
acknowledgement that buys time, and the reply delivered as the core decided — in place,
privately or in the channel."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

from bot.services.requests import Delivery
from bot.ui import i18n
from bot.ui.messages import t

log = logging.getLogger(__name__)

# A request whose connection broke: Discord may or may not have it, so it is sent once more.
CONNECTION_ERRORS = (aiohttp.ClientError, OSError, TimeoutError)
ALREADY_ACKNOWLEDGED = 40060  # Discord's error code


@dataclass(frozen=True)
class Button:
    label: str
    custom_id: str


@dataclass(frozen=True)
class Message:
    """One message: optional text, embeds and buttons (buttons are always wholly
    replaced, so an edit without buttons removes the old ones)."""

    content: str | None = None
    embeds: tuple[discord.Embed, ...] = ()
    buttons: tuple[Button, ...] = ()

    def view(self) -> discord.ui.View | None:
        """The buttons as a discord.py view. Clicks are answered by custom_id in
        on_interaction, so the view is stopped before it is sent: discord.py then does not
        track it (a view kept for every message sent would never be let go)."""
        if not self.buttons:
            return None
        view = discord.ui.View(timeout=None)
        for button in self.buttons:
            view.add_item(
                discord.ui.Button(
                    label=button.label,
                    custom_id=button.custom_id,
                    style=discord.ButtonStyle.primary,
                )
            )
        view.stop()
        return view

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for a new message (send_message, followup.send)."""
        kwargs: dict[str, Any] = {
            "embeds": list(self.embeds),
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if self.content:
            kwargs["content"] = self.content
        view = self.view()
        if view is not None:
            kwargs["view"] = view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """Keyword arguments that replace a whole message (edit_message and the like)."""
        return {
            "content": self.content,
            "embeds": list(self.embeds),
            "view": self.view(),
            "allowed_mentions": discord.AllowedMentions.none(),
        }

    def to_dict(self) -> dict[str, Any]:
        """The message payload as Discord receives it (for tests and debugging)."""
        view = self.view()
        return {
            "content": self.content or "",
            "embeds": [embed.to_dict() for embed in self.embeds],
            "components": view.to_components() if view else [],
        }


async def defer(interaction: discord.Interaction, expected: Delivery) -> None:
    if expected is Delivery.REPLACE:
        await interaction.response.defer()  # type 6: edit or follow up later
    else:  # type 5: "thinking…", private or public as the reply will be
        await interaction.response.defer(ephemeral=expected is Delivery.PRIVATE, thinking=True)


async def deliver(
    interaction: discord.Interaction,
    message: Message,
    delivery: Delivery,
) -> None:
    """Send the reply; a connection that broke on the way is tried once more (the
    answer is on disk already: only the player's view of it is at stake)."""
    try:
        await _send(interaction, message, delivery)
        return
    except CONNECTION_ERRORS as exc:
        failure = exc
    except RuntimeError:  # aiohttp's "Session is closed"
        if not interaction.client.is_closed():
            raise
    if interaction.client.is_closed():
        # Shutting down: Discord shows "interaction failed", the answer is on disk.
        log.info("shutting down: a Discord interaction is left unanswered")
        return
    try:
        await _send(interaction, message, delivery)
    except CONNECTION_ERRORS as exc:
        log.warning("could not answer a Discord interaction (connection failed): %r", exc)
    else:
        log.warning("answered a Discord interaction on a second try: %r", failure)


async def _send(
    interaction: discord.Interaction,
    message: Message,
    delivery: Delivery,
) -> None:
    response = interaction.response
    private = delivery is not Delivery.PUBLIC
    try:
        if delivery is Delivery.REPLACE and response.is_done():
            await interaction.edit_original_response(**message.edit_kwargs())
        elif delivery is Delivery.REPLACE:
            await response.edit_message(**message.edit_kwargs())  # type 7
        elif not response.is_done():
            await response.send_message(ephemeral=private, **message.send_kwargs())
        elif response.type is discord.InteractionResponseType.deferred_channel_message:
            # The "thinking…" message becomes the reply (a rare mismatch, a private
            # "try again" after a public deferral, is better said than left thinking).
            await interaction.edit_original_response(**message.edit_kwargs())
        else:
            await interaction.followup.send(ephemeral=private, **message.send_kwargs())
    except (discord.NotFound, discord.DiscordServerError) as exc:
        # An expired interaction or a Discord outage: nothing more we can do for it.
        log.warning("could not answer a Discord interaction: %s", exc)
    except discord.HTTPException as exc:
        if exc.code != ALREADY_ACKNOWLEDGED:
            raise
        log.warning(
            "a Discord interaction was already answered: is another instance of the bot "
            "running with the same token?"
        )


def try_again(interaction: discord.Interaction) -> Message:
    return Message(content=t(i18n.choose(str(interaction.locale)), "try_again"))
