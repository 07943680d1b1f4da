"""Moodle XML (https://docs.moodle.org/en/Moodle_XML_format): ``<question
type="multichoice">`` with ``<single>true</single>`` and one ``<answer fraction="100">``,
or ``type="truefalse"``, or ``type="numerical"`` (an estimate: the full-credit answer,
its ``<tolerance>`` and the unit whose ``<multiplier>`` is 1); ``<name>`` is the
question's id, ``<generalfeedback>`` its explanation (ending with "Reference: https://…"
for its references), a ``type="category"`` question names the bank. Texts in
``format="html"`` (Moodle's default), in CDATA or escaped, are read as plain text.

Parsed with expat, the parser ElementTree also uses, for its line numbers. A file from a
chat upload is untrusted: a document type declaration (where entity bombs and external
entities live) is refused outright, and expat ≥ 2.4 limits entity amplification anyway,
so defusedxml would add a dependency for no further protection."""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.parsers import expat
from xml.sax.saxutils import escape

from bot.content.banks import Bank, Question
from bot.content.estimates import Estimate
from bot.content.formats import numerical
from bot.content.formats.html_text import html_to_text, text_to_html
from bot.content.formats.model import (
    TRUE_FALSE,
    Draft,
    Format,
    Parsed,
    Problems,
    category_path,
    category_title,
    join_references,
    split_references,
    tidy,
)


@dataclass
class _Element:
    tag: str
    attrib: dict[str, str]
    line: int
    children: list[_Element] = field(default_factory=list)
    data: list[str] = field(default_factory=list)

    def child(self, tag: str) -> _Element | None:
        return next((c for c in self.children if c.tag == tag), None)

    def all(self, tag: str) -> list[_Element]:
        return [c for c in self.children if c.tag == tag]

    def value(self, tag: str) -> str:
        """The character data of the child ``tag`` (``<single>true</single>``)."""
        found = self.child(tag)
        return "".join(found.data).strip() if found else ""

    def content(self) -> str:
        """The plain text of this element's ``<text>``, read as HTML unless its format
        says otherwise."""
        inner = self.child("text")
        raw = "".join(inner.data) if inner else ""
        return tidy(html_to_text(raw) if self.attrib.get("format", "html") == "html" else raw)

    def text(self, tag: str) -> str:
        found = self.child(tag)
        return found.content() if found else ""


class _Refused(Exception):
    """A document type declaration: never needed by Moodle XML, where XML attacks live."""


def _tree(text: str) -> _Element:
    parser = expat.ParserCreate()
    root = _Element("", {}, 1)
    stack = [root]

    def start(tag: str, attrib: dict[str, str]) -> None:
        element = _Element(tag, attrib, parser.CurrentLineNumber)
        stack[-1].children.append(element)
        stack.append(element)

    def refuse(*_: object) -> None:
        raise _Refused(parser.CurrentLineNumber)

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda _tag: stack.pop()
    parser.CharacterDataHandler = lambda data: stack[-1].data.append(data)
    parser.StartDoctypeDeclHandler = refuse
    parser.Parse(text, True)
    return root


def _fraction(answer: _Element) -> float:
    try:
        return float(answer.attrib.get("fraction", "0"))
    except ValueError:
        return 0.0


def _numerical(element: _Element, number: int, problems: Problems) -> Draft | None:
    """A numerical question as an estimate (see numerical.py)."""
    full = [a for a in element.all("answer") if _fraction(a) == 100]
    if len(full) != 1:
        problems.add(element.line, number, f"{len(full)} numerical answers have fraction 100")
        return None
    prompt = element.text("questiontext")
    units = element.child("units")
    named = [
        u.value("unit_name")
        for u in (units.all("unit") if units else [])
        if u.value("multiplier") in ("1", "1.0")
    ]
    unit = named[0] if named and numerical.unit_in(f"in {named[0]}") else numerical.unit_in(prompt)
    try:
        estimate = numerical.from_margin(
            float(full[0].value("text")), float(full[0].value("tolerance") or 0), unit
        )
    except ValueError as wrong:  # not a number, or NotAnEstimate
        problems.add(full[0].line, number, f"a numerical answer: {wrong}")
        return None
    explanation, references = split_references(element.text("generalfeedback"))
    return Draft(
        element.line, prompt, (), -1, explanation, references, element.text("name"),
        estimate=estimate,
    )  # fmt: skip


