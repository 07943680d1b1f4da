"""A question a member proposed, as bank data: checked alone when it is proposed (against
the languages of the bank it would join, never by re-reading that bank) and merged into
its bank's text when an admin approves it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from bot.content.banks import BankError, bank_from_node
from bot.content.formats.yaml_writer import bank_nodes, bank_text
from bot.content.workspace import source_name
from bot.ui.i18n import LOCALES

# Composes a stored bank ~14× faster than the pure loader; the pure one without libyaml.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _entry(question: Mapping[str, Any], question_id: str, locale: str) -> dict[str, Any]:
    """The proposal as a bank question, its text in ``locale``."""
    entry: dict[str, Any] = {
        "id": question_id,
        "prompt": {locale: question["prompt"]},
        "choices": [{locale: c} for c in question["choices"]],
        "answer": question["answer"],
    }
    if question["explanation"]:
        entry["explanation"] = {locale: question["explanation"]}
    if question["references"]:
        entry["references"] = list(question["references"])
    missing = [k for k in ("explanation", "references") if not question[k]]
    if missing:
        entry["missing"] = missing
    return entry


def _new_bank(bank_id: str, title: str, locale: str) -> dict[str, Any]:
    """A bank made by its first proposal: the proposer's language, titled as typed."""
    name = title.strip() or bank_id
    return {
        "id": bank_id,
        "locales": [locale],
        "title": {locale: name},
        "description": {locale: name},
        "questions": [],
    }


def check_alone(
    question: Mapping[str, Any], bank_id: str, locales: Sequence[str] | None
) -> list[BankError]:
    """What the bank validator says of the question alone, in a bank of ``locales`` (its
    bank's; None: a new bank in the question's own language). A question that joins a
    bank of several languages is taken as written in the bank's first one, so it is
    reported missing the others, as a bank file would be."""
    locale = str(question["locale"])
    data = _new_bank(bank_id, str(question.get("title", "")), locale)
    if locales:
        data["locales"] = list(locales)
        data["title"] = data["description"] = {loc: bank_id for loc in locales}
    data["questions"].append(_entry(question, "proposed", (locales or [locale])[0]))
    bank, errors = bank_from_node(bank_nodes(data), "proposal")
    return errors if bank is None or errors else []


def merged(
    source: str | None, bank_id: str, question: Mapping[str, Any]
) -> tuple[str | None, list[BankError]]:
    """The bank's text with the question added as its next ``qN``, or why it cannot be:
    a stored bank a newer quizbot finds broken, or a question its languages refuse."""
    name = source_name(bank_id)
    data: Any
    if source is None:
        data = _new_bank(bank_id, str(question.get("title", "")), str(question["locale"]))
    else:
        try:
            data = yaml.load(source, Loader=_LOADER)
        except (yaml.YAMLError, RecursionError):
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("questions"), list):
            return None, [BankError(name, 1, "the stored bank no longer reads as a bank")]
    locales = data.get("locales") or LOCALES  # a bank that names none has them all
    taken = {q.get("id") for q in data["questions"] if isinstance(q, dict)}
    number = len(taken) + 1
    while f"q{number}" in taken:
        number += 1
    data["questions"].append(_entry(question, f"q{number}", str(locales[0])))
    nodes = bank_nodes(data)
    bank, errors = bank_from_node(nodes, name)
    if bank is None or errors:
        return None, errors
    return bank_text(nodes, name), []
