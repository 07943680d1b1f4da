"""Import formats: every shipped question survives export and import in each format (for
what the format carries), each format's real-world quirks read right, and each kind of
broken input is refused with its file, line and question."""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest

from bot.content.banks import SHIPPED_BANKS, Bank, Question, load_catalog, parse_bank
from bot.content.formats import FORMATS
from bot.content.formats.csv_format import safe_cell
from bot.content.formats.importer import (
    Imported,
    Options,
    bank_from_upload,
    import_file,
    import_text,
)

from .support.environment import FIXTURES

CATALOG = load_catalog([SHIPPED_BANKS])
# What each format cannot carry is left out of its comparison: ids (Aiken, Open Trivia
# DB), difficulty (GIFT, Aiken, Moodle XML), the title (Aiken, CSV), the choices' order
# (Open Trivia DB puts the right one first).
CARRIES = {
    "gift": {"id", "title"},
    "aiken": set(),
    "moodle-xml": {"id", "title"},
    "opentdb": {"difficulty", "title"},
    "csv": {"id", "difficulty"},
}


def one_language(bank: Bank, lang: str) -> Bank:
    def only(text: Mapping[str, str]) -> dict[str, str]:
        return {lang: text[lang]}

    return replace(
        bank,
        locales=(lang,),
        title=only(bank.title),
        description=only(bank.description),
        questions=tuple(
            replace(
                q,
                prompt=only(q.prompt),
                choices=tuple(only(c) for c in q.choices),
                explanation=only(q.explanation),
            )
            for q in bank.questions
        ),
    )


def carried(question: Question, form: str) -> tuple[object, ...]:
    choices = list(question.choices)
    if form == "opentdb":  # the right choice first, the others in order
        choices.insert(0, choices.pop(question.answer))
        answer = 0
    else:
        answer = question.answer
    return (
        question.id if "id" in CARRIES[form] else None,
        question.difficulty if "difficulty" in CARRIES[form] else None,
        question.prompt,
        tuple(choices),
        answer,
        question.explanation,
        question.references,
        question.missing,
        question.estimate,  # its value, dimension and tolerance
    )


def imported(text: str, form: str, **options: object) -> Imported:
    result, problems = import_text(text, f"in.{form}", FORMATS[form], Options(**options))  # type: ignore[arg-type]
    assert problems == [], problems
    assert result is not None
    return result


def problems(text: str, form: str, **options: object) -> list[str]:
    result, found = import_text(text, f"team.{form}", FORMATS[form], Options(**options))  # type: ignore[arg-type]
    assert result is None
    return [str(p) for p in found]


@pytest.mark.parametrize("lang", ["en", "hi"])
@pytest.mark.parametrize("form", list(FORMATS))
def test_every_shipped_question_round_trips(form: str, lang: str) -> None:
    fmt = FORMATS[form]
    for original in CATALOG.banks:
        bank = one_language(original, lang)
        back = imported(fmt.write(bank, lang), form, language=lang, bank_id=bank.id).bank
        assert back.locales == (lang,)
        if "title" in CARRIES[form]:
            assert back.title == bank.title
        assert [carried(q, form) for q in back.questions] == [
            carried(q, form) for q in bank.questions if fmt.estimates or q.estimate is None
        ]


def test_the_import_writes_a_bank_file_that_reads_back_the_same() -> None:
    result = imported(FORMATS["csv"].write(one_language(CATALOG.banks[0], "en"), "en"), "csv")
    again, errors = parse_bank(result.text, "again.yaml")
    assert errors == []
    assert again is not None and again.questions == result.bank.questions


# --- GIFT ------------------------------------------------------------------------------

GIFT = r"""// a comment line, then a category
$CATEGORY: $course$/top/Systems//Infra

::Q 1:: What does \= mean in \{GIFT\}\: a \~ or a \#? {
  =An escaped equals sign #yes
  ~A right answer
  ~A
   wrong answer written over two lines
  ####It is the character itself.\nReference: https://docs.moodle.org/en/GIFT_format
}

The sky is {=blue ~green ~red} today. {
"""


