"""``quizbot run slack --http --workers N``: the same command in N processes sharing the
port, restarted when one dies."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

from bot.operations.settings import CoreSettings, is_postgres

log = logging.getLogger("quizbot")
WORKER = "QUIZBOT_WORKER"  # set in each worker process: its number, from 1
SETUP_FAILED = 2  # the exit code of a setup problem (a bad token, the port taken)
RESTART_PAUSE = 1.0  # seconds: a worker that keeps dying is restarted at most this often


def refusal(names: Sequence[str], core: CoreSettings) -> str | None:
    """Why these platforms and this database cannot run in several workers, if they cannot."""
    if tuple(names) != ("slack",):
        return "--workers runs Slack's HTTP mode only: quizbot run slack --http --workers N"
    if not is_postgres(core.db):
        return (
            "--workers needs PostgreSQL (QUIZBOT_DB=postgresql://…): a SQLite file is"
            " written by one process"
        )
    return None


def run_workers(count: int) -> int:
    """The same command in ``count`` processes sharing the port (each binds it with
    SO_REUSEPORT); one of them runs the scheduler (a PostgreSQL lock elects it). A worker
    that dies is started again, but a setup problem (exit 2: a bad token, the port taken)
    stops them all. SIGTERM and Ctrl-C reach every worker."""
    command = [sys.executable, "-m", "adapters.cli", *sys.argv[1:]]
    stopping = False

    def spawn(number: int) -> tuple[subprocess.Popen[bytes], float]:
        child = subprocess.Popen(command, env={**os.environ, WORKER: str(number)})
        return child, time.monotonic()

    workers = {number: spawn(number) for number in range(1, count + 1)}

    def stop(signum: int, _: object) -> None:
        nonlocal stopping
        stopping = True
        for child, _started in workers.values():
            if child.returncode is None:  # not reaped yet (only os.wait below reaps)
                child.send_signal(signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    code = 0
    while any(child.returncode is None for child, _ in workers.values()):
        pid, status = os.wait()
        number = next((n for n, (c, _) in workers.items() if c.pid == pid), None)
        if number is None:
            continue
        child, started = workers[number]
        child.returncode = os.waitstatus_to_exitcode(status)
        if stopping:
            continue
        if child.returncode == SETUP_FAILED:  # one line said why: starting again won't help
            code = SETUP_FAILED
            stop(signal.SIGTERM, None)
            continue
        log.warning("worker %d ended (exit %d): starting it again", number, child.returncode)
        time.sleep(max(0.0, RESTART_PAUSE - (time.monotonic() - started)))
        workers[number] = spawn(number)
    return code
