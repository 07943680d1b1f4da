"""Live races: the Races service takes the commands, the clicks and the scheduler's
steps, and hands each to the race's own RaceSession, which owns its transitions."""

from __future__ import annotations

import random
import secrets

from bot.content.banks import Bank, Catalog, Question
from bot.domain import actions, scoring
from bot.domain.clock import Clock
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.quiz_runs import shuffled_order
from bot.domain.race import Race, clamp_settings
from bot.operations import metrics
from bot.persistence import RaceRepository
from bot.services.channel import (
    Publisher,
    Publishers,
    bars,
    choice_of,
    choices,
    leader_row,
    notice,
    post,
    question_in,
    refusal,
    same_workspace,
)
from bot.services.library import Library
from bot.services.requests import Context
from bot.services.scheduler import Duty
from bot.ui.views import (
    ChoiceView,
    Notice,
    RaceLockedView,
    RacePodiumView,
    RaceQuestionView,
    RaceRevealView,
)

STANDINGS_SHOWN = 5


class RaceSession:
    """One race and its transitions: start, lock an answer in, reveal and advance, stop.
    It works from the race as read from the store; every change is compare-and-set from
    that state, so a race that moved on meanwhile (stopped, or advanced by another
    scheduler) is left as it is. Its posts fail alone: logged, counted, never raised."""

    def __init__(
        self,
        race: Race,
        races: RaceRepository,
        catalog: Catalog,
        publisher: Publisher | None,
        dashboard: str | None = None,
    ):
        """``dashboard``: the podium's button for admins (the dashboard's link), if any."""
        self.race = race
        self._dashboard = dashboard
        self._races = races
        self._catalog = catalog
        self._publisher = publisher

    def _question(self, race: Race) -> tuple[Bank, Question] | None:
        return question_in(self._catalog, race.bank_id, race.question_ids[race.current])

    def _choices(
        self, race: Race, bank: Bank, question: Question, locale: str
    ) -> tuple[ChoiceView, ...]:
        return choices(
            bank,
            question,
            shuffled_order(race.seed, question.id, len(question.choices)),
            locale,
            lambda c: actions.RaceAction(race.id, race.current, c).encode(),
        )

    async def start(self, now: float) -> str:
        """Create it and post its first question; the outcome's notice kind."""
        if not await self._races.create(self.race, now):
            return "race_running"
        if not await self._post_question(self.race):
            stopped = self.race.stopped(now)  # nobody could see it
            if await self._races.update(self.race, stopped):
                self.race = stopped
            return "cannot_post"
        return "race_started"

    async def lock_in(
        self, player: PlayerRef, action: actions.RaceAction, locale: str, now: float
    ) -> RaceLockedView | Notice:
        """A player's first click on the open question is locked in, privately."""
        race = self.race
        found = self._question(race) if action.number == race.current else None
        if found is None or not race.accepts(action.number, now):
            return notice(locale, "race_late")
        bank, question = found
        if not 0 <= action.choice < len(question.choices):
            return notice(locale, "invalid")
        correct = action.choice == question.answer
        elapsed = now - race.opened_at
        recorded = await self._races.record_answer(
            race,
            player,
            action.choice,
            correct,
            lambda streak: scoring.race_points(
                correct, question.difficulty, elapsed, race.seconds, streak
            ),
            now,
        )
        if not recorded.duplicate:
            metrics.ANSWERS.labels(mode="race").inc()
        shown = self._choices(race, bank, question, locale)
        return RaceLockedView(locale, choice_of(shown, recorded.choice), recorded.duplicate)

    async def step(self, now: float) -> bool:
        """When the phase's time is up: close the question (reveal it, and the podium
        after the last) or open the next one. False when there was nothing to do."""
        race = self.race
        if now < race.phase_until or self._publisher is None:
            return False
        if race.phase == "open":
            closed = race.closed(now)
            if not await self._races.update(race, closed):
                return False
            self.race = closed
            await self._reveal(race)
            if closed.phase == "done":
                await self._post_podium(closed, stopped=False)
        else:
            opened = race.next_opened(now)
            if not await self._races.update(race, opened):
                return False
            self.race = opened
            await self._post_question(opened)
        return True

    async def stop(self, now: float) -> bool:
        """Stop it where it is now (even if it moved on since it was read) and post the
        podium; False when it had ended already."""
        race = self.race
        while not await self._races.update(race, race.stopped(now)):
            current = await self._races.get(race.id)
            if current is None or current.phase == "done":
                return False
            race = current
        self.race = race.stopped(now)
        await self._post_podium(race, stopped=True)
        return True

    async def _post_question(self, race: Race) -> bool:
        found = self._question(race)
        if found is None or self._publisher is None:
            return False
        bank, question = found
        view = RaceQuestionView(
            locale=race.locale,
            race_id=race.id,
            topic_title=bank.text(bank.title, race.locale),
            number=race.current + 1,
            total=race.total,
            prompt=bank.text(question.prompt, race.locale),
            choices=self._choices(race, bank, question, race.locale),
            seconds=race.seconds,
            closes_at=race.phase_until,
        )
        return await post(self._publisher, race.scope, view, "a race question") is not None

    async def _reveal(self, race: Race) -> None:
        found = self._question(race)
        if found is None or self._publisher is None:
            return
        bank, question = found
        results = await self._races.results(race)
        rows, answer, _ = bars(self._choices(race, bank, question, race.locale), results, question)
        standings = await self._races.standings(race, STANDINGS_SHOWN)
        view = RaceRevealView(
            locale=race.locale,
            topic_title=bank.text(bank.title, race.locale),
            number=race.current + 1,
            total=race.total,
            prompt=bank.text(question.prompt, race.locale),
            bars=rows,
            answer=answer,
            explanation=bank.text(question.explanation, race.locale),
            standings=tuple(map(leader_row, standings)),
        )
        await post(self._publisher, race.scope, view, "a race reveal")

    async def _post_podium(self, race: Race, stopped: bool) -> None:
        if self._publisher is None:
            return
        bank = self._catalog.get(race.bank_id)
        standings = await self._races.standings(race, 10)
        view = RacePodiumView(
            locale=race.locale,
            topic_title=bank.text(bank.title, race.locale) if bank else race.bank_id,
            standings=tuple(map(leader_row, standings)),
            stopped=stopped,
            dashboard=self._dashboard,
        )
        await post(self._publisher, race.scope, view, "the race podium")


