"""The offload runs jobs in a child process: the result comes back, a job past its time
limit is killed, one past its memory limit or with a bug is reported, and a full queue
refuses at once instead of growing."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from pathlib import Path

import pytest

from bot.operations import metrics
from bot.operations.offload import Offload, Refused


def where_and_what(value: int) -> tuple[int, int]:
    return os.getpid(), value * 2


def sleep_after_writing_pid(path: str, seconds: float) -> None:
    Path(path).write_text(str(os.getpid()))
    time.sleep(seconds)


def allocate(megabytes: int) -> int:
    return len(bytearray(megabytes << 20))


def broken() -> None:
    raise ValueError("a bug in the job")


async def test_a_job_runs_in_another_process_and_returns_its_result() -> None:
    pid, doubled = await Offload().run(where_and_what, 21)
    assert doubled == 42 and pid != os.getpid()


async def test_a_job_past_its_time_limit_is_killed(tmp_path: Path) -> None:
    before = metrics.sample("quizbot_offloaded_jobs_total", outcome="slow")
    started = tmp_path / "pid"
    with pytest.raises(Refused) as refused:
        await Offload(seconds=1.0).run(sleep_after_writing_pid, str(started), 60.0)
    assert refused.value.reason == "slow"
    pid = int(started.read_text())
    with pytest.raises(ProcessLookupError):  # gone, not left sleeping
        os.kill(pid, 0)
    assert metrics.sample("quizbot_offloaded_jobs_total", outcome="slow") == before + 1


async def test_a_job_past_its_memory_limit_or_with_a_bug_is_reported(
    caplog: pytest.LogCaptureFixture,
) -> None:
    offload = Offload(memory=512 << 20)
    with pytest.raises(Refused) as refused:
        await offload.run(allocate, 1024)
    assert refused.value.reason == "crashed"
    assert await offload.run(allocate, 16) == 16 << 20  # the next job runs as usual
    assert "allocate went past 512 MB of memory" in caplog.text
    with pytest.raises(Refused):
        await offload.run(broken)
    [bug] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert "ValueError: a bug in the job" in bug.getMessage()
    caplog.clear()  # the one ERROR this test expects


async def test_a_full_queue_refuses_at_once(tmp_path: Path) -> None:
    offload = Offload(seconds=30.0, waiting=1)
    running = [
        asyncio.ensure_future(offload.run(sleep_after_writing_pid, str(tmp_path / f"{n}"), 0.5))
        for n in range(2)  # one runs, one waits
    ]
    await asyncio.sleep(0)
    with pytest.raises(Refused) as refused:
        await offload.run(where_and_what, 1)
    assert refused.value.reason == "busy"
    assert await asyncio.gather(*running) == [None, None]
    assert (await offload.run(where_and_what, 1))[1] == 2
