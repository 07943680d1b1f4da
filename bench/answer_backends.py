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
from dataclasses import dataclass
from pathlib import Path
from statistics import median

import psycopg

from bot.content.banks import SHIPPED_BANKS, load_catalog
from bot.operations.process import tune_gc
from bot.persistence import Store
from bot.services.engine import Engine

from .answer_path import Click, open_loop, prepare, saturate
from .common import ms, record, table
from .postgres import benchmark_database

LABELS = ("SQLite", "PostgreSQL")


@dataclass
class Backend:
    label: str
    engine: Engine
    offset: int = 0

    async def clicks(self, count: int) -> list[Click]:
        """Runs started just before their load, as players would start them."""
        clicks = await prepare(self.engine, count, self.offset)
        self.offset += count
        return clicks


async def measure(
    url: str, rates: list[int], seconds: float, burst: int, repeats: int
) -> tuple[str, str]:
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-bench-"))
    catalog = load_catalog([SHIPPED_BANKS])
    stores = [await Store.open(workdir / "bench.db"), await Store.open(url)]
    try:
        backends = [
            Backend(label, Engine(catalog, store))
            for label, store in zip(LABELS, stores, strict=True)
        ]
        rows = []
        for backend in backends:
            for rate in rates:
                clicks = await backend.clicks(int(rate * seconds * 1.2) + 10)
                r = await open_loop(backend.engine, clicks, rate, seconds)
                rows.append(
                    [
                        backend.label, str(r["offered"]), str(r["answers"]),
                        f"{r['achieved']:.0f}", ms(r["p50"]), ms(r["p99"]),
                    ]
                )  # fmt: skip
        # Bursts alternate between the stores, so a noisy moment on this shared machine
        # lands on both rather than on one; the ratio is the median of each pair's.
        rates_at: dict[str, list[float]] = {b.label: [] for b in backends}
        for _ in range(repeats):
            for backend in backends:
                clicks = await backend.clicks(burst)
                rates_at[backend.label].append(await saturate(backend.engine, clicks))
    finally:
        for store in stores:
            await store.close()
        shutil.rmtree(workdir, ignore_errors=True)
    latency = table(["store", "offered/s", "answers", "achieved/s", "p50 ms", "p99 ms"], rows)
    sqlite, postgres = rates_at[LABELS[0]], rates_at[LABELS[1]]
    ratios = [p / s for s, p in zip(sqlite, postgres, strict=True)]
    summary = table(
        ["store", "answers/s at saturation, median", "each burst"],
        [
            [
                label,
                f"{median(rates_at[label]):.0f}",
                ", ".join(f"{r:.0f}" for r in rates_at[label]),
            ]
            for label in LABELS
        ],
    )
    return latency, (
        f"{summary}\n\nPostgreSQL/SQLite = **{median(ratios):.2f}×** (median of the pairs:"
        f" {', '.join(f'{r:.2f}' for r in ratios)}). Saturation bursts: {repeats} × {burst}"
        " answers per store, alternating."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rates", default="500,1000,2000")
    parser.add_argument("--burst", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=5, help="saturation bursts per store")
    parser.add_argument("--url", help="an existing server's database (else a throwaway one)")
    args = parser.parse_args()
    rates = [int(r) for r in args.rates.split(",")]
    tune_gc()  # as `quizbot run` does
    with benchmark_database(args.url) as database:
        latency, summary = asyncio.run(
            measure(database.url, rates, args.seconds, args.burst, args.repeats)
        )
    record(
        "Answer path: SQLite and PostgreSQL",
        f"{latency}\n\n{summary} PostgreSQL: {database.note}, psycopg {psycopg.__version__};"
        " the engine, the group-commit writer and the clients in one process, the server"
        " on the same 2 cores.",
    )


if __name__ == "__main__":
    main()
