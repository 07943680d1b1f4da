"""Fact tests for banks/rlhf-systems.yaml and its estimate drafts
(banks/rlhf-systems.yaml): every number a compute question or an estimate relies
on is computed here, and the literal the right choice states is asserted in all three languages.

Inputs and their sources (see the bank's comments):
- InstructGPT ranks K = 4 to 9 responses per prompt, trains on all C(K, 2) comparisons of a prompt
  as one batch element, one reward-model forward pass per completion (arXiv 2203.02155, Sec. 3.5).
- Actor and critic hold parameters, gradients and optimizer states, reference and reward models
  only parameters (HybridFlow, arXiv 2409.19256, Sec. 2.3); mixed-precision Adam keeps
  2 + 2 + 12 = 16 bytes per parameter (ZeRO, arXiv 1910.02054, Sec. 3.1); a 70B actor moves 140GB
  per iteration (HybridFlow).
- DeepSpeed-Chat: generation about 20% of the computation, training 80%; 256 prompt + 256 generated
  tokens (DeepSpeed-Chat blog, Sec. 5; arXiv 2308.01320).
- GRPO: Â = (r_i − mean(r)) / std(r); KL estimator π_ref/π_θ − log(π_ref/π_θ) − 1; 64 outputs per
  question, max length 1024 (DeepSeekMath, arXiv 2402.03300, Sec. 4.1.1, 4.1.2, 4.2).
- DPO: −log σ(β·(Δ_chosen − Δ_rejected)) with Δ = log π_θ − log π_ref (arXiv 2305.18290, Eq. 7).
"""

from __future__ import annotations

import math
import statistics
from fractions import Fraction

from .support import BANKS, NUMBER, FactBank
from .support import within as support_within

BANK = FactBank("rlhf-systems")
NUMBERS = FactBank("rlhf-systems", NUMBER)  # "9" is stated by "9", not by "1.9" or "90"
DRAFTS = BANKS / "rlhf-systems.yaml"  # its estimate questions

ADAM_BYTES = 2 + 2 + 12  # BF16 weights and gradients, FP32 master weights and two moments
BF16_BYTES = 2
GB = 10**9


def model_state_bytes(params: float, trained: int, frozen: int) -> float:
    """Trained models keep 16 bytes per parameter, forward-only ones their BF16 weights."""
    return params * (trained * ADAM_BYTES + frozen * BF16_BYTES)


def test_ranked_comparisons() -> None:
    k = 9
    pairs = math.comb(k, 2)
    assert pairs == 9 * 8 // 2 == 36
    batched_passes = k  # one reward-model forward pass per completion
    assert batched_passes == 9
    # The alternatives the explanation names: C(K, 2) passes, K - 1 reuses, ordered pairs.
    assert k - 1 == 8 and 2 * pairs == 72
    NUMBERS.assert_right_states("rlhf-rm-comparisons", "36", "9")
    right = BANK.right("rlhf-rm-comparisons")["en"]
    assert right == f"{pairs} comparisons, from {k} forward passes"
    # No wrong choice pairs the 36 comparisons with 9 passes.
    for choice in BANK.wrong("rlhf-rm-comparisons"):
        assert sorted(NUMBER.findall(choice["en"])) != ["36", "9"], choice["en"]
    NUMBERS.assert_field_states("rlhf-rm-comparisons", "explanation", "36", "8", "72")


def test_ppo_model_state_memory() -> None:
    params = 7e9
    total = model_state_bytes(params, trained=2, frozen=2)
    assert ADAM_BYTES == 16 and total == params * 36 == 252 * GB
    BANK.assert_right_states("rlhf-ppo-memory", "252 GB")
    # Distractors: all four trainable, actor plus reference only, weights alone.
    assert model_state_bytes(params, trained=4, frozen=0) == 448 * GB
    assert model_state_bytes(params, trained=1, frozen=1) == 126 * GB
    assert model_state_bytes(params, trained=0, frozen=4) == 56 * GB
    for literal in ("448 GB", "126 GB", "56 GB"):
        BANK.assert_some_wrong_states("rlhf-ppo-memory", literal)
    BANK.assert_field_states("rlhf-ppo-memory", "explanation", "2.52e11")


def test_generation_share() -> None:
    generation, training = 20, 80
    assert generation + training == 100
    prompt, generated = 256, 256
    assert prompt + generated == 512  # training sees the whole sequence at once
    NUMBERS.assert_field_states("rlhf-generation-time", "prompt", "20")
    NUMBERS.assert_field_states("rlhf-generation-time", "explanation", "20", "80", "256", "512")


