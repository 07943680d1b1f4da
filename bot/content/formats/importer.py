"""``quizbot banks import``: a file in an import format becomes a bank file, through the
same validation as every bank. Ids come from the file where it names them validly, else
from the prompt, so importing the same file again gives the same ids (leaderboards refer
to them). What the format could not say (an explanation, references) fails the import,
question by question, unless the caller allows it: then the bank marks it missing."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.content import limits
from bot.content.banks import (
    ID_PATTERN,
    MAY_BE_MISSING,
    Bank,
    BankError,
    bank_from_node,
    decode_text,
    parse_bank,
    read_text,
)
from bot.content.formats import UnknownFormat, format_for, known_extensions
from bot.content.formats.model import Draft, Format, slug
from bot.content.formats.yaml_writer import bank_nodes, bank_text
from bot.ui.i18n import DEFAULT_LOCALE

_ID_LIMIT = 40


@dataclass(frozen=True)
class Options:
    format: str | None = None  # None: from the file's extension
    bank_id: str | None = None  # None: from the file's name
    title: str | None = None  # None: the file's category, else its name
    language: str = DEFAULT_LOCALE  # the language the file is written in
    allow_missing: bool = False


@dataclass(frozen=True)
class Imported:
    bank: Bank
    text: str  # the bank file


def _ids(drafts: tuple[Draft, ...]) -> list[str]:
    """A unique id per question: its name or a slug of it, with -2, -3, … on repeats. Each
    base remembers the last suffix it took (every one up to it is taken), so a file of many
    alike prompts costs linear time, not quadratic."""
    taken: set[str] = set()
    reached: dict[str, int] = {}  # base -> the last suffix it took (1: the base itself)
    out = []
    for number, draft in enumerate(drafts, start=1):
        named = ID_PATTERN.match(draft.name)
        base = draft.name if named else slug(draft.name or draft.prompt) or f"q{number}"
        count = reached.get(base, 1)
        found = base if count == 1 else _suffixed(base, count)
        while found in taken:
            count += 1
            found = _suffixed(base, count)
        reached[base] = count
        taken.add(found)
        out.append(found)
    return out


def _suffixed(base: str, count: int) -> str:
    suffix = f"-{count}"
    return base[: _ID_LIMIT - len(suffix)] + suffix


def _question(draft: Draft, question_id: str, lacking: list[str], language: str) -> dict[str, Any]:
    question: dict[str, Any] = {"id": question_id}
    if draft.estimate is not None:
        question["kind"] = "estimate"
    if draft.difficulty:
        question["difficulty"] = draft.difficulty
    question["prompt"] = {language: draft.prompt}
    if draft.estimate is not None:
        question["answer"], question["tolerance"] = draft.estimate
    else:
        question["choices"] = [{language: choice} for choice in draft.choices]
        question["answer"] = draft.answer
    if draft.explanation:
        question["explanation"] = {language: draft.explanation}
    if draft.references:
        question["references"] = list(draft.references)
    if lacking:
        question["missing"] = lacking
    return question


def _lacking(draft: Draft) -> list[str]:
    present = {"explanation": draft.explanation, "references": draft.references}
    return [key for key in MAY_BE_MISSING if not present[key]]


def import_text(
    text: str, path: str, form: Format, options: Options
) -> tuple[Imported | None, list[BankError]]:
    """The bank the text makes, or every problem found in it (each with the input's
    file, line and question)."""
    parsed = form.read(text, path, options.language)
    if len(parsed.questions) > limits.QUESTIONS:  # before building anything from them
        extra = parsed.questions[limits.QUESTIONS]
        return None, [BankError(path, extra.line, limits.TOO_MANY_QUESTIONS)]
    problems = list(parsed.problems)
    ids = _ids(parsed.questions)
    questions = []
    for draft, question_id in zip(parsed.questions, ids, strict=True):
        lacking = _lacking(draft)
        if lacking and not options.allow_missing:
            where = " and no ".join(f"{key} ({form.keeps[key]})" for key in lacking)
            problems.append(
                BankError(
                    path,
                    draft.line,
                    f"no {where}: write {'them' if len(lacking) > 1 else 'it'},"
                    " or import with --allow-missing to mark it missing",
                    question_id=question_id,
                )
            )
        questions.append(_question(draft, question_id, lacking, options.language))
    if not parsed.questions:  # nothing for the bank's checks to add
        return None, problems or [BankError(path, 1, "no questions found")]
    stem = Path(path).stem
    title = options.title or parsed.title or stem
    data = {
        "id": options.bank_id or slug(stem) or "imported",
        "locales": [options.language],
        "title": {options.language: title},
        "description": {options.language: title},
        "questions": questions,
    }
    nodes = bank_nodes(data)
    bank, errors = bank_from_node(nodes, path)
    # The bank's own checks (choices, texts, ids) are reported where the input has them.
    lines = {
        question_id: draft.line for question_id, draft in zip(ids, parsed.questions, strict=True)
    }
    problems += [
        BankError(path, lines.get(e.question_id or "", 1), e.message, e.bank_id, e.question_id)
        for e in errors
    ]
    if problems or bank is None:
        return None, problems
    return Imported(bank, bank_text(nodes, Path(path).name)), []


def import_file(path: Path, options: Options) -> tuple[Imported | None, list[BankError]]:
    """Raises ``UnknownFormat`` when the format is neither named nor in the extension."""
    if path.is_dir():
        return None, [BankError(str(path), 1, "a directory: name one file of questions")]
    form = format_for(path, options.format)
    text, problems = read_text(path)
    if text is None:
        return None, problems
    return import_text(text, str(path), form, options)


def load_bank_file(path: Path, options: Options) -> tuple[Bank | None, list[BankError]]:
    """A bank file (.yaml) or a file in an import format, as a bank."""
    if options.format is None and path.suffix in (".yaml", ".yml"):
        text, problems = read_text(path)
        return parse_bank(text, str(path)) if text is not None else (None, problems)
    imported, problems = import_file(path, options)
    return (imported.bank if imported else None), problems


def bank_from_upload(
    name: str, data: bytes, options: Options
) -> tuple[Imported | None, list[BankError]]:
    """A bank file sent in chat: YAML, or an import format told by its extension (an
    Aiken file, which has none of its own, as ``.txt``)."""
    text, problems = decode_text(data, name)
    if text is None:
        return None, problems
    if Path(name).suffix.lower() in (".yaml", ".yml"):
        bank, errors = parse_bank(text, name)
        return (Imported(bank, text) if bank and not errors else None), errors
    try:
        form = format_for(Path(name), options.format)
    except UnknownFormat:
        known = f".yaml (a bank), {known_extensions()}"
        return None, [BankError(name, 1, f"not a bank file: send one of {known}")]
    return import_text(text, name, form, options)


def write_atomically(path: Path, text: str) -> None:
    """The whole file or, on any failure, the old one (or none): a temporary file in the
    same directory, renamed over it."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
