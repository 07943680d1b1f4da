"""The real ``quizbot run discord`` process against the standalone fake Discord: clicks
move the metrics, /healthz says the platform is connected, and turns 503 when the
database stops taking writes."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from fakes.discord import FakeDiscord
from fakes.ports import free_port

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
STARTUP = 30.0  # seconds to wait for a process to serve; a bound, not a measurement


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Processes started by the test, ended (by their own id) after it."""
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def immutable() -> Iterator[list[Path]]:
    """Files made read-only even for root (chattr +i), made writable again after."""
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed")
    paths: list[Path] = []
    yield paths
    for path in paths:
        subprocess.run(["chattr", "-i", str(path)], check=False)


async def until_served(
    session: aiohttp.ClientSession, url: str, process: subprocess.Popen[bytes]
) -> None:
    async with asyncio.timeout(STARTUP):
        while True:
            assert process.poll() is None, f"{process.args} exited with {process.returncode}"
            try:
                async with session.get(url) as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)


def metric(text: str, name: str, **labels: str) -> float:
    """A sample's value in the Prometheus text (0 when absent)."""
    for line in text.splitlines():
        series, _, value = line.rpartition(" ")
        named = series.startswith(name + "{") or series == name
        if named and all(f'{k}="{v}"' in series for k, v in labels.items()):
            return float(value)
    return 0.0


async def test_the_bot_process_reports_metrics_and_health(
    tmp_path: Path, processes: list[subprocess.Popen[bytes]], immutable: list[Path]
) -> None:
    fake_port, ops_port = free_port(), free_port()
    fake_url, ops = f"http://127.0.0.1:{fake_port}", f"http://127.0.0.1:{ops_port}"
    db = tmp_path / "quiz.db"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": REPO}
    processes.append(
        subprocess.Popen(
            [sys.executable, "-m", "fakes.discord", "--port", str(fake_port)],
            **quiet,  # type: ignore[call-overload]
        )
    )
    # The environment the fake prints for the bot, for this port.
    probe = FakeDiscord()
    probe.url = fake_url
    environ = {**os.environ, **probe.environ(), "QUIZBOT_DB": str(db)}
    async with aiohttp.ClientSession() as session:
        await until_served(session, f"{fake_url}/_test/state", processes[0])
        options = ["--metrics-port", str(ops_port), "--db", str(db)]
        processes.append(
            subprocess.Popen(
                [sys.executable, "-m", "adapters.cli", "run", "discord", *options],
                env=environ,
                **quiet,  # type: ignore[call-overload]
            )
        )
        await until_served(session, f"{ops}/healthz", processes[1])
        async with session.get(f"{ops}/healthz") as response:
            assert (await response.json())["discord"] == "ok"

        async def interact(spec: dict[str, Any]) -> dict[str, Any]:
            async with session.post(f"{fake_url}/_test/interact", json=spec) as response:
                assert response.status == 200, await response.text()
                return dict(await response.json())

        quiz = await interact({"kind": "slash", "name": "quiz", "options": {"topic": "offloading"}})
        message = quiz["message"]
        for _ in range(3):  # answer, next, answer
            button = message["components"][0]["components"][0]
            clicked = await interact(
                {"kind": "click", "message_id": message["id"], "custom_id": button["custom_id"]}
            )
            message = clicked["message"]
        async with session.get(f"{ops}/metrics") as response:
            text = await response.text()
        assert metric(text, "quizbot_answers_recorded_total", mode="quiz") == 2
        assert metric(text, "quizbot_interactions_total", platform="discord") > 0

        # Not the -shm file: SQLite maps it into memory, and writes there would fault.
        for path in (db, db.with_name(db.name + "-wal")):
            if subprocess.run(["chattr", "+i", str(path)], check=False).returncode != 0:
                pytest.skip("this filesystem cannot make files immutable")
            immutable.append(path)
        async with session.get(f"{ops}/healthz") as response:
            assert response.status == 503
            state = await response.json()
        assert state["database"].startswith("not writable")
        assert state["discord"] == "ok"
