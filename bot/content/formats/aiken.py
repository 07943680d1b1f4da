"""Aiken (https://docs.moodle.org/en/Aiken_format): the question on a line, then its
choices ``A.`` or ``A)``, then ``ANSWER: B``. Aiken has no feedback: quizbot reads two
extension lines after the answer, ``EXPLANATION: …`` and ``REFERENCE: https://…`` (one
or more, each with one or more URLs), which other Aiken readers skip as junk. Blank lines
between questions are optional; lines before the first choice make one prompt, each a
line of it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.content.banks import Bank
from bot.content.formats.model import Draft, Format, Parsed, Problems, tidy

_CHOICE = re.compile(r"^([A-Z])[.)]\s+(.*)$")
_ANSWER = re.compile(r"^ANSWER:\s*(.*)$", re.IGNORECASE)
_EXPLANATION = re.compile(r"^EXPLANATION:\s*(.*)$", re.IGNORECASE)
_REFERENCE = re.compile(r"^REFERENCES?:\s*(.*)$", re.IGNORECASE)
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass
class _Question:
    line: int
    number: int
    prompt: list[str]
    choices: list[str] = field(default_factory=list)
    answer: int | None = None
    explanation: str = ""
    references: list[str] = field(default_factory=list)

    def draft(self) -> Draft:
        assert self.answer is not None
        prompt = tidy("\n".join(self.prompt))
        return Draft(
            self.line,
            prompt,
            tuple(self.choices),
            self.answer,
            self.explanation,
            tuple(self.references),
        )


class _Reader:
    def __init__(self, path: str) -> None:
        self.problems = Problems(path)
        self.drafts: list[Draft] = []
        self.current: _Question | None = None
        self.skipping = False  # after a problem, until the question's end
        self.number = 0

    def finish(self) -> None:
        current = self.current
        if current is not None and not self.skipping:
            if current.answer is None:
                self.problems.add(current.line, current.number, "no ANSWER: line")
            else:
                self.drafts.append(current.draft())
        self.current, self.skipping = None, False

    def fail(self, line: int, message: str) -> None:
        assert self.current is not None
        self.problems.add(line, self.current.number, message)
        self.skipping = True

    def line(self, number: int, raw: str) -> None:
        text = raw.strip()
        current = self.current
        if not text:
            if current is not None and (current.answer is not None or self.skipping):
                self.finish()
            return
        if current is not None and current.answer is not None:
            if self.extension(text):
                return
            self.finish()
            current = None
        if current is None:
            self.number += 1
            self.current = _Question(number, self.number, [text])
        elif not self.skipping:
            self.body(number, text, current)
        elif _ANSWER.match(text):  # a broken question ends at its answer
            current.answer = 0

    def extension(self, text: str) -> bool:
        """An EXPLANATION or REFERENCE line after the answer (False: a new question)."""
        assert self.current is not None
        explanation = _EXPLANATION.match(text)
        if explanation:
            self.current.explanation = tidy(explanation.group(1))
            return True
        reference = _REFERENCE.match(text)
        if reference:
            self.current.references += reference.group(1).split()
            return True
        return False

    def body(self, number: int, text: str, current: _Question) -> None:
        choice = _CHOICE.match(text)
        answer = _ANSWER.match(text)
        if choice:
            # After Z no letter is left: only the ANSWER: line may follow.
            expected = _LETTERS[len(current.choices) : len(current.choices) + 1] or "ANSWER:"
            if choice.group(1) != expected:
                self.fail(number, f"choice {choice.group(1)} where {expected} was expected")
            else:
                current.choices.append(tidy(choice.group(2)))
        elif answer:
            letter = answer.group(1).strip().upper()
            shown = _LETTERS[: len(current.choices)]
            if not current.choices:
                self.fail(number, "ANSWER: before any choice (A. or A))")
            elif len(letter) != 1 or letter not in shown:
                self.fail(
                    number,
                    f"ANSWER: '{answer.group(1).strip()}' is not one of the choices"
                    f" {shown[0]} to {shown[-1]}",
                )
            else:
                current.answer = shown.index(letter)
        elif _EXPLANATION.match(text) or _REFERENCE.match(text):
            self.fail(number, f"{text.split(':')[0].upper()}: comes after the ANSWER: line")
        elif current.choices:
            self.fail(number, "neither a choice (A. or A)) nor an ANSWER: line")
        else:
            current.prompt.append(text)


def read(text: str, path: str, language: str) -> Parsed:
    reader = _Reader(path)
    for number, line in enumerate(text.splitlines(), start=1):
        reader.line(number, line)
    reader.finish()
    return Parsed(tuple(reader.drafts), tuple(reader.problems.found))


def write(bank: Bank, language: str) -> str:
    out: list[str] = []
    for question in (q for q in bank.questions if q.estimate is None):  # Aiken has choices only
        out += bank.text(question.prompt, language).split("\n")
        out += [
            f"{_LETTERS[i]}. {' '.join(bank.text(c, language).split())}"
            for i, c in enumerate(question.choices)
        ]
        out.append(f"ANSWER: {_LETTERS[question.answer]}")
        explanation = " ".join(bank.text(question.explanation, language).split())
        if explanation:
            out.append(f"EXPLANATION: {explanation}")
        out += [f"REFERENCE: {url}" for url in question.references]
        out.append("")
    return "\n".join(out)


FORMAT = Format(
    name="aiken",
    # Aiken has no extension of its own: a .txt file is read as Aiken, the only plain-text
    # format, in chat uploads and on the command line alike.
    extension=".txt",
    read=read,
    write=write,
    keeps={
        "explanation": "an EXPLANATION: line after ANSWER:",
        "references": "a REFERENCE: line after ANSWER:",
    },
    estimates=False,
)
