"""``quizbot db migrate``: a played SQLite database moved onto PostgreSQL, with identical
leaderboards, and a refusal that writes nothing."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import psycopg

from bot.content.banks import Catalog
from bot.persistence import MIGRATIONS, Store
from bot.services.engine import Engine

from .support.channel import choices_only
from .support.cli import run_quizbot
from .support.databases import query
from .support.quiz import ANA, BO, TEAM, play

# These tests script choices: the catalogue without estimates (tested apart).
catalog = choices_only


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
    assert lines[0].startswith(
        f"copied {sqlite_file} to {postgres_url}: 2 players, 3 runs, 18 answers"
    )
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
    assert query(postgres_url, "SELECT COUNT(*) FROM answers") == [(32,)]  # nothing added


async def test_a_database_moves_back_from_postgresql_to_a_new_sqlite_file(
    tmp_path: Path, postgres_url: str, catalog: Catalog
) -> None:
    on_postgres = Engine(catalog, await Store.open(postgres_url))
    await play(on_postgres, ANA, "tiny", right=True)
    await play(on_postgres, BO, "offloading", right=False)
    before = await boards(on_postgres)
    await on_postgres.store.close()

    back = tmp_path / "back.db"
    moved = run_quizbot("db", "migrate", "--from", postgres_url, "--to", f"sqlite:///{back}")
    assert moved.returncode == 0, moved.stderr
    assert moved.stdout.splitlines()[0].startswith(
        f"copied {postgres_url} to {back}: 2 players, 2 runs, 16 answers"
    )
    assert moved.stderr == ""  # no progress lines when stderr is not a terminal
    assert run_quizbot("db", "check", "--db", str(back)).stdout == f"{back}: ok\n"
    on_sqlite = Engine(catalog, await Store.open(back))
    try:
        assert await boards(on_sqlite) == before
        await play(on_sqlite, BO, "tiny", right=True)  # new board ids follow the copied ones
    finally:
        await on_sqlite.store.close()


async def test_db_check_on_postgresql_reads_every_table_and_verifies_indexes_with_amcheck(
    postgres_url: str,
) -> None:
    empty = run_quizbot("db", "check", "--db", postgres_url)
    assert empty.returncode == 1
    assert empty.stderr == (
        f"quizbot: {postgres_url}: schema version 0, this quizbot's is {len(MIGRATIONS)}"
        " (quizbot migrates it when it starts; a newer one needs a newer quizbot)\n"
    )
    await (await Store.open(postgres_url)).close()
    first = run_quizbot("db", "check", "--db", postgres_url)
    assert first.returncode == 0, first.stderr
    assert first.stdout == (
        f"{postgres_url}: ok (26 tables read (CREATE EXTENSION amcheck to verify indexes))\n"
    )
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute(b"CREATE EXTENSION amcheck")
    verified = run_quizbot("db", "check", "--db", postgres_url)
    assert verified.returncode == 0, verified.stderr
    assert verified.stdout.startswith(f"{postgres_url}: ok (26 tables read, ")
    assert verified.stdout.endswith(" indexes verified by amcheck)\n")


def test_the_source_must_exist_and_differ_from_the_target(tmp_path: Path) -> None:
    absent = run_quizbot(
        "db", "migrate", "--db", str(tmp_path / "none.db"), "--to", "postgresql://u@127.0.0.1:1/q"
    )
    assert absent.returncode == 1
    assert absent.stderr == f"quizbot: {tmp_path / 'none.db'}: no such database file\n"
    same = run_quizbot(
        "db", "migrate", "--db", str(tmp_path / "a.db"), "--to", str(tmp_path / "a.db")
    )
    assert same.returncode == 1
    assert same.stderr == "quizbot: the source and the target are the same database\n"
    assert not (tmp_path / "a.db").exists()


async def test_on_a_terminal_the_copy_shows_its_progress_table_by_table(
    tmp_path: Path, catalog: Catalog
) -> None:
    source = tmp_path / "played.db"
    played = Engine(catalog, await Store.open(source))
    await play(played, ANA, "tiny", right=True)
    await played.store.close()
    leader, follower = pty.openpty()  # stderr on a terminal, as an operator runs it
    command = ["db", "migrate", "--db", str(source), "--to", str(tmp_path / "copy.db")]
    done = subprocess.run(
        [sys.executable, "-m", "adapters.cli", *command],
        stdout=subprocess.PIPE,
        stderr=follower,
        timeout=60,
        check=False,
    )
    os.close(follower)
    shown = os.read(leader, 65536).decode()
    os.close(leader)
    assert done.returncode == 0
    lines = shown.replace("\r\n", "\n").split("\n")
    assert "\r  answers                   2 / 2 rows" in lines
    assert "\r  players                   1 / 1 rows" in lines
    assert "\r  races                     0 / 0 rows" in lines
