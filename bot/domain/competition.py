"""Competitions: a named window of time (and optional topics) whose points are ranked
on their own leaderboard."""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain.identities import ScopeRef


@dataclass(frozen=True)
class Competition:
    id: int
    scope: ScopeRef  # the workspace, and the channel it was started in
    name: str
    topics: tuple[str, ...]  # bank ids; empty: every topic
    starts_at: float
    ends_at: float
    created_by: str
    ended_at: float | None = None

    @property
    def period(self) -> str:
        """The leaderboard period its points are kept under."""
        return f"competition:{self.id}"
