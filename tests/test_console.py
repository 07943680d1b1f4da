"""The terminal adapter, driven as a user scripts it: answers piped into `quizbot play`."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

from .support.environment import FIXTURES, run_quizbot


def quizbot(*args: str, stdin: str, db: Path, lang: str = "C") -> subprocess.CompletedProcess[str]:
    env = {"QUIZBOT_BANKS": str(FIXTURES), "LANG": lang}
    return run_quizbot(*args, "--db", str(db), stdin=stdin, env=env)


def test_piped_answers_play_the_whole_quiz(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    result = quizbot(
        "play", "offloading", "--player", "ana", stdin="A\nB\nC\nD\nA\nB\nC\nD\n", db=db
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for number in range(1, 9):
        assert f"Question {number} of 8 · Optimizer state offloading to CPU and NVMe" in out
    assert out.count("Right answer:") == 8
    assert out.count("Read more: https://") >= 8
    assert "Quiz complete" in out and "You got " in out
    assert "Leaderboard · all time" in out
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM answers").fetchone() == (8,)


def test_bad_letters_are_asked_again_and_eof_saves_progress(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    first = quizbot("play", "tiny", "--player", "bo", stdin="Z\n\nA\n", db=db)
    assert first.returncode == 0, first.stderr
    assert "Please answer with one of A, B, C." in first.stdout
    assert "progress is saved" in first.stdout
    second = quizbot("play", "tiny", "--player", "bo", stdin="A\n", db=db)
    assert "Question 2 of 2" in second.stdout and "Question 1 of 2" not in second.stdout
    assert "Quiz complete" in second.stdout


def test_hindi_and_unknown_topic(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    hindi = quizbot("play", "amp", "--lang", "hi", "--questions", "2", stdin="A\nA\n", db=db)
    assert "प्रश्न 1 / 2" in hindi.stdout and "सही उत्तर:" in hindi.stdout
    unknown = quizbot("play", "offlaoding", stdin="", db=db)
    assert unknown.returncode == 2
    assert "I don't know the topic “offlaoding”." in unknown.stdout
    assert "Did you mean Optimizer state offloading to CPU and NVMe (offloading)?" in unknown.stdout
    assert "mixed-precision" in unknown.stdout


def test_leaderboard_command(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    quizbot("play", "tiny", "--player", "cy", stdin="A\nA\n", db=db)
    board = quizbot("leaderboard", "--bank", "tiny", stdin="", db=db)
    assert board.returncode == 0, board.stderr
    assert "Leaderboard · all time · Tiny test bank" in board.stdout


def test_review_and_stats_in_the_terminal(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    nothing = quizbot("review", "--player", "di", stdin="", db=db)
    assert nothing.returncode == 0, nothing.stderr
    assert "You have no review cards yet" in nothing.stdout
    quizbot("play", "tiny", "--player", "di", stdin="A\nA\n", db=db)
    with sqlite3.connect(db) as conn:  # three days pass: every card is due, right or wrong
        conn.execute(
            "UPDATE cards SET due = due - 3 * 86400, last_review = last_review - 3 * 86400"
        )
    stats = quizbot("stats", "--player", "di", stdin="", db=db)
    assert stats.returncode == 0, stats.stderr
    assert "2 seen · 2 due today · retention —" in stats.stdout
    assert "You have 2 cards due for review today." in stats.stdout
    assert "Review what is due with: quizbot review" in stats.stdout
    review = quizbot("review", "--player", "di", stdin="A\nA\n", db=db)
    assert review.returncode == 0, review.stderr
    assert "Review 1/2 · Tiny test bank" in review.stdout
    assert "Review 2/2 · Tiny test bank" in review.stdout
    assert review.stdout.count("Review answer: no points. This card comes back in") == 2
    assert " of 2 right." in review.stdout
    with sqlite3.connect(db) as conn:
        sources = conn.execute("SELECT source FROM review_log ORDER BY review_id").fetchall()
    assert sources == [("quiz",), ("quiz",), ("review",), ("review",)]
