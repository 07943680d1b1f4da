"""The store's machinery: the writer task with group commit, the reader connection,
hot-row caches, settings, heartbeat and backup. The tables' own methods live in
``quiz.py`` and ``channel.py``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Self, TypeVar

import aiosqlite
from cachetools import LRUCache

from bot.persistence.ledger import Ledger
from bot.persistence.rows import StoreError
from bot.persistence.writer import Work, WriterThread, open_writer, transaction
from bot.play.runs import Run

log = logging.getLogger(__name__)

T = TypeVar("T")
MAX_BATCH = 512
BUSY_TIMEOUT_MS = 5000
CHECKPOINT_EVERY = 5.0  # seconds between passive WAL checkpoints
CACHED_RUNS = 50_000
CACHED_PLAYERS = 50_000


class StoreBase:
    """The async interface's foundation; open with ``await Store.open(path)``."""

    def __init__(
        self,
        path: str,
        writer: WriterThread,
        reader: aiosqlite.Connection,
        max_batch: int = MAX_BATCH,
    ):
        self.path = path
        self._max_batch = max_batch
        self._writer = writer
        self._reader = reader
        self._ledger = Ledger()
        self.runs_in_progress = 0  # for the metrics; counted at open, then kept up to date
        self.transactions = 0  # committed write transactions (group commit makes it small)
        # Hot rows (runs in progress, player languages), so a click needs no database
        # read. Only this process writes the database, and every write goes through the
        # store, which updates these after the commit.
        self._runs: LRUCache[str, Run] = LRUCache(CACHED_RUNS)
        self._locales: LRUCache[tuple[str, str], tuple[str | None]] = LRUCache(CACHED_PLAYERS)
        self._queue: asyncio.Queue[tuple[Work, asyncio.Future[Any]]] = asyncio.Queue()
        self._task = asyncio.create_task(self._write_loop(), name="quizbot-store-writer")
        self._checkpoints = asyncio.create_task(self._checkpoint_loop(), name="quizbot-wal")

    @classmethod
    async def open(
        cls, path: str | Path, max_batch: int = MAX_BATCH, busy_timeout_ms: int = BUSY_TIMEOUT_MS
    ) -> Self:
        """Open (creating and migrating) the database. ``max_batch=1`` turns group commit
        off: one transaction per write (the benchmarks' baseline). A write that finds the
        database locked by another process waits ``busy_timeout_ms``, then fails."""
        path = str(path)
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
        store = cls(path, writer, reader, max_batch)
        open_runs = await store._fetchall(
            "SELECT COUNT(*) FROM runs WHERE position < json_array_length(question_ids)", ()
        )
        store.runs_in_progress = open_runs[0][0]
        return store

    async def close(self) -> None:
        for task in (self._task, self._checkpoints):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._reader.close()
        await self._writer.close()

    async def _checkpoint_loop(self) -> None:
        """Passive checkpoints from the reader's connection: they copy what they can
        from the WAL into the database and never wait for, or block, the writer."""
        while True:
            await asyncio.sleep(CHECKPOINT_EVERY)
            try:
                await self._fetchall("PRAGMA wal_checkpoint(PASSIVE)", ())
            except StoreError as exc:
                log.warning("WAL checkpoint skipped: %s", exc)

    async def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        await self._queue.put((work, future))
        return await future

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < self._max_batch:
                batch.append(self._queue.get_nowait())
            await self._commit(batch)

    async def _commit(self, batch: list[tuple[Work, asyncio.Future[Any]]]) -> None:
        """One transaction for the whole batch; if it fails, each item is retried alone
        so that one bad write fails only its own caller."""
        try:
            results = await self._writer.call(transaction, [work for work, _ in batch])
        except Exception as exc:
            self._ledger.clear()  # it may hold ids the rollback took back
            if len(batch) > 1:
                for item in batch:
                    await self._commit([item])
                return
            log.warning("a database write failed: %s", exc)
            failure = StoreError(f"the database write failed: {exc}")
            future = batch[0][1]
            if not future.done():
                future.set_exception(failure if isinstance(exc, sqlite3.Error) else exc)
            return
        self.transactions += 1
        for (_, future), result in zip(batch, results, strict=True):
            if not future.done():
                future.set_result(result)

    async def set_setting(self, key: str, value: str) -> None:
        """Remember a small operational value (e.g. the hash of the synced commands)."""

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO settings VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET"
                " value = excluded.value",
                (key, value),
            )

        await self._write(work)

    async def heartbeat(self, at: float) -> None:
        """Write a row: raises StoreError when the database cannot take writes now."""
        await self.set_setting("heartbeat", repr(at))

    async def backup(self, target: Path) -> None:
        """A consistent copy through SQLite's online backup API, while the bot runs."""

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

    async def _fetchall(self, sql: str, params: Sequence[Any]) -> list[sqlite3.Row]:
        try:  # one trip to the reader's thread (execute + fetch + close would be three)
            return list(await self._reader.execute_fetchall(sql, params))
        except sqlite3.Error as exc:
            raise StoreError(f"the database read failed: {exc}") from exc

    async def setting(self, key: str) -> str | None:
        rows = await self._fetchall("SELECT value FROM settings WHERE key = ?", (key,))
        return rows[0][0] if rows else None
