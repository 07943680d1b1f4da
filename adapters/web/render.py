"""The dashboard's pages, from the core's views of them (``bot.services.dashboard``): each
page's title and body, its body written by its template (``templates/``), which
``pages.shell`` frames. What is worked out here is data: texts, charts laid out, rows."""

from __future__ import annotations

from markupsafe import Markup

from bot.services.dashboard import (
    COMPETITION,
    BoardPage,
    InsightsPage,
    MapPage,
    ParticipationPage,
    Picks,
    QuestionPage,
    TopicChoice,
)
from bot.ui.layout import off_by, shown_percent
from bot.ui.views import QuestionRow

from .charts import Bar, bar_chart
from .pages import Page, fragment

Options = list[tuple[str | None, str]]


def leaderboards(page: Page, shown: BoardPage) -> tuple[str, Markup]:
    periods: Options = [(p, page.t(f"period_{p}")) for p in shown.periods]
    if shown.competition:
        periods.append((COMPETITION, shown.competition))
    if shown.period == COMPETITION and shown.competition:
        board = page.t("competition_title", name=shown.competition)
    else:
        board = page.t("leaderboard_title", period=page.t(f"period_{shown.period}"))
    if shown.topic_title:
        board = f"{board} · {shown.topic_title}"
    bars = [Bar(row.name, row.points, str(row.points)) for row in shown.rows]
    points = bar_chart("points", page.t("points_chart"), page.t("points_desc", board=board), bars)
    return board, fragment(
        "leaderboards.html", page=page, shown=shown, periods=periods,
        topics=_topics(page, shown.topics), points=points,
        headers=[page.t(k) for k in ("col_rank", "col_name", "col_points", "col_right",
                                     "col_answered")],
        rows=[(r.rank, r.name, r.points, r.correct, r.answered) for r in shown.rows],
    )  # fmt: skip


def insights(page: Page, shown: InsightsPage) -> tuple[str, Markup]:
    title = page.t("insights_title", period=page.t(f"insights_period_{shown.period}"))
    charts = [
        bar_chart(
            f"accuracy-{number}",
            page.t("accuracy_chart", topic=topic.title),
            page.t("accuracy_desc"),
            [
                Bar(q.prompt, q.accuracy or 0, f"{shown_percent(q.accuracy)} ({q.first_tries})")
                for q in topic.hardest
            ],
        )
        for number, topic in enumerate(shown.rows)
        if topic.hardest
    ]
    # Each sortable column's heading is a link that orders the item table by it (no
    # script); the current order's is plain.
    columns = [
        ("col_question", None), ("col_topic", None), ("col_first_tries", "tries"),
        ("col_facility", "facility"), ("col_discrimination", "discrimination"),
        ("col_flags", "flags"),
    ]  # fmt: skip
    return title, fragment(
        "insights.html", page=page, shown=shown, charts=charts, facility=_facility,
        windows=_windows(page, shown.periods), topics=_topics(page, shown.topics),
        topic_headers=[page.t(k) for k in ("col_topic", "col_players", "col_answers",
                                           "col_accuracy", "col_retention")],
        topic_rows=[
            (t.title, t.players, t.answers, shown_percent(t.accuracy), shown_percent(t.retention))
            for t in shown.rows
        ],
        flagged_headers=[page.t(k) for k in ("col_question", "col_topic", "col_accuracy",
                                             "col_flags")],
        item_headers=[
            page.t(key) if order is None or order == shown.sort
            else (page.t(key), page.href(sort=order))
            for key, order in columns
        ],
    )  # fmt: skip


def _facility(row: QuestionRow) -> str:
    """First-try accuracy and its 95 % interval: "55% (34–74%)"."""
    if row.interval is None:
        return shown_percent(row.accuracy)
    low, high = row.interval
    return f"{shown_percent(row.accuracy)} ({low}–{high}%)"


def question(page: Page, shown: QuestionPage) -> tuple[str, Markup]:
    def bars(picks: Picks) -> list[Bar]:
        return [
            Bar(
                page.t("right_marked", text=text) if i == shown.answer else text,
                picks.counts[i],
                str(picks.counts[i]),
                highlight=i == shown.answer,
            )
            for i, text in enumerate(shown.choices)
        ]

    context: dict[str, object] = {"estimate_said": None, "estimates": None}
    if shown.estimate is not None:
        # An estimate question's first estimates on a log axis, the truth's range marked.
        spread = shown.estimate
        if spread.median is None:
            context["estimate_said"] = page.t("estimate_none", truth=spread.truth)
        else:
            context["estimate_said"] = page.t(
                "estimate_summary", truth=spread.truth, answers=spread.answers,
                median=spread.median, off=off_by(page.locale, spread.median_off),
            )  # fmt: skip
            context["estimates"] = bar_chart(
                "estimates", page.t("estimate_chart"), page.t("estimate_desc"),
                [
                    Bar(page.t("right_marked", text=b.label) if b.truth else b.label, b.count,
                        str(b.count), highlight=b.truth)
                    for b in spread.bins
                ],
            )  # fmt: skip
    else:
        context["overall"] = bar_chart(
            "choices", page.t("choices_chart"), page.t("choices_desc"), bars(shown.overall)
        )
        context["weeks"] = [
            (heading, bar_chart(f"week-{week.monday}", heading, page.t("choices_desc"), bars(week)))
            for week in shown.weeks
            for heading in [page.t("week_of", day=week.monday)]
        ]
    return shown.title, fragment("question.html", page=page, shown=shown, **context)


def knowledge_map(page: Page, shown: MapPage) -> tuple[str, Markup]:
    """Topics by solid, shaky and not started: a table whose cells are shaded by their
    share of the members (a heatmap that reads without colour too), and its trend."""
    headers = [
        page.t(k) for k in ("col_topic", "col_solid", "col_shaky", "col_not_started", "col_named")
    ]
    return page.t("map_title"), fragment("map.html", page=page, shown=shown, headers=headers)


def participation(page: Page, shown: ParticipationPage) -> tuple[str, Markup]:
    bars = [Bar(day.day, day.players, str(day.players)) for day in shown.days]
    # Week by week, with the change in first-try accuracy from the week before.
    trend, before = [], None
    for week in shown.weeks:
        change = (
            "" if week.accuracy is None or before is None else f" ({week.accuracy - before:+d})"
        )
        trend.append(
            (week.monday, week.players, week.answers, shown_percent(week.accuracy) + change)
        )
        before = week.accuracy if week.accuracy is not None else before
    return page.t("nav_participation"), fragment(
        "participation.html", page=page, shown=shown, windows=_windows(page, shown.periods),
        active=bar_chart("active", page.t("active_chart"), page.t("active_desc"), bars),
        trend=trend, streaks=list(shown.streaks),
        trend_headers=[page.t(k) for k in ("col_week", "col_players", "col_answers",
                                           "col_accuracy")],
    )  # fmt: skip


def _topics(page: Page, topics: tuple[TopicChoice, ...]) -> Options:
    return [(None, page.t("all_topics")), *((topic.id, topic.title) for topic in topics)]


def _windows(page: Page, periods: tuple[str, ...]) -> Options:
    return [(p, page.t(f"insights_period_{p}")) for p in periods]
