"""The reads behind insights: a workspace's answer log, who is in it, and its name as its
platform last gave it (the dashboard's heading)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.domain.identities import ScopeRef
from bot.domain.insight_report import LoggedAnswer, LoggedEstimate
from bot.persistence.database import Database
from bot.persistence.dialect import Connection


class InsightRepository:
    def __init__(self, database: Database):
        self._database = database

    async def log(
        self, scope: ScopeRef, question: tuple[str, str] | None = None
    ) -> list[LoggedAnswer]:
        """Every answer in the workspace (to one (bank, question), if given), in the order
        given: first tries need them all."""
        one = " AND bank_id = ? AND question_id = ?" if question else ""
        rows = await self._database.read(
            "SELECT review_id, player_id, bank_id, question_id, source, choice, rating > 1,"
            " reviewed_at, was_due FROM review_log WHERE platform = ? AND workspace_id = ?"
            f"{one} ORDER BY review_id",
            (scope.platform, scope.workspace_id, *(question or ())),
        )
        return [
            LoggedAnswer(rid, player, bank, question, source, choice, bool(right), at, bool(due))
            for rid, player, bank, question, source, choice, right, at, due in rows
        ]

    async def estimates(
        self, scope: ScopeRef, question: tuple[str, str] | None = None
    ) -> list[LoggedEstimate]:
        """Every estimate answered in the workspace's quizzes and daily posts (values in
        base units); only those of ``question`` (bank id, question id) when given."""
        one = " AND bank_id = ? AND question_id = ?" if question else ""
        rows = await self._database.read(
            "SELECT player_id, bank_id, question_id, estimate, answered_at FROM answers"
            f" WHERE platform = ? AND workspace_id = ? AND estimate IS NOT NULL{one}"
            " UNION ALL SELECT a.player_id, p.bank_id, p.question_id, a.estimate,"
            " a.answered_at FROM daily_answers a JOIN daily_posts p ON p.post_id = a.post_id"
            f" WHERE p.platform = ? AND p.workspace_id = ? AND a.estimate IS NOT NULL{one}",
            (scope.platform, scope.workspace_id, *(question or ())) * 2,
        )
        return [LoggedEstimate(p, b, q, float(v), float(at)) for p, b, q, v, at in rows]

    async def names(self, platform: str, player_ids: Sequence[str]) -> dict[str, str]:
        """Display names of players (those without one are left out)."""
        found: dict[str, str] = {}
        ids = sorted(set(player_ids))
        for start in range(0, len(ids), 300):
            chunk = ids[start : start + 300]
            rows = await self._database.read(
                "SELECT player_id, name FROM players WHERE platform = ?"
                f" AND player_id IN ({','.join('?' * len(chunk))}) AND name != ''",
                (platform, *chunk),
            )
            found.update({player: name for player, name in rows})
        return found

    async def workspaces(self) -> list[ScopeRef]:
        """The workspaces that have answers."""
        rows = await self._database.read(
            "SELECT DISTINCT platform, workspace_id FROM review_log ORDER BY 1, 2", ()
        )
        return [ScopeRef(platform, workspace) for platform, workspace in rows]

    async def name(self, scope: ScopeRef) -> str | None:
        rows = await self._database.read(
            "SELECT name FROM workspace_names WHERE platform = ? AND workspace_id = ?",
            (scope.platform, scope.workspace_id),
        )
        return str(rows[0][0]) if rows else None

    async def set_name(self, scope: ScopeRef, name: str) -> None:
        def work(db: Connection) -> None:
            db.execute(
                "INSERT INTO workspace_names (platform, workspace_id, name) VALUES (?, ?, ?)"
                " ON CONFLICT (platform, workspace_id) DO UPDATE SET name = excluded.name",
                (scope.platform, scope.workspace_id, name),
            )

        await self._database.write(work)
