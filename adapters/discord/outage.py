"""Gateway outages, logged the way an operator wants them: discord.py logs an ERROR with a
traceback on every reconnect attempt (8 in 11 s while the gateway is unreachable). The
client logs one WARNING per outage and one INFO when it is back; this filter turns the
library's per-attempt records into DEBUG lines without a traceback, and notices when the
very first connection fails, which is a setup problem rather than an outage."""

from __future__ import annotations

import asyncio
import logging

from bot.operations import metrics

LIBRARY_LOGGER = "discord.client"
_RECONNECT = "Attempting a reconnect"


class OutageFilter(logging.Filter):
    def __init__(self) -> None:
        super().__init__()
        self.connected_once = False
        self.first_failure: asyncio.Future[BaseException] | None = None

    def arm(self) -> asyncio.Future[BaseException]:
        """A future set with the error when the first connection fails (call in the loop)."""
        self.first_failure = asyncio.get_running_loop().create_future()
        return self.first_failure

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(_RECONNECT):
            return True
        reason = record.exc_info[1] if record.exc_info else None
        metrics.GATEWAY_RECONNECTS.inc()
        first = self.first_failure
        if not self.connected_once and first is not None and not first.done():
            first.set_result(reason or ConnectionError("no connection"))
        record.msg = f"{record.msg} (%s)"
        record.args = (*(record.args if isinstance(record.args, tuple) else ()), reason)
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        record.exc_info = record.exc_text = None
        return logging.getLogger(LIBRARY_LOGGER).isEnabledFor(logging.DEBUG)
