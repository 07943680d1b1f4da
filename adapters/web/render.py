"""The dashboard's pages as HTML, from the core's views of them
(``bot.services.dashboard``): a page's title and body, which ``pages.shell`` frames."""

from __future__ import annotations

from html import escape

from bot.services.dashboard import (
    COMPETITION,
    BoardPage,
    EstimateSpread,
    InsightsPage,
    MapPage,
    ParticipationPage,
    Picks,
    QuestionPage,
    TopicChoice,
)
from bot.services.knowledge_service import WeekCell
from bot.ui.layout import off_by, shown_percent
from bot.ui.views import MapRow, QuestionRow

from .charts import Bar, bar_chart
from .pages import Page, choices, selector, table


def leaderboards(page: Page, shown: BoardPage) -> tuple[str, str]:
    periods: list[tuple[str | None, str]] = [(p, page.t(f"period_{p}")) for p in shown.periods]
    if shown.competition:
        periods.append((COMPETITION, shown.competition))
    if shown.period == COMPETITION and shown.competition:
        board = page.t("competition_title", name=shown.competition)
    else:
        board = page.t("leaderboard_title", period=page.t(f"period_{shown.period}"))
    if shown.topic_title:
        board = f"{board} · {shown.topic_title}"
    parts = [
        choices(page, page.t("period_label"), "period", periods),
        _topic_choices(page, shown.topics),
    ]
    if shown.rows:
        bars = [Bar(row.name, row.points, str(row.points)) for row in shown.rows]
        parts.append(
            bar_chart("points", page.t("points_chart"), page.t("points_desc", board=board), bars)
        )
        rows = [
            (str(r.rank), escape(r.name), str(r.points), str(r.correct), str(r.answered))
            for r in shown.rows
        ]
        headers = [
            page.t(k) for k in ("col_rank", "col_name", "col_points", "col_right", "col_answered")
        ]
        parts.append(table(headers, rows, {0, 2, 3, 4}))
    else:
        parts.append(f"<p>{escape(page.t('nothing_yet'))}</p>")
    return board, "".join(parts)


def insights(page: Page, shown: InsightsPage) -> tuple[str, str]:
    title = page.t("insights_title", period=page.t(f"insights_period_{shown.period}"))
    parts = [_windows(page, shown.periods), _topic_choices(page, shown.topics)]
    if not shown.rows:
        parts.append(f"<p>{escape(page.t('insights_empty'))}</p>")
        return title, "".join(parts)
    headers = [
        page.t(k)
        for k in ("col_topic", "col_players", "col_answers", "col_accuracy", "col_retention")
    ]
    cells = [
        (
            escape(t.title),
            str(t.players),
            str(t.answers),
            shown_percent(t.accuracy),
            shown_percent(t.retention),
        )
        for t in shown.rows
    ]
    parts.append(table(headers, cells, {1, 2, 3, 4}))
    for number, topic in enumerate(shown.rows):
        bars = [
            Bar(q.prompt, q.accuracy or 0, f"{shown_percent(q.accuracy)} ({q.first_tries})")
            for q in topic.hardest
        ]
        if bars:
            parts.append(
                bar_chart(
                    f"accuracy-{number}",
                    page.t("accuracy_chart", topic=topic.title),
                    page.t("accuracy_desc"),
                    bars,
                )
            )
    parts.append(f"<h2>{escape(page.t('insights_flagged'))}</h2>")
    if shown.flagged:
        headers = [page.t(k) for k in ("col_question", "col_topic", "col_accuracy", "col_flags")]
        rows = [
            (_question_link(page, q), escape(q.topic_title), _facility(q), _why(page, q))
            for q in shown.flagged
        ]
        parts.append(table(headers, rows, {2}))
    else:
        parts.append(f"<p>{escape(page.t('insights_none_flagged'))}</p>")
    parts.append(_items(page, shown))
    return title, "".join(parts)


def _question_link(page: Page, row: QuestionRow) -> str:
    return (
        f'<a href="{page.href(f"question/{row.bank_id}/{row.question_id}")}">'
        f"{escape(row.prompt)}</a>"
    )


