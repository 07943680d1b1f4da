"""A daily estimate's crowd: bins half a decade wide on a log axis around the truth, the
median on that axis and who came closest, with literal values."""

from __future__ import annotations

import pytest

from bot.domain.crowd import crowd


def test_no_estimates_make_no_crowd() -> None:
    assert crowd([]) is None


def test_bins_run_from_the_lowest_estimate_to_the_highest_and_hold_the_truth() -> None:
    found = crowd([1.17, 4.0, 0.586])
    assert found is not None
    assert [(b.low, b.high, b.count, b.truth) for b in found.bins] == [
        (pytest.approx(0.5623, abs=1e-4), pytest.approx(1.7783, abs=1e-4), 2, True),
        (pytest.approx(1.7783, abs=1e-4), pytest.approx(5.6234, abs=1e-4), 1, False),
    ]
    assert found.median == pytest.approx(1.17)
    assert found.closest == (0,)


def test_the_truths_bin_is_shown_when_everyone_was_far_off() -> None:
    found = crowd([40.0, 0.01])  # beyond three bins either way: the open-ended ones
    assert found is not None
    assert [b.count for b in found.bins] == [1, 0, 0, 0, 0, 0, 1]
    assert (found.bins[0].low, found.bins[-1].high) == (None, None)
    assert [b.truth for b in found.bins] == [False, False, False, True, False, False, False]
    assert found.median == pytest.approx(0.6325, abs=1e-4)  # between them on the log axis


def test_estimates_as_far_off_either_way_are_both_closest() -> None:
    found = crowd([2.0, 0.5, 3.0])
    assert found is not None
    assert found.closest == (0, 1)
