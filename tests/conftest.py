"""Shared fixtures. Every test fails on an ERROR log record: both chat libraries only
log the exceptions raised in handlers, so a swallowed crash must not pass."""

from __future__ import annotations

import logging
import shutil
import socket
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.content.banks import SHIPPED_BANKS, Catalog, load_catalog
from bot.persistence import Store
from bot.services.engine import Engine

from .support.environment import FIXTURES

pytest_plugins = ("tests.support.postgres",)


@pytest.fixture(autouse=True)
def no_error_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.INFO)
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    if errors:
        pytest.fail("ERROR log records: " + "; ".join(r.getMessage() for r in errors))


@pytest.fixture
def unused_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (bound, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def catalog() -> Catalog:
    """The shipped banks plus the tiny fixture bank."""
    return load_catalog([SHIPPED_BANKS, FIXTURES / "tiny.yaml"])


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store-level test's database is: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "quiz.db")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def store_on_each_backend(location: str) -> AsyncIterator[Store]:
    """The store at ``location``: a module whose ``store`` is this one runs on both."""
    opened = await Store.open(location)
    yield opened
    await opened.close()


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(tmp_path / "quiz.db")
    yield opened
    await opened.close()


@pytest.fixture
async def engine(catalog: Catalog, store: Store) -> Engine:
    return Engine(catalog, store)


@pytest.fixture
def immutable() -> Iterator[list[Path]]:
    """Files made read-only even for root (chattr +i), made writable again after."""
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed")
    paths: list[Path] = []
    yield paths
    for path in paths:
        subprocess.run(["chattr", "-i", str(path)], check=False)
