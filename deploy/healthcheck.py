"""The image's HEALTHCHECK: GET /healthz on QUIZBOT_METRICS_PORT; exit 0 when it answers
200, else 1 (Docker reads only these two), with one line for `docker inspect` either way.

The standard library only, and no quizbot import: Docker runs this every 30 seconds beside
the bot, so it starts quickly and no problem of the bot's own can break it.
"""

from __future__ import annotations

import http.client
import os
import sys
from collections.abc import Mapping

VARIABLE = "QUIZBOT_METRICS_PORT"
TIMEOUT = 4.0  # seconds: inside the HEALTHCHECK's --timeout=5s, so a slow bot is reported here


def check(environ: Mapping[str, str]) -> tuple[bool, str]:
    """Healthy or not, and the line that says why."""
    raw = environ.get(VARIABLE, "")
    if not raw:
        # Unset or empty is what quizbot itself reads as "metrics off": it serves no
        # /healthz, so there is nothing to probe. The process being alive is all that is
        # left to check, and Docker already knows it (the bot is the container's main
        # process: when it ends, the container stops), so the check passes rather than mark
        # a working bot unhealthy.
        return True, f"{VARIABLE} is unset or empty: metrics are off, no /healthz to probe"
    try:
        port = int(raw)  # as quizbot reads it
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        return False, f"{VARIABLE} must be a port number, not '{raw}'"
    # With --workers N this is worker 1's port (the others serve the next ones).
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        connection.request("GET", "/healthz")
        response = connection.getresponse()
        body = response.read(1000).decode("utf-8", "replace").strip()
    except (OSError, http.client.HTTPException) as exc:  # refused, timed out, cut off
        return False, f"127.0.0.1:{port}/healthz: {str(exc) or type(exc).__name__}"
    finally:
        connection.close()
    return response.status == 200, f"127.0.0.1:{port}/healthz: {response.status} {body}"


def main() -> int:
    healthy, line = check(os.environ)
    print(line, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
