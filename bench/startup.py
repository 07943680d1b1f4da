"""Start-up: from process start to ready, for `quizbot run slack --http` (ready: its
port takes connections, after the token check against a fake Slack) and, as a
baseline, for a CLI command that loads the banks and exits.

    python -m bench.startup [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from fakes.ports import free_port

from .common import record, table

READY_TIMEOUT = 30.0


def wait_for_port(port: int, process: subprocess.Popen[bytes]) -> float:
    started = time.perf_counter()
    while time.perf_counter() - started < READY_TIMEOUT:
        if process.poll() is not None:
            raise RuntimeError(f"the process exited with {process.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return time.perf_counter()
        time.sleep(0.005)
    raise TimeoutError(f"port {port} not ready after {READY_TIMEOUT} s")


def slack_ready(fake_port: int, workdir: Path) -> float:
    port = free_port()
    env = {
        **os.environ,
        "SLACK_API_URL": f"http://127.0.0.1:{fake_port}/api/",
        "SLACK_BOT_TOKEN": "xoxb-bench",
        "SLACK_SIGNING_SECRET": "bench-secret",
        "QUIZBOT_DB": str(workdir / "startup.db"),
    }
    env.pop("SLACK_APP_TOKEN", None)
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "adapters.cli", "run", "slack", "--http", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        return wait_for_port(port, process) - started
    finally:
        process.terminate()
        process.wait(timeout=10)


def cli_baseline() -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "adapters.cli", "banks", "list"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - started


def measure(repeat: int) -> str:
    fake_port = free_port()
    fake = subprocess.Popen(
        [sys.executable, "-m", "fakes.slack", "serve", "--port", str(fake_port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(fake_port, fake)
        with tempfile.TemporaryDirectory(prefix="quizbot-bench-") as tmp:
            slack = [slack_ready(fake_port, Path(tmp)) for _ in range(repeat)]
        baseline = [cli_baseline() for _ in range(repeat)]
    finally:
        fake.terminate()
        fake.wait(timeout=10)
    rows = [
        ["`quizbot run slack --http` to port open", f"{statistics.median(slack):.2f}",
         f"{max(slack):.2f}"],
        ["`quizbot banks list` (start, load banks, exit)", f"{statistics.median(baseline):.2f}",
         f"{max(baseline):.2f}"],
    ]  # fmt: skip
    return (
        table(["what", "median s", "max s"], rows)
        + f"\n\n{repeat} starts each. Target: ready in ≤ 2 s."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    record("Start-up", measure(parser.parse_args().repeat))


if __name__ == "__main__":
    main()
