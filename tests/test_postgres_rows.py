"""Multi-row writes on PostgreSQL go as one statement over arrays (``unnest``), with the
same result as one row at a time: every column's type, NULLs, ON CONFLICT and UPDATE."""

from __future__ import annotations

from typing import Any

import psycopg

from bot.persistence.dialect import PostgresConnection, postgres_statement


def test_rows_written_set_wise_are_the_rows_given(migrated_postgres_url: str) -> None:
    with psycopg.connect(migrated_postgres_url, autocommit=True) as raw:
        db = PostgresConnection(raw)
        statements: list[str] = []
        traced = raw.execute

        def recording(query: object, params: object = None, **kw: object) -> object:
            statements.append(str(query))
            return traced(query, params, **kw)  # type: ignore[arg-type]

        raw.execute = recording  # type: ignore[method-assign]
        db.executemany(
            "INSERT INTO players (platform, player_id, name) VALUES (?, ?, ?)",
            [("slack", "U1", "Ana"), ("slack", "U2", "Bo 100%"), ("slack", "U3", "")],
        )
        db.executemany(
            "INSERT INTO players (platform, player_id, name) VALUES (?, ?, ?)"
            " ON CONFLICT (platform, player_id) DO UPDATE SET name = excluded.name",
            [("slack", "U1", "Ana B"), ("slack", "U4", "Cy")],
        )
        db.executemany(
            "INSERT INTO runs (run_id, platform, workspace_id, channel_id, player_id,"
            " bank_id, locale, seed, question_ids, position, correct, points, created_at,"
            " updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [
                (f"r{n}", "slack", "T1", "C1", f"U{n}", "tiny", "en", n, "[]", 0, 0, 0, 1.5, 1.5)
                for n in (1, 2)
            ],
        )
        db.executemany(
            "UPDATE runs SET position = position + 1, correct = correct + ?, points = points + ?,"
            " updated_at = ? WHERE run_id = ?",
            [(1, 15, 2.25, "r1"), (0, 0, 3.0, "r2")],
        )
        players = raw.execute("SELECT player_id, name FROM players ORDER BY 1").fetchall()
        runs = raw.execute(
            "SELECT run_id, position, correct, points, updated_at FROM runs ORDER BY 1"
        ).fetchall()
    assert players == [("U1", "Ana B"), ("U2", "Bo 100%"), ("U3", ""), ("U4", "Cy")]
    assert runs == [("r1", 1, 1, 15, 2.25), ("r2", 1, 0, 0, 3.0)]
    assert sum("unnest(" in s for s in statements) == 4  # one statement per write


def test_a_list_of_values_is_one_array_planned_for_its_values(migrated_postgres_url: str) -> None:
    """``IN (?,?,…)`` goes as one array, whatever comes before and after it, and is never
    prepared: a prepared statement may get one generic plan for any values, which
    compares every row with every listed value."""
    listed = (
        "SELECT player_id FROM players WHERE platform = ? AND player_id IN (?,?,?)"
        " AND name LIKE '%o%' AND name != ? ORDER BY player_id"
    )
    single = "SELECT name FROM players WHERE platform = ? AND player_id = ?"
    with psycopg.connect(migrated_postgres_url, autocommit=True) as raw:
        db = PostgresConnection(raw)
        db.executemany(
            "INSERT INTO players (platform, player_id, name) VALUES (?, ?, ?)",
            [("slack", "U1", "Bo"), ("slack", "U2", "Jo"), ("slack", "U3", "Ana")],
        )
        for _ in range(10):  # psycopg prepares a statement after its 5th run
            found = db.execute(listed, ("slack", "U1", "U2", "U3", "Jo")).fetchall()
            named = db.execute(single, ("slack", "U2")).fetchall()
        prepared = [row[0] for row in raw.execute("SELECT statement FROM pg_prepared_statements")]
    assert found == [("U1",)]
    assert named == [("Jo",)]
    assert [s for s in prepared if "FROM players" in s] == [
        "SELECT name FROM players WHERE platform = $1 AND player_id = $2"
    ]


def _filtered_out(plan: dict[str, Any]) -> int:
    """Rows a plan read and then threw away, over all its nodes."""
    return int(plan.get("Rows Removed by Filter", 0)) + sum(
        _filtered_out(child) for child in plan.get("Plans", [])
    )


def test_a_read_by_keys_looks_up_each_key_on_a_table_never_analyzed(
    migrated_postgres_url: str,
) -> None:
    """A batch's read of its players' attempts (the key's third column) reads their rows
    only, even before PostgreSQL has statistics on the table: with ``= ANY`` it guessed
    one row for the workspace and filtered all 3,000 through the list."""
    read = (
        "SELECT * FROM attempts WHERE platform = ? AND workspace_id = ?"
        " AND player_id IN (?,?,?,?) AND bank_id != ?"
    )
    params = ("slack", "T1", "U0007", "U2500", "U0007", "U9999", "none")
    with psycopg.connect(migrated_postgres_url, autocommit=True) as raw:
        db = PostgresConnection(raw)
        db.executemany(
            "INSERT INTO attempts VALUES (?, ?, ?, ?, ?)",
            [("slack", "T1", f"U{n:04d}", "offloading", "q1") for n in range(3000)]
            + [("slack", "T2", "U0007", "offloading", "q1")],
        )
        found = sorted(db.execute(read, params).fetchall())
        statement = postgres_statement(read, params)
        explained = raw.execute(
            f"EXPLAIN (ANALYZE, FORMAT JSON) {statement.query}", statement.params
        ).fetchone()
    assert found == [
        ("slack", "T1", "U0007", "offloading", "q1"),
        ("slack", "T1", "U2500", "offloading", "q1"),
    ]
    assert explained is not None
    assert _filtered_out(explained[0][0]["Plan"]) == 0
