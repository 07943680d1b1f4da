"""The reads behind the team's knowledge map (every member's cards in a workspace), and
who lets the map name them."""

from __future__ import annotations

from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.memory import CardState
from bot.persistence.cards import CARD_COLUMNS, card_state
from bot.persistence.database import Database
from bot.persistence.dialect import Connection


class KnowledgeRepository:
    def __init__(self, database: Database):
        self._database = database

    async def cards(self, scope: ScopeRef) -> list[tuple[str, str, CardState]]:
        """Every member's cards in the workspace: (player id, bank id, card)."""
        rows = await self._database.read(
            f"SELECT player_id, bank_id, {CARD_COLUMNS} FROM cards"
            " WHERE platform = ? AND workspace_id = ?",
            (scope.platform, scope.workspace_id),
        )
        return [(player, bank, card_state(card)) for player, bank, *card in rows]

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
