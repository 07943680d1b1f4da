"""Computed facts behind the compute questions of banks/compilation.yaml.

Each test recomputes the number a question's right choice states and asserts that the
literal appears in that choice in every language; for the estimate questions, recomputes the
true value and reads the bank's answer with bot.content.estimates.
"""

from __future__ import annotations

from .support import LANGS, FactBank

BANK = FactBank("compilation")
GIB = 2**30


def test_fusing_three_elementwise_kernels_saves_4_gib() -> None:
    # y = relu(x * 2 + 1) on 2^28 FP32 elements: mul, add, relu as 3 separate kernels.
    elements, fp32_bytes, kernels = 2**28, 4, 3
    tensor = elements * fp32_bytes
    assert tensor == 1 * GIB  # the prompt's "(1 GiB)"

    # Unfused: every kernel reads its input tensor from HBM and writes its output back.
    # The Python scalars 2 and 1 are kernel arguments, not tensors, so they cost no traffic.
    unfused = kernels * (tensor + tensor)
    # Fused: read x once, write y once; the intermediates stay in registers.
    fused = tensor + tensor
    saved = unfused - fused
    assert (unfused, fused, saved) == (6 * GIB, 2 * GIB, 4 * GIB)

    # The tempting "only the intermediate writes disappear" count gives a 2 GiB saving.
    intermediate_writes = (kernels - 1) * tensor
    assert intermediate_writes == 2 * GIB != saved

    qid = "cmp-fusion-hbm-bytes"
    q = BANK.question(qid)
    for lang in LANGS:
        assert "2^28" in q["prompt"][lang] and "1 GiB" in q["prompt"][lang]
        text = BANK.right(qid)[lang]
        for literal in ("6 GiB", "2 GiB", "4 GiB"):
            assert literal in text, (lang, literal, text)
        # no wrong choice states the same pair of totals
        for choice in BANK.wrong(qid):
            assert not ("6 GiB" in choice[lang] and "4 GiB" in choice[lang])


def test_launch_bound_step_time_eager_vs_cuda_graph() -> None:
    kernels, launch_s, gpu_s = 400, 5e-6, 1e-3
    launch_total = kernels * launch_s
    assert abs(launch_total - 2e-3) < 1e-12  # 400 x 5 us = 2 ms of CPU launch work
    per_kernel_gpu = gpu_s / kernels
    assert abs(per_kernel_gpu - 2.5e-6) < 1e-15  # each kernel runs 2.5 us < 5 us launch gap

    # Asynchronous launches overlap execution: the slower of the two streams sets the pace.
    eager = max(launch_total, gpu_s)
    # One graph launch replaces the 400 launches (its own cost is ignored in the prompt).
    graph = gpu_s
    assert abs(eager - 2e-3) < 1e-12 and abs(graph - 1e-3) < 1e-12
    # The "add them up" misconception gives 3 ms.
    assert abs((launch_total + gpu_s) - 3e-3) < 1e-12

    qid = "cmp-launch-bound-step"
    q = BANK.question(qid)
    for lang in LANGS:
        prompt = q["prompt"][lang]
        assert "400" in prompt and "5 µs" in prompt and "1 ms" in prompt
        text = BANK.right(qid)[lang]
        assert "2 ms" in text and "1 ms" in text, (lang, text)
        assert "3 ms" not in text
        assert "2.5 µs" in q["explanation"][lang] and "2 ms" in q["explanation"][lang]


# Estimates: the true value recomputed from the prompt's and the sources' numbers, and the bank's
# answer, read as a player's would be, within the question's tolerance.

A100_FP32_FLOPS = 19.5e12  # non-matmul FP32, FlashAttention-2 paper §3.1
HBM_BYTES_PER_S = 2e12  # A100 HBM 1.5-2.0 TB/s, FlashAttention paper §2.1 (the upper end)
FP32_READ_AND_WRITE = 4 + 4  # fused: one FP32 read and one FP32 write per element


assert_estimate = BANK.assert_estimate


def test_estimate_compile_break_even() -> None:
    qid = "cmp-est-compile-break-even"
    compile_s, eager_step_s, compiled_step_s = 90, 0.120, 0.090
    saved_per_step = eager_step_s - compiled_step_s
    steps = compile_s / saved_per_step
    assert round(steps) == 3000
    assert_estimate(qid, steps, "count")
    # Before break-even the compiled run is behind: at 2000 steps it has lost 30 s.
    assert round(compile_s + 2000 * compiled_step_s - 2000 * eager_step_s) == 30
    BANK.assert_field_states(qid, "prompt", "90 s", "120 ms", "90 ms")
    BANK.assert_field_states(qid, "explanation", "30 ms", "3000")


def test_estimate_fused_flop_budget() -> None:
    qid = "cmp-est-fused-flop-budget"
    ridge = A100_FP32_FLOPS / HBM_BYTES_PER_S  # FLOPs per byte where the roofline bends
    assert ridge == 9.75
    budget = ridge * FP32_READ_AND_WRITE
    assert budget == 78
    assert_estimate(qid, budget, "compute")  # FLOPs, so "78 FLOP" and a bare 78 both read
    BANK.assert_field_states(qid, "explanation", "9.75", "78")


def test_estimate_fused_chain_time() -> None:
    qid = "cmp-est-fused-chain-time"
    elements, flops_per_element = 2**28, 160
    traffic = elements * FP32_READ_AND_WRITE
    memory_s = traffic / HBM_BYTES_PER_S
    math_s = elements * flops_per_element / A100_FP32_FLOPS
    assert f"{traffic / 1e9:.2f}" == "2.15" and f"{memory_s * 1e3:.2f}" == "1.07"
    assert f"{elements * flops_per_element / 1e9:.0f}" == "43"
    roofline_s = max(memory_s, math_s)  # attainable time: the slower of the two roofs
    assert roofline_s == math_s  # past the 78-FLOP budget: compute-bound
    assert f"{roofline_s * 1e3:.1f}" == "2.2"
    assert_estimate(qid, roofline_s, "time")
    # Unfused, each of the 160 one-FLOP kernels is memory-bound and moves the same traffic.
    assert round(flops_per_element * memory_s * 1e3) == 172
    BANK.assert_field_states(qid, "explanation", "1.07 ms", "2.2 ms", "172 ms")
