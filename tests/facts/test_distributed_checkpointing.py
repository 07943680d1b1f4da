"""Fact tests for banks/distributed-checkpointing.yaml and its estimate
questions: every number a compute question relies on
is computed here, and the literal the right choice states is asserted in all three languages.

Inputs and their sources (see the bank's comments):
- Async DCP staging copies each rank's state into CPU buffers: host memory grows by the
  checkpoint size per rank x the ranks on the host (PyTorch recipe "Asynchronous Saving with
  Distributed Checkpoint", Overview).
- Mixed-precision Adam: FP16 weights and gradients (2 + 2 bytes) plus FP32 master weights,
  momentum and variance (K = 12 bytes) per parameter (ZeRO, arXiv 1910.02054, Sec. 3.1).
- Young's first-order optimum interval sqrt(2 delta M) (CACM 17(9), 1974); Daly's first-order
  cost model, waste = delta/tau + tau/(2M) (FGCS 22(3), 2006), Fig. 3: M = 24 h, delta = 5 min.
- Llama 3 (arXiv 2407.21783): 466 interruptions in a 54-day snapshot, 47 planned and 419
  unexpected (Sec. 3.3.4, Table 5); up to 16K GPUs (16,384), 1 MB to 4 GB of checkpoint state
  per GPU, storage sustaining 2 TB/s (Sec. 3.3.1).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import yaml

from .support import BANKS, LANGS, NUMBER_OR_PERCENT, FactBank

BANK = FactBank("distributed-checkpointing")
NUMBERS = FactBank("distributed-checkpointing", pattern=NUMBER_OR_PERCENT)
DRAFTS = BANKS / "distributed-checkpointing.yaml"  # its estimate questions

GB = 10**9
TB = 10**12

# Llama 3, Sec. 3.3.4
SNAPSHOT_DAYS = 54
INTERRUPTIONS = 466
PLANNED = 47
UNEXPECTED = 419


def estimates() -> dict[str, dict[str, Any]]:
    questions = [
        q
        for q in yaml.safe_load(DRAFTS.read_text(encoding="utf-8"))["questions"]
        if q.get("kind") == "estimate"
    ]
    return {q["id"]: q for q in questions}


def young_interval(delta: float, mtbf: float) -> float:
    """Young's first-order optimum checkpoint interval, in the unit of its inputs."""
    return math.sqrt(2 * delta * mtbf)


def waste(tau: float, delta: float, mtbf: float) -> float:
    """Daly's first-order cost: time writing checkpoints plus rework, per unit of time."""
    return delta / tau + tau / (2 * mtbf)


def llama3_mtbf_hours() -> Fraction:
    return Fraction(SNAPSHOT_DAYS * 24, UNEXPECTED)


def test_llama3_interruption_counts() -> None:
    assert PLANNED + UNEXPECTED == INTERRUPTIONS
    qid = "ckpt-llama3-top-cause"
    # The explanation quotes Table 5 as printed.
    BANK.assert_field_states(qid, "explanation", "58.7%", "148", "30.1%", "72", "17.2%")
    BANK.assert_field_states(qid, "explanation", "54", "12.9%", "35", "8.4%", "78%")
    BANK.assert_right_states(qid, "GPU", "HBM3")
    BANK.assert_field_states(qid, "prompt", "419", "54")


def test_async_staging_host_ram() -> None:
    qid = "ckpt-async-host-ram"
    ranks_per_host, shard_gb = 8, 12
    extra = ranks_per_host * shard_gb
    assert extra == 96
    BANK.assert_right_states(qid, "96 GB")
    # Distractors: one rank's buffer, one shard split over the host, two saves in flight.
    BANK.assert_some_wrong_states(qid, f"{shard_gb} GB")
    BANK.assert_some_wrong_states(qid, f"{shard_gb / ranks_per_host} GB")  # 1.5 GB
    BANK.assert_some_wrong_states(qid, f"{2 * extra} GB")  # 192 GB
    BANK.assert_field_states(qid, "explanation", "8 × 12 GB = 96 GB")


def test_mixed_precision_adam_checkpoint_size() -> None:
    qid = "ckpt-size-mixed-adam"
    params = 7 * 10**9
    fp16_weights, fp16_grads, k_adam = 2, 2, 12  # bytes per parameter (ZeRO Sec. 3.1)
    assert k_adam == 4 + 4 + 4  # FP32 master weights, momentum, variance
    checkpoint = (fp16_weights + k_adam) * params
    assert checkpoint == 98 * GB
    BANK.assert_right_states(qid, "98 GB")
    # Distractors: with gradients (16 bytes), optimizer states alone, FP16 weights alone.
    assert (fp16_weights + fp16_grads + k_adam) * params == 112 * GB
    assert k_adam * params == 84 * GB
    assert fp16_weights * params == 14 * GB
    for wrong in ("112 GB", "84 GB", "14 GB"):
        BANK.assert_some_wrong_states(qid, wrong)
    BANK.assert_field_states(qid, "explanation", "14 × 7B = 98 GB")


