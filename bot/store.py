"""Persistence on SQLite through aiosqlite. All of quizbot's SQL lives in this module.

One writer connection is owned by a writer task that commits whatever writes have
arrived in one transaction (group commit); each caller awaits its own batch's commit,
so an answer is on disk before its feedback is shown. Reads use their own connection,
so a leaderboard never waits behind writes (WAL mode).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date
from datetime import time as dt_time
from pathlib import Path
from typing import Any, Generic, TypeVar

import aiosqlite

from .clock import period_keys
from .competition import Competition
from .daily import DailyPost, DailySchedule, next_streak
from .race import Race
from .refs import PlayerRef, ScopeRef
from .runs import Run

log = logging.getLogger(__name__)

T = TypeVar("T")
ALL_BANKS = "*"
MAX_BATCH = 512
BUSY_TIMEOUT_MS = 5000
# The writer checkpoints only past this many WAL pages (a safety net); normally the
# reader's passive checkpoints, every CHECKPOINT_EVERY seconds, keep the WAL short
# without ever stalling a commit.
WRITER_AUTOCHECKPOINT = 20_000
CHECKPOINT_EVERY = 5.0
CACHED_RUNS = 50_000
CACHED_PLAYERS = 50_000

MIGRATIONS: tuple[str, ...] = (
    # 1: players, runs, answers, first attempts and maintained leaderboard totals.
    """
    CREATE TABLE players (
        platform TEXT NOT NULL,
        player_id TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        locale TEXT,
        PRIMARY KEY (platform, player_id)
    ) WITHOUT ROWID;
    CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        bank_id TEXT NOT NULL,
        locale TEXT NOT NULL,
        seed INTEGER NOT NULL,
        question_ids TEXT NOT NULL,
        position INTEGER NOT NULL DEFAULT 0,
        correct INTEGER NOT NULL DEFAULT 0,
        points INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX runs_by_player ON runs (platform, workspace_id, player_id, bank_id, created_at);
    CREATE TABLE answers (
        run_id TEXT NOT NULL REFERENCES runs(run_id),
        position INTEGER NOT NULL,
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        bank_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        choice INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        points INTEGER NOT NULL,
        answered_at REAL NOT NULL,
        PRIMARY KEY (run_id, position)
    ) WITHOUT ROWID;
    CREATE TABLE attempts (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        bank_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        PRIMARY KEY (platform, workspace_id, player_id, bank_id, question_id)
    ) WITHOUT ROWID;
    CREATE TABLE boards (
        board_id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        bank_id TEXT NOT NULL,
        period TEXT NOT NULL,
        UNIQUE (platform, workspace_id, bank_id, period)
    );
    CREATE TABLE totals (
        board_id INTEGER NOT NULL REFERENCES boards(board_id),
        player_id TEXT NOT NULL,
        points INTEGER NOT NULL DEFAULT 0,
        correct INTEGER NOT NULL DEFAULT 0,
        answered INTEGER NOT NULL DEFAULT 0,
        reached_at REAL NOT NULL DEFAULT 0,
        PRIMARY KEY (board_id, player_id)
    ) WITHOUT ROWID;
    CREATE INDEX totals_rank ON totals (board_id, points DESC, reached_at, player_id);
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    """,
    # 2: channel play: daily questions, live races and competitions.
    """
    CREATE TABLE daily_schedules (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        topics TEXT NOT NULL,
        at TEXT NOT NULL,
        timezone TEXT NOT NULL,
        locale TEXT NOT NULL,
        reveal_after INTEGER NOT NULL,
        PRIMARY KEY (platform, workspace_id, channel_id)
    ) WITHOUT ROWID;
    CREATE TABLE daily_posts (
        post_id TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        day TEXT NOT NULL,
        cycle INTEGER NOT NULL,
        bank_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        seed INTEGER NOT NULL,
        locale TEXT NOT NULL,
        posted_at REAL NOT NULL,
        reveal_at REAL NOT NULL,
        message_ref TEXT,
        revealed_at REAL,
        UNIQUE (platform, workspace_id, channel_id, day)
    );
    CREATE INDEX daily_posts_unrevealed ON daily_posts (reveal_at) WHERE revealed_at IS NULL;
    CREATE TABLE daily_answers (
        post_id TEXT NOT NULL REFERENCES daily_posts(post_id),
        player_id TEXT NOT NULL,
        choice INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        points INTEGER NOT NULL,
        streak INTEGER NOT NULL,
        answered_at REAL NOT NULL,
        PRIMARY KEY (post_id, player_id)
    ) WITHOUT ROWID;
    CREATE TABLE daily_streaks (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        streak INTEGER NOT NULL,
        last_day TEXT NOT NULL,
        PRIMARY KEY (platform, workspace_id, channel_id, player_id)
    ) WITHOUT ROWID;
    CREATE TABLE races (
        race_id TEXT PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        bank_id TEXT NOT NULL,
        question_ids TEXT NOT NULL,
        seconds INTEGER NOT NULL,
        starter_id TEXT NOT NULL,
        locale TEXT NOT NULL,
        seed INTEGER NOT NULL,
        current INTEGER NOT NULL,
        phase TEXT NOT NULL,
        phase_until REAL NOT NULL,
        opened_at REAL NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX races_one_per_channel
        ON races (platform, workspace_id, channel_id) WHERE phase != 'done';
    CREATE TABLE race_answers (
        race_id TEXT NOT NULL REFERENCES races(race_id),
        number INTEGER NOT NULL,
        player_id TEXT NOT NULL,
        choice INTEGER NOT NULL,
        correct INTEGER NOT NULL,
        points INTEGER NOT NULL,
        streak INTEGER NOT NULL,
        answered_at REAL NOT NULL,
        PRIMARY KEY (race_id, number, player_id)
    ) WITHOUT ROWID;
    CREATE TABLE competitions (
        competition_id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        channel_id TEXT NOT NULL,
        name TEXT NOT NULL,
        topics TEXT NOT NULL,
        starts_at REAL NOT NULL,
        ends_at REAL NOT NULL,
        created_by TEXT NOT NULL,
        ended_at REAL
    );
    CREATE UNIQUE INDEX competitions_one_active
        ON competitions (platform, workspace_id) WHERE ended_at IS NULL;
    """,
)

_TOTALS_UPSERT = """
    INSERT INTO totals (board_id, player_id, points, correct, answered, reached_at)
    VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (board_id, player_id) DO UPDATE SET
        points = points + excluded.points,
        correct = correct + excluded.correct,
        answered = answered + excluded.answered,
        reached_at = CASE WHEN excluded.points > 0 THEN excluded.reached_at ELSE reached_at END
"""


class StoreError(Exception):
    """The database could not do what was asked; the message is safe to show operators."""


@dataclass(frozen=True)
class AnswerRecord:
    run: Run  # the run as it was when the answer arrived
    question_id: str
    choice: int
    correct: bool
    points: int  # what the answer earns if it is the player's first attempt
    at: float


@dataclass(frozen=True)
class Recorded:
    points: int  # points actually awarded
    practice: bool  # not the first attempt at this question: no points
    duplicate: bool  # this position was already answered; nothing changed
    choice: int  # the choice on record (the first one, for a duplicate)
    correct: bool


@dataclass(frozen=True)
class TotalRow:
    player_id: str
    name: str
    points: int
    correct: int
    answered: int
    rank: int = 0


@dataclass(frozen=True)
class Standing:
    rows: tuple[TotalRow, ...]
    you: TotalRow | None
    players: int


@dataclass(frozen=True)
class ChannelAnswer:
    """A daily or race answer on record."""

    choice: int
    correct: bool
    points: int
    streak: int
    duplicate: bool  # the player had already answered: this click changed nothing


@dataclass(frozen=True)
class ChannelResults:
    counts: dict[int, int]  # choice (bank index) -> answers
    winners: tuple[TotalRow, ...]  # who answered right, most points first


@dataclass(frozen=True)
class BankTotals:
    bank_id: str
    points: int
    correct: int
    answered: int


_Work = Callable[[sqlite3.Connection], Any]
K = TypeVar("K")
V = TypeVar("V")


class _Lru(Generic[K, V]):
    """A bounded cache of hot rows (runs in progress, player languages), so a click
    needs no database read. Only this process writes the database, and every write
    goes through the store, which updates the cache after the commit."""

    def __init__(self, size: int):
        self._size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        if len(self._items) > self._size:
            self._items.popitem(last=False)


class Store:
    """The async interface to the database; open with ``await Store.open(path)``."""

    def __init__(
        self,
        path: str,
        writer: _WriterThread,
        reader: aiosqlite.Connection,
        max_batch: int = MAX_BATCH,
    ):
        self.path = path
        self._max_batch = max_batch
        self._writer = writer
        self._reader = reader
        self._ledger = _Ledger()
        self.runs_in_progress = 0  # for the metrics; counted at open, then kept up to date
        self.transactions = 0  # committed write transactions (group commit makes it small)
        self._runs: _Lru[str, Run] = _Lru(CACHED_RUNS)
        self._locales: _Lru[tuple[str, str], tuple[str | None]] = _Lru(CACHED_PLAYERS)
        self._queue: asyncio.Queue[tuple[_Work, asyncio.Future[Any]]] = asyncio.Queue()
        self._task = asyncio.create_task(self._write_loop(), name="quizbot-store-writer")
        self._checkpoints = asyncio.create_task(self._checkpoint_loop(), name="quizbot-wal")

    @classmethod
    async def open(
        cls, path: str | Path, max_batch: int = MAX_BATCH, busy_timeout_ms: int = BUSY_TIMEOUT_MS
    ) -> Store:
        """Open (creating and migrating) the database. ``max_batch=1`` turns group commit
        off: one transaction per write (the benchmarks' baseline). A write that finds the
        database locked by another process waits ``busy_timeout_ms``, then fails."""
        path = str(path)
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the directory for {path}: {exc}") from exc
        writer = _WriterThread()
        reader: aiosqlite.Connection | None = None
        try:
            await writer.call(_open_writer, path, busy_timeout_ms)
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

    # --- writing -------------------------------------------------------------------

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

    async def _commit(self, batch: list[tuple[_Work, asyncio.Future[Any]]]) -> None:
        """One transaction for the whole batch; if it fails, each item is retried alone
        so that one bad write fails only its own caller."""
        try:
            results = await self._writer.call(_transaction, [work for work, _ in batch])
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

    async def save_run(self, run: Run) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO runs (run_id, platform, workspace_id, channel_id, player_id,"
                " bank_id, locale, seed, question_ids, position, correct, points,"
                " created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    run.id,
                    run.player.platform,
                    run.scope.workspace_id,
                    run.scope.channel_id,
                    run.player.id,
                    run.bank_id,
                    run.locale,
                    run.seed,
                    json.dumps(run.question_ids),
                    run.position,
                    run.correct,
                    run.points,
                    run.created_at,
                    run.created_at,
                ),
            )
            _upsert_player(db, run.player)

        await self._write(work)
        self._runs.put(run.id, run)
        self.runs_in_progress += 1

    async def record_answer(self, record: AnswerRecord) -> Recorded:
        """Write one answer with its totals and run progress; a repeat of an answered
        position changes nothing and reports the answer on record. Answers that arrive
        together are written set-wise (see ``_record_answers``)."""
        recorded = await self._write(_AnswerWork(record, self._ledger))
        if not recorded.duplicate:
            after = record.run.after_answer(recorded.correct, recorded.points)
            self._runs.put(after.id, after)
            self.runs_in_progress -= after.finished
        return recorded

    async def save_player(self, player: PlayerRef) -> None:
        """Refresh a player's display name."""

        def work(db: sqlite3.Connection) -> None:
            _upsert_player(db, player)

        await self._write(work)

    async def set_player_locale(self, player: PlayerRef, locale: str | None) -> None:
        def work(db: sqlite3.Connection) -> None:
            _upsert_player(db, player)
            db.execute(
                "UPDATE players SET locale = ? WHERE platform = ? AND player_id = ?",
                (locale, player.platform, player.id),
            )

        await self._write(work)
        self._locales.put((player.platform, player.id), (locale,))

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

    # --- reading -------------------------------------------------------------------

    async def _fetchall(self, sql: str, params: Sequence[Any]) -> list[sqlite3.Row]:
        try:
            async with self._reader.execute(sql, params) as cursor:
                return list(await cursor.fetchall())
        except sqlite3.Error as exc:
            raise StoreError(f"the database read failed: {exc}") from exc

    async def setting(self, key: str) -> str | None:
        rows = await self._fetchall("SELECT value FROM settings WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    async def player_locale(self, platform: str, player_id: str) -> str | None:
        cached = self._locales.get((platform, player_id))
        if cached is None:
            rows = await self._fetchall(
                "SELECT locale FROM players WHERE platform = ? AND player_id = ?",
                (platform, player_id),
            )
            cached = (rows[0][0] if rows else None,)
            self._locales.put((platform, player_id), cached)
        return cached[0]

    async def load_run(self, run_id: str) -> Run | None:
        cached = self._runs.get(run_id)
        if cached is not None:
            return cached
        rows = await self._fetchall(
            "SELECT r.platform, r.workspace_id, r.channel_id, r.player_id, r.bank_id, r.locale,"
            " r.seed, r.question_ids, r.position, r.correct, r.points, r.created_at,"
            " COALESCE(p.name, '') FROM runs r LEFT JOIN players p"
            " ON p.platform = r.platform AND p.player_id = r.player_id WHERE r.run_id = ?",
            (run_id,),
        )
        if not rows:
            return None
        (platform, workspace, channel, player_id, bank_id, locale, seed, qids, position,
         correct, points, created_at, name) = rows[0]  # fmt: skip
        run = Run(
            id=run_id,
            player=PlayerRef(platform, player_id, name),
            scope=ScopeRef(platform, workspace, channel),
            bank_id=bank_id,
            locale=locale,
            seed=seed,
            question_ids=tuple(json.loads(qids)),
            position=position,
            correct=correct,
            points=points,
            created_at=created_at,
        )
        self._runs.put(run_id, run)
        return run

    async def open_run_id(self, player: PlayerRef, scope: ScopeRef, bank_id: str) -> str | None:
        """The player's newest unfinished run of a bank in a workspace, if any."""
        rows = await self._fetchall(
            "SELECT run_id FROM runs WHERE platform = ? AND workspace_id = ? AND player_id = ?"
            " AND bank_id = ? AND position < json_array_length(question_ids)"
            " ORDER BY created_at DESC LIMIT 1",
            (player.platform, scope.workspace_id, player.id, bank_id),
        )
        return rows[0][0] if rows else None

    async def standing(
        self,
        scope: ScopeRef,
        bank_id: str,
        period: str,
        player_id: str | None,
        limit: int = 10,
        count: bool = False,
    ) -> Standing:
        """Top ``limit`` of a leaderboard, the asking player's row and (with ``count``)
        how many have points. Served from the maintained totals through the
        ``totals_rank`` index: the cost grows with the rank, not with the answers."""
        board = (
            "(SELECT board_id FROM boards WHERE platform = ? AND workspace_id = ?"
            " AND bank_id = ? AND period = ?)"
        )
        key = (scope.platform, scope.workspace_id, bank_id, period)
        top = await self._fetchall(
            "SELECT t.player_id, COALESCE(p.name, ''), t.points, t.correct, t.answered"
            " FROM totals t LEFT JOIN players p ON p.platform = ? AND p.player_id = t.player_id"
            f" WHERE t.board_id = {board} AND t.points > 0"
            " ORDER BY t.points DESC, t.reached_at, t.player_id LIMIT ?",
            (scope.platform, *key, limit),
        )
        rows = tuple(TotalRow(*row, rank=i) for i, row in enumerate(top, start=1))
        you = next((row for row in rows if row.player_id == player_id), None)
        if you is None and player_id is not None:
            mine = await self._fetchall(
                "SELECT t.points, t.correct, t.answered, COALESCE(p.name, ''),"
                " (SELECT COUNT(*) FROM totals o WHERE o.board_id = t.board_id"
                "  AND (o.points > t.points OR (o.points = t.points AND (o.reached_at"
                "  < t.reached_at OR (o.reached_at = t.reached_at"
                "  AND o.player_id < t.player_id)))))"
                " FROM totals t LEFT JOIN players p ON p.platform = ? AND p.player_id = ?"
                f" WHERE t.board_id = {board} AND t.player_id = ? AND t.points > 0",
                (scope.platform, player_id, *key, player_id),
            )
            if mine:
                points, correct, answered, name, ahead = mine[0]
                you = TotalRow(player_id, name, points, correct, answered, rank=ahead + 1)
        players = 0
        if count:
            found = await self._fetchall(
                f"SELECT COUNT(*) FROM totals WHERE board_id = {board} AND points > 0", key
            )
            players = found[0][0]
        return Standing(rows, you, players)

    async def bank_totals(self, scope: ScopeRef, player_id: str) -> list[BankTotals]:
        rows = await self._fetchall(
            "SELECT b.bank_id, t.points, t.correct, t.answered FROM boards b JOIN totals t"
            " ON t.board_id = b.board_id WHERE b.platform = ? AND b.workspace_id = ?"
            " AND b.period = 'all' AND t.player_id = ? AND b.bank_id != ? ORDER BY b.bank_id",
            (scope.platform, scope.workspace_id, player_id, ALL_BANKS),
        )
        return [BankTotals(*row) for row in rows]

    # --- channel play: daily questions ---------------------------------------------------

    async def set_daily(self, schedule: DailySchedule) -> None:
        scope = schedule.scope

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO daily_schedules VALUES (?,?,?,?,?,?,?,?)"
                " ON CONFLICT (platform, workspace_id, channel_id) DO UPDATE SET"
                " topics = excluded.topics, at = excluded.at, timezone = excluded.timezone,"
                " locale = excluded.locale, reveal_after = excluded.reveal_after",
                (
                    scope.platform,
                    scope.workspace_id,
                    scope.channel_id,
                    json.dumps(schedule.topics),
                    schedule.at.strftime("%H:%M"),
                    schedule.timezone,
                    schedule.locale,
                    schedule.reveal_after,
                ),
            )

        await self._write(work)

    async def remove_daily(self, scope: ScopeRef) -> bool:
        def work(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "DELETE FROM daily_schedules WHERE platform = ? AND workspace_id = ?"
                " AND channel_id = ?",
                (scope.platform, scope.workspace_id, scope.channel_id),
            )
            return cursor.rowcount > 0

        return await self._write(work)

    async def daily_schedules(self, platform: str | None = None) -> list[DailySchedule]:
        rows = await self._fetchall(
            "SELECT platform, workspace_id, channel_id, topics, at, timezone, locale,"
            " reveal_after FROM daily_schedules WHERE ? IS NULL OR platform = ?",
            (platform, platform),
        )
        return [
            DailySchedule(
                ScopeRef(p, w, c),
                tuple(json.loads(topics)),
                dt_time.fromisoformat(at),
                tz,
                locale,
                reveal_after,
            )
            for p, w, c, topics, at, tz, locale, reveal_after in rows
        ]

    async def daily_history(self, scope: ScopeRef) -> tuple[int, set[tuple[str, str]]]:
        """The channel's current cycle and the questions already posted in it."""
        rows = await self._fetchall(
            "SELECT cycle, bank_id, question_id FROM daily_posts WHERE platform = ?"
            " AND workspace_id = ? AND channel_id = ? AND cycle = (SELECT MAX(cycle)"
            " FROM daily_posts WHERE platform = ? AND workspace_id = ? AND channel_id = ?)",
            (*_channel(scope), *_channel(scope)),
        )
        cycle = rows[0][0] if rows else 0
        return cycle, {(bank, question) for _, bank, question in rows}

    async def claim_daily_post(self, post: DailyPost) -> bool:
        """Reserve the channel's post for its day; False when the day is already taken.
        The UNIQUE key, not memory, is what keeps a day from being posted twice."""

        def work(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "INSERT INTO daily_posts (post_id, platform, workspace_id, channel_id, day,"
                " cycle, bank_id, question_id, seed, locale, posted_at, reveal_at)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING",
                (
                    post.id,
                    *_channel(post.scope),
                    post.day,
                    post.cycle,
                    post.bank_id,
                    post.question_id,
                    post.seed,
                    post.locale,
                    post.posted_at,
                    post.reveal_at,
                ),
            )
            return cursor.rowcount == 1

        return await self._write(work)

    async def set_daily_message(self, post_id: str, message_ref: str) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE daily_posts SET message_ref = ? WHERE post_id = ?", (message_ref, post_id)
            )

        await self._write(work)

    async def mark_daily_revealed(self, post_id: str, at: float) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.execute("UPDATE daily_posts SET revealed_at = ? WHERE post_id = ?", (at, post_id))

        await self._write(work)

    _DAILY_COLUMNS = (
        "post_id, platform, workspace_id, channel_id, day, cycle, bank_id, question_id, seed,"
        " locale, posted_at, reveal_at, message_ref, revealed_at"
    )

    async def daily_post(self, post_id: str) -> DailyPost | None:
        rows = await self._fetchall(
            f"SELECT {self._DAILY_COLUMNS} FROM daily_posts WHERE post_id = ?", (post_id,)
        )
        return _daily_post(rows[0]) if rows else None

    async def daily_posts_to_reveal(self, now: float) -> list[DailyPost]:
        rows = await self._fetchall(
            f"SELECT {self._DAILY_COLUMNS} FROM daily_posts"
            " WHERE revealed_at IS NULL AND reveal_at <= ? ORDER BY reveal_at",
            (now,),
        )
        return [_daily_post(row) for row in rows]

    async def record_daily_answer(
        self,
        post: DailyPost,
        player: PlayerRef,
        choice: int,
        correct: bool,
        points_for_streak: Callable[[int], int],
        at: float,
    ) -> ChannelAnswer:
        """One answer per player per post; the streak is counted in the post's day."""

        def work(db: sqlite3.Connection) -> ChannelAnswer:
            found = db.execute(
                "SELECT choice, correct, points, streak FROM daily_answers"
                " WHERE post_id = ? AND player_id = ?",
                (post.id, player.id),
            ).fetchone()
            if found:
                return ChannelAnswer(found[0], bool(found[1]), found[2], found[3], True)
            key = (*_channel(post.scope), player.id)
            previous = db.execute(
                "SELECT streak, last_day FROM daily_streaks WHERE platform = ?"
                " AND workspace_id = ? AND channel_id = ? AND player_id = ?",
                key,
            ).fetchone()
            streak = next_streak(
                previous[0] if previous else 0,
                date.fromisoformat(previous[1]) if previous else None,
                date.fromisoformat(post.day),
            )
            points = points_for_streak(streak)
            db.execute(
                "INSERT INTO daily_answers VALUES (?,?,?,?,?,?,?)",
                (post.id, player.id, choice, int(correct), points, streak, at),
            )
            db.execute(
                "INSERT INTO daily_streaks VALUES (?,?,?,?,?,?) ON CONFLICT DO UPDATE SET"
                " streak = excluded.streak, last_day = excluded.last_day",
                (*key, streak, post.day),
            )
            _upsert_player(db, player)
            self._ledger.credit(db, player, post.scope, post.bank_id, points, correct, at)
            return ChannelAnswer(choice, correct, points, streak, False)

        return await self._write(work)

    async def daily_results(self, post: DailyPost) -> ChannelResults:
        return await self._results(
            "daily_answers", "a.post_id = ?", (post.id,), post.scope.platform
        )

    async def _results(
        self, table: str, where: str, params: Sequence[Any], platform: str
    ) -> ChannelResults:
        """Answer counts by choice, and who answered right (most points first), for a
        reveal."""
        counts = await self._fetchall(
            f"SELECT a.choice, COUNT(*) FROM {table} a WHERE {where} GROUP BY a.choice", params
        )
        winners = await self._fetchall(
            f"SELECT a.player_id, COALESCE(p.name, ''), a.points FROM {table} a"
            " LEFT JOIN players p ON p.platform = ? AND p.player_id = a.player_id"
            f" WHERE {where} AND a.correct = 1 ORDER BY a.points DESC, a.answered_at",
            (platform, *params),
        )
        return ChannelResults(
            dict(counts), tuple(TotalRow(pid, name, pts, 1, 1) for pid, name, pts in winners)
        )

    # --- channel play: races --------------------------------------------------------------

    _RACE_COLUMNS = (
        "race_id, platform, workspace_id, channel_id, bank_id, question_ids, seconds,"
        " starter_id, locale, seed, current, phase, phase_until, opened_at"
    )

    async def create_race(self, race: Race, at: float) -> bool:
        """False when the channel already has a race running (a UNIQUE index says so)."""

        def work(db: sqlite3.Connection) -> bool:
            try:
                db.execute(
                    f"INSERT INTO races ({self._RACE_COLUMNS}, created_at)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (*_race_row(race), at),
                )
            except sqlite3.IntegrityError:
                return False
            return True

        return await self._write(work)

    async def update_race(self, race: Race) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE races SET current = ?, phase = ?, phase_until = ?, opened_at = ?"
                " WHERE race_id = ?",
                (race.current, race.phase, race.phase_until, race.opened_at, race.id),
            )

        await self._write(work)

    async def race(self, race_id: str) -> Race | None:
        rows = await self._fetchall(
            f"SELECT {self._RACE_COLUMNS} FROM races WHERE race_id = ?", (race_id,)
        )
        return _race(rows[0]) if rows else None

    async def running_races(self, scope: ScopeRef | None = None) -> list[Race]:
        """Races not done: all of them, or the one in a channel."""
        channel = _channel(scope) if scope else (None, None, None)
        rows = await self._fetchall(
            f"SELECT {self._RACE_COLUMNS} FROM races WHERE phase != 'done'"
            " AND (? IS NULL OR (platform = ? AND workspace_id = ? AND channel_id = ?))",
            (channel[0], *channel),
        )
        return [_race(row) for row in rows]

    async def record_race_answer(
        self,
        race: Race,
        player: PlayerRef,
        choice: int,
        correct: bool,
        points_for_streak: Callable[[int], int],
        at: float,
    ) -> ChannelAnswer:
        """The first click of a player on a race question is locked in."""
        number = race.current

        def work(db: sqlite3.Connection) -> ChannelAnswer:
            found = db.execute(
                "SELECT choice, correct, points, streak FROM race_answers"
                " WHERE race_id = ? AND number = ? AND player_id = ?",
                (race.id, number, player.id),
            ).fetchone()
            if found:
                return ChannelAnswer(found[0], bool(found[1]), found[2], found[3], True)
            before = db.execute(
                "SELECT streak FROM race_answers WHERE race_id = ? AND number = ?"
                " AND player_id = ? AND correct = 1",
                (race.id, number - 1, player.id),
            ).fetchone()
            streak = (before[0] if before else 0) + 1 if correct else 0
            points = points_for_streak(streak)
            db.execute(
                "INSERT INTO race_answers VALUES (?,?,?,?,?,?,?,?)",
                (race.id, number, player.id, choice, int(correct), points, streak, at),
            )
            _upsert_player(db, player)
            self._ledger.credit(db, player, race.scope, race.bank_id, points, correct, at)
            return ChannelAnswer(choice, correct, points, streak, False)

        return await self._write(work)

    async def race_results(self, race: Race) -> ChannelResults:
        return await self._results(
            "race_answers", "a.race_id = ? AND a.number = ?", (race.id, race.current),
            race.scope.platform,
        )  # fmt: skip

    async def race_standings(self, race: Race, limit: int = 10) -> list[TotalRow]:
        """Points in this race so far; ties go to whoever got there first."""
        rows = await self._fetchall(
            "SELECT a.player_id, COALESCE(p.name, ''), SUM(a.points), SUM(a.correct),"
            " COUNT(*), MAX(CASE WHEN a.points > 0 THEN a.answered_at ELSE 0 END) AS reached"
            " FROM race_answers a LEFT JOIN players p"
            " ON p.platform = ? AND p.player_id = a.player_id WHERE a.race_id = ?"
            " GROUP BY a.player_id ORDER BY SUM(a.points) DESC, reached, a.player_id LIMIT ?",
            (race.scope.platform, race.id, limit),
        )
        return [
            TotalRow(pid, name, points, correct, answered, rank=i)
            for i, (pid, name, points, correct, answered, _) in enumerate(rows, start=1)
        ]

    # --- competitions ---------------------------------------------------------------------

    _COMPETITION_COLUMNS = (
        "competition_id, platform, workspace_id, channel_id, name, topics, starts_at, ends_at,"
        " created_by, ended_at"
    )

    async def create_competition(
        self,
        scope: ScopeRef,
        name: str,
        topics: tuple[str, ...],
        starts_at: float,
        ends_at: float,
        created_by: str,
    ) -> Competition | None:
        """None when the workspace already has a competition running."""

        def work(db: sqlite3.Connection) -> int | None:
            try:
                cursor = db.execute(
                    "INSERT INTO competitions (platform, workspace_id, channel_id, name, topics,"
                    " starts_at, ends_at, created_by) VALUES (?,?,?,?,?,?,?,?)",
                    (*_channel(scope), name, json.dumps(topics), starts_at, ends_at, created_by),
                )
            except sqlite3.IntegrityError:
                return None
            self._ledger.forget_competitions()
            return cursor.lastrowid

        competition_id = await self._write(work)
        if competition_id is None:
            return None
        return Competition(competition_id, scope, name, topics, starts_at, ends_at, created_by)

    async def running_competition(self, scope: ScopeRef) -> Competition | None:
        rows = await self._fetchall(
            f"SELECT {self._COMPETITION_COLUMNS} FROM competitions WHERE platform = ?"
            " AND workspace_id = ? AND ended_at IS NULL",
            (scope.platform, scope.workspace_id),
        )
        return _competition(rows[0]) if rows else None

    async def latest_competition(self, scope: ScopeRef) -> Competition | None:
        rows = await self._fetchall(
            f"SELECT {self._COMPETITION_COLUMNS} FROM competitions WHERE platform = ?"
            " AND workspace_id = ? ORDER BY ended_at IS NULL DESC, competition_id DESC LIMIT 1",
            (scope.platform, scope.workspace_id),
        )
        return _competition(rows[0]) if rows else None

    async def competitions_to_end(self, now: float) -> list[Competition]:
        rows = await self._fetchall(
            f"SELECT {self._COMPETITION_COLUMNS} FROM competitions"
            " WHERE ended_at IS NULL AND ends_at <= ?",
            (now,),
        )
        return [_competition(row) for row in rows]

    async def end_competition(self, competition: Competition, at: float) -> bool:
        """False when it had already ended (so its results are announced once)."""

        def work(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "UPDATE competitions SET ended_at = ? WHERE competition_id = ?"
                " AND ended_at IS NULL",
                (at, competition.id),
            )
            self._ledger.forget_competitions()
            return cursor.rowcount == 1

        return await self._write(work)


