"""Fact tests for banks/interconnects.yaml and its estimate drafts in
banks/interconnects.yaml: every number a compute question relies on is computed
here from the vendors' figures, and the literal the right choice states is asserted in all three
languages (and, where useful, that the distractors hold the tempting wrong results).

Inputs and their sources (see the bank's comments):
- H100: 18 fourth-generation NVLink links, each 25 GB/s effective in each direction, 900 GB/s
  total; PCIe Gen5 x16: 128 GB/s total, 64 GB/s each way; Gen4: 32 GB/s each way; NDR
  InfiniBand / ConnectX-7: 400 Gb/s (NVIDIA H100 whitepaper, Sec. 3.5, 4.7, 4.7.3).
- Blackwell: 18 fifth-generation links, 50 GB/s each way, 1.8 TB/s total; 72-GPU NVLink domain,
  130 TB/s (NVIDIA Blackwell technical brief, Sec. 3.6).
- Llama 3 RoCE cluster: 400 Gbps per GPU, 16 GPUs per rack, 192 racks per pod (3,072 GPUs,
  full bisection), 8 pods, 1:7 oversubscription above the pods (arXiv 2407.21783, Sec. 3.3.1).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import yaml

from .support import BANKS, LANGS, NUMBER, FactBank

BANK = FactBank("interconnects")
NUMBERS = FactBank("interconnects", pattern=NUMBER)
DRAFTS = BANKS / "interconnects.yaml"  # its estimate questions

BITS_PER_BYTE = 8

# H100 whitepaper, Sec. 4.7 and 4.7.3
H100_LINKS = 18
NVLINK4_PER_LINK_ONE_WAY = 25  # GB/s
PCIE_GEN5_TOTAL = 128  # GB/s, both directions of an x16 link
PCIE_GEN4_ONE_WAY = 32  # GB/s
NDR_GBITS = 400  # Gb/s per port, per direction

# Blackwell brief, Sec. 3.6
BLACKWELL_LINKS = 18
NVLINK5_PER_LINK_ONE_WAY = 50  # GB/s


def estimates() -> dict[str, dict[str, Any]]:
    questions = [
        q
        for q in yaml.safe_load(DRAFTS.read_text(encoding="utf-8"))["questions"]
        if q.get("kind") == "estimate"
    ]
    return {q["id"]: q for q in questions}


def h100_nvlink_total() -> int:
    return H100_LINKS * NVLINK4_PER_LINK_ONE_WAY * 2


def test_nvlink5_per_link() -> None:
    qid = "ic-nvlink5-links"
    blackwell_total = BLACKWELL_LINKS * NVLINK5_PER_LINK_ONE_WAY * 2
    assert blackwell_total == 1800  # GB/s, the brief's 1.8 TB/s
    assert h100_nvlink_total() == 900
    assert BLACKWELL_LINKS == H100_LINKS  # same link count: the doubling is per link
    assert NVLINK5_PER_LINK_ONE_WAY == 2 * NVLINK4_PER_LINK_ONE_WAY
    BANK.assert_right_states(qid, "50 GB/s", "25")
    BANK.assert_field_states(qid, "prompt", "18", "1.8 TB/s", "900 GB/s")
    BANK.assert_field_states(qid, "explanation", "18 × 25 × 2 = 900 GB/s", "1.8 TB/s")


def test_nvlink_vs_nic_per_direction() -> None:
    qid = "ic-nvlink-vs-nic"
    nvlink_one_way = Fraction(h100_nvlink_total(), 2)
    nic_one_way = Fraction(NDR_GBITS, BITS_PER_BYTE)
    assert (nvlink_one_way, nic_one_way) == (450, 50)
    assert nvlink_one_way / nic_one_way == 9
    BANK.assert_right_states(qid, "9×")
    # Distractors: total over one-way, GB/s over Gb/s both ways and one way.
    assert h100_nvlink_total() / nic_one_way == 18
    assert Fraction(h100_nvlink_total(), NDR_GBITS) == Fraction(9, 4)  # 2.25
    assert nvlink_one_way / NDR_GBITS == Fraction(9, 8)  # 1.125
    for wrong in ("18×", "2.25×", "1.125×"):
        BANK.assert_some_wrong_states(qid, wrong)
    BANK.assert_field_states(qid, "explanation", "450 GB/s", "400 / 8 = 50 GB/s", "450 / 50 = 9")


def test_pcie_gen5_copy_time() -> None:
    qid = "ic-pcie-gen5-copy"
    size_gb = 32
    one_way = PCIE_GEN5_TOTAL // 2
    assert one_way == 64
    assert Fraction(size_gb, one_way) == Fraction(1, 2)
    BANK.assert_right_states(qid, "0.5 s")
    # Distractors: the two-way total, A100's PCIe Gen4, and bits read as bytes.
    assert Fraction(size_gb, PCIE_GEN5_TOTAL) == Fraction(1, 4)
    assert Fraction(size_gb, PCIE_GEN4_ONE_WAY) == 1
    assert Fraction(size_gb, Fraction(PCIE_GEN5_TOTAL, BITS_PER_BYTE)) == 2
    for wrong in ("0.25 s", "1 s", "2 s"):
        BANK.assert_some_wrong_states(qid, wrong)
    BANK.assert_field_states(qid, "explanation", "32 / 64 = 0.5 s")


def test_nvswitch_any_pair_point_to_point_split() -> None:
    qid = "ic-nvswitch-any-pair"
    gpus = 8
    # Point to point, 18 links over 7 peers leave at most 3 links (150 GB/s total) to a pair.
    assert math.ceil(H100_LINKS / (gpus - 1)) * NVLINK4_PER_LINK_ONE_WAY * 2 == 150
    assert h100_nvlink_total() == 900
    BANK.assert_field_states(qid, "explanation", "900 GB/s", "18", "7")


def test_nccl_log_line_fields() -> None:
    qid = "ic-nccl-log-line"
    line = "Channel 02/0 : 7[7] -> 15[7] [send] via NET/IB/3/GDRDMA"
    # src/transport/net.cc: "Channel %02d/%d : %d[%d] -> %d[%d] [send] via NET/%s/%d%s%s%s"
    head, transport = line.split(" via ")
    ranks = head.split(" : ")[1].replace(" [send]", "")
    src, dst = (part.split("[")[0] for part in ranks.split(" -> "))
    net, name, dev, gdr = transport.split("/")
    assert (src, dst, net, name, dev, gdr) == ("7", "15", "NET", "IB", "3", "GDRDMA")
    for lang in LANGS:
        assert line in BANK.question(qid)["prompt"][lang]
    NUMBERS.assert_right_states(qid, "7", "15", "3")


def test_llama3_oversubscription() -> None:
    qid = "ic-llama3-oversubscription"
    gpus_per_rack, racks_per_pod = 16, 192
    assert gpus_per_rack * racks_per_pod == 3072
    per_gpu = Fraction(NDR_GBITS, 7)  # 1:7 above the pods
    assert round(float(per_gpu)) == 57
    BANK.assert_right_states(qid, "57 Gb/s")
    # Distractors: full bisection, multiplying by 7, dividing by the 8 pods.
    assert NDR_GBITS * 7 == 2800
    assert NDR_GBITS // 8 == 50
    for wrong in ("400 Gb/s", "2,800 Gb/s", "50 Gb/s"):
        BANK.assert_some_wrong_states(qid, wrong)
    BANK.assert_field_states(qid, "prompt", "3,072", "1:7", "400 Gb/s")
    BANK.assert_field_states(qid, "explanation", "400 / 7 ≈ 57 Gb/s")


def test_llama3_flows_and_nic_speed() -> None:
    BANK.assert_field_states("ic-llama3-flows", "prompt", "16")
    BANK.assert_field_states("ic-llama3-flows", "explanation", "16", "24K")


# Estimates (banks/interconnects.yaml).


def test_estimate_nvl72_aggregate() -> None:
    est = estimates()["ic-est-nvl72-aggregate"]
    total = 72 * Fraction("1.8")
    assert total == Fraction("129.6")
    assert est["answer"] == "130 TB/s" and round(total) == 130
    assert est["tolerance"] == "10%"


def test_estimate_weights_over_nic() -> None:
    est = estimates()["ic-est-weights-over-nic"]
    weights_gb = 70 * 2  # 70e9 parameters × 2 bytes (BF16)
    seconds = Fraction(weights_gb, Fraction(NDR_GBITS, BITS_PER_BYTE))
    assert seconds == Fraction("2.8")
    assert est["answer"] == "2.8 s"
    # Bits read as bytes, and the same weights over the 8 NICs of a node: both 0.35 s.
    assert Fraction(weights_gb, NDR_GBITS) == Fraction("0.35") == seconds / 8


def test_estimate_llama3_cluster_gpus() -> None:
    est = estimates()["ic-est-llama3-cluster-gpus"]
    gpus = 16 * 192 * 8
    assert gpus == 24_576
    assert est["answer"] == "24576"


def test_estimate_nvlink_over_pcie() -> None:
    est = estimates()["ic-est-nvlink-over-pcie"]
    ratio = Fraction(h100_nvlink_total(), PCIE_GEN5_TOTAL)
    assert round(float(ratio), 1) == 7.0
    assert est["answer"] == "7"
    assert round(float(Fraction(h100_nvlink_total(), PCIE_GEN5_TOTAL // 2))) == 14
