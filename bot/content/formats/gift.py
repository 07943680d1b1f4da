"""Moodle GIFT (https://docs.moodle.org/en/GIFT_format): questions separated by blank
lines; ``::title::``, the text, and the answers in braces — ``=right ~wrong``, each with an
optional ``#feedback``, ``####general feedback`` last. Lines starting with ``//`` are
comments; ``$CATEGORY: path`` names the questions' category. ``\\~ \\= \\# \\{ \\} \\:``
and ``\\\\`` are the characters themselves, ``\\n`` a line break; a line break in the file
is a space, as in a paragraph. True/false (``{T}``, ``{FALSE}``) is read as two choices.

The general feedback is the explanation (else the right answer's feedback), ending with
"Reference: https://…" for the references; other feedback has no place in a bank."""

from __future__ import annotations

import re
from collections.abc import Iterator

from bot.content.banks import Bank, Question
from bot.content.formats import numerical
from bot.content.formats.html_text import html_to_text
from bot.content.formats.model import (
    TRUE_FALSE,
    Draft,
    Format,
    Parsed,
    Problems,
    category_path,
    category_title,
    join_references,
    line_at,
    split_references,
    tidy,
)

_SPECIAL = "~=#{}:"
# An escaped character stands in the text as a private-use one, so that no delimiter
# search can see it; it is put back (as itself) in each finished text.
_HIDDEN = {c: chr(0xE000 + i) for i, c in enumerate("\\" + _SPECIAL + "n")}
_SHOWN = str.maketrans({v: ("\n" if c == "n" else c) for c, v in _HIDDEN.items()})
_ESCAPE = re.compile(r"\\(.)")
_WEIGHT = re.compile(r"^%(-?\d+(?:\.\d+)?)%")
_TRUE_FALSE = re.compile(r"^(TRUE|FALSE|T|F)\s*(#.*)?$", re.IGNORECASE | re.DOTALL)
_FORMAT = re.compile(r"^\s*\[(html|moodle|plain|markdown)\]", re.IGNORECASE)
_CATEGORY = "$CATEGORY:"


def _hide(text: str) -> str:
    return _ESCAPE.sub(lambda m: _HIDDEN.get(m.group(1), m.group(0)), text)


def _blocks(text: str) -> Iterator[tuple[int, str]]:
    """Each run of lines between blank lines, comments left out, with its first line."""
    start = 0
    lines: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("//"):
            continue
        if line.strip():
            start = start if lines else number
            lines.append(line)
        elif lines:
            yield start, "\n".join(lines)
            lines = []
    if lines:
        yield start, "\n".join(lines)


def _text(hidden: str, html: bool = False) -> str:
    """A finished text: soft line breaks joined, escapes put back, HTML read as text."""
    joined = " ".join(hidden.split())
    shown = joined.translate(_SHOWN)
    return tidy(html_to_text(shown) if html else shown)


