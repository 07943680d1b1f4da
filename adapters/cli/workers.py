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
GAVE_UP = 1  # the supervisor's exit code when a worker keeps failing at start-up
# A start limit, as systemd's StartLimitBurst: a worker that dies within QUICK_FAILURE
# seconds of starting failed quickly; it is started again after a pause that doubles each
# time (RESTART_PAUSE, 2×, 4× … at most MAX_PAUSE), and after START_LIMIT quick failures
# in a row the supervisor stops every worker and exits. A worker that ran longer starts
# again at once and its count begins anew.
QUICK_FAILURE = 10.0
RESTART_PAUSE = 1.0
MAX_PAUSE = 30.0
START_LIMIT = 5


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


def restart_pause(quick_failures: int) -> float:
    """Seconds to wait before starting a worker again after its n-th quick failure in a
    row (0: it had run long enough to start again at once)."""
    return 0.0 if quick_failures == 0 else min(MAX_PAUSE, RESTART_PAUSE * 2 ** (quick_failures - 1))


def run_workers(count: int) -> int:
    """The same command in ``count`` processes sharing the port (each binds it with
    SO_REUSEPORT); one of them runs the scheduler (a PostgreSQL lock elects it). A worker
    that dies is started again, backing off while it keeps failing at start-up and giving
    up after START_LIMIT quick failures in a row; a setup problem (exit 2: a bad token, the
    port taken) stops them all at once. SIGTERM and Ctrl-C reach every worker."""
    command = [sys.executable, "-m", "adapters.cli", *sys.argv[1:]]
    stopping = False

    def spawn(number: int) -> tuple[subprocess.Popen[bytes], float]:
        child = subprocess.Popen(command, env={**os.environ, WORKER: str(number)})
        return child, time.monotonic()

    workers = {number: spawn(number) for number in range(1, count + 1)}
    quick = dict.fromkeys(workers, 0)  # quick failures in a row, per worker

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
        ran = time.monotonic() - started
        quick[number] = quick[number] + 1 if ran < QUICK_FAILURE else 0
        if quick[number] >= START_LIMIT:
            log.error(
                "quizbot: worker %d failed %d times in a row, each within %.0f s of starting"
                " (last exit %d): stopping all workers; its log above says why",
                number, quick[number], QUICK_FAILURE, child.returncode,
            )  # fmt: skip
            code = GAVE_UP
            stop(signal.SIGTERM, None)
            continue
        pause = restart_pause(quick[number])
        log.warning(
            "worker %d ended (exit %d) after %.0f s: starting it again in %.0f s",
            number, child.returncode, ran, pause,
        )  # fmt: skip
        time.sleep(pause)  # a signal meanwhile stops everything: no new worker then
        if not stopping:
            workers[number] = spawn(number)
    return code
