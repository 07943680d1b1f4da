"""The one thread that owns the writing connection (SQLite's or PostgreSQL's), and the
transaction a batch of writes runs in."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from bot.persistence.dialect import Connection
from bot.persistence.ledger import AnswerWork, record_answers
from bot.persistence.schema import migrate

T = TypeVar("T")
Work = Callable[[Connection], Any]
# The writer checkpoints only past this many WAL pages (a safety net); normally the
# reader's passive checkpoints keep the WAL short without ever stalling a commit.
WRITER_AUTOCHECKPOINT = 20_000


class WriterThread:
    """The one thread that owns the writing connection. A whole batch runs in it in one
    hop, instead of one event-loop round trip per statement."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="quizbot-writer")
        self.connection: Connection | None = None
        self.begin = "BEGIN IMMEDIATE"  # SQLite's: take the write lock now, not mid-batch
        # PostgreSQL's pipeline mode for a batch of answers: statements whose results the
        # batch does not read go without waiting for the server (see ``transaction``).
        self.pipeline: Callable[[], AbstractContextManager[Any]] = contextlib.nullcontext
        # PostgreSQL's: a new connection when the server dropped the last one (a restart,
        # a fail-over); the batch that met the drop failed, the next one reconnects.
        self.reconnect: Callable[[WriterThread], None] | None = None

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: fn(self, *args))

    async def close(self) -> None:
        def shut(writer: WriterThread) -> None:
            if writer.connection is not None:
                writer.connection.close()

        await self.call(shut)
        self._executor.shutdown(wait=True)


def open_writer(writer: WriterThread, path: str, busy_timeout_ms: int) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    writer.connection = db
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")  # an acknowledged answer survives power loss too
    db.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    db.execute(f"PRAGMA wal_autocheckpoint={WRITER_AUTOCHECKPOINT}")
    db.execute("PRAGMA foreign_keys=ON")
    migrate(db)


def transaction(writer: WriterThread, works: Sequence[Work]) -> list[Any]:
    if writer.reconnect is not None and getattr(writer.connection, "lost", False):
        writer.reconnect(writer)
    db = writer.connection
    assert db is not None
    # A batch of answers only (the usual batch under load) is one pipeline: the server
    # gets BEGIN and the writes without a round trip each, and only the reads a decision
    # needs wait for it. Other works may read ``rowcount``, which a pipeline leaves unset
    # until it syncs, so they run statement by statement.
    answers = all(isinstance(work, AnswerWork) for work in works)
    try:
        with writer.pipeline() if answers else contextlib.nullcontext():
            db.execute(writer.begin)
            results = _run(db, works)
            db.execute("COMMIT")
    except BaseException:
        # After the pipeline: a failed statement left the transaction aborted, and only
        # this ROLLBACK outside it ends it (COMMIT in an aborted one rolls back too).
        with contextlib.suppress(Exception):  # the connection may be gone with the error
            db.execute("ROLLBACK")
        raise
    return results


def _run(db: Connection, works: Sequence[Work]) -> list[Any]:
    results: list[Any] = []
    index = 0
    while index < len(works):
        work = works[index]
        if isinstance(work, AnswerWork):
            # A run of answers is written set-wise, in a few statements for all.
            end = index
            while end < len(works) and isinstance(works[end], AnswerWork):
                end += 1
            segment = [w.record for w in works[index:end]]  # type: ignore[attr-defined]
            results.extend(record_answers(db, work.ledger, segment))
            index = end
        else:
            results.append(work(db))
            index += 1
    return results
