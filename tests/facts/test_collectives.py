"""Fact tests for banks/collectives.yaml: every number a compute question relies on is
computed here from the source formulas, and the literal the right choice states is checked
in every language (and, where useful, that the distractors hold the tempting wrong results).

Sources:
- nccl-tests doc/PERFORMANCE.md: busbw = algbw * 2(n-1)/n (all-reduce), * (n-1)/n
  (all-gather, S = total gathered size), * 1 (broadcast).
- NCCL src/device/all_reduce.h (runRing): 1 push + (n-2) reduce-send + 1 reduce-copy-send
  + (n-2) copy-send = 2(n-1) steps, each moving one 1/n chunk.
- CUDA Hopper Tuning Guide 1.4.3: 50 GB/s bidirectional per NVLink-4 link, 18 links on
  H100, 12 on A100.
- nccl-tests doc/PERFORMANCE.md, Algorithm bandwidth: time = size / algbw for large operations.
Estimate answers are read with bot.content.estimates and checked within their tolerance.
"""

from __future__ import annotations

from .support import LANGS, FactBank

BANK = FactBank("collectives")

GB = 10**9
MB = 10**6


def fmt(x: float, digits: int) -> str:
    return f"{x:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{x:.0f}"


def allreduce_busbw(algbw: float, n: int) -> float:
    return algbw * 2 * (n - 1) / n


def allgather_busbw(algbw: float, n: int) -> float:
    return algbw * (n - 1) / n


def ring_allreduce_steps(n: int) -> int:
    # NCCL runRing: step 0 push, n-2 recvReduceSend, 1 recvReduceCopySend, n-2 recvCopySend
    return 1 + (n - 2) + 1 + (n - 2)


def test_allreduce_busbw() -> None:
    qid = "coll-busbw-allreduce"
    q = BANK.question(qid)
    n, algbw = 8, 100  # GB/s, as in the prompt
    busbw = allreduce_busbw(algbw, n)
    assert busbw == 175
    BANK.assert_right_states(qid, f"{fmt(busbw, 0)} GB/s")
    # distractors: the (n-1)/n factor, no factor, and the limit 2 of the factor
    BANK.assert_some_wrong_states(qid, f"{fmt(allgather_busbw(algbw, n), 1)} GB/s")  # 87.5
    BANK.assert_some_wrong_states(qid, f"{algbw} GB/s")
    BANK.assert_some_wrong_states(qid, f"{2 * algbw} GB/s")
    for lang in LANGS:
        assert "8" in q["prompt"][lang] and "100 GB/s" in q["prompt"][lang]


def test_allgather_busbw() -> None:
    qid = "coll-busbw-allgather"
    n, size_total, seconds = 4, 4 * GB, 0.100
    algbw = size_total / seconds
    busbw = allgather_busbw(algbw, n)
    assert round(algbw / GB, 6) == 40
    assert round(busbw / GB, 6) == 30
    BANK.assert_right_states(qid, "30 GB/s")
    per_rank_mistake = allgather_busbw((size_total / n) / seconds, n) / GB  # S taken per rank
    assert round(per_rank_mistake, 6) == 7.5
    BANK.assert_some_wrong_states(qid, "7.5 GB/s")
    BANK.assert_some_wrong_states(qid, f"{fmt(algbw / GB, 0)} GB/s")  # algbw itself
    BANK.assert_some_wrong_states(qid, f"{fmt(allreduce_busbw(algbw, n) / GB, 0)} GB/s")  # 60


def test_broadcast_factor_is_one() -> None:
    # broadcast: t = S/B, so busbw = S/t = algbw for any n
    qid = "coll-busbw-broadcast"
    size, bandwidth = 1 * GB, 50 * GB
    t = size / bandwidth  # independent of the rank count
    assert size / t == bandwidth
    assert "equal" in BANK.right(qid)["en"]
    assert "बराबर" in BANK.right(qid)["hi"] and "সমান" in BANK.right(qid)["bn"]


