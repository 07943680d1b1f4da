"""Quiz runs through the real engine and store (on SQLite and on PostgreSQL): feedback,
shuffling, summary, no farming."""

from __future__ import annotations

import pytest

from bot.content.banks import Catalog
from bot.domain.actions import AnswerAction, decode
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.quiz_runs import Run
from bot.persistence import Store
from bot.services.engine import Engine
from bot.services.requests import button
from bot.ui.views import Feedback, Leaderboard, Notice, QuestionView, TopicList

from .support.quiz import ANA, BO, TEAM, play, right_choice, wrong_choice


@pytest.fixture
def store(store_on_each_backend: Store) -> Store:
    return store_on_each_backend


async def test_right_and_wrong_answers_give_feedback(engine: Engine) -> None:
    view = await engine.start_quiz(ANA, TEAM, "tiny", "en")
    assert isinstance(view, QuestionView)
    assert (view.number, view.total, view.prompt) == (1, 2, "One plus one?")
    assert [c.letter for c in view.choices] == ["A", "B", "C"]
    wrong = await engine.click(ANA, button(wrong_choice(engine, view)))
    assert isinstance(wrong, Feedback)
    assert not wrong.correct and wrong.points == 0
    assert wrong.answer.text == "Two" and wrong.chosen.text != "Two"
    assert wrong.explanation == "One and one make two."
    assert wrong.references == ("https://example.org/arithmetic",)
    assert (wrong.answered, wrong.question.total) == (1, 2)
    nxt = await engine.click(ANA, button(wrong.next_action))
    assert isinstance(nxt, QuestionView) and nxt.number == 2
    right = await engine.click(ANA, button(right_choice(engine, nxt)))
    assert isinstance(right, Feedback)
    assert right.correct and right.points == 20  # hard question
    assert right.next_action is None and right.summary is not None
    summary = right.summary
    assert (summary.correct, summary.total, summary.points, summary.max_points) == (1, 2, 20, 30)
    assert (summary.rank, summary.players) == (1, 1)


async def test_shuffling_keeps_the_right_answer_right(engine: Engine, catalog: Catalog) -> None:
    bank = catalog.get("offloading")
    assert bank is not None
    orders = set()
    for _ in range(12):
        view = await engine.start_quiz(ANA, TEAM, "offloading", "hi")
        assert isinstance(view, QuestionView)
        orders.add(tuple(c.text for c in view.choices))
        feedback = await engine.click(ANA, button(right_choice(engine, view)))
        assert isinstance(feedback, Feedback) and feedback.correct
        assert feedback.answer.text == bank.questions[0].choices[bank.questions[0].answer]["hi"]
    assert len(orders) > 1  # the order really changes between runs


def test_choice_order_is_reproducible_from_the_seed(catalog: Catalog) -> None:
    bank = catalog.get("offloading")
    assert bank is not None
    run = Run("r" * 16, ANA, TEAM, bank.id, "en", 42, tuple(q.id for q in bank.questions))
    again = Run("s" * 16, BO, TEAM, bank.id, "en", 42, run.question_ids)
    assert [run.choice_order(q) for q in bank.questions] == [
        again.choice_order(q) for q in bank.questions
    ]


async def test_replaying_a_bank_does_not_farm_points(engine: Engine) -> None:
    first = await play(engine, ANA, "tiny", right=True)
    assert first.summary and first.summary.points == 30
    second = await play(engine, ANA, "tiny", right=True)
    assert second.practice and second.points == 0
    assert second.summary and second.summary.points == 0
    board = await engine.leaderboard(ANA, TEAM, "en", topic="tiny")
    assert isinstance(board, Leaderboard)
    # The board counts first attempts, like its points: practice is not "answered".
    assert [(r.name, r.points, r.correct, r.answered) for r in board.rows] == [("Ana", 30, 2, 2)]


async def test_first_attempt_counts_even_when_wrong(engine: Engine) -> None:
    await play(engine, ANA, "tiny", right=False)
    retry = await play(engine, ANA, "tiny", right=True)
    assert retry.summary and retry.summary.points == 0
    assert (retry.summary.correct, retry.summary.total) == (2, 2)  # this run: both right
    stats = await engine.stats(ANA, TEAM, "en")
    assert [(r.answered, r.correct, r.points) for r in stats.rows] == [(2, 0, 0)]  # first tries


