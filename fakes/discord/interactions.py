"""The interactions the fake Discord dispatched, by token, and the bot's answers to them,
held to Discord's rules: a first response within 3 s or the interaction is unknown (404,
code 10062), a second first response refused (400, code 40060), at most five follow-ups
for a user install, every message and form within Discord's limits."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from aiohttp import web

from ..serving import json_response
from . import payloads
from .checks import choice_problems, message_problems, modal_problems
from .errors import error
from .outcome import Outcome
from .world import APP_ID, EPHEMERAL, LOADING

if TYPE_CHECKING:
    from .server import DiscordServer

FIRST_RESPONSE_WITHIN = 3.0  # seconds, as on Discord
FOLLOWUPS_PER_USER_INSTALL = 5  # Discord's limit per interaction of a user install


@dataclass
class Pending:
    """An interaction waiting for the bot's answer, and how far the answer got."""

    id: str
    payload: dict[str, Any]
    started: float
    done: asyncio.Event = field(default_factory=asyncio.Event)
    outcome: Outcome | None = None
    callback_type: int | None = None  # the first response, once given
    response_message_id: str | None = None  # the message made by a type 4 or 5 response
    followups: int = 0
    answered: float | None = None  # when the first response arrived (monotonic)


class Interactions:
    def __init__(self, server: DiscordServer) -> None:
        self._server = server
        self._pending: dict[str, Pending] = {}  # by interaction token

    def expect(self, payload: dict[str, Any]) -> Pending:
        """Wait for answers to the interaction ``payload``, about to be dispatched."""
        pending = Pending(payload["id"], payload, time.monotonic())
        self._pending[payload["token"]] = pending
        return pending

    def _finish(self, pending: Pending, outcome: Outcome) -> None:
        if outcome.message is not None:  # a snapshot: later edits must not change it
            outcome = replace(outcome, message=payloads.snapshot(outcome.message))
        if pending.answered is not None:
            outcome = replace(outcome, latency=pending.answered - pending.started)
        pending.outcome = outcome
        pending.done.set()

    def _refusal(self, pending: Pending, kind: int, data: dict[str, Any]) -> web.Response | None:
        """Discord's 400 for a first response that breaks its limits."""
        if kind in (4, 7):
            return self._server.refuse(message_problems(data), f"callback type {kind}")
        if kind == 8:
            return self._server.refuse(choice_problems(data.get("choices", [])), "autocomplete")
        if kind == 9:
            problems = modal_problems(data)
            if pending.payload["type"] == 5:
                problems.append("a modal cannot answer a modal submission")
            return self._server.refuse(problems, "modal")
        return None

    async def callback(self, request: web.Request) -> web.Response:
        """POST /interactions/{id}/{token}/callback: the first response."""
        arrived = time.monotonic()
        server = self._server
        body = await server.record(request)
        server.callbacks.append(body)
        pending = self._pending.get(request.match_info["token"])
        if pending is not None and pending.answered is None:
            pending.answered = arrived
        if pending is None or pending.id != request.match_info["id"]:
            return error(404, 10062, "Unknown interaction")
        if pending.callback_type is not None:
            server.violations.append(f"interaction {pending.id} answered twice")
            return error(400, 40060, "Interaction has already been acknowledged.")
        if time.monotonic() - pending.started > FIRST_RESPONSE_WITHIN:
            server.violations.append(f"interaction {pending.id} answered after 3 s")
            return error(404, 10062, "Unknown interaction")
        kind, data = body["type"], body.get("data") or {}
        refused = self._refusal(pending, kind, data)
        if refused:
            return refused
        pending.callback_type = kind
        clicked = (pending.payload.get("message") or {}).get("id")
        interaction = {"id": pending.id, "type": pending.payload["type"]}
        resource: dict[str, Any] = {"type": kind}
        channel = pending.payload["channel_id"]
        if kind == 4:
            message = server.create_message(data, data.get("flags", 0) & EPHEMERAL, channel)
            pending.response_message_id = message["id"]
            resource["message"] = message
            self._finish(pending, Outcome(pending.id, kind, message, new_message=True))
        elif kind == 5:
            flags = (data.get("flags", 0) & EPHEMERAL) | LOADING
            message = server.create_message({}, flags, channel)
            pending.response_message_id = message["id"]
            resource["message"] = message
            interaction["response_message_loading"] = True
        elif kind == 7:
            if clicked not in server.messages:
                return error(404, 10008, "Unknown Message")
            message = server.apply_edit(clicked, data)
            resource["message"] = message
            self._finish(pending, Outcome(pending.id, kind, message))
        elif kind == 8:
            self._finish(pending, Outcome(pending.id, kind, choices=data.get("choices", [])))
        elif kind == 9:
            self._finish(pending, Outcome(pending.id, kind, modal=payloads.snapshot(data)))
        elif kind != 6:
            return error(400, 50035, f"unsupported callback type {kind}")
        if "message" in resource:
            interaction["response_message_id"] = resource["message"]["id"]
            interaction["response_message_ephemeral"] = bool(
                resource["message"]["flags"] & EPHEMERAL
            )
        # Types 5 and 6 finish later, with an edit or a follow-up.
        return json_response({"interaction": interaction, "resource": resource})

    def _pending_for(self, request: web.Request) -> Pending | None:
        if request.match_info["app"] != APP_ID:
            return None
        return self._pending.get(request.match_info["token"])

    async def followup(self, request: web.Request) -> web.Response:
        """POST /webhooks/{app}/{token}: a follow-up message."""
        data = await self._server.record(request)
        pending = self._pending_for(request)
        if pending is None:
            return error(404, 10015, "Unknown Webhook")
        pending.followups += 1
        problems = message_problems(data)
        owners = pending.payload.get("authorizing_integration_owners", {})
        if "0" not in owners and pending.followups > FOLLOWUPS_PER_USER_INSTALL:
            problems.append(f"over {FOLLOWUPS_PER_USER_INSTALL} follow-ups for a user install")
        refused = self._server.refuse(problems, "follow-up")
        if refused:
            return refused
        flags = data.get("flags", 0) & EPHEMERAL
        message = self._server.create_message(data, flags, pending.payload["channel_id"])
        if pending.outcome is None:
            self._finish(pending, Outcome(pending.id, pending.callback_type or 0, message, True))
        return json_response(message)

    async def webhook_message(self, request: web.Request) -> web.Response:
        """GET, PATCH or DELETE /webhooks/{app}/{token}/messages/{id or @original}."""
        server = self._server
        data = await server.record(request)
        pending = self._pending_for(request)
        if pending is None:
            return error(404, 10015, "Unknown Webhook")
        message_id = request.match_info["message"]
        if message_id == "@original":
            clicked = (pending.payload.get("message") or {}).get("id")
            message_id = pending.response_message_id or clicked or ""
        if message_id not in server.messages:
            return error(404, 10008, "Unknown Message")
        if request.method == "GET":
            return json_response(server.messages[message_id])
        if request.method == "DELETE":
            del server.messages[message_id]
            return web.Response(status=204)
        if request.method != "PATCH":
            return error(405, 0, "405: Method Not Allowed")
        refused = server.refuse(message_problems(data), "edit")
        if refused:
            return refused
        message = server.apply_edit(message_id, data)
        if pending.outcome is None:
            new = message_id == pending.response_message_id
            self._finish(pending, Outcome(pending.id, pending.callback_type or 0, message, new))
        return json_response(message)
