"""The scheduler: a loop that does whatever channel play has due. Each kind of work is
a Duty that a service declares (what is due now, and doing one item of it); the loop
isolates each kind and each item, so one bad channel never stops the bot."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from bot.operations import metrics
from bot.operations.leadership import Leadership, SoleProcess
from bot.persistence import StoreError

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class Duty(Generic[T]):
    """One kind of scheduled work, e.g. posting the daily questions that are due."""

    what: str  # names it in the logs and the metric, e.g. "the daily question"
    due: Callable[[], Awaitable[Iterable[T]]]  # the items due now (one per channel)
    do: Callable[[T], Awaitable[bool]]  # do one item; True when it did something


class Scheduler:
    def __init__(self, duties: Sequence[Duty[Any]]):
        self._duties = tuple(duties)

    async def serve(self, interval: float = 1.0, leadership: Leadership | None = None) -> None:
        """Run until cancelled: everything due is done within ``interval``, by the one
        process that leads (with several processes on one database)."""
        leadership = leadership or SoleProcess()
        try:
            while True:
                leads = await leadership.lead()
                metrics.SCHEDULER_LEADER.set(leads)
                if leads:
                    await self.tick()
                metrics.SCHEDULER_PASSES.inc()
                await asyncio.sleep(interval)
        finally:
            metrics.SCHEDULER_LEADER.set(0)
            await leadership.close()

    async def tick(self) -> None:
        """Do whatever is due now, each kind of work in turn."""
        for duty in self._duties:
            await self.run(duty)

    async def run(self, duty: Duty[T]) -> int:
        """Do one kind of work now; returns how many items it did. A platform or
        database fault postpones it to the next tick; a bug (logged with its traceback
        and counted) stops neither the other items nor the scheduler."""
        try:
            items = list(await duty.due())
        except StoreError as exc:
            log.warning("scheduled work postponed: %s", exc)
            return 0
        except Exception:
            log.exception("scheduled work failed: %s", duty.what)
            metrics.SCHEDULER_ERRORS.labels(work=duty.what).inc()
            return 0
        done = 0
        for item in items:
            try:
                done += await duty.do(item)
            except StoreError as exc:
                log.warning("%s postponed: %s", duty.what, exc)
            except Exception:
                log.exception("%s failed for %s", duty.what, getattr(item, "scope", item))
                metrics.SCHEDULER_ERRORS.labels(work=duty.what).inc()
        return done
