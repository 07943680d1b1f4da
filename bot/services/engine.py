"""The engine: the composition root of the core, which every adapter calls. It builds
the services (the personal quiz, leaderboards, stats, channel play, banks, insights…),
holds them, and answers commands and clicks through them."""

from __future__ import annotations

import random
import time

from bot.content.banks import Catalog
from bot.domain import actions
from bot.domain.clock import Clock, SystemClock
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.insight_links import Signer
from bot.operations import metrics
from bot.operations.offload import Offload
from bot.operations.tasks import Supervisor
from bot.persistence import Store
from bot.services import dispatch
from bot.services.channel import Publishers, notice
from bot.services.competition_service import Competitions
from bot.services.daily_service import COUNT_REFRESH, DailyQuestions
from bot.services.dashboard import Dashboard
from bot.services.health import Health
from bot.services.insights import Insights
from bot.services.installs import GRACE_DAYS, Installs
from bot.services.knowledge_service import KnowledgeMaps
from bot.services.leaderboard_service import Leaderboards
from bot.services.library import Library
from bot.services.player_service import Players
from bot.services.quiz_service import Quizzes
from bot.services.race_service import Races
from bot.services.reminder_service import Reminders
from bot.services.requests import (
    AnswerDailyEstimate,
    AnswerEstimate,
    Context,
    PlayButton,
    Reply,
    Request,
)
from bot.services.scheduler import Scheduler
from bot.services.stats_service import PlayerStats
from bot.services.topics import topic_list
from bot.services.workspace_banks import WorkspaceBanks
from bot.ui import i18n
from bot.ui.views import (
    ChannelFeedback,
    EstimateForm,
    Feedback,
    Notice,
    QuestionView,
    RaceLockedView,
    TopicList,
)


