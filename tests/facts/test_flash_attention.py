"""Fact tests for banks/flash-attention.yaml: every number a compute question relies on is
computed here from first principles, and the literal the right choice states is asserted in
all three languages.

Sources of the inputs (see the bank's comments): arXiv 2205.14135 (Algorithm 0/1, Sec. 2.2),
arXiv 2307.08691 (Sec. 3.1, Sec. 4.1), arXiv 2407.08608 (Sec. 3.1, Pingpong scheduling),
arXiv 1805.02867 (Algorithm 3); for the estimates also Sec. 2.1 of 2205.14135 (A100 HBM
1.5-2.0 TB/s) and flops() in the FlashAttention repository's
benchmarks/benchmark_flash_attention.py.
Estimate answers are read with bot.content.estimates and checked within their tolerance.
"""

from __future__ import annotations

import math
import struct

from .support import FactBank

BANK = FactBank("flash-attention")

KIB = 1024
MIB = 1024**2
GIB = 1024**3


FP16_BYTES = struct.calcsize("e")  # IEEE half precision: 2 bytes


def test_fp16_is_two_bytes() -> None:
    assert FP16_BYTES == 2
    # 1.0 in IEEE half precision is 0x3C00.
    assert struct.pack("<e", 1.0) == b"\x00\x3c"


def test_score_matrix_bytes() -> None:
    # Standard attention materializes S = QK^T, one N×N matrix per head (Algorithm 0).
    n, heads, head_dim, batch = 8192, 32, 128, 1
    per_head = n * n * FP16_BYTES
    assert per_head == 128 * MIB
    total = batch * heads * per_head
    assert total == 4 * GIB
    # Distractors: halving for a causal mask, and the size of Q (N × d) for all heads.
    assert total // 2 == 2 * GIB
    assert heads * n * head_dim * FP16_BYTES == 64 * MIB
    BANK.assert_right_states("fa-score-matrix-bytes", "4 GiB", "128 MiB", "32")
    BANK.assert_no_wrong_states("fa-score-matrix-bytes", "4 GiB", langs=("en",))


def test_algorithm1_block_sizes() -> None:
    # Algorithm 1, line 1: B_c = ceil(M / 4d), B_r = min(ceil(M / 4d), d).
    m, d = 49152, 64
    b_c = math.ceil(m / (4 * d))
    b_r = min(math.ceil(m / (4 * d)), d)
    assert (b_c, b_r) == (192, 64)
    # Distractors: forgetting the factor 4, dividing by 4 twice, forgetting the min with d.
    assert math.ceil(m / d) == 768
    assert math.ceil(m / (16 * d)) == 48
    BANK.assert_right_states("fa-block-sizes", f"B_c = {b_c}", f"B_r = {b_r}")
    BANK.assert_no_wrong_states("fa-block-sizes", f"B_c = {b_c} and B_r = {b_r}", langs=("en",))


def test_fa2_non_matmul_cost_ratio() -> None:
    # FlashAttention-2, Sec. 3.1: A100 312 TFLOPs/s FP16/BF16 matmul vs 19.5 TFLOPs/s
    # non-matmul FP32.
    ratio = 312 / 19.5
    assert ratio == 16
    BANK.assert_right_states("fa-v2-non-matmul-cost", f"{int(ratio)}×")


def test_fa3_exponential_share() -> None:
    # FlashAttention-2, Sec. 4.1: forward FLOPs = 4 * seqlen^2 * head_dim * heads;
    # one exp per score.
    head_dim = 128
    matmul_flops_per_exp = 4 * head_dim
    assert matmul_flops_per_exp == 512
    # FlashAttention-3, Sec. 3.1: H100 SXM5 989 TFLOPS FP16 matmul vs 3.9 TFLOPS exponential.
    throughput_ratio = 989 / 3.9
    assert round(throughput_ratio) == 254  # the paper rounds this to 256x
    assert abs(throughput_ratio - 256) / 256 < 0.01
    exp_time_over_matmul_time = (1 / 3.9) / (matmul_flops_per_exp / 989)
    assert abs(exp_time_over_matmul_time - 0.5) < 0.01
    assert 256 / 512 == 0.5
    share_percent = round(100 * 256 / 512)
    assert share_percent == 50
    # FP8 doubles the matmul rate but not the exponential rate: the share doubles.
    assert round(100 * 2 * 256 / 512) == 100
    BANK.assert_right_states("fa-v3-exp-bottleneck", f"{share_percent}%")
    BANK.assert_no_wrong_states("fa-v3-exp-bottleneck", f"About {share_percent}%", langs=("en",))


