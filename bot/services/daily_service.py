"""The daily question: switching it on and off in a channel, posting it when due,
answering it privately, keeping its public answer count current and revealing it."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.content.banks import Bank, Question
from bot.domain import actions, scoring
from bot.domain.clock import Clock
from bot.domain.crowd import crowd
from bot.domain.daily import (
    DEFAULT_REVEAL_AFTER,
    DailyPost,
    DailySchedule,
    draw,
    due_day,
    next_post_at,
    reveal_time,
)
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.quiz_runs import shuffled_order
from bot.operations import metrics
from bot.operations.tasks import Supervisor
from bot.persistence import DailyRepository
from bot.services.channel import (
    Publishers,
    bars,
    choice_of,
    choices,
    estimate_ask,
    estimate_range,
    estimate_result,
    notice,
    post,
    question_in,
    read_estimate,
    refusal,
    same_workspace,
    time_of_day,
)
from bot.services.library import Library
from bot.services.requests import Context
from bot.services.scheduler import Duty
from bot.ui import i18n
from bot.ui.messages import t
from bot.ui.views import (
    BarRow,
    ChannelFeedback,
    ChoiceView,
    DailyEstimateRevealView,
    DailyPostView,
    DailyRevealView,
    EstimateForm,
    Notice,
)

log = logging.getLogger(__name__)

COUNT_REFRESH = 2.0  # seconds: a daily post's answer count is edited at most this often
REVEAL_RETRY_SECONDS = 60.0  # a daily reveal the platform refused is tried again after this


def _duration(seconds: int) -> str:
    """A delay as hours and minutes, e.g. "8 h", "1 h 30 min", "2 min"."""
    hours, minutes = divmod(round(seconds / 60), 60)
    return (
        " ".join(
            part for part in (f"{hours} h" * bool(hours), f"{minutes} min" * bool(minutes)) if part
        )
        or "0 min"
    )


def _choices(
    post: DailyPost, bank: Bank, question: Question, locale: str
) -> tuple[ChoiceView, ...]:
    order = shuffled_order(post.seed, question.id, len(question.choices))
    return choices(
        bank, question, order, locale, lambda c: actions.DailyAction(post.id, c).encode()
    )


def _estimated_already(question: Question, value: float | None, locale: str) -> Notice:
    """A second answer to a daily estimate: the first one counts, shown in its unit."""
    assert question.estimate is not None
    shown = question.estimate.shown(value) if value is not None else "—"
    return notice(locale, "daily_already_estimate", estimate=shown)


class DailyQuestions:
    def __init__(
        self,
        library: Library,
        dailies: DailyRepository,
        misses: Callable[[ScopeRef], Awaitable[dict[tuple[str, str], int]]],
        clock: Clock,
        publishers: Publishers,
        tasks: Supervisor,
        *,
        reveal_hours: float | None = None,
        count_refresh: float = COUNT_REFRESH,
        dashboard: bool = False,
    ):
        """``reveal_hours``: the reveal's delay when a command names none (else the
        schedule's own default); ``count_refresh``: how long clicks are gathered before
        the public answer count is edited."""
        self._library = library
        self._dailies = dailies
        self._misses = misses  # wrong answers per question in a workspace
        self._clock = clock
        self._publishers = publishers
        self._tasks = tasks
        self._reveal_hours = reveal_hours
        self._count_refresh = count_refresh
        # Results carry a button for admins to get the dashboard's link, when there is one.
        self._dashboard = actions.DashboardAction().encode() if dashboard else None
        self._reveal_retry: dict[str, float] = {}  # post id -> when to try its reveal again
        self._refresh_pending: set[str] = set()
        self.posting = Duty("the daily question", self._dailies.schedules, self._post)
        self.revealing = Duty("the daily results", self._to_reveal, self._reveal)

    # --- commands ---------------------------------------------------------------------

    async def on(
        self,
        context: Context,
        topics: str,
        at: str,
        timezone: str,
        reveal_hours: float | None,
        prefer_missed: bool = False,
    ) -> Notice:
        loc = context.locale
        names = [n for n in topics.split(",") if n.strip()]
        catalog = await self._library.of(context.scope)
        banks = [catalog.find(n) for n in names]
        unknown = [n for n, b in zip(names, banks, strict=True) if b is None]
        if not names or unknown:
            return refusal(context, "bad_topics", "daily", topics=", ".join(unknown) or "—")
        moment = time_of_day(context, "daily", at, timezone)
        if isinstance(moment, Notice):
            return moment
        when, zone = moment
        hours = reveal_hours or self._reveal_hours
        reveal_after = round(3600 * hours) if hours else DEFAULT_REVEAL_AFTER
        schedule = DailySchedule(
            context.scope,
            tuple(dict.fromkeys(b.id for b in banks if b)),
            when,
            zone,
            loc,
            reveal_after,
            prefer_missed,
        )
        await self._dailies.save_schedule(schedule)
        return Notice(loc, "daily_on", await self._status_text(schedule, loc))

    async def _status_text(self, schedule: DailySchedule, locale: str) -> str:
        catalog = await self._library.of(schedule.scope)
        titles = ", ".join(b.text(b.title, locale) for b in map(catalog.get, schedule.topics) if b)
        now = self._clock.now()
        next_at = datetime.fromtimestamp(next_post_at(schedule, now), schedule.zone)
        on = t(
            locale,
            "daily_on",
            topics=titles,
            time=schedule.at.strftime("%H:%M"),
            timezone=schedule.timezone,
            delay=_duration(schedule.reveal_after),
        )
        lines = [on, t(locale, "daily_next", when=next_at.strftime("%Y-%m-%d %H:%M %Z"))]
        if schedule.prefer_missed:
            lines.append(t(locale, "daily_prefer_missed"))
        return "\n".join(lines)

    async def off(self, context: Context) -> Notice:
        removed = await self._dailies.remove_schedule(context.scope)
        return notice(context.locale, "daily_off" if removed else "daily_none")

    async def status(self, context: Context) -> Notice:
        mine = await self._schedule(context.scope)
        if mine is None:
            return notice(context.locale, "daily_none")
        text = await self._status_text(mine, context.locale)
        return Notice(context.locale, "daily_status", text)

    async def _schedule(self, scope: ScopeRef) -> DailySchedule | None:
        schedules = await self._dailies.schedules(scope.platform)
        return next((s for s in schedules if s.scope == scope), None)

    async def channel_locale(self, scope: ScopeRef) -> str:
        """The language a channel's daily question is posted in, else the default."""
        schedule = await self._schedule(scope)
        return schedule.locale if schedule else i18n.DEFAULT_LOCALE

    # --- posting, clicks, the count, the reveal -----------------------------------------

    async def _question(self, daily: DailyPost) -> tuple[Bank, Question] | None:
        catalog = await self._library.of(daily.scope, daily.bank_id)
        return question_in(catalog, daily.bank_id, daily.question_id)

    async def _view(self, daily: DailyPost, answered: int) -> DailyPostView | None:
        found = await self._question(daily)
        if found is None:
            return None
        bank, question = found
        return DailyPostView(
            locale=daily.locale,
            post_id=daily.id,
            day=daily.day,
            topic_title=bank.text(bank.title, daily.locale),
            prompt=bank.text(question.prompt, daily.locale),
            choices=() if question.estimate else _choices(daily, bank, question, daily.locale),
            answered=answered,
            reveal_at=daily.reveal_at,
            estimate=estimate_ask(question, actions.DailyEstimateAction(daily.id).encode()),
        )

    async def _post(self, schedule: DailySchedule) -> bool:
        """Post the channel's question if its day is due and not posted yet."""
        now = self._clock.now()
        day = due_day(schedule, now)
        publisher = self._publishers.get(schedule.scope.platform)
        if day is None or publisher is None:
            return False
        catalog = await self._library.of(schedule.scope)
        candidates = [
            (bank.id, q.id)
            for bank in map(catalog.get, schedule.topics)
            if bank
            for q in bank.questions
        ]
        if not candidates:
            return False
        cycle, used = await self._dailies.history(schedule.scope)
        seed = secrets.randbits(48)
        misses = await self._misses(schedule.scope) if schedule.prefer_missed else None
        (bank_id, question_id), new_cycle = draw(candidates, used, seed, misses)
        daily = DailyPost(
            id=secrets.token_hex(8),
            scope=schedule.scope,
            day=day.isoformat(),
            cycle=cycle + 1 if new_cycle or not used else cycle,
            bank_id=bank_id,
            question_id=question_id,
            seed=seed,
            locale=schedule.locale,
            posted_at=now,
            reveal_at=reveal_time(schedule, day),
        )
        if not await self._dailies.claim_post(daily):
            return False  # already posted for that day
        view = await self._view(daily, 0)
        assert view is not None
        ref = await post(publisher, schedule.scope, view, "the daily question")
        if ref is None:  # the platform refused: the day is lost, never doubled
            metrics.DAILY_POSTS.labels(outcome="missed").inc()
            return False
        await self._dailies.set_message(daily.id, ref)
        metrics.DAILY_POSTS.labels(outcome="made").inc()
        return True

    async def _open(
        self, player: PlayerRef, post_id: str, locale: str, where: ScopeRef | None
    ) -> tuple[DailyPost, Bank, Question] | Notice:
        """The post a click or a form answers, while it takes answers; else why not."""
        daily = await self._dailies.post(post_id)
        found = await self._question(daily) if daily else None
        if daily is None or found is None or not same_workspace(daily.scope, player, where):
            return notice(locale, "invalid")
        if daily.revealed_at is not None or self._clock.now() >= daily.reveal_at:
            return notice(locale, "daily_closed")
        return (daily, *found)

    async def click(
        self,
        player: PlayerRef,
        action: actions.DailyAction | actions.DailyEstimateAction,
        locale: str,
        where: ScopeRef | None,
    ) -> ChannelFeedback | EstimateForm | Notice:
        """A choice, answered; a daily estimate's Answer button, its form to open."""
        opened = await self._open(player, action.post_id, locale, where)
        if isinstance(opened, Notice):
            return opened
        daily, bank, question = opened
        if isinstance(action, actions.DailyEstimateAction):
            return await self._form(daily, bank, question, player, locale)
        if question.estimate is not None or not 0 <= action.choice < len(question.choices):
            return notice(locale, "invalid")
        correct = action.choice == question.answer
        recorded = await self._dailies.record_answer(
            daily,
            player,
            action.choice,
            correct,
            lambda streak: scoring.daily_points(correct, question.difficulty, streak),
            self._clock.now(),
        )
        shown = _choices(daily, bank, question, locale)
        if recorded.duplicate:
            return notice(locale, "daily_already", letter=choice_of(shown, recorded.choice).letter)
        self._answered(daily)
        return ChannelFeedback(
            locale=locale,
            correct=correct,
            chosen=choice_of(shown, action.choice),
            answer=choice_of(shown, question.answer),
            explanation=bank.text(question.explanation, locale),
            references=question.references,
            points=recorded.points,
            streak=recorded.streak,
            duplicate=False,
        )

    async def _form(
        self, daily: DailyPost, bank: Bank, question: Question, player: PlayerRef, locale: str
    ) -> EstimateForm | Notice:
        ask = estimate_ask(question, actions.DailyEstimateAction(daily.id).encode())
        if ask is None:
            return notice(locale, "invalid")
        mine = await self._dailies.answer_of(daily, player)
        if mine is not None:
            return _estimated_already(question, mine, locale)
        return EstimateForm(locale, bank.text(question.prompt, locale), ask)

    async def estimate_problem(
        self, action: actions.DailyEstimateAction, typed: str, locale: str
    ) -> str | None:
        """Why ``typed`` is no answer to the daily estimate, in ``locale``, for a form that
        says so before it closes; None: it reads, or the answer will say what is wrong."""
        daily = await self._dailies.post(action.post_id)
        found = await self._question(daily) if daily else None
        if found is None or found[1].estimate is None:
            return None
        value = read_estimate(found[1], typed, locale)
        return value if isinstance(value, str) else None

    async def estimate(
        self,
        player: PlayerRef,
        action: actions.DailyEstimateAction,
        typed: str,
        locale: str,
        where: ScopeRef | None,
    ) -> ChannelFeedback | Notice:
        """A daily estimate, typed into its form: scored by how close, told privately."""
        opened = await self._open(player, action.post_id, locale, where)
        if isinstance(opened, Notice):
            return opened
        daily, bank, question = opened
        estimate = question.estimate
        if estimate is None:
            return notice(locale, "invalid")
        value = read_estimate(question, typed, locale)
        if isinstance(value, str):
            return Notice(locale, "estimate_unreadable", value)
        off, factor = estimate.off(value), estimate.tolerance.factor
        recorded = await self._dailies.record_answer(
            daily,
            player,
            -1,
            estimate.inside(value),
            lambda streak: scoring.daily_estimate_points(off, factor, question.difficulty, streak),
            self._clock.now(),
            value,
        )
        if recorded.duplicate:
            return _estimated_already(question, recorded.estimate, locale)
        self._answered(daily)
        return ChannelFeedback(
            locale=locale,
            correct=recorded.correct,
            chosen=None,
            answer=None,
            explanation=bank.text(question.explanation, locale),
            references=question.references,
            points=recorded.points,
            streak=recorded.streak,
            duplicate=False,
            estimate=estimate_result(question, value, typed),
        )

    def _answered(self, daily: DailyPost) -> None:
        metrics.ANSWERS.labels(mode="daily").inc()
        self._schedule_count_refresh(daily)

    def _schedule_count_refresh(self, daily: DailyPost) -> None:
        """Edit the public answer count, coalescing a burst of clicks into one edit."""
        if daily.id in self._refresh_pending or daily.message_ref is None:
            return
        self._refresh_pending.add(daily.id)
        self._tasks.spawn(self._refresh_count(daily), "daily-count-refresh")

    async def _refresh_count(self, daily: DailyPost) -> None:
        try:
            await asyncio.sleep(self._count_refresh)
        finally:
            self._refresh_pending.discard(daily.id)
        publisher = self._publishers.get(daily.scope.platform)
        try:  # expected failures are the platform's or the database's: a warning
            current = await self._dailies.post(daily.id)
            if publisher is None or current is None or current.revealed_at is not None:
                return
            results = await self._dailies.results(current)
            view = await self._view(current, sum(results.counts.values()))
            if view is not None:
                await publisher.update(daily.scope, daily.message_ref or "", view)
        except Exception as exc:
            log.warning("could not update the daily question's answer count: %s", exc)
            metrics.API_ERRORS.labels(platform=daily.scope.platform).inc()

    async def _to_reveal(self) -> list[DailyPost]:
        return await self._dailies.posts_to_reveal(self._clock.now())

    async def _reveal(self, daily: DailyPost) -> bool:
        """Reveal one daily question. Claimed first, so two schedulers never both post it;
        a post the platform refuses gives the claim back, to be tried again later."""
        now = self._clock.now()
        publisher = self._publishers.get(daily.scope.platform)
        found = await self._question(daily)
        if publisher is None or self._reveal_retry.get(daily.id, 0.0) > now:
            return False
        if not await self._dailies.mark_revealed(daily.id, now):
            return False  # another scheduler has it
        if found is None or daily.message_ref is None:
            return False  # nothing to reveal: its bank is gone or it was never posted
        bank, question = found
        view = await self._results(daily, bank, question)
        if await post(publisher, daily.scope, view, "the daily results"):
            self._reveal_retry.pop(daily.id, None)
            metrics.DAILY_REVEALS.labels(outcome="made").inc()
            return True
        await self._dailies.unmark_revealed(daily.id)
        self._reveal_retry[daily.id] = now + REVEAL_RETRY_SECONDS
        metrics.DAILY_REVEALS.labels(outcome="failed").inc()
        return False

    async def _results(
        self, daily: DailyPost, bank: Bank, question: Question
    ) -> DailyRevealView | DailyEstimateRevealView:
        if question.estimate is not None:
            return await self._estimates(daily, bank, question)
        results = await self._dailies.results(daily)
        rows, answer, total = bars(_choices(daily, bank, question, daily.locale), results, question)
        return DailyRevealView(
            locale=daily.locale,
            day=daily.day,
            topic_title=bank.text(bank.title, daily.locale),
            prompt=bank.text(question.prompt, daily.locale),
            bars=rows,
            answer=answer,
            explanation=bank.text(question.explanation, daily.locale),
            references=question.references,
            winners=tuple(w.name or w.player_id for w in results.winners),
            answered=total,
            dashboard=self._dashboard,
        )

    async def _estimates(
        self, daily: DailyPost, bank: Bank, question: Question
    ) -> DailyEstimateRevealView:
        """A daily estimate's results: the team's estimates on a log axis (bins of half a
        decade around the truth), its median and who came closest."""
        estimate = question.estimate
        assert estimate is not None
        answers = await self._dailies.estimates(daily)
        truth = estimate.truth.value
        found = crowd([value / truth for _, value in answers])
        total = len(answers)
        rows = tuple(
            BarRow(estimate_range(question, part), "", part.count,
                   round(100 * part.count / total) if total else 0, part.truth)
            for part in (found.bins if found else ())
        )  # fmt: skip
        closest = tuple(answers[i] for i in found.closest) if found else ()
        loc = daily.locale
        return DailyEstimateRevealView(
            locale=loc,
            day=daily.day,
            topic_title=bank.text(bank.title, loc),
            prompt=bank.text(question.prompt, loc),
            bars=rows,
            truth=estimate.written,
            tolerance=estimate.tolerance.written,
            median=estimate.shown(found.median * truth) if found else None,
            median_off=found.median if found else 1.0,
            closest=tuple(name for name, _ in closest),
            closest_value=estimate.shown(closest[0][1]) if closest else None,
            inside=tuple(name for name, value in answers if estimate.inside(value)),
            explanation=bank.text(question.explanation, loc),
            references=question.references,
            answered=total,
            dashboard=self._dashboard,
        )
