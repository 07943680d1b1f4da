"""Logging: one line per event with its level, platform, scope and request id, as text
or as JSON for log shippers (QUIZBOT_LOG_FORMAT=json, QUIZBOT_LOG_LEVEL)."""

from __future__ import annotations

import contextvars
import json
import logging
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

_CONTEXT: contextvars.ContextVar[tuple[tuple[str, str], ...]] = contextvars.ContextVar(
    "quizbot_log", default=()
)
FIELDS = ("platform", "scope", "request_id")


@contextmanager
def bind(**fields: str) -> Iterator[None]:
    """Attach fields (platform, scope, request_id) to every record logged inside, in
    this task only. A request id is made when none is given."""
    merged = {**dict(_CONTEXT.get()), **{k: v for k, v in fields.items() if v}}
    merged.setdefault("request_id", secrets.token_hex(4))
    token = _CONTEXT.set(tuple(merged.items()))
    try:
        yield
    finally:
        _CONTEXT.reset(token)


class _ContextFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        context = dict(_CONTEXT.get())
        for name in FIELDS:
            setattr(record, name, context.get(name, "-"))
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **{name: getattr(record, name, "-") for name in FIELDS},
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


TEXT_FORMAT = (
    "%(asctime)s %(levelname)s %(name)s platform=%(platform)s scope=%(scope)s"
    " request=%(request_id)s: %(message)s"
)


# Tokens as the platforms issue them. The platform libraries log request headers and
# bodies at DEBUG (a new installation's bot token among them): every line is redacted,
# whatever logged it and at any level.
SECRETS = re.compile(
    r"\b(xox[abeoprs]|xapp)-[A-Za-z0-9-]+"  # Slack: bot, user, refresh and app tokens
    r"|\b[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,}"  # Discord bot tokens
)


def redacted(text: str) -> str:
    """``text`` with every token replaced by its kind (``xoxb-[redacted]``)."""
    return SECRETS.sub(lambda found: f"{found[1]}-[redacted]" if found[1] else "[redacted]", text)


class _QuizbotHandler(logging.StreamHandler):  # type: ignore[type-arg,unused-ignore]
    """Ours, so configuring again replaces it and leaves other handlers alone."""

    def format(self, record: logging.LogRecord) -> str:
        return redacted(super().format(record))


def configure(level: str = "INFO", fmt: str = "text") -> None:
    handler = _QuizbotHandler()
    handler.addFilter(_ContextFilter())
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _QuizbotHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
