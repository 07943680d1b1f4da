"""Discord's settings section, checked with one clear line per problem."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

from bot.operations.settings import setting

from ..errors import SetupError

PORTAL = "https://discord.com/developers/applications"
API_PATH = "/api/v10"
ROLE_NAME = 100  # Discord's longest role name


class SettingsError(SetupError):
    """Discord refused a setting (a rejected token, an endpoint that does not answer):
    the message is one line for the user."""


def _token(discord: DiscordSettings) -> str | None:
    if not discord.token:
        return (
            f"is not set: create a bot at {PORTAL} → your app → Bot → Reset Token,"
            " then export DISCORD_TOKEN=<token>"
        )
    if discord.token.lower().startswith("bot ") or any(c.isspace() for c in discord.token):
        return "must be the bare bot token, without 'Bot ' or spaces"
    return None


def _guild_id(raw: str) -> int | None:
    guild = raw.strip()
    if guild and not guild.isdigit():
        raise ValueError(
            "must be a server id (digits): turn on Developer Mode in Discord's settings,"
            " then right-click the server → Copy Server ID"
        )
    return int(guild) if guild else None


def _role_name(raw: str) -> str | None:
    role = raw.strip()
    if len(role) > ROLE_NAME:
        raise ValueError(
            f"must be a role's name as Discord shows it (at most {ROLE_NAME} characters)"
        )
    return role or None


def _url(*schemes: str) -> Callable[[str], str | None]:
    def parse(raw: str) -> str | None:
        url = raw.strip()
        parts = urlsplit(url)
        if url and (parts.scheme not in schemes or not parts.netloc):
            raise ValueError(f"must be a {' or '.join(s + '://' for s in schemes)} URL")
        return url or None

    return parse


def _api_base(raw: str) -> str | None:
    """The REST base with its API version: a bare host gets Discord's ``/api/v10``."""
    url = _url("https", "http")(raw)
    if url is None:
        return None
    url = url.rstrip("/")
    return url if urlsplit(url).path else url + API_PATH


# Fields in the order their problems are listed.
@dataclass(frozen=True)
class DiscordSettings:
    token: str = setting(
        env="DISCORD_TOKEN",
        help="Discord bot token: Developer Portal → your app → Bot",
        parse=str.strip,
        check=_token,
        secret=True,
        default="",
    )
    guild_id: int | None = setting(  # sync commands to this server only (instant)
        env="DISCORD_GUILD_ID",
        help="sync commands to this one server, instantly (optional)",
        parse=_guild_id,
        default=None,
    )
    admin_role: str | None = setting(  # members with a role of this name are quiz admins too
        env="QUIZBOT_ADMIN_ROLE",
        help="Discord role whose members may manage dailies and competitions",
        parse=_role_name,
        default=None,
    )
    api_base_url: str | None = setting(  # REST base, e.g. a rate-limit proxy or a test fake
        env="DISCORD_API_BASE_URL",
        help="Discord REST base URL (default Discord's own; for proxies)",
        parse=_api_base,
        default=None,
    )
    gateway_url: str | None = setting(
        env="DISCORD_GATEWAY_URL",
        help="Discord gateway URL (default Discord's own)",
        parse=_url("wss", "ws"),
        default=None,
    )

    @property
    def configured(self) -> bool:
        """Whether the operator meant to run on Discord: a token is set."""
        return bool(self.token)
