"""Slack clicks against ``quizbot run slack --http --workers N`` on PostgreSQL, N = 1 and
2 in one run, and one worker on SQLite as the baseline of the same sitting: the real
command (N processes sharing the port with SO_REUSEPORT), signed ``block_actions``
requests from open-loop Poisson arrivals, latency from sending a request to its feedback
reaching the fake Slack's response_url endpoint.

    python -m bench.slack_workers [--seconds 3] [--rates 250,600,900] [--url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import resource
import shutil
import signal
import tempfile
from collections import Counter
from contextlib import nullcontext
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event
from pathlib import Path

import psycopg

from fakes.ports import free_port, free_port_run
from fakes.slack import FakeSlack, SlackDriver, User, buttons
from fakes.slack.workers import start_workers

from .common import ms, record, table
from .postgres import benchmark_database
from .slack_clicks import SECRET, open_loop

WORKERS = (1, 2)  # on PostgreSQL; SQLite (one process only) runs one


async def quizzes_started(driver: SlackDriver, count: int) -> list[tuple[str, str]]:
    """Each player's ``/quiz offloading`` through the workers, as players start: whichever
    worker serves it caches the player's users.info. (player, the button they will click)."""
    clicks: list[tuple[str, str]] = []
    for start in range(0, count, 50):
        players = [f"U{n:06d}" for n in range(start, min(count, start + 50))]
        questions = await asyncio.gather(*(driver.command("offloading", p) for p in players))
        for number, (player, question) in enumerate(zip(players, questions, strict=True)):
            choices = list(buttons(question).values())
            clicks.append((player, choices[number % len(choices)]))
    return clicks


class WaitSampler:
    """PostgreSQL's own view while the clicks run: every 20 ms, what each of quizbot's
    server processes is doing (``pg_stat_activity``): running, or waiting on what (a
    lock, the WAL's fsync, the client …). A process of its own, so that its queries never
    hold up the load generator (a thread here shared its interpreter lock)."""

    def __init__(self, url: str):
        context = multiprocessing.get_context("spawn")
        self._stop = context.Event()
        self._counts, sent = context.Pipe(duplex=False)
        self._process = context.Process(target=_sample, args=(url, self._stop, sent))
        self.counts: Counter[str] = Counter()

    def __enter__(self) -> WaitSampler:
        self._process.start()
        # Started and connected before the first load: a new interpreter's imports would
        # otherwise take CPU from the load it is there to watch.
        if not (self._counts.poll(30) and self._counts.recv() == "ready"):
            raise SystemExit("the pg_stat_activity sampler did not start")
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        if self._counts.poll(30):
            self.counts = Counter(self._counts.recv())
        self._process.join(30)
        if self._process.is_alive():
            self._process.kill()


def _sample(url: str, stop: Event, counts: Connection) -> None:
    found: Counter[str] = Counter()
    with psycopg.connect(url, autocommit=True) as db:
        counts.send("ready")
        while not stop.wait(0.02):
            for state, kind, event in db.execute(
                "SELECT state, wait_event_type, wait_event FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                " AND backend_type = 'client backend'"
            ).fetchall():
                if state == "idle":
                    continue
                found[f"{state}: {kind}:{event}" if kind else f"{state}: on CPU"] += 1
    counts.send(dict(found))


async def with_workers(
    url: str, count: int, rates: list[int], seconds: float
) -> tuple[list[dict[str, float]], Counter[str]]:
    """The loads on ``count`` workers on ``url``, and PostgreSQL's view meanwhile (none on
    SQLite)."""
    fake = FakeSlack(anyone=User("en-US", "Player"))
    await fake.start()
    # The workers' standard error, read if they fail to start: it says why.
    with tempfile.TemporaryFile() as said:
        try:
            port, metrics = free_port(), free_port_run(count)
            try:
                parent = await start_workers(
                    fake, url, count, port, metrics, said.fileno(), secret=SECRET
                )
            except AssertionError as exc:  # start_workers stopped what it started
                said.seek(0)
                lines = said.read().decode(errors="replace").strip().splitlines()[-10:]
                raise SystemExit(
                    f"{count} worker(s) did not start: {exc}\n" + "\n".join(lines)
                ) from exc
            try:
                driver = SlackDriver(fake, f"http://127.0.0.1:{port}/slack/events", SECRET)
                return await _loads(driver, fake, parent.pid, url, rates, seconds)
            finally:
                parent.send_signal(signal.SIGTERM)
                await asyncio.wait_for(parent.wait(), 30)
        finally:
            await fake.stop()