def _channel(scope: ScopeRef) -> tuple[str, str, str]:
    return (scope.platform, scope.workspace_id, scope.channel_id)


def _daily_post(row: Sequence[Any]) -> DailyPost:
    post_id, platform, workspace, channel, *rest = row
    return DailyPost(post_id, ScopeRef(platform, workspace, channel), *rest)


def _race_row(race: Race) -> tuple[Any, ...]:
    return (
        race.id, *_channel(race.scope), race.bank_id, json.dumps(race.question_ids),
        race.seconds, race.starter_id, race.locale, race.seed, race.current, race.phase,
        race.phase_until, race.opened_at,
    )  # fmt: skip


def _race(row: Sequence[Any]) -> Race:
    race_id, platform, workspace, channel, bank_id, qids, *rest = row
    scope = ScopeRef(platform, workspace, channel)
    return Race(race_id, scope, bank_id, tuple(json.loads(qids)), *rest)


def _competition(row: Sequence[Any]) -> Competition:
    cid, platform, workspace, channel, name, topics, *rest = row
    return Competition(
        cid, ScopeRef(platform, workspace, channel), name, tuple(json.loads(topics)), *rest
    )


class _Ledger:
    """Adds answers to the maintained totals. Its caches (board ids, running
    competitions) belong to the writer thread and are cleared when a batch rolls back."""

    def __init__(self) -> None:
        self._boards: dict[tuple[str, str, str, str], int] = {}
        self._competitions: dict[tuple[str, str], list[tuple[int, float, float, set[str]]]] = {}

    def clear(self) -> None:
        self._boards.clear()
        self._competitions.clear()

    def forget_competitions(self) -> None:
        self._competitions.clear()

    def board(self, db: sqlite3.Connection, key: tuple[str, str, str, str]) -> int:
        board_id = self._boards.get(key)
        if board_id is None:
            db.execute("INSERT INTO boards VALUES (NULL, ?, ?, ?, ?) ON CONFLICT DO NOTHING", key)
            (board_id,) = db.execute(
                "SELECT board_id FROM boards WHERE platform = ? AND workspace_id = ?"
                " AND bank_id = ? AND period = ?",
                key,
            ).fetchone()
            self._boards[key] = board_id
        return board_id

    def _running(
        self, db: sqlite3.Connection, scope: ScopeRef
    ) -> list[tuple[int, float, float, set[str]]]:
        key = (scope.platform, scope.workspace_id)
        if key not in self._competitions:
            rows = db.execute(
                "SELECT competition_id, starts_at, ends_at, topics FROM competitions"
                " WHERE platform = ? AND workspace_id = ? AND ended_at IS NULL",
                key,
            ).fetchall()
            self._competitions[key] = [(c, s, e, set(json.loads(t))) for c, s, e, t in rows]
        return self._competitions[key]

    def credit(
        self,
        db: sqlite3.Connection,
        player: PlayerRef,
        scope: ScopeRef,
        bank_id: str,
        points: int,
        correct: bool,
        at: float,
    ) -> None:
        self.credit_many(db, [(player, scope, bank_id, points, correct, at)])

    def credit_many(
        self,
        db: sqlite3.Connection,
        answers: list[tuple[PlayerRef, ScopeRef, str, int, bool, float]],
    ) -> None:
        """Add answers to their topic and to all topics, in every period they fall in and
        in each running competition whose window and topics they fit; answers to the same
        leaderboard row are summed first, so each row is written once."""
        rows: dict[tuple[int, str], list[float]] = {}
        for player, scope, bank_id, points, correct, at in answers:
            periods = [
                *period_keys(at),
                *(
                    f"competition:{cid}"
                    for cid, starts, ends, topics in self._running(db, scope)
                    if starts <= at < ends and (not topics or bank_id in topics)
                ),
            ]
            for bank in (bank_id, ALL_BANKS):
                for period in periods:
                    board = self.board(db, (scope.platform, scope.workspace_id, bank, period))
                    row = rows.setdefault((board, player.id), [0, 0, 0, 0.0])
                    row[0] += points
                    row[1] += int(correct)
                    row[2] += 1
                    if points > 0:
                        row[3] = max(row[3], at)
        db.executemany(
            _TOTALS_UPSERT, [(board, pid, *values) for (board, pid), values in rows.items()]
        )


