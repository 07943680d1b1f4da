"""The store, on SQLite and on PostgreSQL: migrations, exactly-once answers,
leaderboards, resumable runs and group commit."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.content.banks import Catalog
from bot.domain.identities import PlayerRef, ScopeRef
from bot.persistence import MIGRATIONS, Store, StoreError
from bot.persistence.dialect import Connection
from bot.persistence.schema import migrate
from bot.services.engine import Engine
from bot.services.requests import button
from bot.ui.views import Feedback, Leaderboard, Notice, QuestionView

from .support.databases import is_postgres, query, schema_version, set_schema_version, tables
from .support.quiz import ANA, TEAM, play, right_choice, wrong_choice


@pytest.fixture
def store(store_on_each_backend: Store) -> Store:
    return store_on_each_backend


async def test_migrates_an_empty_database(empty_location: str) -> None:
    location = empty_location
    store = await Store.open(location)
    await store.close()
    assert schema_version(location) == len(MIGRATIONS)
    if not is_postgres(location):
        assert query(location, "PRAGMA journal_mode") == [("wal",)]
    assert {"players", "runs", "answers", "attempts", "totals", "settings"} <= tables(location)
    again = await Store.open(location)  # reopening runs no migration twice
    await again.close()
    assert schema_version(location) == len(MIGRATIONS)


async def test_refuses_a_newer_schema(empty_location: str) -> None:
    location = empty_location
    set_schema_version(location, len(MIGRATIONS) + 1)
    with pytest.raises(StoreError, match="newer than this quizbot"):
        await Store.open(location)


async def test_same_answer_twice_at_once_counts_once(engine: Engine, store: Store) -> None:
    view = await engine.start_quiz(ANA, TEAM, "tiny", "en")
    assert isinstance(view, QuestionView)
    right = right_choice(engine, view)
    wrong = wrong_choice(engine, view)
    results = await asyncio.gather(
        *(engine.click(ANA, button(a)) for a in [right] * 10 + [wrong] * 10)
    )
    feedback = [r for r in results if isinstance(r, Feedback)]
    notices = [r for r in results if isinstance(r, Notice)]
    assert len(feedback) == 1 and feedback[0].correct
    assert {n.kind for n in notices} == {"already_answered"}
    board = await engine.leaderboard(ANA, TEAM, "en")
    assert isinstance(board, Leaderboard)
    assert [(r.points, r.correct, r.answered) for r in board.rows] == [(10, 1, 1)]
    assert query(store.path, "SELECT COUNT(*) FROM answers") == [(1,)]


async def test_leaderboard_ranks_many_players(engine: Engine) -> None:
    players = [PlayerRef("slack", f"p{i:02d}", f"Player {i}") for i in range(15)]
    for i, player in enumerate(players):
        await play(engine, player, "tiny", right=i % 3 != 0)
    board = await engine.leaderboard(players[14], TEAM, "en")
    assert isinstance(board, Leaderboard)
    assert len(board.rows) == 10
    assert [r.rank for r in board.rows] == list(range(1, 11))
    points = [r.points for r in board.rows]
    assert points == sorted(points, reverse=True)
    # Players 1, 2, 4, 5, 7, ... scored 30 in that order; ties go to whoever got there first.
    scorers = [p.id for i, p in enumerate(players) if i % 3 != 0]
    assert [r.player_id for r in board.rows] == scorers
    assert board.you is not None and board.you.rank == 10 and board.you.name == "Player 14"
    zero = await engine.leaderboard(players[0], TEAM, "en")
    assert isinstance(zero, Leaderboard) and zero.you is None


async def test_a_run_resumes_after_reopening(location: str, catalog: Catalog) -> None:
    store = await Store.open(location)
    engine = Engine(catalog, store)
    view = await engine.start_quiz(ANA, TEAM, "offloading", "hi")
    assert isinstance(view, QuestionView)
    feedback = await engine.click(ANA, button(right_choice(engine, view)))
    assert isinstance(feedback, Feedback)
    await store.close()

    reopened = await Store.open(location)
    engine = Engine(catalog, reopened)
    nxt = await engine.click(ANA, button(feedback.next_action))
    assert isinstance(nxt, QuestionView)
    assert (nxt.number, nxt.locale, nxt.run_id) == (2, "hi", view.run_id)
    resumed = await engine.start_quiz(ANA, TEAM, "offloading", "en", resume=True)
    assert isinstance(resumed, QuestionView) and resumed.run_id == view.run_id
    # The same question and order, in the language asked for now.
    assert (resumed.number, resumed.locale, resumed.resumed) == (2, "en", True)
    assert [c.action_id for c in resumed.choices] == [c.action_id for c in nxt.choices]
    assert [c.text for c in resumed.choices] != [c.text for c in nxt.choices]
    await reopened.close()


async def test_group_commit_batches_and_keeps_order(store: Store) -> None:
    seen: list[int] = []

    async def write(i: int) -> int:
        def work(db: Connection) -> int:
            db.execute("INSERT INTO settings VALUES (?, ?)", (f"k{i}", str(i)))
            seen.append(i)
            return i

        return await store.database.write(work)

    before = store.database.transactions
    results = await asyncio.gather(*(write(i) for i in range(100)))
    assert results == list(range(100))
    assert seen == list(range(100))  # committed in arrival order
    assert store.database.transactions - before < 10  # together, not one transaction each
    assert await store.database.setting("k99") == "99"


async def test_a_failed_write_fails_only_its_caller(store: Store) -> None:
    async def good(key: str) -> None:
        await store.database.set_setting(key, "ok")

    async def bad() -> None:
        def work(db: Connection) -> None:
            db.execute("INSERT INTO no_such_table VALUES (1)")

        await store.database.write(work)

    results = await asyncio.gather(good("a"), bad(), good("b"), return_exceptions=True)
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], StoreError) and "no_such_table" in str(results[1])
    assert await store.database.setting("a") == "ok" and await store.database.setting("b") == "ok"


async def test_answers_survive_a_reopen(location: str, catalog: Catalog) -> None:
    store = await Store.open(location)
    await play(Engine(catalog, store), ANA, "tiny", right=True)
    await store.close()
    if not is_postgres(location):
        assert query(location, "PRAGMA integrity_check") == [("ok",)]
    assert query(location, "SELECT COUNT(*), SUM(points) FROM answers") == [(2, 30)]
    reopened = await Store.open(location)
    board = await Engine(catalog, reopened).leaderboard(ANA, ScopeRef("slack", "T1"), "en")
    assert isinstance(board, Leaderboard) and board.you and board.you.points == 30
    await reopened.close()


def test_migrations_split_where_sqlite_does(tmp_path: Path) -> None:
    # A ';' in a string literal and in a trigger body ends no statement.
    script = """
    CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL DEFAULT 'a;b');
    CREATE TABLE log (text TEXT);
    CREATE TRIGGER noted AFTER INSERT ON notes BEGIN
        INSERT INTO log VALUES ('noted; ' || NEW.text);
    END;
    INSERT INTO notes (text) VALUES ('x;y');
    INSERT INTO notes DEFAULT VALUES;
    """
    db = sqlite3.connect(tmp_path / "m.db", isolation_level=None)
    migrate(db, (script,))
    assert db.execute("PRAGMA user_version").fetchone() == (1,)
    assert db.execute("SELECT text FROM notes ORDER BY id").fetchall() == [("x;y",), ("a;b",)]
    assert db.execute("SELECT text FROM log").fetchall() == [("noted; x;y",), ("noted; a;b",)]
    db.close()


async def test_concurrent_answers_share_a_transaction(engine: Engine, store: Store) -> None:
    players = [PlayerRef("slack", f"g{i:02d}", f"Player {i}") for i in range(20)]
    views = [await engine.start_quiz(p, TEAM, "tiny", "en") for p in players]
    clicks = [right_choice(engine, v) for v in views if isinstance(v, QuestionView)]
    before = store.database.transactions
    answers = (engine.click(p, button(c)) for p, c in zip(players, clicks, strict=True))
    results = await asyncio.gather(*answers)
    assert all(isinstance(r, Feedback) and r.correct for r in results)
    assert store.database.transactions - before < 5  # group commit: not one each


async def test_names_of_a_list_of_players(engine: Engine, store: Store) -> None:
    """Read by a list of keys (on PostgreSQL one look-up per key): a player listed twice
    is named once, one never seen and one without a name are left out."""
    for player in (
        PlayerRef("slack", "n1", "Ana"),
        PlayerRef("slack", "n2", "Bo"),
        PlayerRef("slack", "n3", ""),
        PlayerRef("discord", "n4", "Cy"),
    ):
        await engine.start_quiz(player, TEAM, "tiny", "en")
    names = await store.insights.names("slack", ["n2", "n1", "n2", "n3", "n4", "n9"])
    assert names == {"n1": "Ana", "n2": "Bo"}


async def test_a_sqlite_url_opens_that_file(tmp_path: Path) -> None:
    store = await Store.open(f"sqlite:///{tmp_path}/by-url.db")
    await store.close()
    assert schema_version(str(tmp_path / "by-url.db")) == len(MIGRATIONS)


async def test_an_unreachable_server_fails_to_open_without_showing_the_password(
    unused_port: int,
) -> None:
    with pytest.raises(StoreError, match="cannot open the database") as failure:
        await Store.open(f"postgresql://quizbot:s3cret@127.0.0.1:{unused_port}/quizbot")
    assert "s3cret" not in str(failure.value) and "quizbot@127.0.0.1" in str(failure.value)


async def test_both_backends_have_the_same_tables_and_columns(
    tmp_path: Path, postgres_url: str
) -> None:
    for location in (str(tmp_path / "schema.db"), postgres_url):
        await (await Store.open(location)).close()
    lite = {
        (table, column)
        for table in tables(str(tmp_path / "schema.db"))
        for _, column, *_ in query(str(tmp_path / "schema.db"), f"PRAGMA table_info({table})")
    }
    server = set(
        query(
            postgres_url,
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = 'public' AND table_name != 'schema_version'",
        )
    )
    assert lite == server


async def test_postgres_backups_are_left_to_its_own_tools(
    postgres_url: str, tmp_path: Path
) -> None:
    store = await Store.open(postgres_url)
    with pytest.raises(StoreError, match="pg_dump"):
        await store.database.backup(tmp_path / "copy.db")
    await store.close()
