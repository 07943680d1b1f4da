"""What differs between SQLite and PostgreSQL, in one place. The repositories write one
portable SQL with ``?`` placeholders (``INSERT … ON CONFLICT``, ``RETURNING``, ``CAST``);
on PostgreSQL a connection wrapper turns the placeholders into psycopg's, and the schema's
DDL is translated from SQLite's, so both backends run the same migrations by version."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:  # imported where a PostgreSQL store opens: SQLite's start-up stays lean
    import psycopg


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """What a write's ``work(db)`` may use: ``sqlite3.Connection`` has it, and so does
    ``PostgresConnection`` below."""

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Cursor: ...

    def close(self) -> None: ...


T = TypeVar("T")
# Values per ``IN (?,?,…)``: within SQLite's limit on a statement's parameters.
CHUNK = 300


def chunks(items: Sequence[T], size: int = CHUNK) -> list[Sequence[T]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def by_workspace(players: Iterable[tuple[str, str, str]]) -> Iterator[tuple[str, str, list[str]]]:
    """(platform, workspace, player ids) for a set of (platform, workspace, player): the
    players of each workspace sorted (the primary keys' order) and chunked."""
    grouped: dict[tuple[str, str], set[str]] = {}
    for platform, workspace, player in players:
        grouped.setdefault((platform, workspace), set()).add(player)
    for (platform, workspace), ids in grouped.items():
        for chunk in chunks(sorted(ids)):
            yield platform, workspace, list(chunk)


# A list of values, ``IN (?,?,…)``, goes to PostgreSQL as one array, ``= ANY(%b)``: one
# statement text for any length (psycopg parses a statement with over 50 parameters anew
# each time, and dumps each value apart), sent in binary. It is planned for its values
# each time, never prepared: psycopg prepares a statement after a few runs, and
# PostgreSQL may then plan it once for any values, a plan that cannot hash the list and
# compares every row of a workspace with every value (measured: 100-260 ms instead of
# 5-10 ms for 300 players among 15,000 rows; bench/RESULTS.md).
_VALUE_LIST = re.compile(r"\bIN \(\?(?:\s*,\s*\?)*\)")
# A plain read of one table by a list of keys (``SELECT a, b FROM t WHERE x = ? AND k IN
# (?,…)``, the list one of the conditions ANDed) is one index look-up per key instead:
# ``… FROM unnest(%b) AS listed(value), LATERAL (SELECT … WHERE … AND k = listed.value
# OFFSET 0)``. ``k = ANY(…)`` on a key's later column (a workspace's players) is an index
# condition only when PostgreSQL knows how many rows the earlier columns match; on a
# table never analyzed (every new database until autovacuum first runs, the whole of a
# benchmark), it guesses one, and filters every row of the workspace through the list:
# 13 ms instead of 0.07 ms for 3 players among 50,000 rows, on the path of every batch of
# answers. ``OFFSET 0`` keeps the look-up per key, whatever the statistics say.
_KEYED_READ = re.compile(
    r"^\s*SELECT\s+(\*|\w+(?:\s*,\s*\w+)*)\s+FROM\s+(\w+)\s+WHERE\s+([^()]*?)"
    r"\b(\w+) IN \(\?(?:\s*,\s*\?)*\)([^()]*)$",
    re.S,
)
_NOT_PLAIN = re.compile(r"\b(?:OR|ORDER|GROUP|LIMIT|HAVING|SELECT|DISTINCT)\b", re.I)
_ANDED = re.compile(r"^(?:.*\bAND\s+)?x(?:\s+AND\b.*)?$", re.S | re.I)  # the list, ANDed


@dataclass(frozen=True)
class Statement:
    """A repository's statement as psycopg takes it."""

    query: str
    params: Sequence[Any]
    prepare: bool | None  # psycopg's: None, its default; False, never


def postgres_statement(sql: str, params: Sequence[Any]) -> Statement:
    """The statement in psycopg's placeholders, each list of values as one array."""
    lists = list(_VALUE_LIST.finditer(sql))
    if not lists:
        return Statement(postgres_sql(sql), params, None)
    keyed = _keyed_read(sql, params) if len(lists) == 1 else None
    if keyed is not None:
        return keyed
    values = iter(params)
    query: list[str] = []
    packed: list[Any] = []
    end = 0
    for found in lists:
        before = sql[end : found.start()]
        packed += [next(values) for _ in range(before.count("?"))]
        packed.append([next(values) for _ in range(found.group().count("?"))])
        query += [postgres_sql(before), "= ANY(%b)"]
        end = found.end()
    packed += values
    query.append(postgres_sql(sql[end:]))
    return Statement("".join(query), packed, False)


def _keyed_read(sql: str, params: Sequence[Any]) -> Statement | None:
    """A plain read by a list of keys as one look-up per key (see ``_KEYED_READ``), or
    None for any other statement."""
    found = _KEYED_READ.match(sql)
    if found is None:
        return None
    columns, table, before, key, after = found.groups()
    if _NOT_PLAIN.search(before + after) or not _ANDED.match(f"{before}x{after}"):
        return None
    ahead, behind = before.count("?"), after.count("?")
    listed = len(params) - ahead - behind
    keys = list(dict.fromkeys(params[ahead : ahead + listed]))  # IN counts a key once
    inner = postgres_sql(f"SELECT {columns} FROM {table} WHERE {before}{key} = listed.value{after}")
    return Statement(
        f"SELECT found.* FROM unnest(%b) AS listed(value), LATERAL ({inner} OFFSET 0) AS found",
        [keys, *params[:ahead], *params[ahead + listed :]],
        None,  # prepared or not, each key is an index look-up
    )


@lru_cache(maxsize=1024)
def postgres_sql(sql: str) -> str:
    """SQLite's ``?`` placeholders as psycopg's ``%s`` (a literal ``%`` doubled)."""
    return sql.replace("%", "%%").replace("?", "%s")


# A multi-row write the server can take as one statement over arrays (``unnest``): an
# INSERT with one ``?`` per column, or an UPDATE whose ``?`` are all parameters.
_INSERT = re.compile(
    r"^\s*INSERT INTO (\w+)\s*(?:\(([^)]*)\))?\s*VALUES\s*\(\s*\?(?:\s*,\s*\?)*\s*\)(.*)$",
    re.S,
)
_UPDATE = re.compile(r"^\s*UPDATE (\w+) SET (.*) WHERE (.*)$", re.S)


class PostgresConnection:
    """A psycopg connection that speaks the repositories' SQL. A multi-row write is sent
    as one statement over arrays, ``INSERT … SELECT * FROM unnest(…)`` or ``UPDATE … FROM
    unnest(…)``: a batch of answers is a few statements, not one execution per row (psycopg
    pipelines ``executemany``, but the server still parses, plans and runs each row)."""

    def __init__(self, connection: psycopg.Connection[Any]):
        self.connection = connection
        self._types: dict[str, dict[str, str]] = {}  # table -> column -> its SQL type

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> psycopg.Cursor[Any]:
        statement = postgres_statement(sql, parameters)
        return self.connection.execute(statement.query, statement.params, prepare=statement.prepare)

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> psycopg.Cursor[Any]:
        rows = [tuple(row) for row in parameters]
        statement = self._set_wise(sql, rows) if len(rows) > 1 else None
        if statement is not None:
            return self.connection.execute(*statement)
        cursor = self.connection.cursor()
        cursor.executemany(postgres_sql(sql), rows)  # pipelined by psycopg
        return cursor

    def _set_wise(self, sql: str, rows: list[tuple[Any, ...]]) -> tuple[str, list[Any]] | None:
        """The rows' write as one statement over one array per column, or None."""
        arrays = [list(column) for column in zip(*rows, strict=True)]
        if found := _INSERT.match(sql):
            table, named, rest = found.groups()
            types = self._columns(table)
            columns = [c.strip() for c in named.split(",")] if named else list(types)
            if len(columns) != len(arrays) or "?" in rest:
                return None
            casts = ", ".join(f"%b::{types[c]}[]" for c in columns)
            return (
                f"INSERT INTO {table} ({', '.join(columns)}) SELECT * FROM unnest({casts})"
                + rest.replace("%", "%%"),
                [_typed(a, types[c]) for a, c in zip(arrays, columns, strict=True)],
            )
        kinds = [_array_type(a) for a in arrays]
        if (found := _UPDATE.match(sql)) and all(kinds):
            table, assignments, condition = (part.replace("%", "%%") for part in found.groups())
            params = iter(f"u.c{i}" for i in range(len(arrays)))
            assigned = re.sub(r"\?", lambda _: next(params), assignments)
            where = re.sub(r"\?", lambda _: next(params), condition)
            casts = ", ".join(f"%b::{kind}[]" for kind in kinds)
            aliases = ", ".join(f"c{i}" for i in range(len(arrays)))
            return (
                f"UPDATE {table} SET {assigned} FROM unnest({casts}) AS u({aliases}) WHERE {where}",
                [_typed(a, str(k)) for a, k in zip(arrays, kinds, strict=True)],
            )
        return None

    def _columns(self, table: str) -> dict[str, str]:
        """The table's columns in order, with their types (asked of the server once)."""
        if table not in self._types:
            rows = self.connection.execute(
                "SELECT column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND table_name = %s"
                " ORDER BY ordinal_position",
                (table,),
            ).fetchall()
            self._types[table] = {name: kind for name, kind in rows}
        return self._types[table]

    @property
    def lost(self) -> bool:
        """The server closed the connection (or it broke): it cannot be used again."""
        return bool(self.connection.broken or self.connection.closed)

    def close(self) -> None:
        self.connection.close()


# The arrays go in binary (%b): about 3.5× cheaper to send than text for a batch of 3,000
# rows (bench/RESULTS.md). A binary array has one element type, so each column's values
# are made that of its SQL type first (an int among floats, a bool among ints).
_FLOATS = {"double precision", "real"}
_INTS = {"bigint", "integer", "smallint"}


def _typed(values: list[Any], kind: str) -> list[Any]:
    if kind in _FLOATS:
        return [None if v is None else float(v) for v in values]
    if kind in _INTS:
        return [None if v is None else int(v) for v in values]
    return values


def _array_type(values: list[Any]) -> str | None:
    """The SQL type of an UPDATE's parameter column, from its values (None: unsure)."""
    kinds = {type(v) for v in values}
    if kinds <= {int, bool}:
        return "bigint"
    if kinds <= {int, float}:
        return "double precision"
    return "text" if kinds == {str} else None


_DDL = (
    (re.compile(r"\bINTEGER PRIMARY KEY\b"), "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
    (re.compile(r"\s*WITHOUT ROWID"), ""),
)


def postgres_ddl(script: str) -> str:
    """A SQLite migration as PostgreSQL DDL: the same tables, keys and indexes. SQLite's
    ``INTEGER PRIMARY KEY`` numbers rows by itself: an identity column does on PostgreSQL;
    integers are 64-bit and reals double on both."""
    for pattern, replacement in _DDL:
        script = pattern.sub(replacement, script)
    return script
