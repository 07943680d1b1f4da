"""The engine: the async orchestrator every adapter calls. It turns neutral commands
(start a quiz, a click, a leaderboard request) into views, using the pure run and
scoring rules and the store."""

from __future__ import annotations

import logging
import random
import time
from dataclasses import replace

from bot.content.banks import Bank, Catalog
from bot.domain import actions, scoring
from bot.domain.clock import Clock, SystemClock, period_key
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.insight_links import Signer
from bot.domain.insight_report import percent
from bot.domain.memory import CardState, days_until, due_cutoff
from bot.domain.quiz_runs import (
    LETTERS,
    REVIEW,
    REVIEW_SIZE,
    Run,
    check_answer,
    new_run_id,
    plan_review,
    plan_run,
)
from bot.operations import metrics
from bot.operations.tasks import Supervisor
from bot.persistence import ALL_BANKS, AnswerRecord, Store, StoredCard, StoreError, TotalRow
from bot.services import dispatch
from bot.services.channel import Caller, Publishers
from bot.services.competition_service import Competitions
from bot.services.daily_service import COUNT_REFRESH, DailyQuestions
from bot.services.health import Health
from bot.services.insights import Insights
from bot.services.installs import GRACE_DAYS, Installs
from bot.services.library import Library
from bot.services.race_service import Races
from bot.services.reminder_service import Reminders
from bot.services.requests import Context, Reply, Request
from bot.services.scheduler import Scheduler
from bot.services.workspace_banks import WorkspaceBanks
from bot.ui import i18n
from bot.ui.messages import t
from bot.ui.views import (
    ChannelFeedback,
    ChoiceView,
    Feedback,
    Leaderboard,
    LeaderRow,
    Notice,
    QuestionView,
    RaceLockedView,
    StatRow,
    Stats,
    Summary,
    TopicList,
    TopicView,
)

log = logging.getLogger(__name__)

PERIODS = ("all", "week", "month")


