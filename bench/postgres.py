"""A PostgreSQL database for a benchmark: the one given with ``--url``, else a throwaway
server with durable settings (fsync on), started as the tests start theirs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import psycopg

from fakes.postgres import SETTINGS, server_binaries, start, stop


@dataclass(frozen=True)
class Database:
    url: str
    note: str  # which server, for the results


@contextmanager
def benchmark_database(url: str | None = None) -> Iterator[Database]:
    if url:
        yield Database(url, "the server given")
        return
    binaries = server_binaries()
    if binaries is None:
        raise SystemExit("PostgreSQL's server is not installed (apt-get install postgresql)")
    server = start(binaries, SETTINGS)
    try:
        server.admin("CREATE DATABASE quizbot TEMPLATE template0")
        url = server.url("quizbot")
        with psycopg.connect(url) as probe:
            version = probe.info.server_version
        yield Database(
            url,
            f"a throwaway PostgreSQL {version // 10000}.{version % 10000} on 127.0.0.1, fsync on",
        )
    finally:
        stop(binaries, server)
