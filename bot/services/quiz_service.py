"""The personal quiz: starting (or resuming) a run of a topic, a review of the player's
due cards, and the run's buttons (an answer, "next question"), using the pure run and
scoring rules and the store."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.content.banks import Bank, Catalog, Question
from bot.domain import actions, scoring
from bot.domain.answers import AnswerRecord
from bot.domain.clock import Clock
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.memory import day_start, days_until, due_cutoff
from bot.domain.periods import ALL
from bot.domain.quiz_runs import (
    REVIEW,
    REVIEW_SIZE,
    Run,
    check_answer,
    new_run_id,
    plan_review,
    plan_run,
)
from bot.operations import metrics
from bot.persistence import (
    BoardRepository,
    CardRepository,
    RunRepository,
    StoredCard,
    StoreError,
)
from bot.services.channel import (
    choice_of,
    choices,
    estimate_ask,
    estimate_result,
    notice,
    read_estimate,
)
from bot.services.library import Library
from bot.services.player_service import Players
from bot.services.reminder_service import Reminders
from bot.services.topics import topic_list
from bot.ui.messages import t
from bot.ui.views import (
    EstimateAsk,
    EstimateResult,
    Feedback,
    Notice,
    QuestionView,
    Summary,
    TopicList,
)


class Quizzes:
    def __init__(
        self,
        library: Library,
        runs: RunRepository,
        cards: CardRepository,
        boards: BoardRepository,
        clock: Clock,
        rng: random.Random,
        players: Players,
        reminders: Reminders,
        length: int | None = None,
    ):
        """``players`` tell a clicker's language, ``reminders`` where a player's days
        begin; ``length``: questions in a run when the command names no number (None:
        the whole bank)."""
        self._library = library
        self._runs = runs
        self._cards = cards
        self._boards = boards
        self._clock = clock
        self._rng = rng
        self._players = players
        self._reminders = reminders
        self._length = length

    async def start(
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
        catalog = await self._library.of(scope)
        bank = catalog.find(topic)
        if bank is None:
            return topic_list(catalog, locale, unknown=topic)
        resumed = await self._resumed(player, scope, bank.id, locale, catalog) if resume else None
        if resumed is not None:
            return resumed
        run = plan_run(
            bank,
            player,
            scope,
            locale,
            seed=self._rng.randrange(2**62),
            run_id=new_run_id(),
            now=self._clock.now(),
            questions=questions or self._length,
        )
        await self._runs.save(run)
        metrics.INTERACTIONS.labels(platform=player.platform, outcome="quiz_started").inc()
        return _question_view(run, bank)

    async def review(
        self, player: PlayerRef, scope: ScopeRef, locale: str
    ) -> QuestionView | Notice:
        """A private run of the player's due cards across topics, most overdue first;
        with none due, the questions they missed most recently, and when the next is due."""
        catalog = await self._library.of(scope)
        zone = await self._reminders.zone(player, scope)
        now = self._clock.now()
        # One review a day: asking again continues today's; an older one, left unfinished,
        # gives way to the cards due now.
        today = day_start(now, zone)
        resumed = await self._resumed(player, scope, REVIEW, locale, catalog, since=today)
        if resumed is not None:
            return resumed
        cards = self._cards

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
                return notice(locale, "review_empty")
            not_due = notice(locale, "review_not_due", days=days)
            chosen = playable(await cards.missed(player, scope, 5 * REVIEW_SIZE))
            if not chosen:
                return not_due
            note = f"{not_due.text}\n{t(locale, 'review_missed', count=len(chosen))}"
        run = plan_review(
            chosen,
            player,
            scope,
            locale,
            seed=self._rng.randrange(2**62),
            run_id=new_run_id(),
            now=now,
        )
        await self._runs.save(run)
        metrics.INTERACTIONS.labels(platform=player.platform, outcome="review_started").inc()
        bank = catalog.get(chosen[0][0])
        assert bank is not None
        return replace(_question_view(run, bank), note=note)

    async def _resumed(
        self,
        player: PlayerRef,
        scope: ScopeRef,
        bank_id: str,
        locale: str,
        catalog: Catalog,
        since: float = 0.0,
    ) -> QuestionView | None:
        """The player's unfinished run of ``bank_id`` here (``REVIEW``: their review) begun
        ``since`` or later, in the language asked for now; None without one, or when its
        question is gone."""
        open_id = await self._runs.open_run_id(player, scope, bank_id)
        run = await self._runs.load(open_id) if open_id else None
        if run is None or run.created_at < since:
            return None
        located_bank, question_id = run.located(run.position)
        bank = catalog.get(located_bank)
        if bank is None or bank.question(question_id) is None:
            return None
        if run.locale != locale:
            run = replace(run, locale=locale)
            await self._runs.set_locale(run)
        return replace(_question_view(run, bank), resumed=True)

    async def next_review_in(self, player: PlayerRef, scope: ScopeRef) -> int | None:
        """Days until the player's next card comes due (0: one is due today); None: they
        have no cards yet."""
        next_due = await self._cards.next_due(player, scope)
        if next_due is None:
            return None
        zone = await self._reminders.zone(player, scope)
        return days_until(next_due, self._clock.now(), zone)

    async def click(
        self,
        player: PlayerRef,
        action: actions.AnswerAction | actions.NextAction | actions.EstimateAction,
        platform_locale: str | None,
        typed: str | None = None,
    ) -> QuestionView | Feedback | Notice:
        """A run's button; ``typed``: an estimate's value, as typed into its form.
        Anything stale or someone else's gets a Notice, never a point."""
        run = await self._runs.load(action.run_id, action.position)
        bank_id = run.located(run.position)[0] if run else ""
        catalog = await self._library.of(run.scope, bank_id) if run else None
        bank = catalog.get(bank_id) if catalog else None
        if run is None or bank is None:
            return notice(await self._players.locale(player, platform_locale), "invalid")
        if isinstance(action, actions.NextAction) or (
            isinstance(action, actions.EstimateAction) and typed is None
        ):
            return _next(run, bank, player)
        problem = check_answer(run, player, action, bank)
        if problem:
            mine = problem != "not_yours"
            locale = run.locale if mine else await self._players.locale(player, platform_locale)
            return _refused(run, bank, problem, locale)
        question = bank.question(run.located(run.position)[1])
        assert question is not None  # check_answer verified it
        if isinstance(action, actions.AnswerAction):
            correct = action.choice == question.answer
            points = scoring.answer_points(correct, question.difficulty)
            return await self._answer(run, bank, question, action.choice, correct, points)
        return await self._estimated(run, bank, question, typed or "")

    async def estimate_problem(self, action: actions.EstimateAction, typed: str) -> str | None:
        """Why ``typed`` is no answer to the estimate ``action`` asks for, in the run's
        language — for a form that says so before it closes —, or None: it reads, or the
        answer itself will tell what is wrong (a stale or someone else's run)."""
        run = await self._runs.load(action.run_id, action.position)
        if run is None or action.position != run.position:
            return None
        bank_id, question_id = run.located(run.position)
        bank = (await self._library.of(run.scope, bank_id)).get(bank_id)
        question = bank.question(question_id) if bank else None
        if question is None or question.estimate is None:
            return None
        found = read_estimate(question, typed, run.locale)
        return found if isinstance(found, str) else None

    async def _estimated(
        self, run: Run, bank: Bank, question: Question, typed: str
    ) -> Feedback | Notice:
        estimate = question.estimate
        assert estimate is not None  # check_answer verified the kind
        value = read_estimate(question, typed, run.locale)
        if isinstance(value, str):
            return Notice(run.locale, "estimate_unreadable", value)
        off = estimate.off(value)
        points = scoring.estimate_points(off, estimate.tolerance.factor, question.difficulty)
        result = estimate_result(question, value, typed)
        return await self._answer(
            run, bank, question, -1, estimate.inside(value), points, value, result
        )

    async def _answer(
        self,
        run: Run,
        bank: Bank,
        question: Question,
        choice: int,
        correct: bool,
        points: int,
        value: float | None = None,
        estimated: EstimateResult | None = None,
    ) -> Feedback | Notice:
        """Record an answer (a choice, or -1 and an estimate's ``value``) and its
        feedback."""
        review = run.bank_id == REVIEW
        record = AnswerRecord(
            run=run,
            question_id=question.id,
            choice=choice,
            correct=correct,
            points=points,
            at=self._clock.now(),
            bank_id=bank.id,
            estimate=value,
        )
        try:
            recorded = await self._runs.record_answer(record)
        except StoreError:
            return notice(run.locale, "try_again")
        if recorded.gone:
            return notice(run.locale, "invalid")
        if recorded.duplicate:  # answered already, maybe in another process: say how it stands
            now = await self._runs.load(run.id)
            finished = now is not None and now.finished
            return _refused(run, bank, "finished" if finished else "already_answered", run.locale)
        metrics.ANSWERS.labels(mode="quiz").inc()
        view = _question_view(run, bank)
        after = run.after_answer(recorded.correct, recorded.points)
        summary = None
        if after.finished:
            summary = _review_summary(after) if review else await self._summary(after, bank)
        due_in_days = None
        if review and recorded.due is not None:
            zone = await self._reminders.zone(run.player, run.scope)
            due_in_days = days_until(recorded.due, record.at, zone)
        return Feedback(
            locale=run.locale,
            question=view,
            chosen=choice_of(view.choices, choice) if estimated is None else None,
            answer=choice_of(view.choices, question.answer) if estimated is None else None,
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
            estimate=estimated,
        )

    async def _summary(self, run: Run, bank: Bank) -> Summary:
        questions = [q for q in (bank.question(i) for i in run.question_ids) if q]
        standing = await self._boards.standing(
            run.scope, bank.id, ALL, run.player.id, limit=1, count=True
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


def _next(run: Run, bank: Bank, player: PlayerRef) -> QuestionView | Notice:
    if run.player.id != player.id or run.player.platform != player.platform:
        return _refused(run, bank, "not_yours", run.locale)
    if run.finished:
        return notice(run.locale, "finished", topic=bank.id)
    # A "next" from an older message shows the question the run is waiting on.
    return _question_view(run, bank)


def _refused(run: Run, bank: Bank, problem: str, locale: str) -> Notice:
    """Why a click does not count; someone else's review points to the player's own."""
    if problem == "not_yours" and run.bank_id == REVIEW:
        return Notice(locale, problem, t(locale, "review_not_yours"), usage="review")
    return notice(locale, problem, topic=bank.id)


def _question_view(run: Run, bank: Bank) -> QuestionView:
    question = bank.question(run.located(run.position)[1])
    assert question is not None
    language = bank.language(run.locale)
    return QuestionView(
        locale=run.locale,
        run_id=run.id,
        topic=bank.id,
        topic_title=bank.text(bank.title, run.locale),
        number=run.position + 1,
        total=run.total,
        prompt=bank.text(question.prompt, run.locale),
        choices=choices(
            bank,
            question,
            run.choice_order(question),
            run.locale,
            lambda choice: actions.AnswerAction(run.id, run.position, choice).encode(),
        ),
        difficulty=question.difficulty,
        estimate=_ask(run, question),
        # A review mixes banks: each question says when its text is another language.
        text_language=language
        if (run.position == 0 or run.bank_id == REVIEW) and language != run.locale
        else None,
        review=run.bank_id == REVIEW,
    )


def _ask(run: Run, question: Question) -> EstimateAsk | None:
    return estimate_ask(question, actions.EstimateAction(run.id, run.position).encode())


def _review_summary(run: Run) -> Summary:
    title = t(run.locale, "review_title")
    return Summary(run.locale, title, run.correct, run.total, 0, 0, None, 0, review=True)
