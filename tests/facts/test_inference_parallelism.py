"""Fact tests for banks/inference-parallelism.yaml and its estimate drafts
(banks/inference-parallelism.yaml): every number a compute question relies on
is computed here, and the right choice (or the draft's answer) is asserted to state it in all
three languages.

Inputs and their sources (see the bank's comments):
- DistServe (arXiv 2401.09670): request latency = TTFT + TPOT x tokens generated in decoding
  (Sec. 1, footnote 1); Fig. 1 goodput example (5.6, 10 and 1.6 rps per GPU); M/D/1 prefill
  model Avg_TTFT = D + RD^2 / (2(1 - RD)) (Sec. 3.1, Eq. 1); OPT-66B KV transfer (Sec. 3.3).
- Sarathi-Serve (arXiv 2403.02310): two all-reduces per layer under tensor parallelism
  (Sec. 2.3); stall-free batching gives each running decode 1 token of the budget and the rest to
  the prefill chunk (Sec. 4.2, Algorithm 3).
- Llama-2-70B (HF config): 80 layers, 64 attention heads, 8 KV heads, hidden 8192.
- vLLM QKVParallelLinear: query heads divided by tp_size; KV heads replicated when
  tp_size >= num_kv_heads.
- DeepSeek-V3 (arXiv 2412.19437, HF config): 61 layers, the first 3 dense, 256 routed experts of
  intermediate size 2048 on hidden 7168, FP8 weights; prefill EP32 with 32 redundant experts.
- OPT-66B (HF config): 64 layers, hidden 9216, multi-head attention.

Stdlib + PyYAML only.
"""

from __future__ import annotations

import math
from fractions import Fraction

from .support import BANKS, GROUPED_NUMBER, FactBank, within
from .support import written_value as answer_value

BANK = FactBank("inference-parallelism", pattern=GROUPED_NUMBER)
DRAFTS = BANKS / "inference-parallelism.yaml"  # its estimate questions

KIB = 1024
GIB = 1024**3
FP16_BYTES = 2
FP8_BYTES = 1


estimate = BANK.estimate


def test_end_to_end_latency() -> None:
    ttft, tpot, generated = Fraction("0.4"), Fraction("0.05"), 200
    latency = ttft + tpot * generated
    assert latency == Fraction("10.4")
    # Distractors: forgetting TTFT, a single TPOT, TTFT paid per token.
    assert tpot * generated == 10
    assert ttft + tpot == Fraction("0.45")
    assert ttft * generated == 80
    BANK.assert_right_states("ip-e2e-latency", "10.4")
    BANK.assert_no_wrong_states("ip-e2e-latency", "10.4")


def test_distserve_per_gpu_goodput() -> None:
    prefill_rps, decode_rps, colocated_rps = Fraction("5.6"), Fraction(10), Fraction("1.6")
    prefill_gpus, decode_gpus = 2, 1
    # Every request needs both phases: the slower phase sets the system's goodput.
    system = min(prefill_gpus * prefill_rps, decode_gpus * decode_rps)
    assert prefill_gpus * prefill_rps == Fraction("11.2")
    assert system == 10
    per_gpu = system / (prefill_gpus + decode_gpus)
    assert f"{float(per_gpu):.1f}" == "3.3"
    assert f"{float(per_gpu / colocated_rps):.1f}" == "2.1"
    # Distractor: adding the phases' capacities as if they were independent.
    summed = (prefill_gpus * prefill_rps + decode_gpus * decode_rps) / 3
    assert f"{float(summed):.1f}" == "7.1"
    BANK.assert_right_states("ip-per-gpu-goodput", "3.3")
    BANK.assert_no_wrong_states("ip-per-gpu-goodput", "3.3")


def test_tp_decode_allreduces() -> None:
    layers, tp, allreduces_per_layer_forward = 80, 8, 2
    per_decode_step = layers * allreduces_per_layer_forward
    assert per_decode_step == 160
    # Distractors: one per layer, training's forward + backward, counted once per GPU.
    assert layers == 80
    assert 2 * per_decode_step == 320
    assert tp * per_decode_step == 1280
    BANK.assert_right_states("ip-tp-decode-allreduces", "160")
    BANK.assert_no_wrong_states("ip-tp-decode-allreduces", "160")


def test_redundant_experts_per_gpu() -> None:
    routed, redundant, ep_ranks = 256, 32, 32
    assert (routed + redundant) % ep_ranks == 0
    per_gpu = (routed + redundant) // ep_ranks
    assert per_gpu == 9
    assert routed // ep_ranks == 8  # the original experts per GPU, plus 1 redundant
    # Decoding: EP320 with one expert per GPU; 64 GPUs host redundant and shared experts.
    assert routed == 320 - 64
    BANK.assert_right_states("ip-ep-redundant-experts", "9", "8", "1")


def stall_free_prefill_iterations(budget: int, decodes: int, prompt: int) -> list[int]:
    """Prefill chunk sizes under Sarathi-Serve's stall-free batching (Algorithm 3): every running
    decode takes 1 token of the budget first, the prefill chunk gets what is left."""
    chunks = []
    remaining = prompt
    while remaining > 0:
        chunk = min(remaining, budget - decodes)
        assert chunk > 0
        chunks.append(chunk)
        remaining -= chunk
    return chunks


