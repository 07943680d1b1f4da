"""Insights as the core serves them: the report of a workspace's answers over a
period, its chat view for leads and the dashboard's link (who may see them: the
dispatch's)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace

from bot.content.banks import Bank, Catalog
from bot.domain.clock import Clock
from bot.domain.identities import ScopeRef
from bot.domain.insight_links import Signer
from bot.domain.insight_report import (
    EstimateInsight,
    LoggedAnswer,
    LoggedEstimate,
    QuestionInsight,
    Report,
    build,
    estimate_insights,
)
from bot.domain.periods import ALL, ROLLING_WINDOWS
from bot.persistence import InsightRepository
from bot.services.channel import notice, question_in, refusal
from bot.services.library import Library
from bot.services.requests import Context
from bot.ui.views import (
    ActiveDay,
    DashboardLink,
    EstimateRow,
    FlaggedView,
    InsightsView,
    Notice,
    QuestionRow,
    TopicRow,
)

HARDEST = 3  # questions shown per topic in chat
SHOWN_ESTIMATES = 5  # estimate questions shown in chat, the most biased first
SHOWN_DAYS = 14  # days of participation shown in chat
SHOWN_WEEKS = 6  # weeks of the trend shown in chat
SHOWN_STREAKS = 5
SHOWN_FLAGGED = 15  # flagged questions listed in chat; the dashboard lists them all
PROMPT_CHARS = 90


def shortened(text: str, limit: int = PROMPT_CHARS) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


class Insights:
    def __init__(
        self,
        library: Library,
        insights: InsightRepository,
        clock: Clock,
        *,
        signer: Signer | None = None,
    ):
        """``signer`` makes dashboard links (None: no dashboard is served)."""
        self._library = library
        self._insights = insights
        self._clock = clock
        self.signer = signer

    def dashboard_link(self, context: Context) -> DashboardLink | Notice:
        loc = context.locale
        if self.signer is None:
            return notice(loc, "dashboard_off")
        workspace = ScopeRef(context.scope.platform, context.scope.workspace_id)
        link = self.signer.link(workspace, loc, self._clock.now())
        return DashboardLink(loc, link, round(self.signer.lifetime / 3600))

    async def remember_name(self, scope: ScopeRef, name: str) -> None:
        """The workspace's name as its platform gives it now (it can be renamed)."""
        workspace = ScopeRef(scope.platform, scope.workspace_id)
        if await self._insights.name(workspace) != name:
            await self._insights.set_name(workspace, name[:100])

    async def workspace_name(self, scope: ScopeRef) -> str:
        """The workspace's name, or its platform and id before one is known."""
        name = await self._insights.name(scope)
        return name or f"{scope.platform} · {scope.workspace_id}"

    async def report(
        self, scope: ScopeRef, period: str = ALL, topic: str | None = None
    ) -> tuple[Report, Catalog]:
        """The workspace's report (of one bank id, else all) and the banks it names."""
        catalog = await self._library.of(scope)

        log = await self._insights.log(scope)
        report = await self._build(log, period, catalog, topic)
        return report, catalog

    async def _build(
        self, log: list[LoggedAnswer], period: str, catalog: Catalog, topic: str | None
    ) -> Report:
        """The report of an answer log: work that grows with the log, off the event loop."""
        now, shape = self._clock.now(), _shape(catalog)
        return await asyncio.to_thread(build, log, period, now, shape, topic)

    async def workspaces(self) -> list[ScopeRef]:
        """The workspaces that have answers."""
        return await self._insights.workspaces()

    async def shipped_items(
        self, period: str = ALL, topic: str | None = None
    ) -> tuple[Report, tuple[EstimateInsight, ...]]:
        """The shipped banks' item analysis for their maintainers, pooled over every
        workspace: a player counts once per workspace (ids are only unique within one);
        workspaces' own banks are left out."""
        catalog = self._library.shipped
        log: list[LoggedAnswer] = []
        estimates: list[LoggedEstimate] = []
        for scope in await self.workspaces():
            where = f"{scope.platform}:{scope.workspace_id}:"
            # review ids are unique across workspaces: one log, one sequence.
            log += [
                replace(r, player_id=where + r.player_id) for r in await self._insights.log(scope)
            ]
            estimates += [
                replace(e, player_id=where + e.player_id)
                for e in await self._insights.estimates(scope)
            ]

        report = await self._build(log, period, catalog, topic)
        bank = catalog.get(topic) if topic else None
        chosen = [e for e in estimates if bank is None or e.bank_id == bank.id]
        return report, estimate_insights(chosen, _truth(catalog), report.since)

    async def view(
        self, context: Context, topic: str | None, period: str, *, flagged: bool = False
    ) -> InsightsView | FlaggedView | Notice:
        """The report for chat (of one topic, else all); ``flagged``: only the flagged
        questions, each with why."""
        loc = context.locale
        if period not in ROLLING_WINDOWS:
            period = ALL
        catalog = await self._library.of(context.scope)
        bank = catalog.find(topic) if topic else None
        if topic and bank is None:
            return refusal(context, "bad_topics", "insights", topics=topic)
        report, catalog = await self.report(context.scope, period, bank.id if bank else None)
        if flagged:
            own, shipped = self.flagged_rows(catalog, report, loc)
            shown = own[:SHOWN_FLAGGED]
            rest = shipped[: SHOWN_FLAGGED - len(shown)]
            more = len(own) + len(shipped) - len(shown) - len(rest)
            return FlaggedView(loc, period, shown, rest, more)
        names = await self._insights.names(
            context.scope.platform, [s.player_id for s in report.streaks[:SHOWN_STREAKS]]
        )
        topics, flagged_rows = topic_rows(catalog, report, loc)
        estimates = await self.estimates(context.scope, catalog, report.since, bank)
        return InsightsView(
            locale=loc,
            period=period,
            topic_title=bank.text(bank.title, loc) if bank else None,
            topics=topics,
            flagged=flagged_rows,
            days=tuple(ActiveDay(d.day, d.players) for d in report.days[-SHOWN_DAYS:]),
            weeks=tuple((w.monday, w.players, w.accuracy) for w in report.weeks[-SHOWN_WEEKS:]),
            streaks=tuple(
                (names.get(s.player_id, s.player_id), s.days)
                for s in report.streaks[:SHOWN_STREAKS]
            ),
            estimates=tuple(
                EstimateRow(_prompt(catalog, e, loc), e.answers, e.median, e.spread, e.error)
                for e in estimates[:SHOWN_ESTIMATES]
            ),
        )

    def flagged_rows(
        self, catalog: Catalog, report: Report, locale: str, prompt_chars: int = PROMPT_CHARS
    ) -> tuple[tuple[QuestionRow, ...], tuple[QuestionRow, ...]]:
        """The report's flagged questions: the workspace's own banks' (theirs to fix),
        then the shipped banks'; each group in the report's order (hardest first)."""
        shipped = {bank.id for bank in self._library.shipped.banks}
        rows = [question_row(catalog, q, locale, prompt_chars) for q in report.flagged]
        return (
            tuple(r for r in rows if r.bank_id not in shipped),
            tuple(r for r in rows if r.bank_id in shipped),
        )

    async def estimates(
        self, scope: ScopeRef, catalog: Catalog, since: float | None, bank: Bank | None
    ) -> tuple[EstimateInsight, ...]:
        """How the team estimates, per estimate question (of ``bank``, else all)."""
        log = await self._insights.estimates(scope)
        chosen = [e for e in log if bank is None or e.bank_id == bank.id]
        return estimate_insights(chosen, _truth(catalog), since)


