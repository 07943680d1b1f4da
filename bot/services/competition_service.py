"""Competitions: starting and ending one in a workspace, its standings, and its final
standings posted where it started when its window closes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime

from bot.domain.clock import Clock
from bot.domain.competition import Competition
from bot.domain.identities import ScopeRef
from bot.persistence import ALL_BANKS, BoardRepository, CompetitionRepository
from bot.services.channel import Publishers, leader_row, notice, post, refusal
from bot.services.library import Library
from bot.services.requests import Context
from bot.services.scheduler import Duty
from bot.ui.messages import t
from bot.ui.views import Leaderboard, Notice


class Competitions:
    def __init__(
        self,
        library: Library,
        competitions: CompetitionRepository,
        boards: BoardRepository,
        clock: Clock,
        publishers: Publishers,
        channel_locale: Callable[[ScopeRef], Awaitable[str]],
    ):
        """``channel_locale``: the language to post a channel's final standings in."""
        self._library = library
        self._competitions = competitions
        self._boards = boards
        self._clock = clock
        self._publishers = publishers
        self._channel_locale = channel_locale
        self.ending = Duty("a competition", self._due, self._finish)

    async def start(self, context: Context, name: str, until: str, topics: str | None) -> Notice:
        loc = context.locale
        now = self._clock.now()
        try:
            end_day = datetime.strptime(until.strip(), "%Y-%m-%d").replace(tzinfo=UTC)
        except ValueError:
            end_day = None
        ends_at = end_day.timestamp() + 86400 if end_day else 0.0  # the end of that day, UTC
        if not name.strip():
            return refusal(context, "competition_no_name", "competition")
        if ends_at <= now:
            return refusal(context, "competition_bad_date", "competition", value=until)
        names = [n for n in (topics or "").split(",") if n.strip()]
        catalog = await self._library.of(context.scope)
        banks = [catalog.find(n) for n in names]
        unknown = [n for n, b in zip(names, banks, strict=True) if b is None]
        if unknown:
            return notice(loc, "bad_topics", topics=", ".join(unknown))
        bank_ids = tuple(dict.fromkeys(b.id for b in banks if b))
        created = await self._competitions.create(
            context.scope, name.strip()[:100], bank_ids, now, ends_at, context.player.id
        )
        if created is None:
            running = await self._competitions.running(context.scope)
            return notice(loc, "competition_running", name=running.name if running else "")
        titles = ", ".join(b.text(b.title, loc) for b in map(catalog.get, bank_ids) if b) or t(
            loc, "all_topics"
        )
        return notice(loc, "competition_started", name=created.name, until=until, topics=titles)

    async def end(self, context: Context) -> Notice:
        running = await self._competitions.running(context.scope)
        if running is None:
            return notice(context.locale, "competition_none")
        await self._finish(running)
        return notice(context.locale, "competition_ended", name=running.name)

    async def latest(self, scope: ScopeRef) -> Competition | None:
        """The workspace's running competition, else the one that ended last."""
        return await self._competitions.latest(scope)

    async def standings(self, context: Context) -> Leaderboard | Notice:
        competition = await self.latest(context.scope)
        if competition is None:
            return notice(context.locale, "competition_none")
        return await self._leaderboard(competition, context.locale, context.player.id)

    async def _leaderboard(
        self, competition: Competition, locale: str, player_id: str | None
    ) -> Leaderboard:
        standing = await self._boards.standing(
            competition.scope, ALL_BANKS, competition.period, player_id
        )
        you = standing.you
        return Leaderboard(
            locale=locale,
            period="competition",
            topic_title=None,
            rows=tuple(map(leader_row, standing.rows)),
            you=leader_row(you) if you else None,
            competition=competition.name,
            final=competition.ended_at is not None,
        )

    async def _due(self) -> list[Competition]:
        return await self._competitions.due_to_end(self._clock.now())

    async def _finish(self, competition: Competition) -> bool:
        """End it once and post the final standings where it was started."""
        now = self._clock.now()
        if not await self._competitions.end(competition, now):
            return False
        publisher = self._publishers.get(competition.scope.platform)
        if publisher is None:
            return True
        final = replace(competition, ended_at=now)
        locale = await self._channel_locale(competition.scope)
        standings = await self._leaderboard(final, locale, None)
        await post(publisher, competition.scope, standings, "the final standings")
        return True
