"""``quizbot db migrate``: a played SQLite database moved onto PostgreSQL, with identical
leaderboards, and a refusal that writes nothing."""

from __future__ import annotations

from pathlib import Path

from bot.content.banks import Catalog
from bot.persistence import Store
from bot.play.engine import Engine

from .support.databases import query
from .support.environment import run_quizbot
from .support.quiz import ANA, BO, TEAM, play


async def boards(engine: Engine) -> list[object]:
    return [
        await engine.leaderboard(player, TEAM, "en", period, topic)
        for player in (ANA, BO)
        for period in ("all", "week")
        for topic in (None, "tiny")
    ]


async def test_a_played_database_moves_with_identical_leaderboards(
    tmp_path: Path, postgres_url: str, catalog: Catalog
) -> None:
    sqlite_file = tmp_path / "played.db"
    played = Engine(catalog, await Store.open(sqlite_file))
    await play(played, ANA, "tiny", right=True)
    await play(played, BO, "tiny", right=False)
    await play(played, BO, "offloading", right=True)
    before = await boards(played)
    await played.store.close()

    moved = run_quizbot("db", "migrate", "--db", str(sqlite_file), "--to", postgres_url)
    assert moved.returncode == 0, moved.stderr
    lines = moved.stdout.splitlines()
    assert lines[0].startswith(f"copied {sqlite_file} to PostgreSQL: 2 players, 3 runs, 12 answers")
    assert lines[1].startswith("leaderboards identical: ")

    on_postgres = Engine(catalog, await Store.open(postgres_url))
    try:
        assert await boards(on_postgres) == before
        await play(on_postgres, ANA, "offloading", right=True)  # new ids follow the copied ones
    finally:
        await on_postgres.store.close()

    again = run_quizbot("db", "migrate", "--db", str(sqlite_file), "--to", postgres_url)
    assert again.returncode == 1
    assert "already has data (players, runs, answers" in again.stderr
    assert "quizbot db migrate copies into an empty database only" in again.stderr
    assert query(postgres_url, "SELECT COUNT(*) FROM answers") == [(20,)]  # nothing added


def test_the_source_must_be_a_sqlite_file_and_the_target_a_url(tmp_path: Path) -> None:
    missing = run_quizbot("db", "migrate", "--db", str(tmp_path / "none.db"), "--to", "x")
    assert missing.returncode == 2
    assert missing.stderr == "quizbot: --to takes a postgresql://user@host:port/db URL\n"
    absent = run_quizbot(
        "db", "migrate", "--db", str(tmp_path / "none.db"), "--to", "postgresql://u@127.0.0.1:1/q"
    )
    assert absent.returncode == 1
    assert absent.stderr == f"quizbot: {tmp_path / 'none.db'}: no such database file\n"
