"""Review reminders: who asked for one and when, and the days each was sent on (a
primary key, so a reminder is never sent twice in a day, whichever process sends it)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import time
from typing import Any

from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.reminder import Reminder
from bot.persistence.database import Database
from bot.persistence.dialect import Connection

_COLUMNS = "platform, workspace_id, player_id, at, timezone, locale, next_at"


def _reminder(row: Sequence[Any]) -> Reminder:
    platform, workspace, player, at, timezone, locale, next_at = row
    return Reminder(
        ScopeRef(platform, workspace, ""), player, time.fromisoformat(at), timezone, locale, next_at
    )


class ReminderRepository:
    def __init__(self, database: Database):
        self._database = database

    async def save(self, reminder: Reminder) -> None:
        def work(db: Connection) -> None:
            db.execute(
                f"INSERT INTO reminders ({_COLUMNS}) VALUES (?,?,?,?,?,?,?)"
                " ON CONFLICT (platform, workspace_id, player_id) DO UPDATE SET"
                " at = excluded.at, timezone = excluded.timezone, locale = excluded.locale,"
                " next_at = excluded.next_at",
                (
                    reminder.scope.platform,
                    reminder.scope.workspace_id,
                    reminder.player_id,
                    reminder.at.strftime("%H:%M"),
                    reminder.timezone,
                    reminder.locale,
                    reminder.next_at,
                ),
            )

        await self._database.write(work)

    async def remove(self, player: PlayerRef, scope: ScopeRef) -> bool:
        def work(db: Connection) -> bool:
            return (
                db.execute(
                    "DELETE FROM reminders WHERE platform = ? AND workspace_id = ?"
                    " AND player_id = ?",
                    (player.platform, scope.workspace_id, player.id),
                ).rowcount
                > 0
            )

        return await self._database.write(work)

    async def get(self, player: PlayerRef, scope: ScopeRef) -> Reminder | None:
        rows = await self._database.read(
            f"SELECT {_COLUMNS} FROM reminders WHERE platform = ? AND workspace_id = ?"
            " AND player_id = ?",
            (player.platform, scope.workspace_id, player.id),
        )
        return _reminder(rows[0]) if rows else None

    async def due(self, now: float, platforms: Sequence[str]) -> list[Reminder]:
        """Reminders whose time has come, on the platforms that can deliver them."""
        if not platforms:
            return []
        rows = await self._database.read(
            f"SELECT {_COLUMNS} FROM reminders WHERE next_at <= ?"
            f" AND platform IN ({','.join('?' * len(platforms))}) ORDER BY next_at",
            (now, *platforms),
        )
        return [_reminder(row) for row in rows]

    async def advance(self, reminder: Reminder, next_at: float, sent_day: str | None) -> bool:
        """Move the reminder on to ``next_at``; with ``sent_day``, also claim that day's
        message. False when the day was claimed already or another process moved the
        reminder first (then nothing is sent)."""
        key = (reminder.scope.platform, reminder.scope.workspace_id, reminder.player_id)

        def work(db: Connection) -> bool:
            moved = db.execute(
                "UPDATE reminders SET next_at = ? WHERE platform = ? AND workspace_id = ?"
                " AND player_id = ? AND next_at = ?",
                (next_at, *key, reminder.next_at),
            ).rowcount
            if not moved or sent_day is None:
                return False
            claimed = db.execute(
                "INSERT INTO reminder_sends VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING",
                (*key, sent_day, reminder.next_at),
            ).rowcount
            return claimed > 0

        return await self._database.write(work)
