"""``quizbot run slack --http`` as a separate process, against a FakeSlack in the test."""

from __future__ import annotations

import asyncio
import os
import signal
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from fakes.ports import free_port
from fakes.slack import FakeSlack
from fakes.slack.workers import QUIZBOT, REPO, healthy

from ..support.environment import FIXTURES
from .support import SECRET


def counter(metrics: str, name: str, **labels: str) -> float:
    """The sum of a metric's samples whose labels include ``labels``, in a /metrics text
    (read with the Prometheus client's own parser)."""
    return sum(
        sample.value
        for family in text_string_to_metric_families(metrics)
        for sample in family.samples
        if sample.name == name and labels.items() <= sample.labels.items()
    )


async def metric(port: int, name: str) -> float:
    """A metric of the worker's /metrics on ``port``."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as resp,
    ):
        return counter(await resp.text(), name)


async def leader_gauge(port: int) -> float:
    return await metric(port, "quizbot_scheduler_leader")


async def scheduler_passes(port: int, passes: int) -> None:
    """Returns once the worker's scheduler has made ``passes`` more passes: what it would
    do by then, it has done (no sleep guessing how long that takes on a loaded machine)."""
    name = "quizbot_scheduler_passes_total"
    target = await metric(port, name) + passes
    for _ in range(600):
        if await metric(port, name) >= target:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the scheduler on metrics port {port} made no {passes} passes in 30 s")


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
            # The tiny bank's questions are all choices: a click on "A" always answers.
            "QUIZBOT_BANKS": str(FIXTURES),
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