class _Reader:
    def __init__(self, path: str, language: str) -> None:
        self.problems = Problems(path)
        self.language = language
        self.drafts: list[Draft] = []
        self.title = ""
        self.number = 0

    def block(self, start: int, text: str) -> None:
        lines = _hide(text).split("\n")
        # The category lines that open the block, each looked at once: thousands of them
        # cost neither a call nor a copy of the rest per line.
        count = 0
        while count < len(lines) and lines[count].startswith(_CATEGORY):
            category = lines[count][len(_CATEGORY) :]
            self.title = self.title or category_title(category.translate(_SHOWN))
            count += 1
        hidden = "\n".join(lines[count:])
        if not hidden.strip():
            return
        self.number += 1
        draft = self.question(start + count, hidden)
        if draft is not None:
            self.drafts.append(draft)

    def question(self, start: int, hidden: str) -> Draft | None:
        problem = self.problems.add
        name, body = "", hidden
        if hidden.startswith("::"):
            end = hidden.find("::", 2)
            if end < 0:
                problem(start, self.number, "the title's closing :: is missing")
                return None
            name, body = _text(hidden[2:end]), hidden[end + 2 :]
        offset = len(hidden) - len(body)
        html = False
        marker = _FORMAT.match(body)
        if marker:
            html = marker.group(1).lower() == "html"
            body = body[marker.end() :]
            offset += marker.end()
        opening = body.find("{")
        if opening < 0:
            self.problems.unsupported(start, self.number, "a description (no answers in { })")
            return None
        closing = body.find("}", opening)
        line = line_at(hidden, offset + opening, start)
        if closing < 0:
            problem(line, self.number, "the answers' { is never closed by }")
            return None
        before, after = body[:opening], body[closing + 1 :]
        if "{" in after:
            self.problems.unsupported(line, self.number, "more than one answer block")
            return None
        # "The sky is {=blue ~green} today": the answers stand for a blank in the text.
        prompt = _text(f"{before} _____ {after}" if after.strip() else before, html)
        answers, _, general = body[opening + 1 : closing].partition("####")
        if answers.strip().startswith("#"):
            prompt, unit = numerical.prompt_and_unit(prompt)
            estimate = self.numerical(line, answers.strip()[1:], unit)
            if estimate is None:
                return None
            explanation, references = split_references(_text(general, html))
            return Draft(start, prompt, (), -1, explanation, references, name, estimate=estimate)
        read = self.answers(line, answers, html)
        if read is None:
            return None
        choices, answer, feedback = read
        explanation, references = split_references(_text(general, html) or feedback)
        return Draft(start, prompt, choices, answer, explanation, references, name)

    def numerical(self, line: int, hidden: str, unit: str) -> tuple[str, str] | None:
        """A numerical question's answer as an estimate: ``{#512:64}``, ``{#500..600}``,
        or several (``{#=512:0 =%50%512:64}``), of which the full-credit one is taken
        (quizbot scores closeness itself)."""
        parts = [p for p in re.split(r"(?:^|\s)=", hidden.translate(_SHOWN)) if p.strip()]
        full = []
        for part in parts:
            said = part.partition("#")[0].strip()
            weight = _WEIGHT.match(said)
            if weight is None or float(weight.group(1)) == 100:
                full.append(said[weight.end() :] if weight else said)
        if len(full) != 1:
            problem = "a numerical question needs one full-credit answer"
            self.problems.add(line, self.number, problem)
            return None
        margin, span = numerical.MARGIN.match(full[0]), numerical.RANGE.match(full[0])
        try:
            if margin:
                return numerical.from_margin(float(margin[1]), float(margin[2] or 0), unit)
            if span:
                return numerical.from_range(float(span[1]), float(span[2]), unit)
        except numerical.NotAnEstimate as wrong:
            self.problems.add(line, self.number, f"a numerical answer: {wrong}")
            return None
        self.problems.add(line, self.number, f"'{full[0]}' is not a number, N:margin or A..B")
        return None

    def answers(
        self, line: int, hidden: str, html: bool
    ) -> tuple[tuple[str, ...], int, str] | None:
        """The choices, the right one's index and its feedback."""
        body = hidden.strip()
        what = None
        if not body:
            what = "an essay question (empty { })"
        elif "->" in body:
            what = "a matching question (->)"
        if what:
            self.problems.unsupported(line, self.number, what)
            return None
        true_false = _TRUE_FALSE.match(body)
        if true_false:
            right = 0 if true_false.group(1).upper().startswith("T") else 1
            # "{T#shown when wrong#shown when right}": the second explains the answer.
            feedback = (true_false.group(2) or "").split("#")
            said = _text(feedback[2], html) if len(feedback) > 2 else ""
            return TRUE_FALSE[self.language], right, said
        parts = re.split(r"([=~])", body)
        if parts[0].strip():
            self.problems.add(line, self.number, "text before the first choice (= or ~)")
            return None
        choices: list[str] = []
        rights: list[int] = []
        feedback = ""
        for marker, content in zip(parts[1::2], parts[2::2], strict=True):
            weight = _WEIGHT.match(content.strip())
            share = float(weight.group(1)) if weight else (100.0 if marker == "=" else 0.0)
            if 0 < share < 100:
                self.problems.unsupported(
                    line, self.number, f"partial credit (%{weight.group(1) if weight else ''}%)"
                )
                return None
            text, _, said = content.strip()[weight.end() if weight else 0 :].partition("#")
            if share == 100:
                rights.append(len(choices))
                feedback = _text(said, html)
            choices.append(_text(text, html))
        if "~" not in parts[1::2]:
            self.problems.unsupported(line, self.number, "a short-answer question (only =)")
            return None
        if len(rights) != 1:
            if rights:
                self.problems.unsupported(line, self.number, "more than one right answer")
            else:
                self.problems.add(line, self.number, "no right answer: mark it with =")
            return None
        return tuple(choices), rights[0], feedback


def read(text: str, path: str, language: str) -> Parsed:
    reader = _Reader(path, language)
    for start, block in _blocks(text):
        reader.block(start, block)
    return Parsed(tuple(reader.drafts), tuple(reader.problems.found), reader.title)


def _escape(text: str) -> str:
    text = text.replace("\\", "\\\\")
    for char in _SPECIAL:
        text = text.replace(char, "\\" + char)
    return text.replace("\n", "\\n")


def _numerical(question: Question) -> str:
    """An estimate as GIFT numerical: value:margin, or a range for a factor."""
    assert question.estimate is not None
    margin = numerical.as_margin(question.estimate)
    if margin is not None:
        return f"\t#{numerical.number(margin[0])}:{numerical.number(margin[1])}"
    low, high = numerical.as_range(question.estimate)
    return f"\t#{numerical.number(low)}..{numerical.number(high)}"


def _prompt(bank: Bank, question: Question, language: str) -> str:
    """The prompt; an estimate's ends naming its unit, where the import looks for it
    (GIFT has no place for a unit)."""
    prompt = bank.text(question.prompt, language)
    return numerical.with_unit(prompt, question.estimate.unit if question.estimate else "")


def _question(bank: Bank, question: Question, language: str) -> list[str]:
    text = bank.text
    lines = [f"::{_escape(question.id)}:: {_escape(_prompt(bank, question, language))} {{"]
    if question.estimate is not None:
        lines.append(_numerical(question))
    for number, choice in enumerate(question.choices):
        mark = "=" if number == question.answer else "~"
        lines.append(f"\t{mark}{_escape(text(choice, language))}")
    general = join_references(text(question.explanation, language), question.references)
    if general:
        lines.append(f"\t####{_escape(general)}")
    return [*lines, "}", ""]


def write(bank: Bank, language: str) -> str:
    lines = [
        f"// {bank.id}: exported by quizbot",
        f"{_CATEGORY} {category_path(bank.text(bank.title, language))}",
        "",
    ]
    for question in bank.questions:
        lines += _question(bank, question, language)
    return "\n".join(lines)


FORMAT = Format(
    name="gift",
    extension=".gift",
    read=read,
    write=write,
    keeps={
        "explanation": "#### general feedback",
        "references": "'Reference: https://…' ending the general feedback",
    },
)
