"""A review reminder as pure data and functions: when it is next due, across DST."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import time, timedelta
from zoneinfo import ZoneInfo

from bot.domain.daily import local_day, local_moment
from bot.domain.identities import ScopeRef


@dataclass(frozen=True)
class Reminder:
    scope: ScopeRef  # the player's workspace (no channel: it is a private message)
    player_id: str
    at: time  # local time of day
    timezone: str
    locale: str  # the language it was set in (the player's own setting wins)
    next_at: float  # the next moment it is due

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


def next_reminder_at(at: time, zone: ZoneInfo, after: float) -> float:
    """The first moment strictly after ``after`` when the local clock shows ``at``."""
    today = local_day(after, zone)
    for offset in range(3):
        moment = local_moment(today + timedelta(days=offset), at, zone)
        if moment > after:
            return moment
    raise AssertionError("a day always comes")
