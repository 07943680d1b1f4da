"""Thin bolt handlers: acknowledge at once, parse, call the engine, render, reply.

Every reply goes through the interaction's ``response_url``: it works in any channel
(the bot need not be a member), keeps quiz messages private to the player, and lets a
click update the personal quiz message in place. A click on a public channel post (the
daily question, a race) is answered with a new ephemeral message instead: replacing the
original would replace it for the whole channel.
"""

from __future__ import annotations

import logging
import re
import weakref
from collections.abc import Awaitable, Callable, Collection
from typing import Any

import aiohttp
from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncBoltRequest, AsyncRespond
from slack_bolt.middleware.async_middleware import AsyncMiddleware
from slack_bolt.response import BoltResponse
from slack_sdk.webhook.async_client import AsyncWebhookClient

from bot.operations import logs, metrics
from bot.persistence import StoreError
from bot.play import codec
from bot.play.channel import Caller
from bot.play.engine import Engine
from bot.play.refs import PlayerRef, ScopeRef
from bot.ui import i18n
from bot.ui.messages import t
from bot.ui.views import Feedback, Notice, QuestionView, View

from . import parse, retries
from .people import People
from .render import render

log = logging.getLogger(__name__)

PLATFORM = "slack"
ACTIONS = re.compile("^" + re.escape(codec.PREFIX))
REPLY_TIMEOUT = 10  # seconds, per attempt; a reply not delivered by then is given up


class RefuseUnreadable(AsyncMiddleware):
    """Runs after the signature check and before anything else reads the body: bolt's
    matchers and argument injection raise on, say, an empty ``actions`` list. A class,
    not a function middleware, because bolt builds a function's arguments from the body."""

    async def async_process(
        self,
        *,
        req: AsyncBoltRequest,
        resp: BoltResponse,
        next: Callable[[], Awaitable[BoltResponse]],
    ) -> BoltResponse:
        if parse.understood(req.body):
            return await next()
        log.warning("refused a Slack request this app does not understand")
        return BoltResponse(status=400, body="")


def _log_fields(request: parse.Command | parse.Click, body: dict[str, Any]) -> dict[str, str]:
    """For every log line of a handler: the workspace/channel and Slack's id for the
    interaction (its trigger_id). Bound in the listener itself: bolt runs it after its
    middleware chain has returned, outside any context a middleware could set."""
    trigger = body.get("trigger_id")
    return {
        "platform": PLATFORM,
        "scope": f"{request.team_id}/{request.channel_id}",
        "request_id": trigger[:64] if isinstance(trigger, str) else "",
    }


class Replier:
    """One aiohttp session for every response_url reply: a session per reply (what bolt's
    ``respond`` does) costs a new session and TCP connection each time."""

    def __init__(self) -> None:
        self._session: aiohttp.ClientSession | None = None

    @property
    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            # slack_sdk applies its timeout only to sessions it makes itself.
            timeout = aiohttp.ClientTimeout(total=REPLY_TIMEOUT)
            self._session = aiohttp.ClientSession(timeout=timeout)
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


_REPLIERS: weakref.WeakKeyDictionary[AsyncApp, Replier] = weakref.WeakKeyDictionary()


async def close(app: AsyncApp) -> None:
    """Release what the handlers registered on ``app`` hold (its replies' session)."""
    replier = _REPLIERS.pop(app, None)
    if replier is not None:
        await replier.close()


def _try_again(locale: str) -> Notice:
    return Notice(locale, "try_again", t(locale, "try_again"))


