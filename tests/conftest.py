"""Shared fixtures. Every test fails on an ERROR log record: both chat libraries only
log the exceptions raised in handlers, so a swallowed crash must not pass."""

from __future__ import annotations

import logging
import shutil
import subprocess
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.content.banks import SHIPPED_BANKS, Catalog, load_catalog
from bot.persistence import Store
from bot.services.engine import Engine
from fakes.ports import free_port

from .support.environment import FIXTURES

pytest_plugins = ("tests.support.postgres",)

POSTGRES_FIXTURES = {"postgres_server", "postgres_url", "migrated_postgres_url"}


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tiers: ``postgres`` for every test on the real server (also through the ``backend``
    parameter), and every ``e2e`` test in one xdist group, so the bot processes, browsers
    and terminals they start never compete with each other for the machine's cores."""
    for item in items:
        params = getattr(item, "callspec", None)
        on_server = params is not None and params.params.get("backend") == "postgresql"
        if on_server or POSTGRES_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.postgres)
        if item.get_closest_marker("e2e"):
            item.add_marker(pytest.mark.xdist_group("e2e"))


@pytest.fixture(autouse=True)
def no_error_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.INFO)
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    if errors:
        pytest.fail("ERROR log records: " + "; ".join(r.getMessage() for r in errors))


@pytest.fixture
def unused_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on."""
    return free_port()


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The shipped banks plus the tiny fixture bank: loaded once, since a catalog is frozen."""
    return load_catalog([SHIPPED_BANKS, FIXTURES / "tiny.yaml"])


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def location(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store-level test's database is: a SQLite file, then a PostgreSQL database
    (with the schema in place: migrating an empty one is tested with ``empty_location``)."""
    if backend == "sqlite":
        return str(tmp_path / "quiz.db")
    return str(request.getfixturevalue("migrated_postgres_url"))


@pytest.fixture
def empty_location(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database nothing has touched yet, on each backend."""
    if backend == "sqlite":
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
