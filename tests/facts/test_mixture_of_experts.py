"""Fact tests for banks/mixture-of-experts.yaml: every number a compute question relies on
is computed here, and the literal the right choice states is checked in every language
(and that the distractors hold the tempting wrong results).

Sources:
- Switch Transformers (arXiv 2101.03961) section 2.2: expert capacity
  = (tokens per batch / number of experts) x capacity factor (Eq. 3); overflowing tokens
  are dropped; load-balancing loss = alpha * N * sum_i f_i * P_i (Eq. 4).
- Mixtral of Experts (arXiv 2401.04088) Table 1: dim 4096, n_layers 32, head_dim 128,
  hidden_dim 14336, n_heads 32, n_kv_heads 8, vocab_size 32000, num_experts 8,
  top_k_experts 2 (SwiGLU experts: three dim x hidden_dim matrices; separate input
  embedding and output head; RMSNorm weights of size dim).
- DeepSeek-V3 (arXiv 2412.19437, deepseek-ai/DeepSeek-V3 README): 671B total and 37B
  activated parameters, 14.8T tokens, 2.664M H800 GPU hours; C = 6N per training token
  (arXiv 2001.08361). Estimate answers are read with ``bot.content.estimates.read``.
"""

from __future__ import annotations

import math

from bot.content.estimates import Dimension

from .support import LANGS, FactBank

BANK = FactBank("mixture-of-experts")


def expert_capacity(tokens: int, experts: int, capacity_factor: float) -> float:
    return tokens / experts * capacity_factor