class Races:
    def __init__(
        self,
        library: Library,
        races: RaceRepository,
        clock: Clock,
        publishers: Publishers,
        dashboard: bool = False,
    ):
        self._dashboard = actions.DashboardAction().encode() if dashboard else None
        self._library = library
        self._races = races
        self._clock = clock
        self._publishers = publishers
        self.advancing = Duty("a race", self._races.running, self._advance)

    async def _session(self, race: Race) -> RaceSession:
        publisher = self._publishers.get(race.scope.platform)
        catalog = await self._library.of(race.scope, race.bank_id)
        return RaceSession(race, self._races, catalog, publisher, self._dashboard)

    async def start(
        self, context: Context, topic: str, questions: int | None, seconds: int | None
    ) -> Notice:
        loc = context.locale
        catalog = await self._library.of(context.scope)
        bank = catalog.find(topic)
        if bank is None:
            return refusal(context, "bad_topics", "race", topics=topic)
        if context.scope.platform not in self._publishers:
            return notice(loc, "try_again")
        # A race is answered by buttons under a countdown and scored by speed: a value
        # typed with its unit would race typing, so the draw leaves estimates out.
        ids = [q.id for q in bank.questions if q.estimate is None]
        if not ids:
            return refusal(context, "race_no_choices", "race", topic=bank.id)
        count, seconds = clamp_settings(questions, seconds, len(ids))
        seed = secrets.randbits(48)
        now = self._clock.now()
        race = Race(
            id=secrets.token_hex(8),
            scope=context.scope,
            bank_id=bank.id,
            question_ids=tuple(random.Random(seed).sample(ids, count)),
            seconds=seconds,
            starter_id=context.player.id,
            locale=loc,
            seed=seed,
            phase="open",
            opened_at=now,
            phase_until=now + seconds,
        )
        publisher = self._publishers.get(race.scope.platform)
        session = RaceSession(race, self._races, catalog, publisher, self._dashboard)
        outcome = await session.start(now)
        if outcome != "race_started":
            return notice(loc, outcome)
        return notice(loc, outcome, total=count, seconds=seconds)

    async def click(
        self,
        player: PlayerRef,
        action: actions.RaceAction,
        locale: str,
        where: ScopeRef | None,
    ) -> RaceLockedView | Notice:
        race = await self._races.get(action.race_id)
        if race is None or not same_workspace(race.scope, player, where):
            return notice(locale, "invalid")
        session = await self._session(race)
        return await session.lock_in(player, action, locale, self._clock.now())

    async def _advance(self, race: Race) -> bool:
        session = await self._session(race)
        return await session.step(self._clock.now())

    async def stop(self, context: Context) -> Notice:
        running = await self._races.running(context.scope)
        if not running:
            return notice(context.locale, "race_none")
        race = running[0]
        if race.starter_id != context.player.id and not context.is_admin:
            return notice(context.locale, "race_not_starter")
        session = await self._session(race)
        if not await session.stop(self._clock.now()):
            return notice(context.locale, "race_none")
        return notice(context.locale, "race_stopped")
