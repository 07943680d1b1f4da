"""Storage faults: a locked or read-only database gives players a polite "try again",
writes nothing partial, and the next click after the fault works."""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.banks import Catalog
from bot.engine import Engine
from bot.store import Store
from bot.views import Feedback, Notice, QuestionView

from .conftest import make_immutable
from .test_engine import ANA, TEAM, right_choice


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
