"""Thin bolt listeners: acknowledge at once, parse, let the core handle it, deliver."""

from __future__ import annotations

import logging
import re
from collections.abc import Collection
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncRespond

from bot.operations import logs
from bot.play import codec
from bot.play.engine import Engine
from bot.play.refs import PlayerRef, ScopeRef
from bot.play.requests import Click, Context, Request

from . import parse
from .deliver import PLATFORM, Replier
from .people import People

log = logging.getLogger(__name__)

ACTIONS = re.compile("^" + re.escape(codec.PREFIX))


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


def register(
    app: AsyncApp, engine: Engine, people: People, replier: Replier, admins: Collection[str] = ()
) -> None:
    """``admins``: member ids with admin rights besides the workspace's admins and owners."""

    async def serve(
        asked: parse.Command | parse.Click,
        request: Request,
        body: dict[str, Any],
        respond: AsyncRespond,
    ) -> None:
        with logs.bind(**_log_fields(asked, body)):
            # Cached after a player's first request; it gives replies their language.
            person = await people.lookup(asked.team_id, asked.user_id, asked.user_name)
            context = Context(
                PlayerRef(PLATFORM, asked.user_id, person.name),
                ScopeRef(PLATFORM, asked.team_id, asked.channel_id),
                person.locale,
                person.is_admin or asked.user_id in admins,
            )
            reply = await engine.handle(request, context)
            await replier.deliver(str(respond.response_url), reply)

    @app.command(parse.COMMAND)
    async def quiz_command(ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond) -> None:
        await ack()
        command = parse.command(body)
        if command is not None:  # else RefuseUnreadable turned it away already
            await serve(command, parse.request(command.text), body, respond)

    @app.action(ACTIONS)
    async def quiz_click(ack: AsyncAck, body: dict[str, Any], respond: AsyncRespond) -> None:
        await ack()
        click = parse.click(body)
        if click is not None:
            await serve(click, Click(click.action_id), body, respond)
