"""Installations and departures. An installation is a platform's credentials for one
workspace, opaque here (the adapter seals them before they arrive); the install flow's
states are one-time tokens; a departure is a workspace that removed the app, whose data
is deleted when its grace period ends. Installing again cancels a pending deletion, in
the same write that saves the installation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.domain.identities import ScopeRef
from bot.persistence.database import Database
from bot.persistence.dialect import Connection
from bot.persistence.forgetting import Forgotten, forget_workspace
from bot.persistence.runs import RunRepository


@dataclass(frozen=True)
class Departure:
    """A workspace that removed the app, and when its data goes."""

    scope: ScopeRef
    left_at: float
    forget_at: float


def _where(workspace: ScopeRef) -> tuple[str, str]:
    return (workspace.platform, workspace.workspace_id)


class InstallRepository:
    def __init__(self, database: Database, runs: RunRepository):
        self._database = database
        self._runs = runs

    # --- installations --------------------------------------------------------------

    async def save(self, workspace: ScopeRef, credentials: str, now: float) -> bool:
        """Keep the workspace's credentials (replacing any); True when this cancelled a
        pending deletion of its data (it had removed the app and came back in time)."""

        def work(db: Connection) -> bool:
            db.execute(
                "INSERT INTO installations VALUES (?,?,?,?) ON CONFLICT (platform, workspace_id)"
                " DO UPDATE SET credentials = excluded.credentials,"
                " installed_at = excluded.installed_at",
                (*_where(workspace), credentials, now),
            )
            return _stay(db, workspace)

        return await self._database.write(work)

    async def stay(self, workspace: ScopeRef) -> bool:
        """Cancel a pending deletion of the workspace's data (it uses the app again);
        True when there was one."""
        return await self._database.write(lambda db: _stay(db, workspace))

    async def credentials(self, workspace: ScopeRef) -> str | None:
        rows = await self._database.read(
            "SELECT credentials FROM installations WHERE platform = ? AND workspace_id = ?",
            _where(workspace),
        )
        return str(rows[0][0]) if rows else None

    async def count(self, platform: str) -> int:
        rows = await self._database.read(
            "SELECT COUNT(*) FROM installations WHERE platform = ?", (platform,)
        )
        return int(rows[0][0])

    # --- the install flow's one-time states ---------------------------------------------

    async def issue_state(self, state: str, expires_at: float, now: float) -> None:
        """Keep a new state (dropping the expired ones: abandoned installs)."""

        def work(db: Connection) -> None:
            db.execute("DELETE FROM install_states WHERE expires_at <= ?", (now,))
            db.execute("INSERT INTO install_states VALUES (?, ?)", (state, expires_at))

        await self._database.write(work)

    async def consume_state(self, state: str, now: float) -> bool:
        """Whether ``state`` was issued and has not expired; it can be used only once."""

        def work(db: Connection) -> bool:
            deleted = db.execute(
                "DELETE FROM install_states WHERE state = ? RETURNING expires_at", (state,)
            ).fetchone()
            return deleted is not None and float(deleted[0]) > now

        return await self._database.write(work)

    # --- departures ---------------------------------------------------------------------

    async def depart(self, workspace: ScopeRef, now: float, forget_at: float) -> Departure:
        """The workspace removed the app: its installation goes now, its data at
        ``forget_at``. A second notice (Slack sends both app_uninstalled and
        tokens_revoked) keeps the first date."""

        def work(db: Connection) -> Departure:
            db.execute(
                "DELETE FROM installations WHERE platform = ? AND workspace_id = ?",
                _where(workspace),
            )
            db.execute(
                "INSERT INTO departures VALUES (?,?,?,?) ON CONFLICT DO NOTHING",
                (*_where(workspace), now, forget_at),
            )
            left_at, when = db.execute(
                "SELECT left_at, forget_at FROM departures WHERE platform = ? AND workspace_id = ?",
                _where(workspace),
            ).fetchone()
            return Departure(workspace, float(left_at), float(when))

        return await self._database.write(work)

    async def due(self, now: float) -> list[Departure]:
        rows = await self._database.read(
            "SELECT platform, workspace_id, left_at, forget_at FROM departures"
            " WHERE forget_at <= ? ORDER BY forget_at",
            (now,),
        )
        return [_departure(row) for row in rows]

    async def forget(self, departure: Departure, now: float) -> Forgotten | None:
        """Delete the departed workspace's data, unless it came back meanwhile (another
        process may have done it, or it installed again): None then."""

        def work(db: Connection) -> Forgotten | None:
            still = db.execute(
                "SELECT 1 FROM departures WHERE platform = ? AND workspace_id = ?"
                " AND forget_at <= ?",
                (*_where(departure.scope), now),
            ).fetchone()
            if still is None:
                return None
            return forget_workspace(db, *_where(departure.scope))  # the departure row too

        done = await self._database.write(work)
        if done is not None:
            self._runs.forget_cached(departure.scope.platform, None, departure.scope.workspace_id)
        return done


def _stay(db: Connection, workspace: ScopeRef) -> bool:
    deleted = db.execute(
        "DELETE FROM departures WHERE platform = ? AND workspace_id = ?", _where(workspace)
    )
    return deleted.rowcount > 0


def _departure(row: Sequence[Any]) -> Departure:
    platform, workspace, left_at, forget_at = row
    return Departure(ScopeRef(platform, workspace), float(left_at), float(forget_at))
