"""Estimates: what people type, read in the question's dimension, and the score by how
many times off it is (bot/domain/estimates.py, bot/domain/scoring.py)."""

from __future__ import annotations

import pytest

from bot.content.estimates import Estimate, Tolerance, Unreadable, off_by, read
from bot.domain.scoring import daily_estimate_points, estimate_points

KIB = 1024


@pytest.mark.parametrize(
    ("typed", "dimension", "value"),
    [
        ("524288", "memory", 524288),  # a bare number: the question's unit (bytes)
        ("512 KiB", "memory", 512 * KIB),
        ("0.5 MiB", "memory", 512 * KIB),
        ("5.2e5 B", "memory", 520_000),
        ("524,288 B", "memory", 524288),
        ("5×10^5 B", "memory", 500_000),
        ("512k", "memory", 512_000),  # a bare prefix: of the question's unit, as written
        ("512 KB", "memory", 512_000),  # KB is 1000 bytes, KiB 1024: as written
        ("7B", "memory", 7),  # bytes, to a memory question
        ("7B", "count", 7e9),  # billions, to a count
        ("7b", "count", 7e9),
        ("7e9", "count", 7e9),
        ("7 billion", "count", 7e9),
        ("1.2 trillion tokens", "count", 1.2e12),
        ("1.5 ms", "time", 0.0015),
        ("1.5ms", "time", 0.0015),
        ("2 min", "time", 120),
        ("312 TFLOPS", "compute rate", 312e12),
        ("312 TFLOP/s", "compute rate", 312e12),
        ("5.8e23 FLOPs", "compute", 5.8e23),
        ("900 GB/s", "bandwidth", 900e9),
        ("400 Gb/s", "bandwidth", 50e9),  # bits
        ("45 %", "ratio", 45),
        ("45", "ratio", 45),  # a bare number: percent, the question's unit
    ],
)
def test_an_estimate_is_read_as_people_type_it(typed: str, dimension: str, value: float) -> None:
    found = read(typed, dimension)  # type: ignore[arg-type]
    assert found.dimension == dimension
    assert found.value == pytest.approx(value, rel=1e-9)


@pytest.mark.parametrize(
    ("typed", "reason", "found"),
    [
        ("512 ms", "dimension", "time"),  # a time, to a memory question
        ("312 TFLOPS", "dimension", "compute rate"),
        ("12 furlongs", "unit", ""),
        ("about half", "number", ""),
        ("", "number", ""),
        ("-5 B", "number", ""),
        ("0", "zero", ""),
        ("0 KiB", "zero", ""),
    ],
)
def test_what_cannot_be_read_says_why(typed: str, reason: str, found: str) -> None:
    with pytest.raises(Unreadable) as refused:
        read(typed, "memory")
    assert (refused.value.reason, refused.value.found) == (reason, found)


def test_a_tolerance_is_a_percentage_or_a_factor() -> None:
    assert Tolerance.parse("10%") == Tolerance(1.1, "10%")
    assert Tolerance.parse("2x") == Tolerance(2.0, "2×")
    assert Tolerance.parse(" 3 × ") == Tolerance(3.0, "3×")
    for wrong in ("0%", "1x", "10x", "12x", "about 2", "-5%"):
        with pytest.raises(ValueError):
            Tolerance.parse(wrong)


def test_closeness_is_symmetric_on_a_log_scale() -> None:
    assert off_by(200, 100) == off_by(50, 100) == 2.0
    assert off_by(100, 100) == 1.0


@pytest.mark.parametrize(
    ("off", "tolerance", "difficulty", "points"),
    [
        (1.0, 2.0, "medium", 15),  # exact
        (2.0, 2.0, "medium", 15),  # at the tolerance's edge: inside
        (2.0000001, 2.0, "medium", 15),  # a hair beyond: still rounds to all of it
        (4.0, 2.0, "medium", 9),  # log(10/4) / log(10/2) = 0.569 of 15
        (2.0, 1.1, "medium", 11),  # 10 %: log(10/2) / log(10/1.1) = 0.729 of 15
        (1.1, 1.1, "hard", 20),
        (9.0, 2.0, "easy", 1),
        (10.0, 2.0, "hard", 0),  # the zero bound
        (1000.0, 2.0, "hard", 0),
    ],
)
def test_estimate_points_fall_with_the_log_of_the_factor(
    off: float, tolerance: float, difficulty: str, points: int
) -> None:
    assert estimate_points(off, tolerance, difficulty) == points


@pytest.mark.parametrize(
    ("off", "streak", "points"),
    [
        (1.0, 1, 15),  # inside, first day: no bonus yet
        (2.0, 4, 21),  # inside at the edge, fourth day: +6
        (2.0, 30, 25),  # the bonus stops at 10
        (3.0, 4, 11),  # outside: partial credit (15 × ln(10/3) / ln(10/2)), no bonus
        (10.0, 4, 0),
    ],
)
def test_a_daily_estimate_adds_the_streak_bonus_only_inside_the_tolerance(
    off: float, streak: int, points: int
) -> None:
    assert daily_estimate_points(off, 2.0, "medium", streak) == points


def test_estimate_points_never_rise_as_an_answer_gets_further() -> None:
    factors = [1 + n / 10 for n in range(120)]
    points = [estimate_points(f, 1.5, "hard") for f in factors]
    assert points == sorted(points, reverse=True)


def test_an_estimate_question_judges_values_below_one_and_percentages() -> None:
    latency = Estimate.parse("1.5 ms", "2x")
    assert latency.inside(read("3 ms", "time").value)
    assert latency.inside(read("750 us", "time").value)
    assert not latency.inside(read("0.7 ms", "time").value)
    assert latency.shown(0.0007) == "0.7 ms"
    share = Estimate.parse("45 %", "10%")
    assert share.truth.dimension == "ratio"
    assert share.inside(read("49", "ratio").value)
    assert not share.inside(read("50 %", "ratio").value)  # 50/45 = 1.11
    kv = Estimate.parse("512 KiB", "2x")
    assert kv.truth.value == 524288 and kv.unit == "KiB" and kv.truth.dimension == "memory"
    assert kv.shown(500_000) == "488 KiB"
    assert Estimate.parse("7e9", "10%").shown(7.5e9) == "7.5×10^9"


def test_the_lint_wants_an_estimates_prompt_to_name_its_unit() -> None:
    from pathlib import Path

    from bot.content.banks import parse_bank
    from bot.content.lint import lint, load_rules

    fixture = Path(__file__).parent / "fixtures" / "estimates" / "kv.yaml"
    text = fixture.read_text(encoding="utf-8")
    rules = load_rules(Path(__file__).parents[1] / "banks" / "lint")

    def unit_findings(source: str) -> list[str]:
        bank, errors = parse_bank(source, "kv.yaml")
        assert bank is not None, errors
        return [f.message for f in lint([bank], rules).findings if "unit" in f.message]

    assert unit_findings(text) == ["the prompt does not say the answer's unit (KiB)"]
    named = text.replace("take in FP16?", "take in FP16, in KiB?")
    assert unit_findings(named) == []
