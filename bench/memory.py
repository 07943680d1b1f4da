"""Resident memory with 10,000 personal quiz runs in progress, in this process.

python -m bench.memory [--runs 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import shutil
import tempfile
from pathlib import Path

from bot.content.banks import SHIPPED_BANKS, load_catalog
from bot.domain.identities import PlayerRef, ScopeRef
from bot.persistence import Store
from bot.services.engine import Engine
from bot.ui.views import QuestionView

from .common import record, table


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


async def measure(runs: int) -> str:
    # A running bot has both platforms' libraries loaded.
    import adapters.discord.runtime
    import adapters.slack.runtime  # noqa: F401

    workdir = Path(tempfile.mkdtemp(prefix="quizbot-bench-"))
    try:
        store = await Store.open(workdir / "memory.db")
        try:
            engine = Engine(load_catalog([SHIPPED_BANKS]), store)
            scope = ScopeRef("slack", "TMEM", "C")
            gc.collect()
            ready = rss_mib()
            for start in range(0, runs, 1000):
                views = await asyncio.gather(
                    *(
                        engine.start_quiz(
                            PlayerRef("slack", f"U{i}", f"Player {i}"), scope, "offloading", "en"
                        )
                        for i in range(start, min(start + 1000, runs))
                    )
                )
                assert all(isinstance(v, QuestionView) for v in views)
            gc.collect()
            loaded = rss_mib()
            assert store.runs.in_progress == runs
        finally:
            await store.close()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    rows = [
        ["ready (imports, banks, database open)", f"{ready:.1f}"],
        [f"with {runs:,} runs in progress", f"{loaded:.1f}"],
        ["per run", f"{(loaded - ready) * 1024 / runs:.2f} KiB"],
    ]
    return table(["state", "resident MiB"], rows) + "\n\nTarget: 10,000 runs in ≤ 150 MB."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10_000)
    record("Memory", asyncio.run(measure(parser.parse_args().runs)))


if __name__ == "__main__":
    main()
