"""What the channel-play repositories share: a channel's key columns, and the tally of
a question's answers that a reveal shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.domain.identities import ScopeRef
from bot.persistence.database import Database
from bot.persistence.rows import ChannelResults, TotalRow


def channel_key(scope: ScopeRef) -> tuple[str, str, str]:
    return (scope.platform, scope.workspace_id, scope.channel_id)


async def tally(
    database: Database, table: str, where: str, params: Sequence[Any], platform: str
) -> ChannelResults:
    """Answer counts by choice, and who answered right (most points first), for a
    reveal."""
    counts = await database.read(
        f"SELECT a.choice, COUNT(*) FROM {table} a WHERE {where} GROUP BY a.choice", params
    )
    winners = await database.read(
        f"SELECT a.player_id, COALESCE(p.name, ''), a.points FROM {table} a"
        " LEFT JOIN players p ON p.platform = ? AND p.player_id = a.player_id"
        f" WHERE {where} AND a.correct = 1 ORDER BY a.points DESC, a.answered_at",
        (platform, *params),
    )
    return ChannelResults(
        {int(choice): int(n) for choice, n in counts},
        tuple(TotalRow(pid, name, pts, 1, 1) for pid, name, pts in winners),
    )
