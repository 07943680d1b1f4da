"""Fact tests for banks/peft.yaml.

Every number that a compute question of the bank relies on is recomputed here from the
formulas of the primary sources, and the literal number that the right choice states is
asserted in the English, Hindi and Bengali text of that choice:

- LoRA, arXiv 2106.09685: B is d x r and A is r x k (Section 4.1), so one adapted matrix adds
  r(d + k) parameters; for square d_model matrices |Theta| = 2 x L_LoRA x d_model x r (Section 5.1);
- Hugging Face PEFT LoraConfig: scaling lora_alpha / r, or lora_alpha / sqrt(r) with
  use_rslora=True (developer_guides/lora, Rank-stabilized LoRA);
- QLoRA, arXiv 2305.14314, Section 3: one FP32 absmax constant per 64 weights costs 32/64 bits per
  parameter; double quantization (8-bit constants, second-level blocksize 256) costs
  8/64 + 32/(64 * 256) bits per parameter.

Standard library and PyYAML only. Exact arithmetic uses fractions.Fraction.
"""

from __future__ import annotations

import math
from fractions import Fraction

from .support import GROUPED_NUMBER, FactBank

# Numbers as written, keeping thousands separators (4,194,304) and decimals (0.127).
BANK = FactBank("peft", GROUPED_NUMBER)


def test_lora_param_count() -> None:
    r, d, k = 8, 4096, 4096
    layers, matrices_per_layer = 32, 2  # W_q and W_v
    per_matrix = r * (d + k)  # B: d x r, A: r x k
    assert per_matrix == 65_536
    total = per_matrix * matrices_per_layer * layers
    # The paper's formula for square d_model matrices: 2 x L_LoRA x d_model x r.
    assert total == 2 * (matrices_per_layer * layers) * d * r == 4_194_304
    BANK.assert_right_states("peft-lora-param-count", f"{total:,}")
    # Distractors: counting one factor only; a single matrix; full fine-tuning of W_q and W_v.
    one_factor = r * d * matrices_per_layer * layers
    full = d * k * matrices_per_layer * layers
    assert one_factor == 2_097_152 and full == 1_073_741_824
    for value in (one_factor, per_matrix, full):
        BANK.assert_some_wrong_states("peft-lora-param-count", f"{value:,}")
    assert full // total == 256
    BANK.assert_field_states("peft-lora-param-count", "explanation", "256", "4,194,304")


def test_rslora_scaling() -> None:
    r, alpha = 16, 32
    rslora = Fraction(alpha) / Fraction(math.isqrt(r))
    assert math.isqrt(r) ** 2 == r
    assert rslora == 8
    standard = Fraction(alpha, r)
    assert standard == 2
    BANK.assert_right_states("peft-rslora-scaling", "8")
    for literal in ("2", "32", "0.5"):
        BANK.assert_some_wrong_states("peft-rslora-scaling", literal)
    assert Fraction(r, alpha) == Fraction("0.5")


def test_double_quant_bits() -> None:
    block, second_block = 64, 256
    without_dq = Fraction(32, block)
    with_dq = Fraction(8, block) + Fraction(32, block * second_block)
    assert without_dq == Fraction("0.5")
    assert f"{float(with_dq):.3f}" == "0.127"
    assert f"{float(without_dq - with_dq):.3f}" == "0.373"
    BANK.assert_field_states("peft-qlora-double-quant", "prompt", "64", "0.5", "0.127")
    BANK.assert_field_states("peft-qlora-double-quant", "explanation", "0.127", "0.373", "256")


def test_qlora_65b_base_memory() -> None:
    params = 65 * 10**9
    bits = Fraction(4) + Fraction("0.127")
    base_gb = params * bits / 8 / 10**9
    assert f"{float(base_gb):.1f}" == "33.5"
    # The exact double-quantized constant cost gives the same rounded figure.
    exact_bits = Fraction(4) + Fraction(8, 64) + Fraction(32, 64 * 256)
    assert f"{float(params * exact_bits / 8 / 10**9):.1f}" == "33.5"
    BANK.assert_right_states("peft-qlora-65b-memory", "33.5")
    # Distractors: no constants; FP32 constants without double quantization; 8-bit weights.
    expected = {
        "32.5": params * Fraction(4) / 8 / 10**9,
        "36.6": params * (Fraction(4) + Fraction(32, 64)) / 8 / 10**9,
        "65.0": params * Fraction(8) / 8 / 10**9,
    }
    for literal, value in expected.items():
        assert f"{float(value):.1f}" == literal, (literal, float(value))
        BANK.assert_some_wrong_states("peft-qlora-65b-memory", literal)
    headroom = 48 - base_gb
    assert f"{float(headroom):.1f}" == "14.5"
    BANK.assert_field_states("peft-qlora-65b-memory", "explanation", "14.5", "4.5", "33.5")
