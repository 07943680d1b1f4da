"""The knowledge map from cards at known recall, and its privacy floor."""

from __future__ import annotations

from bot.domain.knowledge_map import TopicKnowledge, knowledge_map, recall_by_topic

# (player, topic, chance to recall now) per card.
CARDS = [
    ("ana", "zero", 0.95), ("ana", "zero", 0.91),  # mean 0.93: solid
    ("bo", "zero", 0.99), ("bo", "zero", 0.75),  # mean 0.87: shaky
    ("cy", "zero", 0.90),  # exactly the bar: solid
    ("di", "zero", 0.0),  # last answer wrong: shaky
    ("ed", "zero", 0.60),
    ("ana", "moe", 0.97), ("bo", "moe", 0.40), ("cy", "moe", 0.92), ("di", "moe", 0.93),
]  # fmt: skip
MEMBERS = {"ana", "bo", "cy", "di", "ed", "fay"}


def test_solid_shaky_and_not_started_per_topic() -> None:
    recalls = recall_by_topic(CARDS)
    assert {p: round(r, 6) for p, r in recalls["zero"].items()} == {
        "ana": 0.93, "bo": 0.87, "cy": 0.90, "di": 0.0, "ed": 0.60,
    }  # fmt: skip
    zero, moe = knowledge_map(recalls, MEMBERS, named={"ana", "di"})
    assert zero == TopicKnowledge(
        "zero", members=6, started=5, solid=2, shaky=3,
        solid_names=("ana",), shaky_names=("di",), mine=None,
    )  # fmt: skip
    assert zero.not_started == 1
    # Four have started moe: under the floor of 5, no split; the opted-in are still named.
    assert (moe.started, moe.solid, moe.shaky, moe.not_started) == (4, None, None, 2)
    assert (moe.solid_names, moe.shaky_names) == (("ana", "di"), ())


def test_the_viewer_always_sees_themselves_and_nobody_else_unasked() -> None:
    zero, moe = knowledge_map(recall_by_topic(CARDS), MEMBERS, named=set(), viewer="bo")
    assert (zero.solid_names, zero.shaky_names, zero.mine) == ((), ("bo",), "shaky")
    assert (moe.solid_names, moe.shaky_names, moe.mine) == ((), ("bo",), "shaky")
    (zero_fay, _) = knowledge_map(recall_by_topic(CARDS), MEMBERS, named=set(), viewer="fay")
    assert zero_fay.mine is None and zero_fay.solid_names == ()


def test_four_members_give_no_aggregate() -> None:
    four = [c for c in CARDS if c[0] in {"ana", "bo", "cy", "di"} and c[1] == "zero"]
    (zero,) = knowledge_map(recall_by_topic(four), {"ana", "bo", "cy", "di"}, named=set())
    assert (zero.started, zero.solid, zero.shaky) == (4, None, None)
