"""Plain-text rendering of every view: the terminal adapter, logs and message
fallbacks use it."""

from __future__ import annotations

from functools import singledispatch

from .messages import t
from .views import Feedback, Leaderboard, Notice, QuestionView, Stats, Summary, TopicList


@singledispatch
def render(view: object) -> str:
    raise TypeError(f"no plain rendering for {type(view).__name__}")


@render.register
def _question(view: QuestionView) -> str:
    heading = t(view.locale, "question_heading", number=view.number, total=view.total,
                topic=view.topic_title)  # fmt: skip
    lines = [heading, "", view.prompt, ""]
    lines += [f"  {choice.letter}. {choice.text}" for choice in view.choices]
    return "\n".join(lines)


def feedback_lines(view: Feedback) -> list[str]:
    """The verdict, the right answer and the points: shared by every renderer."""
    loc = view.locale
    lines = [t(loc, "right" if view.correct else "wrong")]
    if not view.correct:
        lines.append(t(loc, "your_answer", letter=view.chosen.letter, text=view.chosen.text))
    lines.append(t(loc, "right_answer", letter=view.answer.letter, text=view.answer.text))
    if view.practice:
        lines.append(t(loc, "practice"))
    elif view.correct:
        lines.append(t(loc, "points", points=view.points))
    return lines


def progress_line(view: Feedback) -> str:
    return t(view.locale, "progress", done=view.answered, total=view.question.total,
             points=view.run_points)  # fmt: skip


@render.register
def _feedback(view: Feedback) -> str:
    lines = [*feedback_lines(view), "", view.explanation]
    lines += [f"{t(view.locale, 'reference')}: {ref}" for ref in view.references]
    lines += ["", progress_line(view)]
    if view.summary:
        lines += ["", render(view.summary)]
    return "\n".join(lines)


def summary_lines(view: Summary) -> list[str]:
    loc = view.locale
    lines = [
        t(loc, "summary_score", correct=view.correct, total=view.total, points=view.points,
          max_points=view.max_points),
    ]  # fmt: skip
    if view.rank:
        lines.append(t(loc, "summary_rank", rank=view.rank, players=view.players,
                       topic=view.topic_title))  # fmt: skip
    else:
        lines.append(t(loc, "summary_unranked", topic=view.topic_title))
    return lines


@render.register
def _summary(view: Summary) -> str:
    return "\n".join(
        [t(view.locale, "summary_title", topic=view.topic_title), *summary_lines(view)]
    )


@render.register
def _notice(view: Notice) -> str:
    return view.text


def topic_lines(view: TopicList) -> list[str]:
    """The "unknown topic" lines, when the view answers one."""
    if view.unknown is None:
        return []
    lines = [t(view.locale, "unknown_topic", topic=view.unknown)]
    if view.suggestion:
        lines.append(t(view.locale, "did_you_mean", title=view.suggestion.title,
                       id=view.suggestion.id))  # fmt: skip
    return lines


@render.register
def _topics(view: TopicList) -> str:
    lines = topic_lines(view)
    lines += [t(view.locale, "topics_title") + ":"]
    for topic in view.topics:
        count = t(view.locale, "topic_line", questions=topic.questions)
        lines.append(f"  {topic.id} — {topic.title} ({count}): {topic.description}")
    lines += ["", t(view.locale, "usage")]
    return "\n".join(lines)


def leaderboard_title(view: Leaderboard) -> str:
    title = t(view.locale, "leaderboard_title", period=t(view.locale, f"period_{view.period}"))
    return f"{title} · {view.topic_title}" if view.topic_title else title


def you_line(view: Leaderboard) -> str:
    if view.you is None:
        return t(view.locale, "leaderboard_you_none")
    return t(view.locale, "leaderboard_you", rank=view.you.rank, points=view.you.points)


@render.register
def _leaderboard(view: Leaderboard) -> str:
    lines = [leaderboard_title(view)]
    if not view.rows:
        lines.append(t(view.locale, "leaderboard_empty"))
    for row in view.rows:
        detail = t(view.locale, "leaderboard_row", points=row.points, correct=row.correct,
                   answered=row.answered)  # fmt: skip
        lines.append(f"{row.rank:>3}. {row.name} — {detail}")
    lines.append(you_line(view))
    return "\n".join(lines)


@render.register
def _stats(view: Stats) -> str:
    lines = [t(view.locale, "stats_title")]
    if not view.rows:
        lines.append(t(view.locale, "stats_empty"))
    for row in view.rows:
        detail = t(view.locale, "stats_row", correct=row.correct, answered=row.answered,
                   accuracy=row.accuracy, points=row.points)  # fmt: skip
        lines.append(f"  {row.topic_title}: {detail}")
    return "\n".join(lines)
