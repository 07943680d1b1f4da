"""Settings declared once, as data: each section (the core here, each platform in its
adapter) is a frozen dataclass whose fields name their environment variable, TOML key,
command-line option, help line, parser and check. One reader fills every section from the
environment over the TOML file named by QUIZBOT_CONFIG, under the command-line options,
with one line per problem, each naming its setting and never a secret's value.

The standard library is enough for about twenty settings, and keeps start-up quick.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from bot.ui.i18n import LOCALES

CONFIG_VARIABLE = "QUIZBOT_CONFIG"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
Section = TypeVar("Section")


@dataclass(frozen=True)
class Setting:
    """Where a field comes from and how it is read. ``parse`` turns the text of the
    variable into the value or raises ValueError(reason); ``check`` sees the whole
    section (some checks depend on another field) and returns a reason or None. A
    reason follows the setting's name: ``QUIZBOT_DB`` + `` must be …``."""

    env: str | None
    toml: str | None
    option: str | None
    help: str
    parse: Callable[[str], Any]
    check: Callable[[Any], str | None] | None
    secret: bool
    fallback: Callable[[Mapping[str, str]], Any] | None  # the default, from the environment

    @property
    def name(self) -> str:
        """What a problem line names: the variable, else the option."""
        return self.env or self.option or ""


def setting(
    *,
    env: str | None = None,
    toml: str | None = None,
    option: str | None = None,
    help: str = "",
    parse: Callable[[str], Any] = str,
    check: Callable[[Any], str | None] | None = None,
    secret: bool = False,
    default: Any = dataclasses.MISSING,
    fallback: Callable[[Mapping[str, str]], Any] | None = None,
) -> Any:
    """A dataclass field carrying its Setting; a secret stays out of the repr."""
    if not (env or option):
        raise TypeError("a setting is read from a variable or an option")
    meta = Setting(env, toml, option, help, parse, check, secret, fallback)
    return dataclasses.field(default=default, repr=not secret, metadata={"setting": meta})


def declared(model: type) -> Iterator[tuple[str, Setting]]:
    """The fields of a section with their settings, in declaration order."""
    for field in dataclasses.fields(model):
        yield field.name, field.metadata["setting"]


class InvalidSettings(Exception):
    """Settings that keep a command from running: one line per problem."""

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


@dataclass(frozen=True)
class Sources:
    """What every section is read from, gathered once."""

    environ: Mapping[str, str]
    values: Mapping[str, str]  # the TOML file's settings under the environment's
    overrides: Mapping[str, object]  # command-line option -> value (None: not given)
    problems: tuple[str, ...]  # the file's own: unreadable, unknown keys


def gather(
    models: Iterable[type],
    environ: Mapping[str, str] = os.environ,
    overrides: Mapping[str, object] | None = None,
) -> Sources:
    """Read the TOML file named by QUIZBOT_CONFIG (its keys are those the models
    declare) and lay the environment over it: the environment wins."""
    problems: list[str] = []
    values: dict[str, str] = {}
    path = environ.get(CONFIG_VARIABLE)
    if path:
        keys = {s.toml: s.env for model in models for _, s in declared(model) if s.toml and s.env}
        values = _file_values(path, keys, problems)
    return Sources(environ, {**values, **environ}, overrides or {}, tuple(problems))


def _file_values(path: str, keys: Mapping[str, str], problems: list[str]) -> dict[str, str]:
    try:
        data: dict[str, Any] = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        problems.append(f"{CONFIG_VARIABLE}: cannot read {path}: {exc}")
        return {}
    values = {}
    for key, value in data.items():
        if key not in keys:
            problems.append(f"{path}: unknown setting '{key}' (known: {', '.join(keys)})")
        elif isinstance(value, list):  # a list of paths, as the variable separates them
            values[keys[key]] = os.pathsep.join(str(v) for v in value)
        else:
            values[keys[key]] = str(value)
    return values


def read(model: type[Section], sources: Sources) -> tuple[Section, list[str]]:
    """The section and its problems, in the order its fields are declared. An option
    given wins over the variable; a variable unset or empty leaves the default; a value
    that cannot be parsed leaves the default too and is reported."""
    values: dict[str, Any] = {}
    names: dict[str, str] = {}  # field -> the name its value came under
    failed: dict[str, str] = {}
    for field, spec in declared(model):
        given = sources.overrides.get(spec.option) if spec.option else None
        raw = sources.values.get(spec.env, "") if spec.env else ""
        if given is not None:
            values[field], names[field] = given, spec.option or spec.name
        elif raw:
            names[field] = spec.name
            try:
                values[field] = spec.parse(raw)
            except ValueError as exc:
                failed[field] = f"{spec.name} {exc}"
        elif spec.fallback:
            values[field] = spec.fallback(sources.environ)
    section = model(**values)
    problems = []
    for field, spec in declared(model):
        if field in failed:
            problems.append(failed[field])
        elif spec.check and (reason := spec.check(section)):
            problems.append(f"{names.get(field, spec.name)} {reason}")
    return section, problems


# Parsers and checks shared by sections.


def one_of(choices: Iterable[str], convert: Callable[[str], str] = str) -> Callable[[str], str]:
    allowed = tuple(choices)
    said = " or ".join(allowed) if len(allowed) == 2 else f"one of {', '.join(allowed)}"

    def parse(raw: str) -> str:
        value = convert(raw)
        if value not in allowed:
            raise ValueError(f"must be {said}, not '{value}'")
        return value

    return parse


def at_least(kind: Callable[[str], float], low: float) -> Callable[[str], Any]:
    def parse(raw: str) -> Any:
        try:
            value = kind(raw)
        except ValueError:
            value = None
        if value is None or value < low:
            raise ValueError(f"must be a number ≥ {low:g}, not '{raw}'")
        return value

    return parse


