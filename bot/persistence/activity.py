"""When one player answered: the read behind their own streak. The review log holds every
answer from every source (quiz, practice, review, daily, race); its index by player makes
this one player's rows, not the workspace's log that insights read."""

from __future__ import annotations

from bot.domain.identities import PlayerRef, ScopeRef
from bot.persistence.database import Database


class ActivityRepository:
    def __init__(self, database: Database):
        self._database = database

    async def answered_at(self, player: PlayerRef, scope: ScopeRef) -> list[float]:
        """When the player answered in the workspace (in no order)."""
        rows = await self._database.read(
            "SELECT reviewed_at FROM review_log WHERE platform = ? AND workspace_id = ?"
            " AND player_id = ?",
            (player.platform, scope.workspace_id, player.id),
        )
        return [float(at) for (at,) in rows]
