"""Storage faults: a locked or read-only database gives players a polite "try again",
writes nothing partial, and the next click after the fault works."""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.content.banks import Catalog
from bot.persistence import Store
from bot.play.engine import Engine
from bot.ui.views import Feedback, Notice, QuestionView

from .support.environment import make_immutable
from .support.quiz import ANA, TEAM, right_choice


@pytest.fixture
async def impatient(tmp_path: Path, catalog: Catalog) -> AsyncIterator[Engine]:
    """An engine whose store gives up on a locked database after 0.1 s."""
    store = await Store.open(tmp_path / "faults.db", busy_timeout_ms=100)
    yield Engine(catalog, store)
    await store.close()


def written(path: str) -> tuple[int, int, int]:
    with sqlite3.connect(path) as db:
        return (
            db.execute("SELECT COUNT(*) FROM answers").fetchone()[0],
            db.execute("SELECT COUNT(*) FROM totals").fetchone()[0],
            db.execute("SELECT MAX(position) FROM runs").fetchone()[0],
        )


async def test_a_locked_database_asks_to_try_again(impatient: Engine) -> None:
    view = await impatient.start_quiz(ANA, TEAM, "tiny", "en")
    assert isinstance(view, QuestionView)
    click = right_choice(impatient, view)
    blocker = sqlite3.connect(impatient.store.path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        refused = await impatient.click(ANA, click)
        assert isinstance(refused, Notice) and refused.kind == "try_again"
        assert (
            refused.text == "Sorry, something went wrong on our side. Please try again in a moment."
        )
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert written(impatient.store.path) == (0, 0, 0)  # nothing partial
    again = await impatient.click(ANA, click)
    assert isinstance(again, Feedback) and again.correct and again.points == 10
    assert written(impatient.store.path)[0] == 1


async def test_a_read_only_database_asks_to_try_again(
    impatient: Engine, immutable: list[Path]
) -> None:
    view = await impatient.start_quiz(ANA, TEAM, "tiny", "hi")
    assert isinstance(view, QuestionView)
    db = Path(impatient.store.path)
    make_immutable(immutable, db, db.with_name(db.name + "-wal"))
    refused = await impatient.click(ANA, right_choice(impatient, view))
    assert isinstance(refused, Notice) and refused.kind == "try_again"
    assert refused.locale == "hi"  # in the player's language
    for path in immutable:
        subprocess.run(["chattr", "-i", str(path)], check=True)
    assert written(str(db)) == (0, 0, 0)
    again = await impatient.click(ANA, right_choice(impatient, view))
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
    with filler.open("wb") as out:
        try:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
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
        refused = await engine.click(ANA, right_choice(engine, view))
        assert isinstance(refused, Notice) and refused.kind == "try_again"
        filler.unlink()
        assert written(store.path) == (0, 0, 0)  # nothing partial
        again = await engine.click(ANA, right_choice(engine, view))
        assert isinstance(again, Feedback) and again.points == 10
    finally:
        await store.close()
