"""Channel play: the daily question, live races and competitions. The engine's public
half: it posts to channels through each platform's Publisher and is driven by the
scheduler's clock."""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Protocol, TypeVar

from bot.content.banks import Bank, Catalog, Question
from bot.operations import metrics
from bot.persistence import ALL_BANKS, ChannelResults, Store, StoreError, TotalRow
from bot.play import codec, scoring
from bot.play.clock import Clock
from bot.play.competition import Competition
from bot.play.daily import (
    DailyPost,
    DailySchedule,
    draw,
    due_day,
    next_post_at,
    parse_time,
    parse_timezone,
    reveal_time,
)
from bot.play.race import Race, clamp_settings
from bot.play.refs import PlayerRef, ScopeRef
from bot.play.runs import LETTERS, shuffled_order
from bot.ui import i18n, messages
from bot.ui.messages import t
from bot.ui.views import (
    BarRow,
    ChannelFeedback,
    ChannelView,
    ChoiceView,
    DailyPostView,
    DailyRevealView,
    Leaderboard,
    LeaderRow,
    Notice,
    RaceLockedView,
    RacePodiumView,
    RaceQuestionView,
    RaceRevealView,
)

log = logging.getLogger(__name__)

COUNT_REFRESH = 2.0  # seconds: a daily post's answer count is edited at most this often
STANDINGS_SHOWN = 5
REVEAL_RETRY_SECONDS = 60.0  # a daily reveal the platform refused is tried again after this
T = TypeVar("T")


class Publisher(Protocol):
    """What a platform adapter provides so the core can post in channels."""

    async def post(self, channel: ScopeRef, view: ChannelView) -> str:
        """Post a public message; returns a reference to edit it later."""
        ...

    async def update(self, channel: ScopeRef, ref: str, view: ChannelView) -> None: ...


@dataclass(frozen=True)
class Caller:
    """Who sent a channel command, and where."""

    player: PlayerRef
    scope: ScopeRef
    locale: str
    is_admin: bool = False


def _notice(locale: str, kind: str, **values: object) -> Notice:
    return Notice(locale, kind, t(locale, kind, **values))


def _duration(seconds: int) -> str:
    """A delay as hours and minutes, e.g. "8 h", "1 h 30 min", "2 min"."""
    hours, minutes = divmod(round(seconds / 60), 60)
    return (
        " ".join(
            part for part in (f"{hours} h" * bool(hours), f"{minutes} min" * bool(minutes)) if part
        )
        or "0 min"
    )


def _refusal(caller: Caller, kind: str, usage: str, **values: object) -> Notice:
    """A bad argument: what is wrong, then the command's usage in the caller's platform's
    own syntax (``discord_daily_usage`` on Discord, ``daily_usage`` elsewhere)."""
    platform_usage = f"{caller.scope.platform}_{usage}"
    usage_key = platform_usage if messages.has(platform_usage) else usage
    text = f"{t(caller.locale, kind, **values)}\n{t(caller.locale, usage_key)}"
    return Notice(caller.locale, kind, text)


def _choices(question: Question, seed: int, locale: str, action: Callable[[int], str]) -> (
    tuple[ChoiceView, ...]
):  # fmt: skip
    order = shuffled_order(seed, question.id, len(question.choices))
    return tuple(
        ChoiceView(LETTERS[shown], i18n.pick(question.choices[choice], locale), action(choice))
        for shown, choice in enumerate(order)
    )


def _daily_choices(post: DailyPost, question: Question, locale: str) -> tuple[ChoiceView, ...]:
    return _choices(question, post.seed, locale, lambda c: codec.DailyAction(post.id, c).encode())


def _bars(choices: Sequence[ChoiceView], results: ChannelResults, question: Question) -> (
    tuple[tuple[BarRow, ...], ChoiceView, int]
):  # fmt: skip
    """Distribution rows in the shown order, the right choice and the answer count."""
    keys = [codec.decode(c.action_id) for c in choices]
    indices = [getattr(k, "choice", -1) for k in keys]
    total = sum(results.counts.values())
    bars = tuple(
        BarRow(
            c.letter,
            c.text,
            results.counts.get(i, 0),
            round(100 * results.counts.get(i, 0) / total) if total else 0,
            i == question.answer,
        )
        for c, i in zip(choices, indices, strict=True)
    )
    return bars, choices[indices.index(question.answer)], total