async def _reply(replier: Replier, respond: AsyncRespond, view: View, *, replace: bool) -> None:
    """Update the message the click came from, or send a new ephemeral one (which never
    replaces the quiz: a refused click must leave it playable, a public post public).

    Sent with slack_sdk's webhook client rather than bolt's ``respond``, which cannot
    retry: a 429 waits out its Retry-After, a 500 or a dropped connection is tried once
    more. The answer is on disk already; a reply that cannot be delivered is one warning,
    and one that cannot be rendered (a bug) still tells the player to try again."""
    try:
        message = render(view)
    except Exception:
        log.exception("could not render a %s for Slack", type(view).__name__)
        message = render(_try_again(getattr(view, "locale", i18n.DEFAULT_LOCALE)))
        replace = False
    where: dict[str, Any] = (
        {"replace_original": True}
        if replace
        else {"response_type": "ephemeral", "replace_original": False}
    )
    seen = retries.Retried()
    client = AsyncWebhookClient(
        str(respond.response_url),
        session=replier.session,
        retry_handlers=retries.handlers(seen),
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
                **where,
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


# Channel commands that need nothing but who asked, and where.
_CALLER_ONLY: dict[str, Callable[[Engine, Caller], Awaitable[View]]] = {
    parse.DAILY_OFF: lambda engine, caller: engine.daily.off(caller),
    parse.DAILY_STATUS: lambda engine, caller: engine.daily.status(caller),
    parse.RACE_STOP: lambda engine, caller: engine.races.stop(caller),
    parse.COMPETITION_END: lambda engine, caller: engine.competitions.end(caller),
    parse.COMPETITION_STANDINGS: lambda engine, caller: engine.competitions.standings(caller),
}


async def _command_view(engine: Engine, ask: parse.Request, caller: Caller) -> View:
    player, scope, locale = caller.player, caller.scope, caller.locale
    match ask:
        case parse.Usage(key=key):
            return Notice(locale, key, t(locale, key))
        case parse.DailyOn():
            return await engine.daily.on(caller, ask.topics, ask.at, ask.timezone, ask.reveal_hours)
        case parse.RaceStart():
            return await engine.races.start(caller, ask.topic, ask.questions, ask.seconds)
        case parse.CompetitionStart():
            return await engine.competitions.start(caller, ask.name, ask.until, ask.topics)
        case parse.Invocation(kind=kind) if kind in _CALLER_ONLY:
            return await _CALLER_ONLY[kind](engine, caller)
        case parse.Invocation(kind=parse.QUIZ, topic=str(topic)) if topic:
            # Resume an unfinished run: ephemeral quiz messages vanish when Slack reloads.
            return await engine.start_quiz(player, scope, topic, locale, resume=True)
        case parse.Invocation(kind=parse.LEADERBOARD):
            return await engine.leaderboard(player, scope, locale, ask.period, ask.topic)
        case parse.Invocation(kind=parse.STATS):
            return await engine.stats(player, scope, locale)
        case parse.Invocation(kind=parse.LANG):
            return await engine.set_locale(player, ask.tag)
    return engine.topics(locale)


def register(app: AsyncApp, engine: Engine, people: People, admins: Collection[str] = ()) -> None:
    """``admins``: member ids with admin rights besides the workspace's admins and owners.
    Call ``close(app)`` when the app stops serving."""
    replier = _REPLIERS.setdefault(app, Replier())

    @app.command(parse.COMMAND)
    async def quiz_command(ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond) -> None:
        await ack()
        command = parse.command(body)
        if command is None:  # RefuseUnreadable turned it away already
            return
        with logs.bind(**_log_fields(command, body)):
            person = await people.lookup(command.team_id, command.user_id, command.user_name)
            player = PlayerRef(PLATFORM, command.user_id, person.name)
            scope = ScopeRef(PLATFORM, command.team_id, command.channel_id)
            is_admin = person.is_admin or command.user_id in admins
            try:
                locale = await engine.locale_for(player, person.locale)
                caller = Caller(player, scope, locale, is_admin)
                view = await _command_view(engine, parse.invocation(command.text), caller)
            except StoreError as exc:
                log.warning("a /quiz command failed on the database: %s", exc)
                view = _try_again(i18n.choose(person.locale))
            await _reply(replier, respond, view, replace=False)

    @app.action(ACTIONS)
    async def quiz_click(ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond) -> None:
        await ack()
        click = parse.click(body)
        if click is None:
            return
        with logs.bind(**_log_fields(click, body)):
            # Usually cached since the player's /quiz; it gives refusals their language.
            person = await people.lookup(click.team_id, click.user_id, click.user_name)
            player = PlayerRef(PLATFORM, click.user_id, person.name)
            try:
                view = await engine.click(player, click.action_id, person.locale)
            except StoreError as exc:
                log.warning("a click failed on the database: %s", exc)
                view = _try_again(i18n.choose(person.locale))
            # Only a personal quiz's own message is replaced; see the module's docstring.
            await _reply(replier, respond, view, replace=isinstance(view, QuestionView | Feedback))
