"""Shared helpers of the fact tests: load a bank, find a question and its choices, and check
that a literal is stated in every language.

A literal is "stated" in a text either as a substring or, for a bank built with a number
pattern, as one of the numbers the pattern finds in the text (so "3" is not stated by "30").
"""

from __future__ import annotations

import math
import re
import struct
from pathlib import Path
from typing import Any

import yaml

from bot.content.estimates import Dimension, Tolerance, read

BANKS = Path(__file__).parents[2] / "banks"
LANGS = ("en", "hi", "bn")

Question = dict[str, Any]
Choice = dict[str, str]

NUMBER = re.compile(r"\d+(?:\.\d+)?")
"""Integers and decimals: 4096, 0.127."""
GROUPED_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?")
"""Also keeps thousands separators: 4,194,304 is one number."""
NUMBER_OR_PERCENT = re.compile(r"\d+(?:\.\d+)?%?")
"""Keeps a trailing %: 50% is not the number 50."""


def load(bank_id: str) -> dict[str, Any]:
    """The parsed banks/<bank_id>.yaml (by libyaml, as the bot reads banks: 10x faster)."""
    text = (BANKS / f"{bank_id}.yaml").read_text(encoding="utf-8")
    return yaml.load(text, Loader=yaml.CSafeLoader)


def numbers(text: str, pattern: re.Pattern[str] = NUMBER) -> list[str]:
    """The numbers written in a text, as strings."""
    return pattern.findall(text)


def fp16(x: float) -> float:
    """Round a Python float to IEEE binary16 (round to nearest, ties to even)."""
    return float(struct.unpack("<e", struct.pack("<e", x))[0])


class FactBank:
    """One bank's questions, and checks of what their texts state in every language."""

    def __init__(self, bank_id: str, pattern: re.Pattern[str] | None = None) -> None:
        """pattern: None to match literals as substrings, else as numbers it finds."""
        self.id = bank_id
        self.data = load(bank_id)
        self.pattern = pattern

    def question(self, qid: str) -> Question:
        matches = [q for q in self.data["questions"] if q["id"] == qid]
        assert len(matches) == 1, (self.id, qid, len(matches))
        return matches[0]

    def assert_estimate(
        self, qid: str, truth: float, dimension: Dimension, rel: float | None = None
    ) -> Question:
        """An estimate question's answer, read in ``dimension`` as a player's answer is,
        lies within the question's own tolerance of the recomputed ``truth`` (and, with
        ``rel``, equals it to that precision: 0 for an exact count)."""
        q = self.question(qid)
        assert q["kind"] == "estimate" and "choices" not in q, qid
        answer = read(q["answer"], dimension).value
        factor = Tolerance.parse(q["tolerance"]).factor
        assert max(answer / truth, truth / answer) <= factor, (qid, q["answer"], truth)
        if rel is not None:
            assert math.isclose(answer, truth, rel_tol=rel), (qid, answer, truth)
        return q

    def estimate(self, qid: str) -> Question:
        """An estimate question, in every language."""
        q = self.question(qid)
        assert q.get("kind") == "estimate" and "choices" not in q, qid
        assert set(q["prompt"]) == set(q["explanation"]) == set(LANGS), qid
        return q

    def right(self, qid: str) -> Choice:
        q = self.question(qid)
        return q["choices"][q["answer"]]

    def wrong(self, qid: str) -> list[Choice]:
        q = self.question(qid)
        return [c for i, c in enumerate(q["choices"]) if i != q["answer"]]

    def states(self, text: str, literal: str) -> bool:
        if self.pattern is None:
            return literal in text
        return literal in numbers(text, self.pattern)

    def assert_right_states(self, qid: str, *literals: str) -> None:
        """The right choice states every literal in every language."""
        choice = self.right(qid)
        for literal in literals:
            for lang in LANGS:
                assert self.states(choice[lang], literal), (qid, lang, literal, choice[lang])

    def assert_right_omits(self, qid: str, literal: str) -> None:
        """The right choice does not state the literal in any language."""
        choice = self.right(qid)
        for lang in LANGS:
            assert not self.states(choice[lang], literal), (qid, lang, literal, choice[lang])

    def assert_some_wrong_states(self, qid: str, literal: str) -> None:
        """In every language, at least one wrong choice states the literal."""
        for lang in LANGS:
            assert any(self.states(c[lang], literal) for c in self.wrong(qid)), (
                qid,
                lang,
                literal,
            )

    def assert_no_wrong_states(
        self, qid: str, literal: str, langs: tuple[str, ...] = LANGS
    ) -> None:
        """No wrong choice states the literal in any of the languages."""
        for choice in self.wrong(qid):
            for lang in langs:
                assert not self.states(choice[lang], literal), (qid, lang, literal, choice[lang])

    def assert_field_states(self, qid: str, field: str, *literals: str) -> None:
        """The question's field (prompt, explanation) states every literal in every language."""
        text = self.question(qid)[field]
        for literal in literals:
            for lang in LANGS:
                assert self.states(text[lang], literal), (qid, field, lang, literal, text[lang])


def written_value(question: Question) -> tuple[float, str]:
    """An estimate's answer as written: its number and its unit ("" for a count)."""
    number, _, unit = question["answer"].partition(" ")
    return float(number), unit


def within(question: Question, value: float) -> bool:
    """Whether ``value`` (in the answer's written unit) is within the question's own
    tolerance of its answer: a factor either way, as the bot scores it."""
    answer, _ = written_value(question)
    factor = Tolerance.parse(question["tolerance"]).factor
    return max(answer / value, value / answer) <= factor * (1 + 1e-12)
