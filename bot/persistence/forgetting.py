"""Forgetting: a player's data in one workspace, or a whole workspace's, deleted in one
transaction (children before parents, so foreign keys hold on both backends). Others'
standings stay consistent: leaderboards are per-player rows, and the channel results
are counted from the answers that remain."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.persistence.dialect import Connection

if TYPE_CHECKING:
    from bot.persistence.database import Database
    from bot.persistence.runs import RunRepository

# Per player, in a workspace: (table, the condition naming the player's rows). ``?`` are
# platform, workspace, player, in that order, as many times as the condition needs.
_PLAYER_ROWS: tuple[tuple[str, str], ...] = (
    ("answers", "platform = ? AND workspace_id = ? AND player_id = ?"),
    ("runs", "platform = ? AND workspace_id = ? AND player_id = ?"),
    ("attempts", "platform = ? AND workspace_id = ? AND player_id = ?"),
    (
        "totals",
        "board_id IN (SELECT board_id FROM boards WHERE platform = ? AND workspace_id = ?)"
        " AND player_id = ?",
    ),
    (
        "daily_answers",
        "post_id IN (SELECT post_id FROM daily_posts WHERE platform = ? AND workspace_id = ?)"
        " AND player_id = ?",
    ),
    ("daily_streaks", "platform = ? AND workspace_id = ? AND player_id = ?"),
    (
        "race_answers",
        "race_id IN (SELECT race_id FROM races WHERE platform = ? AND workspace_id = ?)"
        " AND player_id = ?",
    ),
    ("cards", "platform = ? AND workspace_id = ? AND player_id = ?"),
    ("review_log", "platform = ? AND workspace_id = ? AND player_id = ?"),
    ("reminder_sends", "platform = ? AND workspace_id = ? AND player_id = ?"),
    ("reminders", "platform = ? AND workspace_id = ? AND player_id = ?"),
    # Their proposals, pending or decided: an approved question lives on in the bank.
    ("proposals", "platform = ? AND workspace_id = ? AND author_id = ?"),
    ("sharing", "platform = ? AND workspace_id = ? AND player_id = ?"),
    ("members", "platform = ? AND workspace_id = ? AND player_id = ?"),
)
# Where a player is named without owning the row (who started a race, proposed a
# question …): the name is blanked, the row stays the channel's or the workspace's.
_PLAYER_MENTIONS: tuple[tuple[str, str], ...] = (
    ("races", "starter_id"),
    ("competitions", "created_by"),
    ("workspace_banks", "updated_by"),
    ("proposals", "decided_by"),
)
# A whole workspace, children first.
_WORKSPACE_TABLES: tuple[tuple[str, str], ...] = (
    ("answers", "platform = ? AND workspace_id = ?"),
    ("runs", "platform = ? AND workspace_id = ?"),
    ("attempts", "platform = ? AND workspace_id = ?"),
    (
        "totals",
        "board_id IN (SELECT board_id FROM boards WHERE platform = ? AND workspace_id = ?)",
    ),
    ("boards", "platform = ? AND workspace_id = ?"),
    (
        "daily_answers",
        "post_id IN (SELECT post_id FROM daily_posts WHERE platform = ? AND workspace_id = ?)",
    ),
    ("daily_posts", "platform = ? AND workspace_id = ?"),
    ("daily_streaks", "platform = ? AND workspace_id = ?"),
    ("daily_schedules", "platform = ? AND workspace_id = ?"),
    (
        "race_answers",
        "race_id IN (SELECT race_id FROM races WHERE platform = ? AND workspace_id = ?)",
    ),
    ("races", "platform = ? AND workspace_id = ?"),
    ("competitions", "platform = ? AND workspace_id = ?"),
    ("workspace_banks", "platform = ? AND workspace_id = ?"),
    ("proposals", "platform = ? AND workspace_id = ?"),
    ("cards", "platform = ? AND workspace_id = ?"),
    ("review_log", "platform = ? AND workspace_id = ?"),
    ("reminder_sends", "platform = ? AND workspace_id = ?"),
    ("reminders", "platform = ? AND workspace_id = ?"),
    ("installations", "platform = ? AND workspace_id = ?"),
    ("departures", "platform = ? AND workspace_id = ?"),
    ("sharing", "platform = ? AND workspace_id = ?"),
    ("workspace_names", "platform = ? AND workspace_id = ?"),
    ("map_weeks", "platform = ? AND workspace_id = ?"),
    ("members", "platform = ? AND workspace_id = ?"),
)
# A player's name and language are kept per platform while any workspace knows them.
_UNKNOWN_EVERYWHERE = (
    "NOT EXISTS (SELECT 1 FROM members m WHERE m.platform = players.platform"
    " AND m.player_id = players.player_id)"
)


@dataclass(frozen=True)
class Forgotten:
    """Rows deleted, per table (tables with none left out)."""

    rows: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.rows.values())


def _delete(db: Connection, table: str, where: str, values: Sequence[object]) -> int:
    return db.execute(f"DELETE FROM {table} WHERE {where}", values).rowcount


def forget_player(db: Connection, platform: str, workspace: str, player_id: str) -> Forgotten:
    """Everything of one player in one workspace; their name and language too unless they
    play in another workspace of the platform."""
    rows: dict[str, int] = {}
    for table, where in _PLAYER_ROWS:
        count = _delete(db, table, where, (platform, workspace, player_id))
        if count:
            rows[table] = rows.get(table, 0) + count
    for table, column in _PLAYER_MENTIONS:
        db.execute(
            f"UPDATE {table} SET {column} = '' WHERE platform = ? AND workspace_id = ?"
            f" AND {column} = ?",
            (platform, workspace, player_id),
        )
    count = _forget_names(db, platform, [player_id])
    if count:
        rows["players"] = count
    return Forgotten(rows)


def _forget_names(db: Connection, platform: str, players: Sequence[str]) -> int:
    """The names and languages of ``players`` that no workspace knows any more."""
    return sum(
        _delete(
            db,
            "players",
            f"platform = ? AND player_id = ? AND {_UNKNOWN_EVERYWHERE}",
            (platform, player_id),
        )
        for player_id in players
    )


def forget_workspace(db: Connection, platform: str, workspace: str) -> Forgotten:
    """Everything of one workspace; players left with nothing anywhere lose their names."""
    players = [
        row[0]
        for row in db.execute(
            "SELECT player_id FROM members WHERE platform = ? AND workspace_id = ?",
            (platform, workspace),
        ).fetchall()
    ]
    rows: dict[str, int] = {}
    for table, where in _WORKSPACE_TABLES:
        count = _delete(db, table, where, (platform, workspace))
        if count:
            rows[table] = count
    rows["players"] = _forget_names(db, platform, players)
    return Forgotten({table: count for table, count in rows.items() if count})


def workspaces_of(db: Connection, platform: str, player_id: str) -> list[str]:
    """The workspaces of a platform where a player has anything."""
    rows = db.execute(
        "SELECT workspace_id FROM members WHERE platform = ? AND player_id = ?",
        (platform, player_id),
    ).fetchall()
    return sorted(row[0] for row in rows)


class ForgetRepository:
    """Deletes through the one writer, and drops what the run cache holds of it."""

    def __init__(self, database: Database, runs: RunRepository):
        self._database = database
        self._runs = runs

    async def player(
        self, platform: str, player_id: str, workspace: str | None = None
    ) -> dict[str, Forgotten]:
        """The player's data in ``workspace`` (every workspace when None), per workspace."""

        def work(db: Connection) -> dict[str, Forgotten]:
            places = [workspace] if workspace else workspaces_of(db, platform, player_id)
            return {w: forget_player(db, platform, w, player_id) for w in places}

        done = await self._database.write(work)
        self._runs.forget_cached(platform, player_id)
        return done

    async def workspace(self, platform: str, workspace: str) -> Forgotten:
        def work(db: Connection) -> Forgotten:
            return forget_workspace(db, platform, workspace)

        done = await self._database.write(work)
        self._runs.forget_cached(platform, None, workspace)
        return done
