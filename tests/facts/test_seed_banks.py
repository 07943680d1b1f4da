"""The numbers the two seed banks' explanations state, computed from the formats and
link rates themselves (IEEE 754 binary16 through struct's 'e' format)."""

from __future__ import annotations

import math

from .support import FactBank, fp16

MIXED_PRECISION = FactBank("mixed-precision")
OFFLOADING = FactBank("offloading")


def _explanation(bank: FactBank, qid: str) -> str:
    return bank.question(qid)["explanation"]["en"]


def test_an_update_below_half_an_fp16_step_is_rounded_away() -> None:
    # Relative to |w|, half the gap to the next FP16 value is 2^-11 at a power of two
    # (mantissa 1.0) and just over 2^-12 as the mantissa nears 2.
    for weight in (1.0, 1.5, fp16(1.999)):  # FP16 values themselves
        step = 2.0 ** (math.frexp(weight)[1] - 1 - 10)  # the FP16 gap at this exponent
        assert fp16(weight + 0.49 * step) == fp16(weight)  # lost
        assert fp16(weight + 0.51 * step) != fp16(weight)  # kept
        assert 2**-12 <= (step / 2) / weight <= 2**-11
    assert "between 2^-12 and 2^-11 of the weight's magnitude" in _explanation(
        MIXED_PRECISION, "mp-master-weights"
    )


def test_fp16_underflows_gradually_from_2_to_the_minus_14_to_2_to_the_minus_24() -> None:
    assert fp16(2.0**-14) == 2.0**-14 and fp16(2.0**-24) == 2.0**-24  # normal, subnormal
    assert fp16(2.0**-25 * 1.01) == 2.0**-24 and fp16(2.0**-25 * 0.99) == 0.0
    assert f"{2.0**-14:.1e}" == "6.1e-05" and f"{2.0**-24:.0e}" == "6e-08"
    text = _explanation(MIXED_PRECISION, "mp-loss-scaling")
    assert "2^-14 (about 6.1e-5)" in text and "2^-24 (about 6e-8)" in text


def test_adam_keeps_12_of_16_bytes_per_parameter() -> None:
    fp32, fp16 = 4, 2
    assert 3 * fp32 == 12 and 3 * fp32 + fp16 + fp16 == 16
    assert "4 + 4 + 4 = 12 bytes" in _explanation(OFFLOADING, "offloading-adam-bytes-per-param")


def test_pcie_4_link_rates() -> None:
    per_lane = 16e9 * 128 / 130 / 8  # 16 GT/s with 128b/130b encoding, in bytes/s
    assert round(16 * per_lane / 1e9, 1) == 31.5  # x16: "about 32 GB/s" each way
    assert 4 * per_lane / 1e9 < 8  # x4: "below 8 GB/s"
    text = _explanation(OFFLOADING, "offloading-performance-cost")
    assert "about 32 GB/s in each direction" in text and "capped below 8 GB/s" in text
