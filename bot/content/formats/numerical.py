"""Numerical questions of the import formats (GIFT ``{#…}``, Moodle XML ``numerical``,
CSV's value columns) as quizbot's estimates, and back.

The formats judge an answer by an absolute margin (``512 ± 64``) or a range
(``500..600``); quizbot judges by how many times off an answer is, either way. A margin
becomes the relative tolerance it is at the value (64 at 512 is 12.5 %); a range becomes
its geometric middle and the factor to either end, so that a range written from an
estimate comes back as that estimate. A margin of 0 (only the exact value) becomes 1 %,
the closest quizbot asks for. The formats hold no unit (Moodle's ``<units>`` aside): the
unit named at the end of the prompt ("…, in KiB?") is taken when it is one quizbot reads,
else the answer is a plain number."""

from __future__ import annotations

import math
import re

from bot.content.estimates import ZERO_AT, Estimate, Unreadable, read

_PROMPT_UNIT = re.compile(r"\bin\s+([A-Za-zµμ%/]+)\s*[?.:)]?\s*$")
# What an export adds to a prompt that does not end naming its unit: " (KiB)".
_ADDED_UNIT = re.compile(r"\s\(([A-Za-zµμ%/]+)\)$")
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
MARGIN = re.compile(rf"^\s*({_NUMBER})\s*(?::\s*({_NUMBER}))?\s*$")
RANGE = re.compile(rf"^\s*({_NUMBER})\s*\.\.\s*({_NUMBER})\s*$")
SMALLEST = 1.0  # percent: what an exact-only answer becomes


class NotAnEstimate(ValueError):
    """A numerical answer quizbot cannot judge by closeness (zero, negative, too wide)."""


def unit_in(prompt: str) -> str:
    """The unit a prompt ends by naming ("…, in GB/s?"), if quizbot reads it."""
    found = _PROMPT_UNIT.search(prompt)
    return found[1] if found and _reads(found[1]) else ""


def _reads(unit: str) -> bool:
    try:
        read(f"1 {unit}")
    except Unreadable:
        return False
    return True


def with_unit(prompt: str, unit: str) -> str:
    """A prompt that says its unit, as written, where the import finds it: as it is when
    it ends naming it, else with " (KiB)" added."""
    if not unit or unit_in(prompt) == unit:
        return prompt
    return f"{prompt} ({unit})"


def prompt_and_unit(prompt: str) -> tuple[str, str]:
    """A prompt and the unit it names: an added " (KiB)" is taken off again."""
    added = _ADDED_UNIT.search(prompt)
    if added and _reads(added[1]):
        return prompt[: added.start()], added[1]
    return prompt, unit_in(prompt)


def _written(value: float, unit: str) -> str:
    return f"{value:.6g} {unit}".strip()


def from_margin(value: float, margin: float, unit: str) -> tuple[str, str]:
    """(answer, tolerance) of ``value ± margin`` in ``unit``."""
    if value <= 0 or margin < 0:
        raise NotAnEstimate("the value must be above 0 and its margin not below 0")
    percent = max(100 * margin / value, SMALLEST)
    if 1 + percent / 100 >= ZERO_AT:
        raise NotAnEstimate(f"a margin of {margin:g} at {value:g} is too wide to score")
    return _written(value, unit), f"{percent:.6g}%"


def from_range(low: float, high: float, unit: str) -> tuple[str, str]:
    """(answer, tolerance) of the range ``low..high`` in ``unit``."""
    if not 0 < low <= high:
        raise NotAnEstimate("a range must be above 0, its low end first")
    factor = math.sqrt(high / low)
    if factor >= ZERO_AT:
        raise NotAnEstimate(f"the range {low:g}..{high:g} is too wide to score")
    middle = math.sqrt(low * high)
    if factor == 1:
        return from_margin(middle, 0, unit)
    return _written(middle, unit), f"{factor:.6g}x"


def in_unit(estimate: Estimate) -> float:
    """The true value in the unit the question is written in."""
    found = re.match(rf"\s*({_NUMBER})", estimate.written)
    return float(found[1]) if found else estimate.truth.value


def as_margin(estimate: Estimate) -> tuple[float, float] | None:
    """(value, margin) when the tolerance is relative; None for a factor (a range)."""
    if not estimate.tolerance.written.endswith("%"):
        return None
    value = in_unit(estimate)
    return value, value * (estimate.tolerance.factor - 1)


def as_range(estimate: Estimate) -> tuple[float, float]:
    value, factor = in_unit(estimate), estimate.tolerance.factor
    return value / factor, value * factor


def number(value: float) -> str:
    """A number as the formats write it (no exponent when it is short)."""
    return f"{value:.10g}"
