"""``quizbot run slack --http`` as a separate process, against a FakeSlack in the test."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from .fake_slack import FakeSlack
from .support import SECRET

QUIZBOT = str(Path(sys.executable).with_name("quizbot"))
REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


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


async def leader_gauge(port: int) -> float:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as resp,
    ):
        text = await resp.text()
    return next(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "quizbot_scheduler_leader"
    )


async def start_workers(
    fake: FakeSlack,
    database: str,
    count: int,
    port: int,
    metrics: int,
    stderr: int = asyncio.subprocess.PIPE,
    secret: str = SECRET,
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
            await healthy(metrics + worker)
    except BaseException:
        # Nothing else will stop it: the caller never got the process to clean up.
        await stop(parent)
        raise
    return parent


async def stop(process: asyncio.subprocess.Process, grace: float = 10) -> None:
    """SIGTERM (the parent passes it to its workers), then SIGKILL if it lingers."""
    if process.returncode is None:
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), grace)
        except TimeoutError:
            process.kill()
            await process.wait()


@dataclass
class BotProcess:
    """One run of the bot; ``start`` again after ``kill`` restarts it on the same files."""

    fake: FakeSlack
    db: Path | str  # a SQLite file or a PostgreSQL URL
    port: int = field(default_factory=free_port)
    metrics_port: int = field(default_factory=free_port)
    logs: list[str] = field(default_factory=list)  # stderr of every run, in order
    admins: str = ""  # QUIZBOT_SLACK_ADMINS
    _process: asyncio.subprocess.Process | None = None

    @property
    def events_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/slack/events"

    def ops_url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.metrics_port}{path}"

    async def start(self) -> None:
        env = {
            **os.environ,
            "SLACK_API_URL": self.fake.api_url,
            "SLACK_BOT_TOKEN": "xoxb-process-test",
            "SLACK_SIGNING_SECRET": SECRET,
            "QUIZBOT_QUIZ_LENGTH": "2",
            "QUIZBOT_LOG_LEVEL": "WARNING",
            "QUIZBOT_SLACK_ADMINS": self.admins,
        }
        self._process = await asyncio.create_subprocess_exec(
            *(QUIZBOT, "run", "slack", "--http", "--port", str(self.port)),
            *("--metrics-port", str(self.metrics_port), "--db", str(self.db)),
            env=env,
            cwd=REPO,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await healthy(self.metrics_port, exited=self._process)
        except BaseException:
            await self.kill()  # a bot that failed to start must not outlive the test
            raise

    async def _stderr(self) -> str:
        assert self._process is not None and self._process.stderr is not None
        await self._process.wait()
        text = (await self._process.stderr.read()).decode()
        self.logs.append(text)
        return text

    @property
    def pid(self) -> int:
        assert self._process is not None
        return self._process.pid

    def kill_now(self) -> None:
        """SIGKILL at once, from a callback (say the fake's, mid-request)."""
        if self._process is not None and self._process.returncode is None:
            self._process.send_signal(signal.SIGKILL)

    async def kill(self) -> None:
        if self._process is None:
            return
        self.kill_now()
        await self._stderr()
        self._process = None

    def errors(self) -> list[str]:
        """ERROR lines and tracebacks the bot logged, over every run."""
        return [
            line
            for text in self.logs
            for line in text.splitlines()
            if " ERROR " in line or line.startswith("Traceback")
        ]
