"""Fuzzed bank files in every format a chat upload may be: a real file, mutated (bytes cut,
inserted, repeated, replaced by the format's own syntax, cut short, nested thousands deep,
NUL, invalid UTF-8, a byte order mark, CRLF), is either a bank that reads back the same or
errors at lines of that file; never a traceback. Deterministic (derandomized), so CI
runs the same examples every time."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.content.banks import SHIPPED_BANKS, BankError, parse_bank
from bot.content.formats.importer import Options, bank_from_upload

from .support.environment import FIXTURES, REPO

FUZZ = settings(
    max_examples=100,
    deadline=None,  # a slow example fails on pytest-timeout, never on a wall clock
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
EXAMPLES = REPO / "docs" / "examples"


@dataclass(frozen=True)
class Form:
    """A format's upload name, its real files, the text with meaning in it (characters
    and keywords), and what opens one level of nesting."""

    name: str
    files: tuple[str, ...]
    syntax: tuple[str, ...]
    openers: tuple[str, ...]


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
    ("{", "::", "$CATEGORY: x\n"),
)
AIKEN = Form(
    "team-aiken.txt",
    ((EXAMPLES / "team-aiken.txt").read_text(encoding="utf-8"),),
    (*".):\n", "A. ", "B) ", "Z. ", "ANSWER: ", "ANSWER: B", "EXPLANATION: ", "REFERENCE: "),
    ("A. \n", "ANSWER: A\n", "REFERENCE: x\n"),
)
MOODLE_XML = Form(
    "team.xml",
    ((EXAMPLES / "team.xml").read_text(encoding="utf-8"),),
    (*'<>/&"=\n', "<![CDATA[", "]]>", "&amp;", "&#0;", "&#x110000;", "<!DOCTYPE q>", "</"),
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
    kind = draw(
        st.sampled_from(
            ["delete", "insert", "syntax", "duplicate", "repeat", "truncate", "nest", "lines"]
        )
    )
    start, end = draw(_span(text))
    if kind == "delete":
        return text[:start] + text[end:]
    if kind == "insert":
        return text[:start] + draw(st.text(max_size=20)) + text[start:]
    if kind == "syntax":  # over the span, which may be empty: an insertion
        tokens = draw(st.lists(st.sampled_from(form.syntax), min_size=1, max_size=12))
        return text[:start] + "".join(tokens) + text[end:]
    if kind == "duplicate":
        return text[:end] + text[start:end] + text[end:]
    if kind == "repeat":  # a short run many times: long lists, many questions
        end = min(end, start + 40)
        return text[:end] + text[start:end] * draw(st.integers(2, 2000)) + text[end:]
    if kind == "truncate":
        return text[:start]
    if kind == "nest":
        opener = draw(st.sampled_from(form.openers))
        return text[:start] + opener * draw(st.integers(1, 2000)) + text[start:]
    ends = draw(st.sampled_from(["\r\n", "\r", "\n\n", "\x00", "\ufeff", "\u2028"]))
    return text.replace("\n", ends) if ends != "\x00" else text[:start] + ends + text[start:]


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
    lines = len(data.decode("utf-8", "replace").splitlines()) + 1
    for error in errors:
        assert isinstance(error, BankError)
        assert error.path == form.name
        assert isinstance(error.line, int) and 1 <= error.line <= lines, (error, lines)
        assert error.message.strip(), error


def test_every_real_file_fuzzed_here_is_a_bank_as_it_stands() -> None:
    """The mutations start from banks, so that they reach past the first syntax check."""
    for form in (GIFT, AIKEN, MOODLE_XML, OPEN_TRIVIA_DB, CSV, YAML):
        for text in form.files:
            imported, errors = bank_from_upload(form.name, text.encode(), Options())
            assert errors == [] and imported is not None, (form.name, errors)
            assert len(imported.bank.questions) in (2, 3), form.name


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
