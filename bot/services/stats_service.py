"""A player's stats per topic: the leaderboards' numbers beside what their cards say."""

from __future__ import annotations

from bot.domain.clock import Clock
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.insight_report import percent
from bot.domain.memory import CardState, Memory, due_cutoff
from bot.persistence import BoardRepository, CardRepository
from bot.services.library import Library
from bot.services.reminder_service import Reminders
from bot.ui.views import StatRow, Stats


class PlayerStats:
    def __init__(
        self,
        library: Library,
        boards: BoardRepository,
        cards: CardRepository,
        memory: Memory,
        clock: Clock,
        reminders: Reminders,
    ):
        """``memory``: the scheduler that grades the cards, which estimates recall too;
        ``reminders`` tell where a player's day begins (what is due today)."""
        self._library = library
        self._boards = boards
        self._cards = cards
        self._memory = memory
        self._clock = clock
        self._reminders = reminders

    async def view(self, player: PlayerRef, scope: ScopeRef, locale: str) -> Stats:
        """Per topic: first attempts and points (the leaderboards' numbers), and the
        player's cards: questions seen, due today, retention and estimated recall."""
        catalog = await self._library.of(scope)
        now = self._clock.now()
        cutoff = due_cutoff(now, await self._reminders.zone(player, scope))
        totals = {row.bank_id: row for row in await self._boards.bank_totals(scope, player.id)}
        by_bank: dict[str, list[CardState]] = {}
        for stored in await self._cards.all(player, scope):
            by_bank.setdefault(stored.bank_id, []).append(stored.card)
        kept = {r.bank_id: r for r in await self._cards.retention(player, scope)}
        recall = self._memory.recall
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
