"""``quizbot run slack --http --workers N``'s supervisor, as a real process: workers that
keep failing at start-up are started again after a pause that doubles, and after 5 quick
failures in a row the supervisor stops and exits 1 with one line saying why — never a
supervisor left respawning workers against a database that is gone."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from adapters.cli.workers import restart_pause
from fakes.ports import free_port
from fakes.slack.workers import QUIZBOT, REPO

pytestmark = pytest.mark.e2e


def test_the_pause_doubles_to_a_cap_and_a_long_run_starts_again_at_once() -> None:
    assert [restart_pause(n) for n in range(8)] == [0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]


def _running_with(marker: str) -> list[str]:
    """Processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker in (entry / "cmdline").read_bytes().decode():
                found.append(entry.name)
        except OSError:
            continue
    return found


def test_workers_failing_at_start_up_make_the_supervisor_give_up_and_say_why() -> None:
    port = str(free_port())  # unique to this run: how its processes are found afterwards
    env = {
        **os.environ,
        "SLACK_BOT_TOKEN": "xoxb-supervisor-test",
        "SLACK_SIGNING_SECRET": "secret",
        "QUIZBOT_DB": "postgresql://postgres@127.0.0.1:1/gone",  # nothing listens on port 1
    }
    done = subprocess.run(
        [QUIZBOT, "run", "slack", "--http", "--port", port, "--workers", "2"],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr[-2000:]
    said = done.stderr.strip().splitlines()
    assert re.search(
        r"quizbot: worker [12] failed 5 times in a row, each within 10 s of starting \(last"
        r" exit 1\): stopping all workers; its log above says why$",
        said[-1],
    ), said[-3:]
    pauses = re.findall(r"starting it again in (\d+) s", done.stderr)
    assert {"1", "2", "4", "8"} <= set(pauses) and "16" not in pauses
    assert _running_with(f"--port\x00{port}") == []  # every worker is gone with it
