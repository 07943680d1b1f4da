"""The scoring rules with literal values, as the README states them."""

from __future__ import annotations

import pytest

from bot.domain.answers import AnswerRecord, Scored, score
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.quiz_runs import REVIEW, Run
from bot.domain.scoring import answer_points, daily_points, max_points, race_points


@pytest.mark.parametrize(
    ("correct", "difficulty", "points"),
    [(True, "easy", 10), (True, "medium", 15), (True, "hard", 20), (False, "hard", 0)],
)
def test_a_personal_answer(correct: bool, difficulty: str, points: int) -> None:
    assert answer_points(correct, difficulty) == points


def test_the_most_a_quiz_can_score() -> None:
    assert max_points(["easy", "medium", "hard", "hard"]) == 65
    assert max_points([]) == 0


@pytest.mark.parametrize(
    ("streak", "points"),
    [(1, 15), (2, 17), (3, 19), (5, 23), (6, 25), (7, 25), (30, 25)],  # +2 a day, at most +10
)
def test_the_daily_streak_bonus_and_its_cap(streak: int, points: int) -> None:
    assert daily_points(True, "medium", streak) == points


def test_a_wrong_daily_answer_scores_nothing_whatever_the_streak() -> None:
    assert daily_points(False, "hard", 9) == 0


@pytest.mark.parametrize(
    ("elapsed", "streak", "points"),
    [
        (0.0, 1, 20),  # instant: all of a hard question's 20
        (10.0, 1, 15),  # half the time: three quarters
        (20.0, 1, 10),  # at the buzzer: half
        (30.0, 1, 10),  # late clicks count as the buzzer
        (0.0, 2, 23),  # +3 for one right answer before it
        (0.0, 6, 35),  # +15 after five
        (0.0, 9, 35),  # and no more: capped at +15
    ],
)
def test_race_points_by_speed_and_answer_streak(elapsed: float, streak: int, points: int) -> None:
    assert race_points(True, "hard", elapsed, 20, streak) == points


def test_a_wrong_race_answer_scores_nothing() -> None:
    assert race_points(False, "easy", 0.0, 20, 5) == 0


def _answer(player: str, bank: str, question: str, points: int) -> AnswerRecord:
    player_ref, workspace = PlayerRef("slack", player), ScopeRef("slack", "T1")
    run = Run(f"{player}-{bank}", player_ref, workspace, bank, "en", 1, (question,))
    return AnswerRecord(run, question, 0, points > 0, points, 0.0, "tiny")


def test_only_a_first_attempt_scores_and_a_review_never_does() -> None:
    tried_before = ("slack", "T1", "U2", "tiny", "q1")
    answers = [
        _answer("U1", "tiny", "q1", 10),  # a first attempt
        _answer("U1", "tiny", "q1", 10),  # the same question again in the same batch
        _answer("U2", "tiny", "q1", 15),  # tried before this batch
        _answer("U3", REVIEW, "q1", 20),  # a review: never scores, even the first time
        _answer("U3", "tiny", "q1", 20),  # answered in that review just before
        _answer("U4", "tiny", "q2", 0),  # a wrong first attempt: no points, not practice
    ]
    assert score(answers, {tried_before}) == [
        Scored(("slack", "T1", "U1", "tiny", "q1"), False, 10, "quiz"),
        Scored(("slack", "T1", "U1", "tiny", "q1"), True, 0, "practice"),
        Scored(tried_before, True, 0, "practice"),
        Scored(("slack", "T1", "U3", "tiny", "q1"), True, 0, "review"),
        Scored(("slack", "T1", "U3", "tiny", "q1"), True, 0, "practice"),
        Scored(("slack", "T1", "U4", "tiny", "q2"), False, 0, "quiz"),
    ]
