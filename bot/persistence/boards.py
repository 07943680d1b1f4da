"""Leaderboards: reads of the maintained totals (``ledger.py`` keeps them as answers are
written), and crediting points to them directly."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.answers import Credit
from bot.domain.identities import ScopeRef
from bot.persistence.database import Database
from bot.persistence.dialect import Connection
from bot.persistence.rows import ALL_BANKS, BankTotals, Standing, TotalRow


class BoardRepository:
    def __init__(self, database: Database):
        self._database = database

    async def standing(
        self,
        scope: ScopeRef,
        bank_id: str,
        period: str,
        player_id: str | None,
        limit: int = 10,
        count: bool = False,
    ) -> Standing:
        """Top ``limit`` of a leaderboard, the asking player's row and (with ``count``)
        how many have points. Served from the maintained totals through the
        ``totals_rank`` index: the cost grows with the rank, not with the answers."""
        board = (
            "(SELECT board_id FROM boards WHERE platform = ? AND workspace_id = ?"
            " AND bank_id = ? AND period = ?)"
        )
        key = (scope.platform, scope.workspace_id, bank_id, period)
        read = self._database.read
        top = await read(
            "SELECT t.player_id, COALESCE(p.name, ''), t.points, t.correct, t.answered"
            " FROM totals t LEFT JOIN players p ON p.platform = ? AND p.player_id = t.player_id"
            f" WHERE t.board_id = {board} AND t.points > 0"
            " ORDER BY t.points DESC, t.reached_at, t.player_id LIMIT ?",
            (scope.platform, *key, limit),
        )
        rows = tuple(
            TotalRow(pid, name, points, correct, answered, rank=i)
            for i, (pid, name, points, correct, answered) in enumerate(top, start=1)
        )
        you = next((row for row in rows if row.player_id == player_id), None)
        if you is None and player_id is not None:
            mine = await read(
                # Players ahead, counted as three index ranges: one OR of them would
                # make SQLite merge row sets (about 20x slower on a 10,000-row board).
                "SELECT t.points, t.correct, t.answered, COALESCE(p.name, ''),"
                " (SELECT COUNT(*) FROM totals o WHERE o.board_id = t.board_id"
                "  AND o.points > t.points)"
                " + (SELECT COUNT(*) FROM totals o WHERE o.board_id = t.board_id"
                "  AND o.points = t.points AND o.reached_at < t.reached_at)"
                " + (SELECT COUNT(*) FROM totals o WHERE o.board_id = t.board_id"
                "  AND o.points = t.points AND o.reached_at = t.reached_at"
                "  AND o.player_id < t.player_id)"
                " FROM totals t LEFT JOIN players p ON p.platform = ? AND p.player_id = ?"
                f" WHERE t.board_id = {board} AND t.player_id = ? AND t.points > 0",
                (scope.platform, player_id, *key, player_id),
            )
            if mine:
                points, correct, answered, name, ahead = mine[0]
                you = TotalRow(player_id, name, points, correct, answered, rank=ahead + 1)
        players = 0
        if count:
            found = await read(
                f"SELECT COUNT(*) FROM totals WHERE board_id = {board} AND points > 0", key
            )
            players = found[0][0]
        return Standing(rows, you, players)

    async def bank_totals(self, scope: ScopeRef, player_id: str) -> list[BankTotals]:
        rows = await self._database.read(
            "SELECT b.bank_id, t.points, t.correct, t.answered FROM boards b JOIN totals t"
            " ON t.board_id = b.board_id WHERE b.platform = ? AND b.workspace_id = ?"
            " AND b.period = 'all' AND t.player_id = ? AND b.bank_id != ? ORDER BY b.bank_id",
            (scope.platform, scope.workspace_id, player_id, ALL_BANKS),
        )
        return [BankTotals(*row) for row in rows]

    async def credit(self, credits: Sequence[Credit]) -> None:
        """Add scored answers to every leaderboard they count on, as each answer's own
        write does, without the answer rows (benchmarks build large boards this way)."""
        ledger = self._database.ledger

        def work(db: Connection) -> None:
            ledger.credit_many(db, list(credits))

        await self._database.write(work)