def test_gift_escapes_multiline_answers_titles_and_categories() -> None:
    text = GIFT.rsplit("\n\nThe sky", 1)[0]
    bank = imported(text, "gift").bank
    [question] = bank.questions
    assert bank.title == {"en": "Systems/Infra"}
    assert question.id == "q-1"  # a title that is no id: its slug
    assert question.prompt == {"en": "What does = mean in {GIFT}: a ~ or a #?"}
    assert [c["en"] for c in question.choices] == [
        "An escaped equals sign",
        "A right answer",
        "A wrong answer written over two lines",
    ]
    assert question.explanation == {"en": "It is the character itself."}
    assert question.references == ("https://docs.moodle.org/en/GIFT_format",)


def test_gift_missing_word_true_false_and_right_feedback() -> None:
    text = (
        "::blank:: The sky is {=blue ~green ~red} today.\n\n"
        "::tf:: FP32 has 8 exponent bits. {T#No: it has 8.#Yes: 8 bits, as bfloat16.}\n"
    )
    blank, tf = imported(text, "gift", allow_missing=True).bank.questions
    assert blank.prompt == {"en": "The sky is _____ today."}
    assert [c["en"] for c in tf.choices] == ["True", "False"] and tf.answer == 0
    assert tf.explanation == {"en": "Yes: 8 bits, as bfloat16."}  # the right answer's
    assert tf.missing == ("references",)


def test_gift_html_questions_read_as_text() -> None:
    text = (
        "::h::[html]<p>Is <b>x &lt; y</b>?</p>{=yes ~no"
        " ####<p>Because.</p><p>Reference: https://example.org/a</p>}"
    )
    [question] = imported(text, "gift").bank.questions
    assert question.prompt == {"en": "Is x < y?"}
    assert question.explanation == {"en": "Because."}
    assert question.references == ("https://example.org/a",)


def test_gift_problems_name_file_line_and_question() -> None:
    text = (
        "::ok:: Fine? {=yes ~no ####Yes. Reference: https://example.org/a}\n"
        "\n"
        "// the second question\n"
        "::short:: Name it. {=all-reduce =allreduce}\n"
        "\n"
        "::many:: Pick two. {~%50%a ~%50%b ~c}\n"
        "\n"
        "::none:: None right? {~a ~b}\n"
        "\n"
        "::open:: Never closed {=a ~b\n"
        "\n"
        "::essay:: Discuss. {}\n"
        "\n"
        "Just a description.\n"
    )
    assert problems(text, "gift") == [
        "team.gift:4: question #2: a short-answer question (only =): not supported"
        " (only multiple choice with one right answer, and true/false)",
        "team.gift:6: question #3: partial credit (%50%): not supported"
        " (only multiple choice with one right answer, and true/false)",
        "team.gift:8: question #4: no right answer: mark it with =",
        "team.gift:10: question #5: the answers' { is never closed by }",
        "team.gift:12: question #6: an essay question (empty { }): not supported"
        " (only multiple choice with one right answer, and true/false)",
        "team.gift:14: question #7: a description (no answers in { }): not supported"
        " (only multiple choice with one right answer, and true/false)",
    ]


def test_gift_without_explanation_or_references_fails_unless_allowed() -> None:
    text = "::a:: One? {=yes ~no}\n\n::b:: Two? {=yes ~no ####Because.}\n"
    assert problems(text, "gift") == [
        "team.gift:1: question a: no explanation (#### general feedback) and no references"
        " ('Reference: https://…' ending the general feedback): write them, or import with"
        " --allow-missing to mark it missing",
        "team.gift:3: question b: no references ('Reference: https://…' ending the general"
        " feedback): write it, or import with --allow-missing to mark it missing",
    ]
    first, second = imported(text, "gift", allow_missing=True).bank.questions
    assert first.missing == ("explanation", "references") and first.explanation == {}
    assert second.missing == ("references",) and second.explanation == {"en": "Because."}


def test_the_bank_validator_reports_at_the_input_line() -> None:
    text = "\n\n::one-choice:: Only one? {=yes ~yes ####Same. Reference: https://example.org/a}\n"
    assert problems(text, "gift") == [
        "team.gift:3: bank team: question one-choice: choice 2 repeats another choice (en)"
    ]


def test_gift_thousands_of_category_lines_are_read_one_by_one() -> None:
    """Found by the fuzz tests: a call per category line overflowed the stack."""
    text = "$CATEGORY: $course$/top/Deep\n" * 3000 + "::q:: One? {=yes ~no}\n"
    bank = imported(text, "gift", allow_missing=True).bank
    assert (bank.title, [q.id for q in bank.questions]) == ({"en": "Deep"}, ["q"])
    assert problems(text.replace("~no", ""), "gift") == [
        "team.gift:3001: question #1: a short-answer question (only =): not supported"
        " (only multiple choice with one right answer, and true/false)"
    ]