def _facility(row: QuestionRow) -> str:
    """First-try accuracy and its 95 % interval: "55% (34–74%)"."""
    if row.interval is None:
        return shown_percent(row.accuracy)
    low, high = row.interval
    return escape(f"{shown_percent(row.accuracy)} ({low}–{high}%)")


def _why(page: Page, row: QuestionRow) -> str:
    return escape("; ".join(page.t(f"flag_{flag}") for flag in row.flags))


def _items(page: Page, shown: InsightsPage) -> str:
    """Every question tried: its facility, discrimination and flags; each sortable column's
    heading is a link that orders the table by it (no script)."""
    columns = [
        ("col_question", None), ("col_topic", None), ("col_first_tries", "tries"),
        ("col_facility", "facility"), ("col_discrimination", "discrimination"),
        ("col_flags", "flags"),
    ]  # fmt: skip
    headers = [
        page.t(key)
        if order is None or order == shown.sort
        else (page.t(key), page.href(sort=order))
        for key, order in columns
    ]
    rows = [
        (
            _question_link(page, q), escape(q.topic_title), str(q.first_tries), _facility(q),
            "—" if q.discrimination is None else f"{q.discrimination:+.2f}", _why(page, q),
        )
        for q in shown.items
    ]  # fmt: skip
    heading = f"<h2>{escape(page.t('items_title'))}</h2>"
    note = f'<p class="note">{escape(page.t("items_note"))}</p>'
    return heading + note + table(headers, rows, {2, 3, 4}) if rows else ""


def question(page: Page, shown: QuestionPage) -> tuple[str, str]:
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

    parts = [f"<p>{escape(shown.prompt)}</p>"]
    if shown.estimate is not None:
        return shown.title, "".join(parts) + _estimates(page, shown.estimate)
    parts.append(
        bar_chart("choices", page.t("choices_chart"), page.t("choices_desc"), bars(shown.overall))
    )
    for week in shown.weeks:
        heading = page.t("week_of", day=week.monday)
        parts.append(f"<h2>{escape(heading)}</h2>")
        parts.append(bar_chart(f"week-{week.monday}", heading, page.t("choices_desc"), bars(week)))
    return shown.title, "".join(parts)


def _estimates(page: Page, spread: EstimateSpread) -> str:
    """An estimate question's first estimates on a log axis, the truth's range marked."""
    if spread.median is None:
        told = page.t("estimate_none", truth=spread.truth)
        return f"<p>{escape(told)}</p>"
    said = page.t(
        "estimate_summary",
        truth=spread.truth,
        answers=spread.answers,
        median=spread.median,
        off=off_by(page.locale, spread.median_off),
    )
    bars = [
        Bar(page.t("right_marked", text=b.label) if b.truth else b.label, b.count, str(b.count),
            highlight=b.truth)
        for b in spread.bins
    ]  # fmt: skip
    chart = bar_chart("estimates", page.t("estimate_chart"), page.t("estimate_desc"), bars)
    return f"<p>{escape(said)}</p>{chart}"


# The heatmap's cells: white to this blue by the share of members; at its strongest the
# background stays light enough for the page's near-black text (contrast ≥ 7:1, WCAG AAA).
HEAT = (42, 111, 219)
HEAT_MAX = 0.5


def _shaded(part: int, whole: int, text: str) -> str:
    """A heatmap cell, shaded by ``part`` of ``whole``; ``text`` already escaped."""
    share = part / whole if whole else 0.0
    red, green, blue = HEAT
    shade = f"rgba({red},{green},{blue},{share * HEAT_MAX:.2f})"
    return f'<td class="heat" style="background:{shade}">{text}</td>'


def _heat(count: int | None, members: int) -> str:
    """A heatmap cell: the count and its share of the members, shaded by that share."""
    if count is None:
        return '<td class="heat">—</td>'
    share = round(100 * count / members) if members else 0
    return _shaded(count, members, f"{count} ({share}%)")


def _named(page: Page, row: MapRow) -> str:
    """Those who opted in to be named, by how they stand: "solid: Ana · shaky: Bo"."""
    named = [
        page.t(f"map_names_{kind}", names=", ".join(names))
        for kind, names in (("solid", row.solid_names), ("shaky", row.shaky_names))
        if names
    ]
    return escape(" · ".join(named))


