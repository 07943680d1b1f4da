"""Fact tests for banks/numerical-stability.yaml.

Every number that a compute question's right choice states is computed here from first
principles (IEEE binary16 through ``struct``'s ``'e'`` format, FP8 by decoding every bit
pattern from its layout), and the test asserts that the literal appears in the right choice
in every language. Stdlib + PyYAML (and the bot's estimate reader) only.

Estimate answers (kind: estimate) are recomputed the same way (BF16 by PyTorch's
round_to_nearest_even) and read with ``bot.content.estimates.read``.
"""

from __future__ import annotations

import math
import struct

import pytest

from bot.content.estimates import Dimension

from .support import LANGS, FactBank, fp16

BANK = FactBank("numerical-stability")


def fits(struct_format: str, x: float) -> bool:
    """Whether x is finite in a struct format: "<e" binary16, "<f" binary32."""
    try:
        struct.pack(struct_format, x)
    except OverflowError:
        return False
    return True


def fp8_values(
    exp_bits: int, man_bits: int, *, ieee: bool, nan_only_all_ones: bool = False
) -> list[float]:
    """Decode every positive finite FP8 bit pattern of a 1-sign/E/M format.

    ieee=True: the all-ones exponent is reserved for inf/NaN (E5M2, or a hypothetical IEEE E4M3).
    nan_only_all_ones=True: no infinities, and only the all-ones exponent with all-ones
    mantissa is NaN (E4M3 as defined in arXiv 2209.05433, Table 1).
    """
    bias = 2 ** (exp_bits - 1) - 1
    values = []
    for e in range(2**exp_bits):
        for m in range(2**man_bits):
            if ieee and e == 2**exp_bits - 1:
                continue  # inf / NaN
            if nan_only_all_ones and e == 2**exp_bits - 1 and m == 2**man_bits - 1:
                continue  # the single NaN pattern S.1111.111
            if e == 0:
                v = (m / 2**man_bits) * 2.0 ** (1 - bias)  # subnormal
            else:
                v = (1 + m / 2**man_bits) * 2.0 ** (e - bias)
            values.append(v)
    return values


# --- FP16 overflow of exp ---------------------------------------------------------------


def test_fp16_exp_overflow_threshold() -> None:
    qid = "ns-fp16-exp-overflow"
    # IEEE binary16: bias 15, 10 mantissa bits, largest finite exponent field 30.
    fp16_max = (2 - 2**-10) * 2.0 ** (30 - 15)
    assert fp16_max == 65504.0
    assert struct.unpack("<e", bytes.fromhex("ff7b"))[0] == 65504.0  # 0x7BFF
    assert "65504" in BANK.question(qid)["prompt"]["en"]
    threshold = math.log(fp16_max)
    assert round(threshold, 2) == 11.09
    assert fits("<e", math.exp(11.08)) and not fits("<e", math.exp(11.10))
    BANK.assert_right_states(qid, f"{threshold:.2f}")
    # Distractors are the FP32 limit and the base-10 log, both wrong for FP16.
    fp32_max = (2 - 2**-23) * 2.0**127
    assert fits("<f", fp32_max) and not fits("<f", fp32_max * 1.0001)
    assert f"{math.log(fp32_max):.2f}" == "88.72"
    assert f"{math.log10(fp16_max):.2f}" == "4.82"
    for literal in ("88.72", "4.82"):
        assert any(literal in c["en"] for c in BANK.wrong(qid))


# --- log-sum-exp -------------------------------------------------------------------------


def test_logsumexp_of_two_equal_large_logits() -> None:
    qid = "ns-logsumexp-stable"
    x = [1000.0, 1000.0]
    with pytest.raises(OverflowError):
        math.exp(x[0])  # naive exp overflows even in float64, so certainly in FP32
    m = max(x)
    stable = m + math.log(sum(math.exp(v - m) for v in x))
    assert stable == pytest.approx(1000 + math.log(2))
    assert f"{stable:.2f}" == "1000.69"
    BANK.assert_right_states(qid, f"{stable:.2f}")
    # base-10 log distractor
    assert f"{1000 + math.log10(2):.2f}" == "1000.30"
    assert any("1000.30" in c["en"] for c in BANK.wrong(qid))


# --- FP8 formats -------------------------------------------------------------------------


def test_e4m3_max_from_bit_layout() -> None:
    qid = "ns-fp8-e4m3-max"
    e4m3 = fp8_values(4, 3, ieee=False, nan_only_all_ones=True)
    assert max(e4m3) == 448.0 == 1.75 * 2**8
    BANK.assert_right_states(qid, "448")
    BANK.assert_right_states(qid, "1.75 × 2^8")
    # IEEE-style E4M3 (all-ones exponent reserved) would stop at 240.
    ieee_e4m3 = fp8_values(4, 3, ieee=True)
    assert max(ieee_e4m3) == 240.0 == 1.875 * 2**7
    # E5M2 maximum, the other encoding.
    e5m2 = fp8_values(5, 2, ieee=True)
    assert max(e5m2) == 57344.0 == 1.75 * 2**15
    for literal in ("240", "480", "57344"):
        assert any(literal in c["en"] for c in BANK.wrong(qid))
    assert 1.875 * 2**8 == 480.0  # uses the NaN mantissa pattern: not representable
    assert 480.0 not in e4m3


