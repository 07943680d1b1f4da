"""What every benchmark shares: the machine's description, percentiles and the
results file."""

from __future__ import annotations

import gc
import os
import platform
import sqlite3
import statistics
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

RESULTS = Path(__file__).parent / "RESULTS.md"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, Python {sys.version.split()[0]},"
        f" SQLite {sqlite3.sqlite_version}, {platform.system()} {platform.release()}"
    )


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0–100) by nearest rank."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def table(headers: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def record(title: str, body: str) -> None:
    """Print a result and append it, dated and with the machine, to RESULTS.md."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    entry = f"\n## {title} — {stamp}\n\nMachine: {machine()}\n\n{body}\n"
    print(entry)
    with RESULTS.open("a", encoding="utf-8") as out:
        out.write(entry)


def mean(values: list[float]) -> float:
    return statistics.fmean(values) if values else float("nan")


@contextmanager
def steady_clock() -> Iterator[None]:
    """For a process that only generates load and measures it (never the bot's own
    process): no collection of the cyclic garbage while it times. The fake's recorded
    calls make its heap large, and one full collection paused it for 130 ms in the middle
    of a 3-second load, which it then counted as the bot's latency."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
