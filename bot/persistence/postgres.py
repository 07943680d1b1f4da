"""The PostgreSQL backend: the writer's connection and its migrations, and the reader.
Imported only when a store opens a ``postgresql://`` URL."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg_pool import AsyncConnectionPool

from bot.persistence.dialect import PostgresConnection, postgres_ddl, postgres_statement
from bot.persistence.rows import StoreError
from bot.persistence.schema import MIGRATIONS
from bot.persistence.writer import WriterThread

log = logging.getLogger(__name__)

# Held while migrating, so that processes starting together migrate one at a time.
# Reading connections per process: enough for a burst's reads to overlap on 2-4 cores
# without crowding the server's max_connections when many processes run.
READERS = 4
# Seconds: a server that does not answer fails the request (players get "try again")
# instead of holding the writer or a read for TCP's minutes.
CONNECT_TIMEOUT = 5
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
            connection.execute("SET LOCAL lock_timeout = 0")  # wait for another's migration
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


def open_writer(writer: WriterThread, url: str, lock_timeout_ms: int) -> None:
    def connect(writer: WriterThread) -> None:
        # Autocommit: the writer says BEGIN and COMMIT itself, as it does on SQLite.
        connection = psycopg.connect(
            url,
            autocommit=True,
            connect_timeout=CONNECT_TIMEOUT,
            options=f"-c lock_timeout={int(lock_timeout_ms)}",
        )
        writer.connection = PostgresConnection(connection)
        writer.pipeline = connection.pipeline

    connect(writer)
    writer.begin = "BEGIN"
    writer.reconnect = connect
    assert isinstance(writer.connection, PostgresConnection)
    migrate(writer.connection.connection)


class Reader:
    """Reads on connections of their own, outside the writer's transactions: a small pool,
    so that concurrent clicks' reads (on PostgreSQL every click reads its run) overlap
    instead of queueing on one connection."""

    def __init__(self, pool: AsyncConnectionPool[Any], size: int):
        self._pool, self._size = pool, size

    @classmethod
    async def open(cls, url: str, size: int = READERS) -> Reader:
        pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
            url,
            min_size=size,
            max_size=size,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
            timeout=CONNECT_TIMEOUT,  # a read waits this long for a connection, then fails
            open=False,
        )
        await pool.open(wait=True, timeout=10)
        return cls(pool, size)

    async def read(self, sql: str, params: Sequence[Any]) -> list[Any]:
        """A read is safe to repeat: after a server restart each pooled connection fails
        once (and the pool replaces it), so a read tries past every one of them."""
        for attempt in range(self._size + 1):
            try:
                async with self._pool.connection() as connection:
                    statement = postgres_statement(sql, params)
                    cursor = await connection.execute(
                        statement.query, statement.params, prepare=statement.prepare
                    )
                    return await cursor.fetchall()
            except psycopg.OperationalError:
                if attempt == self._size:
                    raise
        raise AssertionError("unreachable")

    async def close(self) -> None:
        await self._pool.close()


def problems(url: str, tables: Sequence[str]) -> tuple[list[str], str]:
    """``quizbot db check`` on PostgreSQL: the schema's version, every table readable and,
    where the ``amcheck`` extension is installed, every B-tree index verified. Returns
    (problems, what was checked)."""
    name = safe(url)
    try:
        with psycopg.connect(url, autocommit=True) as connection:
            exists = connection.execute("SELECT to_regclass('schema_version')").fetchone()
            found = connection.execute(
                "SELECT version FROM schema_version" if exists and exists[0] else "SELECT 0"
            ).fetchone()
            version = found[0] if found else 0
            if version != len(MIGRATIONS):
                return [
                    f"{name}: schema version {version}, this quizbot's is {len(MIGRATIONS)}"
                    " (quizbot migrates it when it starts; a newer one needs a newer quizbot)"
                ], ""
            for table in tables:
                connection.execute(f"SELECT COUNT(*) FROM {table}".encode()).fetchone()
            if not connection.execute(
                "SELECT 1 FROM pg_extension WHERE extname = 'amcheck'"
            ).fetchone():
                return [], f"{len(tables)} tables read (CREATE EXTENSION amcheck to verify indexes)"
            indexes = connection.execute(_BTREES).fetchall()
            for (index,) in indexes:
                connection.execute("SELECT bt_index_check(%s::regclass)", (index,))
    except psycopg.Error as exc:
        return [f"{name}: {exc}"], ""
    return [], f"{len(tables)} tables read, {len(indexes)} indexes verified by amcheck"


_BTREES = b"""
SELECT quote_ident(c.relname) FROM pg_index i
JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE a.amname = 'btree' AND n.nspname = current_schema() ORDER BY 1
"""
