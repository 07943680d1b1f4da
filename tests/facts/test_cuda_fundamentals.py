"""Fact tests for banks/cuda-fundamentals.yaml and its estimate drafts
(banks/cuda-fundamentals.yaml).

Every number a compute question relies on is recomputed here from the inputs in its prompt and
the hardware figures of the cited NVIDIA documents, then looked up in the English, Hindi and
Bengali text of the right choice (or of the draft's answer and explanation).

Inputs and their sources (see the bank's comments):
- Warp of 32 threads; 32-byte segments on compute capability 6.0+; cudaMalloc aligns to 256 bytes
  (CUDA C++ Best Practices Guide 10.2.1, 10.2.1.2).
- 32 shared-memory banks, successive 32-bit words in successive banks (CUDA Programming Guide
  2.2.4.2, 2.2.4.2.2).
- A100, compute capability 8.0: 164 KB of shared memory per SM, 1 KB reserved per block, 163 KB per
  block, 32 resident blocks and 64 warps per SM, 64K 32-bit registers per SM; 16 blocks per SM on
  8.6 (Ampere Tuning Guide 1.4.1.1, 1.4.2.3); static shared memory limited to 48 KB.
- Staged copy and execute: tE + tT / nStreams when tE > tT, tT + tE / nStreams otherwise
  (Best Practices Guide 10.1.2).
- PCIe x16 Gen3: 16 GB/s peak, about 12 GB/s with pinned memory; V100 memory 898 GB/s (Best
  Practices Guide 10.1, 10.1.1); event timer resolution about half a microsecond (9.1.2); up to 2048
  active threads per multiprocessor (3.1).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from .support import BANKS, LANGS, NUMBER, NUMBER_OR_PERCENT, FactBank, numbers

BANK = FactBank("cuda-fundamentals", NUMBER_OR_PERCENT)
DRAFTS = BANKS / "cuda-fundamentals.yaml"  # its estimate questions

WARP_SIZE = 32
SEGMENT_BYTES = 32  # compute capability 6.0+
FLOAT_BYTES = 4
SHARED_BANKS = 32
KB = 1024  # NVIDIA's shared-memory KB are KiB

A100_SMEM_PER_SM_KB = 164
A100_RESERVED_PER_BLOCK_KB = 1
A100_SMEM_PER_BLOCK_KB = 163
A100_MAX_BLOCKS_PER_SM = 32
A100_MAX_WARPS_PER_SM = 64
A100_MAX_THREADS_PER_SM = 2048
A100_REGISTERS_PER_SM = 64 * 1024
CC86_MAX_BLOCKS_PER_SM = 16
STATIC_SMEM_LIMIT_KB = 48


draft = BANK.estimate


def assert_explanation_states(question: dict[str, Any], *literals: str) -> None:
    for literal in literals:
        for lang in LANGS:
            assert literal in numbers(question["explanation"][lang], NUMBER), (lang, literal)


def segments_touched(first_element: int, stride: int = 1) -> set[int]:
    """The 32-byte segments a warp touches when thread k reads element first + stride * k."""
    return {((first_element + stride * k) * FLOAT_BYTES) // SEGMENT_BYTES for k in range(WARP_SIZE)}


def conflict_ways(word_of_thread: list[int]) -> int:
    """The n of an n-way bank conflict: the most distinct words one bank must serve."""
    words_per_bank: dict[int, set[int]] = {}
    for word in word_of_thread:
        words_per_bank.setdefault(word % SHARED_BANKS, set()).add(word)
    return max(len(words) for words in words_per_bank.values())


def test_misaligned_warp_segments() -> None:
    assert 256 % SEGMENT_BYTES == 0  # cudaMalloc's alignment keeps element 0 on a segment start
    aligned = segments_touched(0)
    misaligned = segments_touched(1)
    assert len(aligned) == 4
    fetched = len(misaligned) * SEGMENT_BYTES
    used = WARP_SIZE * FLOAT_BYTES
    assert (len(misaligned), fetched, used) == (5, 160, 128)
    assert 100 * used / fetched == 80.0
    # The span of the explanation: bytes 4 to 131.
    assert (1 * FLOAT_BYTES, (WARP_SIZE + 1) * FLOAT_BYTES - 1) == (4, 131)
    # Distractors: stride 2 (8 segments, 50%) and one segment per thread (12.5%).
    assert len(segments_touched(0, stride=2)) == 8
    assert 100 * used / (len(segments_touched(0, stride=32)) * SEGMENT_BYTES) == 12.5
    BANK.assert_right_states("cf-misaligned-segments", "5", "80%")
    BANK.assert_no_wrong_states("cf-misaligned-segments", "80%")


def test_bank_conflicts_by_stride() -> None:
    def ways(stride: int) -> int:
        return conflict_ways([stride * t for t in range(WARP_SIZE)])

    assert ways(1) == 1 and ways(3) == 1
    assert (ways(2), ways(4), ways(16)) == (2, 4, 16)
    # The explanation's rule: odd strides are conflict-free, even ones are not.
    for stride in range(1, 33):
        assert (ways(stride) == 1) == (stride % 2 == 1), stride
    for lang in LANGS:
        assert BANK.right("cf-bank-stride")[lang] == "k = 3"


def test_transpose_tile_padding() -> None:
    def column_read_ways(row_words: int, column: int = 5) -> int:
        return conflict_ways([t * row_words + column for t in range(WARP_SIZE)])

    assert column_read_ways(32) == 32  # tile[32][32]
    assert column_read_ways(33) == 1  # tile[32][33]: bank (t + c) mod 32
    assert column_read_ways(64) == 32  # tile[32][64]
    # tile[33][32] adds a row, and the row stride stays 32 words.
    assert all(column_read_ways(32, c) == 32 for c in range(32))
    assert all(column_read_ways(33, c) == 1 for c in range(32))
    for lang in LANGS:
        assert "tile[32][33]" in BANK.right("cf-transpose-padding")[lang], lang


def staged_time(transfer: Fraction, execute: Fraction, streams: int) -> Fraction:
    """The Best Practices Guide's rough estimate for staged concurrent copy and execute."""
    if execute > transfer:
        return execute + transfer / streams
    return transfer + execute / streams


