"""Fact tests for banks/scaling-laws.yaml and its estimate drafts
(banks/scaling-laws.yaml): every number a compute question or an estimate relies
on is computed here, and the literal the right choice states is asserted in all three languages.

Inputs and their sources (see the bank's comments):
- C ≈ 6N FLOPs per training token (2N forward + 4N backward) and a forward pass of about 2N FLOPs
  per token (Kaplan et al., arXiv 2001.08361, Sec. 2.1; PaLM, arXiv 2204.02311, Appendix B).
- Chinchilla: 70B parameters on 1.4T tokens, Table 3's 1B → 20.2B tokens (arXiv 2203.15556).
- MT-NLG 530B: 65.43K tokens/s on 2240 A100 at 312 TFLOP/s; PaLM 540B: 238.3K tokens/s on 6144
  TPU v4 at 275 TFLOP/s, 45.7% MFU, 57.8% HFU, 75% of non-attention forward FLOPs recomputed,
  Table 22 (3.28 → 4.10 TFLOPs per token) (arXiv 2204.02311, Appendix B).
- LLaMA-13B: 13.0B parameters on 1.0T tokens; LLaMA-65B: 65.2B parameters, 1.4T tokens, 380
  tokens/sec/GPU on 2048 A100-80GB, about 21 days (arXiv 2302.13971, Table 2, Sec. 2.4).
- Llama 2: 2.0T tokens; 7B 184,320 and 70B 1,720,320 A100-80GB GPU-hours (arXiv 2307.09288,
  Table 2).
- Llama 3: 405B on 15.6T tokens with 3.8e25 FLOPs (arXiv 2407.21783, Sec. 1); Llama 3.1 8B on 15T+
  tokens (llama-models MODEL_CARD.md).
"""

from __future__ import annotations

import math
from fractions import Fraction

from .support import BANKS, FactBank
from .support import within as support_within

BANK = FactBank("scaling-laws")
DRAFTS = BANKS / "scaling-laws.yaml"  # its estimate questions

A100_PEAK = 312e12  # dense BF16/FP16 matmul FLOP/s (PaLM Appendix B; A100 datasheet)
A100_SPARSE_PEAK = 624e12  # the datasheet's figure with structured sparsity
HOUR = 3600
DAY = 86_400


def training_flops(params: float, tokens: float) -> float:
    """C ≈ 6·N·D: 2 FLOPs per parameter per token forward, 4 backward."""
    return 6 * params * tokens


def sci(x: float, digits: int = 1) -> str:
    """1.5e16 style, as the bank writes large numbers."""
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def pct(x: float, digits: int = 0) -> str:
    return f"{100 * x:.{digits}f}%"


def test_six_n_d_split() -> None:
    forward, backward = 2, 2 * 2  # the backward pass has two matmuls per forward matmul
    assert forward + backward == 6
    BANK.assert_right_states("sl-six-nd-origin", "2 FLOPs", "4")
    BANK.assert_field_states("sl-six-nd-origin", "explanation", "2N + 4N", "6N")


def test_llama_13b_training_flops() -> None:
    c = training_flops(13.0e9, 1.0e12)
    assert sci(c) == "7.8e22"
    # Distractors: forward only (2ND), each multiply-add counted twice (12ND), a lost factor 10.
    assert sci(c / 3) == "2.6e22"
    assert sci(2 * c) == "1.6e23"
    assert sci(c / 10) == "7.8e21"
    BANK.assert_right_states("sl-training-flops", "7.8e22")
    BANK.assert_no_wrong_states("sl-training-flops", "7.8e22", langs=("en",))
    for literal in ("2.6e22", "1.6e23", "7.8e21"):
        BANK.assert_some_wrong_states("sl-training-flops", literal)


def test_inference_flops_per_token() -> None:
    params = 70e9
    assert sci(2 * params) == "1.4e11"
    assert (sci(6 * params), sci(4 * params)) == ("4.2e11", "2.8e11")
    assert f"{params:.0e}".replace("+", "") == "7e10"
    BANK.assert_right_states("sl-inference-flops", "1.4e11")
    for literal in ("4.2e11", "7e10", "2.8e11"):
        BANK.assert_some_wrong_states("sl-inference-flops", literal)


def test_chinchilla_ratio() -> None:
    params, tokens = 70e9, 1.4e12
    assert Fraction(tokens / params).limit_denominator() == 20
    # Table 3: 20.2B tokens for 1B parameters is the same ratio; Gopher: 4× bigger, fewer tokens.
    assert round(20.2e9 / 1e9) == 20
    assert 280e9 / params == 4 and tokens / 300e9 > 4
    BANK.assert_right_states("sl-chinchilla-ratio", "70B", "1.4T", "20")


def test_mtnlg_mfu() -> None:
    tokens_per_s, params, gpus = 65.43e3, 530e9, 2240
    peak = gpus * A100_PEAK
    mfu = tokens_per_s * 6 * params / peak
    assert f"{mfu:.3f}" == "0.298" and pct(mfu) == "30%"
    assert math.floor(1000 * mfu) / 10 == 29.7  # the paper's 29.7%, truncated
    assert sci(tokens_per_s * 6 * params, 2) == "2.08e17" and sci(peak, 2) == "6.99e17"
    # Distractors: 2N, 4N and 8N FLOPs per token.
    assert [pct(mfu * k / 6) for k in (2, 4, 8)] == ["10%", "20%", "40%"]
    BANK.assert_right_states("sl-mfu-compute", "30%")
    BANK.assert_no_wrong_states("sl-mfu-compute", "30%")
    BANK.assert_field_states("sl-mfu-compute", "explanation", "0.298", "29.7%", "30.2%")


