"""The fake Slack from the command line: serve it, and play against quizbot through it.

By hand, in three terminals (the same SLACK_SIGNING_SECRET in the last two):

    python -m fakes.slack serve --port 8900
    SLACK_API_URL=http://127.0.0.1:8900/api/ SLACK_BOT_TOKEN=xoxb-fake \\
        SLACK_SIGNING_SECRET=s3cret quizbot run slack --http --port 3000
    SLACK_SIGNING_SECRET=s3cret python -m fakes.slack play offloading \\
        --port 8900 --app http://127.0.0.1:3000/slack/events

Channel play by hand: ``serve --admin U0ADMIN --user U0ADMIN=Boss --user U1=Ana``, then
``send "daily on offloading 09:30 UTC" --user U0ADMIN`` (any /quiz text), ``posts`` (the
channel's messages as last edited, with their buttons) and ``click 1 B --user U1``
(button B of the first channel message), each with the same --port, --app and secret.

Add to Slack by hand: ``serve --home UT2=T2 --home C2=T2``, quizbot with
``SLACK_CLIENT_ID=1111.2222 SLACK_CLIENT_SECRET=fake-client-secret
QUIZBOT_TOKEN_KEY=<32+ characters> SLACK_AUTHORIZE_URL=http://127.0.0.1:8900/oauth/v2/authorize``
instead of SLACK_BOT_TOKEN, then ``install T1``, ``install T2``, ``play offloading --team T2
--channel C2 --user UT2`` and ``uninstall T2``.
"""

from __future__ import annotations

import argparse
import asyncio
import os

from ..serving import serve
from .remote import installing, one_step, play
from .standalone import StandaloneSlack
from .world import HOME, User


def _named_users(args: argparse.Namespace) -> dict[str, User]:
    """``--user ID=Name`` and ``--admin ID`` as users.info answers."""
    named = dict(pair.split("=", 1) for pair in args.user)
    ids = dict.fromkeys([*named, *args.admin])
    return {i: User(args.locale, named.get(i, i), admin=i in args.admin) for i in ids}


def _serve(args: argparse.Namespace) -> None:
    fake = StandaloneSlack(_named_users(args), anyone=User(args.locale, args.name), verbose=True)
    fake.homes.update(pair.split("=", 1) for pair in args.home)
    fake.redirect_url = args.redirect
    serve(fake, args.port, lambda: [f"fake Slack Web API at {fake.api_url} (Ctrl-C to stop)"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fakes.slack")
    sub = parser.add_subparsers(dest="command", required=True)
    serve_it = sub.add_parser("serve", help="run the fake Slack and print what it receives")
    serve_it.add_argument("--port", type=int, default=8900)
    serve_it.add_argument("--locale", default="en-US", help="users.info locale, e.g. hi-IN")
    serve_it.add_argument("--name", default="Ada", help="users.info display name")
    serve_it.add_argument(
        "--user",
        action="append",
        default=[],
        metavar="ID=NAME",
        help="a user with their own display name (repeatable)",
    )
    serve_it.add_argument(
        "--admin",
        action="append",
        default=[],
        metavar="ID",
        help="a workspace admin, per users.info (repeatable)",
    )
    serve_it.add_argument(
        "--home",
        action="append",
        default=[],
        metavar="ID=TEAM",
        help=f"a channel or user of another workspace than {HOME} (repeatable)",
    )
    serve_it.add_argument(
        "--redirect",
        default="http://127.0.0.1:3000/slack/oauth_redirect",
        help="the app's OAuth redirect URL, where the authorize page sends the browser",
    )
    install = sub.add_parser("install", help="install the app in a workspace (Add to Slack)")
    uninstall = sub.add_parser("uninstall", help="remove the app from a workspace")
    for one in (install, uninstall):
        one.add_argument("team", help="the workspace, e.g. T2")
    play_it = sub.add_parser("play", help="play a quiz against a running quizbot, as Slack would")
    play_it.add_argument("topic")
    play_it.add_argument("--answers", default="ABCD", help="letters to click, in turn")
    send = sub.add_parser("send", help="send one /quiz command and print the reply")
    send.add_argument("text", help='the text after /quiz, e.g. "race offloading 2 10"')
    posts = sub.add_parser("posts", help="print the channel's messages, as last edited")
    click = sub.add_parser("click", help="click a button of a channel message")
    click.add_argument("post", type=int, help="the message's number, as `posts` shows it")
    click.add_argument("letter", help="the button's label, e.g. B")
    for one in (play_it, send, posts, click, install, uninstall):
        one.add_argument("--port", type=int, default=8900, help="port of the running fake")
        one.add_argument("--app", default="http://127.0.0.1:3000/slack/events")
        one.add_argument("--secret", default=os.environ.get("SLACK_SIGNING_SECRET", ""))
        one.add_argument("--channel", default="C1")
        one.add_argument("--team", default=HOME, help="the workspace the member is in")
    for one in (play_it, send, click):
        one.add_argument("--user", default="U0PLAYER")
    args = parser.parse_args(argv)
    if args.command == "serve":
        _serve(args)
        return 0
    if not args.secret:
        parser.error("set SLACK_SIGNING_SECRET or pass --secret")
    if args.command in ("install", "uninstall"):
        return asyncio.run(installing(args))
    return asyncio.run(play(args) if args.command == "play" else one_step(args))
