"""Work whose cost grows with what a stranger sent (checking an uploaded bank, a stored
bank's parse) runs here: in a child process, one job at a time, killed at a time limit,
with an address-space limit and the lowest CPU priority, while the event loop goes on
serving every other workspace. A process rather than a thread: parsing holds the GIL, so
a thread would still slow the loop, and a thread cannot be stopped when a file turns out
to be slow.

Each job gets a fresh interpreter (``offload_worker``), about 0.3 s to start: uploads are
rare, and unlike multiprocessing's fork server it never imports the bot's main module
(the whole bot) again in the child."""

from __future__ import annotations

import asyncio
import logging
import pickle
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from bot.operations import metrics

T = TypeVar("T")
log = logging.getLogger(__name__)

SECONDS = 15.0  # a legitimate 2 MB bank is checked in about 1 s on a 2-core machine
MEMORY_BYTES = 1 << 30  # address space of one child: ~10× what a 2 MB bank needs
WAITING = 8  # jobs queued behind the running one; more are refused, not queued
# Inputs up to this size (characters or bytes) take a few ms: less than a child's start,
# so they run on the loop (a bank of a few dozen questions).
INLINE_SIZE = 16_000
WORKER = "bot.operations.offload_worker"

_JOBS = metrics.OFFLOADED_JOBS


class Refused(Exception):
    """The job did not run to its end; ``reason`` is ``busy``, ``slow`` or ``crashed``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Offload:
    def __init__(
        self, seconds: float = SECONDS, memory: int = MEMORY_BYTES, waiting: int = WAITING
    ) -> None:
        self.seconds, self.memory, self.waiting = seconds, memory, waiting
        self._slot = asyncio.Semaphore(1)  # one child at a time: the other core is the loop's
        self._queued = 0

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        """``job(*args)``'s result; ``job`` is a module-level function (it is named to
        the child, not copied) and its arguments and result are pickled. Raises
        ``Refused`` when the queue is full, the time limit passes or the child dies."""
        if self._queued >= self.waiting + 1:
            _JOBS.labels("busy").inc()
            raise Refused("busy")
        self._queued += 1
        try:
            async with self._slot:
                result: T = await self._in_child(job, args)
        except Refused as refused:
            _JOBS.labels(refused.reason).inc()
            raise
        finally:
            self._queued -= 1
        _JOBS.labels("done").inc()
        return result

    async def run_sized(self, size: int, job: Callable[..., T], *args: Any) -> T:
        """``run``, or ``job(*args)`` here when its input's ``size`` makes it cheap."""
        return job(*args) if size <= INLINE_SIZE else await self.run(job, *args)

    async def _in_child(self, job: Callable[..., T], args: Sequence[Any]) -> T:
        task = pickle.dumps((job, args, self.memory), protocol=pickle.HIGHEST_PROTOCOL)
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", WORKER,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        )  # fmt: skip
        try:
            sent = pickle.dumps((sys.path, task), protocol=pickle.HIGHEST_PROTOCOL)
            out, _ = await asyncio.wait_for(child.communicate(sent), self.seconds)
        except TimeoutError:
            raise Refused("slow") from None
        finally:
            if child.returncode is None:
                child.kill()
                await child.wait()
        if not out:
            raise Refused("crashed")
        done, value = pickle.loads(out)
        if not done:
            name = getattr(job, "__name__", job)
            if value:
                log.error("an offloaded %s failed:\n%s", name, value)
            else:
                log.warning("an offloaded %s went past %d MB of memory", name, self.memory >> 20)
            raise Refused("crashed")
        return value
