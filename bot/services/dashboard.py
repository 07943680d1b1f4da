"""The dashboard's pages as the core serves them, for the one workspace a signed link
grants: its leaderboards (by calendar period, or the latest competition's, and topic), its
insights, one question's answers week by week, and who took part. Each page is a frozen
view the web adapter renders; None is a page that does not exist (an unknown period,
topic or question), which the adapter answers with 404."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from bot.content.banks import Catalog, Question
from bot.domain.clock import Clock
from bot.domain.crowd import crowd
from bot.domain.identities import ScopeRef
from bot.domain.insight_report import WeekActivity, day_of, first_estimates
from bot.domain.knowledge_map import FLOOR
from bot.domain.periods import ALL, CALENDAR_PERIODS, MONTH, ROLLING_WINDOWS, calendar_key
from bot.persistence import ALL_BANKS, BoardRepository, InsightRepository
from bot.services.channel import estimate_range, leader_row, question_in
from bot.services.competition_service import Competitions
from bot.services.insights import Insights, shortened, topic_rows
from bot.services.knowledge_service import KnowledgeMaps, TopicTrend
from bot.services.library import Library
from bot.ui.views import ActiveDay, LeaderRow, MapRow, QuestionRow, TopicRow

# The item table's orders: the flagged first (then hardest), hardest first, least
# discriminating first, most first tries first.
ITEM_ORDERS: dict[str, Callable[[QuestionRow], tuple[float, ...]]] = {
    "flags": lambda q: (-len(q.flags), _facility(q)),
    "facility": lambda q: (_facility(q),),
    "discrimination": lambda q: (2.0 if q.discrimination is None else q.discrimination,),
    "tries": lambda q: (-q.first_tries,),
}
COMPETITION = "competition"  # the board period of the workspace's latest competition
SHOWN_WEEKS = 8  # a question's most recent weeks with answers, one chart each
# A question's prompt on the dashboard, in a link or as a chart label (which shortens it to
# fit its chart and keeps it whole in its title, shown on hover).
LABEL_CHARS = 300


@dataclass(frozen=True)
class TopicChoice:
    id: str
    title: str


@dataclass(frozen=True)
class BoardPage:
    period: str  # one of ``periods``, or competition
    periods: tuple[str, ...]  # the calendar periods offered
    competition: str | None  # the latest competition's name: its board is offered too
    topic_title: str | None  # None: all topics
    topics: tuple[TopicChoice, ...]
    rows: tuple[LeaderRow, ...]


@dataclass(frozen=True)
class InsightsPage:
    period: str  # one of ``periods``
    periods: tuple[str, ...]  # the rolling windows offered
    topics: tuple[TopicChoice, ...]
    rows: tuple[TopicRow, ...]  # each with every question tried, hardest first
    flagged: tuple[QuestionRow, ...]  # the workspace's own banks' first (theirs to fix)
    items: tuple[QuestionRow, ...] = ()  # every question tried, in ``sort``'s order
    sort: str = "flags"


@dataclass(frozen=True)
class Picks:
    """Answers per choice (bank order) over a span: all time, or the week of a Monday."""

    monday: str | None  # ISO date; None: all time
    counts: tuple[int, ...]


@dataclass(frozen=True)
class EstimateBin:
    label: str  # the values it holds, "288 KiB – 910 KiB"
    count: int
    truth: bool  # the truth's bin


@dataclass(frozen=True)
class EstimateSpread:
    """An estimate question's first estimates on a log axis (``bot.domain.crowd``)."""

    truth: str  # as the bank writes it
    answers: int
    median: str | None  # the team's median estimate; None before any
    median_off: float  # the median / the truth
    bins: tuple[EstimateBin, ...]


@dataclass(frozen=True)
class QuestionPage:
    title: str  # the prompt, shortened
    prompt: str
    choices: tuple[str, ...]  # bank order; none for an estimate
    answer: int  # the right choice's index
    overall: Picks
    weeks: tuple[Picks, ...]  # the most recent weeks with answers, oldest first
    estimate: EstimateSpread | None = None  # an estimate question's answers


@dataclass(frozen=True)
class ParticipationPage:
    periods: tuple[str, ...]  # the rolling windows offered
    days: tuple[ActiveDay, ...]  # every day with answers in the window, oldest first
    streaks: tuple[tuple[str, int], ...]  # (name, days), longest first
    weeks: tuple[WeekActivity, ...] = ()  # the trend, week by week, oldest first


@dataclass(frozen=True)
class MapPage:
    """The team's knowledge map as a lead sees it: names only of those who opted in."""

    rows: tuple[MapRow, ...]  # the most started topics first
    floor: int
    mondays: tuple[str, ...] = ()  # the trend's weeks, oldest first
    trend: tuple[TopicTrend, ...] = ()


