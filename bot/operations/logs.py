"""Logging: one line per event with its level, platform, scope and request id, as text
or as JSON for log shippers (QUIZBOT_LOG_FORMAT=json, QUIZBOT_LOG_LEVEL)."""

from __future__ import annotations

import contextvars
import json
import logging
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


class _QuizbotHandler(logging.StreamHandler):  # type: ignore[type-arg,unused-ignore]
    """Ours, so configuring again replaces it and leaves other handlers alone."""


def configure(level: str = "INFO", fmt: str = "text") -> None:
    handler = _QuizbotHandler()
    handler.addFilter(_ContextFilter())
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _QuizbotHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
