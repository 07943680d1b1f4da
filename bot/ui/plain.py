"""Plain-text rendering of every view: the terminal adapter, logs and message
fallbacks use it."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import singledispatch

from bot.ui.messages import t
from bot.ui.views import (
    BarRow,
    ChannelFeedback,
    DailyPostView,
    DailyRevealView,
    Feedback,
    Leaderboard,
    LeaderRow,
    Notice,
    QuestionView,
    RaceLockedView,
    RacePodiumView,
    RaceQuestionView,
    RaceRevealView,
    Stats,
    Summary,
    TopicList,
)

BAR_WIDTH = 12
MEDALS = ("🥇", "🥈", "🥉")


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
        lines.append(f"  {topic.id} — {topic.title} ({count})")
    lines += ["", t(view.locale, view.usage_key)]
    return "\n".join(lines)


def leaderboard_title(view: Leaderboard) -> str:
    if view.competition:
        key = "competition_final" if view.final else "competition_title"
        return t(view.locale, key, name=view.competition)
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
        lines.append(t(view.locale, view.empty_key))
    for row in view.rows:
        detail = t(view.locale, "leaderboard_row", points=row.points, correct=row.correct,
                   answered=row.answered)  # fmt: skip
        lines.append(f"{row.rank:>3}. {row.name} — {detail}")
    if not view.final:  # final standings are posted to everyone: there is no "you"
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


def clock_label(at: float) -> str:
    """A moment as plain text; chat renderers use the platform's own local-time markup."""
    return datetime.fromtimestamp(at, UTC).strftime("%H:%M UTC")


def choice_lines(view: DailyPostView | RaceQuestionView) -> list[str]:
    return [f"  {choice.letter}. {choice.text}" for choice in view.choices]


@render.register
def _daily_post(view: DailyPostView) -> str:
    heading = t(view.locale, "daily_heading", topic=view.topic_title, day=view.day)
    count = t(view.locale, "daily_count", count=view.answered, reveal=clock_label(view.reveal_at))
    return "\n".join([heading, "", view.prompt, "", *choice_lines(view), "", count])


def bar_line(bar: BarRow) -> str:
    filled = round(BAR_WIDTH * bar.percent / 100)
    mark = " ✅" if bar.correct else ""
    meter = "█" * filled + "░" * (BAR_WIDTH - filled)
    return f"{bar.letter} {meter} {bar.count} ({bar.percent}%){mark}"


def reveal_lines(view: DailyRevealView | RaceRevealView) -> list[str]:
    """The distribution, the right answer and why: shared by both reveals."""
    loc = view.locale
    return [
        *(bar_line(bar) for bar in view.bars),
        "",
        t(loc, "right_answer", letter=view.answer.letter, text=view.answer.text),
        view.explanation,
    ]


@render.register
def _daily_reveal(view: DailyRevealView) -> str:
    loc = view.locale
    winners = (
        t(loc, "winners", names=", ".join(view.winners)) if view.winners else t(loc, "no_winners")
    )
    lines = [
        t(loc, "daily_reveal_heading", topic=view.topic_title, day=view.day),
        "",
        view.prompt,
        "",
        *reveal_lines(view),
        *(f"{t(loc, 'reference')}: {ref}" for ref in view.references),
        "",
        t(loc, "answered_total", count=view.answered),
        winners,
    ]
    return "\n".join(lines)


def channel_feedback_lines(view: ChannelFeedback) -> list[str]:
    loc = view.locale
    lines = [t(loc, "right" if view.correct else "wrong")]
    if not view.correct:
        lines.append(t(loc, "your_answer", letter=view.chosen.letter, text=view.chosen.text))
    lines.append(t(loc, "right_answer", letter=view.answer.letter, text=view.answer.text))
    if view.correct:
        lines.append(t(loc, "points", points=view.points))
    lines.append(t(loc, "daily_streak", streak=view.streak))
    return lines


@render.register
def _channel_feedback(view: ChannelFeedback) -> str:
    refs = [f"{t(view.locale, 'reference')}: {ref}" for ref in view.references]
    return "\n".join([*channel_feedback_lines(view), "", view.explanation, *refs])


def race_heading(view: RaceQuestionView) -> str:
    return t(view.locale, "race_heading", topic=view.topic_title, number=view.number,
             total=view.total, seconds=view.seconds)  # fmt: skip


@render.register
def _race_question(view: RaceQuestionView) -> str:
    hint = t(view.locale, "race_hint")
    return "\n".join([race_heading(view), "", view.prompt, "", *choice_lines(view), "", hint])


@render.register
def _race_locked(view: RaceLockedView) -> str:
    if view.duplicate:
        return t(view.locale, "race_already", letter=view.chosen.letter)
    return t(view.locale, "race_locked", letter=view.chosen.letter, text=view.chosen.text)


def standing_lines(rows: tuple[LeaderRow, ...], locale: str) -> list[str]:
    lines = []
    for row in rows:
        medal = MEDALS[row.rank - 1] if row.rank <= len(MEDALS) else f"{row.rank}."
        detail = t(locale, "leaderboard_row", points=row.points, correct=row.correct,
                   answered=row.answered)  # fmt: skip
        lines.append(f"{medal} {row.name} — {detail}")
    return lines


@render.register
def _race_reveal(view: RaceRevealView) -> str:
    loc = view.locale
    heading = t(loc, "race_reveal_heading", number=view.number, total=view.total,
                topic=view.topic_title)  # fmt: skip
    standings = standing_lines(view.standings, loc) or [t(loc, "no_winners")]
    return "\n".join(
        [heading, "", view.prompt, "", *reveal_lines(view), "", t(loc, "standings"), *standings]
    )


@render.register
def _race_podium(view: RacePodiumView) -> str:
    key = "race_stopped_heading" if view.stopped else "race_podium"
    lines = standing_lines(view.standings, view.locale) or [t(view.locale, "no_winners")]
    return "\n".join([t(view.locale, key, topic=view.topic_title), *lines])
