"""Thin bolt listeners: acknowledge at once, parse, let the core handle it, deliver."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Collection
from typing import Any

import aiohttp
from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncBoltRequest, AsyncRespond
from slack_bolt.middleware.async_middleware import AsyncMiddleware
from slack_bolt.response import BoltResponse
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.domain import actions
from bot.domain.identities import PlayerRef, ScopeRef
from bot.operations import logs
from bot.services.engine import Engine
from bot.services.requests import Click, Context, Delivery, Reply, Request, UploadBank
from bot.services.workspace_banks import MAX_UPLOAD_BYTES
from bot.ui.messages import t
from bot.ui.views import Notice

from . import files, modals, parse
from .deliver import PLATFORM, Replier, post_privately
from .installations import Clients
from .people import People
from .phrases import TEXT
from .retries import api_error

log = logging.getLogger(__name__)

ACTIONS = re.compile("^" + re.escape(actions.PREFIX))
Asked = parse.Command | parse.Click | parse.Submission


def _log_fields(request: Asked, body: dict[str, Any]) -> dict[str, str]:
    """For every log line of a handler: the workspace/channel and Slack's id for the
    interaction (its trigger_id). Bound in the listener itself: bolt runs it after its
    middleware chain has returned, outside any context a middleware could set."""
    trigger = body.get("trigger_id")
    return {
        "platform": PLATFORM,
        "scope": f"{request.team_id}/{request.channel_id}",
        "request_id": trigger[:64] if isinstance(trigger, str) else "",
    }


def _notice(locale: str, key: str, text: str) -> Reply:
    return Reply(Notice(locale, key, text), Delivery.PRIVATE)


class Removals(AsyncMiddleware):
    """``app_uninstalled`` and ``tokens_revoked`` (the bot's): the workspace's installation
    goes at once, its quiz data after the grace period (unless it installs again). Done
    before Slack gets its 200, as middleware: bolt acknowledges an event before running
    its listener, so an event whose write failed would be lost, not sent again."""

    def __init__(self, engine: Engine, clients: Clients):
        self._engine = engine
        self._clients = clients

    async def async_process(
        self,
        *,
        req: AsyncBoltRequest,
        resp: BoltResponse,
        next: Callable[[], Awaitable[BoltResponse]],
    ) -> BoltResponse:
        if not parse.app_event(req.body):
            return await next()
        removal = parse.removal(req.body)
        if removal is not None:
            await self._engine.installs.left(ScopeRef(PLATFORM, removal.team_id))
            self._clients.drop(removal.team_id)
        return BoltResponse(status=200, body="")


def register(
    app: AsyncApp,
    engine: Engine,
    people: People,
    clients: Clients,
    replier: Replier,
    admins: Collection[str] = (),
) -> None:
    """``admins``: member ids with admin rights besides the workspace's admins and owners."""

    async def context_for(asked: Asked) -> Context:
        # Cached after a player's first request; it gives replies their language.
        person = await people.lookup(asked.team_id, asked.user_id, asked.user_name)
        return Context(
            PlayerRef(PLATFORM, asked.user_id, person.name),
            ScopeRef(PLATFORM, asked.team_id, asked.channel_id),
            person.locale,
            person.is_admin or asked.user_id in admins,
        )

    async def serve(
        asked: parse.Command | parse.Click,
        request: Request,
        body: dict[str, Any],
        respond: AsyncRespond,
    ) -> None:
        with logs.bind(**_log_fields(asked, body)):
            reply = await engine.handle(request, await context_for(asked))
            await replier.deliver(str(respond.response_url), reply)

    async def open_form(
        command: parse.Command, form: str, body: dict[str, Any], client: AsyncWebClient
    ) -> None:
        """Open the form's modal (Slack takes the trigger_id for 3 s only); a member who
        is not an admin is told at once rather than after filling in an upload form."""
        with logs.bind(**_log_fields(command, body)):
            context = await context_for(command)
            locale = await engine.locale_for(context.player, context.platform_locale)
            if form == parse.UPLOAD_FORM and not context.is_admin:
                refused = _notice(locale, "admin_only", t(locale, "admin_only"))
                await replier.deliver(command.response_url, refused)
                return
            build = modals.upload_view if form == parse.UPLOAD_FORM else modals.proposal_view
            try:
                await client.views_open(
                    trigger_id=str(body.get("trigger_id")), view=build(locale, command.channel_id)
                )
            except (SlackApiError, aiohttp.ClientError, TimeoutError) as exc:
                problem = api_error(exc) if isinstance(exc, SlackApiError) else type(exc).__name__
                log.warning("views.open failed: %s", problem)
                failed = _notice(locale, "try_again", t(locale, "try_again"))
                await replier.deliver(command.response_url, failed)

    async def bank_file(
        sent: parse.Submission, form: modals.Upload, admin: bool, client: AsyncWebClient
    ) -> Reply | UploadBank:
        """The upload the form asks for, or why its file could not be read."""
        if not form.files:
            return UploadBank(
                form.pasted_name, form.pasted.encode(), form.allow_missing, form.language
            )
        chosen = form.files[0]
        if not admin:  # the core refuses it before reading it: nothing to download
            return UploadBank(chosen.name, b"", form.allow_missing, form.language)
        try:
            data = await files.download(
                replier.session, chosen.url, str(client.token), client.base_url, MAX_UPLOAD_BYTES
            )
        except files.DownloadError as exc:
            log.warning("could not download an uploaded bank file: %s", exc)
            text = TEXT.t(sent.locale, "download_failed", name=chosen.name, problem=str(exc))
            return _notice(sent.locale, "download_failed", text)
        return UploadBank(chosen.name, data, form.allow_missing, form.language)

    @app.command(parse.COMMAND)
    async def quiz_command(
        ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond, client: AsyncWebClient
    ) -> None:
        await ack()
        command = parse.command(body)
        if command is None:  # RefuseUnreadable turned it away already
            return
        asked = parse.request(command.text)
        if isinstance(asked, parse.OpenForm):
            await open_form(command, asked.form, body, client)
        else:
            await serve(command, asked, body, respond)

    @app.action(ACTIONS)
    async def quiz_click(ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond) -> None:
        await ack()
        click = parse.click(body)
        if click is not None:
            await serve(click, Click(click.action_id), body, respond)

    @app.view(parse.UPLOAD_FORM)
    async def upload_submitted(ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient) -> None:
        sent = parse.submission(body)
        if sent is None:  # RefuseUnreadable turned it away already
            await ack()
            return
        form = modals.upload(sent.values)
        if form.problem:  # the modal stays open, saying what is missing
            await ack(response_action="errors", errors=modals.errors(sent.locale, form.problem))
            return
        await ack()  # closes the modal; the reply follows as a private message
        with logs.bind(**_log_fields(sent, body)):
            context = await context_for(sent)
            upload = await bank_file(sent, form, context.is_admin, client)
            reply = upload if isinstance(upload, Reply) else await engine.handle(upload, context)
            await post_privately(client, sent.channel_id, sent.user_id, reply)

    @app.view(parse.PROPOSAL_FORM)
    async def proposal_submitted(
        ack: AsyncAck, body: dict[str, Any], client: AsyncWebClient
    ) -> None:
        await ack()
        sent = parse.submission(body)
        if sent is None:  # RefuseUnreadable turned it away already
            return
        with logs.bind(**_log_fields(sent, body)):
            reply = await engine.handle(modals.proposal(sent.values), await context_for(sent))
            await post_privately(client, sent.channel_id, sent.user_id, reply)

    app.use(Removals(engine, clients))
