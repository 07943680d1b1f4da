"""The numbers the two seed banks' explanations state, computed from the formats and
link rates themselves (IEEE 754 binary16 through struct's 'e' format)."""

from __future__ import annotations

import math
import struct

from .support import FactBank, fp16

MIXED_PRECISION = FactBank("mixed-precision")
OFFLOADING = FactBank("offloading")


def _explanation(bank: FactBank, qid: str) -> str:
    return bank.question(qid)["explanation"]["en"]


def test_an_update_below_half_an_fp16_step_is_rounded_away() -> None:
    # Relative to |w|, half the gap to the next FP16 value is 2^-11 at a power of two
    # (mantissa 1.0) and just over 2^-12 as the mantissa nears 2.
    for weight in (1.0, 1.5, fp16(1.999)):  # FP16 values themselves
        step = 2.0 ** (math.frexp(weight)[1] - 1 - 10)  # the FP16 gap at this exponent
        assert fp16(weight + 0.49 * step) == fp16(weight)  # lost
        assert fp16(weight + 0.51 * step) != fp16(weight)  # kept
        assert 2**-12 <= (step / 2) / weight <= 2**-11
    assert "between 2^-12 and 2^-11 of the weight's magnitude" in _explanation(
        MIXED_PRECISION, "mp-master-weights"
    )


def test_fp16_underflows_gradually_from_2_to_the_minus_14_to_2_to_the_minus_24() -> None:
    assert fp16(2.0**-14) == 2.0**-14 and fp16(2.0**-24) == 2.0**-24  # normal, subnormal
    assert fp16(2.0**-25 * 1.01) == 2.0**-24 and fp16(2.0**-25 * 0.99) == 0.0
    assert f"{2.0**-14:.1e}" == "6.1e-05" and f"{2.0**-24:.0e}" == "6e-08"
    text = _explanation(MIXED_PRECISION, "mp-loss-scaling")
    assert "2^-14 (about 6.1e-5)" in text and "2^-24 (about 6e-8)" in text


def _overflows_fp16(x: float) -> bool:
    """struct refuses to pack a value that rounds past FP16's largest finite one (Inf)."""
    try:
        fp16(x)
    except OverflowError:
        return True
    return False


def test_a_gradient_of_1_overflows_fp16_at_the_default_scale() -> None:
    scale = 2.0**16  # GradScaler's default init_scale
    assert fp16(65504.0) == 65504.0 and fp16(65519.0) == 65504.0  # largest finite value
    assert _overflows_fp16(65520.0)  # the first value that rounds to Inf
    assert _overflows_fp16(1.0 * scale) and not _overflows_fp16(0.999 * scale)
    assert 0.999 < 65520 / scale < 1
    MIXED_PRECISION.assert_right_states("mp-scaled-gradient-overflow", "1 × 65536", "65504")
    assert "65520 / 65536" in _explanation(MIXED_PRECISION, "mp-scaled-gradient-overflow")


def test_estimate_scale_after_ten_overflows() -> None:
    init_scale, backoff = 2.0**16, 0.5  # GradScaler defaults
    MIXED_PRECISION.assert_estimate(
        "mp-est-scale-after-overflows", init_scale * backoff**10, "count", rel=0
    )


def test_estimate_iterations_to_grow_back() -> None:
    growth_factor, growth_interval = 2.0, 2000  # GradScaler defaults
    doublings = math.log(2.0**16 / 1024, growth_factor)
    assert doublings == 6
    MIXED_PRECISION.assert_estimate(
        "mp-est-scale-growth-iterations", doublings * growth_interval, "count", rel=0
    )


def test_estimate_tf32_peak_speedup() -> None:
    fp32_tflops, tf32_tflops = 19.5, 156  # A100 datasheet, dense
    MIXED_PRECISION.assert_estimate(
        "mp-est-tf32-peak-speedup", tf32_tflops / fp32_tflops, "count", rel=0
    )


def test_adam_keeps_12_of_16_bytes_per_parameter() -> None:
    fp32, fp16 = 4, 2
    assert 3 * fp32 == 12 and 3 * fp32 + fp16 + fp16 == 16
    assert "4 + 4 + 4 = 12 bytes" in _explanation(OFFLOADING, "offloading-adam-bytes-per-param")


