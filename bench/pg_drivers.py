"""The group-commit answer write on PostgreSQL through psycopg 3 and asyncpg, with
SQLite as the yardstick: one transaction per batch of N answers, each batch reading
what is on record (answers of its runs, first attempts) and then writing set-wise (the
answers, first attempts, leaderboard upserts, run progress), as ``ledger.record_answers``
does. Durable settings on both: PostgreSQL with fsync on, SQLite with synchronous=FULL.

    python -m bench.pg_drivers [--answers 20000] [--batches 1,16,128,512] [--url URL]

Without ``--url`` a throwaway server is started (initdb + pg_ctl, as in the tests).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import psycopg

from .common import ms, percentile, record, table
from .postgres import benchmark_database

SCHEMA = """
CREATE TABLE runs (run_id TEXT PRIMARY KEY, position INTEGER NOT NULL DEFAULT 0,
    correct INTEGER NOT NULL DEFAULT 0, points INTEGER NOT NULL DEFAULT 0,
    updated_at REAL NOT NULL DEFAULT 0);
CREATE TABLE answers (run_id TEXT NOT NULL, position INTEGER NOT NULL, platform TEXT NOT NULL,
    workspace_id TEXT NOT NULL, player_id TEXT NOT NULL, bank_id TEXT NOT NULL,
    question_id TEXT NOT NULL, choice INTEGER NOT NULL, correct INTEGER NOT NULL,
    points INTEGER NOT NULL, answered_at REAL NOT NULL, PRIMARY KEY (run_id, position));
CREATE TABLE attempts (platform TEXT NOT NULL, workspace_id TEXT NOT NULL,
    player_id TEXT NOT NULL, bank_id TEXT NOT NULL, question_id TEXT NOT NULL,
    PRIMARY KEY (platform, workspace_id, player_id, bank_id, question_id));
CREATE TABLE totals (board_id INTEGER NOT NULL, player_id TEXT NOT NULL,
    points INTEGER NOT NULL DEFAULT 0, correct INTEGER NOT NULL DEFAULT 0,
    answered INTEGER NOT NULL DEFAULT 0, reached_at REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (board_id, player_id));
