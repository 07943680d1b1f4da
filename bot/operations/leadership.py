"""Which process runs the scheduler: daily posts, reveals, race steps and competition ends
must run in exactly one process at a time.

With SQLite there is one process (a database file belongs to one bot). With PostgreSQL,
every process asks for a session advisory lock on a connection of its own: the one that
holds it leads. The server releases the lock the moment that connection ends (the process
stopped or died), and another process takes it at its next try — within a scheduler
interval. The database's own constraints (one post per channel and day, compare-and-set
race steps) keep a hand-over from doing anything twice.
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from bot.operations.settings import is_postgres

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger(__name__)

# One lock for the whole database: "quiz" in ASCII.
SCHEDULER_LOCK = 0x7175697A


class Leadership(Protocol):
    async def lead(self) -> bool:
        """Whether this process leads now; takes the lead when it is free."""
        ...

    async def close(self) -> None: ...


class SoleProcess:
    """SQLite: the only process there is leads."""

    async def lead(self) -> bool:
        return True

    async def close(self) -> None:
        return None


class AdvisoryLock:
    """PostgreSQL: ``pg_try_advisory_lock`` held on a dedicated connection. Session locks
    are re-entrant on one connection, so the lock is asked for only while not held, and a
    held lock is kept by checking that its connection is still alive."""

    def __init__(self, url: str, key: int = SCHEDULER_LOCK, timeout: float = 5.0) -> None:
        self._url = url
        self._key = key
        self._timeout = timeout
        self._connection: psycopg.AsyncConnection[tuple[object, ...]] | None = None
        self._held = False

    async def lead(self) -> bool:
        import psycopg  # only a process on PostgreSQL loads the driver

        try:
            if self._connection is None or self._connection.closed:
                self._held = False
                self._connection = await psycopg.AsyncConnection.connect(
                    self._url, autocommit=True, connect_timeout=max(1, int(self._timeout))
                )
            if self._held:
                await self._connection.execute("SELECT 1")  # the lock lives with the session
            else:
                cursor = await self._connection.execute(
                    "SELECT pg_try_advisory_lock(%s)", (self._key,)
                )
                row = await cursor.fetchone()
                self._held = bool(row and row[0])
                if self._held:
                    log.info("this process now runs the scheduler")
        except psycopg.Error as exc:
            if self._held:
                log.warning("lost the scheduler lock with its connection: %s", exc)
            await self.close()
        return self._held

    async def close(self) -> None:
        """Give the lead up (closing the session releases the lock)."""
        import psycopg

        held, self._held = self._held, False
        if self._connection is not None:
            connection, self._connection = self._connection, None
            with contextlib.suppress(psycopg.Error):  # gone already: the lock with it
                if held:  # released now, not when the server notices the session end
                    await connection.execute("SELECT pg_advisory_unlock(%s)", (self._key,))
                await connection.close()


def leadership_for(database: str | Path) -> Leadership:
    """The lock a process on this database takes before it runs the scheduler."""
    return AdvisoryLock(str(database)) if is_postgres(database) else SoleProcess()
