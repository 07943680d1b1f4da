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

The estimate questions (kind: estimate) are recomputed from their sources and their `answer`,
read as the bot reads it (bot.content.estimates.read), must lie within the question's tolerance:

- SmoothQuant, arXiv 2211.10438, Section 5.4 and Table 9: MT-NLG 530B in INT8 on 8 A100 80GB
  (527 GB measured) against FP16 on 16 (1040 GB);
- LLM.int8(), arXiv 2208.07339, Section 3.2: at most 7 outlier feature dimensions up to 13B
  parameters; OPT, arXiv 2205.01068, Table 1: OPT-13B has d_model 5120;
- AWQ, arXiv 2306.00978, Figure 3: W4A16 raises the arithmetic intensity of decoding 4x; A100
  datasheet: 312 TFLOPS dense FP16, 2039 GB/s on the 80GB SXM.

Standard library and PyYAML only, plus the bot's own estimate reader. Exact arithmetic uses
fractions.Fraction.
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


# --- Estimates ---------------------------------------------------------------------------


assert_estimate = BANK.assert_estimate


def test_estimate_mtnlg_int8_weights() -> None:
    qid = "quant-est-mtnlg-int8-weights"
    params = 530 * 10**9
    int8_bytes = params * 1
    fp16_bytes = params * 2
    assert (int8_bytes, fp16_bytes) == (530 * 10**9, 1060 * 10**9)
    assert_estimate(qid, int8_bytes, "memory")
    node = 8 * 80 * 10**9  # 8 x A100 80GB
    assert int8_bytes < node < fp16_bytes
    assert -(-fp16_bytes // (80 * 10**9)) == 14  # FP16 needs more than one 8-GPU node
    # Table 9 measures 527 GB on 8 GPUs (INT8) against 1040 GB on 16 (FP16), sequence length 128.
    assert_estimate(qid, 527e9, "memory")
    BANK.assert_field_states(qid, "explanation", "530", "1060", "640", "527", "1040", "16")


def test_estimate_llmint8_fp16_share() -> None:
    qid = "quant-est-llmint8-fp16-share"
    outlier_dims, hidden = 7, 5120  # |O| <= 7 up to 13B; OPT-13B d_model
    # Decomposition splits the inner dimension: the FP16 part does |O| of every h multiply-adds.
    share = Fraction(outlier_dims, hidden)
    assert f"{float(share * 100):.2f}" == "0.14"
    assert_estimate(qid, float(share * 100), "ratio")
    # The other 99.86% stays in int8, near the paper's "more than 99.9% of values" (|O| may be < 7).
    assert f"{float((1 - share) * 100):.2f}" == "99.86"
    BANK.assert_field_states(qid, "explanation", "7", "5120", "0.14", "0.1", "99.86", "99.9")


def test_estimate_w4a16_compute_bound_batch() -> None:
    qid = "quant-est-w4a16-compute-bound-batch"
    peak, bandwidth = 312 * 10**12, 2039 * 10**9  # A100 80GB SXM: dense FP16 FLOP/s, HBM B/s
    ridge = Fraction(peak, bandwidth)
    assert round(ridge) == 153
    # b tokens: 2b FLOPs per weight over 0.5 bytes (4-bit) is 4b FLOPs per byte.
    intensity_per_token = Fraction(2) / Fraction(1, 2)
    assert intensity_per_token == 4
    batch = ridge / intensity_per_token
    assert round(batch) == 38
    assert_estimate(qid, float(batch), "count")
    # FP16 weights (2 bytes) give intensity b: memory-bound up to b = ridge, 4x later (AWQ Fig. 3).
    assert ridge / (Fraction(2) / 2) == 4 * batch
    BANK.assert_field_states(qid, "explanation", "153", "38", "0.5", "2039")
