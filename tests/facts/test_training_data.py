"""Fact tests for banks/training-data.yaml and its estimate drafts
(banks/training-data.yaml): every number a compute question relies on is
computed here, and the right choice (or the draft's answer) is asserted to state it in all three
languages.

Behaviour modelled from the sources (see the bank's comments):
- Hugging Face datasets, BufferShuffledExamplesIterable.__iter__: fill the buffer to buffer_size,
  then for each new example yield a uniformly random slot and put the new example there; at the
  end shuffle and yield what is left.
- Lee et al. (arXiv 2107.06499) NearDup: a pair is a candidate with probability
  1 - (1 - s^b)^r for Jaccard index s, b = 20 hashes per bucket, r = 450 buckets (Appendix A);
  suffix arrays need 8 bytes per input token (Sec. 4.1.1); C4 has 360M documents of 486 BPE
  tokens on average (Sec. 3).
- Megatron-LM DType.optimal_dtype: uint16 below a 65,500-entry vocabulary, else int32.
- Mosaic streaming: num_canonical_nodes defaults to the physical node count for py1e, and
  shuffle_block_size to max(4_000_000 // num_canonical_nodes, 1 << 18).
- LLaMA (arXiv 2302.13971): about 380 tokens/s/GPU on 2048 A100 GPUs, 1.4T tokens, ~21 days.

Stdlib + PyYAML only.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from .support import BANKS, GROUPED_NUMBER, LANGS, NUMBER_OR_PERCENT, FactBank, within
from .support import written_value as answer_value

BANK = FactBank("training-data", pattern=GROUPED_NUMBER)
PERCENT_BANK = FactBank("training-data", pattern=NUMBER_OR_PERCENT)
DRAFTS = BANKS / "training-data.yaml"  # its estimate questions

TB = 10**12
UINT16_LIMIT = 65_500  # Megatron-LM: cardinality below this uses uint16


estimate = BANK.estimate


def bytes_per_token(vocab_size: int) -> int:
    """Megatron-LM's DType.optimal_dtype: uint16 (2 bytes) or int32 (4 bytes)."""
    return 2 if vocab_size < UINT16_LIMIT else 4


def test_pretokenized_corpus_size() -> None:
    tokens, vocab = 2 * 10**12, 128_256
    size = tokens * bytes_per_token(vocab)
    assert size == 8 * TB
    # Distractors: uint16 ids, 1-byte ids, int64 ids.
    assert tokens * 2 == 4 * TB and tokens * 1 == 2 * TB and tokens * 8 == 16 * TB
    assert bytes_per_token(32_000) == 2  # Llama 2's 32k vocabulary
    BANK.assert_right_states("td-megatron-dtype", "8")
    BANK.assert_no_wrong_states("td-megatron-dtype", "8")


def test_padding_waste_and_packed_rows() -> None:
    examples, mean_tokens, row = 10_000, 300, 1024
    padding = 1 - Fraction(mean_tokens, row)
    assert f"{float(padding):.1%}" == "70.7%"
    rows = examples * mean_tokens / row
    assert round(rows, -1) == 2930
    assert f"{examples / rows:.1f}" == "3.4"
    # Distractors: the share of real tokens, and one example per row.
    assert f"{float(1 - padding):.0%}" == "29%"
    assert round(examples * float(padding), -1) == 7070
    PERCENT_BANK.assert_right_states("td-packing-padding", "71%")
    BANK.assert_right_states("td-packing-padding", "2,930")
    wrong_en = [c["en"] for c in BANK.wrong("td-packing-padding")]
    assert not any("71%" in w and "2,930" in w for w in wrong_en)


def lsh_candidate_probability(s: float, b: int = 20, r: int = 450) -> float:
    """Lee et al. Appendix A: r buckets of b MinHash values; a pair is a candidate if any bucket
    matches in full."""
    return 1 - (1 - s**b) ** r


def test_minhash_lsh_candidate_probability() -> None:
    assert 20 * 450 == 9000
    p = lsh_candidate_probability(0.8)
    assert f"{p:.1%}" == "99.5%"
    assert f"{0.8**20:.1%}" == "1.2%"
    assert f"{1 - p:.1%}" == "0.5%"
    assert round(0.8**20, 4) == 0.0115
    # The S-curve: unrelated pairs rarely collide.
    assert f"{lsh_candidate_probability(0.5):.2%}" == "0.04%"
    # Distractor: the exponents swapped (20 buckets of 450 values).
    assert lsh_candidate_probability(0.8, b=450, r=20) < 1e-40
    PERCENT_BANK.assert_right_states("td-lsh-probability", "99.5%")
    PERCENT_BANK.assert_no_wrong_states("td-lsh-probability", "99.5%")