class Dashboard:
    def __init__(
        self,
        library: Library,
        insights: Insights,
        competitions: Competitions,
        boards: BoardRepository,
        answers: InsightRepository,
        clock: Clock,
        maps: KnowledgeMaps,
    ):
        self._maps = maps
        self._library = library
        self._insights = insights
        self._competitions = competitions
        self._boards = boards
        self._answers = answers
        self._clock = clock

    async def knowledge(self, scope: ScopeRef, locale: str) -> MapPage:
        mondays, trend = await self._maps.trend(scope, locale)
        return MapPage(await self._maps.rows(scope, locale, None), FLOOR, mondays, trend)

    async def workspace_name(self, scope: ScopeRef) -> str:
        return await self._insights.workspace_name(scope)

    async def leaderboard(
        self, scope: ScopeRef, locale: str, period: str | None, topic: str | None
    ) -> BoardPage | None:
        """A board of a calendar period (all time unless ``period`` names one) or of the
        latest competition, of one bank id or of every topic."""
        catalog = await self._library.of(scope)
        competition = await self._competitions.latest(scope)
        period = ALL if period is None else period
        bank = catalog.get(topic) if topic else None
        if topic and bank is None:
            return None
        if period == COMPETITION and competition:
            key = competition.period
        elif period in CALENDAR_PERIODS:
            key = calendar_key(period, self._clock.now())
        else:
            return None
        standing = await self._boards.standing(scope, bank.id if bank else ALL_BANKS, key, None)
        return BoardPage(
            period,
            CALENDAR_PERIODS,
            competition.name if competition else None,
            bank.text(bank.title, locale) if bank else None,
            _topics(catalog, locale),
            tuple(map(leader_row, standing.rows)),
        )

    async def insights(
        self,
        scope: ScopeRef,
        locale: str,
        period: str | None,
        topic: str | None,
        sort: str | None = None,
    ) -> InsightsPage | None:
        """The report over a rolling window (all time unless ``period`` names one), of one
        bank id or of every topic, with its item table in the order ``sort`` names."""
        period = ALL if period is None else period
        sort = "flags" if sort is None else sort
        if period not in ROLLING_WINDOWS or sort not in ITEM_ORDERS:
            return None
        report, catalog = await self._insights.report(scope, period, topic)
        rows, _ = topic_rows(catalog, report, locale, hardest=None, prompt_chars=LABEL_CHARS)
        own, shipped = self._insights.flagged_rows(catalog, report, locale, LABEL_CHARS)
        flagged = own + shipped
        # Stable sorts: ties keep the report's order (per topic, hardest first).
        items = sorted((q for t in rows for q in t.hardest), key=ITEM_ORDERS[sort])
        return InsightsPage(
            period, ROLLING_WINDOWS, _topics(catalog, locale), rows, flagged, tuple(items), sort
        )

    async def question(
        self, scope: ScopeRef, locale: str, bank_id: str, question_id: str
    ) -> QuestionPage | None:
        """How often each choice of a question was picked, overall and week by week."""
        found = question_in(await self._library.of(scope), bank_id, question_id)
        if found is None:
            return None
        bank, question = found
        prompt = bank.text(question.prompt, locale)
        if question.estimate is not None:
            spread = await self._spread(scope, bank_id, question)
            return QuestionPage(shortened(prompt), prompt, (), -1, Picks(None, ()), (), spread)
        choices = len(question.choices)
        overall = [0] * choices
        weeks: dict[str, list[int]] = {}
        for row in await self._answers.log(scope, (bank_id, question_id)):
            if not 0 <= row.choice < choices:  # a choice the bank no longer has
                continue
            overall[row.choice] += 1
            day = day_of(row.at)
            monday = (day - timedelta(days=day.weekday())).isoformat()
            weeks.setdefault(monday, [0] * choices)[row.choice] += 1
        return QuestionPage(
            shortened(prompt),
            prompt,
            tuple(bank.text(choice, locale) for choice in question.choices),
            question.answer,
            Picks(None, tuple(overall)),
            tuple(Picks(m, tuple(weeks[m])) for m in sorted(weeks)[-SHOWN_WEEKS:]),
        )

    async def _spread(self, scope: ScopeRef, bank_id: str, question: Question) -> EstimateSpread:
        """Each member's first estimate of ``question``, in quizzes and daily posts."""
        estimate = question.estimate
        assert estimate is not None
        key = (bank_id, question.id)
        log = await self._answers.estimates(scope, key)
        values = list(first_estimates(log).get(key, {}).values())
        truth = estimate.truth.value
        found = crowd([value / truth for value in values])
        return EstimateSpread(
            estimate.written,
            len(values),
            estimate.shown(found.median * truth) if found else None,
            found.median if found else 1.0,
            tuple(
                EstimateBin(estimate_range(question, part), part.count, part.truth)
                for part in (found.bins if found else ())
            ),
        )

    async def participation(self, scope: ScopeRef, period: str | None) -> ParticipationPage | None:
        """Players per day and their streaks over a rolling window (the last month unless
        ``period`` names one)."""
        period = MONTH if period is None else period
        if period not in ROLLING_WINDOWS:
            return None
        report, _ = await self._insights.report(scope, period)
        names = await self._answers.names(scope.platform, [s.player_id for s in report.streaks])
        return ParticipationPage(
            ROLLING_WINDOWS,
            tuple(ActiveDay(d.day, d.players) for d in report.days),
            tuple((names.get(s.player_id, s.player_id), s.days) for s in report.streaks),
            report.weeks,
        )


def _facility(row: QuestionRow) -> float:
    return 101.0 if row.accuracy is None else float(row.accuracy)


def _topics(catalog: Catalog, locale: str) -> tuple[TopicChoice, ...]:
    return tuple(TopicChoice(b.id, b.text(b.title, locale)) for b in catalog.banks)
