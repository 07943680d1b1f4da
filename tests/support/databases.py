"""Looking into a store's database from outside, on either backend: a connection of the
test's own, as an operator's tool would open."""

from __future__ import annotations

import sqlite3
from typing import Any

import psycopg


def is_postgres(location: str) -> bool:
    return location.startswith("postgresql://")


def query(location: str, sql: str) -> list[tuple[Any, ...]]:
    """The rows of one read (no parameters: the same text runs on both)."""
    if is_postgres(location):
        with psycopg.connect(location) as connection:
            return connection.execute(sql.encode()).fetchall()
    with sqlite3.connect(location) as connection:
        return connection.execute(sql).fetchall()


def schema_version(location: str) -> int:
    if is_postgres(location):
        return int(query(location, "SELECT version FROM schema_version")[0][0])
    return int(query(location, "PRAGMA user_version")[0][0])


def tables(location: str) -> set[str]:
    if is_postgres(location):
        sql = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    return {row[0] for row in query(location, sql)}


def set_schema_version(location: str, version: int) -> None:
    """Make the database claim a schema version (as a newer quizbot would leave it)."""
    if is_postgres(location):
        with psycopg.connect(location) as connection:
            connection.execute("CREATE TABLE schema_version (version BIGINT NOT NULL)")
            connection.execute("INSERT INTO schema_version VALUES (%s)", (version,))
        return
    with sqlite3.connect(location) as connection:
        connection.execute(f"PRAGMA user_version = {version}")