CREATE INDEX totals_rank ON totals (board_id, points DESC, reached_at, player_id);
"""
ADD_TO_TOTALS = """ ON CONFLICT (board_id, player_id) DO UPDATE SET
points = t.points + excluded.points, correct = t.correct + excluded.correct,
answered = t.answered + excluded.answered,
reached_at = CASE WHEN excluded.points > 0 THEN excluded.reached_at ELSE t.reached_at END"""
UPSERT = "INSERT INTO totals AS t VALUES ({0}, {0}, {0}, {0}, {0}, {0})" + ADD_TO_TOTALS
BOARDS_PER_ANSWER = 6  # (its topic, all topics) x (all time, week, month)
PLAYERS = 2000


@dataclass(frozen=True)
class Batch:
    run_ids: list[str]
    players: list[str]
    answers: list[tuple[object, ...]]
    attempts: list[tuple[str, ...]]
    totals: list[tuple[object, ...]]
    progress: list[tuple[object, ...]]


def batches(total: int, size: int) -> Iterator[Batch]:
    """``total`` answers, each a run's first, in batches of ``size``; players repeat, so
    the leaderboard upserts hit existing rows as they do in play."""
    now = time.time()
    for start_at in range(0, total, size):
        numbers = range(start_at, min(total, start_at + size))
        runs = [f"r{n}" for n in numbers]
        players = [f"U{n % PLAYERS}" for n in numbers]
        answers = [
            (run, 0, "slack", "T1", player, "offloading", f"q{n}", 1, 1, 10, now)
            for n, run, player in zip(numbers, runs, players, strict=True)
        ]
        attempts = [
            ("slack", "T1", p, "offloading", f"q{n}") for n, p in zip(numbers, players, strict=True)
        ]
        summed: dict[tuple[int, str], int] = {}
        for player in players:
            for board in range(1, BOARDS_PER_ANSWER + 1):
                summed[(board, player)] = summed.get((board, player), 0) + 1
        totals = [(b, p, 10 * k, k, k, now) for (b, p), k in summed.items()]
        progress = [(1, 10, now, run) for run in runs]
        yield Batch(runs, sorted(set(players)), answers, attempts, totals, progress)


def run_sqlite(directory: Path, total: int, size: int) -> list[float]:
    db = sqlite3.connect(directory / f"bench-{size}.db", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.executescript(SCHEMA)
    db.executemany("INSERT INTO runs (run_id) VALUES (?)", [(f"r{n}",) for n in range(total)])
    upsert = UPSERT.format("?")
    seconds = []
    for batch in batches(total, size):
        began = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        marks = ",".join("?" * len(batch.run_ids))
        db.execute(f"SELECT * FROM answers WHERE run_id IN ({marks})", batch.run_ids).fetchall()
        marks = ",".join("?" * len(batch.players))
        db.execute(
            "SELECT * FROM attempts WHERE platform = ? AND workspace_id = ?"
            f" AND player_id IN ({marks})",
            ["slack", "T1", *batch.players],
        ).fetchall()
        db.executemany("INSERT INTO answers VALUES (?,?,?,?,?,?,?,?,?,?,?)", batch.answers)
        db.executemany("INSERT INTO attempts VALUES (?,?,?,?,?)", batch.attempts)
        db.executemany(upsert, batch.totals)
        db.executemany(
            "UPDATE runs SET position = position + 1, correct = correct + ?,"
            " points = points + ?, updated_at = ? WHERE run_id = ?",
            batch.progress,
        )
        db.execute("COMMIT")
        seconds.append(time.perf_counter() - began)
    db.close()
    return seconds


PG_READS = (
    "SELECT * FROM answers WHERE run_id = ANY({0})",
    "SELECT * FROM attempts WHERE platform = 'slack' AND workspace_id = 'T1'"
    " AND player_id = ANY({0})",
)
PG_WRITES = (
    "INSERT INTO answers VALUES ({0})",
    "INSERT INTO attempts VALUES ({0})",
    UPSERT,
    "UPDATE runs SET position = position + 1, correct = correct + {0}, points = points + {0},"
    " updated_at = {0} WHERE run_id = {0}",
)


def _pg_writes(batch: Batch) -> list[list[tuple[object, ...]]]:
    return [batch.answers, batch.attempts, batch.totals, batch.progress]


def _psycopg_sql(template: str, width: int) -> str:
    return template.format(", ".join(["%s"] * width)) if "({0})" in template else template


def prepare_pg(url: str, total: int) -> None:
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("DROP TABLE IF EXISTS runs, answers, attempts, totals")
        db.execute(SCHEMA.replace("REAL", "DOUBLE PRECISION").encode())
        with db.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO runs (run_id) VALUES (%s)", [(f"r{n}",) for n in range(total)]
            )
        db.execute("VACUUM ANALYZE")


def run_psycopg(url: str, total: int, size: int, pipeline: bool) -> list[float]:
    """Sync psycopg 3 on one connection, as the writer thread would use it. executemany
    pipelines its own statements; ``pipeline`` also pipelines the whole transaction."""
    prepare_pg(url, total)
    reads = [r.format("%s") for r in PG_READS]
    writes = [
        "INSERT INTO answers VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
        "INSERT INTO attempts VALUES (%s,%s,%s,%s,%s)",
        UPSERT.format("%s"),
        PG_WRITES[3].format("%s"),
    ]
    seconds = []
    with psycopg.connect(url, prepare_threshold=0) as db:
        for batch in batches(total, size):
            began = time.perf_counter()
            with db.transaction(), db.cursor() as cursor:
                context = db.pipeline() if pipeline else _nothing()
                with context:
                    cursor.execute(reads[0], (batch.run_ids,))
                    cursor.fetchall()
                    cursor.execute(reads[1], (batch.players,))
                    cursor.fetchall()
                    for sql, rows in zip(writes, _pg_writes(batch), strict=True):
                        cursor.executemany(sql, rows)
            seconds.append(time.perf_counter() - began)
    return seconds


# Set-wise writes: each table's rows as one array per column, one statement per table.
UNNEST_WRITES = (
    "INSERT INTO answers SELECT * FROM unnest({0}::text[], {0}::int[], {0}::text[],"
    " {0}::text[], {0}::text[], {0}::text[], {0}::text[], {0}::int[], {0}::int[], {0}::int[],"
    " {0}::float8[])",
    "INSERT INTO attempts SELECT * FROM unnest({0}::text[], {0}::text[], {0}::text[],"
    " {0}::text[], {0}::text[])",
    "INSERT INTO totals AS t SELECT * FROM unnest({0}::int[], {0}::text[], {0}::int[],"
    " {0}::int[], {0}::int[], {0}::float8[])" + ADD_TO_TOTALS,
    "UPDATE runs r SET position = r.position + 1, correct = r.correct + u.c,"
    " points = r.points + u.p, updated_at = u.at"
    " FROM unnest({0}::int[], {0}::int[], {0}::float8[], {0}::text[]) AS u(c, p, at, id)"
    " WHERE r.run_id = u.id",
)


def _columns(rows: list[tuple[object, ...]]) -> list[list[object]]:
    return [list(column) for column in zip(*rows, strict=True)]


def _numbered(sql: str) -> str:
    """``{0}`` placeholders as asyncpg's $1, $2, ..."""
    parts = sql.split("{0}")
    return "".join(f"{part}${i}" for i, part in enumerate(parts[:-1], start=1)) + parts[-1]