def test_ring_allreduce_alpha_beta_time() -> None:
    qid = "coll-ring-alpha-beta-time"
    q = BANK.question(qid)
    n, size, alpha, bandwidth = 8, 40 * MB, 10e-6, 100 * GB
    steps = ring_allreduce_steps(n)
    assert steps == 2 * (n - 1) == 14
    bytes_per_rank = 2 * (n - 1) / n * size
    assert round(bytes_per_rank / MB, 6) == 70
    latency = steps * alpha
    transfer = bytes_per_rank / bandwidth
    total_ms = (latency + transfer) * 1e3
    assert round(total_ms, 6) == 0.84
    BANK.assert_right_states(qid, f"{total_ms:.2f} ms")
    # distractors: no latency term, only n-1 steps, 2S/B instead of 2(n-1)/n * S/B
    BANK.assert_some_wrong_states(qid, f"{transfer * 1e3:.2f} ms")  # 0.70
    BANK.assert_some_wrong_states(qid, f"{((n - 1) * alpha + transfer) * 1e3:.2f} ms")  # 0.77
    BANK.assert_some_wrong_states(qid, f"{(latency + 2 * size / bandwidth) * 1e3:.2f} ms")  # 0.94
    for lang in LANGS:
        explanation = q["explanation"][lang]
        assert "= 14" in explanation and "70 MB" in explanation and "0.84 ms" in explanation


def test_h100_nvlink_bandwidth() -> None:
    qid = "coll-nvlink-h100-links"
    q = BANK.question(qid)
    per_link = 50  # GB/s bidirectional, NVLink 3 and 4
    h100_links, a100_links = 18, 12
    assert h100_links * per_link == 900
    assert a100_links * per_link == 600
    assert h100_links * per_link // 2 == 450  # per direction, stated in the explanation
    for lang in LANGS:
        text = BANK.right(qid)[lang]
        assert "18" in text and "12" in text and "50 GB/s" in text
        assert "900 GB/s" in q["prompt"][lang] and "600 GB/s" in q["prompt"][lang]
        assert "450 GB/s" in q["explanation"][lang]


# Estimates: the true value recomputed from the sources' formulas, and the bank's answer, read as a
# player's would be, within the question's tolerance.


assert_estimate = BANK.assert_estimate


def test_estimate_ring_bytes_per_rank() -> None:
    qid = "coll-est-ring-bytes-per-rank"
    n, size = 64, 1 * GB
    chunk = size / n
    sent = ring_allreduce_steps(n) * chunk  # one 1/n chunk per runRing step
    assert sent == 2 * (n - 1) / n * size  # PERFORMANCE.md: (S/B) * 2(n-1)/n
    assert f"{sent / GB:.2f}" == "1.97"
    assert_estimate(qid, sent, "memory")
    assert ring_allreduce_steps(n) == 126
    BANK.assert_field_states(qid, "explanation", "1.97 GB", "126")


def test_estimate_allreduce_time_from_busbw() -> None:
    qid = "coll-est-allreduce-from-busbw"
    n, busbw, size = 8, 360 * GB, 14 * GB  # 7e9 parameters x 2 bytes (BF16)
    assert size == 7 * 10**9 * 2
    algbw = busbw / (2 * (n - 1) / n)
    assert round(algbw / GB) == 206
    seconds = size / algbw  # PERFORMANCE.md: time = size / algbw for large operations
    assert round(seconds * 1e3) == 68
    assert_estimate(qid, seconds, "time")
    # The tempting mistake: dividing by busbw, optimistic by 2(n-1)/n = 1.75.
    assert round(size / busbw * 1e3) == 39
    assert 2 * (n - 1) / n == 1.75
    BANK.assert_field_states(qid, "explanation", "206 GB/s", "68 ms", "39 ms", "1.75")


def test_estimate_ring_crossover_size() -> None:
    qid = "coll-est-ring-crossover"
    n, alpha, bandwidth = 64, 5e-6, 50 * GB
    latency = ring_allreduce_steps(n) * alpha
    assert round(latency * 1e3, 6) == 0.63

    def transfer(size: float) -> float:
        return 2 * (n - 1) / n * size / bandwidth

    crossover = n * alpha * bandwidth  # 2(n-1)α = 2(n-1)/n · S/B  ⇒  S = nαB
    assert round(crossover / MB, 6) == 16
    assert abs(transfer(crossover) - latency) < 1e-12
    assert_estimate(qid, crossover, "memory")
    BANK.assert_field_states(qid, "explanation", "0.63 ms", "16 MB")
