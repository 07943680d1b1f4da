"""Storage faults: a locked or read-only database gives players a polite "try again",
writes nothing partial, and the next click after the fault works."""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import psycopg
import pytest

from bot.content.banks import Catalog
from bot.persistence import Store
from bot.services.engine import Engine
from bot.services.requests import button
from bot.ui.views import Feedback, Notice, QuestionView

from .support.databases import is_postgres, query
from .support.environment import make_immutable
from .support.quiz import ANA, TEAM, right_choice


@pytest.fixture
async def impatient(location: str, catalog: Catalog) -> AsyncIterator[Engine]:
    """An engine whose store gives up on a locked database after 0.1 s (on each backend)."""
    store = await Store.open(location, busy_timeout_ms=100)
    yield Engine(catalog, store)
    await store.close()


def written(location: str | Path) -> tuple[int, int, int]:
    (answers,), (totals,), (position,) = (
        query(str(location), sql)[0]
        for sql in (
            "SELECT COUNT(*) FROM answers",
            "SELECT COUNT(*) FROM totals",
            "SELECT MAX(position) FROM runs",
        )
    )
    return answers, totals, position


@contextlib.contextmanager
def writes_locked(location: str) -> Iterator[None]:
    """Another process holds the lock writers need (readers go on)."""
    if is_postgres(location):
        with psycopg.connect(location) as blocker:
            blocker.execute(b"LOCK TABLE answers, runs IN EXCLUSIVE MODE")
            yield
        return
    blocker = sqlite3.connect(location, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


async def test_a_locked_database_asks_to_try_again(impatient: Engine) -> None:
    view = await impatient.start_quiz(ANA, TEAM, "tiny", "en")
    assert isinstance(view, QuestionView)
    click = right_choice(impatient, view)
    with writes_locked(str(impatient.store.path)):
        refused = await impatient.click(ANA, button(click))
        assert isinstance(refused, Notice) and refused.kind == "try_again"
        assert (
            refused.text == "Sorry, something went wrong on our side. Please try again in a moment."
        )
    assert written(impatient.store.path) == (0, 0, 0)  # nothing partial
    again = await impatient.click(ANA, button(click))
    assert isinstance(again, Feedback) and again.correct and again.points == 10
    assert written(impatient.store.path)[0] == 1


async def test_connections_the_server_dropped_are_replaced_and_the_click_is_answered(
    postgres_url: str, catalog: Catalog
) -> None:
    """A PostgreSQL restart or fail-over, as the bot sees it: every connection it held is
    closed by the server. The next click is answered, and counted once."""
    store = await Store.open(postgres_url)
    engine = Engine(catalog, store)
    try:
        view = await engine.start_quiz(ANA, TEAM, "tiny", "en")
        assert isinstance(view, QuestionView)
        click = right_choice(engine, view)
        dropped = query(
            postgres_url,
            "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        assert dropped == [(5,)]  # the writer and the four readers
        answered = await engine.click(ANA, button(click))
        assert isinstance(answered, Feedback) and answered.correct and answered.points == 10
        twice = await engine.click(ANA, button(click))
        assert isinstance(twice, Notice) and twice.kind == "already_answered"
    finally:
        await store.close()
    assert written(postgres_url) == (1, 6, 1)


async def test_a_read_only_database_asks_to_try_again(
    impatient: Engine, immutable: list[Path]
) -> None:
    view = await impatient.start_quiz(ANA, TEAM, "tiny", "hi")
    assert isinstance(view, QuestionView)
    db = Path(impatient.store.path)
    make_immutable(immutable, db, db.with_name(db.name + "-wal"))
    refused = await impatient.click(ANA, button(right_choice(impatient, view)))
    assert isinstance(refused, Notice) and refused.kind == "try_again"
    assert refused.locale == "hi"  # in the player's language
    for path in immutable:
        subprocess.run(["chattr", "-i", str(path)], check=True)
    assert written(str(db)) == (0, 0, 0)
    again = await impatient.click(ANA, button(right_choice(impatient, view)))
    assert isinstance(again, Feedback)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB filesystem of its own (tmpfs), to fill up; skipped where mounting is not
    allowed."""
    mountpoint = tmp_path / "disk"
    mountpoint.mkdir()
    mount = ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mountpoint)]
    if subprocess.run(mount, capture_output=True, check=False).returncode != 0:
        pytest.skip("cannot mount a small filesystem here")
    yield mountpoint
    subprocess.run(["umount", "-l", str(mountpoint)], check=False)


def fill(directory: Path) -> Path:
    """Write zeros until the filesystem is full."""
    filler = directory / "filler"
    # Unbuffered: a write the full disk cut short leaves nothing for close() to flush.
    with filler.open("wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 65536)
        except OSError:
            pass
    return filler


async def test_a_full_disk_asks_to_try_again(small_disk: Path, catalog: Catalog) -> None:
    store = await Store.open(small_disk / "full.db", busy_timeout_ms=100)
    try:
        engine = Engine(catalog, store)
        view = await engine.start_quiz(ANA, TEAM, "tiny", "en")
        assert isinstance(view, QuestionView)
        filler = fill(small_disk)
        refused = await engine.click(ANA, button(right_choice(engine, view)))
        assert isinstance(refused, Notice) and refused.kind == "try_again"
        filler.unlink()
        assert written(store.path) == (0, 0, 0)  # nothing partial
        again = await engine.click(ANA, button(right_choice(engine, view)))
        assert isinstance(again, Feedback) and again.points == 10
    finally:
        await store.close()
