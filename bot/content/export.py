"""Banks as plain JSON-ready data, for other tools (``quizbot banks export``)."""

from __future__ import annotations

from typing import Any

from bot.content.banks import Bank, Question
from bot.content.estimates import BASE_UNITS
from bot.content.formats import numerical


def _question(question: Question) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": question.id,
        "kind": "estimate" if question.estimate else "choice",
        "prompt": dict(question.prompt),
        "choices": [dict(c) for c in question.choices],
        "answer": question.answer,
    }
    estimate = question.estimate
    if estimate is not None:  # the value as written, and in its dimension's base unit
        base = BASE_UNITS[estimate.truth.dimension]
        data["answer"] = estimate.written
        data["estimate"] = {
            "value": numerical.in_unit(estimate),
            "unit": estimate.unit,
            "dimension": estimate.truth.dimension,
            "base_value": estimate.truth.value,
            "base_unit": base,
            "tolerance": estimate.tolerance.written,
            "within_factor": estimate.tolerance.factor,
        }
    data["explanation"] = dict(question.explanation)
    data["references"] = list(question.references)
    for key in ("verified", "version"):  # when its facts were checked, and for which release
        if getattr(question, key):
            data[key] = getattr(question, key)
    return data


def bank_data(bank: Bank) -> dict[str, Any]:
    """One bank in the export shape: file order, every locale; a choice question's answer
    is the 0-based index of its right choice, an estimate's its value with its unit."""
    return {
        "id": bank.id,
        "title": dict(bank.title),
        "questions": [_question(q) for q in bank.questions],
    }


def export(banks: list[Bank]) -> dict[str, Any]:
    return {"banks": [bank_data(b) for b in banks]}
