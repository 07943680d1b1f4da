"""The database's schema, migrated by version (``PRAGMA user_version``), and its
integrity check."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from bot.persistence.rows import StoreError

log = logging.getLogger(__name__)

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
    # 3: a workspace's own banks, and questions its members propose for them.
    """
    CREATE TABLE workspace_banks (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        bank_id TEXT NOT NULL,
        source TEXT NOT NULL,
        revision INTEGER NOT NULL,
        updated_by TEXT NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (platform, workspace_id, bank_id)
    ) WITHOUT ROWID;
    CREATE TABLE proposals (
        proposal_id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        bank_id TEXT NOT NULL,
        author_id TEXT NOT NULL,
        question TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        created_at REAL NOT NULL,
        decided_by TEXT,
        decided_at REAL
    );
    CREATE INDEX proposals_pending ON proposals (platform, workspace_id, status);
    """,
    # 4: spaced repetition: a card per player and question, the append-only log of every
    # answer as a review (what optimising FSRS's parameters needs), opt-in reminders, and
    # the daily question's preference for what the team missed.
    """
    CREATE TABLE cards (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        bank_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        stability REAL NOT NULL,
        difficulty REAL NOT NULL,
        due REAL NOT NULL,
        last_review REAL NOT NULL,
        reviews INTEGER NOT NULL,
        lapses INTEGER NOT NULL,
        last_correct INTEGER NOT NULL,
        PRIMARY KEY (platform, workspace_id, player_id, bank_id, question_id)
    ) WITHOUT ROWID;
    CREATE INDEX cards_due ON cards (platform, workspace_id, player_id, due);
    CREATE TABLE review_log (
        review_id INTEGER PRIMARY KEY,
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        bank_id TEXT NOT NULL,
        question_id TEXT NOT NULL,
        source TEXT NOT NULL,
        choice INTEGER NOT NULL,
        rating INTEGER NOT NULL,
        reviewed_at REAL NOT NULL,
        duration_ms INTEGER,
        was_due INTEGER NOT NULL
    );
    CREATE INDEX review_log_by_player
        ON review_log (platform, workspace_id, player_id, bank_id, reviewed_at);
    CREATE TABLE reminders (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        at TEXT NOT NULL,
        timezone TEXT NOT NULL,
        locale TEXT NOT NULL,
        next_at REAL NOT NULL,
        PRIMARY KEY (platform, workspace_id, player_id)
    ) WITHOUT ROWID;
    CREATE INDEX reminders_next ON reminders (next_at);
    CREATE TABLE reminder_sends (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        day TEXT NOT NULL,
        sent_at REAL NOT NULL,
        PRIMARY KEY (platform, workspace_id, player_id, day)
    ) WITHOUT ROWID;
    ALTER TABLE daily_schedules ADD COLUMN prefer_missed INTEGER NOT NULL DEFAULT 0;
    """,
    # 5: installations (a platform's credentials for a workspace, sealed by the adapter),
    # the one-time states of the install flow, and the workspaces that removed the app,
    # whose data is deleted when their grace period ends.
    """
    CREATE TABLE installations (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        credentials TEXT NOT NULL,
        installed_at REAL NOT NULL,
        PRIMARY KEY (platform, workspace_id)
    ) WITHOUT ROWID;
    CREATE TABLE install_states (
        state TEXT NOT NULL PRIMARY KEY,
        expires_at REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE departures (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        left_at REAL NOT NULL,
        forget_at REAL NOT NULL,
        PRIMARY KEY (platform, workspace_id)
    ) WITHOUT ROWID;
    CREATE INDEX departures_due ON departures (forget_at);
    """,
    # 6: the workspaces each player has been seen in (names and languages are kept per
    # platform: they go when the last of those workspaces forgets the player), filled
    # from the data so far; install states found by expiry, so that they can be purged.
    """
    CREATE TABLE members (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        PRIMARY KEY (platform, workspace_id, player_id)
    ) WITHOUT ROWID;
    CREATE INDEX members_player ON members (platform, player_id);
    INSERT INTO members (platform, workspace_id, player_id)
        SELECT platform, workspace_id, player_id FROM runs
        UNION SELECT platform, workspace_id, player_id FROM cards
        UNION SELECT platform, workspace_id, player_id FROM reminders
        UNION SELECT p.platform, p.workspace_id, a.player_id FROM daily_answers a
            JOIN daily_posts p ON p.post_id = a.post_id
        UNION SELECT r.platform, r.workspace_id, a.player_id FROM race_answers a
            JOIN races r ON r.race_id = a.race_id;
    CREATE INDEX install_states_expiry ON install_states (expires_at);
    """,
    # 7: an estimate question's answer is a value (in its dimension's base unit: bytes,
    # seconds, FLOP …); the choice is then -1.
    """
    ALTER TABLE answers ADD COLUMN estimate REAL;
    ALTER TABLE daily_answers ADD COLUMN estimate REAL;
    """,
    # 8: the members who let the team's knowledge map name them (a row is an opt-in),
    # each workspace's name as its platform last gave it (the dashboard's heading), and
    # the knowledge map recorded once a week (its trend; the split is NULL under the floor,
    # bank '*' marks a week recorded).
    """
    CREATE TABLE sharing (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        player_id TEXT NOT NULL,
        PRIMARY KEY (platform, workspace_id, player_id)
    ) WITHOUT ROWID;
    CREATE TABLE workspace_names (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (platform, workspace_id)
    ) WITHOUT ROWID;
    CREATE TABLE map_weeks (
        platform TEXT NOT NULL,
        workspace_id TEXT NOT NULL,
        bank_id TEXT NOT NULL,
        monday TEXT NOT NULL,
        started INTEGER NOT NULL,
        solid INTEGER,
        shaky INTEGER,
        PRIMARY KEY (platform, workspace_id, monday, bank_id)
    ) WITHOUT ROWID;
    """,
)


def statements(script: str) -> list[str]:
    """A migration's statements, split where SQLite itself says a statement is complete
    (a ';' inside a string literal or a trigger body does not end one)."""
    found, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending.strip())
            pending = ""
    if pending.strip():
        raise StoreError(f"a migration ends in an incomplete statement: {pending.strip()[:60]}")
    return found


def migrate(db: sqlite3.Connection, migrations: Sequence[str] = MIGRATIONS) -> None:
    """Bring the schema to the newest version, one migration per transaction."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version > len(migrations):
        raise StoreError(
            f"the database has schema version {version}, newer than this quizbot"
            f" ({len(migrations)}): upgrade quizbot"
        )
    for number, script in enumerate(migrations[version:], start=version + 1):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in statements(script):
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {number}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        log.info("database migrated to schema version %d", number)


def integrity_problems(path: Path) -> list[str]:
    """What ``PRAGMA integrity_check`` finds in a database file (empty: it is sound)."""
    if not path.exists():
        return [f"{path}: no such file"]
    # With no write-ahead log beside it the database is closed (a running bot keeps one):
    # read it as immutable, which creates no -wal/-shm files and works on a read-only copy.
    closed = not Path(f"{path}-wal").exists()
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable={int(closed)}", uri=True)
        try:
            rows = [row[0] for row in db.execute("PRAGMA integrity_check")]
        finally:
            db.close()
    except sqlite3.Error as exc:
        return [f"{path}: {exc}"]
    return [] if rows == ["ok"] else [f"{path}: {row}" for row in rows]
