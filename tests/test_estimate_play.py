"""Estimate questions played: in the terminal (typed until it reads, then the value given,
the truth, how far off and the derivation), and through the core (the value recorded,
first attempts only, review graded by the tolerance)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.content.banks import load_catalog
from bot.domain import actions
from bot.domain.identities import PlayerRef, ScopeRef
from bot.persistence import Store
from bot.services.engine import Engine
from bot.services.requests import AnswerEstimate, Context, ShowInsights
from bot.ui.views import Feedback, InsightsView, Notice, QuestionView, RaceQuestionView

from .support.channel import FakeClock, moment, open_engine, run_until
from .support.cli import run_quizbot
from .support.environment import FIXTURES
from .support.rendering import seen

ESTIMATES = FIXTURES / "estimates"
ANA = PlayerRef("slack", "U1", "Ana")
HERE = ScopeRef("slack", "T1", "C1")


def play(tmp_path: Path, stdin: str, *more: str) -> str:
    env = {"QUIZBOT_BANKS": str(ESTIMATES), "LANG": "C"}
    db = str(tmp_path / "q.db")
    outcome = run_quizbot("play", "kv", "--db", db, *more, stdin=stdin, env=env)
    assert outcome.returncode == 0, outcome.stderr
    return outcome.stdout


def test_the_terminal_asks_until_an_estimate_reads_then_shows_how_far_off(
    tmp_path: Path,
) -> None:
    out = play(tmp_path, "about half\n512 ms\n0.3 MiB\n")
    lines = [line.strip() for line in out.splitlines() if line.strip()]
    assert lines[1:] == [
        "How much KV cache does one Llama-2-7B token take in FP16?",
        "Answer with a number and a unit (B, KiB, MB, GiB …): within 2× of the true value"
        " scores in full, and closer scores more.",
        "“about half” does not start with a number. Write a number and a unit: B, KiB, MB, GiB …",
        "“512 ms” is a time, but this question asks for an amount of memory. Write a number"
        " and a unit: B, KiB, MB, GiB …",
        "✅ Within 2×!",
        "Your estimate: 0.3 MiB (= 307 KiB)",
        "The answer: 512 KiB",
        "Off by -40 %.",
        "+15 points",
        "2 × 32 layers × 32 heads × 128 × 2 bytes = 524288 bytes = 512 KiB.",
        "Read more: https://arxiv.org/abs/2302.13971",
        "1 of 1 answered · 15 points so far",
        "Quiz complete · KV napkin",
        "You got 1 of 1 right and earned 15 of 15 points.",
        "You are #1 of 1 on the KV napkin leaderboard.",
        "Your next review is due in 2 days: run quizbot review then.",
    ]
    with sqlite3.connect(tmp_path / "q.db") as db:
        assert db.execute("SELECT choice, estimate, points FROM answers").fetchall() == [
            (-1, 0.3 * 1024 * 1024, 15)
        ]


def test_a_hindi_player_reads_the_factor_in_hindi(tmp_path: Path) -> None:
    out = play(tmp_path, "8 MiB\n", "--lang", "hi")
    assert "❌ 2× के भीतर नहीं।" in out
    assert "आपका अनुमान: 8 MiB (= 8,192 KiB)" in out
    assert "सही उत्तर: 512 KiB" in out and "16× ज़्यादा।" in out
    assert "अंक" not in out.split("16× ज़्यादा।")[1].split("\n\n")[0]  # past 10×: none


async def test_the_core_records_the_value_and_scores_only_the_first_attempt(
    tmp_path: Path,
) -> None:
    engine = Engine(load_catalog([ESTIMATES]), await Store.open(str(tmp_path / "q.db")))
    try:
        me = Context(ANA, HERE)
        points = []
        for typed in ("2 MiB", "512 KiB"):
            view = await engine.start_quiz(ANA, HERE, "kv", "en")
            assert isinstance(view, QuestionView) and view.estimate is not None
            assert view.choices == () and view.estimate.dimension == "memory"
            action = actions.decode(view.estimate.action_id)
            assert isinstance(action, actions.EstimateAction)
            refused = (await engine.handle(AnswerEstimate(action, "12 furlongs"), me)).view
            assert isinstance(refused, Notice) and refused.kind == "estimate_unreadable"
            done = (await engine.handle(AnswerEstimate(action, typed), me)).view
            assert isinstance(done, Feedback) and done.estimate is not None
            points.append((done.correct, done.points, done.practice, done.estimate.off))
        # 4× off: log(10/4) / log(10/2) of 15; then exact, but a replay scores nothing.
        assert points == [(False, 9, False, 4.0), (True, 0, True, 1.0)]
        [card] = await engine.store.cards.all(ANA, HERE)
        assert (card.bank_id, card.question_id) == ("kv", "kv-bytes")
        # Graded by the tolerance: outside it (Again), then inside (Good).
        assert (card.card.reviews, card.card.last_correct) == (2, True)
    finally:
        await engine.store.close()


async def test_a_race_leaves_estimates_out_and_refuses_a_topic_of_only_estimates(
    tmp_path: Path,
) -> None:
    clock = FakeClock(moment("2026-12-01T09:00"))
    engine, publisher = await open_engine(str(tmp_path / "q.db"), load_catalog([ESTIMATES]), clock)
    try:
        starter = Context(ANA, HERE)
        only = await engine.races.start(starter, "kv", None, None)
        assert only.text == (
            "The topic kv has only estimate questions, and a race needs questions with"
            " choices: pick another topic."
        )
        started = await engine.races.start(starter, "napkin", 5, 10)
        assert started.kind == "race_started"
        await run_until(engine, clock, clock.now() + 5, step=1)
        asked = [v.view for v in publisher.of(RaceQuestionView)]
        assert [v.prompt for v in asked] == ["One plus one?"]  # type: ignore[union-attr]
    finally:
        await engine.store.close()


async def test_insights_show_how_the_team_estimates(tmp_path: Path) -> None:
    engine = Engine(load_catalog([ESTIMATES]), await Store.open(str(tmp_path / "q.db")))
    try:
        for n, typed in enumerate(("64 KiB", "128 KiB", "256 KiB", "512 KiB")):
            player = PlayerRef("slack", f"U{n}", f"P{n}")
            view = await engine.start_quiz(player, HERE, "kv", "en")
            assert isinstance(view, QuestionView) and view.estimate is not None
            action = actions.decode(view.estimate.action_id)
            assert isinstance(action, actions.EstimateAction)
            if n < 3:  # a fourth player opens the question and does not answer
                await engine.handle(AnswerEstimate(action, typed), Context(player, HERE))
        lead = Context(ANA, HERE, "en", is_admin=True)
        insights = (await engine.handle(ShowInsights(), lead)).view
        assert isinstance(insights, InsightsView)
        [row] = insights.estimates
        # Answers 1/8, 1/4 and 1/2 of the truth: the median is 4× too low; the quartiles
        # of the ratios are 2× apart.
        assert (row.answers, row.median, round(row.spread, 6)) == (3, 0.25, 2.0)
        assert round(row.error, 6) == 4.0  # each off by 8×, 4×, 2×: typically 4×
        shown = seen("slack", insights).text
        assert (
            "How much KV cache does one Llama-2-7B token take in FP16? — the team's median:"
            " 4× too low. Typical error ×4, spread ×2, 3 answers." in shown
        )
    finally:
        await engine.store.close()
