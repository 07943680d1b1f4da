"""``quizbot run slack --http`` as a child process against a FakeSlack: started, waited on
until every worker is healthy, stopped if it never gets there."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import aiohttp

from .server import FakeSlack

QUIZBOT = str(Path(sys.executable).with_name("quizbot"))
REPO = Path(__file__).resolve().parents[2]


async def healthy(
    port: int, timeout: float = 20, exited: asyncio.subprocess.Process | None = None
) -> None:
    """Waits for /healthz on ``port``; fails at once if ``exited`` ends meanwhile."""
    async with aiohttp.ClientSession() as session:
        for _ in range(int(timeout / 0.05)):
            assert exited is None or exited.returncode is None, f"exited {exited.returncode}"
            try:
                async with session.get(f"http://127.0.0.1:{port}/healthz") as resp:
                    if resp.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.05)
    raise AssertionError(f"no healthy worker on metrics port {port}")


async def start_workers(
    fake: FakeSlack,
    database: str,
    count: int,
    port: int,
    metrics: int,
    stderr: int = asyncio.subprocess.PIPE,
    *,
    secret: str,
) -> asyncio.subprocess.Process:
    """``quizbot run slack --http --workers count`` on ``database``, every worker healthy
    (worker k serves /metrics on ``metrics`` + k - 1)."""
    env = {
        **os.environ,
        "SLACK_API_URL": fake.api_url,
        "SLACK_BOT_TOKEN": "xoxb-process-test",
        "SLACK_SIGNING_SECRET": secret,
        "QUIZBOT_DB": database,
        "QUIZBOT_LOG_LEVEL": "WARNING",
    }
    parent = await asyncio.create_subprocess_exec(
        *(QUIZBOT, "run", "slack", "--http", "--workers", str(count), "--port", str(port)),
        *("--metrics-port", str(metrics)),
        env=env,
        cwd=REPO,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=stderr,
    )
    try:
        for worker in range(count):
            # A bound for a loaded machine, not a measurement: each worker imports and
            # loads the banks on its own.
            await healthy(metrics + worker, timeout=60, exited=parent)
    except BaseException as exc:
        # Nothing else will stop it: the caller never got the process to clean up.
        await _stop(parent)
        said = (await parent.stderr.read()).decode() if parent.stderr else ""
        if said and isinstance(exc, AssertionError):
            raise AssertionError(f"{exc}; the workers said:\n{said}") from exc
        raise
    return parent


async def _stop(process: asyncio.subprocess.Process, grace: float = 10) -> None:
    """SIGTERM (the parent passes it to its workers), then SIGKILL if it lingers."""
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), grace)
        except TimeoutError:
            process.kill()
            await process.wait()