def _question(element: _Element, number: int, problems: Problems, language: str) -> Draft | None:
    kind = element.attrib.get("type", "")
    answers = element.all("answer")
    shares = [_fraction(a) for a in answers]
    if kind == "numerical":
        return _numerical(element, number, problems)
    if kind not in ("multichoice", "truefalse"):
        problems.unsupported(element.line, number, f"a {kind or 'untyped'} question")
        return None
    if kind == "multichoice" and element.value("single").lower() in ("false", "0"):
        problems.unsupported(element.line, number, "several right answers (single false)")
        return None
    if any(0 < share < 100 for share in shares):
        problems.unsupported(element.line, number, "partial credit (a fraction from 1 to 99)")
        return None
    if shares.count(100) != 1:
        problems.add(
            element.line,
            number,
            f'{shares.count(100)} answers have fraction="100": exactly one must',
        )
        return None
    right = shares.index(100)
    choices = tuple(a.content() for a in answers)
    if kind == "truefalse":
        word = choices[right].lower()
        if word not in ("true", "false"):
            problems.add(
                answers[right].line, number, f"a truefalse answer is '{word}', not true or false"
            )
            return None
        choices, right = TRUE_FALSE[language], 0 if word == "true" else 1
    explanation, references = split_references(element.text("generalfeedback"))
    return Draft(
        element.line,
        element.text("questiontext"),
        choices,
        right,
        explanation,
        references,
        element.text("name"),
    )


def read(text: str, path: str, language: str) -> Parsed:
    problems = Problems(path)
    try:
        root = _tree(text)
    except expat.ExpatError as exc:
        problems.add(exc.lineno, None, f"XML syntax error: {expat.errors.messages[exc.code]}")
        return Parsed((), tuple(problems.found))
    except _Refused as refused:
        problems.add(refused.args[0], None, "a DOCTYPE is not accepted in Moodle XML")
        return Parsed((), tuple(problems.found))
    quiz = root.child("quiz")
    if quiz is None:
        problems.add(1, None, "not Moodle XML: the root element must be <quiz>")
        return Parsed((), tuple(problems.found))
    drafts: list[Draft] = []
    title = ""
    number = 0
    for element in quiz.all("question"):
        if element.attrib.get("type") == "category":
            title = title or category_title(element.text("category"))
            continue
        number += 1
        draft = _question(element, number, problems, language)
        if draft is not None:
            drafts.append(draft)
    return Parsed(tuple(drafts), tuple(problems.found), title)


def _cdata(text: str) -> str:
    # text_to_html escapes every ">", so no "]]>" can end the CDATA early.
    return f"<text><![CDATA[{text_to_html(text)}]]></text>"


def _question_xml(bank: Bank, question: Question, language: str) -> list[str]:
    text = bank.text
    general = join_references(text(question.explanation, language), question.references)
    lines = [
        '  <question type="multichoice">',
        f"    <name><text>{escape(question.id)}</text></name>",
        f'    <questiontext format="html">{_cdata(text(question.prompt, language))}</questiontext>',
    ]
    if general:
        lines.append(f'    <generalfeedback format="html">{_cdata(general)}</generalfeedback>')
    if question.estimate is not None:
        lines[0] = '  <question type="numerical">'
        return [*lines, *_estimate_xml(question.estimate), "  </question>"]
    lines += ["    <single>true</single>", "    <shuffleanswers>true</shuffleanswers>"]
    for number, choice in enumerate(question.choices):
        fraction = 100 if number == question.answer else 0
        lines += [
            f'    <answer fraction="{fraction}" format="html">',
            f"      {_cdata(text(choice, language))}",
            "    </answer>",
        ]
    return [*lines, "  </question>"]


def _estimate_xml(estimate: Estimate) -> list[str]:
    """The value and its absolute tolerance (a factor f becomes a margin of (f - 1) ×
    value, which reads back as the same factor), and the unit as Moodle's only unit."""
    value = numerical.in_unit(estimate)
    margin = value * (estimate.tolerance.factor - 1)
    lines = [
        '    <answer fraction="100">',
        f"      <text>{numerical.number(value)}</text>",
        f"      <tolerance>{numerical.number(margin)}</tolerance>",
        "    </answer>",
    ]
    if estimate.unit:
        lines += [
            "    <units>",
            "      <unit><multiplier>1</multiplier>"
            f"<unit_name>{escape(estimate.unit)}</unit_name></unit>",
            "    </units>",
        ]
    return lines


def write(bank: Bank, language: str) -> str:
    category = escape(category_path(bank.text(bank.title, language)))
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<!-- exported by quizbot -->",
        "<quiz>",
        '  <question type="category">',
        f"    <category><text>{category}</text></category>",
        "  </question>",
    ]
    for question in bank.questions:
        lines += _question_xml(bank, question, language)
    return "\n".join([*lines, "</quiz>", ""])


FORMAT = Format(
    name="moodle-xml",
    extension=".xml",
    read=read,
    write=write,
    keeps={
        "explanation": "<generalfeedback>",
        "references": "'Reference: https://…' ending the <generalfeedback>",
    },
)
