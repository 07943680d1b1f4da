"""Moving a database between backends (``quizbot db migrate``): SQLite into PostgreSQL or
back. Both schemas are brought to the newest version, every table copied in batches in
one transaction on the target (all-or-nothing: a failure writes nothing), identity
counters set past the copied ids, and the leaderboards compared before the commit."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from bot.operations.settings import is_postgres
from bot.persistence import schema
from bot.persistence.rows import StoreError

# In the order their foreign keys need.
TABLES = (
    "players",
    "runs",
    "answers",
    "attempts",
    "boards",
    "totals",
    "settings",
    "daily_schedules",
    "daily_posts",
    "daily_answers",
    "daily_streaks",
    "races",
    "race_answers",
    "competitions",
    "workspace_banks",
    "proposals",
    "cards",
    "review_log",
    "reminders",
    "reminder_sends",
    "installations",
    "install_states",
    "departures",
    "sharing",
    "workspace_names",
    "map_weeks",
)
IDENTITIES = {
    "boards": "board_id",
    "competitions": "competition_id",
    "proposals": "proposal_id",
    "review_log": "review_id",
}
# Every board's rows, as a leaderboard reads them.
BOARDS = (
    "SELECT b.platform, b.workspace_id, b.bank_id, b.period, t.player_id, t.points,"
    " t.correct, t.answered FROM totals t JOIN boards b ON b.board_id = t.board_id"
    " ORDER BY 1, 2, 3, 4, 5"
)
BATCH = 5000  # rows per write and per progress step
Progress = Callable[[str, int, int], None]  # table, rows copied so far, rows in it


@dataclass(frozen=True)
class Copied:
    rows: dict[str, int]  # table -> rows copied
    board_rows: int  # leaderboard rows, identical on both sides


class End(Protocol):
    """One side of a copy: a database that can be read from or written into."""

    name: str

    def columns(self, table: str) -> list[str]: ...

    def count(self, table: str) -> int: ...

    def rows(self, table: str, columns: Sequence[str]) -> Iterator[Sequence[Any]]: ...

    def boards(self) -> list[tuple[Any, ...]]: ...

    def snapshot(self) -> AbstractContextManager[None]: ...

    def transaction(self) -> AbstractContextManager[None]: ...

    def insert(self, table: str, columns: Sequence[str], rows: list[Sequence[Any]]) -> None: ...

    def after_copy(self) -> None: ...


class SQLiteEnd:
    def __init__(self, connection: sqlite3.Connection, name: str):
        self._db, self.name = connection, name

    def columns(self, table: str) -> list[str]:
        return [row[1] for row in self._db.execute(f"PRAGMA table_info({table})")]

    def count(self, table: str) -> int:
        return int(self._db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])

    def rows(self, table: str, columns: Sequence[str]) -> Iterator[Sequence[Any]]:
        return iter(self._db.execute(f"SELECT {', '.join(columns)} FROM {table}"))

    def boards(self) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self._db.execute(BOARDS).fetchall()]

    def snapshot(self) -> AbstractContextManager[None]:
        return self._within("BEGIN")  # WAL: the reads see one moment, writers go on

    def transaction(self) -> AbstractContextManager[None]:
        return self._within("BEGIN IMMEDIATE")

    @contextmanager
    def _within(self, begin: str) -> Iterator[None]:
        self._db.execute(begin)
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def insert(self, table: str, columns: Sequence[str], rows: list[Sequence[Any]]) -> None:
        marks = ", ".join("?" * len(columns))
        self._db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

    def after_copy(self) -> None:
        """SQLite numbers new rows past the largest id by itself."""


class PostgresEnd:
    def __init__(self, connection: Any, name: str):
        self._db, self.name = connection, name

    def columns(self, table: str) -> list[str]:
        found = self._db.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = %s"
            " AND table_schema = current_schema() ORDER BY ordinal_position",
            (table,),
        )
        return [row[0] for row in found.fetchall()]

    def count(self, table: str) -> int:
        return int(self._db.execute(f"SELECT COUNT(*) FROM {table}".encode()).fetchone()[0])

    def rows(self, table: str, columns: Sequence[str]) -> Iterator[Sequence[Any]]:
        cursor = self._db.cursor(name=f"copy_{table}")  # server-side: streamed, not loaded
        cursor.itersize = BATCH
        cursor.execute(f"SELECT {', '.join(columns)} FROM {table}".encode())
        return iter(cursor)

    def boards(self) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self._db.execute(BOARDS.encode()).fetchall()]

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        with self._db.transaction():
            self._db.execute(b"SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield

    def transaction(self) -> AbstractContextManager[None]:
        transaction: AbstractContextManager[None] = self._db.transaction()
        return transaction

    def insert(self, table: str, columns: Sequence[str], rows: list[Sequence[Any]]) -> None:
        with self._db.cursor().copy(
            f"COPY {table} ({', '.join(columns)}) FROM STDIN".encode()
        ) as copy:
            for row in rows:
                copy.write_row(row)

    def after_copy(self) -> None:
        for table, column in IDENTITIES.items():
            self._db.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                f" COALESCE(MAX({column}), 0) + 1, false) FROM {table}".encode()
            )


@contextmanager
def _opened(location: str, create: bool) -> Iterator[End]:
    """An end, its schema brought to the newest version (an older quizbot's database is
    brought up to date first)."""
    if is_postgres(location):
        import psycopg

        from bot.persistence import postgres

        name = postgres.safe(location)
        try:
            connection = psycopg.connect(location, autocommit=True)
            postgres.migrate(connection)
        except psycopg.Error as exc:
            raise StoreError(f"{name}: {exc}") from None
        with connection:
            yield PostgresEnd(connection, name)
        return
    path = Path(location)
    if not create and not path.is_file():
        raise StoreError(f"{path}: no such database file")
    try:
        lite = sqlite3.connect(path, isolation_level=None)
        schema.migrate(lite)
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: {exc}") from None
    try:
        yield SQLiteEnd(lite, str(path))
    finally:
        lite.close()


def _driver_errors(*locations: str) -> tuple[type[Exception], ...]:
    if not any(is_postgres(location) for location in locations):
        return (sqlite3.Error,)
    import psycopg

    return (sqlite3.Error, psycopg.Error)


def copy_database(source: str, target: str, progress: Progress | None = None) -> Copied:
    """Copy every row of ``source`` into the empty database ``target`` (each a SQLite file
    or a PostgreSQL URL); nothing is written unless all of it is. The source is read in
    one snapshot, so a bot still writing to it cannot tear the copy."""
    if source == target:
        raise StoreError("the source and the target are the same database")
    with _opened(source, create=False) as reading, _opened(target, create=True) as writing:
        full = [t for t in TABLES if writing.count(t)]
        if full:
            raise StoreError(
                f"{writing.name} already has data ({', '.join(full)}):"
                " quizbot db migrate copies into an empty database only"
            )
        try:
            with reading.snapshot(), writing.transaction():
                expected = reading.boards()
                rows = {table: _copy_table(reading, writing, table, progress) for table in TABLES}
                writing.after_copy()
                if writing.boards() != expected:
                    raise StoreError("the leaderboards read back differently: nothing was copied")
        except _driver_errors(source, target) as exc:
            raise StoreError(f"the copy failed, nothing was written: {exc}") from None
    return Copied(rows, len(expected))


def _copy_table(reading: End, writing: End, table: str, progress: Progress | None) -> int:
    columns = reading.columns(table)
    if sorted(columns) != sorted(writing.columns(table)):
        raise StoreError(f"the two databases' {table} tables have different columns")
    total, copied, batch = reading.count(table), 0, []
    for row in reading.rows(table, columns):
        batch.append(row)
        if len(batch) == BATCH:
            writing.insert(table, columns, batch)
            copied, batch = copied + len(batch), []
            if progress:
                progress(table, copied, total)
    if batch:
        writing.insert(table, columns, batch)
        copied += len(batch)
    if progress:
        progress(table, copied, total)
    if copied != total:
        raise StoreError(f"{table}: {copied} rows read, {total} counted: nothing was copied")
    return copied
