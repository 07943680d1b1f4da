"""The answer path: open-loop Poisson arrivals of clicks through the real engine and
store, from arrival to feedback, with group commit against a one-commit-per-answer
baseline and the raw executemany ceiling.

    python -m bench.answer_path [--seconds 3] [--rates 1000,2000,5000,10000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

from bot.content.banks import SHIPPED_BANKS, load_catalog
from bot.domain.actions import AnswerAction, decode
from bot.domain.identities import PlayerRef, ScopeRef
from bot.domain.periods import calendar_keys
from bot.operations.process import tune_gc
from bot.persistence import ALL_BANKS, Store
from bot.services.engine import Engine
from bot.ui.views import Feedback, QuestionView

from .common import ms, percentile, record, table

SCOPE = ScopeRef("slack", "TBENCH", "CBENCH")
Click = tuple[PlayerRef, AnswerAction]  # decoded where it comes in, as an adapter does


async def prepare(engine: Engine, count: int, offset: int) -> list[Click]:
    """``count`` quiz runs, each waiting for its first answer: one click each."""
    players = [PlayerRef("slack", f"U{offset + i}", f"Player {offset + i}") for i in range(count)]
    clicks: list[Click] = []
    for start in range(0, count, 2000):
        chunk = players[start : start + 2000]
        views = await asyncio.gather(
            *(engine.start_quiz(p, SCOPE, "offloading", "en") for p in chunk)
        )
        for index, (player, view) in enumerate(zip(chunk, views, strict=True)):
            assert isinstance(view, QuestionView)
            chosen = view.choices[index % len(view.choices)]
            answer = decode(chosen.action_id)
            assert isinstance(answer, AnswerAction)
            clicks.append((player, answer))
    return clicks


async def open_loop(engine: Engine, clicks: list[Click], rate: float, seconds: float) -> dict:
    """Arrivals at Poisson times regardless of how fast answers come back; latency is
    measured from each arrival's scheduled time, so queueing delay counts."""
    rng = random.Random(rate)
    arrivals: list[float] = []
    moment = rng.expovariate(rate)
    while moment < seconds and len(arrivals) < len(clicks):
        arrivals.append(moment)
        moment += rng.expovariate(rate)
    loop = asyncio.get_running_loop()
    latencies: list[float] = []
    finished: list[float] = []
    start = loop.time()

    async def one(at: float, click: Click) -> None:
        result = await engine.click(*click)
        assert isinstance(result, Feedback), result
        done = loop.time() - start
        latencies.append(done - at)
        finished.append(done)

    tasks = []
    index = 0
    while index < len(arrivals):
        now = loop.time() - start
        while index < len(arrivals) and arrivals[index] <= now:
            tasks.append(asyncio.create_task(one(arrivals[index], clicks[index])))
            index += 1
        if index < len(arrivals):
            await asyncio.sleep(max(0.0, arrivals[index] - (loop.time() - start)))
    await asyncio.gather(*tasks)
    del clicks[: len(arrivals)]
    return {
        "offered": rate,
        "answers": len(arrivals),
        "achieved": len(arrivals) / max(finished),
        "p50": percentile(latencies, 50),
        "p99": percentile(latencies, 99),
        "p999": percentile(latencies, 99.9),
    }


async def saturate(engine: Engine, clicks: list[Click]) -> float:
    """All clicks at once: the answers per second the path sustains."""
    started = time.perf_counter()
    results = await asyncio.gather(*(engine.click(*c) for c in clicks))
    assert all(isinstance(r, Feedback) for r in results)
    return len(clicks) / (time.perf_counter() - started)


async def loads(
    engine: Engine, rates: list[int], window: float, burst: int
) -> tuple[list[dict], float]:
    """Open-loop results at each rate, then the answers per second of a burst. Runs are
    started just before each load, as players would: the ones in progress stay in the
    store's cache, as in a live bot."""
    results, offset = [], 0
    for rate in rates:
        needed = int(rate * window * 1.2) + 10
        clicks = await prepare(engine, needed, offset)
        offset += needed
        results.append(await open_loop(engine, clicks, rate, window))
    return results, await saturate(engine, await prepare(engine, burst, offset))