def paths(raw: str) -> tuple[Path, ...]:
    """Directories separated like PATH (':' on POSIX)."""
    return tuple(Path(p) for p in raw.split(os.pathsep) if p)


# The core's section.


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def database(raw: str) -> Path | str:
    """Where the store is: a PostgreSQL URL as given; else a SQLite file, written as a
    path or as ``sqlite:///path`` (``sqlite:////abs/path`` for an absolute one)."""
    if raw.startswith(POSTGRES_SCHEMES):
        return raw
    return Path(raw.removeprefix("sqlite:///")) if raw.startswith("sqlite:///") else Path(raw)


def is_postgres(location: Path | str) -> bool:
    return str(location).startswith(POSTGRES_SCHEMES)


def default_db_path(environ: Mapping[str, str] = os.environ) -> Path:
    """quizbot.db in the user's data directory (XDG)."""
    data_home = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home) / "quizbot" / "quizbot.db"


def _missing_banks(core: CoreSettings) -> str | None:
    missing = [str(p) for p in core.banks if not p.is_dir()]
    return f"names no such directory: {', '.join(missing)}" if missing else None


def _port_number(core: CoreSettings) -> str | None:
    port = core.metrics_port
    if port is None or 1 <= port <= 65535:
        return None
    return f"must be a port number, not '{port}'"


def _web_port_number(core: CoreSettings) -> str | None:
    port = core.web_port
    if port is None or 1 <= port <= 65535:
        return None
    return f"must be a port number, not '{port}'"


def switch(raw: str) -> bool:
    value = raw.strip().lower()
    if value not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
        raise ValueError(f"must be on or off (1, true, yes / 0, false, no), not '{raw}'")
    return value in ("1", "true", "yes", "on")


def _dashboard_secret(core: CoreSettings) -> str | None:
    secret = core.dashboard_secret
    if secret is None or len(secret) >= 16:
        return None
    return "must be at least 16 characters (it signs the dashboard's links)"


@dataclass(frozen=True)
class CoreSettings:
    db: Path | str = setting(
        env="QUIZBOT_DB",
        toml="db",
        option="--db",
        help="SQLite file, or postgresql://user@host:port/db (default: quizbot/quizbot.db"
        " in the user data dir)",
        parse=database,
        fallback=default_db_path,
    )
    banks: tuple[Path, ...] = setting(  # extra directories, besides the shipped banks
        env="QUIZBOT_BANKS",
        toml="banks",
        help="extra question bank directories, separated by ':'",
        parse=paths,
        check=_missing_banks,
        default=(),
    )
    config_file: Path | None = setting(
        env=CONFIG_VARIABLE,
        help="optional TOML file with the settings below (environment wins)",
        parse=Path,
        default=None,
    )
    log_level: str = setting(
        env="QUIZBOT_LOG_LEVEL",
        toml="log_level",
        help="DEBUG, INFO, WARNING or ERROR (default INFO)",
        parse=one_of(LOG_LEVELS, str.upper),
        default="INFO",
    )
    log_format: str = setting(
        env="QUIZBOT_LOG_FORMAT",
        toml="log_format",
        help="text or json (one JSON object per line, for log shippers)",
        parse=one_of(("text", "json"), str.lower),
        default="text",
    )
    metrics_port: int | None = setting(
        env="QUIZBOT_METRICS_PORT",
        toml="metrics_port",
        option="--metrics-port",
        help="serve /healthz and /metrics on this port (default: off)",
        parse=at_least(int, 1),
        check=_port_number,
        default=None,
    )
    web_port: int | None = setting(
        env="QUIZBOT_WEB_PORT",
        toml="web_port",
        option="--web-port",
        help="serve the dashboard on this port (default: beside /metrics on the metrics port)",
        parse=at_least(int, 1),
        check=_web_port_number,
        default=None,
    )
    dashboard_secret: str | None = setting(
        env="QUIZBOT_DASHBOARD_SECRET",
        toml="dashboard_secret",
        help="signs the dashboard links /quiz dashboard gives admins (≥ 16 characters;"
        " no dashboard without it)",
        check=_dashboard_secret,
        secret=True,
        default=None,
    )
    public_url: str | None = setting(
        env="QUIZBOT_PUBLIC_URL",
        toml="public_url",
        help="where people reach the dashboard, e.g. https://quiz.example.com"
        " (default http://localhost:<port>)",
        default=None,
    )
    insights_for_everyone: bool = setting(
        env="QUIZBOT_INSIGHTS_FOR_EVERYONE",
        toml="insights_for_everyone",
        help="let every member see /quiz insights, not only admins (default off)",
        parse=switch,
        default=False,
    )
    default_lang: str = setting(
        env="QUIZBOT_DEFAULT_LANG",
        toml="default_lang",
        help="language when a player has none: en, hi or bn (default en)",
        parse=one_of(LOCALES),
        default="en",
    )
    quiz_length: int | None = setting(
        env="QUIZBOT_QUIZ_LENGTH",
        toml="quiz_length",
        help="questions per personal quiz (default: the whole bank)",
        parse=at_least(int, 1),
        default=None,
    )
    forget_after_days: float = setting(
        env="QUIZBOT_FORGET_AFTER_DAYS",
        toml="forget_after_days",
        help="days a workspace's quiz data is kept after it removes the app (default 30)",
        parse=at_least(float, 0),
        default=30.0,
    )
    reveal_hours: float = setting(
        env="QUIZBOT_REVEAL_HOURS",
        toml="reveal_hours",
        help="default delay of a daily question's reveal (default 8)",
        parse=at_least(float, 0.01),
        default=8.0,
    )