def test_pcie_4_link_rates() -> None:
    per_lane = 16e9 * 128 / 130 / 8  # 16 GT/s with 128b/130b encoding, in bytes/s
    assert round(16 * per_lane / 1e9, 1) == 31.5  # x16: "about 32 GB/s" each way
    assert 4 * per_lane / 1e9 < 8  # x4: "below 8 GB/s"
    text = _explanation(OFFLOADING, "offloading-performance-cost")
    assert "about 32 GB/s in each direction" in text and "capped below 8 GB/s" in text


def test_estimate_gradient_transfer_time() -> None:
    grads = 10e9 * 2  # 10B FP16 gradients, bytes
    truth = grads / 32e9  # at the prompt's 32 GB/s per direction
    assert truth == 0.625
    per_lane = 16e9 * 128 / 130 / 8  # PCIe 4.0: the link's real ~31.5 GB/s is within tolerance
    q = OFFLOADING.assert_estimate("offloading-est-gradient-transfer", truth, "time", rel=0)
    OFFLOADING.assert_estimate("offloading-est-gradient-transfer", grads / (16 * per_lane), "time")
    assert "20 GB / 32 GB/s = 0.625 s" in q["explanation"]["en"]


def test_estimate_host_memory() -> None:
    per_param = 3 * 4 + 2  # FP32 master weight, momentum, variance; FP16 gradient
    truth = 13e9 * per_param
    q = OFFLOADING.assert_estimate("offloading-est-host-memory", truth, "memory", rel=0)
    assert "3 × 4 + 2 = 14 bytes" in q["explanation"]["en"]
    assert truth > 2 * 80e9  # "more than twice an 80 GB GPU"


def test_estimate_nvme_parameter_read() -> None:
    params = 70e9 * 2  # FP16 parameters, bytes
    bandwidth = 4 * 6.5e9  # four drives read in parallel
    truth = params / bandwidth
    assert round(truth, 1) == 5.4
    q = OFFLOADING.assert_estimate("offloading-est-nvme-param-read", truth, "time", rel=0.01)
    assert "140 / 26 ≈ 5.4 s" in q["explanation"]["en"]


def test_offloading_right_answers_keep_the_seed_meaning() -> None:
    kept = {
        "offloading-primary-goal": "To fit larger models by freeing scarce GPU memory",
        "offloading-adam-bytes-per-param": "Twelve bytes, excluding model weights and gradients",
        "offloading-deepspeed-zero": "DeepSpeed ZeRO-Offload and ZeRO-Infinity",
        "offloading-performance-cost": (
            "Data must travel over slower links such as PCIe or disk, adding latency"
        ),
        "offloading-latency-hiding": "By overlapping data prefetching with ongoing GPU computation",
        "offloading-adam-step-location": (
            "On the CPU, using the master weights and moments stored there"
        ),
        "offloading-gpu-still-oom": "The job still fails with a GPU out-of-memory error",
        "offloading-cpu-bottleneck-metrics": (
            "Host optimizer-update time and host-device transfer time"
        ),
    }
    for qid, text in kept.items():
        assert OFFLOADING.right(qid)["en"] == text, qid
    OFFLOADING.assert_right_states("offloading-twin-flow-ratio", "30%")
    OFFLOADING.assert_right_states("offloading-param-offload-stage", "3")


def test_a_gradient_of_1e_minus_8_flushes_to_zero_in_fp16_but_not_in_bfloat16() -> None:
    assert fp16(1e-8) == 0.0  # below half of FP16's smallest subnormal, 2^-24
    # bfloat16 keeps FP32's 8 exponent bits: its smallest normal value is FP32's, 2^-126.
    bfloat16 = struct.unpack(
        "<f", struct.pack("<I", struct.unpack("<I", struct.pack("<f", 1e-8))[0] & 0xFFFF0000)
    )[0]
    assert bfloat16 != 0.0 and abs(bfloat16 - 1e-8) / 1e-8 < 2**-7
    assert "1e-8" in MIXED_PRECISION.question("mp-bfloat16-loss-scaling")["prompt"]["en"]
