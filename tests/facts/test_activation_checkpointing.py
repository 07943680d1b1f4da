"""Fact tests for banks/activation-checkpointing.yaml.

Every number that a compute question's right choice states is recomputed here from the inputs
given in the prompt and the formulas of the cited papers (Chen et al., arXiv 1604.06174, §4.3 Eq. 1
and §4.4 Eq. 2-3; Korthikanti et al., arXiv 2205.05198, §4.1 Eq. 1 and §5), then looked up in the
English, Hindi and Bengali text of that choice. The estimate questions' true values are
recomputed from the same paper (Korthikanti et al. §4.2.3, §5 Eq. 6, Tables 2-3) and the bank's
answers, read with bot.content.estimates, are checked within their tolerance.
"""

import math
from fractions import Fraction

from .support import FactBank

BANK = FactBank("activation-checkpointing")
GB = 10**9  # the prompt defines 1 GB = 10^9 bytes


def layer_activation_bytes(s, b, h, a):
    """Korthikanti et al. Eq. 1: sbh(34 + 5as/h) bytes per transformer layer, no parallelism."""
    return s * b * h * (34 + Fraction(5 * a * s, h))


def test_segment_count_144():
    n = 144
    # Chen et al. Eq. 1: cost = n/k (backprop inside a segment) + k (segment boundaries).
    cost = {k: Fraction(n, k) + k for k in range(1, n + 1) if n % k == 0}
    best_k = min(cost, key=cost.get)
    assert best_k == math.isqrt(n) == 12
    assert cost[best_k] == 24
    # The distractors' (k, total) pairs follow from the same formula.
    assert (cost[72], cost[4], cost[144]) == (74, 40, 145)
    BANK.assert_right_states("ac-segments-144-layers", f"k = {best_k}", f"{cost[best_k]} ")


def test_recursion_1024_layers():
    n, k = 1024, 1

    def g(m):  # Chen et al. Eq. 2: g(n) = k + g(n / (k + 1)), g(1) = 0
        return 0 if m <= 1 else k + g(m // (k + 1))

    stored = g(n)
    assert stored == k * round(math.log(n, k + 1)) == 10  # Eq. 3: g(n) = k log_(k+1) n
    assert math.isqrt(n) == 32  # distractor: the flat segment scheme's sqrt(n)
    BANK.assert_right_states("ac-recursion-1024-layers", f"{stored},", "log n")
    BANK.assert_no_wrong_states("ac-recursion-1024-layers", "10,")


def test_full_recompute_overhead():
    forward = Fraction(1)
    backward = 2 * forward
    step = forward + backward
    with_recompute = step + forward
    overhead = with_recompute / step - 1
    assert overhead == Fraction(1, 3)
    pct = round(100 * overhead)
    assert pct == 33
    # Distractors: backward as cheap as forward (50%), extra forward over the recomputed step (25%).
    assert round(100 * (forward / (forward + forward))) == 50
    assert round(100 * (forward / with_recompute)) == 25
    BANK.assert_right_states("ac-extra-forward-overhead", f"{pct}%")


def test_layer_stack_activation_gb():
    s, b, h, a, layers = 1024, 8, 4096, 32, 20
    assert Fraction(5 * a * s, h) == 40
    per_layer = layer_activation_bytes(s, b, h, a)
    assert per_layer == 2_483_027_968
    total = layers * per_layer
    sbh = s * b * h
    assert f"{sbh / 1e6:.1f}" == "33.6"
    assert f"{float(per_layer) / GB:.2f}" == "2.48"
    # Distractors: selective recomputation (34sbh), full recomputation (2sbh), a single layer.
    assert f"{layers * 34 * sbh / GB:.1f}" == "22.8"
    assert f"{layers * 2 * sbh / GB:.2f}" == "1.34"
    BANK.assert_right_states("ac-layer-stack-activation-gb", f"{float(total) / GB:.1f} GB")
    BANK.assert_no_wrong_states("ac-layer-stack-activation-gb", "49.7")


def test_gpt3_selective_saving():
    s, h, a = 2048, 12288, 96
    quad = Fraction(5 * a * s, h)
    assert quad == 80  # the paper's 5as/h = 80 for GPT-3
    saved = quad / (34 + quad)
    assert round(100 * saved) == 70  # the paper's 70%
    remaining = 34 / (34 + quad)
    assert round(100 * remaining) == 30
    BANK.assert_right_states("ac-gpt3-selective-saving", f"{round(100 * saved)}%")
    BANK.assert_no_wrong_states("ac-gpt3-selective-saving", "70%")


# Estimates: each recomputes the true value from the paper's numbers and checks the bank's
# answer, read as a player's would be, within the question's tolerance.


assert_estimate = BANK.assert_estimate


def test_estimate_full_recompute_gpt3():
    qid = "ac-est-full-recompute-gpt3"
    s, b, h, a, layers = 2048, 1, 12288, 96, 96  # GPT-3 175B, Table 3
    kept = 2 * s * b * h * layers  # Table 2: full recomputation keeps 2sbh per layer
    assert kept == 4_831_838_208
    assert f"{kept / GB:.1f}" == "4.8"
    assert_estimate(qid, kept, "memory")
    # The explanation's comparison: storing everything, sbh(34 + 5as/h) per layer.
    everything = layers * layer_activation_bytes(s, b, h, a)
    assert Fraction(5 * a * s, h) == 80
    assert round(everything / GB) == 275 and round(everything / kept) == 57
    BANK.assert_field_states(qid, "prompt", "2sbh", "12288", "96")
    BANK.assert_field_states(qid, "explanation", "4.8 GB", "275 GB", "57")


def test_estimate_attention_scores_8k():
    qid = "ac-est-attention-scores-8k"
    s, b, h, a = 8192, 1, 4096, 32
    # §4.1: softmax output 2as^2b + dropout mask as^2b + dropout output 2as^2b.
    quadratic = 2 * a * s**2 * b + a * s**2 * b + 2 * a * s**2 * b
    assert quadratic == 5 * a * s**2 * b == 10 * 2**30
    assert_estimate(qid, quadratic, "memory")
    rest = 34 * s * b * h
    assert f"{rest / GB:.1f}" == "1.1"
    assert f"{quadratic / rest:.1f}" == "9.4"
    assert Fraction(5 * a * s, h) > 34  # the paper's condition for selective recomputation
    BANK.assert_field_states(qid, "explanation", "10 GiB", "1.1 GB", "9.4")


def test_estimate_first_stage_530b():
    qid = "ac-est-first-stage-530b"
    a, h, layers, s, b, t, p = 128, 20480, 105, 2048, 1, 8, 35  # MT-NLG 530B, Table 3
    assert Fraction(5 * a * s, h) == 64  # the paper's 5as/h = 64 for MT-NLG
    # Eq. 6: selective recomputation with tensor + sequence parallelism keeps 34sbhL/t, and the
    # first 1F1B stage holds L layers' worth whatever p is (§4.2.3).
    first_stage = Fraction(34 * s * b * h * layers, t)
    assert first_stage == 18_717_081_600
    assert f"{float(first_stage) / GB:.1f}" == "18.7"
    assert_estimate(qid, float(first_stage), "memory")
    # Distractors named in the explanation: dividing by p too, and no selective recomputation.
    assert layers // p == 3
    assert f"{float(first_stage) / p / GB:.2f}" == "0.53"
    full = Fraction(s * b * h * layers, t) * (34 + Fraction(5 * a * s, h))
    assert round(full / GB) == 54
    BANK.assert_field_states(qid, "explanation", "18.7 GB", "0.53 GB", "54 GB")