def test_llama2_7b_implied_mfu() -> None:
    work = training_flops(7e9, 2e12)
    gpu_hours = 184_320
    available = gpu_hours * HOUR * A100_PEAK
    assert sci(work) == "8.4e22" and sci(available, 2) == "2.07e23"
    mfu = work / available
    assert pct(mfu) == "41%"
    # Distractors: forward only, the sparsity peak, every multiply-add counted twice (12ND).
    assert pct(mfu / 3) == "14%"
    assert pct(work / (gpu_hours * HOUR * A100_SPARSE_PEAK)) == "20%"
    assert pct(2 * mfu) == "81%"
    BANK.assert_right_states("sl-gpu-hours-mfu", "41%")
    for literal in ("14%", "20%", "81%"):
        BANK.assert_some_wrong_states("sl-gpu-hours-mfu", literal)


def test_llama3_8b_tokens_per_parameter() -> None:
    ratio = 15e12 / 8e9
    assert ratio == 1875
    assert round(ratio / 20) == 94
    # Distractors: a factor 10 slipped either way.
    assert (round(ratio / 10), round(ratio / 10 / 20)) == (188, 9)
    assert (round(ratio * 10), round(ratio * 10 / 20)) == (18750, 938)
    assert round(ratio / 100) == 19
    BANK.assert_right_states("sl-llama3-8b-ratio", "1875", "94×")


def test_compute_optimal_size() -> None:
    budget, ratio = 1.2e24, 20
    params = math.sqrt(budget / (6 * ratio))
    assert math.isclose(params, 1e11) and math.isclose(ratio * params, 2e12)
    BANK.assert_right_states("sl-compute-optimal-size", "100B", "2T")
    # 447B on 447B and 20B on 10T spend the same budget at 1 and 500 tokens per parameter.
    same_budget = math.sqrt(budget / 6)
    assert round(same_budget / 1e9) == 447
    assert math.isclose(training_flops(20e9, 10e12), budget) and 10e12 / 20e9 == 500
    # 245B on 4.9T drops the factor 6 and needs about 6 times the budget.
    no_six = math.sqrt(budget / ratio)
    assert (round(no_six / 1e9), round(ratio * no_six / 1e12, 1)) == (245, 4.9)
    assert round(training_flops(no_six, ratio * no_six) / budget) == 6


def test_palm_mfu_and_hfu_from_remat() -> None:
    mfu = 238.3e3 * 6 * 540e9 / (275e12 * 6144)
    assert pct(mfu, 1) == "45.7%"
    hardware_per_token = 6 + Fraction(3, 4) * 2  # in units of N
    assert hardware_per_token == Fraction(15, 2)
    factor = hardware_per_token / 6
    assert factor == Fraction(5, 4) and round(4.10 / 3.28, 2) == 1.25  # Table 22
    assert pct(0.457 * float(factor)) == "57%"
    # Distractors: full forward recomputation (8N), unchanged, the correction upside down.
    assert pct(0.457 * 8 / 6) == "61%"
    assert pct(0.457) == "46%"
    assert pct(0.457 * 0.75) == "34%"
    BANK.assert_right_states("sl-hfu-remat", "57%")
    BANK.assert_field_states("sl-hfu-remat", "explanation", "7.5N", "1.25", "57.8%")


def test_inference_matches_training() -> None:
    params, tokens = 70e9, 1.4e12
    generated = training_flops(params, tokens) / (2 * params)
    assert math.isclose(generated, 3 * tokens) and sci(generated) == "4.2e12"
    # Distractors: inference at 1 FLOP per parameter (6D), equal cost per token (D), inverted (D/3).
    assert math.isclose(training_flops(params, tokens) / params, 8.4e12)
    assert round(tokens / 3 / 1e12, 2) == 0.47
    BANK.assert_right_states("sl-inference-matches-training", "4.2T")


# Estimate drafts ---------------------------------------------------------------------------


draft = BANK.estimate


def answer_value(qid: str) -> float:
    return float(draft(qid)["answer"].split()[0])


def within(qid: str, value: float) -> bool:
    return support_within(draft(qid), value)


def test_estimate_llama3_405b_flops() -> None:
    c = training_flops(405e9, 15.6e12)
    assert sci(c, 2) == "3.79e25"
    assert abs(c / 3.8e25 - 1) < 0.01  # the paper's 3.8 × 10^25
    assert within("sl-est-llama3-405b-flops", c)


def test_estimate_llama2_70b_gpu_hours() -> None:
    work = training_flops(70e9, 2e12)
    rate = 0.4 * A100_PEAK
    gpu_hours = work / rate / HOUR
    assert sci(work) == "8.4e23" and sci(rate, 2) == "1.25e14" and sci(work / rate) == "6.7e9"
    assert sci(gpu_hours) == "1.9e6"
    assert abs(gpu_hours / 1_720_320 - 1) < 0.10  # the paper's figure is within 10%
    assert within("sl-est-llama2-70b-gpu-hours", gpu_hours)


def test_estimate_llama65b_days() -> None:
    tokens_per_s = 380 * 2048
    seconds = 1.4e12 / tokens_per_s
    assert sci(tokens_per_s) == "7.8e5" and sci(seconds) == "1.8e6"
    days = seconds / DAY
    assert f"{days:.1f}" == "20.8" and round(days) == 21  # the paper: about 21 days
    assert within("sl-est-llama65b-days", days)


def test_estimate_llama65b_mfu() -> None:
    achieved = 6 * 65.2e9 * 380
    assert sci(achieved, 2) == "1.49e14"
    mfu = achieved / A100_PEAK
    assert f"{100 * mfu:.1f}" == "47.6"
    assert within("sl-est-llama65b-mfu", 100 * mfu)
