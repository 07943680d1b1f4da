"""Interaction handlers, one per kind of interaction (a command, a button, a form, a bank
file): each reads it into the core's request, lets the core handle it and delivers the
rendered reply in time, as the core declares. No quiz rules here."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable

import discord

from bot.domain import actions
from bot.services.channel import notice
from bot.services.dispatch import expected_delivery, permits, traits
from bot.services.engine import Engine
from bot.services.errors import StoreError
from bot.services.requests import (
    About,
    AnswerDailyEstimate,
    AnswerEstimate,
    Context,
    Delivery,
    ProposeQuestion,
    Reply,
    Request,
    Traits,
    UploadBank,
    button,
)
from bot.services.workspace_banks import MAX_UPLOAD_BYTES
from bot.ui import i18n
from bot.ui.layout import estimate_units
from bot.ui.views import Notice, estimate_form_of

from .deliver import CONNECTION_ERRORS, defer, deliver, try_again
from .forms import estimate_form, estimate_of, proposal_form, proposal_of
from .parse import can_post, context_of, in_server, log_context
from .phrases import TEXT
from .render import render

log = logging.getLogger(__name__)

# Discord wants the first response within 3 s; work that takes longer than this is
# deferred first, leaving a margin for the network.
ACK_BUDGET = 2.0

# Why a request about a server is refused in a direct message, by what it is about.
_IN_A_DM = {
    About.CHANNEL_PLAY: "dm_no_channel_play",
    About.BANKS: "dm_no_banks",  # a DM is nobody's server: no admin, no banks
    About.INSIGHTS: "dm_no_insights",  # insights are about a server's team
}


def _unserved(interaction: discord.Interaction, declared: Traits) -> str | None:
    """Why a request cannot be served where it was made, by what the core declares of it:
    channel play, a server's own banks and its insights happen in a server that added the
    bot; what makes the bot post, only where it may post."""
    if declared.about is About.PLAYER:
        return None
    if interaction.guild_id is None:
        return _IN_A_DM[declared.about]
    if not in_server(interaction):  # a player's own install, in a server without the bot
        return "not_added_here"
    if declared.posts and not can_post(interaction):
        return "cannot_post_here"
    return None


def _told(locale: str, key: str) -> Notice:
    return Notice(locale, key, TEXT.t(locale, key))


class Handlers:
    def __init__(
        self, engine: Engine, ack_budget: float = ACK_BUDGET, admin_role: str | None = None
    ):
        self.engine = engine
        self.ack_budget = ack_budget
        self.admin_role = admin_role

    async def handle(self, interaction: discord.Interaction, request: Request) -> None:
        """A command (its options parsed by the tree), a button or a form: the core's
        reply, delivered as the core declares."""
        context = context_of(interaction, self.admin_role)
        work = self._reply(interaction, request, context)
        await self._answer(interaction, work, expected_delivery(request, context))

    async def click(self, interaction: discord.Interaction) -> None:
        """A button: its custom_id, decoded here once, is the whole request (one the bot
        did not make is the core's to refuse, in the player's language); an estimate's
        Answer opens its form (a modal must be the first response: no deferring it)."""
        request = button(dict(interaction.data or {}).get("custom_id"))
        if isinstance(request, actions.EstimateAction | actions.DailyEstimateAction):
            await self._ask_estimate(interaction, request)
        else:
            await self.handle(interaction, request)

    async def _ask_estimate(
        self, interaction: discord.Interaction, action: actions.AsksEstimate
    ) -> None:
        """The estimate's form, for the question the core says waits on it (a quiz's or a
        daily's); a stale, closed or someone else's button gets the core's answer instead."""
        context = context_of(interaction, self.admin_role)
        with log_context(interaction):
            reply = await self.engine.handle(action, context)
            asked = estimate_form_of(reply.view)
            if asked is None:
                await deliver(interaction, render(reply.view), Delivery.PRIVATE)
                return
            units = estimate_units(asked.locale, asked.ask)
            try:
                await interaction.response.send_modal(
                    estimate_form(asked.locale, action.encode(), units)
                )
            except discord.HTTPException as exc:
                log.warning("could not open the estimate form: %s", exc)

    async def upload(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        allow_missing: bool,
        language: str | None,
    ) -> None:
        """A bank file: acknowledged first ("thinking…"), as a download may outlast
        Discord's 3 seconds; the reply follows when the core has checked it."""
        context = context_of(interaction, self.admin_role)
        with log_context(interaction):
            await self._acknowledge(interaction, traits(UploadBank).delivery)
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
        """Downloads only what the core may save: never the file of a member the core
        refuses (before reading it), nor one larger than the core takes (by the size
        Discord declares)."""
        data = b""
        if permits(self.engine, UploadBank, context) and file.size <= MAX_UPLOAD_BYTES:
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
        first response, so there is no deferring it), where a proposal can be made."""
        context = context_of(interaction, self.admin_role)
        with log_context(interaction):
            locale = await self._locale(interaction, context)
            unserved = _unserved(interaction, traits(ProposeQuestion))
            if unserved is not None:
                await deliver(interaction, render(_told(locale, unserved)), Delivery.PRIVATE)
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
        estimate = estimate_of(dict(interaction.data or {}))
        if estimate is not None:
            await self._estimated(interaction, estimate)
            return
        with log_context(interaction):
            log.warning("a form submission this bot does not know: ignored")
            await deliver(interaction, try_again(interaction), Delivery.PRIVATE)

    async def _estimated(
        self, interaction: discord.Interaction, asked: AnswerEstimate | AnswerDailyEstimate
    ) -> None:
        """An estimate's form: a value that does not read gets a private try-again (the
        question stays, its button opens the form again); one that does is answered, a
        quiz's in place of the question, a daily's privately."""
        context = context_of(interaction, self.admin_role)
        with log_context(interaction):
            locale = await self._locale(interaction, context)
        problem = await self.engine.estimate_problem(asked, locale)
        if problem is None:
            await self.handle(interaction, asked)
            return
        with log_context(interaction):
            told = Notice(locale, "estimate_unreadable", problem)
            await deliver(interaction, render(told), Delivery.PRIVATE)

    async def _locale(self, interaction: discord.Interaction, context: Context) -> str:
        try:
            return await self.engine.locale_for(context.player, context.platform_locale)
        except StoreError as exc:
            log.warning("the player's language is unknown (the store failed): %s", exc)
            return i18n.choose(str(interaction.locale))

    async def _reply(
        self, interaction: discord.Interaction, request: Request, context: Context
    ) -> Reply:
        """The core's reply, unless the request cannot be served where it was made."""
        unserved = _unserved(interaction, traits(type(request)))
        if unserved is None:
            return await self.engine.handle(request, context)
        locale = await self.engine.locale_for(context.player, context.platform_locale)
        return Reply(_told(locale, unserved), Delivery.PRIVATE)

    async def _answer(
        self,
        interaction: discord.Interaction,
        work: Awaitable[Reply],
        expected: Delivery | None,
    ) -> None:
        """Run the core's work; answer directly when it is quick, else acknowledge first
        so Discord's 3 seconds are never missed (``expected`` None: acknowledged already).
        The acknowledgement must be chosen before the reply is known: by the delivery the
        core declares for the request."""
        with log_context(interaction):
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
            await deliver(interaction, message, delivery)

    async def _acknowledge(self, interaction: discord.Interaction, expected: Delivery) -> None:
        try:
            await defer(interaction, expected)
        except discord.HTTPException as exc:
            log.warning("could not defer a Discord interaction: %s", exc)
        except CONNECTION_ERRORS as exc:
            log.warning("could not defer a Discord interaction (connection failed): %r", exc)