def test_young_interval_llama3() -> None:
    qid = "ckpt-young-interval"
    mtbf_min = float(llama3_mtbf_hours()) * 60
    assert round(mtbf_min, 1) == 185.6
    assert round(float(llama3_mtbf_hours()), 1) == 3.1
    delta_min = 1.0
    tau = young_interval(delta_min, mtbf_min)
    assert round(2 * delta_min * mtbf_min) == 371
    assert round(tau) == 19
    BANK.assert_right_states(qid, "19")
    # Distractors: no factor 2, minutes mixed with hours, half the MTBF.
    assert round(math.sqrt(delta_min * mtbf_min)) == 14
    assert round(young_interval(delta_min, float(llama3_mtbf_hours())), 1) == 2.5
    assert round(mtbf_min / 2) == 93
    assert round(mtbf_min / 4) == 46  # work lost on average per interruption at tau = M/2
    for wrong in ("14", "2.5", "93"):
        NUMBERS.assert_some_wrong_states(qid, wrong)
    BANK.assert_field_states(qid, "explanation", "185.6", "sqrt(371)", "≈ 19")


def test_young_interval_scaling() -> None:
    qid = "ckpt-young-scaling"
    delta, mtbf = 1.0, 200.0
    ratio = young_interval(delta, mtbf / 2) / young_interval(delta, mtbf)
    assert math.isclose(ratio, 1 / math.sqrt(2))
    assert f"{ratio:.2f}" == "0.71"
    # Daly's first-order cost is smallest at Young's interval, where it equals sqrt(2 delta / M).
    tau = young_interval(delta, mtbf)
    grid = [tau * (0.5 + i / 1000) for i in range(1001)]
    best = min(grid, key=lambda t: waste(t, delta, mtbf))
    assert math.isclose(best, tau, rel_tol=1e-3)
    assert math.isclose(waste(tau, delta, mtbf), math.sqrt(2 * delta / mtbf))
    # Halving the MTBF raises that minimal waste by sqrt(2) too.
    assert math.isclose(
        waste(young_interval(delta, mtbf / 2), delta, mtbf / 2) / waste(tau, delta, mtbf),
        math.sqrt(2),
    )
    BANK.assert_right_states(qid, "1/sqrt(2)", "0.71")
    BANK.assert_field_states(qid, "prompt", "8,192", "16,384")
    assert 16_384 == 2 * 8_192


def test_effective_training_time_and_mfu_are_distinct() -> None:
    qid = "ckpt-effective-training-time"
    BANK.assert_field_states(qid, "prompt", "90%")
    BANK.assert_field_states(qid, "explanation", "38", "43%")
    for lang in LANGS:
        assert "MFU" in BANK.question(qid)["explanation"][lang]


# Estimates (banks/distributed-checkpointing.yaml).


def test_estimate_llama3_mtbf() -> None:
    est = estimates()["ckpt-est-llama3-mtbf"]
    hours = float(llama3_mtbf_hours())
    assert math.isclose(hours, 3.093, rel_tol=1e-3)
    assert est["answer"] == f"{hours:.1f} h" == "3.1 h"
    # Counting the 47 planned interruptions too would give 2.8 h: the prompt names the 419.
    assert round(SNAPSHOT_DAYS * 24 / INTERRUPTIONS, 1) == 2.8
    assert est["tolerance"] == "10%"


def test_estimate_daly_first_order_interval() -> None:
    est = estimates()["ckpt-est-daly-interval"]
    delta_min, mtbf_min = 5, 24 * 60
    tau = young_interval(delta_min, mtbf_min)
    assert tau == 120
    assert est["answer"] == "120 min"
    # Daly's higher-order estimate, tau = sqrt(2 delta M)(1 + x/3 + x^2/9) - delta with
    # x = sqrt(delta / 2M), gives the 117 min of his Fig. 3.
    x = math.sqrt(delta_min / (2 * mtbf_min))
    assert round(tau * (1 + x / 3 + x**2 / 9) - delta_min) == 117


def test_estimate_lost_work() -> None:
    est = estimates()["ckpt-est-lost-work"]
    interval_h = Fraction(1, 2)  # the prompt's assumed 30-minute interval
    lost = UNEXPECTED * interval_h / 2  # half an interval lost per interruption, on average
    assert lost == Fraction(41900, 400) and float(lost) == 104.75
    assert est["answer"] == "105 h"
    share = lost / (SNAPSHOT_DAYS * 24)
    assert round(float(share) * 100, 1) == 8.1


def test_estimate_checkpoint_burst() -> None:
    est = estimates()["ckpt-est-checkpoint-burst"]
    gpus, per_gpu, sustained = 16_384, 4 * GB, 2 * TB
    total = gpus * per_gpu
    assert round(total / TB, 1) == 65.5
    seconds = total / sustained
    assert round(seconds, 1) == 32.8
    assert est["answer"] == "33 s"
    assert est["tolerance"] == "2x"