class Engine:
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
    ):
        """The composition root of the core. ``reveal_hours``: a daily reveal's delay
        when the command names none; ``count_refresh``: how often a daily post's answer
        count is edited; ``tasks``: the owner of background tasks (the caller closes it);
        ``forget_after_days``: how long a workspace's data outlives its removing the app."""
        self.library = Library(catalog, store.workspace_banks, shared=store.database.postgres)
        self.store = store
        self.clock = clock or SystemClock()
        self._rng = rng or random.SystemRandom()
        self.default_locale = default_locale
        self.quiz_length = quiz_length
        self.tasks = tasks or Supervisor()
        self.publishers = Publishers()
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
            self.library, store.workspace_banks, self.clock, self.publishers
        )
        self.reminders = Reminders(
            store.reminders, store.cards, store.runs, self.clock, self.publishers
        )
        self.insights = Insights(
            self.library,
            store.insights,
            self.clock,
            for_everyone=insights_for_everyone,
            signer=dashboard,
        )
        self.installs = Installs(store.installs, self.clock, forget_after_days)
        self.scheduler = Scheduler(
            [
                self.daily.posting,
                self.daily.revealing,
                self.races.advancing,
                self.competitions.ending,
                self.reminders.sending,
                self.installs.forgetting,
            ]
        )
        self.health = Health(store.database, self.clock)

    async def handle(self, request: Request, context: Context) -> Reply:
        """The reply to any command or click, and how to deliver it (bot.services.dispatch)."""
        return await dispatch.handle(self, request, context)

    @property
    def catalog(self) -> Catalog:
        """The shipped banks (and QUIZBOT_BANKS'); each workspace adds its own (library)."""
        return self.library.shipped

    def replace_catalog(self, catalog: Catalog) -> None:
        """Swap in reloaded banks; runs in progress keep working (question ids are stable)."""
        self.library.replace_shipped(catalog)

    # --- a player's data -------------------------------------------------------------------

    async def forget_player(self, caller: Caller) -> Notice:
        """Delete the caller's data in this workspace (they confirmed with the button)."""
        player, workspace = caller.player, caller.scope.workspace_id
        done = await self.store.forget.player(player.platform, player.id, workspace)
        rows = sum(forgotten.total for forgotten in done.values())
        locale = caller.locale
        if not rows:
            return Notice(locale, "forget_nothing", t(locale, "forget_nothing"))
        log.info("a player's data was deleted at their request: %d rows", rows)
        return Notice(locale, "forget_done", t(locale, "forget_done", rows=rows))

    # --- locale ----------------------------------------------------------------------

    async def locale_for(self, player: PlayerRef, platform_locale: str | None = None) -> str:
        """The player's language: their own setting, else their client's, else English."""
        chosen = await self.store.runs.player_locale(player.platform, player.id)
        return i18n.choose(chosen, platform_locale, default=self.default_locale)

    async def set_locale(self, player: PlayerRef, tag: str) -> Notice:
        locale = i18n.supported(tag)
        if locale is None:
            current = await self.locale_for(player)
            choices = ", ".join(f"{code} ({name})" for code, name in i18n.LOCALE_NAMES.items())
            return Notice(
                current, "lang_unknown", t(current, "lang_unknown", tag=tag, choices=choices)
            )
        await self.store.runs.set_player_locale(player, locale)
        return Notice(locale, "lang_set", t(locale, "lang_set"))

    # --- topics ----------------------------------------------------------------------

    async def topics(self, scope: ScopeRef, locale: str, unknown: str | None = None) -> TopicList:
        return topic_list(await self.library.of(scope), locale, unknown)

    # --- personal quiz -----------------------------------------------------------------

    async def start_quiz(
        self,
        player: PlayerRef,
        scope: ScopeRef,
        topic: str,
        locale: str,
        questions: int | None = None,
        resume: bool = False,
    ) -> QuestionView | TopicList:
        """Start a run of the topic's bank; with ``resume``, continue the player's
        unfinished run of that bank instead, if there is one."""
        catalog = await self.library.of(scope)
        bank = catalog.find(topic)
        if bank is None:
            return topic_list(catalog, locale, unknown=topic)
        open_id = await self.store.runs.open_run_id(player, scope, bank.id) if resume else None
        previous = await self.store.runs.load(open_id) if open_id else None
        if previous is not None:
            if previous.locale != locale:  # continue in the language asked for now
                previous = replace(previous, locale=locale)
                await self.store.runs.set_locale(previous)
            return replace(self._question_view(previous, bank), resumed=True)
        run = plan_run(
            bank,
            player,
            scope,
            locale,
            seed=self._rng.randrange(2**62),
            run_id=new_run_id(),
            now=self.clock.now(),
            questions=questions or self.quiz_length,
        )
        await self.store.runs.save(run)
        metrics.INTERACTIONS.labels(platform=player.platform, outcome="quiz_started").inc()
        return self._question_view(run, bank)

    async def review(
        self, player: PlayerRef, scope: ScopeRef, locale: str
    ) -> QuestionView | Notice:
        """A private run of the player's due cards across topics, most overdue first;
        with none due, the questions they missed most recently, and when the next is due."""
        catalog = await self.library.of(scope)
        zone = await self.reminders.zone(player, scope)
        now = self.clock.now()
        cards = self.store.cards

        def playable(found: list[StoredCard]) -> list[tuple[str, str]]:
            # A card outlives its question when a workspace bank loses it: skip those.
            return [
                (c.bank_id, c.question_id)
                for c in found
                if (bank := catalog.get(c.bank_id)) and bank.question(c.question_id)
            ][:REVIEW_SIZE]

        chosen = playable(await cards.due(player, scope, due_cutoff(now, zone), 5 * REVIEW_SIZE))
        note = None
        if not chosen:
            days = await self.next_review_in(player, scope)
            if days is None:
                return Notice(locale, "review_empty", t(locale, "review_empty"))
            not_due = t(locale, "review_not_due", days=days)
            chosen = playable(await cards.missed(player, scope, 5 * REVIEW_SIZE))
            if not chosen:
                return Notice(locale, "review_not_due", not_due)
            note = f"{not_due}\n{t(locale, 'review_missed', count=len(chosen))}"
        run = plan_review(
            chosen,
            player,
            scope,
            locale,
            seed=self._rng.randrange(2**62),
            run_id=new_run_id(),
            now=now,
        )
        await self.store.runs.save(run)
        metrics.INTERACTIONS.labels(platform=player.platform, outcome="review_started").inc()
        bank = catalog.get(chosen[0][0])
        assert bank is not None
        return replace(self._question_view(run, bank), note=note)

    async def next_review_in(self, player: PlayerRef, scope: ScopeRef) -> int | None:
        """Days until the player's next card comes due (0: one is due today); None: they
        have no cards yet."""
        next_due = await self.store.cards.next_due(player, scope)
        if next_due is None:
            return None
        zone = await self.reminders.zone(player, scope)
        return days_until(next_due, self.clock.now(), zone)

    async def click(
        self, player: PlayerRef, action_id: str, platform_locale: str | None = None
    ) -> QuestionView | Feedback | Notice | ChannelFeedback | RaceLockedView:
        """Handle any button: a quiz answer, "next question", a daily or a race answer.
        Anything malformed, stale or someone else's gets a Notice, never a point."""
        started = time.perf_counter()
        result = await self._click(player, action_id, platform_locale)
        outcome = result.kind if isinstance(result, Notice) else type(result).__name__
        metrics.INTERACTIONS.labels(platform=player.platform, outcome=outcome).inc()
        if isinstance(result, Feedback | ChannelFeedback | RaceLockedView):
            metrics.ANSWER_SECONDS.observe(time.perf_counter() - started)
        return result

    async def _click(
        self, player: PlayerRef, action_id: str, platform_locale: str | None
    ) -> QuestionView | Feedback | Notice | ChannelFeedback | RaceLockedView:
        action = actions.decode(action_id)
        if isinstance(
            action, actions.ProposalAction | actions.DashboardAction | actions.ForgetAction
        ):
            action = None  # an admin's: the dispatch answers it
        if isinstance(action, actions.DailyAction | actions.RaceAction):
            locale = await self.locale_for(player, platform_locale)
            if isinstance(action, actions.DailyAction):
                return await self.daily.click(player, action, locale)
            return await self.races.click(player, action, locale)
        run = await self.store.runs.load(action.run_id) if action else None
        bank_id = run.located(run.position)[0] if run else ""
        catalog = await self.library.of(run.scope, bank_id) if run else None
        bank = catalog.get(bank_id) if catalog else None
        if action is None or run is None or bank is None:
            locale = await self.locale_for(player, platform_locale)
            return Notice(locale, "invalid", t(locale, "invalid"))
        if isinstance(action, actions.NextAction):
            return self._next(run, bank, player, action)
        problem = check_answer(run, player, action, bank)
        if problem:
            mine = problem != "not_yours"
            locale = run.locale if mine else await self.locale_for(player, platform_locale)
            return _refused(run, bank, problem, locale)
        return await self._answer(run, bank, action)

    def _next(
        self, run: Run, bank: Bank, player: PlayerRef, action: actions.NextAction
    ) -> QuestionView | Notice:
        if run.player.id != player.id or run.player.platform != player.platform:
            return _refused(run, bank, "not_yours", run.locale)
        if run.finished:
            return Notice(run.locale, "finished", t(run.locale, "finished", topic=bank.id))
        # A "next" from an older message shows the question the run is waiting on.
        return self._question_view(run, bank)

    async def _answer(
        self, run: Run, bank: Bank, action: actions.AnswerAction
    ) -> Feedback | Notice:
        question = bank.question(run.located(run.position)[1])
        assert question is not None  # check_answer verified it
        correct = action.choice == question.answer
        review = run.bank_id == REVIEW
        record = AnswerRecord(
            run=run,
            question_id=question.id,
            choice=action.choice,
            correct=correct,
            points=scoring.answer_points(correct, question.difficulty),
            at=self.clock.now(),
            bank_id=bank.id,
        )
        try:
            recorded = await self.store.runs.record_answer(record)
        except StoreError:
            return Notice(run.locale, "try_again", t(run.locale, "try_again"))
        if recorded.duplicate:
            return Notice(run.locale, "already_answered", t(run.locale, "already_answered"))
        metrics.ANSWERS.labels(mode="quiz").inc()
        view = self._question_view(run, bank)
        after = run.after_answer(recorded.correct, recorded.points)
        summary = None
        if after.finished:
            summary = self._review_summary(after) if review else await self._summary(after, bank)
        due_in_days = None
        if review and recorded.due is not None:
            zone = await self.reminders.zone(run.player, run.scope)
            due_in_days = days_until(recorded.due, record.at, zone)
        order = run.choice_order(question)
        return Feedback(
            locale=run.locale,
            question=view,
            chosen=view.choices[order.index(action.choice)],
            answer=view.choices[order.index(question.answer)],
            correct=correct,
            explanation=bank.text(question.explanation, run.locale),
            references=question.references,
            points=recorded.points,
            practice=recorded.practice,
            answered=after.position,
            run_points=after.points,
            next_action=None
            if after.finished
            else actions.NextAction(run.id, after.position).encode(),
            summary=summary,
            due_in_days=due_in_days,
        )

    def _question_view(self, run: Run, bank: Bank) -> QuestionView:
        question = bank.question(run.located(run.position)[1])
        assert question is not None
        order = run.choice_order(question)
        language = bank.language(run.locale)
        return QuestionView(
            locale=run.locale,
            run_id=run.id,
            topic=bank.id,
            topic_title=bank.text(bank.title, run.locale),
            number=run.position + 1,
            total=run.total,
            prompt=bank.text(question.prompt, run.locale),
            choices=tuple(
                ChoiceView(
                    LETTERS[shown],
                    bank.text(question.choices[choice], run.locale),
                    actions.AnswerAction(run.id, run.position, choice).encode(),
                )
                for shown, choice in enumerate(order)
            ),
            difficulty=question.difficulty,
            # A review mixes banks: each question says when its text is another language.
            text_language=language
            if (run.position == 0 or run.bank_id == REVIEW) and language != run.locale
            else None,
            review=run.bank_id == REVIEW,
        )

    def _review_summary(self, run: Run) -> Summary:
        title = t(run.locale, "review_title")
        return Summary(run.locale, title, run.correct, run.total, 0, 0, None, 0, review=True)

    async def _summary(self, run: Run, bank: Bank) -> Summary:
        questions = [q for q in (bank.question(i) for i in run.question_ids) if q]
        standing = await self.store.boards.standing(
            run.scope, bank.id, "all", run.player.id, limit=1, count=True
        )
        return Summary(
            locale=run.locale,
            topic_title=bank.text(bank.title, run.locale),
            correct=run.correct,
            total=run.total,
            points=run.points,
            max_points=scoring.max_points([q.difficulty for q in questions]),
            rank=standing.you.rank if standing.you else None,
            players=standing.players,
        )

    # --- leaderboards and stats -------------------------------------------------------------

    async def leaderboard(
        self,
        player: PlayerRef,
        scope: ScopeRef,
        locale: str,
        period: str = "all",
        topic: str | None = None,
    ) -> Leaderboard | TopicList:
        catalog = await self.library.of(scope)
        bank = catalog.find(topic) if topic else None
        if topic and bank is None:
            return topic_list(catalog, locale, unknown=topic)
        if period not in PERIODS:
            period = "all"
        standing = await self.store.boards.standing(
            scope,
            bank.id if bank else ALL_BANKS,
            period_key(period, self.clock.now()),
            player.id,
        )
        return Leaderboard(
            locale=locale,
            period=period,
            topic_title=bank.text(bank.title, locale) if bank else None,
            rows=tuple(_leader_row(row) for row in standing.rows),
            you=_leader_row(standing.you) if standing.you else None,
        )

    async def stats(self, player: PlayerRef, scope: ScopeRef, locale: str) -> Stats:
        """Per topic: first attempts and points (the leaderboards' numbers), and the
        player's cards: questions seen, due today, retention and estimated recall."""
        catalog = await self.library.of(scope)
        now = self.clock.now()
        cutoff = due_cutoff(now, await self.reminders.zone(player, scope))
        totals = {row.bank_id: row for row in await self.store.boards.bank_totals(scope, player.id)}
        by_bank: dict[str, list[CardState]] = {}
        for stored in await self.store.cards.all(player, scope):
            by_bank.setdefault(stored.bank_id, []).append(stored.card)
        kept = {r.bank_id: r for r in await self.store.cards.retention(player, scope)}
        recall = self.store.memory.recall
        rows = []
        for bank_id in dict.fromkeys([*totals, *sorted(by_bank)]):
            bank = catalog.get(bank_id)
            title = bank.text(bank.title, locale) if bank else bank_id
            played = totals.get(bank_id)
            mine = by_bank.get(bank_id, [])
            kept_here = kept.get(bank_id)
            rows.append(
                StatRow(
                    title,
                    played.answered if played else 0,
                    played.correct if played else 0,
                    played.points if played else 0,
                    seen=len(mine),
                    due=sum(card.due < cutoff for card in mine),
                    retention=percent(kept_here.passed, kept_here.reviews) if kept_here else None,
                    recall=percent(sum(recall(card, now) for card in mine), len(mine))
                    if mine
                    else None,
                    missed=sum(not card.last_correct for card in mine),
                )
            )
        return Stats(locale, tuple(rows), due=sum(row.due for row in rows))


