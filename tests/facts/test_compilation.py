"""Computed facts behind the compute questions of banks/compilation.yaml.

Each test recomputes the number a question's right choice states and asserts that the
literal appears in that choice in every language (stdlib + PyYAML only).
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
