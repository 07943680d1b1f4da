"""Estimate questions: answered with a number and a unit, as engineers type them
("512 KiB", "0.5 MiB", "5.2e5 B", "1.5 ms", "312 TFLOPS", "7B"), and judged by how far
they are from the truth as a factor (``scoring.estimate_points`` turns that into points).

Units are pint's: a registry of only the units these questions use — bytes and bits with
SI and binary prefixes as written (KB is 1000 bytes, KiB 1024), seconds, FLOP, FLOP/s,
bytes/s, counts and percentages — so no unit from physics can be mistaken for one of
them (pint's default registry reads "Gb" as gilberts and bytes as dimensionless)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Literal

import pint

ZERO_AT = 10.0  # an estimate this many times off, either way, scores nothing (see scoring)
Dimension = Literal["memory", "time", "compute", "compute rate", "bandwidth", "count", "ratio"]

_DEFINITIONS = (
    "kilo- = 1e3 = k- = K-",
    "mega- = 1e6 = M-",
    "giga- = 1e9 = G-",
    "tera- = 1e12 = T-",
    "peta- = 1e15 = P-",
    "exa- = 1e18 = E-",
    "milli- = 1e-3 = m-",
    "micro- = 1e-6 = u- = µ- = μ-",
    "nano- = 1e-9 = n-",
    "kibi- = 2**10 = Ki-",
    "mebi- = 2**20 = Mi-",
    "gibi- = 2**30 = Gi-",
    "tebi- = 2**40 = Ti-",
    "pebi- = 2**50 = Pi-",
    "second = [time] = s = sec",
    "minute = 60 * second = min",
    "hour = 60 * minute = h = hr",
    "day = 24 * hour = d",
    "byte = [memory] = B",
    "bit = byte / 8 = b",
    "FLOP = [compute] = flop",
    "FLOPS = FLOP / second",
    "percent = 0.01 = %",
    "token = []",
    "parameter = token = param",
)
_REGISTRY: pint.UnitRegistry = pint.UnitRegistry(None, case_sensitive=True)
for _definition in _DEFINITIONS:
    _REGISTRY.define(_definition)

# Each dimension: pint's dimensionality and the unit its values are kept in.
BASE_UNITS: dict[Dimension, str] = {
    "memory": "B",
    "time": "s",
    "compute": "FLOP",
    "compute rate": "FLOP/s",
    "bandwidth": "B/s",
    "count": "",
    "ratio": "%",
}
# A bare magnitude after a count ("7B", "512k", "1.2 trillion"): counts have no unit
# whose prefix it could be, and an engineer writes a model's size this way.
_MAGNITUDES = {
    "k": 1e3, "K": 1e3, "thousand": 1e3,
    "M": 1e6, "mn": 1e6, "million": 1e6,
    "B": 1e9, "b": 1e9, "G": 1e9, "bn": 1e9, "billion": 1e9,
    "T": 1e12, "trillion": 1e12,
}  # fmt: skip
# "512k" to a memory question: 512 kB, the letter taken as a prefix of the question's unit.
_SI_LETTERS = frozenset("kKMGTP")
_NUMBER = re.compile(
    r"^\s*(?P<number>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d*)?|\.\d+)"
    r"(?:\s*(?:[eE](?P<exp>[-+]?\d+)|(?:[x×*]\s*10\s*(?:\^|\*\*)\s*(?P<pow>[-+]?\d+))))?"
    r"\s*(?P<unit>.*?)\s*$"
)


class Unreadable(ValueError):
    """Why a typed estimate cannot be read: ``reason`` is ``number``, ``unit``,
    ``dimension`` or ``zero``; ``found`` the dimension it has (for ``dimension``)."""

    def __init__(self, reason: str, found: str = "") -> None:
        super().__init__(reason)
        self.reason, self.found = reason, found


@dataclass(frozen=True)
class Quantity:
    value: float  # in the dimension's base unit: B, s, FLOP, FLOP/s, B/s, a count, %
    dimension: Dimension


def dimension_of(units: pint.Unit) -> Dimension | None:
    for dimension, base in BASE_UNITS.items():
        if dimension in ("count", "ratio"):
            continue
        if units.dimensionality == _REGISTRY.parse_units(base).dimensionality:
            return dimension
    return "count" if units.dimensionless else None


def read(text: str, expected: Dimension | None = None) -> Quantity:
    """A typed estimate in its dimension's base unit. ``expected``: the question's
    dimension, which decides what a bare number or magnitude means ("7B" is seven
    billion for a count, seven bytes for memory; "45" is 45 % for a ratio). Raises
    ``Unreadable``."""
    found = _NUMBER.match(text.replace("\u2212", "-"))
    if found is None:
        raise Unreadable("number")
    number = float(found["number"].replace(",", ""))
    power = found["exp"] or found["pow"]
    if power is not None:
        number *= 10.0 ** int(power)
    unit = _plain_unit(found["unit"])
    if expected == "count":  # "7B", "1.2 trillion tokens"
        magnitude, _, rest = unit.partition(" ")
        if magnitude in _MAGNITUDES:
            number, unit = number * _MAGNITUDES[magnitude], rest.strip()
    elif expected is not None and expected not in ("time", "ratio") and unit in _SI_LETTERS:
        unit += BASE_UNITS[expected].split("/")[0] + ("/s" if "/" in BASE_UNITS[expected] else "")
    quantity = _in_units(number, unit, expected)
    if quantity.value <= 0 or not math.isfinite(quantity.value):
        raise Unreadable("zero")
    return quantity


def _plain_unit(unit: str) -> str:
    """A unit as the registry reads it: "GPU-hours" and "GPU-h" (compute budgets) are
    hours of time."""
    return re.sub(r"^GPU[- ]?(?=[a-z])", "", unit)


def _in_units(number: float, unit: str, expected: Dimension | None) -> Quantity:
    if not unit:  # in the question's own unit
        return Quantity(number, expected or "count")
    try:
        units = _REGISTRY.parse_units(unit)
    except Exception:  # pint's parser raises undefined-unit and tokenizer errors alike
        raise Unreadable("unit") from None
    dimension = "ratio" if units == _REGISTRY.percent else dimension_of(units)
    if dimension is None or (expected is not None and dimension != expected):
        raise Unreadable("dimension", dimension or "")
    converted = (number * units).to(BASE_UNITS[dimension] or "dimensionless").magnitude
    return Quantity(float(converted), dimension)


@dataclass(frozen=True)
class Tolerance:
    """How close is right: within ``factor`` of the truth either way, on a log scale.
    Written "10%" (a factor of 1.1) or "2x"."""

    factor: float
    written: str = field(compare=False)  # "100%" and "2x" are the same tolerance

    @classmethod
    def parse(cls, text: str) -> Tolerance:
        found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(%|x|×)\s*", text)
        if found is None:
            raise ValueError("a tolerance is a percentage (10%) or a factor (2x)")
        amount = float(found[1])
        factor = 1 + amount / 100 if found[2] == "%" else amount
        if not 1 < factor < ZERO_AT:
            raise ValueError(f"a tolerance is above 0% and below {ZERO_AT:g}x")
        return cls(factor, f"{found[1]}{'%' if found[2] == '%' else '×'}")


def off_by(answer: float, truth: float) -> float:
    """How many times off an answer is, either way (1: exact)."""
    return max(answer / truth, truth / answer)


def within(off: float, factor: float) -> bool:
    """Whether an estimate ``off`` times from the truth is inside a tolerance of ``factor``
    (a rounding error at the edge is inside)."""
    return off <= factor * (1 + 1e-12)


@dataclass(frozen=True)
class Estimate:
    """An estimate question's answer, as its bank writes it ("512 KiB", "2x")."""

    truth: Quantity
    # The true value as the bank writes it, shown to players ("3.0 GiB" and "3 GiB" are
    # the same estimate).
    written: str = field(compare=False)
    unit: str  # its unit as written ("KiB"; "" for a count): the terminal's example
    tolerance: Tolerance

    @classmethod
    def parse(cls, answer: str, tolerance: str) -> Estimate:
        """Raises ``Unreadable`` (the answer) or ``ValueError`` (the tolerance)."""
        truth = read(answer)
        found = _NUMBER.match(answer)
        unit = _plain_unit(found["unit"]) if found else ""
        return cls(truth, answer.strip(), unit, Tolerance.parse(tolerance))

    def off(self, answer: float) -> float:
        return off_by(answer, self.truth.value)

    def inside(self, answer: float) -> bool:
        return within(self.off(answer), self.tolerance.factor)

    def shown(self, value: float) -> str:
        """A value of this question's dimension in its unit as written: "524 KiB"."""
        if not self.unit:
            return _number(value)
        if self.truth.dimension == "ratio":
            return f"{_number(value)} %"
        converted = (value * _REGISTRY.parse_units(BASE_UNITS[self.truth.dimension])).to(self.unit)
        return f"{_number(float(converted.magnitude))} {self.unit}"


def _number(value: float) -> str:
    """Three significant digits, powers of ten for the very large and very small."""
    if value != 0 and not 1e-3 <= abs(value) < 1e6:
        exponent = math.floor(math.log10(abs(value)))
        mantissa = value / 10**exponent
        return f"{mantissa:.3g}×10^{exponent}"
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
