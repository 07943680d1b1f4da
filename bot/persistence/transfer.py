"""Moving a played SQLite database onto PostgreSQL (``quizbot db migrate``): both schemas
brought to the newest version, every table copied in one PostgreSQL transaction (a
failure writes nothing), the identity counters set past the copied ids, and the
leaderboards compared afterwards."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

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
)
IDENTITIES = {"boards": "board_id", "competitions": "competition_id"}
# Every board's rows, as a leaderboard reads them.
BOARDS = (
    "SELECT b.platform, b.workspace_id, b.bank_id, b.period, t.player_id, t.points,"
    " t.correct, t.answered FROM totals t JOIN boards b ON b.board_id = t.board_id"
    " ORDER BY 1, 2, 3, 4, 5"
)


@dataclass(frozen=True)
class Copied:
    rows: dict[str, int]  # table -> rows copied
    board_rows: int  # leaderboard rows, identical on both sides


def copy_to_postgres(source: Path, url: str) -> Copied:
    """Copy the SQLite file ``source`` into the empty PostgreSQL database at ``url``."""
    import psycopg

    from bot.persistence import postgres

    if not source.is_file():
        raise StoreError(f"{source}: no such database file")
    with sqlite3.connect(source) as sqlite:
        schema.migrate(sqlite)  # an older quizbot's file is brought up to date first
        tables = {t: _columns(sqlite, t) for t in TABLES}
        try:
            with psycopg.connect(url) as target:
                postgres.migrate(target)
                full = [t for t in TABLES if target.execute(_any(t).encode()).fetchone()]
                if full:
                    raise StoreError(
                        f"{postgres.safe(url)} already has data ({', '.join(full)}):"
                        " quizbot db migrate copies into an empty database only"
                    )
                expected = [tuple(row) for row in sqlite.execute(BOARDS).fetchall()]
                rows = _copy(sqlite, target, tables, expected)
        except psycopg.Error as exc:
            raise StoreError(f"{postgres.safe(url)}: {exc}") from None
    return Copied(rows, len(expected))


def _copy(
    sqlite: sqlite3.Connection,
    target: object,
    tables: dict[str, list[str]],
    boards: list[tuple[object, ...]],
) -> dict[str, int]:
    """Everything in one transaction, committed only when the leaderboards read back
    exactly as SQLite's."""
    import psycopg

    assert isinstance(target, psycopg.Connection)
    rows: dict[str, int] = {}
    with target.transaction():
        for table, columns in tables.items():
            names = ", ".join(columns)
            copied = 0
            with target.cursor().copy(f"COPY {table} ({names}) FROM STDIN".encode()) as copy:
                for row in sqlite.execute(f"SELECT {names} FROM {table}"):
                    copy.write_row(row)
                    copied += 1
            rows[table] = copied
        for table, column in IDENTITIES.items():
            target.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
                f" COALESCE(MAX({column}), 0) + 1, false) FROM {table}".encode()
            )
        found = [tuple(row) for row in target.execute(BOARDS.encode()).fetchall()]
        if found != boards:
            raise StoreError("the leaderboards read back differently: nothing was copied")
    return rows


def _columns(sqlite: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in sqlite.execute(f"PRAGMA table_info({table})")]


def _any(table: str) -> str:
    return f"SELECT 1 FROM {table} LIMIT 1"
