"""Every setting in one place: the environment, optionally a TOML file named by
QUIZBOT_CONFIG, validated at start with one clear line per problem.

Platform tokens are listed here too (so the operator's example env and the deploy
files can be checked against one list), but each platform adapter validates its own.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.ui.i18n import LOCALES

# name -> one-line explanation (deploy/.env.example is checked against this list)
SETTINGS: Mapping[str, str] = {
    "QUIZBOT_DB": "SQLite database file (default: quizbot/quizbot.db in the user data dir)",
    "QUIZBOT_BANKS": "extra question bank directories, separated by ':'",
    "QUIZBOT_CONFIG": "optional TOML file with the settings below (environment wins)",
    "QUIZBOT_LOG_LEVEL": "DEBUG, INFO, WARNING or ERROR (default INFO)",
    "QUIZBOT_LOG_FORMAT": "text or json (one JSON object per line, for log shippers)",
    "QUIZBOT_METRICS_PORT": "serve /healthz and /metrics on this port (default: off)",
    "QUIZBOT_DEFAULT_LANG": "language when a player has none: en, hi or bn (default en)",
    "QUIZBOT_QUIZ_LENGTH": "questions per personal quiz (default: the whole bank)",
    "QUIZBOT_REVEAL_HOURS": "default delay of a daily question's reveal (default 8)",
    "QUIZBOT_ADMIN_ROLE": "Discord role whose members may manage dailies and competitions",
    "QUIZBOT_SLACK_ADMINS": "Slack user ids (comma-separated) allowed to manage them",
    "SLACK_BOT_TOKEN": "Slack bot token (xoxb-…): OAuth & Permissions",
    "SLACK_APP_TOKEN": "Slack app-level token (xapp-…) for Socket Mode: Basic Information",
    "SLACK_SIGNING_SECRET": "Slack signing secret, for HTTP mode: Basic Information",
    "SLACK_API_URL": "Slack Web API base URL (default Slack's own; for proxies)",
    "DISCORD_TOKEN": "Discord bot token: Developer Portal → your app → Bot",
    "DISCORD_GUILD_ID": "sync commands to this one server, instantly (optional)",
    "DISCORD_API_BASE_URL": "Discord REST base URL (default Discord's own; for proxies)",
    "DISCORD_GATEWAY_URL": "Discord gateway URL (default Discord's own)",
}

# TOML key -> environment variable
_FILE_KEYS = {
    "db": "QUIZBOT_DB",
    "banks": "QUIZBOT_BANKS",
    "log_level": "QUIZBOT_LOG_LEVEL",
    "log_format": "QUIZBOT_LOG_FORMAT",
    "metrics_port": "QUIZBOT_METRICS_PORT",
    "default_lang": "QUIZBOT_DEFAULT_LANG",
    "quiz_length": "QUIZBOT_QUIZ_LENGTH",
    "reveal_hours": "QUIZBOT_REVEAL_HOURS",
}
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


@dataclass(frozen=True)
class Config:
    db: Path
    banks: tuple[Path, ...]  # extra directories, besides the shipped banks
    log_level: str = "INFO"
    log_format: str = "text"
    metrics_port: int | None = None
    default_lang: str = "en"
    quiz_length: int | None = None
    reveal_hours: float = 8.0


def default_db_path(environ: Mapping[str, str] = os.environ) -> Path:
    """QUIZBOT_DB, else quizbot.db in the user's data directory (XDG)."""
    if environ.get("QUIZBOT_DB"):
        return Path(environ["QUIZBOT_DB"])
    data_home = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "quizbot" / "quizbot.db"


def extra_bank_dirs(environ: Mapping[str, str]) -> tuple[Path, ...]:
    return tuple(Path(p) for p in environ.get("QUIZBOT_BANKS", "").split(os.pathsep) if p)


def _file_settings(path: str, problems: list[str]) -> dict[str, str]:
    try:
        data: dict[str, Any] = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        problems.append(f"QUIZBOT_CONFIG: cannot read {path}: {exc}")
        return {}
    values = {}
    for key, value in data.items():
        if key not in _FILE_KEYS:
            problems.append(f"{path}: unknown setting '{key}' (known: {', '.join(_FILE_KEYS)})")
        elif isinstance(value, list):
            values[_FILE_KEYS[key]] = os.pathsep.join(str(v) for v in value)
        else:
            values[_FILE_KEYS[key]] = str(value)
    return values


def _number(raw: str, name: str, kind: type, low: float, problems: list[str]) -> Any:
    try:
        value = kind(raw)
    except ValueError:
        value = None
    if value is None or value < low:
        problems.append(f"{name} must be a number ≥ {low:g}, not '{raw}'")
        return None
    return value


def load_config(environ: Mapping[str, str] = os.environ) -> tuple[Config, list[str]]:
    """The configuration and the problems found (empty when it is valid)."""
    problems: list[str] = []
    merged = dict(environ)
    if environ.get("QUIZBOT_CONFIG"):
        merged = {**_file_settings(environ["QUIZBOT_CONFIG"], problems), **environ}
    level = merged.get("QUIZBOT_LOG_LEVEL", "INFO").upper()
    if level not in LOG_LEVELS:
        problems.append(f"QUIZBOT_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not '{level}'")
        level = "INFO"
    fmt = merged.get("QUIZBOT_LOG_FORMAT", "text").lower()
    if fmt not in ("text", "json"):
        problems.append(f"QUIZBOT_LOG_FORMAT must be text or json, not '{fmt}'")
        fmt = "text"
    lang = merged.get("QUIZBOT_DEFAULT_LANG", "en")
    if lang not in LOCALES:
        problems.append(f"QUIZBOT_DEFAULT_LANG must be one of {', '.join(LOCALES)}, not '{lang}'")
        lang = "en"
    port = merged.get("QUIZBOT_METRICS_PORT")
    metrics_port = _number(port, "QUIZBOT_METRICS_PORT", int, 1, problems) if port else None
    if metrics_port is not None and metrics_port > 65535:
        problems.append(f"QUIZBOT_METRICS_PORT must be a port number, not '{port}'")
        metrics_port = None
    length = merged.get("QUIZBOT_QUIZ_LENGTH")
    quiz_length = _number(length, "QUIZBOT_QUIZ_LENGTH", int, 1, problems) if length else None
    reveal = merged.get("QUIZBOT_REVEAL_HOURS")
    reveal_hours = _number(reveal, "QUIZBOT_REVEAL_HOURS", float, 0.01, problems) if reveal else 8.0
    banks = extra_bank_dirs(merged)
    missing = [str(p) for p in banks if not p.is_dir()]
    if missing:
        problems.append(f"QUIZBOT_BANKS names no such directory: {', '.join(missing)}")
    config = Config(
        db=default_db_path(merged),
        banks=banks,
        log_level=level,
        log_format=fmt,
        metrics_port=metrics_port,
        default_lang=lang,
        quiz_length=quiz_length,
        reveal_hours=reveal_hours or 8.0,
    )
    return config, problems
