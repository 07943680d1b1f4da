"""The test run's throwaway PostgreSQL server (fakes/postgres.py), and a fresh database
per test: empty (``postgres_url``), or cloned from one migrated at the start of the run
(``migrated_postgres_url``), which is cheaper than migrating each."""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from bot.persistence import Store
from fakes.postgres import Server, server_binaries, start, stop


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Server]:
    """The run's server. Without PostgreSQL installed the tests that need it skip, unless
    ``CI`` is set: CI installs it (``.ci/run``), so there a missing server is a failure."""
    binaries = server_binaries()
    if binaries is None:
        if os.environ.get("CI"):
            pytest.fail("CI is set but PostgreSQL's server (initdb, pg_ctl) is not installed")
        pytest.skip("PostgreSQL's server (initdb, pg_ctl) is not installed")
    server = start(binaries)
    try:
        yield server
    finally:
        stop(binaries, server)


_databases = itertools.count(1)
MIGRATED = "quizbot_migrated"  # the template: the store's schema, no rows


@contextmanager
def _database(server: Server, template: str) -> Iterator[str]:
    """A new database copied from ``template``, dropped after use."""
    name = f"quizbot_{next(_databases)}"
    server.admin(f"CREATE DATABASE {name} TEMPLATE {template}")
    try:
        yield server.url(name)
    finally:
        server.admin(f"DROP DATABASE {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def migrated_template(postgres_server: Server) -> str:
    """The run's migrated template database, made the first time a test asks for it."""
    postgres_server.admin(f"CREATE DATABASE {MIGRATED} TEMPLATE template0")

    async def migrate() -> None:
        await (await Store.open(postgres_server.url(MIGRATED))).close()

    asyncio.run(migrate())
    return MIGRATED


@pytest.fixture
def postgres_url(postgres_server: Server) -> Iterator[str]:
    """A fresh, empty database for one test (what a new operator points quizbot at)."""
    with _database(postgres_server, "template0") as url:
        yield url


@pytest.fixture
def migrated_postgres_url(postgres_server: Server, migrated_template: str) -> Iterator[str]:
    """A fresh database with the store's schema already in place."""
    with _database(postgres_server, migrated_template) as url:
        yield url