def _upsert_player(db: sqlite3.Connection, player: PlayerRef) -> None:
    db.execute(
        "INSERT INTO players (platform, player_id, name) VALUES (?, ?, ?)"
        " ON CONFLICT (platform, player_id) DO UPDATE SET"
        " name = CASE WHEN excluded.name != '' THEN excluded.name ELSE name END",
        (player.platform, player.id, player.name),
    )


def _migrate(db: sqlite3.Connection) -> None:
    """Bring the schema to the newest version, one migration per transaction."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version > len(MIGRATIONS):
        raise StoreError(
            f"the database has schema version {version}, newer than this quizbot"
            f" ({len(MIGRATIONS)}): upgrade quizbot"
        )
    for number, script in enumerate(MIGRATIONS[version:], start=version + 1):
        statements = [s for s in script.split(";") if s.strip()]
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in statements:
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {number}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        log.info("database migrated to schema version %d", number)


class _WriterThread:
    """The one thread that owns the writing connection. A whole batch runs in it in one
    hop, instead of one event-loop round trip per statement."""

    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="quizbot-writer")
        self.connection: sqlite3.Connection | None = None

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: fn(self, *args))

    async def close(self) -> None:
        def shut(writer: _WriterThread) -> None:
            if writer.connection is not None:
                writer.connection.close()

        await self.call(shut)
        self._executor.shutdown(wait=True)


def _open_writer(writer: _WriterThread, path: str, busy_timeout_ms: int) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    writer.connection = db
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")  # an acknowledged answer survives power loss too
    db.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
    db.execute(f"PRAGMA wal_autocheckpoint={WRITER_AUTOCHECKPOINT}")
    db.execute("PRAGMA foreign_keys=ON")
    _migrate(db)


def _transaction(writer: _WriterThread, works: Sequence[_Work]) -> list[Any]:
    db = writer.connection
    assert db is not None
    db.execute("BEGIN IMMEDIATE")
    try:
        results: list[Any] = []
        index = 0
        while index < len(works):
            work = works[index]
            if isinstance(work, _AnswerWork):
                # A run of answers is written set-wise, in a few statements for all.
                end = index
                while end < len(works) and isinstance(works[end], _AnswerWork):
                    end += 1
                segment = [w.record for w in works[index:end]]  # type: ignore[attr-defined]
                results.extend(_record_answers(db, work.ledger, segment))
                index = end
            else:
                results.append(work(db))
                index += 1
        db.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    return results


@dataclass(frozen=True)
class _AnswerWork:
    """A queued answer: the writer merges consecutive ones into one set-wise write."""

    record: AnswerRecord
    ledger: _Ledger

    def __call__(self, db: sqlite3.Connection) -> Recorded:
        return _record_answers(db, self.ledger, [self.record])[0]


def _chunks(items: list[T], size: int = 300) -> list[list[T]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _record_answers(
    db: sqlite3.Connection, ledger: _Ledger, records: list[AnswerRecord]
) -> list[Recorded]:
    """Write answers set-wise: duplicates (the same run position, already on disk or
    earlier in this set) change nothing; only a player's first attempt at a question
    scores; totals and run progress follow."""
    results: list[Recorded | None] = [None] * len(records)
    first: dict[tuple[str, int], int] = {}
    repeats: dict[int, int] = {}
    for i, record in enumerate(records):
        key = (record.run.id, record.run.position)
        if key in first:
            repeats[i] = first[key]
        else:
            first[key] = i
    run_ids = list({run_id for run_id, _ in first})
    for chunk in _chunks(run_ids):  # by the primary key's first column: an index lookup
        rows = db.execute(
            "SELECT run_id, position, choice, correct, points FROM answers"
            f" WHERE run_id IN ({','.join('?' * len(chunk))})",
            chunk,
        ).fetchall()
        for run_id, position, choice, correct, points in rows:
            if (run_id, position) in first:
                results[first[(run_id, position)]] = Recorded(
                    points, points == 0, True, choice, bool(correct)
                )
    fresh = [i for i in first.values() if results[i] is None]

    def attempt(record: AnswerRecord) -> tuple[str, str, str, str, str]:
        run = record.run
        return (run.player.platform, run.scope.workspace_id, run.player.id, run.bank_id,
                record.question_id)  # fmt: skip

    wanted = {attempt(records[i]) for i in fresh}
    players: dict[tuple[str, str], set[str]] = {}
    for platform, workspace, player, _, _ in wanted:
        players.setdefault((platform, workspace), set()).add(player)
    tried: set[tuple[str, str, str, str, str]] = set()
    for (platform, workspace), ids in players.items():
        for chunk in _chunks(sorted(ids)):  # by the primary key's prefix
            rows = db.execute(
                "SELECT * FROM attempts WHERE platform = ? AND workspace_id = ?"
                f" AND player_id IN ({','.join('?' * len(chunk))})",
                [platform, workspace, *chunk],
            ).fetchall()
            tried.update(row for row in rows if row in wanted)
    answers, attempts, credits, progress = [], [], [], []
    for i in fresh:
        record, run = records[i], records[i].run
        key = attempt(record)
        practice = key in tried
        tried.add(key)
        points = 0 if practice else record.points
        if not practice:
            attempts.append(key)
        answers.append((
            run.id, run.position, run.player.platform, run.scope.workspace_id, run.player.id,
            run.bank_id, record.question_id, record.choice, int(record.correct), points, record.at,
        ))  # fmt: skip
        credits.append((run.player, run.scope, run.bank_id, points, record.correct, record.at))
        progress.append((int(record.correct), points, record.at, run.id))
        results[i] = Recorded(points, practice, False, record.choice, record.correct)
    db.executemany("INSERT INTO answers VALUES (?,?,?,?,?,?,?,?,?,?,?)", answers)
    db.executemany("INSERT INTO attempts VALUES (?,?,?,?,?)", attempts)
    ledger.credit_many(db, credits)
    db.executemany(
        "UPDATE runs SET position = position + 1, correct = correct + ?, points = points + ?,"
        " updated_at = ? WHERE run_id = ?",
        progress,
    )
    for i, original in repeats.items():
        done = results[original]
        assert done is not None
        results[i] = Recorded(done.points, done.practice, True, done.choice, done.correct)
    return [r for r in results if r is not None]


def integrity_problems(path: Path) -> list[str]:
    """What ``PRAGMA integrity_check`` finds in a database file (empty: it is sound)."""
    if not path.exists():
        return [f"{path}: no such file"]
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = [row[0] for row in db.execute("PRAGMA integrity_check")]
        finally:
            db.close()
    except sqlite3.Error as exc:
        return [f"{path}: {exc}"]
    return [] if rows == ["ok"] else [f"{path}: {row}" for row in rows]