def test_an_html_marked_section_python_does_not_know_is_a_comment() -> None:
    """Found by the fuzz tests: html.parser raised AssertionError on ``<![x]>``; a
    browser reads it as a comment up to the next ``>``."""
    text = "::q::[html]<p><![x]>Why?<![ y]></p>{=a ~b}\n"
    [question] = imported(text, "gift", allow_missing=True).bank.questions
    assert question.prompt == {"en": "Why?"}


# --- Aiken -----------------------------------------------------------------------------

AIKEN = """Which collective sums gradients across ranks?
A) all-reduce
B) broadcast
C) scatter
ANSWER: A
EXPLANATION: All-reduce sums and gives every rank the result.
REFERENCE: https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/collectives.html
Which one sends one rank's tensor to all?
A. all-gather
B. broadcast
ANSWER: b
REFERENCES: https://example.org/a https://example.org/b
"""


def test_aiken_parenthesis_letters_extensions_and_no_blank_lines() -> None:
    first, second = imported(AIKEN, "aiken", allow_missing=True).bank.questions
    assert first.id == "which-collective-sums-gradients-across"
    assert [c["en"] for c in first.choices] == ["all-reduce", "broadcast", "scatter"]
    assert first.explanation == {"en": "All-reduce sums and gives every rank the result."}
    assert first.references == (
        "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/usage/collectives.html",
    )
    assert second.answer == 1
    assert second.references == ("https://example.org/a", "https://example.org/b")
    assert second.missing == ("explanation",)


def test_aiken_problems_name_file_line_and_question() -> None:
    text = (
        "First?\nA. a\nC. c\nANSWER: A\n\n"
        "Second?\nA. a\nB. b\nANSWER: E\n\n"
        "Third?\nA. a\nB. b\nwhat is this line\nANSWER: A\n\n"
        "Fourth?\nA. a\nB. b\n"
    )
    assert problems(text, "aiken", allow_missing=True) == [
        "team.aiken:3: question #1: choice C where B was expected",
        "team.aiken:9: question #2: ANSWER: 'E' is not one of the choices A to B",
        "team.aiken:14: question #3: neither a choice (A. or A)) nor an ANSWER: line",
        "team.aiken:17: question #4: no ANSWER: line",
    ]


def test_aiken_a_choice_after_z_is_refused() -> None:
    """Found by the fuzz tests: a 27th choice looked past the end of the alphabet."""
    text = "Many?\n" + "".join(f"{c}. {c.lower()}\n" for c in string.ascii_uppercase)
    assert problems(text + "A. again\nANSWER: A\n", "aiken", allow_missing=True) == [
        "team.aiken:28: question #1: choice A where ANSWER: was expected"
    ]


# --- Moodle XML ------------------------------------------------------------------------

XML = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/top/GPU</text></category></question>
  <question type="multichoice">
    <name><text>Roofline 1</text></name>
    <questiontext format="html"><text><![CDATA[<p>Is a kernel at <i>1 FLOP/byte</i>
      memory&nbsp;bound?</p>]]></text></questiontext>
    <generalfeedback format="html"><text>&lt;p&gt;Below the ridge point.&lt;/p&gt;
      &lt;p&gt;Reference: https://example.org/roofline&lt;/p&gt;</text></generalfeedback>
    <single>true</single>
    <answer fraction="0"><text><![CDATA[No &amp; never]]></text></answer>
    <answer fraction="100" format="plain_text"><text>Yes, &lt;usually&gt;</text></answer>
  </question>
  <question type="truefalse">
    <name><text>tf</text></name>
    <questiontext format="moodle_auto_format"><text>HBM is on-chip.</text></questiontext>
    <answer fraction="0"><text>true</text></answer>
    <answer fraction="100"><text>false</text></answer>
  </question>
  <question type="shortanswer">
    <name><text>short</text></name>
  </question>
