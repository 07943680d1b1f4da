"""A member's home: what a platform's home page (Slack's App Home tab) shows them, read
from what the other services already answer — their cards due today, their streak, their
stats per topic and their review reminder; for admins, the team's flagged questions and
the dashboard's link. Read-only, and free of any platform: each adapter lays it out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.domain.clock import Clock
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.insight_report import day_of, streaks
from bot.persistence.activity import ActivityRepository
from bot.services.insights import Insights
from bot.services.knowledge_service import KnowledgeMaps
from bot.services.quiz_service import Quizzes
from bot.services.reminder_service import Reminders
from bot.services.requests import Context
from bot.services.stats_service import PlayerStats
from bot.ui.views import DashboardLink, Notice, Stats

if TYPE_CHECKING:
    from bot.services.engine import Engine


@dataclass(frozen=True)
class TeamSummary:
    """What an admin's home says of the team: how many questions the item analysis flags
    (all time, as ``insights`` shows them by default) and the dashboard's link, or the
    notice that there is no dashboard."""

    flagged: int
    dashboard: DashboardLink | Notice
    mapped: int = 0  # topics of the knowledge map started by enough members to show
    solid: int = 0  # members solid in them, summed over those topics
    started: int = 0  # members who started them, summed likewise


@dataclass(frozen=True)
class MemberHome:
    locale: str
    stats: Stats  # per topic, and the cards due today (``stats.due``)
    streak: int  # days in a row with an answer, up to today or yesterday (as insights count)
    reminder: Notice  # the review reminder's status, as ``remind status`` says it
    next_review_in: int | None  # days until a card is due; None: no cards yet
    team: TeamSummary | None  # for admins only


class Homes:
    def __init__(
        self,
        stats: PlayerStats,
        reminders: Reminders,
        quiz: Quizzes,
        insights: Insights,
        activity: ActivityRepository,
        clock: Clock,
        maps: KnowledgeMaps,
    ):
        self._maps = maps
        self._stats = stats
        self._reminders = reminders
        self._quiz = quiz
        self._insights = insights
        self._activity = activity
        self._clock = clock

    async def home(self, context: Context, admin: bool) -> MemberHome:
        """The member's home in ``context.locale`` (resolved by the caller); with the
        team's summary when ``admin``."""
        player, scope = context.player, context.scope
        stats = await self._stats.view(player, scope, context.locale)
        return MemberHome(
            locale=context.locale,
            stats=stats,
            streak=await self.streak(player, scope),
            reminder=await self._reminders.status(context),
            next_review_in=None if stats.due else await self._quiz.next_review_in(player, scope),
            team=await self.team_summary(context) if admin else None,
        )

    async def streak(self, player: PlayerRef, scope: ScopeRef) -> int:
        """The player's streak, by the insights' own rule (``insight_report.streaks``)."""
        days = {day_of(at): {player.id} for at in await self._activity.answered_at(player, scope)}
        found = streaks(days, day_of(self._clock.now()))
        return found[0].days if found else 0

    async def team_summary(self, context: Context) -> TeamSummary:
        """What an admin's home says of the team (each platform lays it out in one place)."""
        report, _ = await self._insights.report(context.scope)
        mapped, _ = await self._maps.topics(context.scope)
        shown = [t for t in mapped if t.solid is not None]
        return TeamSummary(
            len(report.flagged),
            self._insights.dashboard_link(context),
            len(shown),
            sum(t.solid or 0 for t in shown),
            sum(t.started for t in shown),
        )


def homes_of(engine: Engine) -> Homes:
    """The homes of the engine's services and store."""
    return Homes(
        engine.player_stats,
        engine.reminders,
        engine.quiz,
        engine.insights,
        ActivityRepository(engine.store.database),
        engine.clock,
        engine.maps,
    )