def _refused(run: Run, bank: Bank, problem: str, locale: str) -> Notice:
    """Why a click does not count; someone else's review points to the player's own."""
    if problem == "not_yours" and run.bank_id == REVIEW:
        return Notice(locale, problem, t(locale, "review_not_yours"), usage="review")
    return Notice(locale, problem, t(locale, problem, topic=bank.id))


def _topic(bank: Bank, locale: str) -> TopicView:
    return TopicView(
        bank.id,
        bank.text(bank.title, locale),
        bank.text(bank.description, locale),
        len(bank.questions),
    )


def topic_list(catalog: Catalog, locale: str, unknown: str | None = None) -> TopicList:
    """Every topic; for an unknown one asked for, also the closest match."""
    near = catalog.closest(unknown) if unknown is not None else None
    suggestion = _topic(near, locale) if near else None
    # In the order a reader scans them: by the title each line starts with.
    shelf = sorted(catalog.banks, key=lambda bank: bank.text(bank.title, locale).casefold())
    return TopicList(locale, tuple(_topic(b, locale) for b in shelf), unknown, suggestion)


def _leader_row(row: TotalRow) -> LeaderRow:
    return LeaderRow(
        row.rank, row.player_id, row.name or row.player_id, row.points, row.correct, row.answered
    )
