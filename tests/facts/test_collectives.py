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
"""

from __future__ import annotations

from pathlib import Path

import yaml

BANK_PATH = Path(__file__).parents[2] / "banks" / "collectives.yaml"
BANK = yaml.safe_load(BANK_PATH.read_text(encoding="utf-8"))
LANGS = ("en", "hi", "bn")

GB = 10**9
MB = 10**6


def question(qid: str) -> dict:
    return next(q for q in BANK["questions"] if q["id"] == qid)


def right(q: dict) -> dict:
    return q["choices"][q["answer"]]


def wrong(q: dict) -> list[dict]:
    return [c for i, c in enumerate(q["choices"]) if i != q["answer"]]


def assert_right_states(q: dict, literal: str) -> None:
    for lang in LANGS:
        assert literal in right(q)[lang], (q["id"], lang, literal)


def assert_some_wrong_states(q: dict, literal: str) -> None:
    for lang in LANGS:
        assert any(literal in c[lang] for c in wrong(q)), (q["id"], lang, literal)


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
    q = question("coll-busbw-allreduce")
    n, algbw = 8, 100  # GB/s, as in the prompt
    busbw = allreduce_busbw(algbw, n)
    assert busbw == 175
    assert_right_states(q, f"{fmt(busbw, 0)} GB/s")
    # distractors: the (n-1)/n factor, no factor, and the limit 2 of the factor
    assert_some_wrong_states(q, f"{fmt(allgather_busbw(algbw, n), 1)} GB/s")  # 87.5
    assert_some_wrong_states(q, f"{algbw} GB/s")
    assert_some_wrong_states(q, f"{2 * algbw} GB/s")
    for lang in LANGS:
        assert "8" in q["prompt"][lang] and "100 GB/s" in q["prompt"][lang]


def test_allgather_busbw() -> None:
    q = question("coll-busbw-allgather")
    n, size_total, seconds = 4, 4 * GB, 0.100
    algbw = size_total / seconds
    busbw = allgather_busbw(algbw, n)
    assert round(algbw / GB, 6) == 40
    assert round(busbw / GB, 6) == 30
    assert_right_states(q, "30 GB/s")
    per_rank_mistake = allgather_busbw((size_total / n) / seconds, n) / GB  # S taken per rank
    assert round(per_rank_mistake, 6) == 7.5
    assert_some_wrong_states(q, "7.5 GB/s")
    assert_some_wrong_states(q, f"{fmt(algbw / GB, 0)} GB/s")  # algbw itself
    assert_some_wrong_states(q, f"{fmt(allreduce_busbw(algbw, n) / GB, 0)} GB/s")  # 60


def test_broadcast_factor_is_one() -> None:
    # broadcast: t = S/B, so busbw = S/t = algbw for any n
    q = question("coll-busbw-broadcast")
    size, bandwidth = 1 * GB, 50 * GB
    t = size / bandwidth  # independent of the rank count
    assert size / t == bandwidth
    assert "equal" in right(q)["en"]
    assert "बराबर" in right(q)["hi"] and "সমান" in right(q)["bn"]


def test_ring_allreduce_alpha_beta_time() -> None:
    q = question("coll-ring-alpha-beta-time")
    n, size, alpha, bandwidth = 8, 40 * MB, 10e-6, 100 * GB
    steps = ring_allreduce_steps(n)
    assert steps == 2 * (n - 1) == 14
    bytes_per_rank = 2 * (n - 1) / n * size
    assert round(bytes_per_rank / MB, 6) == 70
    latency = steps * alpha
    transfer = bytes_per_rank / bandwidth
    total_ms = (latency + transfer) * 1e3
    assert round(total_ms, 6) == 0.84
    assert_right_states(q, f"{total_ms:.2f} ms")
    # distractors: no latency term, only n-1 steps, 2S/B instead of 2(n-1)/n * S/B
    assert_some_wrong_states(q, f"{transfer * 1e3:.2f} ms")  # 0.70
    assert_some_wrong_states(q, f"{((n - 1) * alpha + transfer) * 1e3:.2f} ms")  # 0.77
    assert_some_wrong_states(q, f"{(latency + 2 * size / bandwidth) * 1e3:.2f} ms")  # 0.94
    for lang in LANGS:
        explanation = q["explanation"][lang]
        assert "= 14" in explanation and "70 MB" in explanation and "0.84 ms" in explanation


def test_h100_nvlink_bandwidth() -> None:
    q = question("coll-nvlink-h100-links")
    per_link = 50  # GB/s bidirectional, NVLink 3 and 4
    h100_links, a100_links = 18, 12
    assert h100_links * per_link == 900
    assert a100_links * per_link == 600
    assert h100_links * per_link // 2 == 450  # per direction, stated in the explanation
    for lang in LANGS:
        text = right(q)[lang]
        assert "18" in text and "12" in text and "50 GB/s" in text
        assert "900 GB/s" in q["prompt"][lang] and "600 GB/s" in q["prompt"][lang]
        assert "450 GB/s" in q["explanation"][lang]
