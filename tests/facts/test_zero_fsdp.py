"""Fact tests for banks/zero-fsdp.yaml.

Every number that a compute question's right choice states is recomputed here from the
ZeRO paper's per-device model-state formulas (Rajbhandari et al., arXiv 1910.02054, §5.1-5.3,
Figure 1) and its communication analysis (§7), then looked up in the English, Hindi and
Bengali text of that choice.

The estimate questions (kind: estimate) are recomputed the same way, and their `answer`, read as
the bot reads it (bot.content.estimates.read), must lie within the question's tolerance: ZeRO-100B's
15 Petaflops on 400 V100s (§1), 16Psi/Nd with Nd the shard group of HYBRID_SHARD (PyTorch FSDP
docs, ShardingStrategy), and ZeRO-3's 3Psi per rank (§7.2.2) against about 6N training FLOPs per
token (Kaplan et al., arXiv 2001.08361, §2.1) at Llama 3's 400 TFLOPs per GPU and 400 Gbps per GPU
(arXiv 2407.21783, Table 4 and §3.3.1).
"""

from fractions import Fraction

from .support import FactBank

BANK = FactBank("zero-fsdp")

K_ADAM = 12  # memory multiplier of mixed-precision Adam's optimizer states (paper §3.1)
GB = 10**9  # the paper's GB figures are decimal (7.5B x 16 bytes = 120 GB)


def model_state_bytes(psi, nd, stage, k=K_ADAM):
    """Per-device bytes of parameters (2), gradients (2) and optimizer states (k) per parameter."""
    psi, nd = Fraction(psi), Fraction(nd)
    if stage == 0:  # plain data parallelism: everything replicated
        return (2 + 2 + k) * psi
    if stage == 1:  # P_os: 4Psi + K Psi / Nd
        return 4 * psi + k * psi / nd
    if stage == 2:  # P_os+g: 2Psi + (2 + K) Psi / Nd
        return 2 * psi + (2 + k) * psi / nd
    if stage == 3:  # P_os+g+p: (2 + 2 + K) Psi / Nd
        return (2 + 2 + k) * psi / nd
    raise ValueError(stage)


def gb(x, digits):
    return f"{float(x) / GB:.{digits}f}"


def test_figure1_stage2():
    psi, nd = 7_500_000_000, 64
    # The paper's Figure 1 / §5 numbers: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB.
    assert gb(model_state_bytes(psi, nd, 0), 0) == "120"
    assert gb(model_state_bytes(psi, nd, 1), 1) == "31.4"
    assert gb(model_state_bytes(psi, nd, 2), 1) == "16.6"
    assert gb(model_state_bytes(psi, nd, 3), 1) == "1.9"
    # Distractor "15.0 GB" is the replicated 2Psi alone.
    assert gb(2 * psi, 1) == "15.0"
    BANK.assert_right_states("zf-fig1-stage2-gb", gb(model_state_bytes(psi, nd, 2), 1) + " GB")
    BANK.assert_no_wrong_states("zf-fig1-stage2-gb", "16.6")


def test_stage3_13b_on_32():
    psi, nd = 13_000_000_000, 32
    stage3 = model_state_bytes(psi, nd, 3)
    assert stage3 == Fraction(6_500_000_000)
    assert gb(model_state_bytes(psi, nd, 2), 1) == "31.7"  # distractor: stage 2
    assert gb(K_ADAM * Fraction(psi) / nd, 1) == "4.9"  # distractor: optimizer states only
    assert gb(model_state_bytes(psi, nd, 0), 0) == "208"  # distractor: no sharding
    BANK.assert_right_states("zf-stage3-13b-per-gpu", gb(stage3, 1) + " GB")


def test_lowest_stage_that_fits():
    psi, nd, budget = 10_000_000_000, 16, 40 * GB
    per_stage = {s: model_state_bytes(psi, nd, s) for s in (0, 1, 2, 3)}
    fits = [s for s in (1, 2, 3) if per_stage[s] <= budget]
    assert per_stage[1] == Fraction(47_500_000_000)  # 40 GB + 7.5 GB misses the budget
    assert fits[0] == 2
    assert per_stage[2] == Fraction(28_750_000_000)
    BANK.assert_right_states("zf-lowest-stage-fits", f"{float(per_stage[2]) / GB:.2f} GB", "2")
    # Distractor figures stated in the wrong choices.
    assert float(K_ADAM * Fraction(psi) / nd) / GB == 7.5
    assert float(4 * Fraction(psi)) / GB == 40
    assert float(K_ADAM * Fraction(psi)) / GB == 120


