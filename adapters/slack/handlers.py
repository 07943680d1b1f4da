"""Bolt handlers, one per kind of Slack request (a command, a click, a form's submission,
an app event, the App Home opened or clicked): acknowledge at once, take the request as
the middleware read it, let the core handle it, deliver."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Collection
from typing import Any

import aiohttp
from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncBoltContext
from slack_bolt.response import BoltResponse
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.domain import actions
from bot.domain.identities import PlayerRef, ScopeRef
from bot.operations import logs
from bot.services.channel import notice
from bot.services.dispatch import localized, permits, refusal
from bot.services.engine import Engine
from bot.services.requests import Context, Delivery, Reply, Request, StartReview, UploadBank
from bot.services.workspace_banks import MAX_UPLOAD_BYTES
from bot.ui.layout import estimate_how
from bot.ui.views import Notice, estimate_form_of

from . import files, modals, parse
from .deliver import PLATFORM, Replier, post_privately
from .home import HOME_REVIEW, HomeTab, changes_home
from .installations import Clients
from .middleware import read_of
from .people import People
from .phrases import TEXT
from .retries import api_error

log = logging.getLogger(__name__)

ACTIONS = re.compile("^" + re.escape(actions.PREFIX))
Asked = parse.Command | parse.Click | parse.Submission | parse.HomeOpened | parse.HomeClick


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


def _private(view: Notice) -> Reply:
    return Reply(view, Delivery.PRIVATE)


class Handlers:
    def __init__(
        self,
        engine: Engine,
        people: People,
        clients: Clients,
        replier: Replier,
        admins: Collection[str] = (),
    ):
        """``admins``: member ids with admin rights besides the workspace's admins and
        owners."""
        self._engine = engine
        self._people = people
        self._clients = clients
        self._replier = replier
        self._admins = admins
        self._home = HomeTab(engine)

    async def command(
        self, ack: AsyncAck, body: dict[str, Any], context: AsyncBoltContext, client: AsyncWebClient
    ) -> None:
        """``/quiz``: a request, or a form to fill in first."""
        await ack()
        command = read_of(context, parse.Command)
        if command is None:
            return
        asked = parse.request(command.text)
        if isinstance(asked, parse.OpenForm):
            await self._open_form(command, asked.form, body, client)
        else:
            await self._serve(command, asked, body, client)

    async def click(
        self, ack: AsyncAck, body: dict[str, Any], context: AsyncBoltContext, client: AsyncWebClient
    ) -> None:
        """A button: the request its action id stands for, decoded when it was read; an
        estimate's Answer (a quiz's or a daily's) opens its form."""
        await ack()
        click = read_of(context, parse.Click)
        if click is None:
            return
        if isinstance(click.request, actions.EstimateAction | actions.DailyEstimateAction):
            await self._ask_estimate(click, click.request, body, client)
        else:
            await self._serve(click, click.request, body, client)

    async def _ask_estimate(
        self,
        click: parse.Click,
        action: actions.AsksEstimate,
        body: dict[str, Any],
        client: AsyncWebClient,
    ) -> None:
        """The form for an estimate, with the question the core says waits on it; a
        stale, closed or someone else's button gets the core's answer instead."""
        with logs.bind(**_log_fields(click, body)):
            reply = await self._engine.handle(action, await self._context(click))
            asked = estimate_form_of(reply.view)
            if asked is None:
                await self._replier.deliver(click.response_url, reply)
                return
            view = modals.estimate_view(
                asked.locale, click.channel_id, action.encode(), click.response_url,
                asked.prompt, estimate_how(asked.locale, asked.ask),
            )  # fmt: skip
            try:
                await client.views_open(trigger_id=str(body.get("trigger_id")), view=view)
            except (SlackApiError, aiohttp.ClientError, TimeoutError) as exc:
                problem = api_error(exc) if isinstance(exc, SlackApiError) else type(exc).__name__
                log.warning("views.open failed: %s", problem)
                await self._replier.deliver(
                    click.response_url, _private(notice(asked.locale, "try_again"))
                )

    async def submitted(
        self, ack: AsyncAck, body: dict[str, Any], context: AsyncBoltContext, client: AsyncWebClient
    ) -> None:
        """A form, submitted: a proposal, or a bank file (downloaded first); an upload
        missing its file stays open, saying so."""
        sent = read_of(context, parse.Submission)
        if sent is None:
            await ack()
            return
        if sent.form == parse.ESTIMATE_FORM:
            await self._estimated(ack, sent, body, client)
            return
        upload = modals.upload(sent.values) if sent.form == parse.UPLOAD_FORM else None
        if upload is not None and upload.problem:
            await ack(response_action="errors", errors=modals.errors(sent.locale, upload.problem))
            return
        await ack()  # closes the modal; the reply follows as a private message
        with logs.bind(**_log_fields(sent, body)):
            asker = await self._context(sent)
            asked = (
                modals.proposal(sent.values)
                if upload is None
                else await self._bank_file(sent, upload, asker, client)
            )
            reply = asked if isinstance(asked, Reply) else await self._engine.handle(asked, asker)
            await post_privately(client, sent.channel_id, sent.user_id, reply)

    async def _estimated(
        self, ack: AsyncAck, sent: parse.Submission, body: dict[str, Any], client: AsyncWebClient
    ) -> None:
        """An estimate's form: a value that does not read keeps it open, saying why under
        the input; one that does closes it, and the feedback replaces a quiz's question (a
        daily estimate's is the player's alone)."""
        asked = modals.estimate(sent)
        problem = await self._engine.estimate_problem(asked, sent.locale) if asked else None
        if problem is not None:
            await ack(response_action="errors", errors={modals.ESTIMATE: problem})
            return
        await ack()
        if asked is None:
            return
        with logs.bind(**_log_fields(sent, body)):
            asker = await self._context(sent)
            reply = await self._engine.handle(asked, asker)
            await self._replier.deliver(sent.reply_url, reply)
            await self._republish(reply, client, asker)

    async def app_event(
        self, context: AsyncBoltContext, next: Callable[[], Awaitable[None]]
    ) -> BoltResponse | None:
        """``app_uninstalled`` and ``tokens_revoked`` (the bot's): the workspace's
        installation goes at once, its quiz data after the grace period (unless it installs
        again). A middleware, written before Slack gets its 200: bolt acknowledges an event
        before running its listener, so an event whose write failed would be lost, not
        sent again."""
        event = read_of(context, parse.AppEvent)
        if event is None:
            await next()
            return None
        if event.removal:
            await self._engine.installs.left(ScopeRef(PLATFORM, event.team_id))
            self._clients.drop(event.team_id)
        return BoltResponse(status=200, body="")

    async def _context(self, asked: Asked) -> Context:
        # Cached after a player's first request; it gives replies their language.
        person = await self._people.lookup(asked.team_id, asked.user_id, asked.user_name)
        return Context(
            PlayerRef(PLATFORM, asked.user_id, person.name),
            ScopeRef(PLATFORM, asked.team_id, asked.channel_id),
            person.locale,
            person.is_admin or asked.user_id in self._admins,
            workspace_name=asked.team_domain if isinstance(asked, parse.Command) else "",
        )

    async def _serve(
        self,
        asked: parse.Command | parse.Click,
        request: Request,
        body: dict[str, Any],
        client: AsyncWebClient,
    ) -> None:
        with logs.bind(**_log_fields(asked, body)):
            asker = await self._context(asked)
            reply = await self._engine.handle(request, asker)
            await self._replier.deliver(asked.response_url, reply)
            await self._republish(reply, client, asker)

    async def _republish(self, reply: Reply, client: AsyncWebClient, asker: Context) -> None:
        """The member's Home again after an answer that changes it, once they have their
        feedback."""
        if changes_home(reply):
            await self._home.publish(client, asker)

    async def home_opened(
        self, body: dict[str, Any], context: AsyncBoltContext, client: AsyncWebClient
    ) -> None:
        """``app_home_opened``: the member's Home, published fresh each time they open the
        tab (its dashboard link expires); opening the Messages tab needs nothing."""
        opened = read_of(context, parse.HomeOpened)
        if opened is None or opened.tab != "home":
            return
        with logs.bind(**_log_fields(opened, body)):
            await self._home.publish(client, await self._context(opened))

    async def home_review(
        self, ack: AsyncAck, body: dict[str, Any], context: AsyncBoltContext, client: AsyncWebClient
    ) -> None:
        """Review now, on the Home: the review ``/quiz review`` starts. A click on the Home
        has no response_url and no channel, so the first question is posted in the app's
        DM with the member (its Messages tab) as a lasting message, not an ephemeral one,
        which Slack drops when the client reloads: a review takes several clicks. Its
        buttons then come back with a response_url, and the review goes on in place
        exactly as one started with the command."""
        await ack()
        clicked = read_of(context, parse.HomeClick)
        if clicked is None:
            return
        with logs.bind(**_log_fields(clicked, body)):
            reply = await self._engine.handle(StartReview(), await self._context(clicked))
            await post_privately(client, None, clicked.user_id, reply)

    async def _open_form(
        self, command: parse.Command, form: str, body: dict[str, Any], client: AsyncWebClient
    ) -> None:
        """Open the form's modal (Slack takes the trigger_id for 3 s only); a member the
        core would refuse an upload is told at once rather than after filling in the form."""
        with logs.bind(**_log_fields(command, body)):
            asker = await localized(self._engine, await self._context(command))
            locale, upload = asker.locale, form == parse.UPLOAD_FORM
            refused = refusal(self._engine, UploadBank, asker) if upload else None
            if refused is not None:
                await self._replier.deliver(command.response_url, _private(refused))
                return
            build = modals.upload_view if upload else modals.proposal_view
            try:
                await client.views_open(
                    trigger_id=str(body.get("trigger_id")), view=build(locale, command.channel_id)
                )
            except (SlackApiError, aiohttp.ClientError, TimeoutError) as exc:
                problem = api_error(exc) if isinstance(exc, SlackApiError) else type(exc).__name__
                log.warning("views.open failed: %s", problem)
                await self._replier.deliver(
                    command.response_url, _private(notice(locale, "try_again"))
                )

    async def _bank_file(
        self, sent: parse.Submission, form: modals.Upload, asker: Context, client: AsyncWebClient
    ) -> Reply | UploadBank:
        """The upload the form asks for, or why its file could not be read."""
        if not form.files:
            return UploadBank(
                form.pasted_name, form.pasted.encode(), form.allow_missing, form.language
            )
        chosen = form.files[0]
        if not permits(self._engine, UploadBank, asker):  # refused unread: nothing to download
            return UploadBank(chosen.name, b"", form.allow_missing, form.language)
        try:
            data = await files.download(
                self._replier.session,
                chosen.url,
                str(client.token),
                client.base_url,
                MAX_UPLOAD_BYTES,
            )
        except files.DownloadError as exc:
            log.warning("could not download an uploaded bank file: %s", exc)
            text = TEXT.t(sent.locale, "download_failed", name=chosen.name, problem=str(exc))
            return _private(Notice(sent.locale, "download_failed", text))
        return UploadBank(chosen.name, data, form.allow_missing, form.language)


def register(
    app: AsyncApp,
    engine: Engine,
    people: People,
    clients: Clients,
    replier: Replier,
    admins: Collection[str] = (),
) -> None:
    """The handlers, each for its kind of request; ``admins`` as for Handlers."""
    handlers = Handlers(engine, people, clients, replier, admins)
    app.command(parse.COMMAND)(handlers.command)
    app.action(ACTIONS)(handlers.click)
    app.action(HOME_REVIEW)(handlers.home_review)
    app.event(parse.HOME_OPENED)(handlers.home_opened)
    for form in parse.FORMS:
        app.view(form)(handlers.submitted)
    app.use(handlers.app_event)
