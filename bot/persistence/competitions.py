"""Competitions: one running per workspace (a UNIQUE index); the ledger credits their
leaderboards while they run."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.domain.competition import Competition
from bot.domain.identities import ScopeRef
from bot.persistence.channels import channel_key
from bot.persistence.database import Database
from bot.persistence.dialect import Connection

_COLUMNS = (
    "competition_id, platform, workspace_id, channel_id, name, topics, starts_at, ends_at,"
    " created_by, ended_at"
)


class CompetitionRepository:
    def __init__(self, database: Database):
        self._database = database

    async def create(
        self,
        scope: ScopeRef,
        name: str,
        topics: tuple[str, ...],
        starts_at: float,
        ends_at: float,
        created_by: str,
    ) -> Competition | None:
        """None when the workspace already has a competition running."""
        ledger = self._database.ledger

        def work(db: Connection) -> int | None:
            created = db.execute(
                "INSERT INTO competitions (platform, workspace_id, channel_id, name, topics,"
                " starts_at, ends_at, created_by) VALUES (?,?,?,?,?,?,?,?)"
                " ON CONFLICT DO NOTHING RETURNING competition_id",
                (*channel_key(scope), name, json.dumps(topics), starts_at, ends_at, created_by),
            ).fetchone()
            if created is None:
                return None
            ledger.forget_competitions()
            return int(created[0])

        competition_id = await self._database.write(work)
        if competition_id is None:
            return None
        return Competition(competition_id, scope, name, topics, starts_at, ends_at, created_by)

    async def running(self, scope: ScopeRef) -> Competition | None:
        rows = await self._database.read(
            f"SELECT {_COLUMNS} FROM competitions WHERE platform = ?"
            " AND workspace_id = ? AND ended_at IS NULL",
            (scope.platform, scope.workspace_id),
        )
        return _competition(rows[0]) if rows else None

    async def latest(self, scope: ScopeRef) -> Competition | None:
        rows = await self._database.read(
            f"SELECT {_COLUMNS} FROM competitions WHERE platform = ?"
            " AND workspace_id = ? ORDER BY ended_at IS NULL DESC, competition_id DESC LIMIT 1",
            (scope.platform, scope.workspace_id),
        )
        return _competition(rows[0]) if rows else None

    async def due_to_end(self, now: float) -> list[Competition]:
        rows = await self._database.read(
            f"SELECT {_COLUMNS} FROM competitions WHERE ended_at IS NULL AND ends_at <= ?",
            (now,),
        )
        return [_competition(row) for row in rows]

    async def end(self, competition: Competition, at: float) -> bool:
        """False when it had already ended (so its results are announced once)."""
        ledger = self._database.ledger

        def work(db: Connection) -> bool:
            cursor = db.execute(
                "UPDATE competitions SET ended_at = ? WHERE competition_id = ?"
                " AND ended_at IS NULL",
                (at, competition.id),
            )
            ledger.forget_competitions()
            return cursor.rowcount == 1

        return await self._database.write(work)


def _competition(row: Sequence[Any]) -> Competition:
    cid, platform, workspace, channel, name, topics, *rest = row
    return Competition(
        cid, ScopeRef(platform, workspace, channel), name, tuple(json.loads(topics)), *rest
    )