def test_staged_copy_overlap() -> None:
    transfer, execute, streams = Fraction(8), Fraction(12), 4
    assert staged_time(transfer, execute, streams) == 14
    assert transfer + execute == 20  # copy, then run
    # Distractors: perfect overlap, and dividing the whole job by the stream count.
    assert max(transfer, execute) == 12
    assert (transfer + execute) / streams == 5
    BANK.assert_right_states("cf-staged-overlap", "14")
    BANK.assert_no_wrong_states("cf-staged-overlap", "14")


def test_static_shared_array_size() -> None:
    floats = 24576
    assert floats * FLOAT_BYTES == 98304 == 96 * KB
    assert STATIC_SMEM_LIMIT_KB * KB < floats * FLOAT_BYTES <= A100_SMEM_PER_BLOCK_KB * KB
    assert A100_SMEM_PER_BLOCK_KB == A100_SMEM_PER_SM_KB - A100_RESERVED_PER_BLOCK_KB
    BANK.assert_field_states("cf-static-smem-limit", "prompt", "96", "24576")
    BANK.assert_right_states("cf-static-smem-limit", "48")


def test_shared_memory_limited_occupancy() -> None:
    threads, smem_kb, registers = 256, 41, 32
    per_block_kb = smem_kb + A100_RESERVED_PER_BLOCK_KB
    by_smem = A100_SMEM_PER_SM_KB // per_block_kb
    by_threads = A100_MAX_THREADS_PER_SM // threads
    by_registers = A100_REGISTERS_PER_SM // (threads * registers)
    blocks = min(by_smem, by_threads, by_registers, A100_MAX_BLOCKS_PER_SM)
    assert (per_block_kb, by_smem, blocks) == (42, 3, 3)
    warps = blocks * threads // WARP_SIZE
    assert (blocks * threads, warps) == (768, 24)
    occupancy = 100 * warps / A100_MAX_WARPS_PER_SM
    assert occupancy == 37.5
    # The explanation: without the reserved kilobyte, 4 blocks of 41 KB seem to fit exactly.
    assert A100_SMEM_PER_SM_KB // smem_kb == 4 and 4 * smem_kb == A100_SMEM_PER_SM_KB
    assert blocks * threads * registers == 24576 <= A100_REGISTERS_PER_SM == 65536
    # Distractors: 2 blocks (25%), 4 blocks (50%), the 8 blocks the thread limit allows (100%).
    assert by_threads == 8
    BANK.assert_right_states("cf-smem-occupancy", "37.5%", "3")
    BANK.assert_no_wrong_states("cf-smem-occupancy", "37.5%")
    BANK.assert_field_states("cf-smem-occupancy", "explanation", "24576", "65536", "768")