def test_stage3_communication_volume():
    psi = Fraction(1)  # volumes in units of Psi elements per rank
    baseline = psi + psi  # all-reduce = reduce-scatter (Psi) + all-gather (Psi), §7.1
    stage2 = psi + psi  # gradient reduce-scatter + updated-parameter all-gather, §7.2.1
    stage3 = (
        psi + psi + psi
    )  # forward all-gather + backward all-gather + gradient reduce-scatter, §7.2.2
    assert baseline == stage2 == 2
    assert stage3 == 3
    ratio = stage3 / baseline
    assert ratio == Fraction(3, 2)
    BANK.assert_right_states("zf-stage3-comm-volume", "3Ψ", f"{float(ratio)}×")


def test_reduction_factors():
    psi = 10**9
    big_nd = 10**12  # "large Nd": the partitioned terms vanish
    base = model_state_bytes(psi, 1, 0)
    r1 = base / model_state_bytes(psi, big_nd, 1)
    r2 = base / model_state_bytes(psi, big_nd, 2)
    assert round(float(r1), 6) == 4.0
    assert round(float(r2), 6) == 8.0
    # Stage 3 keeps growing with Nd: 64 GPUs give a 64x reduction (paper §1).
    assert base / model_state_bytes(psi, 64, 3) == 64
    BANK.assert_right_states("zf-reduction-factors", "4×", "8×", "Nd")


# --- Estimates ----------------------------------------------------------------------------


assert_estimate = BANK.assert_estimate


def test_estimate_zero100b_per_gpu():
    qid = "zf-est-zero100b-per-gpu"
    aggregate, gpus = 15 * 10**15, 400  # FLOP/s, V100s (§1)
    per_gpu = Fraction(aggregate, gpus)
    assert per_gpu == Fraction("37.5e12")
    assert_estimate(qid, float(per_gpu), "compute rate")
    assert_estimate(qid, 38e12, "compute rate")  # the paper's "over 38 TFlops per GPU"
    # Megatron-LM across two DGX-2 nodes: about 5 TFLOPS per V100, so more than 7x less.
    assert per_gpu / (5 * 10**12) > 7
    BANK.assert_field_states(qid, "explanation", "37.5", "38", "5", "7")


def test_estimate_hsdp_per_gpu():
    qid = "zf-est-hsdp-per-gpu"
    psi, gpus_per_node, nodes = 30_000_000_000, 8, 8
    # HYBRID_SHARD: FULL_SHARD within a node, replicated across nodes, so Nd is the node size.
    hybrid = model_state_bytes(psi, gpus_per_node, 3)
    assert hybrid == 60 * GB
    assert (2 + 2 + K_ADAM) * psi == 480 * GB
    assert_estimate(qid, float(hybrid), "memory")
    full_shard = model_state_bytes(psi, gpus_per_node * nodes, 3)
    assert full_shard == Fraction("7.5e9") and hybrid / full_shard == nodes
    BANK.assert_field_states(qid, "explanation", "480", "60", "7.5", "64")


def test_estimate_stage3_overlap_tokens():
    qid = "zf-est-stage3-overlap-tokens"
    link = Fraction(400 * 10**9, 8)  # 400 Gb/s per GPU in bytes per second
    assert link == 50 * GB
    compute = 400 * 10**12  # sustained FLOP/s per GPU (Llama 3, Table 4)
    bytes_per_element = 2  # BF16
    # Per Psi: communication 3 x 2 bytes / link; computation 6 FLOPs per token / compute.
    tokens = Fraction(3 * bytes_per_element, 1) / link / (Fraction(6) / compute)
    assert tokens == 8000 == Fraction(compute) / link
    assert_estimate(qid, float(tokens), "count")
    # The trap: 400 Gb/s taken as 400 GB/s gives 1000 tokens, 8 times too few.
    assert Fraction(compute, 400 * 10**9) == 1000 == tokens / 8
    BANK.assert_field_states(qid, "explanation", "50", "8000", "1000", "400")
