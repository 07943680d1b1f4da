"""Moodle XML (https://docs.moodle.org/en/Moodle_XML_format): ``<question
type="multichoice">`` with ``<single>true</single>`` and one ``<answer fraction="100">``,
or ``type="truefalse"``; ``<name>`` is the question's id, ``<generalfeedback>`` its
explanation (ending with "Reference: https://…" for its references), a ``type="category"``
question names the bank. Texts in ``format="html"`` (Moodle's default), in CDATA or
escaped, are read as plain text.

Parsed with expat, the parser ElementTree also uses, for its line numbers. A file from a
chat upload is untrusted: a document type declaration (where entity bombs and external
entities live) is refused outright, and expat ≥ 2.4 limits entity amplification anyway,
so defusedxml would add a dependency for no further protection."""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.parsers import expat
from xml.sax.saxutils import escape

from bot.content.banks import Bank, Question
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


def _question(element: _Element, number: int, problems: Problems, language: str) -> Draft | None:
    kind = element.attrib.get("type", "")
    answers = element.all("answer")
    shares = [_fraction(a) for a in answers]
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
    lines += ["    <single>true</single>", "    <shuffleanswers>true</shuffleanswers>"]
    for number, choice in enumerate(question.choices):
        fraction = 100 if number == question.answer else 0
        lines += [
            f'    <answer fraction="{fraction}" format="html">',
            f"      {_cdata(text(choice, language))}",
            "    </answer>",
        ]
    return [*lines, "  </question>"]


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