def _leader_rows(rows: Sequence[TotalRow]) -> tuple[LeaderRow, ...]:
    return tuple(
        LeaderRow(r.rank, r.player_id, r.name or r.player_id, r.points, r.correct, r.answered)
        for r in rows
    )


class ChannelPlay:
    def __init__(self, catalog: Catalog, store: Store, clock: Clock):
        self.catalog = catalog
        self.store = store
        self.clock = clock
        self.publishers: dict[str, Publisher] = {}
        self.count_refresh = COUNT_REFRESH
        self._reveal_retry: dict[str, float] = {}  # post id -> when to try its reveal again
        self.reveal_hours: float | None = None  # default delay of a daily reveal
        self._refresh_pending: set[str] = set()
        self._refresh_tasks: set[asyncio.Task[None]] = set()

    def _question(self, bank_id: str, question_id: str) -> tuple[Bank, Question] | None:
        bank = self.catalog.get(bank_id)
        question = bank.question(question_id) if bank else None
        return (bank, question) if bank and question else None

    def _publisher(self, scope: ScopeRef) -> Publisher | None:
        return self.publishers.get(scope.platform)

    async def _post(
        self, publisher: Publisher, scope: ScopeRef, view: ChannelView, what: str
    ) -> str | None:
        """Post in a channel; a platform failure is logged once and counted, and the
        caller goes on (the scheduler must never stop over one channel)."""
        try:
            return await publisher.post(scope, view)
        except Exception as exc:
            log.warning("%s for %s could not be posted: %s", what, scope, exc)
            metrics.API_ERRORS.labels(platform=scope.platform).inc()
            return None

    # --- the daily question: commands ----------------------------------------------

    async def daily_on(
        self, caller: Caller, topics: str, at: str, timezone: str, reveal_hours: float | None
    ) -> Notice:
        loc = caller.locale
        if not caller.is_admin:
            return _notice(loc, "admin_only")
        names = [n for n in topics.split(",") if n.strip()]
        banks = [self.catalog.find(n) for n in names]
        unknown = [n for n, b in zip(names, banks, strict=True) if b is None]
        if not names or unknown:
            return _refusal(caller, "bad_topics", "daily_usage", topics=", ".join(unknown) or "—")
        when = parse_time(at)
        if when is None:
            return _refusal(caller, "bad_time", "daily_usage", value=at)
        zone = parse_timezone(timezone)
        if zone is None:
            return _refusal(caller, "bad_timezone", "daily_usage", value=timezone)
        hours = reveal_hours or self.reveal_hours
        reveal_after = round(3600 * hours) if hours else None
        schedule = DailySchedule(
            caller.scope,
            tuple(dict.fromkeys(b.id for b in banks if b)),
            when,
            zone,
            loc,
            *([reveal_after] if reveal_after else []),
        )
        await self.store.dailies.save_schedule(schedule)
        return Notice(loc, "daily_on", self._daily_status_text(schedule, loc))

    def _daily_status_text(self, schedule: DailySchedule, locale: str) -> str:
        titles = ", ".join(
            i18n.pick(b.title, locale) for b in map(self.catalog.get, schedule.topics) if b
        )
        now = self.clock.now()
        next_at = datetime.fromtimestamp(next_post_at(schedule, now), schedule.zone)
        on = t(
            locale, "daily_on", topics=titles, time=schedule.at.strftime("%H:%M"),
            timezone=schedule.timezone, delay=_duration(schedule.reveal_after),
        )  # fmt: skip
        return f"{on}\n{t(locale, 'daily_next', when=next_at.strftime('%Y-%m-%d %H:%M %Z'))}"

    async def daily_off(self, caller: Caller) -> Notice:
        if not caller.is_admin:
            return _notice(caller.locale, "admin_only")
        removed = await self.store.dailies.remove_schedule(caller.scope)
        return _notice(caller.locale, "daily_off" if removed else "daily_none")

    async def daily_status(self, caller: Caller) -> Notice:
        schedules = await self.store.dailies.schedules(caller.scope.platform)
        mine = next((s for s in schedules if s.scope == caller.scope), None)
        if mine is None:
            return _notice(caller.locale, "daily_none")
        return Notice(caller.locale, "daily_status", self._daily_status_text(mine, caller.locale))

    # --- the daily question: posting, clicks, reveal --------------------------------

    def _daily_view(self, post: DailyPost, answered: int) -> DailyPostView | None:
        found = self._question(post.bank_id, post.question_id)
        if found is None:
            return None
        bank, question = found
        return DailyPostView(
            locale=post.locale,
            post_id=post.id,
            day=post.day,
            topic_title=i18n.pick(bank.title, post.locale),
            prompt=i18n.pick(question.prompt, post.locale),
            choices=_daily_choices(post, question, post.locale),
            answered=answered,
            reveal_at=post.reveal_at,
        )

    async def post_due_dailies(self) -> int:
        """Post every daily question that is due and not posted yet; returns how many."""
        now = self.clock.now()
        schedules = await self.store.dailies.schedules()
        return await self._each("the daily question", schedules, lambda s: self._post_daily(s, now))

    async def _post_daily(self, schedule: DailySchedule, now: float) -> bool:
        day = due_day(schedule, now)
        publisher = self._publisher(schedule.scope)
        if day is None or publisher is None:
            return False
        candidates = [
            (bank.id, q.id)
            for bank in map(self.catalog.get, schedule.topics)
            if bank
            for q in bank.questions
        ]
        if not candidates:
            return False
        cycle, used = await self.store.dailies.history(schedule.scope)
        seed = secrets.randbits(48)
        (bank_id, question_id), new_cycle = draw(candidates, used, seed)
        post = DailyPost(
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
        if not await self.store.dailies.claim_post(post):
            return False  # already posted for that day
        view = self._daily_view(post, 0)
        assert view is not None
        ref = await self._post(publisher, schedule.scope, view, "the daily question")
        if ref is None:  # the platform refused: the day is lost, never doubled
            metrics.DAILY_POSTS.labels(outcome="missed").inc()
            return False
        await self.store.dailies.set_message(post.id, ref)
        metrics.DAILY_POSTS.labels(outcome="made").inc()
        return True

    async def daily_click(self, player: PlayerRef, action: codec.DailyAction, locale: str) -> (
        ChannelFeedback | Notice
    ):  # fmt: skip
        post = await self.store.dailies.post(action.post_id)
        found = self._question(post.bank_id, post.question_id) if post else None
        if post is None or found is None or post.scope.platform != player.platform:
            return _notice(locale, "invalid")
        _, question = found
        if not 0 <= action.choice < len(question.choices):
            return _notice(locale, "invalid")
        now = self.clock.now()
        if post.revealed_at is not None or now >= post.reveal_at:
            return _notice(locale, "daily_closed")
        correct = action.choice == question.answer
        recorded = await self.store.dailies.record_answer(
            post, player, action.choice, correct,
            lambda streak: scoring.daily_points(correct, question.difficulty, streak), now,
        )  # fmt: skip
        choices = _daily_choices(post, question, locale)
        by_key = {codec.decode(c.action_id).choice: c for c in choices}  # type: ignore[union-attr]
        if recorded.duplicate:
            return _notice(locale, "daily_already", letter=by_key[recorded.choice].letter)
        metrics.ANSWERS.labels(mode="daily").inc()
        self._schedule_count_refresh(post)
        return ChannelFeedback(
            locale=locale,
            correct=correct,
            chosen=by_key[action.choice],
            answer=by_key[question.answer],
            explanation=i18n.pick(question.explanation, locale),
            references=question.references,
            points=recorded.points,
            streak=recorded.streak,
            duplicate=False,
        )

    def _schedule_count_refresh(self, post: DailyPost) -> None:
        """Edit the public answer count, coalescing a burst of clicks into one edit."""
        if post.id in self._refresh_pending or post.message_ref is None:
            return
        self._refresh_pending.add(post.id)
        task = asyncio.create_task(self._refresh_count(post))
        self._refresh_tasks.add(task)
        task.add_done_callback(self._refresh_tasks.discard)

    async def _refresh_count(self, post: DailyPost) -> None:
        try:
            await asyncio.sleep(self.count_refresh)
        finally:
            self._refresh_pending.discard(post.id)
        publisher = self._publisher(post.scope)
        try:  # a task of its own: nothing may escape it (no one awaits its result)
            current = await self.store.dailies.post(post.id)
            if publisher is None or current is None or current.revealed_at is not None:
                return
            results = await self.store.dailies.results(current)
            view = self._daily_view(current, sum(results.counts.values()))
            if view is not None:
                await publisher.update(post.scope, post.message_ref or "", view)
        except Exception as exc:
            log.warning("could not update the daily question's answer count: %s", exc)
            metrics.API_ERRORS.labels(platform=post.scope.platform).inc()

    async def reveal_due_dailies(self) -> int:
        now = self.clock.now()
        posts = await self.store.dailies.posts_to_reveal(now)
        return await self._each("the daily results", posts, lambda p: self._reveal_daily(p, now))

    async def _reveal_daily(self, post: DailyPost, now: float) -> bool:
        """Reveal one daily question. Claimed first, so two schedulers never both post it;
        a post the platform refuses gives the claim back, to be tried again later."""
        publisher = self._publisher(post.scope)
        found = self._question(post.bank_id, post.question_id)
        if publisher is None or self._reveal_retry.get(post.id, 0.0) > now:
            return False
        if not await self.store.dailies.mark_revealed(post.id, now):
            return False  # another scheduler has it
        if found is None or post.message_ref is None:
            return False  # nothing to reveal: its bank is gone or it was never posted
        bank, question = found
        results = await self.store.dailies.results(post)
        choices = _daily_choices(post, question, post.locale)
        bars, answer, total = _bars(choices, results, question)
        view = DailyRevealView(
            locale=post.locale,
            day=post.day,
            topic_title=i18n.pick(bank.title, post.locale),
            prompt=i18n.pick(question.prompt, post.locale),
            bars=bars,
            answer=answer,
            explanation=i18n.pick(question.explanation, post.locale),
            references=question.references,
            winners=tuple(w.name or w.player_id for w in results.winners),
            answered=total,
        )
        if await self._post(publisher, post.scope, view, "the daily results"):
            self._reveal_retry.pop(post.id, None)
            metrics.DAILY_REVEALS.labels(outcome="made").inc()
            return True
        await self.store.dailies.unmark_revealed(post.id)
        self._reveal_retry[post.id] = now + REVEAL_RETRY_SECONDS
        metrics.DAILY_REVEALS.labels(outcome="failed").inc()
        return False

    # --- live races -------------------------------------------------------------------

    async def race_start(
        self, caller: Caller, topic: str, questions: int | None, seconds: int | None
    ) -> Notice:
        loc = caller.locale
        bank = self.catalog.find(topic)
        if bank is None:
            return _refusal(caller, "bad_topics", "race_usage", topics=topic)
        publisher = self._publisher(caller.scope)
        if publisher is None:
            return _notice(loc, "try_again")
        count, seconds = clamp_settings(questions, seconds, len(bank.questions))
        seed = secrets.randbits(48)
        ids = [q.id for q in bank.questions]
        now = self.clock.now()
        race = Race(
            id=secrets.token_hex(8),
            scope=caller.scope,
            bank_id=bank.id,
            question_ids=tuple(random.Random(seed).sample(ids, count)),
            seconds=seconds,
            starter_id=caller.player.id,
            locale=loc,
            seed=seed,
            phase="open",
            opened_at=now,
            phase_until=now + seconds,
        )
        if not await self.store.races.create(race, now):
            return _notice(loc, "race_running")
        if not await self._post_race_question(race, publisher):
            await self.store.races.update(race, race.stopped(now))  # nobody could see it
            return _notice(loc, "cannot_post")
        return _notice(loc, "race_started", total=count, seconds=seconds)

    def _race_question(self, race: Race) -> tuple[Bank, Question] | None:
        return self._question(race.bank_id, race.question_ids[race.current])

    def _race_choices(self, race: Race, question: Question, locale: str) -> tuple[ChoiceView, ...]:
        return _choices(
            question, race.seed, locale,
            lambda c: codec.RaceAction(race.id, race.current, c).encode(),
        )  # fmt: skip

    async def _post_race_question(self, race: Race, publisher: Publisher) -> bool:
        found = self._race_question(race)
        if found is None:
            return False
        bank, question = found
        view = RaceQuestionView(
            locale=race.locale,
            race_id=race.id,
            topic_title=i18n.pick(bank.title, race.locale),
            number=race.current + 1,
            total=race.total,
            prompt=i18n.pick(question.prompt, race.locale),
            choices=self._race_choices(race, question, race.locale),
            seconds=race.seconds,
            closes_at=race.phase_until,
        )
        return await self._post(publisher, race.scope, view, "a race question") is not None

    async def race_click(self, player: PlayerRef, action: codec.RaceAction, locale: str) -> (
        RaceLockedView | Notice
    ):  # fmt: skip
        race = await self.store.races.get(action.race_id)
        if race is None or race.scope.platform != player.platform:
            return _notice(locale, "invalid")
        found = self._race_question(race) if action.number == race.current else None
        now = self.clock.now()
        if found is None or not race.accepts(action.number, now):
            return _notice(locale, "race_late")
        _, question = found
        if not 0 <= action.choice < len(question.choices):
            return _notice(locale, "invalid")
        correct = action.choice == question.answer
        elapsed = now - race.opened_at
        recorded = await self.store.races.record_answer(
            race, player, action.choice, correct,
            lambda streak: scoring.race_points(
                correct, question.difficulty, elapsed, race.seconds, streak
            ),
            now,
        )  # fmt: skip
        if not recorded.duplicate:
            metrics.ANSWERS.labels(mode="race").inc()
        choices = self._race_choices(race, question, locale)
        chosen = next(c for c in choices if c.action_id.endswith(f":{recorded.choice}"))
        return RaceLockedView(locale, chosen, recorded.duplicate)

    async def advance_races(self) -> int:
        """Close questions whose time is up and open the next ones; returns the steps."""
        now = self.clock.now()
        races = await self.store.races.running()
        return await self._each("a race", races, lambda race: self._advance_race(race, now))

    async def _advance_race(self, race: Race, now: float) -> bool:
        publisher = self._publisher(race.scope)
        if now < race.phase_until or publisher is None:
            return False
        # Each step is compare-and-set from the state read: a race stopped (or moved on by
        # another scheduler) since then is left as it is.
        if race.phase == "open":
            closed = race.closed(now)
            if not await self.store.races.update(race, closed):
                return False
            await self._reveal_race_question(race, publisher)
            if closed.phase == "done":
                await self._post_podium(closed, publisher, stopped=False)
        else:
            opened = race.next_opened(now)
            if not await self.store.races.update(race, opened):
                return False
            await self._post_race_question(opened, publisher)
        return True

    async def _reveal_race_question(self, race: Race, publisher: Publisher) -> None:
        found = self._race_question(race)
        if found is None:
            return
        bank, question = found
        results = await self.store.races.results(race)
        bars, answer, _ = _bars(self._race_choices(race, question, race.locale), results, question)
        standings = await self.store.races.standings(race, STANDINGS_SHOWN)
        view = RaceRevealView(
            locale=race.locale,
            topic_title=i18n.pick(bank.title, race.locale),
            number=race.current + 1,
            total=race.total,
            prompt=i18n.pick(question.prompt, race.locale),
            bars=bars,
            answer=answer,
            explanation=i18n.pick(question.explanation, race.locale),
            standings=_leader_rows(standings),
        )
        await self._post(publisher, race.scope, view, "a race reveal")

    async def _post_podium(self, race: Race, publisher: Publisher, stopped: bool) -> None:
        bank = self.catalog.get(race.bank_id)
        standings = await self.store.races.standings(race, 10)
        view = RacePodiumView(
            locale=race.locale,
            topic_title=i18n.pick(bank.title, race.locale) if bank else race.bank_id,
            standings=_leader_rows(standings),
            stopped=stopped,
        )
        await self._post(publisher, race.scope, view, "the race podium")

    async def race_stop(self, caller: Caller) -> Notice:
        races = await self.store.races.running(caller.scope)
        if not races:
            return _notice(caller.locale, "race_none")
        race = races[0]
        if race.starter_id != caller.player.id and not caller.is_admin:
            return _notice(caller.locale, "race_not_starter")
        while not await self.store.races.update(race, race.stopped(self.clock.now())):
            current = await self.store.races.get(race.id)  # it moved on: stop it where it is now
            if current is None or current.phase == "done":
                return _notice(caller.locale, "race_none")
            race = current
        publisher = self._publisher(caller.scope)
        if publisher is not None:
            await self._post_podium(race, publisher, stopped=True)
        return _notice(caller.locale, "race_stopped")

    # --- competitions -------------------------------------------------------------------

    async def competition_start(
        self, caller: Caller, name: str, until: str, topics: str | None
    ) -> Notice:
        loc = caller.locale
        if not caller.is_admin:
            return _notice(loc, "admin_only")
        now = self.clock.now()
        try:
            end_day = datetime.strptime(until.strip(), "%Y-%m-%d").replace(tzinfo=UTC)
        except ValueError:
            end_day = None
        ends_at = end_day.timestamp() + 86400 if end_day else 0.0  # the end of that day, UTC
        if not name.strip():
            return _refusal(caller, "competition_no_name", "competition_usage")
        if ends_at <= now:
            return _refusal(caller, "competition_bad_date", "competition_usage", value=until)
        names = [n for n in (topics or "").split(",") if n.strip()]
        banks = [self.catalog.find(n) for n in names]
        unknown = [n for n, b in zip(names, banks, strict=True) if b is None]
        if unknown:
            return _notice(loc, "bad_topics", topics=", ".join(unknown))
        bank_ids = tuple(dict.fromkeys(b.id for b in banks if b))
        created = await self.store.competitions.create(
            caller.scope, name.strip()[:100], bank_ids, now, ends_at, caller.player.id
        )
        if created is None:
            running = await self.store.competitions.running(caller.scope)
            return _notice(loc, "competition_running", name=running.name if running else "")
        titles = ", ".join(
            i18n.pick(b.title, loc) for b in map(self.catalog.get, bank_ids) if b
        ) or t(loc, "all_topics")
        return _notice(loc, "competition_started", name=created.name, until=until, topics=titles)

    async def competition_end(self, caller: Caller) -> Notice:
        if not caller.is_admin:
            return _notice(caller.locale, "admin_only")
        running = await self.store.competitions.running(caller.scope)
        if running is None:
            return _notice(caller.locale, "competition_none")
        await self._finish_competition(running)
        return _notice(caller.locale, "competition_ended", name=running.name)

    async def competition_standings(self, caller: Caller) -> Leaderboard | Notice:
        competition = await self.store.competitions.latest(caller.scope)
        if competition is None:
            return _notice(caller.locale, "competition_none")
        return await self._standings(competition, caller.locale, caller.player.id)

    async def _standings(
        self, competition: Competition, locale: str, player_id: str | None
    ) -> Leaderboard:
        standing = await self.store.boards.standing(
            competition.scope, ALL_BANKS, competition.period, player_id
        )
        you = standing.you
        return Leaderboard(
            locale=locale,
            period="competition",
            topic_title=None,
            rows=_leader_rows(standing.rows),
            you=_leader_rows([you])[0] if you else None,
            competition=competition.name,
            final=competition.ended_at is not None,
        )

    async def end_due_competitions(self) -> int:
        due = await self.store.competitions.due_to_end(self.clock.now())
        return await self._each("a competition", due, self._finish_competition)

    async def _finish_competition(self, competition: Competition) -> bool:
        """End it once and post the final standings where it was started."""
        now = self.clock.now()
        if not await self.store.competitions.end(competition, now):
            return False
        publisher = self._publisher(competition.scope)
        if publisher is None:
            return True
        final = replace(competition, ended_at=now)
        locale = await self._channel_locale(competition.scope)
        standings = await self._standings(final, locale, None)
        await self._post(publisher, competition.scope, standings, "the final standings")
        return True

    async def _channel_locale(self, scope: ScopeRef) -> str:
        schedules = await self.store.dailies.schedules(scope.platform)
        return next((s.locale for s in schedules if s.scope == scope), i18n.DEFAULT_LOCALE)

    # --- the scheduler ----------------------------------------------------------------

    async def serve(self, interval: float = 1.0) -> None:
        """Run the scheduler until cancelled: everything due is done within ``interval``."""
        while True:
            await self.tick()
            await asyncio.sleep(interval)

    async def tick(self) -> None:
        """Do whatever is due now. Each kind of work fails alone: a platform or database
        fault postpones it to the next tick, and a bug stops neither the other kinds nor
        the scheduler (``_each`` isolates the channels within a kind)."""
        for step in (
            self.post_due_dailies,
            self.reveal_due_dailies,
            self.advance_races,
            self.end_due_competitions,
        ):
            try:
                await step()
            except StoreError as exc:
                log.warning("scheduled work postponed: %s", exc)
            except Exception:
                log.exception("scheduled work failed: %s", step.__name__)
                metrics.SCHEDULER_ERRORS.labels(work=step.__name__).inc()

    async def _each(
        self, what: str, items: Iterable[T], work: Callable[[T], Awaitable[bool]]
    ) -> int:
        """Do the work for each channel's item on its own: one bad channel (a broken row,
        a bug) is logged with its traceback and counted, and the others go on."""
        done = 0
        for item in items:
            try:
                done += await work(item)
            except StoreError as exc:
                log.warning("%s postponed: %s", what, exc)
            except Exception:
                where = getattr(item, "scope", item)
                log.exception("%s failed for %s", what, where)
                metrics.SCHEDULER_ERRORS.labels(work=what).inc()
        return done
