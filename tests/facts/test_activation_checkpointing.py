"""Fact tests for banks/activation-checkpointing.yaml.

Every number that a compute question's right choice states is recomputed here from the inputs
given in the prompt and the formulas of the cited papers (Chen et al., arXiv 1604.06174, §4.3 Eq. 1
and §4.4 Eq. 2-3; Korthikanti et al., arXiv 2205.05198, §4.1 Eq. 1 and §5), then looked up in the
English, Hindi and Bengali text of that choice.
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
