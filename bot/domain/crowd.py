"""How a channel estimated one quantity, for a daily estimate's reveal: the estimates on
a log axis, the crowd's median against the truth and who came closest.

Everything is a ratio to the truth (2: twice it, 0.5: half), so the axis is the same
for bytes and seconds. Bins are half a decade wide (a factor of √10 ≈ 3.2) with the
truth in the middle of the central one (from ÷1.78 to ×1.78); beyond three bins either
way (÷17.8, ×17.8) they are open."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

OUTERMOST = 3  # bins either side of the truth's; the last ones are open-ended


@dataclass(frozen=True)
class Bin:
    """Estimates from ``low`` to ``high`` times the truth (None: open that way)."""

    low: float | None
    high: float | None
    count: int

    @property
    def truth(self) -> bool:
        """Whether this is the truth's bin."""
        return self.low is not None and self.high is not None and self.low < 1 < self.high


@dataclass(frozen=True)
class Crowd:
    bins: tuple[Bin, ...]  # from the lowest answer's bin to the highest's, the truth's among them
    median: float  # the crowd's median estimate / the truth (on the log axis)
    closest: tuple[int, ...]  # the indexes of the estimates nearest the truth, either way


def _bin_of(ratio: float) -> int:
    return max(-OUTERMOST, min(OUTERMOST, round(2 * math.log10(ratio))))


def _edge(k: float) -> float:
    return float(10 ** (k / 2))


def crowd(ratios: Sequence[float]) -> Crowd | None:
    """The crowd of these estimates (each one's ratio to the truth); None for none."""
    if not ratios:
        return None
    logs = [math.log(r) for r in ratios]
    counts = Counter(_bin_of(r) for r in ratios)
    first, last = min(min(counts), 0), max(max(counts), 0)
    bins = tuple(
        Bin(
            None if k == -OUTERMOST else _edge(k - 0.5),
            None if k == OUTERMOST else _edge(k + 0.5),
            counts.get(k, 0),
        )
        for k in range(first, last + 1)
    )
    nearest = min(abs(v) for v in logs)
    closest = tuple(i for i, v in enumerate(logs) if abs(v) <= nearest + 1e-12)
    return Crowd(bins, math.exp(statistics.median(logs)), closest)
