"""The event loop's watchdog: a loop held by one piece of work is one WARNING naming that
code and how long it held the loop, and the longest stall is a metric."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import pytest

from bot.operations import metrics
from bot.operations.watchdog import LoopWatchdog


def hold_the_loop(seconds: float) -> None:
    time.sleep(seconds)  # as a large file parsed on the event loop would


async def test_a_held_loop_is_one_warning_naming_the_code(caplog: pytest.LogCaptureFixture) -> None:
    watchdog = LoopWatchdog(threshold=0.2, beat=0.02)
    watching = asyncio.create_task(watchdog.serve())
    await asyncio.sleep(0.1)  # running, with nothing held: nothing to say
    hold_the_loop(0.6)
    await asyncio.sleep(0.1)
    watching.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await watching
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith("the event loop was held for 0.")
    line = hold_the_loop.__code__.co_firstlineno + 1  # its time.sleep
    assert warnings[0].endswith(f"tests/test_watchdog.py:{line} in hold_the_loop")
    assert 0.5 < watchdog.longest < 5
    assert metrics.sample("quizbot_event_loop_longest_stall_seconds") >= watchdog.longest


async def test_a_loop_that_keeps_turning_says_nothing(caplog: pytest.LogCaptureFixture) -> None:
    watchdog = LoopWatchdog(threshold=0.2, beat=0.02)
    watching = asyncio.create_task(watchdog.serve())
    for _ in range(10):
        hold_the_loop(0.01)  # short work between turns is what a loop is for
        await asyncio.sleep(0.02)
    watching.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await watching
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
