"""Fact tests for banks/quantization.yaml.

Every number that a compute question of the bank relies on is recomputed here from the
formulas of the primary sources, and the literal number that the right choice states is
asserted in the English, Hindi and Bengali text of that choice:

- absmax int8 quantization, X_i8 = round(127 / max|X| * X): arXiv 2208.07339, Section 2.1;
- affine (zero-point) quantization, S = (max - min) / (qmax - qmin), Z = qmin - round(min / S),
  q = round(x / S + Z): Hugging Face Transformers quantization concept guide; PyTorch
  torch.quantize_per_tensor (zero_point maps to float zero);
- int4 weights packed 2 per byte with one scale per group: Transformers concept guide
  (int4 packing, per-group granularity).

Standard library and PyYAML only. Exact arithmetic uses fractions.Fraction.
"""

from __future__ import annotations

import math
from fractions import Fraction

from .support import NUMBER, FactBank

BANK = FactBank("quantization", NUMBER)


def round_half_even(x: Fraction) -> int:
    """Round to nearest, ties to even (std::nearby_int / torch.round / Python round)."""
    return round(x)


def test_absmax_int8_rounding() -> None:
    xs = [Fraction("1.2"), Fraction("-0.5"), Fraction("3.175"), Fraction("0.07")]
    absmax = max(abs(x) for x in xs)
    scale = Fraction(127) / absmax
    assert scale == 40
    x = Fraction("0.07")
    assert x * scale == Fraction("2.8")
    code = round_half_even(x * scale)
    dequant = Fraction(code) / scale
    assert code == 3 and dequant == Fraction("0.075")
    assert abs(dequant - x) == Fraction("0.005")
    BANK.assert_right_states("quant-absmax-int8-rounding", "3", "0.075")
    # Distractors: truncation gives 2 -> 0.05; using 255 instead of 127 gives code 6.
    trunc = math.floor(x * scale)
    assert trunc == 2 and Fraction(trunc) / scale == Fraction("0.05")
    BANK.assert_some_wrong_states("quant-absmax-int8-rounding", "0.05")
    wrong_scale = Fraction(255) / absmax
    wrong_code = round_half_even(x * wrong_scale)
    assert wrong_code == 6 and round(float(wrong_code / wrong_scale), 3) == 0.075
    BANK.assert_some_wrong_states("quant-absmax-int8-rounding", "6")


def test_zero_point_uint8() -> None:
    lo, hi = Fraction(-1), Fraction(3)
    qmin, qmax = 0, 255
    scale = (hi - lo) / (qmax - qmin)
    assert scale == Fraction(4, 255)
    assert round(float(scale), 4) == 0.0157
    assert -lo / scale == Fraction("63.75")
    zero_point = qmin - round_half_even(lo / scale)
    assert zero_point == 64

    def quantize(x: Fraction) -> int:
        return min(qmax, max(qmin, round_half_even(x / scale) + zero_point))

    assert quantize(Fraction(0)) == 64
    assert quantize(lo) == 0 and quantize(hi) == 255
    BANK.assert_right_states("quant-zero-point-uint8", "64")
    # Distractors: truncating 63.75 gives 63; symmetric thinking gives 0; range midpoint gives 128.
    assert math.floor(-lo / scale) == 63
    for literal in ("63", "0", "128"):
        BANK.assert_some_wrong_states("quant-zero-point-uint8", literal)
        BANK.assert_right_omits("quant-zero-point-uint8", literal)


def test_per_tensor_outlier_levels() -> None:
    # Absmax scale set by an outlier 50x larger than the typical weights: the typical weights
    # (|w| <= max / 50) map to codes in [-round(127/50), round(127/50)].
    top_code = round_half_even(Fraction(127, 50))
    assert top_code == 3
    levels = 2 * top_code + 1
    assert levels == 7
    BANK.assert_field_states("quant-per-tensor-outlier", "explanation", "3", "7", "127")


def test_int4_group128_memory() -> None:
    params = 7 * 10**9
    group = 128
    bits_per_weight = Fraction(4) + Fraction(16, group)  # int4 code + one FP16 scale per group
    assert bits_per_weight == Fraction("4.125")
    total_gb = params * bits_per_weight / 8 / 10**9
    assert total_gb == Fraction("3.609375")
    assert f"{float(total_gb):.2f}" == "3.61"
    BANK.assert_right_states("quant-int4-group128-memory", "3.61")
    # Distractors: no scales; FP32 scales; each 4-bit code stored in a whole byte.
    no_scales = params * Fraction(4) / 8 / 10**9
    fp32_scales = params * (Fraction(4) + Fraction(32, group)) / 8 / 10**9
    byte_per_code = params * (Fraction(8) + Fraction(16, group)) / 8 / 10**9
    expected = {"3.50": no_scales, "3.72": fp32_scales, "7.11": byte_per_code}
    for literal, value in expected.items():
        assert f"{float(value):.2f}" == literal, (literal, float(value))
        BANK.assert_some_wrong_states("quant-int4-group128-memory", literal)
    BANK.assert_field_states("quant-int4-group128-memory", "explanation", "4.125", "4.25", "512")
