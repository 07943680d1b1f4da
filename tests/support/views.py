"""Neutral views built by hand from real bank questions, for the renderers' tests."""

from __future__ import annotations

from collections.abc import Mapping

from bot.content.banks import Bank, Question
from bot.domain import actions
from bot.domain.quiz_runs import LETTERS
from bot.ui.views import (
    BarRow,
    ChannelFeedback,
    ChoiceView,
    DailyPostView,
    DailyRevealView,
    EstimateAsk,
    EstimateResult,
    Feedback,
    Leaderboard,
    LeaderRow,
    Notice,
    QuestionView,
    RaceLockedView,
    RacePodiumView,
    RaceQuestionView,
    RaceRevealView,
    StatRow,
    Stats,
    Summary,
    TopicList,
    TopicView,
)

RUN = "0123456789abcdef"


def _text(text: Mapping[str, str], locale: str) -> str:
    """The locale's text, else English: hand-made questions here may be half translated,
    which a bank file may not be."""
    return text.get(locale) or text["en"]


def question_view(bank: Bank, question: Question, locale: str, number: int = 1) -> QuestionView:
    return QuestionView(
        locale=locale,
        run_id=RUN,
        topic=bank.id,
        topic_title=_text(bank.title, locale),
        number=number,
        total=len(bank.questions),
        prompt=_text(question.prompt, locale),
        choices=tuple(
            ChoiceView(
                LETTERS[i],
                _text(text, locale),
                actions.AnswerAction(RUN, number - 1, i).encode(),
                i,
            )
            for i, text in enumerate(question.choices)
        ),
        difficulty=question.difficulty,
        estimate=EstimateAsk(
            actions.EstimateAction(RUN, number - 1).encode(),
            question.estimate.truth.dimension,
            question.estimate.unit,
            question.estimate.tolerance.written,
        )
        if question.estimate
        else None,
    )


def summary(locale: str, topic: str = "Topic", rank: int | None = 1) -> Summary:
    return Summary(locale, topic, 7, 8, 150, 180, rank, 12)


def feedback(view: QuestionView, question: Question, correct: bool, last: bool) -> Feedback:
    estimate = question.estimate
    if estimate is not None:  # a value 3× off, or the truth, as a long typed text
        given = "12345.678 " + (estimate.unit or "") if not correct else estimate.written
        result = EstimateResult(given, estimate.written, 1 if correct else 3.0, "2×")
        chosen = answer = None
    else:
        result = None
        index = question.answer if correct else (question.answer + 1) % len(view.choices)
        chosen, answer = view.choices[index], view.choices[question.answer]
    return Feedback(
        locale=view.locale,
        question=view,
        chosen=chosen,
        answer=answer,
        estimate=result,
        correct=correct,
        explanation=_text(question.explanation, view.locale),
        references=question.references,
        points=20 if correct else 0,
        practice=False,
        answered=view.number,
        run_points=120,
        next_action=None if last else actions.NextAction(RUN, view.number).encode(),
        summary=summary(view.locale, view.topic_title) if last else None,
    )


POST = "0123456789abcdef"
REVEAL_AT = 1_793_615_400.0  # 2026-11-02 10:30 UTC


def channel_views(
    bank: Bank, question: Question, locale: str, names: tuple[str, ...] = ("Asha", "Bo")
) -> list[object]:
    """Every channel-play view of one question, as large as the core makes them."""
    choices = tuple(
        ChoiceView(LETTERS[i], _text(text, locale), actions.DailyAction(POST, i).encode(), i)
        for i, text in enumerate(question.choices)
    )
    race_choices = tuple(
        ChoiceView(c.letter, c.text, actions.RaceAction(POST, 19, i).encode(), i)
        for i, c in enumerate(choices)
    )
    answer = choices[question.answer]
    other = choices[(question.answer + 1) % len(choices)]
    bars = tuple(BarRow(c.letter, c.text, 10**6, 100 // len(choices), c is answer) for c in choices)
    title, prompt = _text(bank.title, locale), _text(question.prompt, locale)
    explanation = _text(question.explanation, locale)
    rows = tuple(LeaderRow(i, str(i), n, 10**6, 20, 20) for i, n in enumerate(names[:10], 1))
    refs = question.references
    return [
        DailyPostView(locale, POST, "2026-11-02", title, prompt, choices, 10**6, REVEAL_AT),
        DailyRevealView(
            locale, "2026-11-02", title, prompt, bars, answer, explanation, refs, names, 10**6
        ),
        ChannelFeedback(locale, True, answer, answer, explanation, refs, 30, 6, False),
        ChannelFeedback(locale, False, other, answer, explanation, refs, 0, 1, False),
        RaceQuestionView(locale, POST, title, 20, 20, prompt, race_choices, 120, REVEAL_AT),
        RaceLockedView(locale, race_choices[1], duplicate=False),
        RaceRevealView(locale, title, 20, 20, prompt, bars, answer, explanation, rows[:5]),
        RacePodiumView(locale, title, rows, stopped=False),
        RacePodiumView(locale, title, (), stopped=True),
        Leaderboard(locale, "competition", None, rows, None, competition=title, final=True),
    ]


def personal_views(bank: Bank, question: Question, locale: str) -> list[object]:
    """Every view a player asks for privately, for one question."""
    view = question_view(bank, question, locale)
    title = view.topic_title
    you = LeaderRow(1, "7", "Asha", 30, 2, 3)
    topic = TopicView(bank.id, title, "About it", len(bank.questions))
    return [
        view,
        feedback(view, question, correct=True, last=False),
        feedback(view, question, correct=False, last=True),
        summary(locale, title, rank=None),
        Notice(locale, "invalid", "This button is no longer valid."),
        TopicList(locale, (topic,), unknown="ofload", suggestion=topic),
        Leaderboard(locale, "week", title, (you,), you),
        Leaderboard(locale, "all", None, (), None),
        Stats(locale, (StatRow(title, 4, 3, 40),)),
        Stats(locale, ()),
    ]
