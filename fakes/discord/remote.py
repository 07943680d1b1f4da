"""Drive a bot connected to a standalone fake Discord (``python -m fakes.discord``) by hand,
through the fake's control API: send slash commands and clicks, or click through a whole
quiz, and print what the user would see.

    python -m fakes.discord.remote slash quiz topic=offloading
    python -m fakes.discord.remote slash quiz-remind on time=09:00 timezone=Europe/Berlin
    python -m fakes.discord.remote click <message id> <custom id>
    python -m fakes.discord.remote play --topic offloading --clicks 5
    python -m fakes.discord.remote play --message <message id>   # continue a quiz
    python -m fakes.discord.remote --admin slash quiz-daily action=on topics=tiny \\
        time=09:30 timezone=Europe/Berlin reveal_hours=0.02   # as a member with Manage Server
    python -m fakes.discord.remote channel         # the channel's public posts and buttons
    python -m fakes.discord.remote --user 1500000000000000002 --name Bob click <post> <id>
    python -m fakes.discord.remote state
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

import aiohttp

from ..serving import get_json
from .outcome import Outcome
from .world import ALICE, MANAGE_GUILD


class Driver:
    def __init__(self, url: str, who: dict[str, Any]):
        self.url, self.who = url.rstrip("/"), who

    async def interact(self, spec: dict[str, Any]) -> dict[str, Any]:
        async with (
            aiohttp.ClientSession() as session,
            session.post(f"{self.url}/_test/interact", json={**self.who, **spec}) as response,
        ):
            data: dict[str, Any] = await response.json()
        if response.status != 200:
            raise SystemExit(f"fake Discord: {data['error']}")
        show(data)
        return data

    async def slash(
        self, name: str, options: dict[str, str], subcommand: str | None = None
    ) -> dict[str, Any]:
        spec = {"kind": "slash", "name": name, "options": options, "subcommand": subcommand}
        return await self.interact(spec)

    async def click(self, message_id: str, custom_id: str) -> dict[str, Any]:
        spec = {"kind": "click", "message_id": message_id, "custom_id": custom_id}
        return await self.interact(spec)

    async def play(self, topic: str, clicks: int, message_id: str | None) -> None:
        """Click the first button (answer A, then "Next") until the quiz is over or
        ``clicks`` clicks were made; start with /quiz unless continuing a message."""
        if message_id is None:
            message_id = (await self.slash("quiz", {"topic": topic}))["message"]["id"]
        for _ in range(clicks):
            message = await get_json(f"{self.url}/_test/message/{message_id}")
            buttons = [c for row in message["components"] for c in row["components"]]
            if not buttons:
                print("--- no buttons left: the quiz is over")
                return
            await self.click(message_id, buttons[0]["custom_id"])
        print(f"--- continue with: play --message {message_id}")

    async def state(self) -> None:
        print(json.dumps(await get_json(f"{self.url}/_test/state"), indent=2))

    async def channel(self, last: int) -> None:
        for message in (await get_json(f"{self.url}/_test/channel"))[-last:]:
            edited = " (edited)" if message.get("edited_timestamp") else ""
            print(f"=== post {message['id']}{edited}")
            show_message(message)


def show(outcome: dict[str, Any]) -> None:
    view = Outcome(**outcome)
    where = "new message" if view.new_message else "edited in place"
    private = ", ephemeral" if view.ephemeral else ""
    message_id = view.message["id"] if view.message else "-"
    print(f"--- response type {view.callback_type}: {where}{private} (message {message_id})")
    show_message(view.message)


def show_message(message: dict[str, Any] | None) -> None:
    view = Outcome("", 0, message)
    print(view.text())
    for button in view.buttons:
        print(f"  [{button.get('label')}] {button.get('custom_id')}")


async def run(args: argparse.Namespace) -> None:
    who = {
        "user": args.user,
        "user_name": args.name,
        "locale": args.locale,
        "permissions": MANAGE_GUILD if args.admin else 0,
        "roles": args.role,
    }
    driver = Driver(args.url, who)
    if args.command == "slash":
        # A word without "=" names the subcommand (/quiz-remind on …).
        words = [o for o in args.options if "=" not in o]
        options = dict(o.split("=", 1) for o in args.options if "=" in o)
        await driver.slash(args.name_, options, words[0] if words else None)
    elif args.command == "click":
        await driver.click(args.message_id, args.custom_id)
    elif args.command == "play":
        await driver.play(args.topic, args.clicks, args.message)
    elif args.command == "channel":
        await driver.channel(args.last)
    else:
        await driver.state()


def main(argv: list[str] | None = None) -> int:
    top = argparse.ArgumentParser(prog="python -m fakes.discord.remote")
    top.add_argument("--url", default="http://127.0.0.1:8765", help="the fake Discord")
    top.add_argument("--user", default=ALICE.id, help="the clicking user's id")
    top.add_argument("--name", default=ALICE.name, help="the user's display name")
    top.add_argument("--locale", default="en-US", help="the user's client language, e.g. hi")
    top.add_argument("--admin", action="store_true", help="the user has Manage Server")
    top.add_argument("--role", action="append", default=[], help="a role id the user has")
    sub = top.add_subparsers(dest="command", required=True)
    slash = sub.add_parser("slash", help="send a slash command")
    slash.add_argument("name_", metavar="name")
    slash.add_argument("options", nargs="*", help="a subcommand, then option=value")
    click = sub.add_parser("click", help="click a button")
    click.add_argument("message_id")
    click.add_argument("custom_id")
    play = sub.add_parser("play", help="click through a quiz")
    play.add_argument("--topic", default="offloading")
    play.add_argument("--clicks", type=int, default=100)
    play.add_argument("--message", help="continue from this message's buttons")
    channel = sub.add_parser("channel", help="the channel's public posts")
    channel.add_argument("--last", type=int, default=5, help="how many of the latest posts")
    sub.add_parser("state", help="what the fake has seen")
    asyncio.run(run(top.parse_args(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