def test_chunked_prefill_iterations() -> None:
    chunks = stall_free_prefill_iterations(budget=512, decodes=64, prompt=4800)
    assert len(chunks) == 11 == math.ceil(4800 / 448)
    assert chunks[0] == 448 and chunks[-1] == 320
    # Distractors: the whole budget for prefill, no chunking, one token per decode slot.
    assert math.ceil(4800 / 512) == 10
    assert 4800 // 64 == 75
    BANK.assert_right_states("ip-chunk-iterations", "11")
    BANK.assert_no_wrong_states("ip-chunk-iterations", "11")
    BANK.assert_field_states("ip-chunk-iterations", "explanation", "448", "320", "11")


def md1_average_ttft(d: Fraction, rate: Fraction) -> Fraction:
    """DistServe Eq. 1: execution time plus the M/D/1 queueing delay (requires RD < 1)."""
    rho = rate * d
    assert rho < 1
    return d + rate * d * d / (2 * (1 - rho))


def test_md1_average_ttft() -> None:
    d, rate = Fraction(1, 10), Fraction(5)
    ttft = md1_average_ttft(d, rate)
    assert ttft == Fraction(3, 20)  # 150 ms
    assert rate * d * d / (2 * (1 - rate * d)) == Fraction(1, 20)  # 0.05 s of queueing
    # Distractors: without the (1 - RD) factor, the M/M/1 sojourn time, execution alone.
    assert d + rate * d * d / 2 == Fraction(1, 8)  # 125 ms
    assert d / (1 - rate * d) == Fraction(1, 5)  # 200 ms
    assert d * 1000 == 100
    BANK.assert_right_states("ip-md1-ttft", "150")
    BANK.assert_no_wrong_states("ip-md1-ttft", "150")


def vllm_heads_per_rank(q_heads: int, kv_heads: int, tp: int) -> tuple[int, int, int]:
    """vLLM QKVParallelLinear: (query heads, KV heads, KV-head replicas) per TP rank."""
    assert q_heads % tp == 0
    if tp >= kv_heads:
        assert tp % kv_heads == 0
        return q_heads // tp, 1, tp // kv_heads
    assert kv_heads % tp == 0
    return q_heads // tp, kv_heads // tp, 1


def test_tp_kv_heads_replicated() -> None:
    layers, q_heads, kv_heads, head_dim = 80, 64, 8, 128
    assert 8192 // q_heads == head_dim

    def per_gpu_bytes(tp: int) -> int:
        _, kv_per_rank, _ = vllm_heads_per_rank(q_heads, kv_heads, tp)
        return 2 * layers * kv_per_rank * head_dim * FP16_BYTES

    assert vllm_heads_per_rank(q_heads, kv_heads, 8) == (8, 1, 1)
    assert vllm_heads_per_rank(q_heads, kv_heads, 16) == (4, 1, 2)
    assert per_gpu_bytes(8) == per_gpu_bytes(16) == 40 * KIB
    # The whole model's cache per token (GQA) and the halving distractor.
    assert 2 * layers * kv_heads * head_dim * FP16_BYTES == 320 * KIB
    assert per_gpu_bytes(16) // 2 == 20 * KIB
    # Across all 16 GPUs the replicas double the stored cache.
    assert 16 * per_gpu_bytes(16) == 2 * 320 * KIB
    BANK.assert_right_states("ip-tp-kv-replication", "40", "1")


def test_estimate_kv_transfer_bandwidth() -> None:
    layers, hidden, prompt, rate = 64, 9216, 512, 10
    per_token = 2 * layers * hidden * FP16_BYTES
    assert per_token == 2_359_296
    per_request = per_token * prompt
    assert per_request == 1_207_959_552
    assert per_request / GIB == 1.125  # DistServe's "1.13GB"
    bandwidth = per_request * rate / 1e9
    assert round(bandwidth, 1) == 12.1
    assert round(bandwidth * 8) == 97  # Gbit/s
    draft = estimate("ip-est-kv-transfer-bandwidth")
    assert answer_value(draft) == (12.0, "GB/s")
    assert within(draft, bandwidth)
    assert within(draft, 11.3)  # the paper's own (GiB-based) figure also scores


def test_estimate_md1_near_saturation() -> None:
    d, rate = Fraction(8, 100), Fraction(10)
    ttft = md1_average_ttft(d, rate)
    assert ttft == Fraction(6, 25)  # 240 ms
    assert ttft == 3 * d
    draft = estimate("ip-est-md1-near-saturation")
    assert answer_value(draft) == (240.0, "ms")
    assert within(draft, float(ttft * 1000))


def test_estimate_redundant_expert_memory() -> None:
    layers, dense_layers, hidden, expert_intermediate = 61, 3, 7168, 2048
    per_expert = 3 * hidden * expert_intermediate * FP8_BYTES  # gate, up and down projections
    assert per_expert == 44_040_192
    total = (layers - dense_layers) * per_expert
    assert total == 2_554_331_136
    assert round(total / GIB, 2) == 2.38
    draft = estimate("ip-est-redundant-expert-memory")
    assert answer_value(draft) == (2.55, "GB")
    assert within(draft, total / 1e9)
    assert within(draft, 2.4)  # vLLM's EPLB docs: "approximately 2.4 GB" for DeepSeekV3
