"""The two kinds of period, named apart because players type the same words for both.

- A **calendar period** is what a leaderboard counts: all time, the ISO week or the
  calendar month a moment falls in (UTC). Totals are kept per period key, so a board
  starts afresh on Monday and on the 1st.
- A **rolling window** is what insights look back over: the last 7 or 30 days before
  now, or all time.
"""

from __future__ import annotations

from datetime import UTC, datetime

ALL, WEEK, MONTH = "all", "week", "month"  # the words, the same for both kinds

CALENDAR_PERIODS = (ALL, WEEK, MONTH)  # in the order a leaderboard offers them
_WINDOW_DAYS = {WEEK: 7, MONTH: 30, ALL: None}
ROLLING_WINDOWS = tuple(_WINDOW_DAYS)  # in the order insights offer them


def calendar_keys(at: float) -> tuple[str, ...]:
    """The keys of every calendar period a moment belongs to: all time, its ISO week,
    its month."""
    moment = datetime.fromtimestamp(at, UTC)
    year, week, _ = moment.isocalendar()
    return (ALL, f"{WEEK}:{year}-W{week:02d}", f"{MONTH}:{moment:%Y-%m}")


def calendar_key(period: str, at: float) -> str:
    """The key of one calendar period (``all``, ``week`` or ``month``) at a moment."""
    return dict(zip(CALENDAR_PERIODS, calendar_keys(at), strict=True))[period]


def window_start(window: str, now: float) -> float | None:
    """When a rolling window (``week``, ``month`` or ``all``) began; None: all time."""
    days = _WINDOW_DAYS[window]
    return None if days is None else now - days * 86400
