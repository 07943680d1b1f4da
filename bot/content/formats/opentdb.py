"""Open Trivia DB JSON (https://opentdb.com/api_config.php, the default encoding): an
object whose ``results`` (or a bare list of them) hold ``type`` (``multiple`` or
``boolean``), ``difficulty``, ``category``, ``question``, ``correct_answer`` and
``incorrect_answers``, with HTML entities in every text. The right answer becomes the
first choice (choices are shuffled in play anyway); a boolean question the two choices
true and false. Open Trivia DB has no explanation or references: quizbot reads the
extension keys ``explanation`` (text) and ``references`` (a list of URLs), which other
readers ignore."""

from __future__ import annotations

import html
import json
import re
from decimal import Decimal
from typing import Any

from bot.content.banks import DIFFICULTIES, Bank, Question
from bot.content.formats.model import TRUE_FALSE, Draft, Format, Parsed, Problems, tidy

_SKIP = re.compile(r"[ \t\r\n,:]*")  # what separates JSON values in an array or object
# Numbers as Decimal: int() refuses thousands of digits, and Open Trivia DB's one number
# (response_code) compares the same.
_DECODER = json.JSONDecoder(parse_int=Decimal)


def _skip(text: str, position: int) -> int:
    found = _SKIP.match(text, position)  # always matches, perhaps nothing
    return found.end() if found else position


def _results_start(text: str, data: object) -> int:
    """Where the results' array opens: after the top-level object's last ``results``
    key (the one ``json.loads`` keeps), or the bare list's ``[``. The text parsed
    already, so each key and value decodes in turn; a value nested anywhere deeper is
    never mistaken for the results."""
    position = _skip(text, len(text) - len(text.lstrip())) + 1
    if not isinstance(data, dict):
        return position
    found = position
    for _ in range(len(data) * 2 + len(text)):  # bounded: one key or value per step
        position = _skip(text, position)
        if text.startswith("}", position):
            break
        key, position = _DECODER.raw_decode(text, position)
        position = _skip(text, position)
        if key == "results":
            found = position + 1
        _, position = _DECODER.raw_decode(text, position)
    return found


def _lines(text: str, start: int, count: int) -> list[int]:
    """The line each of the ``count`` results starts on, from the array's opening."""
    position, line, lines = start, 1 + text.count("\n", 0, start), []
    for _ in range(count):
        found = _skip(text, position)
        line += text.count("\n", position, found)
        lines.append(line)
        _, position = _DECODER.raw_decode(text, found)
        line += text.count("\n", found, position)
    return lines


def _text(value: object) -> str:
    return tidy(html.unescape(value)) if isinstance(value, str) else ""


def _question(item: Any, line: int, number: int, problems: Problems, language: str) -> Draft | None:
    if not isinstance(item, dict):
        problems.add(line, number, "a result must be an object")
        return None
    kind = item.get("type")
    right = _text(item.get("correct_answer"))
    wrong = item.get("incorrect_answers")
    if kind not in ("multiple", "boolean"):
        problems.unsupported(line, number, f"a question of type '{kind}'")
        return None
    if not right or not isinstance(wrong, list):
        problems.add(line, number, "needs correct_answer (text) and incorrect_answers (a list)")
        return None
    choices: tuple[str, ...]
    if kind == "boolean":
        if right.lower() not in ("true", "false"):
            problems.add(line, number, f"a boolean question's correct_answer is '{right}'")
            return None
        choices, answer = TRUE_FALSE[language], 0 if right.lower() == "true" else 1
    else:
        choices, answer = (right, *(_text(w) for w in wrong)), 0
    difficulty = _text(item.get("difficulty"))
    references = item.get("references", [])
    return Draft(
        line,
        _text(item.get("question")),
        choices,
        answer,
        _text(item.get("explanation")),
        tuple(_text(r) for r in references) if isinstance(references, list) else (),
        difficulty=difficulty if difficulty in DIFFICULTIES else "",
    )


def read(text: str, path: str, language: str) -> Parsed:
    problems = Problems(path)
    try:
        data = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        problems.add(exc.lineno, None, f"JSON syntax error: {exc.msg}")
        return Parsed((), tuple(problems.found))
    except RecursionError:  # a few kB of [[[[… is enough: no question nests that deep
        problems.add(1, None, "lists or objects nest too deeply")
        return Parsed((), tuple(problems.found))
    results = data.get("results") if isinstance(data, dict) else data
    if isinstance(data, dict) and data.get("response_code", 0) != 0:
        problems.add(1, None, f"response_code {data['response_code']}: the API sent no questions")
    if not isinstance(results, list):
        problems.add(1, None, "expected an object with a results list, or a list of results")
        return Parsed((), tuple(problems.found))
    drafts = []
    for number, (item, line) in enumerate(
        zip(results, _lines(text, _results_start(text, data), len(results)), strict=True),
        start=1,
    ):
        draft = _question(item, line, number, problems, language)
        if draft is not None:
            drafts.append(draft)
    categories = [
        c for c in (_text(i.get("category")) for i in results if isinstance(i, dict)) if c
    ]
    return Parsed(tuple(drafts), tuple(problems.found), categories[0] if categories else "")


def _result(bank: Bank, question: Question, language: str) -> dict[str, object]:
    def escaped(text: str) -> str:
        return html.escape(text, quote=True)

    choices = [bank.text(c, language) for c in question.choices]
    right = choices.pop(question.answer)
    result: dict[str, object] = {
        "type": "multiple",
        "difficulty": question.difficulty,
        "category": escaped(bank.text(bank.title, language)),
        "question": escaped(bank.text(question.prompt, language)),
        "correct_answer": escaped(right),
        "incorrect_answers": [escaped(c) for c in choices],
    }
    explanation = bank.text(question.explanation, language)
    if explanation:
        result["explanation"] = escaped(explanation)
    if question.references:
        result["references"] = list(question.references)
    return result


def write(bank: Bank, language: str) -> str:
    # Open Trivia DB has choice questions only: estimates are left out.
    results = [_result(bank, q, language) for q in bank.questions if q.estimate is None]
    return json.dumps({"response_code": 0, "results": results}, ensure_ascii=False, indent=2) + "\n"


FORMAT = Format(
    name="opentdb",
    extension=".json",
    read=read,
    write=write,
    keeps={
        "explanation": 'an "explanation" key, a quizbot extension',
        "references": 'a "references" list, a quizbot extension',
    },
    estimates=False,
)
