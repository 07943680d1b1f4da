"""A quiz answer and what it counts for (``scoring.py`` says what it is worth): only a
player's first attempt at a question, per workspace, scores; a replay is practice, and an
answer in a review run never scores. The store looks up which questions were tried
before and writes what ``score`` decides (``bot.persistence.ledger``)."""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass
from typing import NamedTuple

from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.quiz_runs import REVIEW, Run

# A player's attempt at a question: (platform, workspace, player, bank, question).
Attempt = tuple[str, str, str, str, str]


@dataclass(frozen=True)
class AnswerRecord:
    run: Run  # the run as it was when the answer arrived
    question_id: str
    choice: int
    correct: bool
    points: int  # what the answer earns if it is the player's first attempt
    at: float
    bank_id: str = ""  # the question's bank, when not the run's (a review run mixes them)
    estimate: float | None = None  # an estimate question's answer (``choice`` is then -1)

    @property
    def bank(self) -> str:
        return self.bank_id or self.run.bank_id

    @property
    def review(self) -> bool:
        return self.run.bank_id == REVIEW

    @property
    def attempt(self) -> Attempt:
        run = self.run
        return (
            run.player.platform,
            run.scope.workspace_id,
            run.player.id,
            self.bank,
            self.question_id,
        )


class Scored(NamedTuple):
    """What an answer counts for. A tuple, like ``Credit``: one per answer in a batch."""

    attempt: Attempt
    practice: bool  # not a first attempt, or in a review run: recorded, scores nothing
    points: int
    source: str  # where the answer log says it came from: quiz, practice or review


def score(records: Sequence[AnswerRecord], tried: Set[Attempt]) -> list[Scored]:
    """What each answer counts for, in order. ``tried``: the attempts on record before
    these answers; an answer earlier in ``records`` to the same question (a review's
    too) counts as tried, so two answers arriving together cannot both score."""
    earlier: set[Attempt] = set()
    scored = []
    for record in records:
        attempt = record.attempt
        if record.review:
            scored.append(Scored(attempt, True, 0, "review"))
        elif attempt in tried or attempt in earlier:
            scored.append(Scored(attempt, True, 0, "practice"))
        else:
            scored.append(Scored(attempt, False, record.points, "quiz"))
        earlier.add(attempt)
    return scored


class Credit(NamedTuple):
    """Points an answer adds to the totals. A tuple, since the ledger unpacks many at a
    time in the writer's hot loop."""

    player: PlayerRef
    scope: ScopeRef
    bank_id: str
    points: int
    correct: bool
    at: float


@dataclass(frozen=True, kw_only=True)
class Recorded:
    points: int  # points actually awarded
    practice: bool  # not the first attempt at this question: no points
    duplicate: bool  # this position was already answered; nothing changed
    choice: int  # the choice on record (the first one, for a duplicate)
    correct: bool
    due: float | None = None  # when the card comes back (None for a duplicate)
    gone: bool = False  # the run is no longer on record (its player's data was deleted)