def test_e5m2_smallest_subnormal() -> None:
    qid = "ns-e5m2-min-subnormal"
    e5m2 = fp8_values(5, 2, ieee=True)
    smallest = min(v for v in e5m2 if v > 0)
    assert smallest == 2.0**-16 == 0.25 * 2.0 ** (1 - 15)
    assert f"{smallest:.1e}" == "1.5e-05"
    BANK.assert_right_states(qid, "2^-16")
    BANK.assert_right_states(qid, "1.5e-5")
    # distractors: smallest normal E5M2, smallest FP16 subnormal, smallest E4M3 subnormal
    assert min(v for v in e5m2 if v >= 2.0**-14) == 2.0**-14
    assert fp16(2.0**-24) == 2.0**-24 and fp16(2.0**-25) == 0.0
    e4m3 = fp8_values(4, 3, ieee=False, nan_only_all_ones=True)
    assert min(v for v in e4m3 if v > 0) == 2.0**-9


# --- order of floating-point additions ---------------------------------------------------


def test_fp16_sum_depends_on_order() -> None:
    qid = "ns-reduction-order"
    assert fp16(2048 + 2) - 2048 == 2  # spacing near 2048
    assert fp16(2049.0) == 2048.0  # 2049 is a tie and rounds to even
    left_to_right = fp16(fp16(2048 + 1) + 1)
    ones_first = fp16(2048 + fp16(1 + 1))
    assert (left_to_right, ones_first) == (2048.0, 2050.0)
    for lang in LANGS:
        text = BANK.right(qid)[lang]
        assert text.index("2048") < text.index("2050"), (lang, text)
    assert BANK.right(qid)["en"] == "2048 and 2050"


# --- catastrophic cancellation ----------------------------------------------------------


def test_fp16_catastrophic_cancellation() -> None:
    qid = "ns-catastrophic-cancellation"
    x, y = fp16(1.001), fp16(1.0)
    assert x == 1 + 2**-10 == 1.0009765625
    diff = fp16(x - y)
    assert diff == x - y == 0.0009765625  # the subtraction itself is exact
    rel_err_result = (0.001 - diff) / 0.001
    assert f"{100 * rel_err_result:.1f}" == "2.3"
    rel_err_x = (1.001 - x) / 1.001
    assert f"{100 * rel_err_x:.3f}" == "0.002"
    BANK.assert_right_states(qid, "0.0009765625")
    BANK.assert_right_states(qid, "2.3%")
    # distractors: FP16(0.001) and 1 + 2^-9 - 1
    assert f"{fp16(0.001):.7f}" == "0.0010004"
    assert f"{2**-9:.7f}" == "0.0019531"
    for literal in ("0.0010004", "0.0019531"):
        assert any(literal in c["en"] for c in BANK.wrong(qid))


# --- Estimates ---------------------------------------------------------------------------------


def assert_estimate(qid: str, value: float, dimension: Dimension, rel: float = 0.01) -> None:
    BANK.assert_estimate(qid, value, dimension, rel)


def bf16(x: float) -> float:
    """Round to bfloat16 as PyTorch does: to float32, then round_to_nearest_even on the top 16
    bits (c10/util/BFloat16.h: rounding_bias = ((U32 >> 16) & 1) + 0x7FFF)."""
    (u32,) = struct.unpack("<I", struct.pack("<f", x))
    rounding_bias = ((u32 >> 16) & 1) + 0x7FFF
    top = (u32 + rounding_bias) >> 16
    return struct.unpack("<f", struct.pack("<I", (top << 16) & 0xFFFFFFFF))[0]


def test_estimate_fp8_scale() -> None:
    e5m2_max = max(fp8_values(5, 2, ieee=True))
    assert e5m2_max == 57344.0
    margin, amax = 0, 3.5  # DelayedScaling's default margin
    scale = e5m2_max / amax / 2**margin  # amax * scale = 2^-margin * FP8 max (TE recipe.h)
    assert scale == 16384 == 2**14
    assert e5m2_max / amax / 2**1 == scale / 2  # margin 1 halves it
    assert_estimate("ns-est-fp8-scale", scale, "count", rel=0)
    BANK.assert_field_states("ns-est-fp8-scale", "explanation", "16384", "2^14")


def test_estimate_bf16_count_stall() -> None:
    assert bf16(1 + 2**-7) == 1 + 2**-7 and bf16(1 + 2**-9) == 1  # 7 stored mantissa bits
    counter = 0.0
    for _ in range(1000):
        following = bf16(counter + 1.0)
        if following == counter:
            break
        counter = following
    assert counter == 256 == 2**8
    assert bf16(257.0) == 256 and bf16(258.0) == 258 and bf16(259.0) == 260  # ties to even
    assert_estimate("ns-est-bf16-count-stall", counter, "count", rel=0)
    BANK.assert_field_states("ns-est-bf16-count-stall", "explanation", "256", "257", "258")


def test_estimate_fp16_exp_underflow() -> None:
    smallest = struct.unpack("<e", bytes.fromhex("0100"))[0]  # binary16, mantissa 1, exponent 0
    assert smallest == 2.0**-24 == 2.0 ** (1 - 15 - 10)
    assert fp16(2.0**-25) == 0.0 and fp16(2.0**-25 * (1 + 2**-20)) == smallest  # the tie to even
    gap = 25 * math.log(2)
    assert f"{gap:.1f}" == "17.3"
    assert fp16(math.exp(-(gap - 1e-6))) == smallest and fp16(math.exp(-(gap + 1e-6))) == 0.0
    fp32_smallest = struct.unpack("<f", struct.pack("<I", 1))[0]
    assert fp32_smallest == 2.0**-149 and round(150 * math.log(2)) == 104
    assert_estimate("ns-est-fp16-exp-underflow", gap, "count")
    BANK.assert_field_states("ns-est-fp16-exp-underflow", "explanation", "17.3", "104")
