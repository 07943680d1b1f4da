"""Fact tests for banks/sequence-parallelism.yaml.

Every number that a compute question of the bank relies on is computed here from the
formulas of the primary sources, and the literal number that the right choice states is
asserted in all three languages:

- Korthikanti et al., arXiv 2205.05198, equations 1, 2 and 4 (activation bytes per layer);
- Ring Attention, arXiv 2310.01889, section 3 (4dc^2/F >= 4cd/B, s = 6c) and Algorithm 1;
- DeepSpeed-Ulysses, arXiv 2309.14509 / DeepSpeed blog (4Nh/P elements per link);
- Hugging Face Transformers docs (number of heads divisible by sp_size);
- Megatron-LM megatron/core/utils.py (CP rank r holds chunks r and 2*cp_size - r - 1).

The estimate questions (kind: estimate) are recomputed from their sources and their `answer`,
read as the bot reads it (bot.content.estimates.read), must lie within the question's tolerance:

- Llama 3, arXiv 2407.21783, Table 3 (405B: 128 attention heads, 8 key/value heads, model
  dimension 16,384) and section 3.3.2 (all-gather based CP, 2 x CP chunks per sequence);
- Megatron-LM docs/user-guide/features/context_parallel.md (KV all-gather, own chunk kept).

Standard library and PyYAML only, plus the bot's own estimate reader.
"""

from __future__ import annotations

from fractions import Fraction

from .support import LANGS, FactBank, numbers

BANK = FactBank("sequence-parallelism")
MiB = 2**20
GiB = 2**30


# --- Korthikanti et al.: activation memory per layer --------------------------------------


def activation_bytes(
    s: int, b: int, h: int, a: int, t: int = 1, *, sp: bool = False, tp: bool = False
) -> Fraction:
    """Bytes of activations per transformer layer (2205.05198, eq. 1, 2 and 4)."""
    sbh = s * b * h
    attn = Fraction(5 * a * s, h)
    if sp:  # eq. 4: tensor + sequence parallel
        return Fraction(sbh, t) * (34 + attn)
    if tp:  # eq. 2: tensor parallel only
        return sbh * (10 + Fraction(24, t) + attn / t)
    return sbh * (34 + attn)  # eq. 1: no parallelism


def test_activation_memory_per_layer() -> None:
    s, b, h, a, t = 2048, 1, 4096, 32, 8
    assert s * b * h == 8388608
    assert Fraction(5 * a * s, h) == 80
    with_sp = activation_bytes(s, b, h, a, t, sp=True)
    assert with_sp == 8388608 * Fraction(114, 8)
    assert with_sp / MiB == 114
    for lang in LANGS:
        assert numbers(BANK.right("sp-activation-memory")[lang]) == ["114"]
    # the distractors: tensor parallel only, dropping the attention term, not dividing by t
    tp_only = activation_bytes(s, b, h, a, t, tp=True)
    no_attention_term = Fraction(s * b * h * 34, t)
    unsharded = activation_bytes(s, b, h, a)
    assert (tp_only / MiB, no_attention_term / MiB, unsharded / MiB) == (184, 34, 912)
    wrong = {numbers(c["en"])[0] for c in BANK.wrong("sp-activation-memory")}
    assert wrong == {"184", "34", "912"}
    # sequence parallelism divides eq. 1 by t exactly (the paper's claim after eq. 4)
    assert with_sp == unsharded / t


# --- Ring Attention: minimum block size and transfers ------------------------------------


def test_ring_attention_min_block_size() -> None:
    F = 312e12  # FLOP/s per host
    B = 100e9  # bytes/s between hosts
    c_min = F / B  # 4dc^2/F >= 4cd/B  <=>  c >= F/B
    assert c_min == 3120
    d = 128  # any head dimension: the condition is independent of d
    assert 4 * d * c_min**2 / F >= 4 * c_min * d / B * (1 - 1e-12)
    assert 4 * d * (c_min - 1) ** 2 / F < 4 * (c_min - 1) * d / B
    for lang in LANGS:
        assert numbers(BANK.right("sp-ring-min-block")[lang]) == ["3120"]
    # distractors: scores only (2dc^2), keys only (2cd), minimum sequence length s = 6c
    wrong = {int(numbers(c["en"])[0]) for c in BANK.wrong("sp-ring-min-block")}
    assert wrong == {round(2 * F / B), round(F / (2 * B)), round(6 * F / B)} == {6240, 1560, 18720}


