"""Fact tests for banks/kv-cache-serving.yaml: every number a compute question relies on is
computed here, and the literal the right choice states is asserted in all three languages.

Inputs and their sources (see the bank's comments):
- Llama-2-7B: 32 layers, 32 heads, 32 KV heads, hidden 4096 (LLaMA arXiv 2302.13971 Table 2,
  Llama 2 arXiv 2307.09288 Table 1, meta-llama/Llama-2-7b-hf config.json).
- Llama-2-13B: 40 layers, 40 heads, hidden 5120, no GQA (same sources).
- Llama-2-70B: 80 layers, 64 heads, 8 KV heads, hidden 8192 (Llama 2 Table 1, HF config.json).
- OPT-13B per-token KV: 2 × 5120 × 40 × 2 bytes, "800 KB" (vLLM arXiv 2309.06180 Sec. 3).
- Existing systems keep 20.4%–38.2% of KV memory for token states (vLLM Sec. 1, Fig. 2).
- Speculative decoding: E[tokens] = (1 − α^(γ+1)) / (1 − α) (arXiv 2211.17192 Eq. 1).

Estimates (kind: estimate): their answers are recomputed from the same sources (and the
Llama 3.1 405B model_args of meta-llama/llama-models), read with ``bot.content.estimates.read``
and compared with the computed value within the question's tolerance.
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

from bot.content.estimates import Dimension

from .support import FactBank

BANK = FactBank("kv-cache-serving")

KIB = 1024
MIB = 1024**2
GIB = 1024**3
FP16_BYTES = struct.calcsize("e")  # IEEE half precision


def kv_bytes_per_token(layers: int, kv_heads: int, head_dim: int, bytes_per_value: int) -> int:
    """Keys and values (factor 2) for every layer and every KV head."""
    return 2 * layers * kv_heads * head_dim * bytes_per_value


def test_fp16_is_two_bytes() -> None:
    assert FP16_BYTES == 2


def test_llama2_7b_bytes_per_token() -> None:
    hidden, heads, layers, kv_heads = 4096, 32, 32, 32
    head_dim = hidden // heads
    assert head_dim == 128
    per_token = kv_bytes_per_token(layers, kv_heads, head_dim, FP16_BYTES)
    assert per_token == 524_288 == 512 * KIB
    # Distractors: no K+V factor, a single layer, FP32 values.
    assert per_token // 2 == 256 * KIB
    assert kv_bytes_per_token(1, kv_heads, head_dim, FP16_BYTES) == 16 * KIB
    assert kv_bytes_per_token(layers, kv_heads, head_dim, 4) == 1 * MIB
    BANK.assert_right_states("kv-bytes-per-token", "512 KiB")
    BANK.assert_no_wrong_states("kv-bytes-per-token", "512 KiB", langs=("en",))


def test_llama2_13b_batch_memory() -> None:
    hidden, heads, layers = 5120, 40, 40
    head_dim = hidden // heads
    assert head_dim == 128
    per_token = kv_bytes_per_token(layers, heads, head_dim, FP16_BYTES)
    assert per_token == 819_200 == 800 * KIB
    # The vLLM paper's OPT-13B figure: 2 × 5120 (hidden) × 40 (layers) × 2 (bytes per FP16).
    assert per_token == 2 * 5120 * 40 * 2
    requests, context = 16, 2048
    total = requests * context * per_token
    assert total == 26_843_545_600 == 25 * GIB
    assert total > 40e9 / 2  # more than half of a 40 GB GPU
    # Distractors: one request, no K+V factor, FP32.
    assert math.isclose(context * per_token / GIB, 1.5625)
    assert round(context * per_token / GIB, 1) == 1.6
    assert total / 2 == 12.5 * GIB
    assert total * 2 == 50 * GIB
    BANK.assert_right_states("kv-batch-memory", "25 GiB")
    BANK.assert_no_wrong_states("kv-batch-memory", "25 GiB", langs=("en",))


def test_llama2_70b_gqa_reduction() -> None:
    hidden, heads, kv_heads, layers = 8192, 64, 8, 80
    head_dim = hidden // heads
    assert head_dim == 128
    gqa = kv_bytes_per_token(layers, kv_heads, head_dim, FP16_BYTES)
    mha = kv_bytes_per_token(layers, heads, head_dim, FP16_BYTES)
    mqa = kv_bytes_per_token(layers, 1, head_dim, FP16_BYTES)
    assert gqa == 327_680 == 320 * KIB
    assert mha == int(2.5 * MIB)
    assert mha // gqa == heads // kv_heads == 8
    # Distractors: forgetting the K+V factor, and a single KV head per layer.
    assert gqa // 2 == 160 * KIB
    assert mqa == 40 * KIB and mha // mqa == 64
    BANK.assert_right_states("kv-gqa-llama2-70b", "320 KiB", "8×", "2.5 MiB")
    BANK.assert_no_wrong_states("kv-gqa-llama2-70b", "320 KiB", langs=("en",))


def test_existing_systems_utilization_complement() -> None:
    used_low, used_high = Fraction("20.4"), Fraction("38.2")
    assert 100 - used_high == Fraction("61.8")
    assert 100 - used_low == Fraction("79.6")
    BANK.assert_right_states("kv-fragmentation", "20.4%", "38.2%")


def test_paged_block_count() -> None:
    tokens, block_size = 1000, 16
    blocks = math.ceil(tokens / block_size)
    empty = blocks * block_size - tokens
    assert (blocks, empty) == (63, 8)
    assert tokens / block_size == 62.5
    assert blocks * block_size == 1008
    # The waste per sequence is bounded by one block: at most block_size - 1 empty slots.
    assert 0 <= empty <= block_size - 1 == 15
    BANK.assert_right_states("kv-paged-block-count", f"{blocks}", f"{empty}")
    assert BANK.right("kv-paged-block-count")["en"] == f"{blocks} blocks, with {empty} empty slots"


def test_speculative_expected_tokens() -> None:
    alpha, gamma = Fraction(8, 10), 4
    expected = (1 - alpha ** (gamma + 1)) / (1 - alpha)
    assert expected == Fraction("3.3616")
    assert f"{float(expected):.2f}" == "3.36"
    # Distractors: γα, the wrong exponent γ, and the best case γ + 1.
    assert gamma * alpha == Fraction("3.2")
    assert f"{float((1 - alpha**gamma) / (1 - alpha)):.2f}" == "2.95"
    assert gamma + 1 == 5
    # The explanation's intermediate values.
    assert 1 - alpha ** (gamma + 1) == Fraction("0.67232")
    BANK.assert_right_states("kv-speculative-expected-tokens", "3.36")
    BANK.assert_no_wrong_states("kv-speculative-expected-tokens", "3.36", langs=("en",))


# --- Estimates ---------------------------------------------------------------------------------

A100_80GB_BW = 2039e9  # bytes/s, NVIDIA GPU Performance Background guide
BF16_BYTES = 2  # 1 sign + 8 exponent + 7 mantissa bits


def assert_estimate(qid: str, value: float, dimension: Dimension, rel: float = 0.01) -> None:
    BANK.assert_estimate(qid, value, dimension, rel)


def test_estimate_opt13b_token_capacity() -> None:
    gpu, params = 40e9, 13e9  # vLLM Sec. 1: a 13B model on an A100 with 40GB
    weights = params * FP16_BYTES
    assert weights == 26e9 and weights / gpu == 0.65  # "approximately 65%" for the weights
    per_token = 2 * 5120 * 40 * FP16_BYTES  # vLLM Sec. 3, OPT-13B: "800 KB"
    assert per_token == 800 * KIB
    tokens = (gpu - weights) / per_token
    assert round(tokens) == 17_090
    assert round(tokens / 2048) == 8  # requests at OPT's maximum length
    assert_estimate("kv-est-opt13b-token-capacity", tokens, "count")
    BANK.assert_field_states("kv-est-opt13b-token-capacity", "explanation", "17090", "819200")


def test_estimate_decode_step_time() -> None:
    params = 6.7e9  # LLaMA-7B, LLaMA Table 2
    weight_bytes = params * FP16_BYTES
    seconds = weight_bytes / A100_80GB_BW  # every weight read once per decode step at batch 1
    assert f"{weight_bytes / 1e9:.1f}" == "13.4"
    assert f"{seconds * 1e3:.1f}" == "6.6"
    assert round(1 / seconds) == 152  # tokens per second, the ceiling for one sequence
    assert_estimate("kv-est-decode-step-time", seconds, "time")
    BANK.assert_field_states("kv-est-decode-step-time", "explanation", "13.4", "6.6 ms", "152")


def test_estimate_llama31_405b_context() -> None:
    # meta-llama/llama-models, models/llama3_1/api/sku_list.py: the 405B model_args
    dim, layers, heads, kv_heads, context = 16384, 126, 128, 8, 131072
    head_dim = dim // heads
    assert head_dim == 128
    per_token = kv_bytes_per_token(layers, kv_heads, head_dim, BF16_BYTES)
    assert per_token == 516_096
    total = per_token * context
    assert f"{total / 1e9:.1f}" == "67.6"
    mha = kv_bytes_per_token(layers, heads, head_dim, BF16_BYTES) * context
    assert mha // total == heads // kv_heads == 16 and round(mha / 1e9) == 1082
    assert_estimate("kv-est-llama31-405b-context", total, "memory")
    BANK.assert_field_states("kv-est-llama31-405b-context", "explanation", "516096", "67.6 GB")