def run_psycopg_unnest(url: str, total: int, size: int, binary: bool) -> list[float]:
    """Sync psycopg 3, set-wise: 6 statements per transaction whatever its size; with
    ``binary`` the arrays travel in the binary format, as asyncpg sends everything."""
    prepare_pg(url, total)
    reads = [r.format("%s") for r in PG_READS]
    writes = [w.replace("{0}", "%s") for w in UNNEST_WRITES]
    seconds = []
    with psycopg.connect(url, prepare_threshold=0) as db:
        for batch in batches(total, size):
            began = time.perf_counter()
            with db.transaction(), db.cursor() as cursor:
                cursor.execute(reads[0], (batch.run_ids,))
                cursor.fetchall()
                cursor.execute(reads[1], (batch.players,))
                cursor.fetchall()
                for sql, rows in zip(writes, _pg_writes(batch), strict=True):
                    cursor.execute(sql, _columns(rows), binary=binary)
            seconds.append(time.perf_counter() - began)
    return seconds


async def run_asyncpg_unnest(url: str, total: int, size: int) -> list[float]:
    prepare_pg(url, total)
    reads = [r.format("$1") for r in PG_READS]
    writes = [_numbered(w) for w in UNNEST_WRITES]
    seconds = []
    db = await asyncpg.connect(url)
    try:
        for batch in batches(total, size):
            began = time.perf_counter()
            async with db.transaction():
                await db.fetch(reads[0], batch.run_ids)
                await db.fetch(reads[1], batch.players)
                for sql, rows in zip(writes, _pg_writes(batch), strict=True):
                    await db.execute(sql, *_columns(rows))
            seconds.append(time.perf_counter() - began)
    finally:
        await db.close()
    return seconds


@contextmanager
def _nothing() -> Iterator[None]:
    yield


async def run_asyncpg(url: str, total: int, size: int) -> list[float]:
    """asyncpg on one connection: the writer loop would be a coroutine instead of a thread."""
    prepare_pg(url, total)
    reads = [r.format("$1") for r in PG_READS]
    writes = [
        "INSERT INTO answers VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)",
        "INSERT INTO attempts VALUES ($1,$2,$3,$4,$5)",
        UPSERT.format("${}").format(1, 2, 3, 4, 5, 6),
        "UPDATE runs SET position = position + 1, correct = correct + $1, points = points + $2,"
        " updated_at = $3 WHERE run_id = $4",
    ]
    seconds = []
    db = await asyncpg.connect(url)
    try:
        for batch in batches(total, size):
            began = time.perf_counter()
            async with db.transaction():
                await db.fetch(reads[0], batch.run_ids)
                await db.fetch(reads[1], batch.players)
                for sql, rows in zip(writes, _pg_writes(batch), strict=True):
                    await db.executemany(sql, rows)
            seconds.append(time.perf_counter() - began)
    finally:
        await db.close()
    return seconds


def row(name: str, size: int, seconds: list[float]) -> list[str]:
    answers = size * len(seconds)
    return [
        name,
        str(size),
        f"{answers / sum(seconds):,.0f}",
        ms(percentile(seconds, 50)),
        ms(percentile(seconds, 99)),
    ]


def measure(url: str, directory: Path, total: int, sizes: list[int]) -> list[list[str]]:
    drivers: list[tuple[str, Callable[[int], list[float]]]] = [
        ("SQLite (sqlite3)", lambda size: run_sqlite(directory, total, size)),
        ("psycopg 3, executemany", lambda size: run_psycopg(url, total, size, False)),
        ("psycopg 3, pipeline", lambda size: run_psycopg(url, total, size, True)),
        ("asyncpg, executemany", lambda size: asyncio.run(run_asyncpg(url, total, size))),
        ("psycopg 3, unnest", lambda size: run_psycopg_unnest(url, total, size, False)),
        ("psycopg 3, unnest, binary", lambda size: run_psycopg_unnest(url, total, size, True)),
        ("asyncpg, unnest", lambda size: asyncio.run(run_asyncpg_unnest(url, total, size))),
    ]
    rows = []
    for size in sizes:
        for name, driver in drivers:
            rows.append(row(name, size, driver(size)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--answers", type=int, default=20_000)
    parser.add_argument("--batches", default="1,16,128,512")
    parser.add_argument("--url", help="an existing server's database (else a throwaway one)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.batches.split(",")]
    with (
        tempfile.TemporaryDirectory(prefix="quizbot-bench-") as scratch,
        benchmark_database(args.url) as database,
    ):
        rows = measure(database.url, Path(scratch), args.answers, sizes)
    record(
        "PostgreSQL drivers: the group-commit answer write",
        table(["driver", "answers per transaction", "answers/s", "p50 ms", "p99 ms"], rows)
        + f"\n\n{args.answers:,} answers per row, each transaction: 2 reads of what is on"
        f" record, then executemany of the answers, first attempts, {BOARDS_PER_ANSWER}"
        " leaderboard upserts per answer and the run progress, one commit. Server:"
        f" {database.note}; psycopg {psycopg.__version__}, asyncpg {asyncpg.__version__}.",
    )


if __name__ == "__main__":
    main()
