"""Scoring rules, in one pure module (documented in the README).

- A right answer is worth 10 points (easy), 15 (medium) or 20 (hard); a wrong one 0.
- Only a player's first attempt at a question counts, per workspace: replays are
  practice and score 0, so replaying a bank cannot farm points.
- Leaderboard order: more points first; on a tie, whoever reached the total first;
  then the player id, so the order is total and stable.
"""

from __future__ import annotations

POINTS_BY_DIFFICULTY = {"easy": 10, "medium": 15, "hard": 20}


def answer_points(correct: bool, difficulty: str) -> int:
    """Points a first attempt earns."""
    return POINTS_BY_DIFFICULTY.get(difficulty, POINTS_BY_DIFFICULTY["medium"]) if correct else 0


def max_points(difficulties: list[str]) -> int:
    return sum(answer_points(True, d) for d in difficulties)
