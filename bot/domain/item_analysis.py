"""Item analysis in the manner of Moodle's quiz statistics, from first tries (a player's
first answer ever to a question): how hard a question is, how sure that figure is, and
whether it separates those who know the topic from those who do not.

- **Facility**: the share of first tries that were right, with its 95 % Wilson score
  interval (sound at small samples and near 0 % or 100 %, where the normal one is not).
- **Discrimination**: the corrected item–rest point-biserial correlation. A player's
  *rest score* is their share right over their other first tries in the same topic (the
  question itself left out, so it cannot correlate with itself). Players in a quiz bot
  answer different subsets, so only those with at least ``MIN_OTHERS`` other first tries
  in the topic count, and the figure needs ``MIN_DISCRIMINATED`` of them.

The flags (each with its minimum sample):

- ``too_hard`` / ``too_easy``: at least ``MIN_ANSWERS`` first tries and facility under
  30 % or over 95 %. The editorial target is about 70 % (Water Cooler Trivia's); 0 %
  and 100 % teach nothing.
- ``negative_discrimination``: those who know the topic get it wrong more often than
  those who do not: most often a wrong key or an ambiguous text.
- ``low_discrimination``: under 0.15 — it does not tell who knows the topic (Moodle
  reads under 0.2 as weak; the bar is lower here because a team's rest scores rest on
  few questions each).
- ``unpicked_choice``: at least ``MIN_ANSWERS`` answers and a choice nobody picked: a
  distractor that fools no one.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence

MIN_ANSWERS = 20
MIN_OTHERS = 4
MIN_DISCRIMINATED = 20
TOO_HARD, TOO_EASY = 0.30, 0.95
LOW_DISCRIMINATION = 0.15
Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval


def wilson(right: int, tries: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of ``right`` out of ``tries``; None of no tries."""
    if tries <= 0:
        return None
    share = right / tries
    middle = share + z * z / (2 * tries)
    half = z * math.sqrt(share * (1 - share) / tries + z * z / (4 * tries * tries))
    scale = 1 + z * z / tries
    return max(0.0, (middle - half) / scale), min(1.0, (middle + half) / scale)


def point_biserial(pairs: Sequence[tuple[bool, float]]) -> float | None:
    """Pearson's correlation of right (1) or wrong (0) with a score; None when either
    side does not vary (everyone right, or every score the same)."""
    if len(pairs) < 2:
        return None
    right = [float(r) for r, _ in pairs]
    scores = [s for _, s in pairs]
    try:
        return statistics.correlation(right, scores)
    except statistics.StatisticsError:
        return None


def discrimination(
    item: Mapping[str, bool], topic: Mapping[str, Sequence[int]]
) -> tuple[float | None, int]:
    """(the corrected item–rest point-biserial, how many players it rests on) for one
    question: ``item`` maps each player to whether their first try was right; ``topic``
    each player to (first tries, right) over all questions of the question's topic,
    this one included."""
    pairs = []
    for player, right in item.items():
        tries, rights = topic[player]
        others = tries - 1
        if others >= MIN_OTHERS:
            pairs.append((right, (rights - int(right)) / others))
    if len(pairs) < MIN_DISCRIMINATED:
        return None, len(pairs)
    return point_biserial(pairs), len(pairs)


def flags(
    tries: int, right: int, picks: Sequence[int], discriminates: float | None = None
) -> tuple[str, ...]:
    """What is wrong with a question by the rules above, in that order."""
    found = []
    if tries >= MIN_ANSWERS:
        facility = right / tries
        if facility < TOO_HARD:
            found.append("too_hard")
        elif facility > TOO_EASY:
            found.append("too_easy")
    if discriminates is not None:
        if discriminates < 0:
            found.append("negative_discrimination")
        elif discriminates < LOW_DISCRIMINATION:
            found.append("low_discrimination")
    if sum(picks) >= MIN_ANSWERS and 0 in picks:
        found.append("unpicked_choice")
    return tuple(found)
