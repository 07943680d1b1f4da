"""A personal quiz run as a pure state machine: no I/O, no event loop."""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from functools import lru_cache

from bot.content.banks import Bank, Question
from bot.domain.actions import AnswerAction, EstimateAction
from bot.domain.identities import PlayerRef, ScopeRef

LETTERS = "ABCDE"
# The bank id of a review run, whose questions come from many banks: each of its question
# ids is "<bank id>/<question id>" (a bank id never holds "/" or "@").
REVIEW = "@review"
REVIEW_SIZE = 10  # at most this many cards in one review


@lru_cache(maxsize=65536)
def shuffled_order(seed: int, question_id: str, count: int) -> tuple[int, ...]:
    """A reproducible shuffle of ``count`` choices for one seed and question."""
    order = list(range(count))
    random.Random(f"{seed}:{question_id}").shuffle(order)
    return tuple(order)


def new_run_id() -> str:
    """Unguessable, lowercase, short enough to leave room in a 100-character button id."""
    return secrets.token_hex(8)


@dataclass(frozen=True)
class Run:
    id: str
    player: PlayerRef
    scope: ScopeRef
    bank_id: str
    locale: str
    seed: int
    question_ids: tuple[str, ...]
    position: int = 0  # index of the question waiting for an answer
    correct: int = 0
    points: int = 0
    created_at: float = 0.0

    @property
    def total(self) -> int:
        return len(self.question_ids)

    @property
    def finished(self) -> bool:
        return self.position >= self.total

    def located(self, position: int) -> tuple[str, str]:
        """The bank id and question id at ``position`` (the last one once finished)."""
        ref = self.question_ids[min(position, self.total - 1)]
        if self.bank_id != REVIEW:
            return self.bank_id, ref
        bank_id, _, question_id = ref.partition("/")
        return bank_id, question_id

    def choice_order(self, question: Question) -> tuple[int, ...]:
        """The run's shuffled order of a question's choices (bank indices), reproducible."""
        return shuffled_order(self.seed, question.id, len(question.choices))

    def after_answer(self, correct: bool, points: int) -> Run:
        # Positional, not dataclasses.replace: this runs twice per answer on the hot path.
        return Run(
            self.id,
            self.player,
            self.scope,
            self.bank_id,
            self.locale,
            self.seed,
            self.question_ids,
            self.position + 1,
            self.correct + int(correct),
            self.points + points,
            self.created_at,
        )


def plan_run(
    bank: Bank,
    player: PlayerRef,
    scope: ScopeRef,
    locale: str,
    *,
    seed: int,
    run_id: str,
    now: float,
    questions: int | None = None,
) -> Run:
    """A new run over the bank: all questions in bank order, or a random subset of them
    (kept in bank order) when a length is asked for."""
    ids = [q.id for q in bank.questions]
    if questions is not None and 0 < questions < len(ids):
        chosen = set(random.Random(seed).sample(ids, questions))
        ids = [i for i in ids if i in chosen]
    return Run(run_id, player, scope, bank.id, locale, seed, tuple(ids), created_at=now)


def plan_review(
    cards: list[tuple[str, str]],
    player: PlayerRef,
    scope: ScopeRef,
    locale: str,
    *,
    seed: int,
    run_id: str,
    now: float,
) -> Run:
    """A review run over (bank id, question id) pairs, in the order given."""
    ids = tuple(f"{bank}/{question}" for bank, question in cards)
    return Run(run_id, player, scope, REVIEW, locale, seed, ids, created_at=now)


def check_answer(
    run: Run, player: PlayerRef, action: AnswerAction | EstimateAction, bank: Bank
) -> str | None:
    """Why a click cannot answer this run (a Notice kind), or None when it can; ``bank``
    holds the question the run waits on."""
    if run.player.platform != player.platform or run.player.id != player.id:
        return "not_yours"
    if run.finished:
        return "finished"
    if action.position < run.position:
        return "already_answered"
    question = bank.question(run.located(run.position)[1])
    if action.position != run.position or question is None:
        return "invalid"
    if isinstance(action, EstimateAction):  # a form for a value, not a choice
        return None if question.estimate is not None else "invalid"
    if not 0 <= action.choice < len(question.choices):
        return "invalid"
    return None
