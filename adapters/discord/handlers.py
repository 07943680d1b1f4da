"""Interaction handlers: parse a Discord interaction into the core's request, let the
core handle it, render the reply and deliver it in time. No quiz rules here."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

import discord

from bot.play.dispatch import expected_delivery
from bot.play.engine import Engine
from bot.play.requests import (
    CompetitionEnd,
    CompetitionStandings,
    CompetitionStart,
    Context,
    DailyOff,
    DailyOn,
    DailyStatus,
    Delivery,
    RaceStart,
    RaceStop,
    Reply,
    Request,
)
from bot.ui.views import Notice

from .deliver import CONNECTION_ERRORS, defer, deliver, try_again
from .parse import can_post, context_of, log_context
from .phrases import TEXT
from .render import render

log = logging.getLogger(__name__)

# Discord wants the first response within 3 s; work that takes longer than this is
# deferred first, leaving a margin for the network.
ACK_BUDGET = 2.0

# Requests that make the bot post in the channel later: refused where it may not post.
_POSTS = (DailyOn, RaceStart, CompetitionStart)
_CHANNEL_PLAY = (*_POSTS, DailyOff, DailyStatus, RaceStop, CompetitionEnd, CompetitionStandings)


class Handlers:
    def __init__(
        self, engine: Engine, ack_budget: float = ACK_BUDGET, admin_role: str | None = None
    ):
        self.engine = engine
        self.ack_budget = ack_budget
        self.admin_role = admin_role

    async def handle(self, interaction: discord.Interaction, request: Request) -> None:
        """Any command or button: the core's reply, delivered as it decides. A button's
        custom_id is the whole request; a command's options were parsed by the tree."""
        context = context_of(interaction, self.admin_role)
        await self._answer(interaction, self._reply(interaction, request, context), request)

    async def _reply(
        self, interaction: discord.Interaction, request: Request, context: Context
    ) -> Reply:
        """Channel play happens in a server channel, and only where the bot may post."""
        refusal = None
        if isinstance(request, _CHANNEL_PLAY) and interaction.guild_id is None:
            refusal = "dm_no_channel_play"
        elif isinstance(request, _POSTS) and not can_post(interaction):
            refusal = "cannot_post_here"
        if refusal is None:
            return await self.engine.handle(request, context)
        locale = await self.engine.locale_for(context.player, context.platform_locale)
        return Reply(Notice(locale, refusal, TEXT.t(locale, refusal)), Delivery.PRIVATE)

    async def _answer(
        self, interaction: discord.Interaction, work: Awaitable[Reply], request: Request
    ) -> None:
        """Run the core's work; answer directly when it is quick, else acknowledge first
        so Discord's 3 seconds are never missed. The acknowledgement must be chosen before
        the reply is known: by the delivery the request most likely gets."""
        with log_context(interaction):
            expected = expected_delivery(request)
            if interaction.message is None and expected is Delivery.REPLACE:
                expected = Delivery.PRIVATE  # only a button's message can be replaced
            task = asyncio.ensure_future(work)
            try:
                # A budget of 0 means: always acknowledge first.
                done = self.ack_budget > 0 and bool(
                    (await asyncio.wait({task}, timeout=self.ack_budget))[0]
                )
                if not done:
                    await defer(interaction, expected)
            except discord.HTTPException as exc:
                log.warning("could not defer a Discord interaction: %s", exc)
            except CONNECTION_ERRORS as exc:
                log.warning("could not defer a Discord interaction (connection failed): %r", exc)
            try:
                reply = await task
            except Exception:
                log.exception("the quiz engine failed on a Discord interaction")
                message, delivery = try_again(interaction), Delivery.PRIVATE
            else:
                message, delivery = render(reply.view), reply.delivery
            if delivery is Delivery.REPLACE and interaction.message is None:
                delivery = Delivery.PRIVATE
            await deliver(interaction, message, delivery)
