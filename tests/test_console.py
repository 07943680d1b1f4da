"""The terminal adapter, driven as a user scripts it: answers piped into `quizbot play`."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from .support.cli import Outcome, conversation, run_quizbot
from .support.environment import FIXTURES

TINY_RIGHT = {"Two", "Six"}  # the right choices of tests/fixtures/tiny.yaml


def quizbot(*args: str, stdin: str, db: Path, lang: str = "C") -> Outcome:
    env = {"QUIZBOT_BANKS": str(FIXTURES), "LANG": lang}
    return run_quizbot(*args, "--db", str(db), stdin=stdin, env=env)


def test_piped_answers_play_the_whole_quiz(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    # 14 choices, then 3 estimates: a time, an amount of memory, a time.
    letters = "A\nB\nC\nD\n" * 3 + "A\nB\n"
    result = quizbot(
        "play", "offloading", "--player", "ana", stdin=letters + "1 s\n100 GB\n5 s\n", db=db
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for number in range(1, 18):
        assert f"Question {number} of 17 · Optimizer state offloading to CPU and NVMe" in out
    assert out.count("Right answer:") == 14
    assert out.count("Your estimate: ") == 3 and "Your estimate: 100 GB" in out
    assert out.count("Read more: https://") >= 17
    assert "Quiz complete" in out and "You got " in out
    assert out.count("Optimizer state offloading to CPU and NVMe leaderboard") == 1, "rank once"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM answers").fetchone() == (17,)


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
    for option in ("--topic", "--bank"):  # --bank, its first name, still works
        board = quizbot("leaderboard", option, "small-one", stdin="", db=db)
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


def play_tiny(db: Path, right: bool) -> str:
    """``quizbot play tiny`` answered as a person would, reading each question first:
    every answer right, or every answer wrong (the choices are shuffled)."""
    env = {"QUIZBOT_BANKS": str(FIXTURES), "LANG": "C"}
    with conversation("play", "tiny", "--db", str(db), env=env) as quiz:
        shown, choices = [], {}
        for line in quiz.stdout:
            shown.append(line)
            if found := re.match(r"  ([A-D])\. (.+)", line):
                choices[found[1]] = found[2]
            elif line.startswith("Pick an answer:"):
                pick = next(k for k, text in choices.items() if (text in TINY_RIGHT) == right)
                quiz.stdin.write(f"{pick}\n")
                choices = {}
        assert quiz.running.result(timeout=30) == 0
    return "".join(shown)


def test_the_end_of_a_quiz_lists_what_was_missed_and_when_to_review(tmp_path: Path) -> None:
    out = play_tiny(tmp_path / "q.db", right=False)
    closing = out[out.index("To go over") :]
    assert re.fullmatch(
        r"To go over: the questions you missed\n"
        r"   1\. (One plus one\?|Two times three\?)\n"
        r"      → [A-C]\. (Two|Six)\n"
        r"   2\. (One plus one\?|Two times three\?)\n"
        r"      → [A-C]\. (Two|Six)\n"
        r"\n"
        r"Run quizbot review tomorrow: what you missed comes back then\.\n",
        closing,
    ), closing
    assert "You got 0 of 2 right" in out


def test_all_right_lists_nothing_and_says_when_the_next_review_is(tmp_path: Path) -> None:
    out = play_tiny(tmp_path / "q.db", right=True)
    assert "To go over" not in out
    assert re.search(r"Your next review is due in \d+ days: run quizbot review then\.\n$", out)


def test_asking_for_more_questions_than_a_topic_has_says_so(tmp_path: Path) -> None:
    played = quizbot("play", "tiny", "--questions", "100", stdin="q\n", db=tmp_path / "q.db")
    assert played.returncode == 0, played.stderr
    assert played.stdout.startswith("This topic has 2 questions: playing all 2.\n")


def test_play_without_a_topic_lists_the_topics(tmp_path: Path) -> None:
    listed = quizbot("play", stdin="", db=tmp_path / "q.db")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert lines[0] == "Quiz topics"
    titles = [line.split(" · ")[0] for line in lines[2:20]]
    assert titles == sorted(titles, key=str.casefold), "in the order of what each line shows"
    assert (
        "Optimizer state offloading to CPU and NVMe · quizbot play offloading · 17" in listed.stdout
    )


def test_stats_right_after_missing_say_it_is_not_known(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    play_tiny(db, right=False)
    stats = quizbot("stats", stdin="", db=db)
    assert stats.stdout == (
        "Your quiz stats\n\n"
        "Tiny test bank: 0/2 right (0%) · 0 points\n"
        "    2 seen · 0 due today · retention — · chance to recall now 0%\n\n"
        "A question you missed counts as not recalled until you answer it right in a review.\n"
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00", ":1: not UTF-8 text: save the file as UTF-8\n"),
        (
            b"id: [unclosed\n",
            ":2: YAML syntax error: expected ',' or ']', but got '<stream end>'\n",
        ),
    ],
)
def test_banks_check_names_the_file_and_the_problem(
    tmp_path: Path, content: bytes, message: str
) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_bytes(content)
    checked = run_quizbot("banks", "check", str(broken))
    assert checked.returncode == 1
    assert checked.stderr == f"{broken}{message}"


def test_insights_in_the_terminal_open_with_their_title(tmp_path: Path) -> None:
    db = tmp_path / "q.db"
    play_tiny(db, right=True)
    report = quizbot("insights", stdin="", db=db)
    assert report.returncode == 0, report.stderr
    assert report.stdout.startswith("Insights · all time\n\nTiny test bank: players 1 · answers 2")
