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

The estimate questions (kind: estimate) are recomputed from their sources and their `answer`,
read as the bot reads it (bot.content.estimates.read), must lie within the question's tolerance:

- QLoRA, arXiv 2305.14314, Section 2: LoRA weights at the common 0.2% of a 7B LLaMA take 26 MB;
- LoRA, arXiv 2106.09685, Section 4.2, footnote 5: 32.5 tokens/s per V100 for full fine-tuning
  against 43.1 for LoRA on GPT-3 175B (the paper's "25% speedup"); footnote 4 and Section 7.1:
  a r = 4 W_q/W_v checkpoint is about 35 MB against 350 GB, 100 adapters 354 GB against 35 TB;
- GPT-3, arXiv 2005.14165, Table 2.1: 96 layers, d_model 12288.

Standard library and PyYAML only, plus the bot's own estimate reader. Exact arithmetic uses
fractions.Fraction.
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


# --- Estimates ---------------------------------------------------------------------------


assert_estimate = BANK.assert_estimate


def test_estimate_adapter_weights_7b() -> None:
    qid = "peft-est-adapter-weights-7b"
    adapter_params = Fraction("0.002") * 7 * 10**9
    assert adapter_params == 14 * 10**6
    adapter_bytes = adapter_params * 2  # 16-bit weights
    assert adapter_bytes == 28 * 10**6
    assert_estimate(qid, float(adapter_bytes), "memory")
    # The paper's 26 MB counts LLaMA 7B's 6.7B parameters; it is inside the tolerance too.
    assert f"{float(Fraction('0.002') * Fraction('6.7e9') * 2) / 1e6:.1f}" == "26.8"
    assert_estimate(qid, 26e6, "memory")
    BANK.assert_field_states(qid, "explanation", "28", "26", "567", "5,048")


def test_estimate_lora_time_saving() -> None:
    qid = "peft-est-lora-time-saving"
    full_ft, lora = Fraction("32.5"), Fraction("43.1")  # tokens/s per V100 GPU
    saving = 1 - full_ft / lora  # time per token is the inverse of throughput
    assert f"{float(saving):.3f}" == "0.246"
    assert_estimate(qid, float(saving * 100), "ratio")
    assert round(float(saving * 100)) == 25  # the paper's "25% speedup"
    assert f"{float(lora / full_ft):.2f}" == "1.33"
    # Skipping weight gradients saves at most a third: backward = 2 x forward, half of it for
    # the weights (arXiv 2104.04473).
    forward = Fraction(1)
    backward = 2 * forward
    assert (backward / 2) / (forward + backward) == Fraction(1, 3) > saving
    BANK.assert_field_states(qid, "explanation", "24.6", "0.246", "1.33", "25")


def test_estimate_gpt3_adapter_checkpoint() -> None:
    qid = "peft-est-gpt3-adapter-checkpoint"
    layers, d_model, r = 96, 12288, 4
    matrices = 2 * layers  # W_q and W_v in every layer
    per_matrix = r * (d_model + d_model)  # B: d x r, A: r x d
    assert per_matrix == 98_304
    params = per_matrix * matrices
    assert params == 2 * matrices * d_model * r == 18_874_368  # |Theta| = 2 x L x d_model x r
    checkpoint = params * 2  # FP16
    assert f"{checkpoint / 1e6:.1f}" == "37.7"
    assert_estimate(qid, checkpoint, "memory")
    # The paper's rounded 35 MB is within the tolerance, and about 10,000x below 350 GB.
    assert_estimate(qid, 35e6, "memory")
    assert round(350e9 / 35e6) == 10_000
    # 100 adapters beside one base copy: 350 GB + 100 x 35 MB, against 100 full copies.
    assert 350e9 + 100 * 35e6 == 353.5e9 and 100 * 350e9 == 35e12
    BANK.assert_field_states(
        qid, "explanation", "98,304", "192", "18,874,368", "37.7", "354", "10,000"
    )