def test_ring_attention_blocks_and_transfers() -> None:
    seq_len, hosts = 1048576, 64
    assert seq_len % hosts == 0
    block = seq_len // hosts
    assert block == 16384
    # Algorithm 1: for count = 1 to N_h - 1 each host sends its KV block to the next host
    sends_per_layer = len(range(1, hosts))
    assert sends_per_layer == hosts - 1 == 63
    # a host uses its own block plus 1 received block per transfer: every block exactly once
    assert 1 + sends_per_layer == hosts
    right = BANK.right("sp-ring-tokens-per-host")
    for lang in LANGS:
        assert numbers(right[lang]) == [str(block), str(sends_per_layer)], (lang, right[lang])


# --- DeepSpeed-Ulysses: head divisibility and per-link volume ----------------------------


def test_ulysses_valid_sp_size() -> None:
    heads, gpus = 40, 64
    candidates = [
        int(numbers(c["en"])[0]) for c in BANK.question("sp-ulysses-head-divisibility")["choices"]
    ]
    assert sorted(candidates) == [8, 16, 32, 64]
    valid = [p for p in candidates if p <= gpus and heads % p == 0]
    assert valid == [8]
    assert heads // 8 == 5
    BANK.assert_right_states("sp-ulysses-head-divisibility", "= 8")
    # the docs' own example: 32 heads support sp_size 1, 2, 4, 8, 16 or 32
    assert [p for p in range(1, 65) if 32 % p == 0] == [1, 2, 4, 8, 16, 32]


def test_ulysses_volume_per_link() -> None:
    N, h, P = 262144, 4096, 32
    bytes_per_element = 2  # BF16
    # all-to-all of M elements over P GPUs moves M/P per link; QKV (3Nh) + output (Nh)
    per_link_elements = (3 * N * h + N * h) // P
    assert per_link_elements == 4 * N * h // P == 134217728
    per_link = per_link_elements * bytes_per_element
    assert per_link == 256 * MiB
    for lang in LANGS:
        assert numbers(BANK.right("sp-ulysses-comm-per-link")[lang]) == ["256"]
    # distractors: QKV only, output only, Megatron-LM sequence parallelism (4Nh per link)
    assert 3 * N * h // P * bytes_per_element == 192 * MiB
    assert N * h // P * bytes_per_element == 64 * MiB
    assert 4 * N * h * bytes_per_element == 8 * GiB
    # constant volume when N and P grow together
    assert 4 * (2 * N) * h // (2 * P) == per_link_elements


# --- Megatron-Core context parallelism: causal load-balancing chunks ---------------------


def cp_chunks(cp_rank: int, cp_size: int) -> tuple[int, int]:
    """Chunks of a 2*cp_size split held by a CP rank (megatron/core/utils.py)."""
    return (cp_rank, 2 * cp_size - cp_rank - 1)


def test_cp_causal_chunk_assignment() -> None:
    cp_size = 4
    assert cp_chunks(1, cp_size) == (1, 6)
    for lang in LANGS:
        assert numbers(BANK.right("sp-cp-causal-chunks")[lang]) == ["1", "6"]
    # every chunk is held by exactly 1 rank
    held = sorted(c for r in range(cp_size) for c in cp_chunks(r, cp_size))
    assert held == list(range(2 * cp_size))
    # the docstring's example for CP = 2: (0, 3) on GPU 0 and (1, 2) on GPU 1
    assert [cp_chunks(r, 2) for r in range(2)] == [(0, 3), (1, 2)]
    # balance under a causal mask: chunk k attends to k + 1 chunks; every rank gets the same work
    work = {r: sum(k + 1 for k in cp_chunks(r, cp_size)) for r in range(cp_size)}
    assert len(set(work.values())) == 1
    # the distractor "chunks 0 and 7" is rank 0's pair; "2 and 3" is the contiguous split
    assert cp_chunks(0, cp_size) == (0, 7)
    contiguous_rank1 = (2 * 1, 2 * 1 + 1)
    assert contiguous_rank1 == (2, 3)


