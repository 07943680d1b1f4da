"""The database: one writer with group commit, one reader, WAL checkpoints (SQLite), and
the small operational rows (settings, heartbeat) and the backup. The repositories
(``runs.py``, ``boards.py``, ``dailies.py``, ``races.py``, ``competitions.py``) hold the
tables' own SQL and share one Database, on SQLite (a path or ``sqlite:///path``) or on
PostgreSQL (a ``postgresql://`` URL, ``postgres.py``)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

import aiosqlite

from bot.operations.tasks import Supervisor
from bot.persistence.dialect import Connection
from bot.persistence.ledger import Ledger
from bot.persistence.rows import StoreError
from bot.persistence.writer import Work, WriterThread, open_writer, transaction

log = logging.getLogger(__name__)

T = TypeVar("T")
MAX_BATCH = 512
BUSY_TIMEOUT_MS = 5000
CHECKPOINT_EVERY = 5.0  # seconds between passive WAL checkpoints
SQLITE_URL = "sqlite:///"
# PostgreSQL's errors for a write that lost a race with another process's transaction:
# unique violation, deadlock, serialization failure. Tried once more, it sees the winner.
_RACED = frozenset({"23505", "40P01", "40001"})


class Reader(Protocol):
    async def read(self, sql: str, params: Sequence[Any]) -> list[Any]: ...

    async def close(self) -> None: ...


class SQLiteReader:
    def __init__(self, connection: aiosqlite.Connection):
        self._connection = connection

    async def read(self, sql: str, params: Sequence[Any]) -> list[Any]:
        # One trip to the reader's thread (execute + fetch + close would be three).
        return list(await self._connection.execute_fetchall(sql, params))

    async def close(self) -> None:
        await self._connection.close()


class Database:
    """The connections and the single writer; open with ``await Database.open(location)``.
    ``errors`` is the driver's error type, reported as StoreError; ``postgres`` says the
    server keeps its own log (no WAL checkpoints here) and backups (pg_dump)."""

    def __init__(
        self,
        path: str,
        writer: WriterThread,
        reader: Reader,
        max_batch: int = MAX_BATCH,
        errors: type[Exception] = sqlite3.Error,
        postgres: bool = False,
    ):
        self.path = path
        self.postgres = postgres
        self._max_batch = max_batch
        self._writer = writer
        self._reader = reader
        self._errors = errors
        # The writer's bookkeeping of the maintained totals: its caches must be dropped
        # whenever a transaction rolls back, so it lives with the writer.
        self.ledger = Ledger()
        self.transactions = 0  # committed write transactions (group commit makes it small)
        self._queue: asyncio.Queue[tuple[Work, asyncio.Future[Any]]] = asyncio.Queue()
        # The loops are the database's own: they must end before its connections close.
        self._tasks = Supervisor()
        self._tasks.spawn(self._write_loop(), "quizbot-store-writer")
        if not self.postgres:
            self._tasks.spawn(self._checkpoint_loop(), "quizbot-wal")

    @classmethod
    async def open(
        cls,
        location: str | Path,
        max_batch: int = MAX_BATCH,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> Database:
        """Open (creating and migrating) the database: a SQLite file (a path or
        ``sqlite:///path``) or a PostgreSQL database (``postgresql://…``). ``max_batch=1``
        turns group commit off: one transaction per write (the benchmarks' baseline). A
        write that finds the data locked by another process waits ``busy_timeout_ms``,
        then fails (SQLite's busy timeout; PostgreSQL's ``lock_timeout``)."""
        location = str(location)
        if location.startswith(("postgresql://", "postgres://")):
            return await cls._open_postgres(location, max_batch, busy_timeout_ms)
        path = location.removeprefix(SQLITE_URL)  # sqlite:///rel.db, sqlite:////abs.db
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the directory for {path}: {exc}") from exc
        writer = WriterThread()
        reader: aiosqlite.Connection | None = None
        try:
            await writer.call(open_writer, path, busy_timeout_ms)
            reader = await aiosqlite.connect(path, isolation_level=None)
            await reader.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
        except (sqlite3.Error, StoreError) as exc:
            if reader is not None:
                await reader.close()
            await writer.close()
            if isinstance(exc, StoreError):
                raise
            raise StoreError(f"cannot open the database {path}: {exc}") from exc
        return cls(path, writer, SQLiteReader(reader), max_batch)

    @classmethod
    async def _open_postgres(cls, url: str, max_batch: int, lock_timeout_ms: int) -> Database:
        import psycopg

        from bot.persistence import postgres

        writer = WriterThread()
        try:
            await writer.call(postgres.open_writer, url, lock_timeout_ms)
            reader = await postgres.Reader.open(url)
        except (psycopg.Error, StoreError) as exc:
            await writer.close()
            if isinstance(exc, StoreError):
                raise
            raise StoreError(f"cannot open the database {postgres.safe(url)}: {exc}") from exc
        return cls(url, writer, reader, max_batch, psycopg.Error, postgres=True)

    async def close(self) -> None:
        await self._tasks.close()
        await self._reader.close()
        await self._writer.close()

    async def write(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in the writer's thread, in a transaction shared with the writes
        queued alongside it (group commit); returns once that transaction committed."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        await self._queue.put((work, future))
        return await future

    async def read(self, sql: str, params: Sequence[Any]) -> list[Any]:
        try:
            return await self._reader.read(sql, params)
        except self._errors as exc:
            raise StoreError(f"the database read failed: {exc}") from exc

    async def _checkpoint_loop(self) -> None:
        """Passive checkpoints from the reader's connection: they copy what they can
        from the WAL into the database and never wait for, or block, the writer."""
        while True:
            await asyncio.sleep(CHECKPOINT_EVERY)
            try:
                await self.read("PRAGMA wal_checkpoint(PASSIVE)", ())
            except StoreError as exc:
                log.warning("WAL checkpoint skipped: %s", exc)

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < self._max_batch:
                batch.append(self._queue.get_nowait())
            await self._commit(batch)

    async def _commit(
        self, batch: list[tuple[Work, asyncio.Future[Any]]], again: bool = True
    ) -> None:
        """One transaction for the whole batch; if it fails, each item is retried alone
        so that one bad write fails only its own caller. A batch that met a dropped
        PostgreSQL connection is tried once more on a new one: answers are idempotent
        (one per run position), so even a lost COMMIT's outcome cannot count twice. So is
        a write that lost a race with another process (``_RACED``)."""
        if self.postgres:  # another process may have started or ended a competition
            self.ledger.forget_competitions()
        try:
            results = await self._writer.call(transaction, [work for work, _ in batch])
        except Exception as exc:
            self.ledger.clear()  # it may hold ids the rollback took back
            if again and getattr(self._writer.connection, "lost", False):
                log.warning("the database connection was lost; writing on a new one")
                await self._commit(batch, again=False)
                return
            if len(batch) > 1:
                for item in batch:
                    await self._commit([item])
                return
            if again and getattr(exc, "sqlstate", None) in _RACED:
                # Another process wrote the same key (the same click, delivered to two
                # workers) and committed while this write waited for it: written again, it
                # reads that row, so the answer is a duplicate rather than a failure.
                await self._commit(batch, again=False)
                return
            log.warning("a database write failed: %s", exc)
            failure = StoreError(f"the database write failed: {exc}")
            future = batch[0][1]
            if not future.done():
                future.set_exception(failure if isinstance(exc, self._errors) else exc)
            return
        self.transactions += 1
        for (_, future), result in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(result)

    async def set_setting(self, key: str, value: str) -> None:
        """Remember a small operational value (e.g. the hash of the synced commands)."""

        def work(db: Connection) -> None:
            db.execute(
                "INSERT INTO settings VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET"
                " value = excluded.value",
                (key, value),
            )

        await self.write(work)

    async def setting(self, key: str) -> str | None:
        rows = await self.read("SELECT value FROM settings WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    async def heartbeat(self, at: float) -> None:
        """Write a row: raises StoreError when the database cannot take writes now."""
        await self.set_setting("heartbeat", repr(at))

    async def backup(self, target: Path) -> None:
        """A consistent copy through SQLite's online backup API, while the bot runs."""
        if self.postgres:
            raise StoreError("back up a PostgreSQL database with its own tools (pg_dump)")

        def copy() -> None:
            source = sqlite3.connect(self.path)
            destination = sqlite3.connect(target)
            try:
                source.backup(destination)
            finally:
                destination.close()
                source.close()

        try:
            await asyncio.to_thread(copy)
        except sqlite3.Error as exc:
            raise StoreError(f"the backup to {target} failed: {exc}") from exc