def _shape(catalog: Catalog) -> Callable[[str, str], tuple[int, int] | None]:
    """A question's (number of choices, the right one's index); None for one gone."""

    def shape(bank_id: str, question_id: str) -> tuple[int, int] | None:
        found = question_in(catalog, bank_id, question_id)
        return (len(found[1].choices), found[1].answer) if found else None

    return shape


def _truth(catalog: Catalog) -> Callable[[str, str], float | None]:
    """An estimate question's true value in its base unit; None for any other."""

    def truth(bank_id: str, question_id: str) -> float | None:
        found = question_in(catalog, bank_id, question_id)
        return found[1].estimate.truth.value if found and found[1].estimate else None

    return truth


def _prompt(catalog: Catalog, insight: EstimateInsight, locale: str) -> str:
    found = question_in(catalog, insight.bank_id, insight.question_id)
    assert found is not None  # estimate_insights keeps only these
    bank, question = found
    return shortened(bank.text(question.prompt, locale))


def title_of(catalog: Catalog, bank_id: str, locale: str) -> str:
    bank = catalog.get(bank_id)
    return bank.text(bank.title, locale) if bank else bank_id


def topic_rows(
    catalog: Catalog,
    report: Report,
    locale: str,
    *,
    hardest: int | None = HARDEST,
    prompt_chars: int = PROMPT_CHARS,
) -> tuple[tuple[TopicRow, ...], tuple[QuestionRow, ...]]:
    """The report's topics, each with its ``hardest`` questions that have first tries
    (None: all of them), and its flagged questions; prompts cut to ``prompt_chars``."""
    rows = {
        q: question_row(catalog, q, locale, prompt_chars)
        for t in report.topics
        for q in t.questions
    }
    topics = tuple(
        TopicRow(
            title_of(catalog, t.bank_id, locale),
            t.players,
            t.answers,
            t.accuracy,
            t.retention,
            tuple(rows[q] for q in t.questions[:hardest] if q.first_tries),
        )
        for t in report.topics
    )
    return topics, tuple(rows[q] for q in report.flagged)


def question_row(
    catalog: Catalog, insight: QuestionInsight, locale: str, prompt_chars: int = PROMPT_CHARS
) -> QuestionRow:
    bank = catalog.get(insight.bank_id)
    question = bank.question(insight.question_id) if bank else None
    assert bank is not None and question is not None  # the report keeps only these
    wrong = insight.top_wrong
    return QuestionRow(
        topic_title=bank.text(bank.title, locale),
        bank_id=insight.bank_id,
        question_id=insight.question_id,
        prompt=shortened(bank.text(question.prompt, locale), prompt_chars),
        answers=insight.answers,
        first_tries=insight.first_tries,
        accuracy=insight.accuracy,
        top_wrong=shortened(bank.text(question.choices[wrong], locale), 60)
        if wrong is not None
        else None,
        flags=insight.flags,
        interval=insight.interval,
        discrimination=insight.discrimination,
    )
