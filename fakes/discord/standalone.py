"""The fake Discord in a process of its own, for trying the bot by hand, with a control
API a person (``python -m fakes.discord.remote``) or a test drives it through:
``POST /_test/interact`` dispatches an interaction and answers what the user saw::

    python -m fakes.discord --port 8765
    DISCORD_TOKEN=fake-bot-token DISCORD_API_BASE_URL=http://127.0.0.1:8765/api/v10 \\
        DISCORD_GATEWAY_URL=ws://127.0.0.1:8765/gateway quizbot run discord
    python -m fakes.discord.remote slash quiz topic=offloading
    python -m fakes.discord.remote play --clicks 5
    python -m fakes.discord.remote --admin slash quiz-daily action=on topics=tiny \\
        time=09:30 timezone=UTC
    python -m fakes.discord.remote channel     # the channel's public posts, with their buttons
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from aiohttp import web

from ..serving import json_response, serve
from .driver import FakeDiscord
from .errors import error
from .world import ALICE, FakeUser


class StandaloneDiscord(FakeDiscord):
    def app(self) -> web.Application:
        app = super().app()
        app.router.add_post("/_test/interact", self._test_interact)
        app.router.add_get("/_test/state", self._test_state)
        app.router.add_get("/_test/channel", self._test_channel)
        app.router.add_get("/_test/message/{id}", self._test_message)
        return app

    async def _test_interact(self, request: web.Request) -> web.Response:
        """POST {"kind": "slash", "name": "quiz", "options": {...}} (with "subcommand":
        "on" for /quiz-remind on) or {"kind": "click",
        "message_id": "...", "custom_id": "..."} or {"kind": "autocomplete", "name": ...,
        "option": ..., "value": ...}; optional "user" (id), "user_name", "locale",
        "permissions" (an integer) and "roles" (role ids). Answers the outcome."""
        spec = await request.json()
        user = FakeUser(
            str(spec.get("user", ALICE.id)),
            spec.get("user_name", ALICE.name),
            int(spec.get("permissions") or 0),
            tuple(spec.get("roles") or ()),
        )
        locale = spec.get("locale", "en-US")
        try:
            if spec["kind"] == "slash":
                outcome = await self.slash(
                    spec["name"],
                    spec.get("subcommand"),
                    user=user,
                    locale=locale,
                    **spec.get("options", {}),
                )
            elif spec["kind"] == "click":
                outcome = await self.click(
                    spec["message_id"], spec["custom_id"], user=user, locale=locale
                )
            else:
                choices = await self.autocomplete(
                    spec["name"], spec["option"], spec["value"], user=user, locale=locale
                )
                return json_response({"choices": choices})
        except (RuntimeError, AssertionError, KeyError) as exc:
            return json_response({"error": str(exc)}, 409)
        return json_response(outcome.to_dict())

    async def _test_message(self, request: web.Request) -> web.Response:
        message = self.messages.get(request.match_info["id"])
        return json_response(message) if message else error(404, 10008, "Unknown Message")

    async def _test_channel(self, request: web.Request) -> web.Response:
        return json_response([self.messages[i] for i in self.posts if i in self.messages])

    async def _test_state(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "connected": bool(self._sockets),
                "identifies": self.identifies,
                "resumes": self.resumes,
                "command_syncs": self.command_syncs,
                "violations": self.violations,
                "unexpected": self.unexpected,
                "messages": len(self.messages),
            }
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fakes.discord")
    parser.add_argument("--port", type=int, default=8765)
    port = parser.parse_args(argv).port
    fake = StandaloneDiscord()

    def describe() -> Iterator[str]:
        yield f"fake Discord on {fake.url}; point the bot at it with:"
        yield from (f"  export {key}={value}" for key, value in fake.environ().items())
        yield "then drive it with: python -m fakes.discord.remote --help"

    serve(fake, port, describe)
    return 0
