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


def _shards(discord: DiscordSettings) -> str | None:
    """``--shards A-B`` needs ``--shard-count N`` and must lie within 0..N-1."""
    count, shards = discord.shard_count, discord.shards
    if count is not None and count < 1:
        return f"--shard-count must be at least 1, not {count}"
    if shards is None:
        return None
    if count is None:
        return "needs --shard-count N: the shard space the range is part of"
    first, last = shards
    if not 0 <= first <= last < count:
        return f"{first}-{last} must lie within 0-{count - 1} (--shard-count {count})"
    return None


def shard_range(text: str) -> tuple[int, int]:
    """``A-B`` (or one shard, ``A``) from the command line."""
    first, _, last = text.partition("-")
    try:
        return int(first), int(last or first)
    except ValueError:
        raise ValueError(f"'{text}' is not a shard range such as 0-3") from None


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

    shards: tuple[int, int] | None = setting(  # the first and last shard this process runs
        option="--shards", check=_shards, default=None
    )
    shard_count: int | None = setting(option="--shard-count", default=None)

    @property
    def configured(self) -> bool:
        """Whether the operator meant to run on Discord: a token is set."""
        return bool(self.token)

    @property
    def shard_ids(self) -> list[int] | None:
        """The shards this process runs, when the shard space is split (else discord.py
        runs one connection for everything)."""
        if self.shard_count is None:
            return None
        first, last = self.shards or (0, self.shard_count - 1)
        return list(range(first, last + 1))
