"""Scoring rules, in one pure module (documented in the README).

Personal quizzes
- A right answer is worth 10 points (easy), 15 (medium) or 20 (hard); a wrong one 0.
- Only a player's first attempt at a question counts, per workspace: replays are
  practice and score 0, so replaying a bank cannot farm points; a review never scores
  (``answers.py`` applies this to each answer).

Daily question (one answer per player per day; scored even if the question was seen
before, since everyone gets the same question once)
- The same points for a right answer, plus a streak bonus of 2 points for each
  consecutive day answered before today, at most 10.

Live race
- A right answer earns its points scaled by speed: all of them for an instant answer,
  half at the buzzer, linearly in between; a wrong or missing answer 0.
- Plus an answer-streak bonus of 3 points for each consecutive right answer before this
  one in the same race, at most 15.

Estimates (a number with a unit, judged by how many times off it is, either way)
- Inside the question's tolerance (e.g. within 2x, or 10 %, which is a factor of 1.1):
  the full points of its difficulty. Beyond it, a share that falls linearly with the
  logarithm of the factor, reaching 0 at 10x off: monotone, and the same for an answer
  too high or too low by the same factor. First attempts only, as above.
- A daily estimate scores the same, plus the daily streak bonus when it is inside the
  tolerance.

Leaderboards
- More points first; on a tie, whoever reached the total first; then the player id, so
  the order is total and stable.
"""

from __future__ import annotations

import math

from bot.content.estimates import ZERO_AT, within

POINTS_BY_DIFFICULTY = {"easy": 10, "medium": 15, "hard": 20}
DAILY_STREAK_STEP, DAILY_STREAK_CAP = 2, 10
RACE_STREAK_STEP, RACE_STREAK_CAP = 3, 15
ESTIMATE_ZERO_AT = ZERO_AT  # an estimate this many times off, either way, scores nothing


def answer_points(correct: bool, difficulty: str) -> int:
    """Points a first attempt earns."""
    return POINTS_BY_DIFFICULTY.get(difficulty, POINTS_BY_DIFFICULTY["medium"]) if correct else 0


def max_points(difficulties: list[str]) -> int:
    return sum(answer_points(True, d) for d in difficulties)


def streak_bonus(streak: int, step: int, cap: int) -> int:
    """Bonus for a streak of ``streak`` (this answer included)."""
    return min(max(streak - 1, 0) * step, cap)


def daily_points(correct: bool, difficulty: str, day_streak: int) -> int:
    if not correct:
        return 0
    return answer_points(True, difficulty) + streak_bonus(
        day_streak, DAILY_STREAK_STEP, DAILY_STREAK_CAP
    )


def race_points(
    correct: bool, difficulty: str, elapsed: float, seconds: float, answer_streak: int
) -> int:
    """Points for a race answer given ``elapsed`` seconds after the question opened."""
    if not correct:
        return 0
    lateness = min(max(elapsed / seconds, 0.0), 1.0) if seconds > 0 else 1.0
    speed_points = round(answer_points(True, difficulty) * (1 - lateness / 2))
    return speed_points + streak_bonus(answer_streak, RACE_STREAK_STEP, RACE_STREAK_CAP)


def estimate_points(off: float, tolerance: float, difficulty: str) -> int:
    """Points for an estimate ``off`` times from the truth (1: exact) on a question whose
    tolerance is a factor of ``tolerance`` (1 < tolerance < ESTIMATE_ZERO_AT)."""
    full = answer_points(True, difficulty)
    if within(off, tolerance):
        return full
    if off >= ESTIMATE_ZERO_AT:
        return 0
    share = math.log(ESTIMATE_ZERO_AT / off) / math.log(ESTIMATE_ZERO_AT / tolerance)
    return int(full * share + 0.5)


def daily_estimate_points(off: float, tolerance: float, difficulty: str, day_streak: int) -> int:
    """A daily estimate's points: an estimate's, and the streak bonus inside the tolerance."""
    bonus = streak_bonus(day_streak, DAILY_STREAK_STEP, DAILY_STREAK_CAP)
    return estimate_points(off, tolerance, difficulty) + (bonus if within(off, tolerance) else 0)