def buffer_shuffle(stream: list[int], buffer_size: int, pick: Any) -> list[int]:
    """The Hugging Face BufferShuffledExamplesIterable loop, with a pluggable slot picker."""
    out: list[int] = []
    buffer: list[int] = []
    for x in stream:
        if len(buffer) == buffer_size:
            i = pick(buffer)
            out.append(buffer[i])
            buffer[i] = x
        else:
            buffer.append(x)
    random.Random(0).shuffle(buffer)
    out.extend(buffer)
    return out


def test_shuffle_buffer_earliest_position() -> None:
    buffer_size, n = 1000, 50_000
    # Example numbers counting from 1; the stream goes on past the 50,000th example.
    stream = list(range(1, n + buffer_size + 1))

    # Adversarial picker: always yield the newest example in the buffer, so every example
    # leaves as early as the algorithm allows.
    def newest(buf: list[int]) -> int:
        return max(range(len(buf)), key=buf.__getitem__)

    out = buffer_shuffle(stream, buffer_size, pick=newest)
    earliest = out.index(n) + 1
    assert earliest == n - buffer_size + 1 == 49_001
    # No random run can do better than the bound.
    rng = random.Random(1234)
    small = list(range(1, 5001))
    for _ in range(20):
        shuffled = buffer_shuffle(small, 100, pick=lambda buf: rng.randrange(len(buf)))
        assert sorted(shuffled) == small
        assert all(position + 1 >= example - 100 + 1 for position, example in enumerate(shuffled))
    # Distractors: off by one, no movement, a full shuffle.
    assert n - buffer_size == 49_000
    BANK.assert_right_states("td-buffer-earliest-position", "49,001", "999")
    BANK.assert_no_wrong_states("td-buffer-earliest-position", "49,001")


def mosaic_shuffle_block_size(nodes: int, algo: str = "py1e") -> int:
    num_canonical_nodes = 64 * nodes if algo in ("py1s", "py2s") else nodes
    return max(4_000_000 // num_canonical_nodes, 1 << 18)


def test_mosaic_default_shuffle_block_size() -> None:
    assert mosaic_shuffle_block_size(16) == 262_144 == 1 << 18
    assert 4_000_000 // 16 == 250_000
    assert 4_000_000 // (16 * 8) == 31_250  # distractor: dividing by GPUs
    assert mosaic_shuffle_block_size(4) == 1_000_000  # fewer nodes: the quotient wins
    BANK.assert_right_states("td-mosaic-block-size", "262,144")
    BANK.assert_no_wrong_states("td-mosaic-block-size", "262,144")


def test_elastic_determinism_settings() -> None:
    gpus_run1, gpus_per_node, per_device_run1, gpus_run2 = 32, 8, 4, 8
    num_canonical_nodes = gpus_run1 // gpus_per_node  # defaults to run 1's physical nodes
    global_batch = gpus_run1 * per_device_run1
    assert global_batch % gpus_run2 == 0
    per_device_run2 = global_batch // gpus_run2
    assert (num_canonical_nodes, global_batch, per_device_run2) == (4, 128, 16)
    right = BANK.right("td-elastic-determinism")
    for lang in LANGS:
        assert "num_canonical_nodes=4" in right[lang] and "16" in right[lang]


def test_estimate_llama_read_bandwidth() -> None:
    gpus, tokens_per_gpu = 2048, 380
    tokens_per_s = gpus * tokens_per_gpu
    assert tokens_per_s == 778_240
    bandwidth = tokens_per_s * bytes_per_token(32_000)
    assert bandwidth == 1_556_480
    draft = estimate("td-est-llama-read-bandwidth")
    assert answer_value(draft) == (1.6, "MB/s")
    assert within(draft, bandwidth / 1e6)


def test_estimate_llama_training_days() -> None:
    seconds = 1.4e12 / (2048 * 380)
    days = seconds / 86_400
    assert round(seconds / 1e6, 1) == 1.8
    assert round(days, 1) == 20.8
    draft = estimate("td-est-llama-train-days")
    assert answer_value(draft) == (21.0, "days")
    assert within(draft, days)


def test_estimate_c4_suffix_array_size() -> None:
    documents, mean_tokens, bytes_per_input_token = 360 * 10**6, 486, 8
    tokens = documents * mean_tokens
    assert round(tokens / 1e11, 2) == 1.75
    size = tokens * bytes_per_input_token
    assert round(size / TB, 1) == 1.4
    draft = estimate("td-est-suffix-array-c4")
    assert answer_value(draft) == (1.4, "TB")
    assert within(draft, size / TB)


def test_estimate_tokenized_corpus_size() -> None:
    size = 1.4e12 * bytes_per_token(32_000)
    assert size == 2.8e12
    assert 1.4e12 * bytes_per_token(128_000) == 5.6e12
    draft = estimate("td-est-tokenized-corpus-size")
    assert answer_value(draft) == (2.8, "TB")
    assert within(draft, size / TB)
