"""A live channel race as a pure state machine.

Phases: ``open`` (question ``current`` takes answers until ``phase_until``), ``between``
(that question was revealed; the next opens at ``phase_until``) and ``done``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.domain.identities import ScopeRef

DEFAULT_QUESTIONS, MAX_QUESTIONS = 5, 20
DEFAULT_SECONDS, MIN_SECONDS, MAX_SECONDS = 20, 5, 120
PAUSE_BETWEEN = 5.0  # seconds between a reveal and the next question


@dataclass(frozen=True)
class Race:
    id: str
    scope: ScopeRef
    bank_id: str
    question_ids: tuple[str, ...]
    seconds: int
    starter_id: str
    locale: str
    seed: int
    current: int = 0  # index of the question open or last revealed
    phase: str = "open"
    phase_until: float = 0.0
    opened_at: float = 0.0

    @property
    def total(self) -> int:
        return len(self.question_ids)

    @property
    def last(self) -> bool:
        return self.current + 1 >= self.total

    def accepts(self, number: int, now: float) -> bool:
        """Whether an answer to question ``number`` (0-based) is in time."""
        return self.phase == "open" and number == self.current and now < self.phase_until

    def closed(self, now: float) -> Race:
        """The current question's time is up: reveal, then pause or finish."""
        if self.last:
            return replace(self, phase="done", phase_until=now)
        return replace(self, phase="between", phase_until=now + PAUSE_BETWEEN)

    def next_opened(self, now: float) -> Race:
        return replace(
            self,
            current=self.current + 1,
            phase="open",
            opened_at=now,
            phase_until=now + self.seconds,
        )

    def stopped(self, now: float) -> Race:
        return replace(self, phase="done", phase_until=now)


def clamp_settings(questions: int | None, seconds: int | None, available: int) -> tuple[int, int]:
    count = min(max(questions or DEFAULT_QUESTIONS, 1), MAX_QUESTIONS, available)
    return count, min(max(seconds or DEFAULT_SECONDS, MIN_SECONDS), MAX_SECONDS)
