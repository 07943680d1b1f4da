"""Slack settings from the environment, checked before anything connects.

Each problem is one line naming the variable and where Slack's app settings show it;
secrets are never echoed back.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

DEFAULT_API_URL = "https://slack.com/api/"
EVENTS_PATH = "/slack/events"
ADMINS_VARIABLE = "QUIZBOT_SLACK_ADMINS"
# Member ids (U…, or W… on Enterprise Grid): what Slack puts in every payload.
_USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}$")

_WHERE = {
    "SLACK_BOT_TOKEN": "the Bot User OAuth Token (xoxb-…) under OAuth & Permissions → OAuth Tokens",
    "SLACK_SIGNING_SECRET": "it under Basic Information → App Credentials → Signing Secret",
    "SLACK_APP_TOKEN": (
        "or create an app-level token (xapp-…) with the connections:write scope under"
        " Basic Information → App-Level Tokens"
    ),
}


@dataclass(frozen=True)
class SlackSettings:
    bot_token: str = field(repr=False)
    signing_secret: str = field(repr=False)
    app_token: str = field(repr=False)
    api_url: str = DEFAULT_API_URL
    http: bool = False  # HTTP mode (signed requests on a public URL) instead of Socket Mode
    port: int = 3000
    # Member ids allowed to run admin commands besides workspace admins and owners.
    admins: frozenset[str] = frozenset()

    @classmethod
    def from_environ(cls, environ: Mapping[str, str], args: argparse.Namespace) -> SlackSettings:
        api_url = environ.get("SLACK_API_URL") or DEFAULT_API_URL
        return cls(
            bot_token=environ.get("SLACK_BOT_TOKEN", ""),
            signing_secret=environ.get("SLACK_SIGNING_SECRET", ""),
            app_token=environ.get("SLACK_APP_TOKEN", ""),
            # slack_sdk joins method names onto the base URL, which needs its final slash.
            api_url=api_url if api_url.endswith("/") else api_url + "/",
            http=bool(getattr(args, "http", False)),
            port=int(getattr(args, "port", 3000)),
            admins=frozenset(_admin_entries(environ)),
        )


def _admin_entries(environ: Mapping[str, str]) -> list[str]:
    return [a.strip() for a in environ.get(ADMINS_VARIABLE, "").split(",") if a.strip()]


def configured(environ: Mapping[str, str]) -> bool:
    """Whether the operator meant to run on Slack: a bot token is set."""
    return bool(environ.get("SLACK_BOT_TOKEN"))


def problems(environ: Mapping[str, str], args: argparse.Namespace) -> list[str]:
    settings = SlackSettings.from_environ(environ, args)
    found: list[str] = []
    if not settings.bot_token:
        found.append(f"SLACK_BOT_TOKEN is not set: find {_WHERE['SLACK_BOT_TOKEN']}")
    elif not settings.bot_token.startswith("xoxb-"):
        found.append(
            "SLACK_BOT_TOKEN does not look like a bot token (it starts with xoxb-): find "
            + _WHERE["SLACK_BOT_TOKEN"]
        )
    if settings.http:
        if not settings.signing_secret:
            found.append(
                f"SLACK_SIGNING_SECRET is not set (HTTP mode needs it): find "
                f"{_WHERE['SLACK_SIGNING_SECRET']}"
            )
        if not 0 <= settings.port <= 65535:
            found.append(f"--port {settings.port} is not a TCP port (0-65535)")
    elif not settings.app_token:
        found.append(
            "SLACK_APP_TOKEN is not set (Socket Mode needs it): run with --http for HTTP mode, "
            + _WHERE["SLACK_APP_TOKEN"]
        )
    elif not settings.app_token.startswith("xapp-"):
        found.append(
            "SLACK_APP_TOKEN does not look like an app-level token (it starts with xapp-): "
            + _WHERE["SLACK_APP_TOKEN"].removeprefix("or ")
        )
    wrong = [a for a in _admin_entries(environ) if not _USER_ID.match(a)]
    if wrong:
        found.append(
            f"{ADMINS_VARIABLE} must list Slack member ids (like U0123ABCD), comma-separated,"
            f" not {', '.join(wrong)}: copy one from the member's profile → ⋮ → Copy member ID"
        )
    url = urlsplit(settings.api_url)
    if url.scheme not in ("http", "https") or not url.netloc:
        found.append(
            "SLACK_API_URL is not an http(s) URL: leave it unset for Slack's own "
            f"{DEFAULT_API_URL}, or give the base URL of your proxy"
        )
    return found
