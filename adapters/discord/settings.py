"""Discord settings from the environment, checked with one clear line per problem."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..errors import SetupError

PORTAL = "https://discord.com/developers/applications"
API_PATH = "/api/v10"
ROLE_NAME = 100  # Discord's longest role name


class SettingsError(SetupError):
    """A setting that keeps the bot from starting: the message is one line for the user."""


@dataclass(frozen=True)
class Settings:
    token: str
    guild_id: int | None = None  # sync commands to this server only (instant)
    api_base_url: str | None = None  # REST base, e.g. a rate-limit proxy or a test fake
    gateway_url: str | None = None
    admin_role: str | None = None  # members with a role of this name are quiz admins too

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> Settings:
        problems = settings_problems(environ)
        if problems:
            raise SettingsError(problems[0])
        guild = environ.get("DISCORD_GUILD_ID", "").strip()
        return cls(
            token=environ["DISCORD_TOKEN"].strip(),
            guild_id=int(guild) if guild else None,
            api_base_url=_api_base(environ.get("DISCORD_API_BASE_URL", "").strip()),
            gateway_url=environ.get("DISCORD_GATEWAY_URL", "").strip() or None,
            admin_role=environ.get("QUIZBOT_ADMIN_ROLE", "").strip() or None,
        )


def _api_base(url: str) -> str | None:
    """The REST base with its API version: a bare host gets Discord's ``/api/v10``."""
    if not url:
        return None
    url = url.rstrip("/")
    return url if urlsplit(url).path else url + API_PATH


def _url_problem(environ: Mapping[str, str], name: str, schemes: tuple[str, ...]) -> str | None:
    value = environ.get(name, "").strip()
    if not value:
        return None
    parts = urlsplit(value)
    if parts.scheme not in schemes or not parts.netloc:
        return f"{name} must be a {' or '.join(s + '://' for s in schemes)} URL"
    return None


def settings_problems(environ: Mapping[str, str]) -> list[str]:
    """One line per missing or invalid setting; never echoes the token."""
    problems = []
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        problems.append(
            f"DISCORD_TOKEN is not set: create a bot at {PORTAL} → your app → Bot → "
            "Reset Token, then export DISCORD_TOKEN=<token>"
        )
    elif token.lower().startswith("bot ") or any(c.isspace() for c in token):
        problems.append("DISCORD_TOKEN must be the bare bot token, without 'Bot ' or spaces")
    guild = environ.get("DISCORD_GUILD_ID", "").strip()
    if guild and not guild.isdigit():
        problems.append(
            "DISCORD_GUILD_ID must be a server id (digits): turn on Developer Mode in Discord's "
            "settings, then right-click the server → Copy Server ID"
        )
    if len(environ.get("QUIZBOT_ADMIN_ROLE", "").strip()) > ROLE_NAME:
        problems.append(
            f"QUIZBOT_ADMIN_ROLE must be a role's name as Discord shows it (at most {ROLE_NAME} "
            "characters)"
        )
    for name, schemes in (
        ("DISCORD_API_BASE_URL", ("https", "http")),
        ("DISCORD_GATEWAY_URL", ("wss", "ws")),
    ):
        problem = _url_problem(environ, name, schemes)
        if problem:
            problems.append(problem)
    return problems
