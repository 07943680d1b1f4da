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
"""

from __future__ import annotations

import math
import struct
from fractions import Fraction

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
