"""Playing against a running quizbot by hand, as Slack would, with the fake Slack
(``python -m fakes.slack serve``) in another process: a quiz, one command or click of
channel play, or an install (see ``python -m fakes.slack --help``)."""

from __future__ import annotations

import argparse
import itertools
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import aiohttp

from ..serving import get_json
from .checks import message_problems
from .driver import SlackDriver
from .reading import buttons, shown_text
from .server import ChannelPost


@dataclass(frozen=True)
class RemoteFake:
    """A FakeSlack running in another process (``serve``), read over HTTP."""

    url: str

    def response_url(self, key: str) -> str:
        return f"{self.url}/response/{key}"

    async def response(self, key: str, count: int = 1) -> dict[str, Any]:
        found: dict[str, Any] = await get_json(f"{self.url}/_response/{key}?count={count}")
        return found

    async def messages(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = await get_json(f"{self.url}/_messages")
        return found

    async def channel_posts(self) -> list[ChannelPost]:
        return [ChannelPost(**post) for post in await get_json(f"{self.url}/_channel")]


def _remote(args: argparse.Namespace) -> tuple[RemoteFake, SlackDriver]:
    """The running fake, and a driver whose response_url keys are unique across runs (the
    fake keeps every earlier reply)."""
    fake = RemoteFake(f"http://127.0.0.1:{args.port}")
    keys = itertools.count(time.time_ns())
    driver = SlackDriver(fake, args.app, args.secret, args.team, args.channel, _keys=keys)
    return fake, driver


async def installing(args: argparse.Namespace) -> int:
    """``install``: Add to Slack as a browser would; ``uninstall``: the workspace's tokens
    stop working and the app hears app_uninstalled."""
    fake, slack = _remote(args)
    if args.command == "install":
        status, page = await slack.install(args.team)
        heading = re.search(r"<h2>(.*?)</h2>", page)
        print(f"HTTP {status}: {heading[1] if heading else page[:200]}")
        return 0 if status == 200 else 1
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{fake.url}/_uninstall/{args.team}") as done,
    ):
        done.raise_for_status()
    status = await slack.event({"type": "app_uninstalled"}, args.team)
    print(f"app_uninstalled → HTTP {status}")
    return 0 if status == 200 else 1


async def play(args: argparse.Namespace) -> int:
    """``play``: a whole quiz, clicking ``--answers`` in turn, with the timings."""
    fake, slack = _remote(args)
    letters = itertools.cycle(args.answers)
    message = await slack.command(args.topic, args.user)
    while True:
        print(shown_text(message), "\n", flush=True)
        choices = buttons(message)
        if "A" in choices:
            letter = next(letters)
            print(f"> clicking {letter}\n")
            message = await slack.click(choices[letter], args.user)
        elif choices:  # the "Next question" button
            message = await slack.click(next(iter(choices.values())), args.user)
        else:
            break
    print(shown_text(await slack.command(f"leaderboard {args.topic}", args.user)))
    messages = await fake.messages()
    invalid = [p for m in messages for p in message_problems(m)]
    print(f"\n{len(messages)} messages received, {len(invalid)} Block Kit problems")
    for problem in invalid:
        print(f"  {problem}")
    print("timings (ms): request → HTTP ack, request → reply posted to response_url")
    for what, acked, replied in slack.timings:
        print(f"  {acked * 1000:7.1f} {replied * 1000:7.1f}  {what}")
    slowest = max(replied for _, _, replied in slack.timings)
    print(f"slowest reply: {slowest * 1000:.1f} ms")
    return 1 if invalid else 0


def _print_posts(posts: Sequence[ChannelPost]) -> None:
    for number, post in enumerate(posts, start=1):
        edited = f", edited {post.edits}x" if post.edits else ""
        labels = " ".join(buttons({"blocks": post.blocks}))
        print(f"#{number} {post.ref}{edited}{' · buttons ' + labels if labels else ''}")
        print(shown_text({"blocks": post.blocks}), "\n", flush=True)


async def one_step(args: argparse.Namespace) -> int:
    """``send``, ``posts`` or ``click``: one step of channel play by hand."""
    fake, slack = _remote(args)
    if args.command == "posts":
        _print_posts([p for p in await fake.channel_posts() if p.channel == args.channel])
        return 0
    if args.command == "send":
        reply = await slack.command(args.text, args.user)
    else:
        posts = [p for p in await fake.channel_posts() if p.channel == args.channel]
        post = posts[args.post - 1]
        action = buttons({"blocks": post.blocks})[args.letter]
        reply = await slack.click(action, args.user, message_ts=post.ts)
    private = reply.get("response_type") == "ephemeral" and not reply.get("replace_original")
    print(f"[{'private' if private else 'public'} reply to {args.user}]")
    print(shown_text(reply))
    invalid = message_problems(reply)
    for problem in invalid:
        print(f"  Block Kit problem: {problem}")
    return 1 if invalid else 0