# --- Estimates ---------------------------------------------------------------------------

LLAMA3_405B_HEADS, LLAMA3_405B_KV_HEADS, LLAMA3_405B_DIM = 128, 8, 16384  # Table 3


assert_estimate = BANK.assert_estimate


def test_estimate_gqa_q_over_kv() -> None:
    qid = "sp-est-gqa-q-over-kv"
    head_dim = LLAMA3_405B_DIM // LLAMA3_405B_HEADS
    assert head_dim == 128
    q_values = LLAMA3_405B_HEADS * head_dim
    kv_values = 2 * LLAMA3_405B_KV_HEADS * head_dim
    assert (q_values, kv_values) == (16384, 2048)
    ratio = Fraction(q_values, kv_values)
    assert ratio == 8
    assert_estimate(qid, float(ratio), "count")
    # Full multi-head attention: K and V for all 128 heads are twice Q, 16 times the GQA volume.
    mha_kv = 2 * LLAMA3_405B_HEADS * head_dim
    assert (Fraction(mha_kv, q_values), Fraction(mha_kv, kv_values)) == (2, 16)
    BANK.assert_field_states(qid, "explanation", "16384", "2048", "8", "16")


def test_estimate_cp_gathered_kv_layer() -> None:
    qid = "sp-est-cp-gathered-kv-layer"
    seq = 131072  # 128K tokens, Llama 3's longest context
    head_dim = LLAMA3_405B_DIM // LLAMA3_405B_HEADS
    per_token = 2 * LLAMA3_405B_KV_HEADS * head_dim * 2  # K and V, BF16
    assert per_token == 4096
    gathered = seq * per_token
    assert gathered == 2**29 == 512 * MiB
    assert_estimate(qid, gathered, "memory")
    # Without GQA (128 KV heads) the gather is 16 times larger: 8 GiB per layer.
    assert seq * 2 * LLAMA3_405B_HEADS * head_dim * 2 == 16 * gathered == 8 * GiB
    BANK.assert_field_states(qid, "explanation", "2048", "4096", "131072", "512", "16", "8")


def causal_pairs(first: int, last: int) -> int:
    """Query-key pairs under a causal mask for the queries at positions first..last - 1."""
    return sum(position + 1 for position in range(first, last))


def test_estimate_causal_contiguous_imbalance() -> None:
    qid = "sp-est-causal-contiguous-imbalance"
    cp, c = 8, 4096  # 8 contiguous chunks of c tokens
    work = [causal_pairs(r * c, (r + 1) * c) for r in range(cp)]
    ratio = Fraction(work[-1], work[0])
    assert 14.99 < ratio < 15  # (7.5 c^2 + c/2) / (0.5 c^2 + c/2) tends to 15
    assert_estimate(qid, float(ratio), "count")
    # Load-balanced split (Megatron-Core, Llama 3): 2 x CP chunks of c/2, rank r gets r and 15 - r.
    half = c // 2
    balanced = [
        causal_pairs(r * half, (r + 1) * half)
        + causal_pairs((2 * cp - 1 - r) * half, (2 * cp - r) * half)
        for r in range(cp)
    ]
    assert len(set(balanced)) == 1
    assert sum(balanced) == sum(work)
    # Every balanced rank gets the average, about 4 c^2; the contiguous split's slowest rank
    # makes each step take nearly twice as long.
    assert round(balanced[0] / c**2, 2) == 4.0
    assert 1.8 < work[-1] / balanced[0] < 2
    BANK.assert_field_states(qid, "explanation", "0.5", "7.5", "15", "16", "4")
