"""Fuzzed bank files in every format a chat upload may be: a real file, mutated (bytes cut,
inserted, repeated, replaced by the format's own syntax, cut short, nested thousands deep,
NUL, invalid UTF-8, a byte order mark, CRLF), is either a bank that reads back the same or
errors at lines of that file; never a traceback. Deterministic (derandomized), so CI
runs the same examples every time."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.content.banks import SHIPPED_BANKS, BankError, parse_bank
from bot.content.formats.importer import Options, bank_from_upload

from .support.environment import FIXTURES, REPO

FUZZ = settings(
    max_examples=150,
    deadline=None,  # a slow example fails on pytest-timeout, never on a wall clock
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],  # on CI's few cores, shared by xdist
)
EXAMPLES = REPO / "docs" / "examples"
# What a word of any file may become: numbers int() refuses, digits that are no decimal,
# odd characters and line breaks.
WORDS = ("9" * 4400, "²", "-1", "0", "", "1.5", "nan", "true", "\x00", "\u2028", "😀")


@dataclass(frozen=True)
class Form:
    """A format's upload name, its real files, the text with meaning in it (characters
    and keywords), and runs that grow when repeated (nesting, choices, lines)."""

    name: str
    files: tuple[str, ...]
    syntax: tuple[str, ...]
    runs: tuple[str, ...]


def _shipped_bank() -> str:
    """The first two questions of a shipped bank (block style, three languages), without
    its header comment."""
    text = (SHIPPED_BANKS / "offloading.yaml").read_text(encoding="utf-8")
    text = text[text.index('\nid: "offloading"') + 1 :]
    return text[: text.index("\n  # Q3")] + "\n"


GIFT = Form(
    "team.gift",
    ((EXAMPLES / "team.gift").read_text(encoding="utf-8"),),
    (*"{}=~#:\\$[]%\n", "::", "####", "//", "$CATEGORY:", "[html]", "->", "\\n", "{T}", "%50%"),
    ("{", "::", "$CATEGORY: x\n", "[html]<![x]>"),
)
AIKEN = Form(
    "team-aiken.txt",
    ((EXAMPLES / "team-aiken.txt").read_text(encoding="utf-8"),),
    (*".):\n", "A. ", "B) ", "Z. ", "ANSWER: ", "ANSWER: B", "EXPLANATION: ", "REFERENCE: "),
    ("".join(f"{letter}. x\n" for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"), "ANSWER: A\n"),
)
MOODLE_XML = Form(
    "team.xml",
    ((EXAMPLES / "team.xml").read_text(encoding="utf-8"),),
    (*'<>/&"=\n', "<![CDATA[", "]]>", "&amp;", "&#0;", "&lt;![x]&gt;", "<!DOCTYPE q>", "</"),
    ("<a>", '<question type="multichoice">', "<![CDATA[<p>"),
)
OPEN_TRIVIA_DB = Form(
    "trivia.json",
    ((EXAMPLES / "trivia.json").read_text(encoding="utf-8"),),
    (*'[]{}",:\\\n', '"results"', '"type": "boolean"', "null", "1e999", "\\ud800", "&#0;"),
    ("[", '{"a":', '{"results":'),
)
CSV = Form(
    "team.csv",
    ((EXAMPLES / "team.csv").read_text(encoding="utf-8"),),
    (*'",\n\r|', '""', "'=", ",,,,", "choice_1", "answer"),
    ('"', ",", "\n"),
)
YAML = Form(
    "team.yaml",
    ((FIXTURES / "tiny.yaml").read_text(encoding="utf-8"), _shipped_bank()),
    (*"[]{}:-|>&*!%@`'\"\n ", "? ", "---", "&a ", "*a", "!!binary ", "<<: ", "0x1", "\\ud800"),
    ("[", "{a: ", "- ", "  "),
)


@st.composite
def _span(draw: st.DrawFn, text: str, most: int = 200) -> tuple[int, int]:
    start = draw(st.integers(0, len(text)))
    return start, draw(st.integers(start, min(len(text), start + most)))


@st.composite
def _mutation(draw: st.DrawFn, text: str, form: Form) -> str:
    """One edit of the text, at a place drawn in it."""
    kinds = ["delete", "insert", "copy", "ends", *["syntax", "word", "number", "run"] * 2]
    kind = draw(st.sampled_from(kinds))
    start, end = draw(_span(text))
    if kind == "delete":  # or cut short, when the span reaches the end
        return text[:start] + (text[end:] if draw(st.booleans()) else "")
    if kind == "insert":
        return text[:start] + draw(st.text(max_size=20)) + text[start:]
    if kind == "syntax":  # over the span, which may be empty: an insertion
        tokens = draw(st.lists(st.sampled_from(form.syntax), min_size=1, max_size=12))
        return text[:start] + "".join(tokens) + text[end:]
    if kind in ("word", "number"):  # a value, a keyword, a letter or a number becomes another
        found = re.finditer(r"\w+" if kind == "word" else r"\b\d+\b", text)
        start, end = draw(st.sampled_from([m.span() for m in found] or [(0, 0)]))
        return text[:start] + draw(st.sampled_from((*WORDS, *form.syntax))) + text[end:]
    if kind == "copy":  # once, or a short run many times: long lists, many questions
        end = min(end, start + 40)
        return text[:end] + text[start:end] * draw(st.integers(1, 1000)) + text[end:]
    if kind == "run":  # at a line's start: nesting thousands deep, more choices or lines
        start = draw(st.sampled_from([0, *(m.end() for m in re.finditer("\n", text))]))
        run = draw(st.sampled_from(form.runs))
        return text[:start] + run * draw(st.integers(1, 20_000 // len(run))) + text[start:]
    # Other line ends, or what a broken export writes in their place.
    ends = draw(st.sampled_from(["\r\n", "\r", "\n\n", "\x00", "\ufeff", "\u2028"]))
    return text.replace("\n", ends)


@st.composite
def _mutated(draw: st.DrawFn, form: Form) -> bytes:
    """A real file of the format after one to three edits, as the bytes of an upload:
    UTF-8, sometimes with a byte order mark or a byte sequence that is no UTF-8."""
    text = draw(st.sampled_from(form.files))
    for _ in range(draw(st.integers(1, 3))):
        text = draw(_mutation(text, form))
    data = text.encode("utf-8")
    damage = draw(st.sampled_from(["", "", "", "bom", "bytes"]))
    if damage == "bom":
        return b"\xef\xbb\xbf" + data
    if damage == "bytes":
        at = draw(st.integers(0, len(data)))
        odd = draw(st.one_of(st.binary(max_size=8), st.sampled_from([b"\xff", b"\xc3", b"\x80"])))
        return data[:at] + odd + data[at:]
    return data


def assert_a_bank_or_errors_at_its_lines(form: Form, data: bytes, allow_missing: bool) -> None:
    imported, errors = bank_from_upload(form.name, data, Options(allow_missing=allow_missing))
    if imported is not None:
        event("a bank")
        assert errors == []
        again, problems = parse_bank(imported.text, "again.yaml")
        assert problems == []
        assert again is not None and again.questions == imported.bank.questions
        return
    event("errors")
    assert errors, "neither a bank nor an error"
    # Lines as str.splitlines counts them: YAML, and the GIFT and Aiken readers, also
    # break lines at U+2028, U+0085 and the like, which editors seldom show as breaks.
    lines = len(data.decode("utf-8", "replace").splitlines()) + 1
    for error in errors:
        assert isinstance(error, BankError)
        assert error.path == form.name
        assert isinstance(error.line, int) and 1 <= error.line <= lines, (error, lines)
        assert error.message.strip(), error


def test_every_real_file_fuzzed_here_is_a_bank_as_it_stands() -> None:
    """The mutations start from banks, so that they reach past the first syntax check."""
    counts: dict[str, int] = {}
    for form in (GIFT, AIKEN, MOODLE_XML, OPEN_TRIVIA_DB, CSV, YAML):
        for number, text in enumerate(form.files, start=1):
            imported, errors = bank_from_upload(form.name, text.encode(), Options())
            assert errors == [] and imported is not None, (form.name, errors)
            counts[f"{form.name} {number}"] = len(imported.bank.questions)
    assert counts == {
        "team.gift 1": 3,
        "team-aiken.txt 1": 3,
        "team.xml 1": 3,
        "trivia.json 1": 2,
        "team.csv 1": 3,
        "team.yaml 1": 2,
        "team.yaml 2": 2,
    }


@FUZZ
@given(data=_mutated(GIFT), allow_missing=st.booleans())
def test_a_mutated_gift_file_is_a_bank_or_errors_at_its_lines(
    data: bytes, allow_missing: bool
) -> None:
    assert_a_bank_or_errors_at_its_lines(GIFT, data, allow_missing)


@FUZZ
@given(data=_mutated(AIKEN), allow_missing=st.booleans())
def test_a_mutated_aiken_file_is_a_bank_or_errors_at_its_lines(
    data: bytes, allow_missing: bool
) -> None:
    assert_a_bank_or_errors_at_its_lines(AIKEN, data, allow_missing)


@FUZZ
@given(data=_mutated(MOODLE_XML), allow_missing=st.booleans())
def test_a_mutated_moodle_xml_file_is_a_bank_or_errors_at_its_lines(
    data: bytes, allow_missing: bool
) -> None:
    assert_a_bank_or_errors_at_its_lines(MOODLE_XML, data, allow_missing)


@FUZZ
@given(data=_mutated(OPEN_TRIVIA_DB), allow_missing=st.booleans())
def test_a_mutated_open_trivia_db_file_is_a_bank_or_errors_at_its_lines(
    data: bytes, allow_missing: bool
) -> None:
    assert_a_bank_or_errors_at_its_lines(OPEN_TRIVIA_DB, data, allow_missing)


@FUZZ
@given(data=_mutated(CSV), allow_missing=st.booleans())
def test_a_mutated_csv_file_is_a_bank_or_errors_at_its_lines(
    data: bytes, allow_missing: bool
) -> None:
    assert_a_bank_or_errors_at_its_lines(CSV, data, allow_missing)


@FUZZ
@given(data=_mutated(YAML), allow_missing=st.booleans())
def test_a_mutated_yaml_bank_is_a_bank_or_errors_at_its_lines(
    data: bytes, allow_missing: bool
) -> None:
    assert_a_bank_or_errors_at_its_lines(YAML, data, allow_missing)