def raw_ceiling(path: Path, count: int) -> float:
    """The same rows one answer writes (answer, attempt, totals, run progress), for
    ``count`` answers inserted with executemany in one transaction."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    runs = [f"raw{i:012d}" for i in range(count)]
    now = time.time()
    db.executemany(  # untimed: the runs the answers belong to
        "INSERT INTO runs VALUES (?, 'slack', 'TRAW', 'C', ?, 'offloading', 'en', 1, '[]',"
        " 0, 0, 0, ?, ?)",
        [(run, f"R{i}", now, now) for i, run in enumerate(runs)],
    )
    players = [f"R{i}" for i in range(len(runs))]
    started = time.perf_counter()  # from here: what one answer writes, for all of them
    db.execute("BEGIN IMMEDIATE")
    db.executemany(
        "INSERT INTO answers VALUES"
        " (?, 0, 'slack', 'TRAW', ?, 'offloading', 'q', 0, 1, 10, ?, NULL)",
        [(run, player, now) for run, player in zip(runs, players, strict=True)],
    )
    db.executemany(
        "INSERT INTO attempts VALUES ('slack', 'TRAW', ?, 'offloading', 'q')",
        [(p,) for p in players],
    )
    boards = []
    for bank in ("offloading", ALL_BANKS):
        for period in calendar_keys(now):
            db.execute("INSERT INTO boards VALUES (NULL, 'slack', 'TRAW', ?, ?)", (bank, period))
            boards.append(db.execute("SELECT last_insert_rowid()").fetchone()[0])
    db.executemany(
        "INSERT INTO totals VALUES (?, ?, 10, 1, 1, ?)"
        " ON CONFLICT DO UPDATE SET points = points + 10",
        [(b, p, now) for p in players for b in boards],
    )
    db.executemany("UPDATE runs SET position = position + 1 WHERE run_id = ?", [(r,) for r in runs])
    db.execute("COMMIT")
    elapsed = time.perf_counter() - started
    db.close()
    return len(runs) / elapsed


async def measure(rates: list[int], seconds: float, burst: int) -> str:
    catalog = load_catalog([SHIPPED_BANKS])
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-bench-"))
    try:
        rows = []
        saturation = {}
        for label, batch in (("group commit", 512), ("one commit per answer", 1)):
            store = await Store.open(workdir / f"{batch}.db", max_batch=batch)
            engine = Engine(catalog, store)
            # The baseline gets a shorter window per rate: it cannot keep up anyway.
            window = seconds if batch > 1 else min(seconds, 1.0)
            results, saturation[label] = await loads(engine, rates, window, burst)
            rows += [
                [
                    label, str(r["offered"]), str(r["answers"]), f"{r['achieved']:.0f}",
                    ms(r["p50"]), ms(r["p99"]), ms(r["p999"]),
                ]
                for r in results
            ]  # fmt: skip
            await store.close()
        raw_path = workdir / "raw.db"
        shutil.copy(workdir / "512.db", raw_path)
        raw = raw_ceiling(raw_path, burst)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    group, base = saturation["group commit"], saturation["one commit per answer"]
    summary = table(
        ["path", "answers/s at saturation", "ratio"],
        [
            ["group commit (engine + store)", f"{group:.0f}", "1.00"],
            ["one commit per answer", f"{base:.0f}", f"group/baseline = {group / base:.1f}×"],
            ["raw executemany, one transaction", f"{raw:.0f}", f"group/raw = {group / raw:.2f}×"],
        ],
    )  # fmt: skip
    latency = table(
        ["store", "offered/s", "answers", "achieved/s", "p50 ms", "p99 ms", "p99.9 ms"], rows
    )
    targets = (
        "Targets: 5,000/s with p99 ≤ 20 ms; 2,000/s with p99 ≤ 5 ms; ≥ 5× the baseline and"
        " ≥ 0.3× the raw ceiling at saturation."
    )
    return f"{latency}\n\n{summary}\n\nSaturation burst: {burst} answers. {targets}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rates", default="1000,2000,5000,10000")
    parser.add_argument("--burst", type=int, default=5000)
    args = parser.parse_args()
    rates = [int(r) for r in args.rates.split(",")]
    tune_gc()  # as `quizbot run` does
    record("Answer path", asyncio.run(measure(rates, args.seconds, args.burst)))


if __name__ == "__main__":
    main()