async def _loads(
    driver: SlackDriver, fake: FakeSlack, parent: int, url: str, rates: list[int], seconds: float
) -> tuple[list[dict[str, float]], Counter[str]]:
    needed = sum(int(r * seconds * 1.3) + 50 for r in rates) + 100
    clicks = await quizzes_started(driver, needed)
    await open_loop(driver, fake, clicks, 50, 1.0)  # warm-up: the connections
    results = []
    with WaitSampler(url) if url.startswith("postgresql") else nullcontext() as waits:
        for rate in rates:
            before = cpu_by_part(parent)
            result = await open_loop(driver, fake, clicks, rate, seconds)
            after = cpu_by_part(parent)
            results.append({**result, **{k: after[k] - before[k] for k in after}})
    return results, waits.counts if waits else Counter()


def _cpu(pid: int) -> float:
    """CPU seconds a process has used (user + system), 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_by_part(parent: int) -> dict[str, float]:
    """Where the machine's CPU goes: the workers, PostgreSQL's processes, this process
    (the fake Slack and the load generator)."""
    # With --workers 1 the parent serves itself; with more it supervises its children.
    workers = [parent, *Path(f"/proc/{parent}/task/{parent}/children").read_text().split()]
    servers = [
        int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and _comm(p) == "postgres"
    ]
    return {
        "cpu_workers": sum(_cpu(int(pid)) for pid in workers),
        "cpu_postgres": sum(_cpu(pid) for pid in servers),
        "cpu_load": resource.getrusage(resource.RUSAGE_SELF).ru_utime
        + resource.getrusage(resource.RUSAGE_SELF).ru_stime,
    }


def _comm(process: Path) -> str:
    try:
        return (process / "comm").read_text().strip()
    except OSError:
        return ""


def fresh(url: str) -> None:
    """Each N starts on empty tables, so neither inherits the other's rows."""
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(b"DROP SCHEMA public CASCADE")
        connection.execute(b"CREATE SCHEMA public")


async def measure(url: str, rates: list[int], seconds: float) -> str:
    rows, best, waits, p99 = [], {}, {}, {}
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-bench-"))
    runs = [("SQLite", 1, str(workdir / "bench.db")), *(("PostgreSQL", n, url) for n in WORKERS)]
    try:
        for store, count, location in runs:
            if store == "PostgreSQL":
                fresh(url)
            results, found = await with_workers(location, count, rates, seconds)
            key = (store, count)
            best[key] = max(r["achieved"] for r in results)
            p99[key] = results[0]["p99"]
            if store == "PostgreSQL":
                waits[count] = found
            rows += [
                [
                    store, str(count), str(r["offered"]), str(int(r["clicks"])),
                    f"{r['achieved']:.0f}", ms(r["p50"]), ms(r["p99"]), str(int(r["failures"])),
                    f"{r['cpu_workers'] / r['elapsed']:.2f}",
                    f"{r['cpu_postgres'] / r['elapsed']:.2f}",
                    f"{r['cpu_load'] / r['elapsed']:.2f}",
                ]
                for r in results
            ]  # fmt: skip
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    latency = table(
        [
            "store",
            "workers",
            "offered/s",
            "clicks",
            "achieved/s",
            "p50 ms",
            "p99 ms",
            "non-200",
            "cores: workers",
            "PostgreSQL",
            "fake + load",
        ],
        rows,
    )
    events = sorted(set(waits[1]) | set(waits[2]), key=lambda e: -(waits[1][e] + waits[2][e]))
    waited = table(
        ["quizbot's server processes, not idle", "1 worker", "2 workers"],
        [
            [event, *(f"{waits[n][event] / max(1, sum(waits[n].values())):.0%}" for n in WORKERS)]
            for event in events[:8]
        ],
    )
    one, two, lite = ("PostgreSQL", 1), ("PostgreSQL", 2), ("SQLite", 1)
    return (
        f"{latency}\n\nBest achieved on PostgreSQL: 2 workers / 1 worker ="
        f" {best[two] / best[one]:.2f}× ({best[one]:.0f} → {best[two]:.0f} clicks/s). One"
        f" worker, PostgreSQL / SQLite: best {best[one] / best[lite]:.2f}×"
        f" ({best[one]:.0f} / {best[lite]:.0f} clicks/s); p99 at {rates[0]}/s"
        f" {ms(p99[one])} / {ms(p99[lite])} ms.\n\n"
        f"PostgreSQL's view (pg_stat_activity every 20 ms during the loads; shares of the"
        f" samples of non-idle server processes):\n\n{waited}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rates", default="250,600,900")
    parser.add_argument("--url", help="an existing server's database (else a throwaway one)")
    args = parser.parse_args()
    rates = [int(r) for r in args.rates.split(",")]
    with benchmark_database(args.url) as database:
        body = asyncio.run(measure(database.url, rates, args.seconds))
    record(
        "Slack clicks: 1 and 2 workers on PostgreSQL, 1 on SQLite",
        f"{body}\n\nThe workers, PostgreSQL ({database.note}), the fake Slack and the load"
        f" generator share the machine's cores. {args.seconds:.0f} s per rate.",
    )


if __name__ == "__main__":
    main()