def test_block_slot_limited_occupancy() -> None:
    threads = 32
    warps_per_block = math.ceil(threads / WARP_SIZE)
    blocks = min(A100_MAX_BLOCKS_PER_SM, A100_MAX_THREADS_PER_SM // threads)
    assert blocks == 32
    occupancy = 100 * blocks * warps_per_block / A100_MAX_WARPS_PER_SM
    assert occupancy == 50.0
    # Full occupancy needs blocks of at least 2048 / 32 = 64 threads.
    assert A100_MAX_THREADS_PER_SM // A100_MAX_BLOCKS_PER_SM == 64
    # Distractors: the 8.6 block limit, one block per SM, and no block limit at all.
    assert 100 * CC86_MAX_BLOCKS_PER_SM / A100_MAX_WARPS_PER_SM == 25.0
    assert f"{100 / A100_MAX_WARPS_PER_SM:.1f}" == "1.6"
    assert A100_MAX_THREADS_PER_SM // threads == 64
    BANK.assert_right_states("cf-block-slot-occupancy", "50%", "32")
    BANK.assert_no_wrong_states("cf-block-slot-occupancy", "50%")


def test_estimate_pinned_pcie_copy() -> None:
    question = draft("cf-est-pinned-pcie-copy")
    size = 1.2e9  # bytes
    pinned, peak, v100_hbm = 12e9, 16e9, 898e9  # bytes per second
    assert math.isclose(size / pinned, 0.1)
    assert math.isclose(size / peak, 0.075)
    assert f"{1e3 * size / v100_hbm:.1f}" == "1.3"
    assert question["answer"] == "100 ms"
    assert question["tolerance"] == "2x"
    assert_explanation_states(question, "12", "16", "100", "75", "1.3", "898")


def test_estimate_staged_transfer_bound() -> None:
    question = draft("cf-est-staged-transfer-bound")
    transfer, execute, streams = Fraction(16), Fraction(8), 4
    assert staged_time(transfer, execute, streams) == 18
    assert transfer + execute == 24
    assert question["answer"] == "18 ms"
    assert question["tolerance"] == "10%"
    assert_explanation_states(question, "18", "24")


def test_estimate_event_timer_resolution() -> None:
    question = draft("cf-est-event-resolution")
    half_microsecond_in_ms = Fraction(1, 2) / 1000
    assert half_microsecond_in_ms * 1000 == Fraction(1, 2)
    assert question["answer"] == "0.5 µs"
    assert question["tolerance"] == "2x"
    assert_explanation_states(question, "0.5")


def test_estimate_resident_threads() -> None:
    question = draft("cf-est-resident-threads")
    sms, threads_per_sm = 80, 2048
    total = sms * threads_per_sm
    assert total == 163840 > 160000
    assert total // WARP_SIZE == 5120
    assert question["answer"] == str(total)
    assert question["tolerance"] == "10%"
    assert_explanation_states(question, "163840", "160000", "5120")
