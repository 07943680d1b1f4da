"""Fact tests for banks/parallelism.yaml.

Every number that a compute question of the bank relies on is computed here from the
formulas of the primary sources, and the literal number that the right choice states is
asserted in all three languages:

- Megatron-LM, arXiv 1909.08053, section 3 (f and g operators, Figure 4);
- Narayanan et al., arXiv 2104.04473, sections 2.2.1, 2.2.2, 3.1 and 3.3.1
  (bubble time fraction, interleaved schedule, m = B / (b * d), p * t * d = n).

Standard library and PyYAML only (and the bot's estimate reader).

Estimate answers (kind: estimate) are recomputed from the same papers and read with
``bot.content.estimates.read``.
"""

from __future__ import annotations

import re
from fractions import Fraction

from bot.content.estimates import Dimension

from .support import LANGS, FactBank

BANK = FactBank("parallelism")


def _pct(x: Fraction) -> str:
    return f"{float(x) * 100:.1f}%"


# --- Megatron-LM: all-reduces per transformer layer --------------------------------------


def test_allreduces_per_layer() -> None:
    # Each of the 2 blocks (self-attention, MLP) is wrapped by f (identity forward,
    # all-reduce backward) at its input and g (all-reduce forward, identity backward) at its
    # output: 1 all-reduce per block and direction (1909.08053, section 3, Figure 4).
    blocks_per_layer = 2
    f_ops = {"forward": 0, "backward": 1}
    g_ops = {"forward": 1, "backward": 0}
    forward = blocks_per_layer * (f_ops["forward"] + g_ops["forward"])
    backward = blocks_per_layer * (f_ops["backward"] + g_ops["backward"])
    assert (forward, backward) == (2, 2)
    assert forward + backward == 4  # "4 total communication operations" (Figure 4)
    right = BANK.right("par-tp-allreduces-per-layer")
    assert right["en"] == f"{forward} in the forward pass and {backward} in the backward pass"
    for lang in ("hi", "bn"):
        digits = [ch for ch in right[lang] if ch.isdigit()]
        assert digits == [str(forward), str(backward)], (lang, right[lang])
    # the tempting per-block count (1 and 1) is a wrong choice
    assert any(
        c["en"].startswith("1 in the forward pass and 1")
        for c in BANK.wrong("par-tp-allreduces-per-layer")
    )


# --- PTD-P: bubble time fraction ---------------------------------------------------------


def bubble_fraction(p: int, m: int, v: int = 1) -> Fraction:
    """Bubble time / ideal time (2104.04473, sections 2.2.1 and 2.2.2)."""
    t_f, t_b = Fraction(1), Fraction(2)  # the ratio does not depend on these values
    t_pb = (p - 1) * (t_f + t_b) / v
    t_id = m * (t_f + t_b)
    return t_pb / t_id


def test_bubble_fraction_gpipe_schedule() -> None:
    p, m = 4, 24
    frac = bubble_fraction(p, m)
    assert frac == Fraction(p - 1, m) == Fraction(1, 8)
    assert _pct(frac) == "12.5%"
    BANK.assert_right_states("par-pp-bubble-fraction", "12.5%")
    # the distractors are the listed miscalculations, and none equals the right value
    share_of_total = Fraction(p - 1, m + p - 1)  # bubble / (ideal + bubble)
    assert _pct(share_of_total) == "11.1%"
    assert _pct(Fraction(p, m)) == "16.7%"
    assert _pct(Fraction(2 * (p - 1), m)) == "25.0%"
    wrong = {c["en"].split("%")[0] for c in BANK.wrong("par-pp-bubble-fraction")}
    assert wrong == {"11.1", "16.7", "25.0"}


def test_bubble_fraction_interleaved() -> None:
    p, m, v = 8, 16, 4
    assert m % p == 0  # the interleaved schedule needs m to be a multiple of p
    frac = bubble_fraction(p, m, v)
    assert frac == Fraction(1, v) * Fraction(p - 1, m) == Fraction(7, 64)
    assert _pct(frac) == "10.9%"
    # and its cost: communication grows by the factor v
    BANK.assert_right_states("par-pp-interleaved-bubble", "10.9%", f"{v}×")
    # distractor values: non-interleaved bubble, and dividing by v twice
    assert _pct(bubble_fraction(p, m)) == "43.8%"
    assert _pct(bubble_fraction(p, m) / (v * v)) == "2.7%"


# --- PTD-P: micro-batches per pipeline ----------------------------------------------------


def test_microbatches_per_pipeline() -> None:
    n, t, p = 1024, 8, 16
    B, b = 2048, 2
    assert n % (t * p) == 0
    d = n // (t * p)  # p * t * d = n
    assert d == 8
    assert B % (b * d) == 0
    m = B // (b * d)  # m = B / (b * d)
    assert m == 128
    right = BANK.right("par-ptdp-microbatches")
    BANK.assert_right_states("par-ptdp-microbatches", str(m))
    for lang in LANGS:  # the only number in the right choice is m itself
        assert re.findall(r"\d+", right[lang]) == [str(m)], (lang, right[lang])
    # distractors: forgetting d, forgetting b, dividing by the model-parallel size
    wrong = {int(c["en"].split()[0]) for c in BANK.wrong("par-ptdp-microbatches")}
    assert wrong == {B // b, B // d, B // (b * t * p)} == {1024, 256, 8}


# --- Estimates ---------------------------------------------------------------------------------


def assert_estimate(qid: str, value: float, dimension: Dimension, rel: float = 0.01) -> None:
    BANK.assert_estimate(qid, value, dimension, rel)


def test_estimate_megatron_aggregate() -> None:
    gpus, baseline, efficiency = 512, 39e12, 0.76  # 1909.08053, abstract
    aggregate = gpus * baseline * efficiency
    assert round(gpus * baseline / 1e15) == 20
    assert f"{aggregate / 1e15:.1f}" == "15.2"  # the paper reports 15.1 PFLOPs
    assert_estimate("par-est-megatron-aggregate", aggregate, "compute rate")
    BANK.assert_field_states("par-est-megatron-aggregate", "explanation", "15.2", "15.1")


def test_estimate_tp_allreduce_size() -> None:
    global_batch, data_parallel = 512, 64  # 1909.08053, section 5.1
    b = global_batch // data_parallel
    s, h, fp16_bytes = 1024, 3072, 2  # sequences of 1024 (section 4.2); 8.3B: hidden 3072 (Table 1)
    assert b == 8
    size = b * s * h * fp16_bytes  # the full b x s x h output, not a 1/t slice
    assert size == 50_331_648 and f"{size / 1e6:.1f}" == "50.3"
    assert_estimate("par-est-tp-allreduce-size", size, "memory")
    BANK.assert_field_states("par-est-tp-allreduce-size", "explanation", "50.3 MB")


def test_estimate_gpt3_training_days() -> None:
    P, T, n, X = 175e9, 300e9, 1024, 140e12  # 2104.04473, section 5.1
    flops = 8 * T * P  # forward 2P, backward 4P, recomputed forward 2P per token (Eq. 3, 4)
    seconds = flops / (n * X)
    assert f"{flops:.1e}" == "4.2e+23" and f"{seconds:.1e}" == "2.9e+06"
    assert round(seconds / 86400) == 34  # the paper's 34 days
    assert round(6 * T * P / (n * X) / 86400) == 25  # without recomputation
    assert_estimate("par-est-gpt3-training-days", seconds, "time")
    BANK.assert_field_states("par-est-gpt3-training-days", "explanation", "34", "25")
