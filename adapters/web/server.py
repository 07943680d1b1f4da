"""The dashboard's routes. Every page sits under its link's token
(``/dashboard/<token>/…``): the token names the one workspace the page may show, so
nothing of a workspace is visible without its link; a forged or expired one gets 403."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from html import escape

from aiohttp import web

from bot.content.banks import Catalog
from bot.domain.clock import period_key
from bot.domain.insight_links import Access, Signer
from bot.domain.insight_report import PERIOD_DAYS, QuestionInsight, day_of
from bot.persistence import ALL_BANKS
from bot.services.engine import Engine
from bot.services.insights import shortened, title_of
from bot.ui import i18n
from bot.ui.layout import shown_percent

from .charts import Bar, bar_chart
from .pages import Page, choices, refused, shell, table

log = logging.getLogger(__name__)

BOARD_PERIODS = ("all", "week", "month")
# A page: its title and body (HTML), or None for one that does not exist.
Builder = Callable[[web.Request, Access, Page], Awaitable[tuple[str, str] | None]]
SHOWN_WEEKS = 8


def viewer_locale(request: web.Request, granted: str | None) -> str:
    """``?lang=``, else the browser's Accept-Language, else the link's language."""
    asked = i18n.supported(request.query.get("lang", ""))
    if asked:
        return asked
    for part in request.headers.get("Accept-Language", "").split(","):
        found = i18n.supported(part.split(";")[0].strip())
        if found:
            return found
    return granted or i18n.DEFAULT_LOCALE


class Dashboard:
    def __init__(self, engine: Engine, signer: Signer):
        self._engine = engine
        self._signer = signer

    def routes(self, app: web.Application) -> None:
        app.router.add_get("/dashboard/{token}/", self._page(self._leaderboards, ""))
        app.router.add_get("/dashboard/{token}/insights", self._page(self._insights, "insights"))
        app.router.add_get(
            "/dashboard/{token}/participation", self._page(self._participation, "participation")
        )
        app.router.add_get(
            "/dashboard/{token}/question/{bank}/{question}", self._page(self._question, "question")
        )
        app.router.add_get("/dashboard/{tail:.*}", self._unknown)

    def _page(self, build: Builder, path: str) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handle(request: web.Request) -> web.Response:
            access = self._signer.check(request.match_info["token"], self._engine.clock.now())
            if isinstance(access, str):
                locale = viewer_locale(request, None)
                return _html(refused(locale, access), 403)
            page = Page(
                viewer_locale(request, access.locale),
                f"/dashboard/{request.match_info['token']}/",
                path,
                {k: v for k, v in request.query.items() if k != "lang"},
            )
            found = await build(request, access, page)
            if found is None:
                return _html(refused(page.locale, "not_found"), 404)
            title, body = found
            workspace = f"{access.scope.platform} · {access.scope.workspace_id}"
            expires = datetime.fromtimestamp(access.expires, UTC).strftime("%Y-%m-%d %H:%M")
            body += f'<p class="note">{escape(page.t("link_expires", when=expires))}</p>'
            return _html(shell(page, title, body, workspace))

        return handle

    async def _unknown(self, request: web.Request) -> web.Response:
        return _html(refused(viewer_locale(request, None), "not_found"), 404)

    async def _catalog(self, access: Access) -> Catalog:
        return await self._engine.library.of(access.scope)

    # --- pages ---------------------------------------------------------------------

    async def _leaderboards(
        self, request: web.Request, access: Access, page: Page
    ) -> tuple[str, str] | None:
        store, now = self._engine.store, self._engine.clock.now()
        catalog = await self._catalog(access)
        competition = await store.competitions.latest(access.scope)
        periods: list[tuple[str | None, str]] = [(p, page.t(f"period_{p}")) for p in BOARD_PERIODS]
        if competition:
            periods.append(("competition", competition.name))
        period = page.query.get("period", "all")
        topic = page.query.get("topic")
        bank = catalog.get(topic) if topic else None
        if period not in dict(periods) or (topic and bank is None):
            return None
        if period == "competition" and competition:
            key, board = competition.period, page.t("competition_title", name=competition.name)
        else:
            key = period_key(period, now)
            board = page.t("leaderboard_title", period=page.t(f"period_{period}"))
        if bank:
            board = f"{board} · {bank.text(bank.title, page.locale)}"
        standing = await store.boards.standing(
            access.scope, bank.id if bank else ALL_BANKS, key, None
        )
        parts = [
            choices(page, page.t("period_label"), "period", periods),
            _topic_choices(page, catalog),
        ]
        if standing.rows:
            bars = [
                Bar(row.name or row.player_id, row.points, str(row.points)) for row in standing.rows
            ]
            parts.append(
                bar_chart(
                    "points", page.t("points_chart"), page.t("points_desc", board=board), bars
                )
            )
            rows = [
                (
                    str(r.rank),
                    escape(r.name or r.player_id),
                    str(r.points),
                    str(r.correct),
                    str(r.answered),
                )
                for r in standing.rows
            ]
            headers = [
                page.t(k)
                for k in ("col_rank", "col_name", "col_points", "col_right", "col_answered")
            ]
            parts.append(table(headers, rows, {0, 2, 3, 4}))
        else:
            parts.append(f"<p>{escape(page.t('nothing_yet'))}</p>")
        return board, "".join(parts)

    async def _insights(
        self, request: web.Request, access: Access, page: Page
    ) -> tuple[str, str] | None:
        period = page.query.get("period", "all")
        topic = page.query.get("topic")
        if period not in PERIOD_DAYS:
            return None
        report, catalog = await self._engine.insights.report(access.scope, period, topic)
        title = page.t("insights_title", period=page.t(f"insights_period_{period}"))
        parts = [_insight_periods(page), _topic_choices(page, catalog)]
        if not report.topics:
            parts.append(f"<p>{escape(page.t('insights_empty'))}</p>")
            return title, "".join(parts)
        headers = [
            page.t(k)
            for k in ("col_topic", "col_players", "col_answers", "col_accuracy", "col_retention")
        ]
        parts.append(
            table(
                headers,
                [
                    (
                        escape(title_of(catalog, t.bank_id, page.locale)),
                        str(t.players),
                        str(t.answers),
                        shown_percent(t.accuracy),
                        shown_percent(t.retention),
                    )
                    for t in report.topics
                ],
                {1, 2, 3, 4},
            )
        )
        for number, insight in enumerate(report.topics):
            name = title_of(catalog, insight.bank_id, page.locale)
            tried = [q for q in insight.questions if q.first_tries]
            bars = [
                Bar(
                    self._prompt(catalog, q, page.locale),
                    q.accuracy or 0,
                    f"{shown_percent(q.accuracy)} ({q.first_tries})",
                )
                for q in tried
            ]
            if bars:
                parts.append(
                    bar_chart(
                        f"accuracy-{number}",
                        page.t("accuracy_chart", topic=name),
                        page.t("accuracy_desc"),
                        bars,
                    )
                )
        parts.append(f"<h2>{escape(page.t('insights_flagged'))}</h2>")
        if report.flagged:
            headers = [
                page.t(k) for k in ("col_question", "col_topic", "col_accuracy", "col_flags")
            ]
            rows = [
                (
                    f'<a href="{page.href(f"question/{q.bank_id}/{q.question_id}")}">'
                    f"{escape(self._prompt(catalog, q, page.locale))}</a>",
                    escape(title_of(catalog, q.bank_id, page.locale)),
                    shown_percent(q.accuracy),
                    escape("; ".join(page.t(f"flag_{flag}") for flag in q.flags)),
                )
                for q in report.flagged
            ]
            parts.append(table(headers, rows, {2}))
        else:
            parts.append(f"<p>{escape(page.t('insights_none_flagged'))}</p>")
        return title, "".join(parts)

    async def _question(
        self, request: web.Request, access: Access, page: Page
    ) -> tuple[str, str] | None:
        bank_id, question_id = request.match_info["bank"], request.match_info["question"]
        catalog = await self._catalog(access)
        bank = catalog.get(bank_id)
        question = bank.question(question_id) if bank else None
        if bank is None or question is None:
            return None
        log = [
            row
            for row in await self._engine.store.insights.log(access.scope, (bank_id, question_id))
            if 0 <= row.choice < len(question.choices)
        ]
        texts = [bank.text(c, page.locale) for c in question.choices]

        def bars(rows: list[int]) -> list[Bar]:
            return [
                Bar(
                    page.t("right_marked", text=text) if i == question.answer else text,
                    rows[i],
                    str(rows[i]),
                    highlight=i == question.answer,
                )
                for i, text in enumerate(texts)
            ]

        overall = [0] * len(texts)
        weeks: dict[str, list[int]] = {}
        for row in log:
            overall[row.choice] += 1
            day = day_of(row.at)
            monday = (day - timedelta(days=day.weekday())).isoformat()
            weeks.setdefault(monday, [0] * len(texts))[row.choice] += 1
        title = shortened(bank.text(question.prompt, page.locale))
        parts = [f"<p>{escape(bank.text(question.prompt, page.locale))}</p>"]
        parts.append(
            bar_chart("choices", page.t("choices_chart"), page.t("choices_desc"), bars(overall))
        )
        for monday in sorted(weeks)[-SHOWN_WEEKS:]:
            heading = page.t("week_of", day=monday)
            parts.append(f"<h2>{escape(heading)}</h2>")
            parts.append(
                bar_chart(f"week-{monday}", heading, page.t("choices_desc"), bars(weeks[monday]))
            )
        return title, "".join(parts)

    async def _participation(
        self, request: web.Request, access: Access, page: Page
    ) -> tuple[str, str] | None:
        period = page.query.get("period", "month")
        if period not in PERIOD_DAYS:
            return None
        report, _ = await self._engine.insights.report(access.scope, period)
        title = page.t("nav_participation")
        parts = [_insight_periods(page)]
        if not report.days:
            parts.append(f"<p>{escape(page.t('nothing_yet'))}</p>")
            return title, "".join(parts)
        bars = [Bar(day.day, day.players, str(day.players)) for day in report.days]
        parts.append(bar_chart("active", page.t("active_chart"), page.t("active_desc"), bars))
        names = await self._engine.store.insights.names(
            access.scope.platform, [s.player_id for s in report.streaks]
        )
        rows = [(escape(names.get(s.player_id, s.player_id)), str(s.days)) for s in report.streaks]
        if rows:
            parts.append(table([page.t("col_name"), page.t("col_streak")], rows, {1}))
        return title, "".join(parts)

    @staticmethod
    def _prompt(catalog: Catalog, insight: QuestionInsight, locale: str) -> str:
        bank = catalog.get(insight.bank_id)
        question = bank.question(insight.question_id) if bank else None
        assert bank is not None and question is not None  # the report keeps only these
        return shortened(bank.text(question.prompt, locale), 60)


def _topic_choices(page: Page, catalog: Catalog) -> str:
    topics: list[tuple[str | None, str]] = [(None, page.t("all_topics"))]
    topics += [(b.id, b.text(b.title, page.locale)) for b in catalog.banks]
    return choices(page, page.t("topic_label"), "topic", topics)


def _insight_periods(page: Page) -> str:
    periods = [(p, page.t(f"insights_period_{p}")) for p in PERIOD_DAYS]
    return choices(page, page.t("period_label"), "period", periods)


def _html(body: str, status: int = 200) -> web.Response:
    return web.Response(
        text=body,
        status=status,
        content_type="text/html",
        headers={
            # Nothing but what the bot serves; no script at all; the token stays private.
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline';"
            " img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
        },
    )


def dashboard_app(
    engine: Engine, signer: Signer, app: web.Application | None = None
) -> web.Application:
    """The dashboard's routes, on their own application or added to ``app``."""
    app = app or web.Application()
    Dashboard(engine, signer).routes(app)
    return app
