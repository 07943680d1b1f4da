"""Spaced repetition: a card per player and question, scheduled by FSRS (the ``fsrs``
package), as pure functions of a card and an answer.

Every answer a player gives is a review of its card: wrong is ``Again``, right is
``Good`` (binary grading, as the FSRS maintainers advise for a yes/no answer). There are
no (re)learning steps: a bot asks at most daily, so even a miss comes back the next day,
not in ten minutes. Intervals are in days, and a card counts as due for the whole of its
due day in the player's timezone (as in Anki), so a reminder at 09:00 offers the cards
that come due that afternoon too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from fsrs import Card, Rating, Scheduler, State

AGAIN, GOOD = int(Rating.Again), int(Rating.Good)
DAY = 86400.0


@dataclass(frozen=True)
class CardState:
    """What the store keeps of a card (FSRS's memory state and when it is due)."""

    stability: float
    difficulty: float
    due: float
    last_review: float
    reviews: int
    lapses: int  # answers wrong after the first
    last_correct: bool


def _moment(at: float) -> datetime:
    return datetime.fromtimestamp(at, UTC)


class Memory:
    """The FSRS scheduler quizbot uses. ``fuzz`` spreads long intervals a little so that
    cards learned together do not all come due on one day; tests turn it off."""

    def __init__(self, fuzz: bool = True) -> None:
        self._scheduler = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=fuzz)

    def _card(self, card: CardState) -> Card:
        # card_id is given: fsrs otherwise makes one from the clock, sleeping 1 ms.
        return Card(
            card_id=1,
            state=State.Review,
            stability=card.stability,
            difficulty=card.difficulty,
            due=_moment(card.due),
            last_review=_moment(card.last_review),
        )

    def grade(self, card: CardState | None, correct: bool, at: float) -> CardState:
        """The card after an answer at ``at`` (None: the player's first answer to it)."""
        before = self._card(card) if card else Card(card_id=1, due=_moment(at))
        rating = Rating.Good if correct else Rating.Again
        after, _ = self._scheduler.review_card(before, rating, _moment(at))
        assert after.stability is not None and after.difficulty is not None
        return CardState(
            stability=after.stability,
            difficulty=after.difficulty,
            due=after.due.timestamp(),
            last_review=at,
            reviews=(card.reviews if card else 0) + 1,
            lapses=(card.lapses if card else 0) + int(card is not None and not correct),
            last_correct=correct,
        )

    def recall(self, card: CardState, now: float) -> float:
        """The estimated chance (0–1) that the player would answer it right now. A card
        whose last answer was wrong counts 0 until it is answered right: FSRS rates it
        near-certain just after the answer was shown (no time has passed to forget it),
        which says nothing about whether the player knows it."""
        if not card.last_correct:
            return 0.0
        return float(self._scheduler.get_card_retrievability(self._card(card), _moment(now)))


@lru_cache(maxsize=1024)
def zone_of(name: str | None) -> ZoneInfo:
    """A player's timezone (their reminder's), UTC when they have none."""
    return ZoneInfo(name or "UTC")


def day_start(now: float, zone: ZoneInfo) -> float:
    """The moment today began in ``zone`` (also on a day that has 23 or 25 hours)."""
    today = datetime.fromtimestamp(now, zone).date()
    return datetime.combine(today, datetime.min.time(), zone).timestamp()


def due_cutoff(now: float, zone: ZoneInfo) -> float:
    """Cards due before this moment are due now: the end of today in ``zone``."""
    today = datetime.fromtimestamp(now, zone).date()
    return datetime.combine(today + timedelta(days=1), datetime.min.time(), zone).timestamp()


def days_until(due: float, now: float, zone: ZoneInfo) -> int:
    """Whole days from today to the card's due day in ``zone`` (0: due today)."""
    today = datetime.fromtimestamp(now, zone).date()
    return max(0, (datetime.fromtimestamp(due, zone).date() - today).days)
