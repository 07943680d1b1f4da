"""Banks as plain JSON-ready data, for other tools (``quizbot banks export``)."""

from __future__ import annotations

from typing import Any

from bot.content.banks import Bank


def bank_data(bank: Bank) -> dict[str, Any]:
    """One bank in the export shape: file order, 0-based answer index, every locale."""
    return {
        "id": bank.id,
        "title": dict(bank.title),
        "questions": [
            {
                "id": q.id,
                "prompt": dict(q.prompt),
                "choices": [dict(c) for c in q.choices],
                "answer": q.answer,
                "explanation": dict(q.explanation),
                "references": list(q.references),
            }
            for q in bank.questions
        ],
    }


def export(banks: list[Bank]) -> dict[str, Any]:
    return {"banks": [bank_data(b) for b in banks]}
