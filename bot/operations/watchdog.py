"""The event loop's watchdog. Everything the bot serves shares one event loop, so work
that holds it (parsing a large file, a slow synchronous call) delays every workspace's
clicks. A coroutine marks the time each time the loop runs it; a thread watches the mark.
When the loop has been held past a threshold, the thread notes what the loop's thread is
running, and when the loop comes back it logs one WARNING naming that code and how long
the stall lasted; the longest stall is a metric."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
import traceback
from types import FrameType

from bot.operations import metrics

log = logging.getLogger(__name__)

BEAT = 0.05  # seconds between the loop's marks: a stall is measured to about this
THRESHOLD = 0.25  # seconds the loop may be held before it is reported
OUR_CODE = ("/bot/", "/adapters/")  # the frame named is the innermost one of these


class LoopWatchdog:
    def __init__(self, threshold: float = THRESHOLD, beat: float = BEAT) -> None:
        self.threshold, self.beat = threshold, beat
        self._mark = time.monotonic()
        # What the loop's thread ran when a stall was noticed, with the mark it outlasted:
        # a note the loop has already moved past is never told of the next stall.
        self._culprit: tuple[float, str] | None = None
        self._stop = threading.Event()
        self.longest = 0.0

    async def serve(self) -> None:
        """Mark the loop's turns until cancelled, with the watching thread alongside."""
        loop_thread = threading.get_ident()
        watcher = threading.Thread(
            target=self._watch, args=(loop_thread,), name="loop-watchdog", daemon=True
        )
        self._mark = time.monotonic()
        watcher.start()
        try:
            while True:
                await asyncio.sleep(self.beat)
                self._turned(time.monotonic())
        finally:
            self._stop.set()

    def _turned(self, now: float) -> None:
        stall, since = now - self._mark - self.beat, self._mark  # the sleep is no stall
        self._mark = now
        if stall > self.longest:
            self.longest = stall
            metrics.LOOP_LONGEST_STALL.set(stall)
        noted = self._culprit
        if stall >= self.threshold:
            named = noted[1] if noted is not None and noted[0] == since else None
            log.warning(
                "the event loop was held for %.2f s (every chat waited): %s",
                stall,
                named or "code that returned before it could be named",
            )

    def _watch(self, loop_thread: int) -> None:
        while not self._stop.wait(self.beat):
            mark = self._mark
            noted = self._culprit
            if time.monotonic() - mark > self.threshold and (noted is None or noted[0] != mark):
                frame = sys._current_frames().get(loop_thread)
                if frame is not None:
                    self._culprit = (mark, describe(frame))


def describe(frame: FrameType) -> str:
    """The innermost of our own frames (else the innermost), as ``file:line in name``."""
    stack = traceback.extract_stack(frame)
    ours = [f for f in stack if any(part in f.filename for part in OUR_CODE)]
    chosen = (ours or stack)[-1]
    return f"{chosen.filename}:{chosen.lineno} in {chosen.name}"
