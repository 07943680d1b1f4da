"""Time as an injectable dependency, so tests can run days of play in milliseconds."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()


def period_keys(at: float) -> tuple[str, ...]:
    """The leaderboard periods a moment belongs to: all time, its ISO week, its month (UTC)."""
    moment = datetime.fromtimestamp(at, UTC)
    year, week, _ = moment.isocalendar()
    return ("all", f"week:{year}-W{week:02d}", f"month:{moment:%Y-%m}")


def period_key(kind: str, at: float) -> str:
    """The key of one period kind (``all``, ``week`` or ``month``) at a moment."""
    keys = {key.split(":", 1)[0]: key for key in period_keys(at)}
    return keys[kind]