</quiz>
"""


def test_moodle_xml_cdata_html_and_true_false() -> None:
    text = XML.replace(
        '  <question type="shortanswer">\n    <name><text>short</text></name>\n  </question>\n', ""
    )
    bank = imported(text, "moodle-xml", allow_missing=True).bank
    roofline, tf = bank.questions
    assert bank.title == {"en": "GPU"}
    assert roofline.id == "roofline-1"
    assert roofline.prompt == {"en": "Is a kernel at 1 FLOP/byte memory bound?"}
    assert [c["en"] for c in roofline.choices] == ["No & never", "Yes, <usually>"]
    assert roofline.answer == 1
    assert roofline.explanation == {"en": "Below the ridge point."}
    assert roofline.references == ("https://example.org/roofline",)
    assert (tf.id, tf.prompt, tf.answer) == ("tf", {"en": "HBM is on-chip."}, 1)


def test_moodle_xml_problems() -> None:
    assert problems(XML, "moodle-xml", allow_missing=True) == [
        "team.moodle-xml:20: question #3: a shortanswer question: not supported"
        " (only multiple choice with one right answer, and true/false)"
    ]
    broken = XML.replace("</single>", "</singl>")
    assert problems(broken, "moodle-xml") == [
        "team.moodle-xml:10: XML syntax error: mismatched tag"
    ]
    bomb = '<?xml version="1.0"?>\n<!DOCTYPE quiz [<!ENTITY a "aaaa">]>\n<quiz>&a;</quiz>'
    assert problems(bomb, "moodle-xml") == [
        "team.moodle-xml:2: a DOCTYPE is not accepted in Moodle XML"
    ]
    two_right = XML.replace('fraction="0"><text><![CDATA', 'fraction="100"><text><![CDATA')
    assert problems(two_right, "moodle-xml", allow_missing=True)[0] == (
        'team.moodle-xml:4: question #1: 2 answers have fraction="100": exactly one must'
    )


def test_moodle_xml_html_with_an_unknown_marked_section() -> None:
    """Found by the fuzz tests (see the GIFT test): CDATA holding ``<![x]>``."""
    short = '  <question type="shortanswer">\n    <name><text>short</text></name>\n  </question>\n'
    text = XML.replace(short, "").replace("<p>Is a kernel", "<p><![x]>Is a kernel")
    roofline = imported(text, "moodle-xml", allow_missing=True).bank.questions[0]
    assert roofline.prompt == {"en": "Is a kernel at 1 FLOP/byte memory bound?"}


# --- Open Trivia DB --------------------------------------------------------------------

OPENTDB = """{
  "response_code": 0,
  "results": [
    {
      "type": "multiple",
      "difficulty": "hard",
      "category": "Science: Computers",
      "question": "What does &quot;GPU&quot; stand for in &#039;GPGPU&#039;?",
      "correct_answer": "Graphics Processing Unit",
      "incorrect_answers": ["General Processing Unit", "Graphical &amp; Parallel Unit"]
    },
    {"type": "boolean", "difficulty": "easy", "category": "Science: Computers",
     "question": "NCCL is made by NVIDIA.", "correct_answer": "True",
     "incorrect_answers": ["False"]},
    {"type": "text", "question": "?"}
  ]
}
"""


def test_opentdb_entities_booleans_and_difficulty() -> None:
    text = OPENTDB.replace(',\n    {"type": "text", "question": "?"}', "")
    bank = imported(text, "opentdb", allow_missing=True).bank
    gpu, nccl = bank.questions
    assert bank.title == {"en": "Science: Computers"}
    assert gpu.prompt == {"en": "What does \"GPU\" stand for in 'GPGPU'?"}
    assert [c["en"] for c in gpu.choices] == [
        "Graphics Processing Unit",
        "General Processing Unit",
        "Graphical & Parallel Unit",
    ]
    assert (gpu.answer, gpu.difficulty, gpu.missing) == (0, "hard", ("explanation", "references"))
    assert [c["en"] for c in nccl.choices] == ["True", "False"] and nccl.answer == 0
    assert nccl.difficulty == "easy"


def test_opentdb_problems() -> None:
    assert problems(OPENTDB, "opentdb", allow_missing=True) == [
        "team.opentdb:15: question #3: a question of type 'text': not supported"
        " (only multiple choice with one right answer, and true/false)"
    ]
    assert problems('{"results": [\n  {"type": "multiple",}\n]}', "opentdb") == [
        "team.opentdb:2: JSON syntax error: Expecting property name enclosed in double quotes"
    ]


def test_opentdb_numbers_of_any_length_and_lone_surrogates() -> None:
    """Found by the fuzz tests: int() refused a number of 4,301 digits, and a text with
    a lone surrogate (``"\\ud800"``) passed until the bank file could not be written."""
    digits = "9" * 5000
    assert problems(f'{{"response_code": {digits}, "results": []}}', "opentdb") == [
        f"team.opentdb:1: response_code {digits}: the API sent no questions"
    ]
    half = '[\n{"type": "multiple", "question": "Wh\\ud800y?", "correct_answer": "a",'
    assert problems(half + ' "incorrect_answers": ["b"]}]', "opentdb", allow_missing=True) == [
        "team.opentdb:2: bank team: question why: prompt (en) holds U+D800, half of a"
        " surrogate pair: write the character itself"
    ]


# --- CSV -------------------------------------------------------------------------------

CSV = (
    "\ufeffid,difficulty,prompt,choice_1,choice_2,choice_3,choice_4,choice_5,answer,"
    "explanation,references\r\n"
    'tp-1,hard,"Tensor parallelism splits what?\nPick one.",'
    '"Each layer\'s matrices, ""column"" or row-wise",Batches,,,,1,'
    '"Megatron-LM splits each layer.\nIt needs an all-reduce.",'
    "https://arxiv.org/abs/1909.08053|https://example.org/b\r\n"
)


def test_csv_bom_quoted_newlines_and_quotes() -> None:
    text = CSV.removeprefix("\ufeff")  # the file reader strips the byte order mark
    [question] = imported(text, "csv").bank.questions
    assert (question.id, question.difficulty) == ("tp-1", "hard")
    assert question.prompt == {"en": "Tensor parallelism splits what?\nPick one."}
    assert [c["en"] for c in question.choices] == [
        'Each layer\'s matrices, "column" or row-wise',
        "Batches",
    ]
    assert question.explanation == {"en": "Megatron-LM splits each layer.\nIt needs an all-reduce."}
    assert question.references == ("https://arxiv.org/abs/1909.08053", "https://example.org/b")


def test_csv_file_with_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "bom.csv"
    path.write_bytes(CSV.encode("utf-8"))
    result, found = import_file(path, Options())
    assert found == [] and result is not None
    assert result.bank.questions[0].id == "tp-1"


def test_csv_problems_name_the_record_line() -> None:
    header = "id,prompt,choice_1,choice_2,choice_3,answer,explanation,references\n"
    text = (
        header
        + '1st,"Two\nlines",a,b,,3,Why.,https://example.org/a\n'
        + "gap,Gap?,a,,c,1,Why.,https://example.org/a\n"
        + "short,Short?,a\n"
        + "fine,Fine?,a,b,,2,Why.,https://example.org/a\n"
    )
    assert problems(text, "csv") == [
        "team.csv:2: question #1: answer '3' must be the number of the right choice, 1 to 2",
        "team.csv:4: question #2: choice_2 is empty but a later choice is not",
        "team.csv:5: question #3: 3 fields where the header has 8",
    ]
    assert problems("id,question,answer\n", "csv") == [
        "team.csv:1: unknown column(s): question; missing column(s): prompt, choice_1, choice_2"
        " (the columns: id,difficulty,prompt,choice_1,choice_2,choice_3,choice_4,choice_5,"
        "answer,explanation,references,value,unit,tolerance)"
    ]


def test_ids_are_stable_and_unique() -> None:
    text = "id,prompt,choice_1,choice_2,answer\n,Same?,a,b,1\n,Same?,a,b,2\nBad Id,सही?,a,b,1\n"
    ids = [q.id for q in imported(text, "csv", allow_missing=True).bank.questions]
    assert ids == ["same", "same-2", "bad-id"]
    again = [q.id for q in imported(text, "csv", allow_missing=True).bank.questions]
    assert again == ids
    hindi = "id,prompt,choice_1,choice_2,answer\n,सही है?,हाँ,नहीं,1\n"
    [question] = imported(hindi, "csv", allow_missing=True, language="hi").bank.questions
    assert question.id == "q1"


def test_many_alike_prompts_take_the_next_free_suffix() -> None:
    """Ids of repeated prompts: -2, -3, …, stepping over ids a question already has."""
    rows = [",Same?,a,b,1"] * 4 + ["same-4,Other?,a,b,1"] + [",Same?,a,b,1"] * 2
    text = "id,prompt,choice_1,choice_2,answer\n" + "\n".join(rows) + "\n"
    ids = [q.id for q in imported(text, "csv", allow_missing=True).bank.questions]
    assert ids == ["same", "same-2", "same-3", "same-4", "same-4-2", "same-5", "same-6"]


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "＝", "'=", "''-"])
def test_csv_cells_a_spreadsheet_would_run_are_written_as_text_and_read_back(start: str) -> None:
    """Quoted on the way out with an apostrophe, which the reader takes off again: the
    bank comes back as it was, also when its text began with apostrophes."""
    prompt, choice = f"{start}1+1 is?", f"{start}2"
    cells = f"q1,{safe_cell(prompt)},{safe_cell(choice)},3,1"
    bank = imported(
        f"id,prompt,choice_1,choice_2,answer\n{cells}\n", "csv", allow_missing=True
    ).bank
    assert (bank.questions[0].prompt["en"], bank.questions[0].choices[0]["en"]) == (prompt, choice)
    exported = FORMATS["csv"].write(bank, "en")
    assert exported.splitlines()[1].startswith(f"q1,medium,'{prompt},'{choice},3,")
    again = imported(exported, "csv", allow_missing=True).bank
    assert again.questions[0].prompt == bank.questions[0].prompt
    assert again.questions[0].choices == bank.questions[0].choices


def test_only_text_that_a_spreadsheet_would_run_is_quoted() -> None:
    assert [safe_cell(v) for v in ("\tx", "\rx", "a=b", "", "'quoted", -5, 40)] == [
        "'\tx",
        "'\rx",
        "a=b",
        "",
        "'quoted",
        -5,
        40,
    ]


def test_a_csv_with_a_nul_byte_or_a_quote_left_open_is_refused_at_its_line() -> None:
    header = "id,prompt,choice_1,choice_2,answer\n"
    assert problems(header + "q1,One?,a,b,1\nq2,Tw\x00o?,a,b,1\n", "csv") == [
        "team.csv:3: a NUL byte (\\x00): not CSV text"
    ]
    open_quote = header + 'q1,One?,a,b,1\nq2,"Two?,a,b,1\nq3,Three?,a,b,1\n'
    assert problems(open_quote, "csv", allow_missing=True) == [
        "team.csv:3: CSV error: unexpected end of data (a quote opened on this row is not closed)"
    ]


def test_csv_an_answer_int_cannot_read_is_refused() -> None:
    """Found by the fuzz tests: "²" is a digit to str.isdigit, not to int(), which also
    refuses thousands of digits."""
    header = "id,prompt,choice_1,choice_2,answer\n"
    digits = "1" * 5000
    assert problems(header + f"q1,One?,a,b,²\nq2,Two?,a,b,{digits}\n", "csv") == [
        "team.csv:2: question #1: answer '²' must be the number of the right choice, 1 to 2",
        f"team.csv:3: question #2: answer '{digits}' must be the number of the right choice,"
        " 1 to 2",
    ]


# --- YAML banks sent in chat -----------------------------------------------------------

TINY = (FIXTURES / "tiny.yaml").read_text(encoding="utf-8")


def upload_problems(text: str) -> list[str]:
    result, found = bank_from_upload("team.yaml", text.encode(), Options())
    assert result is None
    return [str(p) for p in found]


@pytest.mark.parametrize(
    ("before", "after", "error"),
    [
        (  # int() refuses thousands of digits
            "answer: 0",
            "answer: " + "1" * 5000,
            "team.yaml:13: bank tiny: question tiny-one: answer must be the 0-based index of"
            " the right choice",
        ),
        (  # no UTF-8 file can hold it
            '"One plus one?"',
            '"One \\ud800plus one?"',
            "team.yaml:8: bank tiny: question tiny-one: prompt (en) holds U+D800, half of a"
            " surrogate pair: write the character itself",
        ),
        (  # was reported at line 1, with its offset in characters
            '"Six"',
            '"S\x00ix"',
            "team.yaml:21: YAML error: the character U+0000 is not allowed: remove it",
        ),
    ],
    ids=["long-answer", "surrogate", "nul"],
)
def test_a_yaml_bank_upload_found_broken_by_the_fuzz_tests_is_refused_at_its_line(
    before: str, after: str, error: str
) -> None:
    assert upload_problems(TINY.replace(before, after, 1)) == [error]
