"""How fast the unauthenticated install page may be asked for. Each visit to
/slack/install stores a one-time state until it is used or expires; without a limit
anyone could fill the store with them. A real install is one visit by one admin, so the
limits are far above what people do and far below what a script does: 10 a minute per
address and 600 a minute in all (the states alive at once stay in the thousands)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from cachetools import TTLCache

PER_ADDRESS = 10  # visits a minute from one address, all at once if need be
IN_ALL = 600  # visits a minute from everyone
WINDOW = 60.0
ADDRESSES = 100_000  # addresses remembered; the oldest are forgotten first


@dataclass
class _Bucket:
    tokens: float
    at: float


class Throttle:
    """Token buckets, refilled continuously: one per address and one for everyone."""

    def __init__(
        self,
        per_address: int = PER_ADDRESS,
        in_all: int = IN_ALL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._per_address, self._in_all, self._clock = per_address, in_all, clock
        self._addresses: TTLCache[str, _Bucket] = TTLCache(ADDRESSES, WINDOW, timer=clock)
        self._everyone = _Bucket(float(in_all), clock())

    def allow(self, address: str) -> bool:
        now = self._clock()
        mine = self._addresses.get(address) or _Bucket(float(self._per_address), now)
        self._addresses[address] = mine
        if not (_take(mine, self._per_address, now, dry=True) and
                _take(self._everyone, self._in_all, now, dry=True)):  # fmt: skip
            return False
        _take(mine, self._per_address, now)
        _take(self._everyone, self._in_all, now)
        return True


def _take(bucket: _Bucket, size: int, now: float, dry: bool = False) -> bool:
    """Refill ``bucket`` (``size`` a window) to ``now``; take one token unless ``dry``."""
    bucket.tokens = min(float(size), bucket.tokens + (now - bucket.at) * size / WINDOW)
    bucket.at = now
    if bucket.tokens < 1:
        return False
    if not dry:
        bucket.tokens -= 1
    return True