class Engine:
    # The services the dispatch's table calls, declared: mypy reads the table (module-level
    # code) before it has inferred the attributes set in __init__.
    players: Players
    quiz: Quizzes
    boards: Leaderboards
    player_stats: PlayerStats
    reminders: Reminders
    daily: DailyQuestions
    races: Races
    competitions: Competitions
    banks: WorkspaceBanks
    insights: Insights
    maps: KnowledgeMaps

    def __init__(
        self,
        catalog: Catalog,
        store: Store,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        *,
        default_locale: str = i18n.DEFAULT_LOCALE,
        quiz_length: int | None = None,
        reveal_hours: float | None = None,
        count_refresh: float = COUNT_REFRESH,
        tasks: Supervisor | None = None,
        insights_for_everyone: bool = False,
        dashboard: Signer | None = None,
        forget_after_days: float = GRACE_DAYS,
        offload: Offload | None = None,
    ):
        """Builds every service. ``reveal_hours``: a daily reveal's delay when the command
        names none; ``count_refresh``: how often a daily post's answer count is edited;
        ``tasks``: the owner of background tasks (the caller closes it);
        ``forget_after_days``: how long a workspace's data outlives its removing the app;
        ``offload``: where work on uploaded and stored banks runs, off the event loop."""
        self.offload = offload or Offload()
        self.library = Library(
            catalog, store.workspace_banks, shared=store.database.postgres, offload=self.offload
        )
        self.store = store
        self.clock = clock or SystemClock()
        self.default_locale = default_locale
        self.tasks = tasks or Supervisor()
        self.publishers = Publishers()
        self.players = Players(store.runs, store.forget, default_locale)
        self.reminders = Reminders(
            store.reminders, store.cards, store.runs, self.clock, self.publishers
        )
        self.quiz = Quizzes(
            self.library,
            store.runs,
            store.cards,
            store.boards,
            self.clock,
            rng or random.SystemRandom(),
            self.players,
            self.reminders,
            quiz_length,
        )
        self.boards = Leaderboards(self.library, store.boards, self.clock)
        self.player_stats = PlayerStats(
            self.library, store.boards, store.cards, store.memory, self.clock, self.reminders
        )
        self.daily = DailyQuestions(
            self.library,
            store.dailies,
            store.cards.misses,
            self.clock,
            self.publishers,
            self.tasks,
            reveal_hours=reveal_hours,
            count_refresh=count_refresh,
            dashboard=dashboard is not None,
        )
        self.races = Races(
            self.library, store.races, self.clock, self.publishers, dashboard=dashboard is not None
        )
        self.competitions = Competitions(
            self.library,
            store.competitions,
            store.boards,
            self.clock,
            self.publishers,
            self.daily.channel_locale,
        )
        self.banks = WorkspaceBanks(
            self.library, store.workspace_banks, self.clock, self.publishers, self.offload
        )
        self.insights = Insights(self.library, store.insights, self.clock, signer=dashboard)
        self.maps = KnowledgeMaps(
            self.library, store.knowledge, store.insights, store.memory, self.clock
        )
        self.insights_for_everyone = insights_for_everyone  # not only admins see insights
        self.installs = Installs(store.installs, self.clock, forget_after_days)
        self.dashboard = Dashboard(
            self.library,
            self.insights,
            self.competitions,
            store.boards,
            store.insights,
            self.clock,
            self.maps,
        )
        self.scheduler = Scheduler(
            [
                self.daily.posting,
                self.daily.revealing,
                self.races.advancing,
                self.competitions.ending,
                self.reminders.sending,
                self.installs.forgetting,
                self.maps.recording,
            ]
        )
        self.health = Health(store.database, self.clock)
        # What the adapters and the dispatch call, each answered by its service.
        self.locale_for = self.players.locale
        self.set_locale = self.players.set_locale
        self.start_quiz = self.quiz.start
        self.review = self.quiz.review
        self.next_review_in = self.quiz.next_review_in
        self.leaderboard = self.boards.view
        self.stats = self.player_stats.view

    async def handle(self, request: Request, context: Context) -> Reply:
        """The reply to any command or click, and how to deliver it (bot.services.dispatch)."""
        return await dispatch.handle(self, request, context)

    async def estimate_problem(
        self, asked: AnswerEstimate | AnswerDailyEstimate, locale: str
    ) -> str | None:
        """Why what was typed into an estimate's form is no answer, for a form that says so
        before it closes: a quiz's in the run's language, a daily's in ``locale``."""
        if isinstance(asked, AnswerEstimate):
            return await self.quiz.estimate_problem(asked.action, asked.text)
        return await self.daily.estimate_problem(asked.action, asked.text, locale)

    @property
    def catalog(self) -> Catalog:
        """The shipped banks (and QUIZBOT_BANKS'); each workspace adds its own (library)."""
        return self.library.shipped

    def replace_catalog(self, catalog: Catalog) -> None:
        """Swap in reloaded banks; runs in progress keep working (question ids are stable)."""
        self.library.replace_shipped(catalog)

    async def remembered(self, key: str) -> str | None:
        """A value the bot keeps between runs, such as the digest of its synced commands."""
        return await self.store.database.setting(key)

    async def remember(self, key: str, value: str) -> None:
        await self.store.database.set_setting(key, value)

    async def topics(self, scope: ScopeRef, locale: str) -> TopicList:
        return topic_list(await self.library.of(scope), locale)

    async def click(
        self,
        player: PlayerRef,
        button: PlayButton,
        platform_locale: str | None = None,
        where: ScopeRef | None = None,
    ) -> QuestionView | Feedback | Notice | ChannelFeedback | EstimateForm | RaceLockedView:
        """A button in play: a quiz answer, "next question", a daily or a race answer,
        clicked in ``where``. Anything stale, someone else's, another workspace's or unknown
        gets a Notice, never a point."""
        started = time.perf_counter()
        result = await self._click(player, button, platform_locale, where)
        outcome = result.kind if isinstance(result, Notice) else type(result).__name__
        metrics.INTERACTIONS.labels(platform=player.platform, outcome=outcome).inc()
        if isinstance(result, Feedback | ChannelFeedback | RaceLockedView):
            metrics.ANSWER_SECONDS.observe(time.perf_counter() - started)
        return result

    async def _click(
        self,
        player: PlayerRef,
        button: PlayButton,
        platform_locale: str | None,
        where: ScopeRef | None,
    ) -> QuestionView | Feedback | Notice | ChannelFeedback | EstimateForm | RaceLockedView:
        if isinstance(button, actions.AnswerAction | actions.NextAction | actions.EstimateAction):
            return await self.quiz.click(player, button, platform_locale)  # in the run's language
        locale = await self.players.locale(player, platform_locale)
        if isinstance(button, actions.DailyAction | actions.DailyEstimateAction):
            return await self.daily.click(player, button, locale, where)
        if isinstance(button, actions.RaceAction):
            return await self.races.click(player, button, locale, where)
        return notice(locale, "invalid")  # an UnknownButton
