"""Leaderboards: a workspace's standings over a calendar period, of one topic or all."""

from __future__ import annotations

from bot.domain.clock import Clock
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.periods import ALL, CALENDAR_PERIODS, calendar_key
from bot.persistence import ALL_BANKS, BoardRepository
from bot.services.channel import leader_row
from bot.services.library import Library
from bot.services.topics import topic_list
from bot.ui.views import Leaderboard, TopicList


class Leaderboards:
    def __init__(self, library: Library, boards: BoardRepository, clock: Clock):
        self._library = library
        self._boards = boards
        self._clock = clock

    async def view(
        self,
        player: PlayerRef,
        scope: ScopeRef,
        locale: str,
        period: str = ALL,
        topic: str | None = None,
    ) -> Leaderboard | TopicList:
        """The top of the board and the player's own row; an unknown period is all time,
        an unknown topic gets the topic list."""
        catalog = await self._library.of(scope)
        bank = catalog.find(topic) if topic else None
        if topic and bank is None:
            return topic_list(catalog, locale, unknown=topic)
        if period not in CALENDAR_PERIODS:
            period = ALL
        standing = await self._boards.standing(
            scope,
            bank.id if bank else ALL_BANKS,
            calendar_key(period, self._clock.now()),
            player.id,
        )
        return Leaderboard(
            locale=locale,
            period=period,
            topic_title=bank.text(bank.title, locale) if bank else None,
            rows=tuple(map(leader_row, standing.rows)),
            you=leader_row(standing.you) if standing.you else None,
        )
