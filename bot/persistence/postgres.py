"""The PostgreSQL backend: the writer's connection and its migrations, and the reader.
Imported only when a store opens a ``postgresql://`` URL."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg_pool import AsyncConnectionPool

from bot.persistence.dialect import PostgresConnection, postgres_ddl, postgres_sql
from bot.persistence.rows import StoreError
from bot.persistence.schema import MIGRATIONS
from bot.persistence.writer import WriterThread

log = logging.getLogger(__name__)

# Held while migrating, so that processes starting together migrate one at a time.
# Reading connections per process: enough for a burst's reads to overlap on 2-4 cores
# without crowding the server's max_connections when many processes run.
READERS = 4
MIGRATION_LOCK = 0x717569_7A626F74  # "quizbot"
# SQLite's function, which the repositories' SQL uses on a JSON text column.
_BOOTSTRAP = """
CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL);
CREATE OR REPLACE FUNCTION json_array_length(text) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS 'SELECT json_array_length($1::json)';
"""


def safe(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}@{host}"))


def migrate(connection: psycopg.Connection[Any], migrations: Sequence[str] = MIGRATIONS) -> None:
    """Bring the schema to the newest version: SQLite's migrations translated, one per
    transaction, the version kept in ``schema_version``."""
    while True:
        with connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            connection.execute(_BOOTSTRAP.encode())
            found = connection.execute("SELECT version FROM schema_version").fetchone()
            version = found[0] if found else 0
            if version > len(migrations):
                raise StoreError(
                    f"the database has schema version {version}, newer than this quizbot"
                    f" ({len(migrations)}): upgrade quizbot"
                )
            if version == len(migrations):
                return
            connection.execute(postgres_ddl(migrations[version]).encode())
            connection.execute("DELETE FROM schema_version")
            connection.execute("INSERT INTO schema_version VALUES (%s)", (version + 1,))
        log.info("database migrated to schema version %d", version + 1)


def open_writer(writer: WriterThread, url: str) -> None:
    # Autocommit: the writer says BEGIN and COMMIT itself, as it does on SQLite.
    connection = psycopg.connect(url, autocommit=True)
    writer.connection = PostgresConnection(connection)
    writer.begin = "BEGIN"
    migrate(connection)


class Reader:
    """Reads on connections of their own, outside the writer's transactions: a small pool,
    so that concurrent clicks' reads (on PostgreSQL every click reads its run) overlap
    instead of queueing on one connection."""

    def __init__(self, pool: AsyncConnectionPool[Any]):
        self._pool = pool

    @classmethod
    async def open(cls, url: str, size: int = READERS) -> Reader:
        pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
            url, min_size=size, max_size=size, kwargs={"autocommit": True}, open=False
        )
        await pool.open(wait=True, timeout=10)
        return cls(pool)

    async def read(self, sql: str, params: Sequence[Any]) -> list[Any]:
        async with self._pool.connection() as connection:
            cursor = await connection.execute(postgres_sql(sql), params)
            return await cursor.fetchall()

    async def close(self) -> None:
        await self._pool.close()
