"""The reads behind the team's knowledge map (every member's cards in a workspace), and
who lets the map name them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.domain.identities import PlayerRef, ScopeRef
from bot.persistence.cards import CARD_COLUMNS
from bot.persistence.database import Database
from bot.persistence.dialect import Connection

WEEK_RECORDED = "*"  # the bank id of the row that marks a week's map as recorded
WeekCounts = tuple[str, int, int | None, int | None]  # bank id, started, solid, shaky
CardRow = tuple[Any, ...]  # player id, bank id, then a card's stored columns


class KnowledgeRepository:
    def __init__(self, database: Database):
        self._database = database

    async def card_rows(self, scope: ScopeRef) -> list[CardRow]:
        """Every member's cards in the workspace: (player id, bank id, *the card's columns),
        as stored (``cards.card_state`` reads a card from its columns)."""
        rows = await self._database.read(
            f"SELECT player_id, bank_id, {CARD_COLUMNS} FROM cards"
            " WHERE platform = ? AND workspace_id = ?",
            (scope.platform, scope.workspace_id),
        )
        return [tuple(row) for row in rows]

    async def members(self, scope: ScopeRef) -> set[str]:
        """Everyone the bot has seen in the workspace."""
        rows = await self._database.read(
            "SELECT player_id FROM members WHERE platform = ? AND workspace_id = ?",
            (scope.platform, scope.workspace_id),
        )
        return {player for (player,) in rows}

    async def sharing(self, scope: ScopeRef) -> set[str]:
        """The members who let the map name them."""
        rows = await self._database.read(
            "SELECT player_id FROM sharing WHERE platform = ? AND workspace_id = ?",
            (scope.platform, scope.workspace_id),
        )
        return {player for (player,) in rows}

    async def share(self, player: PlayerRef, scope: ScopeRef, on: bool) -> None:
        key = (player.platform, scope.workspace_id, player.id)

        def work(db: Connection) -> None:
            if on:
                db.execute(
                    "INSERT INTO sharing (platform, workspace_id, player_id) VALUES (?, ?, ?)"
                    " ON CONFLICT DO NOTHING",
                    key,
                )
                # Seen in the workspace: forgetting the workspace or the player finds it.
                db.execute(
                    "INSERT INTO members (platform, workspace_id, player_id) VALUES (?, ?, ?)"
                    " ON CONFLICT DO NOTHING",
                    key,
                )
            else:
                db.execute(
                    "DELETE FROM sharing WHERE platform = ? AND workspace_id = ? AND player_id = ?",
                    key,
                )

        await self._database.write(work)

    async def unrecorded(self, monday: str) -> list[ScopeRef]:
        """The workspaces with members whose map is not yet recorded for the week."""
        rows = await self._database.read(
            "SELECT DISTINCT m.platform, m.workspace_id FROM members m WHERE NOT EXISTS"
            " (SELECT 1 FROM map_weeks w WHERE w.platform = m.platform"
            " AND w.workspace_id = m.workspace_id AND w.monday = ? AND w.bank_id = ?)",
            (monday, WEEK_RECORDED),
        )
        return [ScopeRef(platform, workspace) for platform, workspace in rows]

    async def record(
        self,
        scope: ScopeRef,
        monday: str,
        topics: Sequence[tuple[str, int, int | None, int | None]],
    ) -> None:
        """The week's map: (bank id, started, solid, shaky) per topic, and the mark that
        the week is recorded; a week already recorded stays as it was."""
        key = (scope.platform, scope.workspace_id)

        def work(db: Connection) -> None:
            db.executemany(
                "INSERT INTO map_weeks (platform, workspace_id, bank_id, monday, started,"
                " solid, shaky) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [(*key, bank, monday, *counts) for bank, *counts in topics]
                + [(*key, WEEK_RECORDED, monday, 0, None, None)],
            )

        await self._database.write(work)

    async def weeks(self, scope: ScopeRef, since: str) -> list[tuple[str, str, int, int | None]]:
        """The recorded weeks from Monday ``since`` on: (bank id, Monday, started, solid)."""
        rows = await self._database.read(
            "SELECT bank_id, monday, started, solid FROM map_weeks WHERE platform = ?"
            " AND workspace_id = ? AND monday >= ? AND bank_id <> ? ORDER BY monday, bank_id",
            (scope.platform, scope.workspace_id, since, WEEK_RECORDED),
        )
        return [(bank, monday, int(started), solid) for bank, monday, started, solid in rows]
