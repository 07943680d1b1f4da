"""Fact tests for banks/profiling.yaml.

The torch.profiler schedule questions are checked against a stdlib re-implementation of
`torch.profiler.schedule` and of the action transitions of `torch.profiler.profile`
(torch/profiler/profiler.py: `schedule_fn`, `profile.step`, `action_map`); the CUDA event
question recomputes the throughput from the numbers in its prompt.

The estimate questions (kind: estimate) are recomputed from their sources, and their `answer`,
read as the bot reads it (bot.content.estimates.read), must lie within the question's tolerance:
cudaEventElapsedTime's resolution of around 0.5 microseconds (CUDA Runtime API, event management),
`elapsed_time` in milliseconds (torch.cuda.Event), the A100 datasheet (312 TFLOPS dense BF16, 624
with sparsity, 2039 GB/s on the 80GB SXM), and MFU as defined by PaLM (arXiv 2204.02311, Section
4.1 and Appendix B) with about 6N training FLOPs per token (arXiv 2001.08361, Section 2.1).
"""

from .support import NUMBER, FactBank

BANK = FactBank("profiling", NUMBER)

NONE, WARMUP, RECORD, RECORD_AND_SAVE = "NONE", "WARMUP", "RECORD", "RECORD_AND_SAVE"


def schedule(*, wait, warmup, active, repeat=0, skip_first=0):
    """Same logic as torch.profiler.schedule (skip_first_wait=0)."""

    def schedule_fn(step):
        assert step >= 0
        if step < skip_first:
            return NONE
        step -= skip_first
        num_steps = wait + warmup + active
        if repeat > 0 and step / num_steps >= repeat:
            return NONE
        mod_step = step % num_steps
        if mod_step < wait:
            return NONE
        if mod_step < wait + warmup:
            return WARMUP
        return RECORD if mod_step < num_steps - 1 else RECORD_AND_SAVE

    return schedule_fn


def run_profile(schedule_fn, iterations, call_step=True):
    """Simulate `with profile(schedule=...) as p: for _ in range(n): work(); p.step()`.

    Returns (recorded step numbers, number of on_trace_ready calls), following the
    (prev_action, current_action) transitions of torch.profiler.profile.
    """
    recorded, traces = [], 0
    step_num = 0
    current = schedule_fn(step_num)
    for _ in range(iterations):
        if current in (RECORD, RECORD_AND_SAVE):
            recorded.append(step_num)
        if not call_step:
            continue
        prev = current
        step_num += 1
        current = schedule_fn(step_num)
        if prev == RECORD_AND_SAVE:  # stop_trace + _trace_ready on leaving a saving step
            traces += 1
    if current in (RECORD, RECORD_AND_SAVE):  # exit transition (current, None)
        traces += 1
    return recorded, traces


def test_schedule_recorded_steps():
    sched = schedule(wait=1, warmup=1, active=3, repeat=2)
    recorded, traces = run_profile(sched, 20)
    assert recorded == [2, 3, 4, 7, 8, 9]
    assert traces == 2
    assert [sched(s) for s in range(5)] == [NONE, WARMUP, RECORD, RECORD, RECORD_AND_SAVE]
    assert all(sched(s) == NONE for s in range(10, 21))
    BANK.assert_right_states(
        "prof-schedule-steps", str(len(recorded)), "2", "4", "7", "9", str(traces)
    )
    # the wrong choices: warmup counted, repeat ignored, one callback per recorded step
    warmup_counted = len(recorded) + 2 * 1
    no_repeat = run_profile(schedule(wait=1, warmup=1, active=3), 20)
    assert warmup_counted == 8 and (len(no_repeat[0]), no_repeat[1]) == (12, 4)


def test_schedule_without_step_records_nothing():
    sched = schedule(wait=1, warmup=1, active=2)
    assert sched(0) == NONE
    recorded, traces = run_profile(sched, 100, call_step=False)
    assert recorded == [] and traces == 0
    BANK.assert_right_states("prof-missing-step-call", "0")
    # with prof.step() the same schedule would record steps 2-3, 6-7, ...
    assert run_profile(sched, 8)[0] == [2, 3, 6, 7]


def test_event_timed_matmul_throughput():
    n, iters = 4096, 10
    elapsed_ms = 5.5  # torch.cuda.Event.elapsed_time returns milliseconds
    flops = iters * 2 * n**3
    tflops = flops / (elapsed_ms * 1e-3) / 1e12
    assert round(tflops) == 250
    assert f"{flops:.2e}" == "1.37e+12"
    BANK.assert_right_states("prof-event-matmul-tflops", str(round(tflops)))
    # tempting wrong readings listed in the explanation
    assert round(flops / elapsed_ms / 1e12, 2) == 0.25  # value read as seconds
    assert round(tflops / 2) == 125  # multiply-add counted as 1 FLOP
    assert round(tflops / iters) == 25  # loop factor dropped


# --- Estimates ----------------------------------------------------------------------------

A100_BF16_DENSE = 312e12  # FLOP/s
A100_80GB_HBM = 2039e9  # B/s


assert_estimate = BANK.assert_estimate


def test_estimate_event_resolution():
    qid = "prof-est-event-resolution"
    resolution = 0.5e-6  # s, cudaEventElapsedTime
    shortest = resolution / 0.01  # at most 1% error
    assert round(shortest * 1e6, 9) == 50
    assert_estimate(qid, shortest, "time")
    assert round(shortest * 1e3, 9) == 0.05  # what elapsed_time reports, in ms
    assert round(resolution / 5e-6, 9) == 0.1  # a single 5 us kernel: about 10% off
    BANK.assert_field_states(qid, "explanation", "50", "0.05", "5", "10")


def test_estimate_clone_bandwidth():
    qid = "prof-est-clone-bandwidth"
    tensor_bytes = 2**28 * 4  # FP32
    assert tensor_bytes == 2**30
    moved = 2 * tensor_bytes  # a copy reads every byte once and writes it once
    seconds = 1.2e-3  # elapsed_time returns milliseconds
    bandwidth = moved / seconds
    assert round(bandwidth / 1e9) == 1790
    assert_estimate(qid, bandwidth, "bandwidth")
    assert round(bandwidth / A100_80GB_HBM * 100) == 88
    # The traps: counting only the read halves it; reading 1.2 as seconds is 1000x too small.
    assert round(tensor_bytes / seconds / 1e9) == 895
    assert round(moved / 1.2 / 1e9, 2) == 1.79
    BANK.assert_field_states(qid, "explanation", "1.074", "2.147", "1.79", "88", "2039", "1000")


def test_estimate_mfu():
    qid = "prof-est-mfu"
    params, tokens, step_s = 7e9, 16384, 4.9
    flops = 6 * params * tokens  # about 6N training FLOPs per token
    assert f"{flops:.2e}" == "6.88e+14"
    achieved = flops / step_s
    assert f"{achieved:.2e}" == "1.40e+14"
    mfu = achieved / A100_BF16_DENSE * 100
    assert round(mfu) == 45
    assert_estimate(qid, mfu, "ratio")
    # Taking the 624 TFLOPS sparsity figure as the peak halves it.
    assert round(achieved / (2 * A100_BF16_DENSE) * 100, 1) == 22.5
    BANK.assert_field_states(qid, "explanation", "6.88", "45", "46.2", "30.2", "624", "22.5")
