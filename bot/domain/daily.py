"""The daily question's calendar, as pure functions: when a channel's question is due,
when it is revealed, which question comes next, and how streaks count.

Days are counted in the channel's own timezone, so a streak survives midnight UTC and
daylight-saving changes the way the team sees them.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.domain.identities import ScopeRef

DEFAULT_REVEAL_AFTER = 8 * 3600
# The reveal always comes at least this long before the next day's post.
REVEAL_MARGIN = 60
_TIME = re.compile(r"^([01]?\d|2[0-3])[:.]([0-5]\d)$")


@dataclass(frozen=True)
class DailySchedule:
    scope: ScopeRef  # the channel it posts in
    topics: tuple[str, ...]  # bank ids
    at: time  # local time of day
    timezone: str
    locale: str
    reveal_after: int = DEFAULT_REVEAL_AFTER  # seconds after the post
    prefer_missed: bool = False  # draw the questions the team missed most first

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


def parse_time(text: str) -> time | None:
    match = _TIME.match(text.strip())
    return time(int(match[1]), int(match[2])) if match else None


def parse_timezone(name: str) -> str | None:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return name


def local_day(at: float, zone: ZoneInfo) -> date:
    return datetime.fromtimestamp(at, zone).date()


def local_moment(day: date, at: time, zone: ZoneInfo) -> float:
    """The moment of a local time of day. A time skipped by a DST change falls forward;
    one that occurs twice is its first occurrence."""
    return datetime.combine(day, at, zone).timestamp()


def post_time(schedule: DailySchedule, day: date) -> float:
    """The moment of a day's post."""
    return local_moment(day, schedule.at, schedule.zone)


def reveal_time(schedule: DailySchedule, day: date) -> float:
    """Reveal after the configured delay, but always before the next day's post."""
    posted = post_time(schedule, day)
    next_post = post_time(schedule, day + timedelta(days=1))
    return min(posted + schedule.reveal_after, next_post - REVEAL_MARGIN)


def due_day(schedule: DailySchedule, now: float) -> date | None:
    """The day whose post is due now: its time has come and its reveal has not, so a
    post missed while the bot was down is still made inside the day's window."""
    today = local_day(now, schedule.zone)
    for day in (today, today - timedelta(days=1)):
        if post_time(schedule, day) <= now < reveal_time(schedule, day):
            return day
    return None


def next_post_at(schedule: DailySchedule, now: float) -> float:
    today = local_day(now, schedule.zone)
    for offset in range(3):
        moment = post_time(schedule, today + timedelta(days=offset))
        if moment > now:
            return moment
    raise AssertionError("a day always has a next post")


def draw(
    candidates: Sequence[tuple[str, str]],
    used: set[tuple[str, str]],
    seed: int,
    misses: Mapping[tuple[str, str], int] | None = None,
) -> tuple[tuple[str, str], bool]:
    """The next (bank id, question id) to post: a random one not posted yet in this
    channel; when every one has been posted, a new cycle starts (the flag says so).
    With ``misses`` (wrong answers per question), one of those missed most is drawn."""
    fresh = [c for c in candidates if c not in used]
    cycle = not fresh
    pool = list(candidates) if cycle else fresh
    if misses:
        most = max(misses.get(c, 0) for c in pool)
        pool = [c for c in pool if misses.get(c, 0) == most]
    return random.Random(seed).choice(pool), cycle


def next_streak(streak: int, last_day: date | None, day: date) -> int:
    """Consecutive days answered: yesterday continues the streak, anything older resets it."""
    if last_day == day:
        return streak
    if last_day is not None and last_day == day - timedelta(days=1):
        return streak + 1
    return 1


@dataclass(frozen=True)
class DailyPost:
    id: str
    scope: ScopeRef
    day: str  # ISO date in the channel's timezone
    cycle: int  # questions repeat only in a later cycle
    bank_id: str
    question_id: str
    seed: int  # shuffles the choices
    locale: str
    posted_at: float
    reveal_at: float
    message_ref: str | None = None
    revealed_at: float | None = None
