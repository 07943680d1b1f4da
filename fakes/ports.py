"""The one way to pick a port for a server started on a known port."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (bound, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def free_port_run(count: int) -> int:
    """The first of ``count`` consecutive free ports (workers serve /metrics on ``first + k``):
    each is checked, since the one after a free port may well be taken."""
    while True:
        first = free_port()
        if first + count <= 65536 and all(_free(first + k) for k in range(1, count)):
            return first


def _free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True