def test_online_softmax_rescaling_is_exact() -> None:
    # The rule the fa-online-softmax-rescale question rests on (Milakov & Gimelshein, Algorithm 3):
    # when the running max moves from m to m_new, l is multiplied by exp(m - m_new).
    scores = [0.3, 2.0, -1.0, 4.5, 4.4, -3.0, 7.25, 0.0]
    m, running = -math.inf, 0.0
    for block in (scores[:3], scores[3:5], scores[5:]):
        m_new = max(m, *block)
        running = running * math.exp(m - m_new) + sum(math.exp(x - m_new) for x in block)
        m = m_new
    assert m == max(scores)
    assert math.isclose(running, sum(math.exp(x - m) for x in scores), rel_tol=1e-12)
    assert "exp(m − m_new)" in BANK.right("fa-online-softmax-rescale")["en"]


# Estimates: the true value recomputed from the papers' counts and the prompt's numbers, and the
# bank's answer, read as a player's would be, within the question's tolerance.

TERA = 10**12


def attention_flops(batch: int, seqlen: int, head_dim: int, heads: int, causal: bool) -> float:
    """FlashAttention-2 §4.1 and flops() in the repository's benchmark: the forward count."""
    forward = 4 * batch * seqlen**2 * head_dim * heads
    return forward / 2 if causal else forward


assert_estimate = BANK.assert_estimate


def test_estimate_forward_flops() -> None:
    qid = "fa-est-forward-flops"
    flops = attention_flops(batch=8, seqlen=4096, head_dim=128, heads=32, causal=False)
    assert flops == 2_199_023_255_552
    assert f"{flops / TERA:.1f}" == "2.2"
    assert_estimate(qid, flops, "compute")
    per_head = 4 * 4096**2 * 128
    assert f"{per_head / 1e9:.1f}" == "8.6" and 8 * 32 == 256
    BANK.assert_field_states(qid, "explanation", "8.6 GFLOP", "256", "2.2 TFLOP", "2.5")


def test_estimate_causal_train_time() -> None:
    qid = "fa-est-causal-train-time"
    full = attention_flops(batch=2, seqlen=8192, head_dim=128, heads=32, causal=False)
    forward = attention_flops(batch=2, seqlen=8192, head_dim=128, heads=32, causal=True)
    train = forward + 2.5 * forward  # the benchmark's mode="fwd_bwd": 3.5 * f
    assert full == 2 * forward and f"{forward / TERA:.1f}" == "1.1"
    assert f"{train / TERA:.2f}" == "3.85"
    seconds = train / (300 * TERA)
    assert f"{seconds * 1e3:.1f}" == "12.8"
    assert_estimate(qid, seconds, "time")
    # Mistakes the explanation names: no causal halving (x2), forward only.
    assert f"{3.5 * full / (300 * TERA) * 1e3:.1f}" == "25.7"
    assert f"{forward / (300 * TERA) * 1e3:.1f}" == "3.7"
    BANK.assert_field_states(qid, "explanation", "1.1 TFLOP", "3.85 TFLOP", "12.8 ms", "25.7 ms")
    BANK.assert_field_states(qid, "explanation", "3.7 ms")


def test_estimate_standard_attention_traffic() -> None:
    qid = "fa-est-standard-sp-traffic"
    batch, heads, n, head_dim = 2, 32, 4096, 128
    per_matrix = n * n * FP16_BYTES  # S or P for one head
    assert per_matrix == 32 * MIB
    # Algorithm 0: write S, read S (softmax), write P, read P (PV).
    passes = 4
    traffic = passes * per_matrix * batch * heads
    assert traffic == 8 * GIB
    seconds = traffic / 2e12  # the prompt's 2 TB/s, the top of the paper's 1.5-2.0 TB/s
    assert f"{traffic / 1e9:.1f}" == "8.6" and f"{seconds * 1e3:.1f}" == "4.3"
    assert_estimate(qid, seconds, "time")
    matmul_s = attention_flops(batch, n, head_dim, heads, causal=False) / (312 * TERA)
    assert f"{matmul_s * 1e3:.1f}" == "1.8" and matmul_s < seconds
    BANK.assert_field_states(qid, "explanation", "32 MiB", "8 GiB", "4.3 ms", "1.8 ms")
