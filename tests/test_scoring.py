"""The scoring rules with literal values, as the README states them."""

from __future__ import annotations

import pytest

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
