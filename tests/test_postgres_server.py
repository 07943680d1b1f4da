"""The throwaway PostgreSQL server the store's tests run against."""

from __future__ import annotations

import psycopg


def test_each_test_gets_an_empty_database_on_loopback(postgres_url: str) -> None:
    assert postgres_url.startswith("postgresql://postgres@127.0.0.1:")
    with psycopg.connect(postgres_url) as connection:
        tables = connection.execute(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchone()
        address = connection.execute("SELECT inet_server_addr()::text").fetchone()
    assert tables == (0,)
    assert address == ("127.0.0.1/32",)
