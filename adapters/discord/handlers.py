"""Interaction handlers: parse a Discord interaction into the core's request, let the
core handle it, render the reply and deliver it in time. No quiz rules here."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

import discord

from bot.persistence import StoreError
from bot.services.channel import notice
from bot.services.dispatch import expected_delivery
from bot.services.engine import Engine
from bot.services.requests import (
    BankRequest,
    CompetitionEnd,
    CompetitionStandings,
    CompetitionStart,
    Context,
    DailyOff,
    DailyOn,
    DailyStatus,
    Delivery,
    InsightRequest,
    RaceStart,
    RaceStop,
    Reply,
    Request,
    UploadBank,
)
from bot.services.workspace_banks import MAX_UPLOAD_BYTES
from bot.ui import i18n
from bot.ui.views import Notice

from .deliver import CONNECTION_ERRORS, defer, deliver, try_again
from .forms import proposal_form, proposal_of
from .parse import can_post, context_of, in_server, log_context, others_read
from .phrases import TEXT
from .render import render

log = logging.getLogger(__name__)

# Discord wants the first response within 3 s; work that takes longer than this is
# deferred first, leaving a margin for the network.
ACK_BUDGET = 2.0

# Requests that make the bot post in the channel later: refused where it may not post.
_POSTS = (DailyOn, RaceStart, CompetitionStart)
_CHANNEL_PLAY = (*_POSTS, DailyOff, DailyStatus, RaceStop, CompetitionEnd, CompetitionStandings)
# What is about a server: only in one that added the bot.
_ABOUT_A_SERVER = (*_CHANNEL_PLAY, BankRequest, InsightRequest)


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
        work = self._reply(interaction, request, context)
        await self._answer(interaction, work, expected_delivery(request))

    async def upload(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        allow_missing: bool,
        language: str | None,
    ) -> None:
        """A bank file: acknowledged first ("thinking…", privately), as a download may
        outlast Discord's 3 seconds; the reply follows when the core has checked it."""
        context = context_of(interaction, self.admin_role)
        with log_context(interaction):
            await self._acknowledge(interaction, Delivery.PRIVATE)
        work = self._uploaded(interaction, file, allow_missing, language, context)
        await self._answer(interaction, work, expected=None)

    async def _uploaded(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        allow_missing: bool,
        language: str | None,
        context: Context,
    ) -> Reply:
        """Downloads only what the core may save: never a member's file (the core refuses
        members before reading one), nor one larger than the core takes (by the size
        Discord declares)."""
        data = b""
        if context.is_admin and file.size <= MAX_UPLOAD_BYTES:
            try:
                data = await file.read()
            except (discord.HTTPException, *CONNECTION_ERRORS) as exc:
                log.warning("could not download the bank file %r: %s", file.filename, exc)
                locale = await self._locale(interaction, context)
                return Reply(notice(locale, "try_again"), Delivery.PRIVATE)
        upload = UploadBank(file.filename, data, allow_missing, language, file.size)
        return await self._reply(interaction, upload, context)

    async def propose(self, interaction: discord.Interaction) -> None:
        """/quiz-propose: the proposal form, in the member's language (a modal must be the
        first response, so there is no deferring it)."""
        context = context_of(interaction, self.admin_role)
        with log_context(interaction):
            locale = await self._locale(interaction, context)
            if not in_server(interaction):
                key = "dm_no_banks" if interaction.guild_id is None else "not_added_here"
                refusal = Notice(locale, key, TEXT.t(locale, key))
                await deliver(interaction, render(refusal), Delivery.PRIVATE)
                return
            try:
                await interaction.response.send_modal(proposal_form(locale))
            except discord.HTTPException as exc:
                log.warning("could not open the proposal form: %s", exc)

    async def submitted(self, interaction: discord.Interaction) -> None:
        """A modal submission: the proposal form's is the core's request; any other (an
        out-of-date or forged form) gets a private "try again"."""
        request = proposal_of(dict(interaction.data or {}))
        if request is not None:
            await self.handle(interaction, request)
            return
        with log_context(interaction):
            log.warning("a form submission this bot does not know: ignored")
            await deliver(interaction, try_again(interaction), Delivery.PRIVATE)

    async def _locale(self, interaction: discord.Interaction, context: Context) -> str:
        try:
            return await self.engine.locale_for(context.player, context.platform_locale)
        except StoreError as exc:
            log.warning("the player's language is unknown (the store failed): %s", exc)
            return i18n.choose(str(interaction.locale))

    async def _reply(
        self, interaction: discord.Interaction, request: Request, context: Context
    ) -> Reply:
        """Channel play, a server's own banks and its insights happen in a server that
        added the bot; channel play only where the bot may post."""
        refusal = None
        # A player's own install, used in a server that did not add the bot.
        unadded = interaction.guild_id is not None and not in_server(interaction)
        if isinstance(request, _ABOUT_A_SERVER) and unadded:
            refusal = "not_added_here"
        elif isinstance(request, BankRequest) and interaction.guild_id is None:
            refusal = "dm_no_banks"  # a DM is nobody's server: no admin, no banks
        elif isinstance(request, _CHANNEL_PLAY) and interaction.guild_id is None:
            refusal = "dm_no_channel_play"
        elif isinstance(request, InsightRequest) and interaction.guild_id is None:
            refusal = "dm_no_insights"  # insights are about a server's team
        elif isinstance(request, _POSTS) and not can_post(interaction):
            refusal = "cannot_post_here"
        if refusal is None:
            return await self.engine.handle(request, context)
        locale = await self.engine.locale_for(context.player, context.platform_locale)
        return Reply(Notice(locale, refusal, TEXT.t(locale, refusal)), Delivery.PRIVATE)

    async def _answer(
        self,
        interaction: discord.Interaction,
        work: Awaitable[Reply],
        expected: Delivery | None,
    ) -> None:
        """Run the core's work; answer directly when it is quick, else acknowledge first
        so Discord's 3 seconds are never missed (``expected`` None: acknowledged already).
        The acknowledgement must be chosen before the reply is known: by the delivery the
        request most likely gets."""
        with log_context(interaction):
            if interaction.message is None and expected is Delivery.REPLACE:
                expected = Delivery.PRIVATE  # only a button's message can be replaced
            if others_read(interaction) and expected is Delivery.PUBLIC:
                expected = Delivery.PRIVATE  # as the reply will be (below)
            task = asyncio.ensure_future(work)
            # A budget of 0 means: always acknowledge first.
            if expected is not None and not (
                self.ack_budget > 0 and (await asyncio.wait({task}, timeout=self.ack_budget))[0]
            ):
                await self._acknowledge(interaction, expected)
            try:
                reply = await task
            except Exception:
                log.exception("the quiz engine failed on a Discord interaction")
                message, delivery = try_again(interaction), Delivery.PRIVATE
            else:
                message, delivery = render(reply.view), reply.delivery
            if delivery is Delivery.REPLACE and interaction.message is None:
                delivery = Delivery.PRIVATE
            # A player's own standings (their own workspace) are not the room's.
            if delivery is Delivery.PUBLIC and others_read(interaction):
                delivery = Delivery.PRIVATE
            await deliver(interaction, message, delivery)

    async def _acknowledge(self, interaction: discord.Interaction, expected: Delivery) -> None:
        try:
            await defer(interaction, expected)
        except discord.HTTPException as exc:
            log.warning("could not defer a Discord interaction: %s", exc)
        except CONNECTION_ERRORS as exc:
            log.warning("could not defer a Discord interaction (connection failed): %r", exc)