def test_weight_sync_bytes() -> None:
    params = 70e9
    assert params * BF16_BYTES == 140 * GB
    BANK.assert_right_states("rlhf-weight-sync-size", "140 GB")
    # Distractors: weights with Adam states, FP8, FP32.
    assert (params * ADAM_BYTES, params * 1, params * 4) == (1120 * GB, 70 * GB, 280 * GB)
    for literal in ("1120 GB", "70 GB", "280 GB"):
        BANK.assert_some_wrong_states("rlhf-weight-sync-size", literal)
    NUMBERS.assert_field_states("rlhf-weight-sync-size", "explanation", "140", "36.4", "16")


def test_grpo_group_baseline() -> None:
    rewards = [Fraction("0.9"), Fraction("0.5"), Fraction("0.3"), Fraction("0.3")]
    baseline = sum(rewards) / len(rewards)
    assert sum(rewards) == Fraction("2.0") and baseline == Fraction("0.5")
    assert statistics.median(rewards) == Fraction("0.4") and max(rewards) == Fraction("0.9")
    # Dividing by the group's standard deviation (either estimator) keeps the signs: +, 0, -, -.
    floats = [float(r) for r in rewards]
    for std in (statistics.pstdev(floats), statistics.stdev(floats)):
        advantages = [(float(r) - float(baseline)) / std for r in rewards]
        assert advantages[0] > 0 and advantages[1] == 0 and advantages[2] == advantages[3] < 0
    # Subtracting the best score leaves no positive advantage.
    assert all(r - max(rewards) <= 0 for r in rewards)
    NUMBERS.assert_right_states("rlhf-grpo-baseline", "0.5")
    NUMBERS.assert_no_wrong_states("rlhf-grpo-baseline", "0.5", langs=("en",))


def test_grpo_kl_estimator() -> None:
    """π_ref/π_θ − log(π_ref/π_θ) − 1 is never negative; its mean under π_θ is KL(π_θ ‖ π_ref)."""
    for ratio in (0.01, 0.3, 0.9, 1.0, 1.7, 40.0):
        assert ratio - math.log(ratio) - 1 >= 0
    assert math.log(0.2 / 0.5) < 0  # the plain log-ratio log(π_θ/π_ref) of a token can be < 0
    policy = [0.5, 0.3, 0.2]
    reference = [0.2, 0.5, 0.3]
    pairs = list(zip(policy, reference, strict=True))
    estimate = sum(p * (q / p - math.log(q / p) - 1) for p, q in pairs)
    kl = sum(p * math.log(p / q) for p, q in pairs)
    assert math.isclose(estimate, kl)
    BANK.assert_right_states("rlhf-grpo-kl", "π_ref/π_θ − log(π_ref/π_θ) − 1")


def test_dpo_beta_zero_teaches_nothing() -> None:
    """With β = 0 the DPO loss is −log σ(0) = log 2 whatever the log-probabilities."""

    def dpo_loss(beta: float, chosen: float, rejected: float) -> float:
        return -math.log(1 / (1 + math.exp(-beta * (chosen - rejected))))

    for chosen, rejected in ((-3.0, -9.0), (-12.0, -1.5)):
        assert math.isclose(dpo_loss(0.0, chosen, rejected), math.log(2))
    assert dpo_loss(0.1, -3.0, -9.0) < math.log(2) < dpo_loss(0.1, -12.0, -1.5)


# Estimate drafts ---------------------------------------------------------------------------


draft = BANK.estimate


def within(qid: str, value: float) -> bool:
    return support_within(draft(qid), value)


def test_estimate_dpo_memory() -> None:
    params = 7e9
    policy, reference = params * ADAM_BYTES, params * BF16_BYTES
    assert (policy, reference) == (112 * GB, 14 * GB)
    total = model_state_bytes(params, trained=1, frozen=1)
    assert total == 126 * GB
    assert 2 * total == model_state_bytes(params, trained=2, frozen=2)  # half of PPO's four models
    assert within("rlhf-est-dpo-memory", total / GB)


def test_estimate_ppo_70b_gpus() -> None:
    total = model_state_bytes(70e9, trained=2, frozen=2)
    assert total == 2.52e12
    assert total / (80 * GB) == 31.5
    gpus = math.ceil(total / (80 * GB))
    assert gpus == 32
    assert within("rlhf-est-ppo-70b-gpus", gpus)


def test_estimate_grpo_rollout_flops() -> None:
    questions, group, length, params = 16, 64, 1024, 7e9
    outputs = questions * group
    tokens = outputs * length
    assert outputs == 1024 and f"{tokens:.2e}" == "1.05e+06"
    flops = tokens * 2 * params
    assert f"{2 * params:.1e}" == "1.4e+10" and f"{flops:.1e}" == "1.5e+16"
    assert flops / 312e12 < 60  # under a minute for one A100 at its peak
    assert within("rlhf-est-grpo-rollout-flops", flops)
