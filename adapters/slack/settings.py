"""Slack's settings section: each problem is one line naming the variable and where
Slack's app settings show it; secrets are never echoed back."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from bot.operations.settings import setting

DEFAULT_API_URL = "https://slack.com/api/"
EVENTS_PATH = "/slack/events"
# Member ids (U…, or W… on Enterprise Grid): what Slack puts in every payload.
_USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}$")

_BOT_TOKEN = "the Bot User OAuth Token (xoxb-…) under OAuth & Permissions → OAuth Tokens"
_SIGNING_SECRET = "it under Basic Information → App Credentials → Signing Secret"
_APP_TOKEN = (
    "create an app-level token (xapp-…) with the connections:write scope under"
    " Basic Information → App-Level Tokens"
)


def _bot_token(slack: SlackSettings) -> str | None:
    if not slack.bot_token:
        return f"is not set: find {_BOT_TOKEN}"
    if not slack.bot_token.startswith("xoxb-"):
        return f"does not look like a bot token (it starts with xoxb-): find {_BOT_TOKEN}"
    return None


def _signing_secret(slack: SlackSettings) -> str | None:
    if slack.http and not slack.signing_secret:
        return f"is not set (HTTP mode needs it): find {_SIGNING_SECRET}"
    return None


def _app_token(slack: SlackSettings) -> str | None:
    if slack.http:
        return None
    if not slack.app_token:
        return f"is not set (Socket Mode needs it): run with --http for HTTP mode, or {_APP_TOKEN}"
    if not slack.app_token.startswith("xapp-"):
        return f"does not look like an app-level token (it starts with xapp-): {_APP_TOKEN}"
    return None


def _workers(slack: SlackSettings) -> str | None:
    if slack.workers < 1:
        return f"must be at least 1, not {slack.workers}"
    if slack.workers > 1 and not slack.http:
        return "runs several HTTP processes on one port: add --http"
    return None


def _port(slack: SlackSettings) -> str | None:
    if slack.http and not 0 <= slack.port <= 65535:
        return f"{slack.port} is not a TCP port (0-65535)"
    return None


def _member_ids(raw: str) -> frozenset[str]:
    entries = [a.strip() for a in raw.split(",") if a.strip()]
    wrong = [a for a in entries if not _USER_ID.match(a)]
    if wrong:
        raise ValueError(
            f"must list Slack member ids (like U0123ABCD), comma-separated, not {', '.join(wrong)}:"
            " copy one from the member's profile → ⋮ → Copy member ID"
        )
    return frozenset(entries)


def _api_url(raw: str) -> str:
    url = urlsplit(raw)
    if url.scheme not in ("http", "https") or not url.netloc:
        raise ValueError(
            f"is not an http(s) URL: leave it unset for Slack's own {DEFAULT_API_URL},"
            " or give the base URL of your proxy"
        )
    # slack_sdk joins method names onto the base URL, which needs its final slash.
    return raw if raw.endswith("/") else raw + "/"


# Fields in the order their problems are listed (HTTP mode's, or Socket Mode's).
@dataclass(frozen=True)
class SlackSettings:
    bot_token: str = setting(
        env="SLACK_BOT_TOKEN",
        help="Slack bot token (xoxb-…): OAuth & Permissions",
        check=_bot_token,
        secret=True,
        default="",
    )
    signing_secret: str = setting(
        env="SLACK_SIGNING_SECRET",
        help="Slack signing secret, for HTTP mode: Basic Information",
        check=_signing_secret,
        secret=True,
        default="",
    )
    app_token: str = setting(
        env="SLACK_APP_TOKEN",
        help="Slack app-level token (xapp-…) for Socket Mode: Basic Information",
        check=_app_token,
        secret=True,
        default="",
    )
    # HTTP mode (signed requests on a public URL) instead of Socket Mode
    http: bool = setting(option="--http", default=False)
    port: int = setting(option="--port", check=_port, default=3000)
    # HTTP processes sharing the port (SO_REUSEPORT); more than one needs PostgreSQL.
    workers: int = setting(option="--workers", check=_workers, default=1)
    # Member ids allowed to run admin commands besides workspace admins and owners.
    admins: frozenset[str] = setting(
        env="QUIZBOT_SLACK_ADMINS",
        help="Slack user ids (comma-separated) allowed to manage them",
        parse=_member_ids,
        default=frozenset(),
    )
    api_url: str = setting(
        env="SLACK_API_URL",
        help="Slack Web API base URL (default Slack's own; for proxies)",
        parse=_api_url,
        default=DEFAULT_API_URL,
    )

    @property
    def configured(self) -> bool:
        """Whether the operator meant to run on Slack: a bot token is set."""
        return bool(self.bot_token)