def test_expert_capacity() -> None:
    qid = "moe-expert-capacity"
    q = BANK.question(qid)
    tokens, experts, cf = 4096, 64, 1.25
    capacity = expert_capacity(tokens, experts, cf)
    assert capacity == 80
    assert math.ceil(capacity) == 80  # DeepSpeed's _capacity rounds up; no change here
    BANK.assert_right_states(qid, "80")
    BANK.assert_some_wrong_states(qid, str(tokens // experts))  # 64: capacity factor ignored
    BANK.assert_some_wrong_states(qid, str(int(tokens / experts / cf)))  # 51: divided by the factor
    BANK.assert_some_wrong_states(qid, str(int(tokens * cf)))  # 5120: not split across experts
    for lang in LANGS:
        assert all(s in q["prompt"][lang] for s in ("4096", "64", "1.25"))


def test_dropped_tokens() -> None:
    qid = "moe-dropped-tokens"
    q = BANK.question(qid)
    loads = [200, 150, 128, 120, 110, 106, 110, 100]
    tokens, experts, cf = 1024, 8, 1.0
    assert sum(loads) == tokens and len(loads) == experts
    capacity = expert_capacity(tokens, experts, cf)
    assert capacity == 128
    dropped = sum(max(0, load - int(capacity)) for load in loads)
    assert dropped == 94
    BANK.assert_right_states(qid, "94")
    for lang in LANGS:  # zero: the loads add up to the total
        assert any(
            c[lang].startswith("0 ") or c[lang].startswith("0টি") for c in BANK.wrong(qid)
        ), lang
    BANK.assert_some_wrong_states(qid, str(max(loads) - int(capacity)))  # 72: busiest expert only
    overloaded = sum(load for load in loads if load > capacity)
    assert overloaded == 350
    BANK.assert_some_wrong_states(qid, str(overloaded))
    for lang in LANGS:
        assert all(str(x) in q["prompt"][lang] for x in loads)


def test_load_balancing_loss_value() -> None:
    qid = "moe-aux-loss-value"
    alpha, n = 0.01, 4
    f = [0.5, 0.25, 0.125, 0.125]
    p = [0.4, 0.3, 0.15, 0.15]
    assert math.isclose(sum(f), 1.0) and math.isclose(sum(p), 1.0)
    dot = sum(fi * pi for fi, pi in zip(f, p, strict=True))
    assert math.isclose(dot, 0.3125)
    loss = alpha * n * dot
    assert math.isclose(loss, 0.0125)
    BANK.assert_right_states(qid, "0.0125")
    uniform = alpha * n * sum((1 / n) * (1 / n) for _ in range(n))
    assert math.isclose(uniform, alpha)  # uniform routing gives exactly alpha
    assert math.isclose(loss / uniform - 1, 0.25)  # the 25% in the explanation
    for literal, value in (("0.01", uniform), ("0.003125", alpha * dot), ("1.25", n * dot)):
        assert math.isclose(float(literal), value)
        for lang in LANGS:
            assert any(c[lang] == literal for c in BANK.wrong(qid)), (lang, literal)


def mixtral_parameters() -> tuple[int, int, int]:
    """(expert FFN parameters, shared parameters, active parameters per token)."""
    dim, layers, head_dim, hidden = 4096, 32, 128, 14336
    n_heads, n_kv_heads, vocab, experts, top_k = 32, 8, 32000, 8, 2
    per_expert = 3 * dim * hidden  # SwiGLU: w1, w2, w3
    expert_total = layers * experts * per_expert
    attention = layers * (2 * dim * n_heads * head_dim + 2 * dim * n_kv_heads * head_dim)
    routers = layers * dim * experts
    norms = (2 * layers + 1) * dim
    embeddings = 2 * vocab * dim  # input embedding and output head are separate
    shared = attention + routers + norms + embeddings
    active = shared + layers * top_k * per_expert
    return expert_total, shared, active


def test_mixtral_active_parameters() -> None:
    qid = "moe-mixtral-active-params"
    q = BANK.question(qid)
    expert_total, shared, active = mixtral_parameters()
    billions = lambda x: f"{x / 1e9:.1f}B"  # noqa: E731
    assert billions(expert_total) == "45.1B" and billions(shared) == "1.6B"
    for lang in LANGS:
        assert "45.1B" in q["prompt"][lang] and "1.6B" in q["prompt"][lang]
    assert billions(active) == "12.9B"
    assert round(active / 1e9) == 13  # the abstract's "13B active parameters"
    total = expert_total + shared
    assert billions(total) == "46.7B" and round(total / 1e9) == 47  # the abstract's "47B"
    BANK.assert_right_states(qid, billions(active))
    # distractors: top-1, "2 of 8 = half", and the total
    BANK.assert_some_wrong_states(qid, billions(shared + expert_total / 8))  # 7.2B
    BANK.assert_some_wrong_states(qid, billions(shared + expert_total / 2))  # 24.2B
    BANK.assert_some_wrong_states(qid, billions(total))  # 46.7B


# --- Estimates ---------------------------------------------------------------------------------


def assert_estimate(qid: str, value: float, dimension: Dimension, rel: float = 0.01) -> None:
    BANK.assert_estimate(qid, value, dimension, rel)


# DeepSeek-V3 (arXiv 2412.19437 abstract; deepseek-ai/DeepSeek-V3 README): 671B parameters, 37B
# activated per token, pre-trained on 14.8T tokens in 2.664M H800 GPU hours.
DEEPSEEK_TOTAL, DEEPSEEK_ACTIVE = 671e9, 37e9
DEEPSEEK_TOKENS, DEEPSEEK_GPU_HOURS = 14.8e12, 2.664e6


def test_estimate_deepseek_active_share() -> None:
    share = 100 * DEEPSEEK_ACTIVE / DEEPSEEK_TOTAL
    assert f"{share:.1f}" == "5.5" and f"{share / 100:.3f}" == "0.055"
    assert round(DEEPSEEK_TOTAL / DEEPSEEK_ACTIVE) == 18
    assert_estimate("moe-est-deepseek-active-share", share, "ratio")
    BANK.assert_field_states("moe-est-deepseek-active-share", "explanation", "5.5%", "18")


def test_estimate_mixtral_expert_params() -> None:
    dim, hidden, layers, experts = 4096, 14336, 32, 8  # Mixtral Table 1
    per_expert = 3 * dim * hidden  # SwiGLU expert: w1, w2, w3
    assert per_expert == 176_160_768
    expert_total, _, _ = mixtral_parameters()
    assert expert_total == layers * experts * per_expert
    assert f"{expert_total / 1e9:.1f}B" == "45.1B"
    assert 2 * dim * hidden / per_expert == 2 / 3  # a 2-matrix MLP, the explanation's trap
    assert_estimate("moe-est-mixtral-expert-params", per_expert, "count")
    BANK.assert_field_states("moe-est-mixtral-expert-params", "explanation", "1.76e8", "45.1B")


def test_estimate_deepseek_gpu_throughput() -> None:
    flops = 6 * DEEPSEEK_ACTIVE * DEEPSEEK_TOKENS  # C = 6N per training token (arXiv 2001.08361)
    gpu_seconds = DEEPSEEK_GPU_HOURS * 3600
    rate = flops / gpu_seconds
    assert f"{flops:.1e}" == "3.3e+24" and f"{gpu_seconds:.1e}" == "9.6e+09"
    assert f"{rate:.1e}" == "3.4e+14"
    total_rate = 6 * DEEPSEEK_TOTAL * DEEPSEEK_TOKENS / gpu_seconds  # the trap: every parameter
    assert round(total_rate / 1e12, -2) == 6200
    assert_estimate("moe-est-deepseek-gpu-throughput", rate, "compute rate")
    BANK.assert_field_states("moe-est-deepseek-gpu-throughput", "explanation", "340", "6200")
