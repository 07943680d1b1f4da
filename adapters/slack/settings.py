"""Slack's settings section: each problem is one line naming the variable and where
Slack's app settings show it; secrets are never echoed back."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from bot.operations.sealing import MIN_KEY_CHARS, keys_of
from bot.operations.settings import setting

DEFAULT_API_URL = "https://slack.com/api/"
DEFAULT_AUTHORIZE_URL = "https://slack.com/oauth/v2/authorize"
EVENTS_PATH = "/slack/events"
INSTALL_PATH = "/slack/install"
REDIRECT_PATH = "/slack/oauth_redirect"
# Member ids (U…, or W… on Enterprise Grid): what Slack puts in every payload.
_USER_ID = re.compile(r"^[UW][A-Z0-9]{2,}$")

_BOT_TOKEN = "the Bot User OAuth Token (xoxb-…) under OAuth & Permissions → OAuth Tokens"
_SIGNING_SECRET = "it under Basic Information → App Credentials → Signing Secret"
_CREDENTIALS = "it under Basic Information → App Credentials"
_APP_TOKEN = (
    "create an app-level token (xapp-…) with the connections:write scope under"
    " Basic Information → App-Level Tokens"
)


def _bot_token(slack: SlackSettings) -> str | None:
    if slack.oauth_asked:
        if slack.bot_token:
            return (
                "is one workspace's token, but SLACK_CLIENT_ID and SLACK_CLIENT_SECRET install"
                " the app in many (each workspace's token comes from its installation):"
                " unset one or the other"
            )
        return None
    if not slack.bot_token:
        return f"is not set: find {_BOT_TOKEN}"
    if not slack.bot_token.startswith("xoxb-"):
        return f"does not look like a bot token (it starts with xoxb-): find {_BOT_TOKEN}"
    return None


def _signing_secret(slack: SlackSettings) -> str | None:
    if slack.http and not slack.signing_secret:
        return f"is not set (HTTP mode needs it): find {_SIGNING_SECRET}"
    return None


def _client_id(slack: SlackSettings) -> str | None:
    if not slack.oauth_asked:
        return None
    if not slack.client_id:
        return f"is not set (SLACK_CLIENT_SECRET is): find {_CREDENTIALS} → Client ID"
    if not slack.http:
        return "installs the app over HTTP (/slack/install): add --http"
    return None


def _client_secret(slack: SlackSettings) -> str | None:
    if slack.client_id and not slack.client_secret:
        return f"is not set (SLACK_CLIENT_ID is): find {_CREDENTIALS} → Client Secret"
    return None


def _token_key(slack: SlackSettings) -> str | None:
    if not slack.oauth:
        return None
    keys = keys_of(slack.token_key)
    if not keys:
        return (
            "is not set (it seals the installed workspaces' tokens in the database): set"
            f" {MIN_KEY_CHARS} or more random characters, e.g. the output of"
            " `openssl rand -hex 32`"
        )
    if any(len(k) < MIN_KEY_CHARS for k in keys):
        return f"must be at least {MIN_KEY_CHARS} characters (each, when several)"
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


def _http_url(raw: str, default: str) -> str:
    url = urlsplit(raw)
    if url.scheme not in ("http", "https") or not url.netloc:
        raise ValueError(
            f"is not an http(s) URL: leave it unset for Slack's own {default},"
            " or give the base URL of your proxy"
        )
    return raw


def _authorize_url(raw: str) -> str:
    return _http_url(raw, DEFAULT_AUTHORIZE_URL)


def _api_url(raw: str) -> str:
    _http_url(raw, DEFAULT_API_URL)
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
    client_id: str = setting(
        env="SLACK_CLIENT_ID",
        help="Slack app's Client ID, to install it in many workspaces (Add to Slack):"
        " Basic Information",
        check=_client_id,
        default="",
    )
    client_secret: str = setting(
        env="SLACK_CLIENT_SECRET",
        help="Slack app's Client Secret, with SLACK_CLIENT_ID: Basic Information",
        check=_client_secret,
        secret=True,
        default="",
    )
    token_key: str = setting(
        env="QUIZBOT_TOKEN_KEY",
        help="seals installed workspaces' Slack tokens in the database (≥ 32 characters;"
        " comma-separated to rotate, newest first)",
        check=_token_key,
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
    authorize_url: str = setting(
        env="SLACK_AUTHORIZE_URL",
        help="Slack's authorize page that Add to Slack links to (default Slack's own)",
        parse=_authorize_url,
        default=DEFAULT_AUTHORIZE_URL,
    )

    @property
    def oauth_asked(self) -> bool:
        """Whether the operator meant Add to Slack: a client id or secret is set."""
        return bool(self.client_id or self.client_secret)

    @property
    def oauth(self) -> bool:
        """Many workspaces, each installed through /slack/install with its own token."""
        return bool(self.client_id and self.client_secret)

    @property
    def configured(self) -> bool:
        """Whether the operator meant to run on Slack: a bot token, or a client id and
        secret, is set."""
        return bool(self.bot_token) or self.oauth_asked
