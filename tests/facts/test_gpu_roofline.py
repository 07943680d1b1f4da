"""Fact tests for banks/gpu-roofline.yaml.

Every number that a compute question's right choice states is recomputed here from the
inputs given in the prompt (and the hardware figures of the cited NVIDIA documents), then
looked up in the English, Hindi and Bengali text of that choice.

Each estimate question's answer (kind: estimate) is recomputed the same way, read with
``bot.content.estimates.read`` and compared with the computed value within its tolerance.
"""

import math

from bot.content.estimates import Dimension

from .support import LANGS, NUMBER_OR_PERCENT, FactBank

BANK = FactBank("gpu-roofline", NUMBER_OR_PERCENT)

WARP_SIZE = 32  # CUDA C++ Programming Guide, SIMT Architecture / Hardware Multithreading
A100_FP16_DENSE_FLOPS = 312e12  # GPU Performance Background guide; A100 datasheet
A100_FP16_SPARSE_FLOPS = 624e12  # A100 datasheet (with structured sparsity)
A100_FP32_FLOPS = 19.5e12  # A100 datasheet, FP32 (non-Tensor Core)
A100_80GB_BW = 2039e9  # bytes/s, GPU Performance Background guide; A100 80GB SXM datasheet


def test_block_to_warps():
    threads = 80
    warps = math.ceil(threads / WARP_SIZE)
    active_in_last = threads - (warps - 1) * WARP_SIZE
    idle_in_last = WARP_SIZE - active_in_last
    assert (warps, active_in_last, idle_in_last) == (3, 16, 16)
    BANK.assert_right_states("roof-block-to-warps", f"{warps}", f"{active_in_last}")


