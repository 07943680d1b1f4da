"""The Supervisor, the one way background tasks are started: a failure is logged once
with its traceback and counted, and closing cancels and awaits what still runs."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.operations import metrics
from bot.operations.tasks import Supervisor


async def test_a_failed_task_is_logged_once_and_counted(caplog: pytest.LogCaptureFixture) -> None:
    tasks = Supervisor()
    before = metrics.sample("quizbot_background_task_failures_total", task="doomed")

    async def doomed() -> None:
        raise RuntimeError("boom")

    task = tasks.spawn(doomed(), "doomed")
    await asyncio.wait({task})
    await asyncio.sleep(0)  # the done callback runs on the next loop step
    errors = [r for r in caplog.get_records("call") if r.levelno == logging.ERROR]
    assert [r.getMessage() for r in errors] == ["background task doomed failed"]
    assert errors[0].exc_info is not None  # with its traceback
    assert metrics.sample("quizbot_background_task_failures_total", task="doomed") == before + 1
    assert tasks.running == 0
    await tasks.close()
    caplog.clear()  # that ERROR record was the point of this test


async def test_close_cancels_and_awaits_what_still_runs() -> None:
    tasks = Supervisor()
    ended: list[str] = []

    async def waits(name: str) -> None:
        try:
            await asyncio.sleep(3600)
        finally:
            ended.append(name)

    for name in ("a", "b"):
        tasks.spawn(waits(name), "waiting")
    await asyncio.sleep(0)
    assert tasks.running == 2  # referenced until they end
    await tasks.close()
    assert sorted(ended) == ["a", "b"] and tasks.running == 0
