"""The one way quizbot starts background tasks: a Supervisor owns them.

The event loop keeps only weak references to tasks, and nobody awaits a background
task's result, so without an owner a task can vanish mid-work and its exception is
reported late or never. A supervisor keeps each task until it ends, logs a failure once
with its traceback, counts it, and cancels and awaits whatever still runs on close.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from bot.operations import metrics

log = logging.getLogger(__name__)


class Supervisor:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        """Run ``work`` in the background. ``name`` says what kind of task it is (it
        labels the failure metric, so it names a kind, not an instance)."""
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._ended)
        return task

    def _ended(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        failure = task.exception()
        if failure is not None:
            log.error("background task %s failed", task.get_name(), exc_info=failure)
            metrics.TASK_FAILURES.labels(task=task.get_name()).inc()

    @property
    def running(self) -> int:
        return len(self._tasks)

    async def close(self) -> None:
        """Cancel every task still running and wait until each has ended."""
        while self._tasks:
            tasks = list(self._tasks)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
