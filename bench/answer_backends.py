"""The answer path on SQLite and on PostgreSQL in one run: the same engine, the same group
commit, open-loop Poisson clicks at a few rates and a saturation burst on each backend.
Both durable: SQLite in WAL with synchronous=FULL, PostgreSQL with fsync on.

    python -m bench.answer_backends [--seconds 3] [--rates 500,1000,2000] [--url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
from pathlib import Path

import psycopg

from bot.content.banks import SHIPPED_BANKS, load_catalog
from bot.operations.process import tune_gc
from bot.persistence import Store
from bot.services.engine import Engine

from .answer_path import loads
from .common import ms, record, table
from .postgres import benchmark_database


async def one_backend(
    label: str, location: str | Path, rates: list[int], seconds: float, burst: int
) -> tuple[list[list[str]], float]:
    catalog = load_catalog([SHIPPED_BANKS])
    store = await Store.open(location)
    engine = Engine(catalog, store)
    try:
        results, saturation = await loads(engine, rates, seconds, burst)
    finally:
        await store.close()
    rows = [
        [
            label, str(r["offered"]), str(r["answers"]), f"{r['achieved']:.0f}",
            ms(r["p50"]), ms(r["p99"]),
        ]
        for r in results
    ]  # fmt: skip
    return rows, saturation


async def measure(url: str, rates: list[int], seconds: float, burst: int) -> tuple[str, str]:
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-bench-"))
    try:
        sqlite_rows, sqlite_rate = await one_backend(
            "SQLite", workdir / "bench.db", rates, seconds, burst
        )
        pg_rows, pg_rate = await one_backend("PostgreSQL", url, rates, seconds, burst)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    latency = table(
        ["store", "offered/s", "answers", "achieved/s", "p50 ms", "p99 ms"], sqlite_rows + pg_rows
    )
    summary = table(
        ["store", "answers/s at saturation", "ratio"],
        [
            ["SQLite", f"{sqlite_rate:.0f}", "1.00"],
            ["PostgreSQL", f"{pg_rate:.0f}", f"PostgreSQL/SQLite = {pg_rate / sqlite_rate:.2f}×"],
        ],
    )
    return latency, summary + f"\n\nSaturation burst: {burst} answers."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rates", default="500,1000,2000")
    parser.add_argument("--burst", type=int, default=5000)
    parser.add_argument("--url", help="an existing server's database (else a throwaway one)")
    args = parser.parse_args()
    rates = [int(r) for r in args.rates.split(",")]
    tune_gc()  # as `quizbot run` does
    with benchmark_database(args.url) as database:
        latency, summary = asyncio.run(measure(database.url, rates, args.seconds, args.burst))
    record(
        "Answer path: SQLite and PostgreSQL",
        f"{latency}\n\n{summary} PostgreSQL: {database.note}, psycopg {psycopg.__version__};"
        " the engine, the group-commit writer and the clients in one process, the server"
        " on the same 2 cores.",
    )


if __name__ == "__main__":
    main()
