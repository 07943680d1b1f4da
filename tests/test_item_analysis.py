"""Item analysis against a hand-computed fixture: facility with its Wilson interval,
discrimination (corrected item–rest point-biserial), pick rates, and the flags they raise."""

from __future__ import annotations

import pytest

from bot.domain.insight_report import LoggedAnswer, build
from bot.domain.item_analysis import discrimination, point_biserial, wilson

T0 = 1_790_000_000.0
# Topic "item": five questions of three choices, the key is choice 0 in each.
SHAPES = {("item", f"q{n}"): (3, 0) for n in range(1, 6)}


def fixture() -> list[LoggedAnswer]:
    """20 players, one first try each at q1–q5.

    - strong players s0–s9: right at q1–q4; at q5, s0–s2 right, s3–s9 pick choice 1;
    - weak players w0–w9: right at q1 only, choice 1 at q2–q4; at q5, w0–w7 right,
      w8–w9 pick choice 1.

    q5 therefore has 11 of 20 right, choice 2 never picked, and is got right more often
    by the weak players: rest scores (the other 4 questions) are 4/4 for the strong and
    1/4 for the weak, so its point-biserial is, by hand,
    (M_right − M_wrong) / s · √(pq) with M_right = (3·1 + 8·0.25)/11 = 5/11,
    M_wrong = (7·1 + 2·0.25)/9 = 5/6, s = 0.375 (population), p = 0.55, q = 0.45:
    −(25/66) / 0.375 · √0.2475 = −(100/99) · 0.497494 = −0.50252.
    """
    rows: list[LoggedAnswer] = []

    def answer(player: str, question: str, choice: int) -> None:
        rows.append(
            LoggedAnswer(
                len(rows) + 1, player, "item", question, "quiz", choice, choice == 0,
                T0 + len(rows), False,
            )
        )  # fmt: skip

    for n in range(10):
        for q in ("q1", "q2", "q3", "q4"):
            answer(f"s{n}", q, 0)
        answer(f"s{n}", "q5", 0 if n < 3 else 1)
    for n in range(10):
        answer(f"w{n}", "q1", 0)
        for q in ("q2", "q3", "q4"):
            answer(f"w{n}", q, 1)
        answer(f"w{n}", "q5", 0 if n < 8 else 1)
    return rows


def test_the_fixtures_items_by_hand() -> None:
    report = build(fixture(), "all", T0 + 1000, lambda b, q: SHAPES.get((b, q)))
    (topic,) = report.topics
    items = {q.question_id: q for q in topic.questions}

    q5 = items["q5"]
    assert (q5.first_tries, q5.first_right, q5.accuracy) == (20, 11, 55)
    assert q5.interval == (34, 74)  # Wilson: 0.3421–0.7418
    assert q5.discriminated == 20
    assert q5.discrimination == pytest.approx(-0.50252, abs=1e-5)
    assert q5.picks == (11, 9, 0)
    assert q5.pick_rates == (55, 45, 0)
    assert q5.flags == ("negative_discrimination", "unpicked_choice")

    # Everyone right: too easy, and nothing to correlate.
    q1 = items["q1"]
    assert (q1.accuracy, q1.interval, q1.discrimination) == (100, (84, 100), None)
    assert q1.flags == ("too_easy", "unpicked_choice")

    # Right exactly for the strong. Rest scores (q1, q3, q4, q5): s0–s2 4/4, s3–s9 3/4,
    # w0–w7 2/4, w8–w9 1/4; M_right = 0.825, M_wrong = 0.45, population variance
    # 0.453125 − 0.6375² = 0.04671875 (s = 0.216145), p = q = 0.5:
    # 0.375 / 0.216145 · 0.5 = 0.86747.
    q2 = items["q2"]
    assert (q2.accuracy, q2.interval) == (50, (30, 70))
    assert q2.discrimination == pytest.approx(0.86747, abs=1e-5)
    assert q2.flags == ("unpicked_choice",)
    assert [q.question_id for q in report.flagged] == ["q2", "q3", "q4", "q5", "q1"]


def test_wilson_at_the_edges() -> None:
    assert wilson(0, 0) is None
    low, high = wilson(0, 10)  # type: ignore[misc]
    assert (low, round(high, 4)) == (0.0, 0.2775)  # the textbook 0/10 interval
    low, high = wilson(3, 20)  # type: ignore[misc]
    assert (round(low, 4), round(high, 4)) == (0.0524, 0.3604)


def test_discrimination_needs_enough_players_with_enough_other_answers() -> None:
    item = {f"p{n}": n % 2 == 0 for n in range(20)}
    enough = {f"p{n}": (5, 4 if n % 2 == 0 else 1) for n in range(20)}
    assert discrimination(item, enough)[1] == 20
    # Three other first tries each: nobody counts.
    assert discrimination(item, {p: (4, 2) for p in item}) == (None, 0)
    # 19 players: not enough.
    fewer = {p: v for p, v in item.items() if p != "p0"}
    assert discrimination(fewer, enough) == (None, 19)


def test_point_biserial_needs_variation() -> None:
    assert point_biserial([(True, 0.5), (True, 0.9)]) is None
    assert point_biserial([(True, 0.5), (False, 0.5)]) is None
    assert point_biserial([(True, 1.0), (False, 0.0)]) == pytest.approx(1.0)
