"""The team's knowledge map as the core serves it: for chat, for the dashboard, and the
member's choice to be named on it (the rules: ``bot.domain.knowledge_map``)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from bot.content.banks import Catalog
from bot.domain.clock import Clock
from bot.domain.identities import ScopeRef
from bot.domain.knowledge_map import FLOOR, TopicKnowledge, knowledge_map, recall_by_topic
from bot.domain.memory import Memory
from bot.persistence import InsightRepository, KnowledgeRepository
from bot.persistence.cards import card_state
from bot.persistence.knowledge import CardRow
from bot.services.channel import notice
from bot.services.insights import title_of
from bot.services.library import Library
from bot.services.requests import Context
from bot.services.scheduler import Duty
from bot.ui.views import MapRow, MapView, Notice

SHOWN_TOPICS = 12  # topics in chat, the most started first; the dashboard shows them all
TREND_WEEKS = 8  # weeks of the map's trend on the dashboard


@dataclass(frozen=True)
class WeekCell:
    """A topic's map in a recorded week: how many had started, how many were solid (None:
    under the floor that week)."""

    monday: str
    started: int
    solid: int | None


@dataclass(frozen=True)
class TopicTrend:
    title: str
    weeks: tuple[WeekCell | None, ...]  # one per Monday of the trend; None: not recorded


class KnowledgeMaps:
    def __init__(
        self,
        library: Library,
        knowledge: KnowledgeRepository,
        insights: InsightRepository,
        memory: Memory,
        clock: Clock,
    ):
        self._library = library
        self._knowledge = knowledge
        self._insights = insights
        self._memory = memory
        self._clock = clock
        self.recording = Duty("recording the knowledge map's week", self._unrecorded, self._record)

    def _monday(self) -> date:
        today = datetime.fromtimestamp(self._clock.now(), UTC).date()
        return today - timedelta(days=today.weekday())

    async def _unrecorded(self) -> list[ScopeRef]:
        return await self._knowledge.unrecorded(self._monday().isoformat())

    async def _record(self, scope: ScopeRef) -> bool:
        """The workspace's map this week, kept for its trend (recorded at the week's first
        tick: the map as the week began)."""
        mapped, _ = await self.topics(scope)
        counts = [(t.bank_id, t.started, t.solid, t.shaky) for t in mapped]
        await self._knowledge.record(scope, self._monday().isoformat(), counts)
        return True

    async def trend(
        self, scope: ScopeRef, locale: str, weeks: int = TREND_WEEKS
    ) -> tuple[tuple[str, ...], tuple[TopicTrend, ...]]:
        """The last ``weeks`` Mondays (oldest first) and each recorded topic's map in them,
        the topics most started in the latest week first."""
        mondays = tuple(
            (self._monday() - timedelta(weeks=n)).isoformat() for n in reversed(range(weeks))
        )
        recorded = await self._knowledge.weeks(scope, mondays[0])
        cells: dict[str, dict[str, WeekCell]] = {}
        for bank, monday, started, solid in recorded:
            cells.setdefault(bank, {})[monday] = WeekCell(monday, started, solid)
        catalog = await self._library.of(scope)

        def latest(bank: str) -> tuple[int, str]:
            last = max(cells[bank].values(), key=lambda c: c.monday)
            return (-last.started, bank)

        return mondays, tuple(
            TopicTrend(title_of(catalog, bank, locale), tuple(cells[bank].get(m) for m in mondays))
            for bank in sorted(cells, key=latest)
            if catalog.get(bank) is not None
        )

    async def topics(
        self, scope: ScopeRef, viewer: str | None = None
    ) -> tuple[tuple[TopicKnowledge, ...], Catalog]:
        """The map of the workspace's topics, as ``viewer`` (a player id; None: a lead's
        dashboard, which names only those who opted in) may see it."""
        rows = await self._knowledge.card_rows(scope)
        # Every member's every card: work that grows with the team (a few µs a card), so
        # off the event loop, which keeps serving clicks meanwhile.
        recalls = await asyncio.to_thread(_recalls, self._memory, rows, self._clock.now())
        members = await self._knowledge.members(scope)
        named = await self._knowledge.sharing(scope)
        catalog = await self._library.of(scope)
        known = {bank.id for bank in catalog.banks}
        mapped = knowledge_map(
            {b: players for b, players in recalls.items() if b in known}, members, named, viewer
        )
        return mapped, catalog

    async def rows(self, scope: ScopeRef, locale: str, viewer: str | None) -> tuple[MapRow, ...]:
        """The map's rows, names and titles filled in."""
        mapped, catalog = await self.topics(scope, viewer)
        ids = {p for t in mapped for p in (*t.solid_names, *t.shaky_names)}
        names = await self._insights.names(scope.platform, sorted(ids))
        return tuple(
            MapRow(
                title_of(catalog, t.bank_id, locale), t.members, t.started, t.solid, t.shaky,
                tuple(names.get(p, p) for p in t.solid_names),
                tuple(names.get(p, p) for p in t.shaky_names), t.mine,
            )
            for t in mapped
        )  # fmt: skip

    async def view(self, context: Context) -> MapView:
        scope = ScopeRef(context.scope.platform, context.scope.workspace_id)
        rows = await self.rows(scope, context.locale, context.player.id)
        sharing = context.player.id in await self._knowledge.sharing(scope)
        shown = rows[:SHOWN_TOPICS]
        return MapView(context.locale, shown, FLOOR, sharing, len(rows) - len(shown))

    async def share(self, context: Context, on: bool) -> Notice:
        await self._knowledge.share(context.player, context.scope, on)
        return notice(context.locale, "share_on" if on else "share_off")


def _recalls(memory: Memory, rows: list[CardRow], now: float) -> dict[str, dict[str, float]]:
    """Each topic's members' mean chance to recall its questions now, from their cards."""
    return recall_by_topic((p, bank, memory.recall(card_state(c), now)) for p, bank, *c in rows)