def knowledge_map(page: Page, shown: MapPage) -> tuple[str, str]:
    """Topics by solid, shaky and not started: a table whose cells are shaded by their
    share of the members (a heatmap that reads without colour too)."""
    title = page.t("map_title")
    if not shown.rows:
        return title, f"<p>{escape(page.t('map_empty'))}</p>"
    headers = [
        page.t(k) for k in ("col_topic", "col_solid", "col_shaky", "col_not_started", "col_named")
    ]
    body = "".join(
        f"<tr><td>{escape(r.title)}</td>{_heat(r.solid, r.members)}{_heat(r.shaky, r.members)}"
        f"{_heat(r.members - r.started, r.members)}<td>{_named(page, r)}</td></tr>"
        for r in shown.rows
    )
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in headers)
    note = escape(page.t("map_note", floor=shown.floor))
    return title, (
        f'<div class="wide"><table id="map"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
        f'<p class="note">{note}</p>{_map_trend(page, shown)}'
    )


def _map_trend(page: Page, shown: MapPage) -> str:
    """Solid of started per topic, week by week, as each week began (recorded then)."""
    if not shown.trend:
        return ""

    def cell(week: WeekCell | None) -> str:
        if week is None:
            return '<td class="heat">—</td>'
        if week.solid is None:  # under the floor that week: how many had started only
            return f'<td class="heat">({week.started})</td>'
        return _shaded(week.solid, week.started, f"{week.solid}/{week.started}")

    head = f'<th scope="col">{escape(page.t("col_topic"))}</th>' + "".join(
        f'<th scope="col" class="n">{escape(monday[5:])}</th>' for monday in shown.mondays
    )
    body = "".join(
        f"<tr><td>{escape(t.title)}</td>{''.join(cell(w) for w in t.weeks)}</tr>"
        for t in shown.trend
    )
    return (
        f"<h2>{escape(page.t('map_trend_title'))}</h2>"
        f'<p class="note">{escape(page.t("map_trend_note"))}</p>'
        # Eight weeks are wider than a phone: the table scrolls, not the page.
        f'<div class="wide"><table id="map-trend"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def participation(page: Page, shown: ParticipationPage) -> tuple[str, str]:
    title = page.t("nav_participation")
    parts = [_windows(page, shown.periods)]
    if not shown.days:
        parts.append(f"<p>{escape(page.t('nothing_yet'))}</p>")
        return title, "".join(parts)
    bars = [Bar(day.day, day.players, str(day.players)) for day in shown.days]
    parts.append(bar_chart("active", page.t("active_chart"), page.t("active_desc"), bars))
    parts.append(_trend(page, shown))
    rows = [(escape(name), str(days)) for name, days in shown.streaks]
    if rows:
        parts.append(table([page.t("col_name"), page.t("col_streak")], rows, {1}))
    return title, "".join(parts)


def _trend(page: Page, shown: ParticipationPage) -> str:
    """Week by week: players, answers and first-try accuracy, with the change in accuracy
    from the week before."""
    rows = []
    before: int | None = None
    for week in shown.weeks:
        change = (
            "" if week.accuracy is None or before is None else f" ({week.accuracy - before:+d})"
        )
        rows.append(
            (
                escape(week.monday), str(week.players), str(week.answers),
                escape(shown_percent(week.accuracy) + change),
            )
        )  # fmt: skip
        before = week.accuracy if week.accuracy is not None else before
    headers = [page.t(k) for k in ("col_week", "col_players", "col_answers", "col_accuracy")]
    heading = f"<h2>{escape(page.t('trend_title'))}</h2>"
    return heading + table(headers, rows, {1, 2, 3}) if rows else ""


def _topic_choices(page: Page, topics: tuple[TopicChoice, ...]) -> str:
    options: list[tuple[str | None, str]] = [(None, page.t("all_topics"))]
    options += [(topic.id, topic.title) for topic in topics]
    return selector(page, page.t("topic_label"), "topic", options)


def _windows(page: Page, periods: tuple[str, ...]) -> str:
    options = [(p, page.t(f"insights_period_{p}")) for p in periods]
    return choices(page, page.t("period_label"), "period", options)
