"""Leaderboards at 1,000,000 answers over 10,000 players and 50 workspaces: top 10 plus
"my rank" through the engine, per period (all time, this week) and per topic.

    python -m bench.leaderboards [--answers 1000000] [--queries 1000]

The totals are built by the store's own ledger (the code every answer goes through,
here through ``store.boards.credit``) from synthetic answers spread over the last 60
days; the answer rows themselves are not written, since no leaderboard query reads them.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from bot.content.banks import SHIPPED_BANKS, load_catalog
from bot.domain.answers import Credit
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.periods import ALL, WEEK
from bot.persistence import Store
from bot.services.engine import Engine
from bot.ui.views import Leaderboard

from .common import ms, percentile, record, table

PLAYERS, SCOPES = 10_000, 50
TOPICS = ("offloading", "mixed-precision")
CHUNK = 50_000
NOW = datetime(2026, 11, 26, 12, tzinfo=UTC).timestamp()


class FixedClock:
    def now(self) -> float:
        return NOW


async def populate(engine: Engine, answers: int, now: float) -> float:
    store, rng = engine.store, random.Random(7)
    players = [PlayerRef("slack", f"U{i:05d}", f"Player {i}") for i in range(PLAYERS)]
    scopes = [ScopeRef("slack", f"T{i:02d}", "C") for i in range(SCOPES)]
    started = time.perf_counter()
    # Names as the product stores them: with each player's first quiz (group-committed).
    await asyncio.gather(
        *(engine.start_quiz(p, scopes[i % SCOPES], TOPICS[0], "en") for i, p in enumerate(players))
    )
    for offset in range(0, answers, CHUNK):
        await store.boards.credit(
            [
                Credit(
                    rng.choice(players),
                    rng.choice(scopes),
                    rng.choice(TOPICS),
                    rng.choice((0, 10, 15, 20)),
                    True,
                    now - rng.uniform(0, 60 * 86400),
                )
                for _ in range(min(CHUNK, answers - offset))
            ]
        )
    return time.perf_counter() - started


async def run_queries(
    store: Store, answers: int, queries: int
) -> tuple[list[list[str]], int, float]:
    # A fixed Thursday noon, so "this week" holds three and a half days of answers.
    engine = Engine(load_catalog([SHIPPED_BANKS]), store, FixedClock())
    build = await populate(engine, answers, NOW)
    rng = random.Random(11)
    rows = []
    for period in (ALL, WEEK):
        for topic in (None, "offloading"):
            latencies = []
            ranked = 0
            for _ in range(queries):
                player = PlayerRef("slack", f"U{rng.randrange(PLAYERS):05d}")
                scope = ScopeRef("slack", f"T{rng.randrange(SCOPES):02d}", "C")
                started = time.perf_counter()
                board = await engine.leaderboard(player, scope, "en", period, topic)
                latencies.append(time.perf_counter() - started)
                assert isinstance(board, Leaderboard) and len(board.rows) == 10
                ranked += board.you is not None
            rows.append([
                period, topic or "all topics", str(queries), ms(percentile(latencies, 50)),
                ms(percentile(latencies, 99)), f"{ranked / queries:.0%}",
            ])  # fmt: skip
    with sqlite3.connect(store.path) as db:
        totals = db.execute("SELECT COUNT(*) FROM totals").fetchone()[0]
    return rows, totals, build


async def measure(answers: int, queries: int) -> str:
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-bench-"))
    try:
        store = await Store.open(workdir / "boards.db")
        try:
            rows, totals, build = await run_queries(store, answers, queries)
        finally:
            await store.close()
        size = (workdir / "boards.db").stat().st_size / 2**20
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    result = table(["period", "topic", "queries", "p50 ms", "p99 ms", "asker ranked"], rows)
    return (
        f"{answers:,} answers over {PLAYERS:,} players and {SCOPES} workspaces"
        f" ({totals:,} leaderboard rows, {size:.0f} MiB; built in {build:.0f} s).\n"
        f"Each query: top 10 plus the asking player's rank, through the engine.\n\n{result}\n\n"
        "Target: top 10 + my rank ≤ 2 ms p99 at 1M answers."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--answers", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=1000)
    args = parser.parse_args()
    record("Leaderboards", asyncio.run(measure(args.answers, args.queries)))


if __name__ == "__main__":
    main()
