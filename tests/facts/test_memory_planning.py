"""Fact tests for banks/memory-planning.yaml and its estimate drafts
(banks/memory-planning.yaml).

Every number a compute question relies on is recomputed here, and the literal the right choice
states is asserted in all three languages.

Inputs and their sources (see the bank's comments):
- Mixed-precision Adam: 2 + 2 + 12 = 16 bytes per parameter; GPT-2 1.5B needs at least 24 GB of
  model states; a flattened FP32 buffer for 1.5B parameters is 6 GB; activations of GPT-2 1.5B
  at sequence 1K and batch 32 are about 60 GB, about 12 × hidden × batch × sequence × layers values
  (ZeRO, arXiv 1910.02054, 3.1, 3.2 and footnote 3); GPT-2 1.5B: 48 layers, n_embd 1600
  (openai-community/gpt2-xl config.json).
- Activations per layer sbh(34 + 5as/h) bytes; logits 4sbv bytes in FP32 (Korthikanti et al.,
  arXiv 2205.05198, 4.1 Eq. 1 and 4.3).
- CUDA caching allocator: kSmallSize 1 MiB, kLargeBuffer 20 MiB, kMinLargeAlloc 10 MiB,
  kRoundLarge 2 MiB, kMinBlockSize 512 bytes, split when the remainder exceeds 1 MiB
  (c10/cuda/CUDACachingAllocator.cpp); pinned host blocks are rounded up to a power of two
  (aten/src/ATen/core/CachingHostAllocator.h).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from .support import BANKS, LANGS, NUMBER, NUMBER_OR_PERCENT, FactBank, numbers

BANK = FactBank("memory-planning", NUMBER_OR_PERCENT)
DRAFTS = BANKS / "memory-planning.yaml"  # its estimate questions

MIB, GIB = 1024**2, 1024**3
GB = 10**9
ADAM_MIXED_BYTES = {"fp16 weights": 2, "fp16 gradients": 2, "fp32 optimizer states": 12}
BYTES_PER_PARAM = sum(ADAM_MIXED_BYTES.values())


draft = BANK.estimate


def assert_explanation_states(question: dict[str, Any], *literals: str) -> None:
    for literal in literals:
        for lang in LANGS:
            assert literal in numbers(question["explanation"][lang], NUMBER), (lang, literal)


def layer_activation_bytes(s: int, b: int, h: int, a: int) -> Fraction:
    """Korthikanti et al., Eq. 1: bytes of activations one transformer layer stores."""
    return Fraction(s * b * h) * (34 + Fraction(5 * a * s, h))


def test_bytes_per_parameter() -> None:
    assert BYTES_PER_PARAM == 16
    # The ZeRO paper's GPT-2 example: at least 24 GB of states against 3 GB of FP16 weights.
    params = 1.5e9
    assert params * BYTES_PER_PARAM == 24 * GB
    assert params * 2 == 3 * GB


def test_gradient_accumulation_memory() -> None:
    s, h, a = 2048, 4096, 32
    full = layer_activation_bytes(s, 64, h, a)
    micro = layer_activation_bytes(s, 8, h, a)
    assert full / micro == 8
    # Gradients do not depend on b: backward() adds every micro-batch into the same .grad.
    BANK.assert_right_states("mp-grad-accumulation", "8")
    BANK.assert_field_states("mp-grad-accumulation", "explanation", "34", "5", "8", "64")


def test_largest_model_on_80gb() -> None:
    memory = 80 * GB
    assert memory / BYTES_PER_PARAM == 5e9
    # Distractors: FP32 weights only, FP16 weights only, optimizer states only.
    assert memory / 4 == 20e9 and memory / 2 == 40e9
    assert f"{memory / 12 / 1e9:.1f}" == "6.7"
    assert (memory / 2) / (memory / BYTES_PER_PARAM) == 8
    assert Fraction(BYTES_PER_PARAM, 12) == Fraction(4, 3)  # overshoots by a third
    # The ZeRO paper's 32 GB GPUs: 2e9 parameters of states, fewer than 1.5B with the rest.
    assert 32 * GB / BYTES_PER_PARAM == 2e9
    BANK.assert_right_states("mp-largest-model", "5")
    BANK.assert_field_states("mp-largest-model", "explanation", "80", "16", "5", "1.5")


def test_flattened_fp32_buffer() -> None:
    params = 1.5e9
    assert params * 4 == 6 * GB
    # Distractors: FP16 gradients, twice the FP32 buffer, the model states.
    assert params * 2 == 3 * GB and params * 8 == 12 * GB
    assert params * BYTES_PER_PARAM == 24 * GB
    BANK.assert_right_states("mp-flat-fp32-buffer", "6", "4")
    BANK.assert_no_wrong_states("mp-flat-fp32-buffer", "6")


def test_activation_growth_with_sequence_length() -> None:
    h, a, b = 4096, 32, 1
    short, long = layer_activation_bytes(2048, b, h, a), layer_activation_bytes(4096, b, h, a)
    assert 34 + Fraction(5 * a * 2048, h) == 114
    assert 34 + Fraction(5 * a * 4096, h) == 194
    ratio = long / short
    assert ratio == Fraction(2 * 194, 114)
    assert f"{float(ratio):.1f}" == "3.4"
    # Distractors: the bracket alone, linear growth, quadratic growth.
    assert f"{194 / 114:.1f}" == "1.7"
    BANK.assert_right_states("mp-seq-doubling", "3.4")
    BANK.assert_no_wrong_states("mp-seq-doubling", "3.4")


class CachingAllocator:
    """The block rules of PyTorch's native CUDA caching allocator for one stream, default
    settings (no expandable segments, max_split_size unlimited, no power-of-two rounding)."""

    MIN_BLOCK = 512
    SMALL_SIZE = 1 * MIB
    SMALL_BUFFER = 2 * MIB
    LARGE_BUFFER = 20 * MIB
    MIN_LARGE_ALLOC = 10 * MIB
    ROUND_LARGE = 2 * MIB

    def __init__(self) -> None:
        self.free = {"small": [], "large": []}  # sizes of cached free blocks
        self.allocated = 0
        self.reserved = 0

    @classmethod
    def round_size(cls, size: int) -> int:
        if size < cls.MIN_BLOCK:
            return cls.MIN_BLOCK
        return cls.MIN_BLOCK * math.ceil(size / cls.MIN_BLOCK)

    @classmethod
    def allocation_size(cls, size: int) -> int:
        if size <= cls.SMALL_SIZE:
            return cls.SMALL_BUFFER
        if size < cls.MIN_LARGE_ALLOC:
            return cls.LARGE_BUFFER
        return cls.ROUND_LARGE * math.ceil(size / cls.ROUND_LARGE)

    def malloc(self, size: int) -> None:
        size = self.round_size(size)
        pool = "small" if size <= self.SMALL_SIZE else "large"
        fits = sorted(block for block in self.free[pool] if block >= size)
        if fits:  # best fit among cached blocks
            block = fits[0]
            self.free[pool].remove(block)
        else:  # a new segment from cudaMalloc
            block = self.allocation_size(size)
            self.reserved += block
        remaining = block - size
        split = remaining >= self.MIN_BLOCK if pool == "small" else remaining > self.SMALL_SIZE
        if split:
            self.free[pool].append(remaining)
            self.allocated += size
        else:
            self.allocated += block


def test_caching_allocator_reserves_one_20_mib_block() -> None:
    allocator = CachingAllocator()
    for _ in range(3):
        allocator.malloc(5 * MIB)
    assert (allocator.allocated, allocator.reserved) == (15 * MIB, 20 * MIB)
    assert allocator.free["large"] == [5 * MIB]
    # Distractors: a 20 MiB block per tensor, or each request rounded up to 2 MiB on its own.
    assert 3 * CachingAllocator.LARGE_BUFFER == 60 * MIB
    assert 3 * CachingAllocator.ROUND_LARGE * math.ceil(5 * MIB / (2 * MIB)) == 18 * MIB
    # A request of 10 MiB or more gets its own segment, rounded to 2 MiB.
    assert CachingAllocator.allocation_size(11 * MIB) == 12 * MIB
    # A small request: 4000 bytes become a 4096-byte block in a 2 MiB segment.
    small = CachingAllocator()
    small.malloc(4000)
    assert (small.allocated, small.reserved) == (4096, 2 * MIB)
    BANK.assert_right_states("mp-allocator-20mib", "15", "20")
    BANK.assert_no_wrong_states("mp-allocator-20mib", "20")


def test_fp32_logits_memory() -> None:
    s, b, v, h = 4096, 8, 128000, 4096
    logits = 4 * s * b * v
    assert logits == 16777216000
    assert f"{logits / GB:.1f}" == "16.8"
    # Distractors: 2 bytes per logit, a single sequence, the hidden size instead of the vocabulary.
    assert f"{2 * s * b * v / GB:.1f}" == "8.4"
    assert f"{4 * s * v / GB:.1f}" == "2.1"
    assert f"{4 * s * b * h / GB:.1f}" == "0.5"
    BANK.assert_right_states("mp-logits-fp32", "16.8")
    BANK.assert_field_states("mp-logits-fp32", "explanation", "16777216000", "16.8")


def next_power_of_two(size: int) -> int:
    """c10::llvm::PowerOf2Ceil."""
    return 1 << (size - 1).bit_length()


def test_pinned_batch_rounds_to_power_of_two() -> None:
    batch = 600 * MIB
    assert next_power_of_two(batch) == 1024 * MIB
    assert next_power_of_two(4097) == 8192
    assert next_power_of_two(1024 * MIB) == 1024 * MIB
    # Distractors: the exact size, a pageable plus a pinned copy, one pinned copy per worker.
    assert (2 * batch, 4 * batch) == (1200 * MIB, 2400 * MIB)
    BANK.assert_right_states("mp-pinned-pow2", "1024")
    BANK.assert_no_wrong_states("mp-pinned-pow2", "1024")


def test_estimate_7b_model_states() -> None:
    question = draft("mp-est-7b-model-states")
    states = 7e9 * BYTES_PER_PARAM
    assert states == 112 * GB > 80 * GB
    assert question["answer"] == "112 GB"
    assert question["tolerance"] == "10%"
    assert_explanation_states(question, "2", "12", "16", "112", "80")


def test_estimate_gpt2_activations() -> None:
    question = draft("mp-est-gpt2-activations")
    hidden, layers, batch, seq = 1600, 48, 32, 1024
    values = 12 * hidden * batch * seq * layers
    assert values == 30198988800
    activation_bytes = 2 * values
    assert f"{activation_bytes / GB:.1f}" == "60.4"
    # Within the draft's 2x tolerance of the paper's "about 60 GB" (it is within 1%).
    assert abs(activation_bytes / (60 * GB) - 1) < 0.01
    assert question["answer"] == "60 GB"
    assert question["tolerance"] == "2x"
    assert_explanation_states(question, "30198988800", "60.4", "24", "8")


def test_estimate_layer_activations() -> None:
    question = draft("mp-est-layer-activations")
    s, b, h, a = 4096, 1, 4096, 32
    assert Fraction(5 * a * s, h) == 160
    per_layer = layer_activation_bytes(s, b, h, a)
    assert s * b * h == 16777216
    assert per_layer == 3254779904
    assert f"{float(per_layer) / GIB:.2f}" == "3.03"
    assert abs(float(per_layer) / (3 * GIB) - 1) < 0.1  # within the draft's 10% tolerance
    assert round(100 * 160 / 194) == 82
    assert round(32 * float(per_layer) / GIB) == 97
    assert question["answer"] == "3.0 GiB"
    assert question["tolerance"] == "10%"
    assert_explanation_states(question, "16777216", "3254779904", "3.03", "82", "97")