async def test_quiz_length_draws_a_subset(engine: Engine) -> None:
    view = await engine.start_quiz(ANA, TEAM, "offloading", "en", questions=5)
    assert isinstance(view, QuestionView) and view.total == 5


async def test_locale_fallback_and_setting(engine: Engine) -> None:
    assert await engine.locale_for(ANA) == "en"
    assert await engine.locale_for(ANA, "hi-IN") == "hi"
    assert await engine.locale_for(ANA, "fr") == "en"
    notice = await engine.set_locale(ANA, "bn")
    assert notice.kind == "lang_set" and notice.locale == "bn"
    assert await engine.locale_for(ANA, "hi-IN") == "bn"
    refused = await engine.set_locale(ANA, "klingon")
    assert refused.kind == "lang_unknown" and "klingon" in refused.text
    view = await engine.start_quiz(ANA, TEAM, "offloading", "bn")
    assert isinstance(view, QuestionView) and view.locale == "bn"


async def test_unknown_topic_suggests_the_closest(engine: Engine) -> None:
    view = await engine.start_quiz(ANA, TEAM, "offlaoding", "en")
    assert isinstance(view, TopicList)
    assert view.unknown == "offlaoding"
    assert view.suggestion is not None and view.suggestion.id == "offloading"


@pytest.mark.parametrize(
    "forged",
    ["", "qz:", "garbage", "qz:a:zzzzzzzzzzzzzzzz:0:0", "x" * 500, "qz:a:" + "a" * 200 + ":0:0"],
)
async def test_forged_ids_get_a_notice_and_no_points(engine: Engine, forged: str) -> None:
    result = await engine.click(ANA, button(forged))
    assert isinstance(result, Notice) and result.kind == "invalid"


async def test_another_players_run_and_stale_clicks(engine: Engine) -> None:
    view = await engine.start_quiz(ANA, TEAM, "tiny", "en")
    assert isinstance(view, QuestionView)
    stolen = await engine.click(BO, button(right_choice(engine, view)))
    assert isinstance(stolen, Notice) and stolen.kind == "not_yours"
    first = await engine.click(ANA, button(wrong_choice(engine, view)))
    assert isinstance(first, Feedback)
    again = await engine.click(ANA, button(right_choice(engine, view)))  # the old message's button
    assert isinstance(again, Notice) and again.kind == "already_answered"
    action = decode(view.choices[0].action_id)
    assert isinstance(action, AnswerAction)
    ahead = AnswerAction(action.run_id, 5, 0).encode()
    assert (await engine.click(ANA, button(ahead))).kind == "invalid"  # type: ignore[union-attr]
    out_of_range = AnswerAction(action.run_id, 1, 9).encode()
    assert (await engine.click(ANA, button(out_of_range))).kind == "invalid"  # type: ignore[union-attr]
    board = await engine.leaderboard(BO, TEAM, "en")
    assert isinstance(board, Leaderboard) and board.rows == () and board.you is None


async def test_finished_run_refuses_clicks(engine: Engine) -> None:
    done = await play(engine, ANA, "tiny", right=True)
    assert done.summary is not None
    action = decode(done.question.choices[0].action_id)
    assert isinstance(action, AnswerAction)
    late = await engine.click(ANA, button(action.encode()))
    assert isinstance(late, Notice) and late.kind == "finished"


async def test_leaderboard_rank_and_ties(engine: Engine) -> None:
    await play(engine, ANA, "tiny", right=True)  # 30 points, first
    await play(engine, BO, "tiny", right=True)  # 30 points, later: ranks second
    carl = PlayerRef("slack", "U3", "Carl")
    await play(engine, carl, "tiny", right=False)
    board = await engine.leaderboard(carl, TEAM, "en", period="week")
    assert isinstance(board, Leaderboard)
    assert [(r.rank, r.name, r.points) for r in board.rows] == [(1, "Ana", 30), (2, "Bo", 30)]
    assert board.you is None  # no points yet
    mine = await engine.leaderboard(BO, TEAM, "en", period="month", topic="tiny")
    assert isinstance(mine, Leaderboard) and mine.you and mine.you.rank == 2
    other_team = await engine.leaderboard(ANA, ScopeRef("slack", "T2", "C9"), "en")
    assert isinstance(other_team, Leaderboard) and other_team.rows == ()
    stats = await engine.stats(carl, TEAM, "en")
    assert [(r.topic_title, r.answered, r.correct, r.accuracy) for r in stats.rows] == [
        ("Tiny test bank", 2, 0, 0)
    ]
