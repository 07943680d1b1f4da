"""Neutral views built by hand from real bank questions, for the renderers' tests."""

from __future__ import annotations

from bot.content.banks import Bank, Question
from bot.play import codec
from bot.play.runs import LETTERS
from bot.ui import i18n
from bot.ui.views import ChoiceView, Feedback, QuestionView, Summary

RUN = "0123456789abcdef"


def question_view(bank: Bank, question: Question, locale: str, number: int = 1) -> QuestionView:
    return QuestionView(
        locale=locale,
        run_id=RUN,
        topic=bank.id,
        topic_title=i18n.pick(bank.title, locale),
        number=number,
        total=len(bank.questions),
        prompt=i18n.pick(question.prompt, locale),
        choices=tuple(
            ChoiceView(
                LETTERS[i], i18n.pick(text, locale), codec.AnswerAction(RUN, number - 1, i).encode()
            )
            for i, text in enumerate(question.choices)
        ),
        difficulty=question.difficulty,
    )


def summary(locale: str, topic: str = "Topic", rank: int | None = 1) -> Summary:
    return Summary(locale, topic, 7, 8, 150, 180, rank, 12)


def feedback(view: QuestionView, question: Question, correct: bool, last: bool) -> Feedback:
    chosen = view.choices[question.answer if correct else (question.answer + 1) % len(view.choices)]
    return Feedback(
        locale=view.locale,
        question=view,
        chosen=chosen,
        answer=view.choices[question.answer],
        correct=correct,
        explanation=i18n.pick(question.explanation, view.locale),
        references=question.references,
        points=20 if correct else 0,
        practice=False,
        answered=view.number,
        run_points=120,
        next_action=None if last else codec.NextAction(RUN, view.number).encode(),
        summary=summary(view.locale, view.topic_title) if last else None,
    )