def test_strided_access_segments():
    seg = 32  # bytes per segment (compute capability 6.0+)
    word = 4  # bytes per float

    def segments(stride):
        return {(stride * k * word) // seg for k in range(WARP_SIZE)}

    assert len(segments(1)) == 4  # contiguous floats: 4 segments, as in the Best Practices Guide
    touched = len(segments(2))
    used = WARP_SIZE * word
    efficiency = 100 * used / (touched * seg)
    assert touched == 8 and efficiency == 50.0
    BANK.assert_right_states("roof-strided-access", f"{touched}", f"{efficiency:.0f}%")


def test_a100_ridge_point():
    ridge = A100_FP16_DENSE_FLOPS / A100_80GB_BW
    assert round(ridge) == 153
    BANK.assert_right_states("roof-a100-ridge-point", f"{round(ridge)}")
    # the distractors are the tempting wrong computations named in the explanation
    wrong = {
        f"{A100_FP16_SPARSE_FLOPS / A100_80GB_BW:.0f}",  # sparsity figure -> 306
        f"{A100_FP32_FLOPS / A100_80GB_BW:.1f}",  # FP32 CUDA-core math -> 9.6
        f"{A100_80GB_BW / A100_FP16_DENSE_FLOPS:.4f}",  # inverted ratio -> 0.0065
    }
    assert wrong == {"306", "9.6", "0.0065"}
    texts = [c["en"] for c in BANK.question("roof-a100-ridge-point")["choices"]]
    for w in wrong:
        assert any(w in t for t in texts), w


def test_square_gemm_intensity():
    n = 4096
    flops = 2 * n**3
    bytes_moved = 3 * n * n * 2  # read A, read B, write C, FP16 = 2 bytes
    ai = flops / bytes_moved
    assert round(ai) == 1365 and abs(ai - n / 3) < 1e-9
    BANK.assert_right_states("roof-square-gemm-intensity", f"{round(ai)}")
    assert round(flops / (3 * n * n)) == 2731  # forgetting 2 bytes per element
    assert round((flops / 2) / bytes_moved) == 683  # counting a multiply-add as 1 FLOP
    assert f"{flops:.2e}".startswith("1.37e+11") and f"{bytes_moved:.2e}".startswith("1.01e+08")


def test_elementwise_add_time_bound():
    n = 2**29
    bytes_moved = 3 * 2 * n  # read a, read b, write c, FP16 = 2 bytes
    t_ms = bytes_moved / A100_80GB_BW * 1e3
    assert f"{bytes_moved:.3g}" == "3.22e+09"
    assert f"{t_ms:.2f}" == "1.58"
    BANK.assert_right_states("roof-elementwise-time-bound", f"{t_ms:.2f}")
    assert f"{2 * 2 * n / A100_80GB_BW * 1e3:.2f}" == "1.05"  # forgets the write of c
    assert f"{2 * n / A100_80GB_BW * 1e3:.2f}" == "0.53"  # 1 tensor only
    assert f"{n / A100_FP16_DENSE_FLOPS * 1e3:.4f}" == "0.0017"  # math time even at 312 TFLOPS
    assert n / bytes_moved == 1 / 6  # intensity stated in the explanation


def test_linear_layer_intensity_by_batch():
    inputs, outputs = 1024, 4096

    def ai(batch):
        flops = 2 * batch * inputs * outputs
        bytes_moved = 2 * (batch * inputs + inputs * outputs + batch * outputs)  # FP16
        return flops / bytes_moved

    assert round(ai(1)) == 1 and round(ai(512)) == 315  # NVIDIA's table: 1 and 315 FLOPS/B
    assert inputs * outputs * 2 == 8 * 2**20  # 8 MiB of FP16 weights
    BANK.assert_right_states("roof-batch1-linear", f"{round(ai(1))}")
    expl = BANK.question("roof-batch1-linear")["explanation"]
    for lang in LANGS:
        assert "315" in expl[lang] and "8 MiB" in expl[lang]


def test_register_limited_occupancy():
    regs_per_sm, max_threads = 65536, 2048
    block, regs_per_thread = 256, 64
    blocks = regs_per_sm // (block * regs_per_thread)
    warps = blocks * block // WARP_SIZE
    occupancy = 100 * warps / (max_threads // WARP_SIZE)
    assert (blocks, warps, occupancy) == (4, 32, 50.0)
    assert regs_per_sm // max_threads == 32  # registers per thread for 100% occupancy
    BANK.assert_right_states("roof-register-occupancy", f"{occupancy:.0f}%", f"{blocks}")
    BANK.assert_no_wrong_states("roof-register-occupancy", "50%")


# --- Estimates ---------------------------------------------------------------------------------


def assert_estimate(qid: str, value: float, dimension: Dimension, rel: float = 0.01) -> None:
    BANK.assert_estimate(qid, value, dimension, rel)


def test_estimate_gemm_math_time():
    n = 8192
    flops = 2 * n**3  # a multiply and an add per multiply-add (Matrix Multiplication guide)
    seconds = flops / A100_FP16_DENSE_FLOPS
    assert f"{flops:.2g}" == "1.1e+12" and f"{seconds * 1e3:.2f}" == "3.52"
    assert_estimate("roof-est-gemm-math-time", seconds, "time")
    BANK.assert_field_states("roof-est-gemm-math-time", "explanation", "3.5", "8192", "312")


def test_estimate_resident_threads():
    sms = 108  # A100, GPU Performance Background guide
    warps_per_sm = 64  # compute capability 8.0, CUDA Programming Guide (technical specifications)
    assert warps_per_sm * WARP_SIZE == 2048  # the guide's resident threads per SM
    threads = sms * warps_per_sm * WARP_SIZE
    assert threads == 221_184 and sms * warps_per_sm == 6912
    assert_estimate("roof-est-resident-threads", threads, "count", rel=0)
    BANK.assert_field_states("roof-est-resident-threads", "explanation", "221184", "6912")


def test_estimate_wave_quantization():
    sms = 108  # 1 tile of 256x128 per SM at a time: a wave is 108 tiles (Matrix Mult. guide)
    rows, cols, tile_rows, tile_cols = 2304, 1664, 256, 128
    assert rows % tile_rows == 0 and cols % tile_cols == 0  # no tile quantization on top
    tiles = (rows // tile_rows) * (cols // tile_cols)
    waves = math.ceil(tiles / sms)
    busy = 100 * tiles / (waves * sms)
    assert (tiles, waves, waves * sms - sms) == (117, 2, 108)
    assert tiles - sms == 9  # the tail wave
    assert round(busy) == 54
    assert (rows // tile_rows) * (1536 // tile_cols) == sms  # 1536 columns: exactly one wave
    assert_estimate("roof-est-wave-quantization", busy, "ratio")
    BANK.assert_field_states("roof-est-wave-quantization", "explanation", "117", "216", "54%")
